"""Claims of Liu et al. 2024 added by issue 21 (absent from the first ledger), and one beyond the paper.

Each check runs the package's algorithms on the paper setting (``generate_instance(n_jobs=4, n_workers=K)``: the
first four Table III jobs, V100/P100/T4 1:1:1, H = 1.15) unless it says otherwise; each claim's flip
reruns the same experiment with one thing changed.
"""

from __future__ import annotations

import time
from functools import cache

import numpy as np

from ...claims.experiment import experiment
from ...claims.ledger import Claim, Flip, Outcome, Sweep, Verdict, close_to, outside_premise
from ...report import Table
from . import runs as X

__all__ = ["CLAIMS", "SWEEPS"]

P = "placement"
R, WL, DM, PE, UX, OP = (Verdict.REPRODUCED, Verdict.DEPENDS_ON_WORKLOAD, Verdict.DATA_MISSING, Verdict.PAPER_ERROR,
                         Verdict.UNEXPLAINED, Verdict.OUTSIDE_PREMISE)
SCALE = "placement.jps_scale"
#: A proxy points the paper's way only by more than this (issue 30): one percentage point of JCT, the tolerance of
#: a match in these checks, or 0.01 of a fairness degree or a fraction.
MARGIN_POINTS, MARGIN_FRACTION = 1.0, 0.01


# --------------------------------------------------------------------------------------------- Prop. 1
def _prop1(rule: str = "paper") -> Outcome:
    from .. import generate_instance, has, n_categories

    inst = generate_instance(n_jobs=4, n_workers=15)
    h = has(inst)
    evaluated = int(h.info["categories"])
    ended, steps, bound = X.pricing_run(rule)
    per_cat = ended and steps is not None and steps <= bound and evaluated == n_categories(4, 15)
    detail = (f"HAS runs Algorithm 2 on {evaluated} categories (C(14, 3) = {n_categories(4, 15)}); pricing with rule={rule!r} on "
              f"liu2024_auction_cycle (8, 4, 2, 1): {'ended after ' + str(steps) if ended else 'not ended after ' + str(bound + 1)}"
              f" updates (P_max = {bound})")
    if per_cat:
        return Outcome(f"{steps} <= P_max", R, detail)
    return Outcome(f"> P_max = {bound}", PE, detail)


# --------------------------------------------------------------------------------------------- Fig. 5
def _jain(x: np.ndarray) -> float:
    return float(x.sum() ** 2 / (len(x) * (x ** 2).sum()))


@cache
def _all_categories(K: int, order: str = "none") -> list:
    """Algorithm 2's placement on every category of Psi (K = 30 by the Hungarian route, same P3 optimum by Theorem 2)."""
    from .. import categories, job_priority
    from ..has import evaluate_categories

    inst = X.paper_instance(K, 1.15)
    o = None if order == "none" else (job_priority(inst) if order == "priority" else job_priority(inst)[::-1])
    return evaluate_categories(inst, categories(4, K), market="auction" if K <= 15 else "assignment", order=o)


def _fig5(equal_share: str = "per_job") -> Outcome:
    from .. import equal_share_jct, job_jct

    ranges = {}
    for K in (15, 30):
        inst = X.paper_instance(K, 1.15)
        e = equal_share_jct(inst)
        if equal_share == "printed":  # eq. (32) with its leading sum over i: one Lambda^[e] for every job
            e = np.full_like(e, e.sum())
        f = [_jain(job_jct(inst, a) / e) for _, a, _ in _all_categories(K)]
        ranges[K] = (min(f), max(f))
        # paper: [0.527, 0.994] (K = 15), [0.384, 0.999] (K = 30)
    paper = {15: (0.527, 0.994), 30: (0.384, 0.999)}
    detail = (f"fairness (33) of Algorithm 2 on every category, Lambda^[e] {equal_share}: " +
              "; ".join(f"K={K} [{lo:.3f}, {hi:.3f}] (paper [{paper[K][0]}, {paper[K][1]}])" for K, (lo, hi) in ranges.items()))
    ours = " / ".join(f"[{lo:.3f}, {hi:.3f}]" for lo, hi in ranges.values())
    if all(close_to(ranges[K][0], paper[K][0], atol=0.02) and close_to(ranges[K][1], paper[K][1], atol=0.02) for K in paper):
        return Outcome(ours, R, detail)
    agrees = all(hi >= 0.95 and lo <= 0.6 for lo, hi in ranges.values())
    return Outcome(ours, DM, detail, proxy_agrees=bool(agrees))


# --------------------------------------------------------------------------------------------- Section V-B
def _sample_mean(K: int, N: int, alpha: float, order: str = "priority", seeds: int = 20) -> float:
    """JPS with beta = 1 (Algorithm 3's sampling of N categories from Psi[alpha |Psi|, |Psi|]) over ``seeds`` seeds.

    The same draws as :func:`hetopt.placement.jps` (``rng.choice`` of positions) on the precomputed
    placements of every category; ``order`` maps category positions to jobs ("priority": Algorithm 3's
    line 1; "reversed": descending; "none": Algorithm 1's order).  Returns the mean gap to the optimum.
    """
    jv = np.array([r[2] for r in _all_categories(K, order)])
    tot = len(jv)
    lo = int(np.floor(alpha * tot))
    best = X.optimum_of(X.paper_instance(K, 1.15))
    out = []
    for s in range(seeds):
        rng = np.random.default_rng(s)
        picks = rng.choice(tot - lo, size=min(N, tot - lo), replace=False) + lo
        out.append(jv[picks].min())
    return float(np.mean(out) / best - 1)


def _sec5b(order: str = "priority") -> Outcome:
    rnd = {K: 100 * _sample_mean(K, 20, 0.0, "none") for K in (15, 30)}
    pri = {K: 100 * _sample_mean(K, 20, 0.7, order) for K in (15, 30)}
    paper_r, paper_p = {15: 7.65, 30: 10.43}, {15: 2.95, 30: 5.10}
    detail = (f"N = 20, 20 seeds, jobs {order}: random sampling over Psi " + " / ".join(f"+{rnd[K]:.2f}" for K in rnd) +
              " % (paper +7.65 / +10.43), alpha = 0.7 " + " / ".join(f"+{pri[K]:.2f}" for K in pri) +
              " % (paper +2.95 / +5.10) for K = 15 / 30")
    ours = f"{rnd[15]:.2f} / {rnd[30]:.2f} vs {pri[15]:.2f} / {pri[30]:.2f} %"
    if all(close_to(rnd[K], paper_r[K], atol=1) and close_to(pri[K], paper_p[K], atol=1) for K in (15, 30)):
        return Outcome(ours, R, detail)
    return Outcome(ours, DM, detail, proxy_agrees=bool(all(pri[K] < rnd[K] - MARGIN_POINTS for K in (15, 30))))


# --------------------------------------------------------------------------------------------- Fig. 6
def _fig6(order: str = "priority") -> Outcome:
    j = np.array([r[2] for r in _all_categories(15, order)])
    n = len(j) // 3
    sl = X.slope(np.arange(len(j)), j)
    front, rear = float(j[:n].mean()), float(j[-n:].mean())
    detail = (f"average JCT of Algorithm 2 on the 364 categories, jobs in {order} order: slope {sl:.1f} s per category, "
              f"first third {front:.0f} s, last third {rear:.0f} s; best category at position {int(np.argmin(j)) + 1}")
    return Outcome(f"{front:.0f} -> {rear:.0f} s", R if sl < 0 and rear < front else UX, detail)


# --------------------------------------------------------------------------------------------- Table IV
@cache
def _market_work(K: int, order: str) -> np.ndarray:
    """Work of Algorithm 2 on every category of Psi (positions in Algorithm 1's order): 1 + its price updates.

    ``order`` maps positions to jobs as in :func:`_all_categories` ("none": HAS; "priority": JPS).
    Counted, not timed (issue 30: no verdict depends on wall-clock time).
    """
    from .. import categories, job_priority, matching_market

    inst = X.paper_instance(K, 1.15)
    o = None if order == "none" else job_priority(inst)
    work = []
    for cat in categories(4, K):
        c = np.asarray(cat, dtype=int)
        if o is not None:
            per_job = np.empty_like(c)
            per_job[o] = c
            c = per_job
        work.append(1 + matching_market(inst, tuple(int(x) for x in c)).iterations)
    return np.array(work, dtype=float)


#: The growth of the running-time ratio from K = 15 to K = 30 that counts as the paper's direction (its 10.1x):
#: above half of it, a margin no tie-breaking of the samples crosses.
TABLE4_GROWTH = 5.0


def _table4(samples: str = "fixed") -> Outcome:
    """Table IV as counted work: Algorithm 2's price updates over HAS's categories against JPS's samples.

    ``samples="fixed"``: JPS samples N = 60 categories (the paper's); ``"scaled"`` (the flip):
    N = |Psi| / 6 (61 at K = 15, 609 at K = 30).  JPS's work is the mean over seeds 0-2 of its
    sampled categories' work (Algorithm 3's draws).
    """
    ratios, ns = {}, {}
    for K in (15, 30):
        total = _market_work(K, "none").sum()
        jps_work = _market_work(K, "priority")
        n_all = len(jps_work)
        N = 60 if samples == "fixed" else int(round(n_all / 6))
        lo = int(np.floor(0.7 * n_all))
        per = [jps_work[np.random.default_rng(s).choice(n_all - lo, size=min(N, n_all - lo), replace=False) + lo].sum()
               for s in range(3)]
        ratios[K], ns[K] = total / float(np.mean(per)), N
    growth = ratios[30] / ratios[15]
    detail = (f"Algorithm 2's work (1 + price updates per category) of HAS over JPS (N = {ns[15]} / {ns[30]}): "
              f"{ratios[15]:.2f}x (K = 15), {ratios[30]:.2f}x (K = 30), growth {growth:.1f}x (paper's running times "
              f"4.86x / 49.15x, growth 10.1x; direction: growth above {TABLE4_GROWTH:g}x)")
    ours = f"{ratios[15]:.1f}x / {ratios[30]:.1f}x"
    if close_to(ratios[15], 4.86, rtol=0.2) and close_to(ratios[30], 49.15, rtol=0.2):
        return Outcome(ours, R, detail)
    return Outcome(ours, DM, detail, proxy_agrees=bool(growth > TABLE4_GROWTH))


# --------------------------------------------------------------------------------------------- Fig. 11
@cache
def _by_s(S: int, alpha: float = 0.7) -> tuple[float, float, float, float]:
    """(JPS N = 60 mean of 10 seeds, optimum, Optimus-LB, Optimus-LB balanced_gains) at K = 15 with S jobs."""
    from .. import jps, optimus_lb

    inst = X.paper_instance(15, 1.15, S)
    j = float(np.mean([jps(inst, n_samples=60, alpha=alpha, seed=s).objective for s in range(10)]))
    return j, X.optimum_of(inst), float(optimus_lb(inst).objective), float(optimus_lb(inst, reading="balanced_gains").objective)


def _fig11_loss(alpha: float = 0.7) -> Outcome:
    loss = {S: 100 * (_by_s(S, alpha)[0] / _by_s(S, alpha)[1] - 1) for S in (3, 4, 5)}
    detail = f"JPS (N = 60, alpha {alpha}, 10 seeds) above the certified optimum, K = 15, S = 3/4/5: " + \
        " / ".join(f"+{v:.2f}" for v in loss.values()) + " % (paper 0.53-5.68 %)"
    ok = close_to(min(loss.values()), 0.53, atol=1) and close_to(max(loss.values()), 5.68, atol=1)
    return Outcome(f"{min(loss.values()):.2f}-{max(loss.values()):.2f} %", R if ok else UX, detail)


def _fig11_lb(reading: str = "optimus_placement") -> Outcome:
    k = 2 if reading == "optimus_placement" else 3
    red = {S: 100 * (1 - _by_s(S)[0] / _by_s(S)[k]) for S in (3, 4, 5)}
    detail = f"JPS (N = 60) below Optimus-LB ({reading}), K = 15, S = 3/4/5: " + \
        " / ".join(f"{v:.2f}" for v in red.values()) + " % (paper 9.38-14.5 %)"
    ours = f"{min(red.values()):.2f}-{max(red.values()):.2f} %"
    if close_to(min(red.values()), 9.38, atol=1.5) and close_to(max(red.values()), 14.5, atol=1.5):
        return Outcome(ours, R, detail)
    return Outcome(ours, DM, detail, proxy_agrees=bool(min(red.values()) > MARGIN_POINTS))


# --------------------------------------------------------------------------------------------- Fig. 12
ALPHAS = tuple(round(a, 1) for a in np.arange(0.0, 1.0, 0.1))


def _fig12(order: str = "priority") -> Outcome:
    vals = [_sample_mean(15, 20, a, order) for a in ALPHAS]
    best = ALPHAS[int(np.argmin(vals))]
    pos = int(np.argmin([r[2] for r in _all_categories(15, order)])) + 1
    detail = (f"JPS (N = 20, beta 1, 20 seeds) gap by alpha 0..0.9, jobs {order}: " + " / ".join(f"{100 * v:.1f}" for v in vals) +
              f" %; best alpha {best}; the best category sits at position {pos} of 364 (paper: 276th, alpha 0.7 best)")
    if best == 0.7:
        return Outcome(f"alpha = {best}", R, detail)
    falls = vals[ALPHAS.index(0.7)] < vals[0] - MARGIN_FRACTION
    return Outcome(f"alpha = {best}", DM, detail, proxy_agrees=bool(falls))


# --------------------------------------------------------------------------------------------- Fig. 13
def _fig13(n_samples: int = 60) -> Outcome:
    from .. import jps

    inst = X.paper_instance(15, 1.15)
    rows = []
    for b in (0.0, 0.5, 1.0):
        sols = [jps(inst, n_samples=n_samples, beta=b, seed=s) for s in range(5)]
        rows.append((b, float(np.mean([s.objective for s in sols])), float(np.mean([s.fairness for s in sols]))))
    detail = (f"JPS (N = {n_samples}, 5 seeds), beta 0 / 0.5 / 1: average JCT " + " / ".join(f"{j:.0f}" for _, j, _ in rows) +
              " s, fairness " + " / ".join(f"{f:.3f}" for _, _, f in rows) + " (paper 4,301.35 -> 3,944.17 s, 0.947 -> 0.821)")
    (_, j0, f0), (_, j1, f1) = rows[0], rows[-1]
    ours = f"{j0:.0f} -> {j1:.0f} s; {f0:.3f} -> {f1:.3f}"
    if close_to(j0, 4301.35, rtol=0.05) and close_to(j1, 3944.17, rtol=0.05) and close_to(f0, 0.947, atol=0.02) \
            and close_to(f1, 0.821, atol=0.02):
        return Outcome(ours, R, detail)
    return Outcome(ours, DM, detail,
                   proxy_agrees=bool(j1 < j0 * (1 - MARGIN_FRACTION) and f1 < f0 - MARGIN_FRACTION))


# --------------------------------------------------------------------------------------------- Fig. 14
def _fig14_jct(reading: str = "mix") -> Outcome:
    pts = X.trend(reading, "has")
    H = [h for h, _, _ in pts]
    opt = [o for _, _, o in pts]
    sl = X.slope(H, opt)
    detail = f"certified optimal average JCT along the {reading} H axis, H " + " / ".join(f"{h:.3f}" for h in H) + ": " + \
        " / ".join(f"{o:.0f}" for o in opt) + f" s (slope {sl:.0f} s per unit H)"
    return Outcome(f"{opt[0]:.0f} -> {opt[-1]:.0f} s", R if sl < 0 and opt[-1] < opt[0] else UX, detail)


# --------------------------------------------------------------------------------------------- Fig. 15
def _fig15(eps: float = 0.3) -> Outcome:
    from .. import average_jct, has, jps, perturb_throughput

    inst = X.paper_instance(15, 1.15)
    h0 = has(inst).objective
    seeds = range(5)
    # the predicted throughputs differ per worker, so P3's optimum is unique and the Hungarian route gives
    # Algorithm 2's placement (Theorem 2, liu2024.thm2.market_solves_p3) at a fraction of the time
    hh = [average_jct(inst, has(perturb_throughput(inst, eps, seed=s), market="assignment").assignment) for s in seeds]
    j0 = np.mean([jps(inst, n_samples=60, seed=s).objective for s in seeds])
    jj = [average_jct(inst, jps(perturb_throughput(inst, eps, seed=s), n_samples=60, seed=s, market="assignment").assignment)
          for s in seeds]
    dh, dj = float(100 * (np.mean(hh) / h0 - 1)), float(100 * (np.mean(jj) / j0 - 1))
    detail = (f"epsilon = {eps:.0%}: decisions on the predicted throughputs, JCT on the true ones, 5 seeds: HAS +{dh:.2f} %, "
              f"JPS +{dj:.2f} % (paper +3.75 / +4.3 %)")
    ours = f"+{dh:.2f} / +{dj:.2f} %"
    if close_to(dh, 3.75, atol=1) and close_to(dj, 4.3, atol=1):
        return Outcome(ours, R, detail)
    return Outcome(ours, DM, detail, proxy_agrees=bool(0.1 < min(dh, dj) and max(dh, dj) < 10))


# --------------------------------------------------------------------------------------------- Fig. 16
@cache
def _fig16_row(K: int, heterogeneity: float, n_samples: int = 60) -> tuple[float, float, float]:
    """(JPS mean of 3 seeds, Optimus, Optimus-LB) average JCT on the paper setting with K workers."""
    from .. import jps, optimus, optimus_lb

    inst = X.paper_instance(K, heterogeneity)
    j = float(np.mean([jps(inst, n_samples=n_samples, seed=s).objective for s in range(3)]))
    return j, float(optimus(inst).objective), float(optimus_lb(inst).objective)


FIG16_K = (15, 30, 50, 100)


def _fig16(heterogeneity: float = 1.15) -> Outcome:
    rows = [(K, *_fig16_row(K, heterogeneity)) for K in FIG16_K]
    detail = (f"H = {heterogeneity:g}, JPS (N = 60, 3 seeds) / Optimus / Optimus-LB average JCT: " +
              "; ".join(f"K={K}: {j:.0f} / {o:.0f} / {lb:.0f} s" for K, j, o, lb in rows))
    wins = all(j < o for _, j, o, _ in rows)
    return Outcome(f"{sum(j < o for _, j, o, _ in rows)}/{len(rows)} K", R if wins else UX, detail)


def _fig16_lb(n_samples: int = 60) -> Outcome:
    rows = [(K, *_fig16_row(K, 1.15, n_samples)) for K in FIG16_K]
    readings = {f"K = {K}": R if j < lb else UX for K, j, _, lb in rows}
    detail = (f"JPS (N = {n_samples}, 3 seeds) / Optimus-LB average JCT, paper setting: " +
              "; ".join(f"K={K}: {j:.0f} / {lb:.0f} s ({100 * (j / lb - 1):+.2f} %)" for K, j, _, lb in rows))
    vs = set(readings.values())
    v = R if vs == {R} else (WL if len(vs) > 1 else UX)
    return Outcome(f"{sum(r is R for r in readings.values())}/{len(rows)} K", v, detail, readings=readings)


# --------------------------------------------------------------------------------------------- Fig. 18
def _fig18(rate_divisor: float = 1.0) -> Outcome:
    from .. import PlacementInstance, simulate

    inst = X.paper_instance(15, 1.15)
    if rate_divisor != 1.0:
        d = inst.to_dict()
        d["inter_node_rate"] = d["inter_node_rate"] / rate_divisor
        d["intra_node_rate"] = d["intra_node_rate"] / rate_divisor
        inst = PlacementInstance.from_dict(d)
    jct = [simulate(inst, "gavel", options={"scale_factor": [s, 5, 5, 5]}).average_jct for s in range(1, 6)]
    detail = (f"Gavel (rounds of 360 s), scale factor of job 1 = 1..5, the others 5, link rates / {rate_divisor:g}: average JCT " +
              " / ".join(f"{v:.0f}" for v in jct) + " s")
    falls = all(b < a for a, b in zip(jct, jct[1:], strict=False))
    return Outcome(f"{jct[0]:.0f} -> {jct[-1]:.0f} s", R if falls else UX, detail)


# --------------------------------------------------------------------------------------------- beyond the paper
@cache
def _jps_vs_certified(K: int, seed: int = 0, n_samples: int = 60, jps_seeds: int = 5, epsilon: float = 0.0,
                      market: str = "auction", timed: bool = False) -> dict:
    """JPS (N samples, jps_seeds seeds) on generate_instance(4, K, seed=seed, epsilon) against the certified optimum.

    ``market="assignment"`` takes each sampled category's P3 optimum by the Hungarian algorithm (the same
    throughput as Algorithm 2 by Theorem 2; 20-30x faster at K = 1000, where the market takes about a minute
    per JPS call).  ``timed``: also the seconds the optimum took (for the sweep's table; a claim's
    check reads no clock, issue 30).
    """
    from .. import generate_instance, jps, solve_exact

    inst = generate_instance(n_jobs=4, n_workers=K, seed=seed, epsilon=epsilon)
    t0 = time.perf_counter() if timed else 0.0
    opt = solve_exact(inst) if timed else X._opt(inst)  # timed: solved here, not read from the process's optima
    t_opt = time.perf_counter() - t0 if timed else None
    if opt.status.value != "optimal":
        raise RuntimeError(f"K={K}: optimum not certified ({opt.status.value}); never call a time-limited value optimal")
    g = np.array([jps(inst, n_samples=n_samples, seed=s, market=market).objective / opt.objective - 1
                  for s in range(jps_seeds)])
    return {"mean": float(g.mean()), "max": float(g.max()), "optimum": float(opt.objective), "seconds": t_opt}


#: The largest K at which the paper measured JPS against exhaustive search (Fig. 9): the premise of its 2.04 %.
PAPER_MAX_K = 30


def _beyond(K: int = 100) -> Outcome:
    """JPS (N = 60, 5 seeds) within 2.04 % of the certified optimum at ``K`` (the Hungarian P3 route from K = 300).

    Beyond the paper's sizes (K > 30, measured) the same experiment runs at K = 30, inside the
    premise; the claim is outside its premise only when it holds there (issue 30).
    """
    r = _jps_vs_certified(K, market="assignment" if K >= 300 else "auction")
    detail = (f"JPS (N = 60, 5 seeds) above the certified optimum (solve_exact, OPTIMAL) at K = {K}: mean "
              f"+{100 * r['mean']:.2f} %, max +{100 * r['max']:.2f} % (optimum {r['optimum']:.1f} s, certified; "
              f"paper: within 2.04 % at K <= {PAPER_MAX_K})")
    ours = f"+{100 * r['mean']:.2f} %"
    if r["mean"] <= 0.0204:
        return Outcome(ours, R, detail)
    if K > PAPER_MAX_K:
        return outside_premise(ours, detail, _beyond(PAPER_MAX_K), ran={"K": (PAPER_MAX_K,)})
    return Outcome(ours, UX, detail)


def _beyond_has(workload: str = "paper", K: int = 100) -> Outcome:
    """HAS over all C(K-1, 3) categories (P3 by the Hungarian route, Theorem 2) against the certified optimum.

    ``workload="gavel"``: hetopt's Gavel-throughput workload (seed 1, V100/P100/K80, H about 4) instead of the paper's.
    """
    from .. import generate_instance, has, heterogeneity_degree

    inst = X.paper_instance(K, 1.15) if workload == "paper" else generate_instance(n_jobs=4, n_workers=K, seed=1,
                                                                                   setting="gavel")
    heterogeneity = heterogeneity_degree(inst)
    best = X.optimum_of(inst)
    h = has(inst, market="assignment", max_size=None)
    gap = h.objective / best - 1
    detail = (f"K = {K}, {workload} workload (H = {heterogeneity:.2f}): HAS on all {h.info['categories']:,} categories {h.objective:.1f} s, "
              f"certified optimum {best:.1f} s: +{100 * gap:.2f} % (near-optimal: within 1.5 %; the paper stops HAS at K = 100, "
              "12.98 h)")
    return Outcome(f"+{100 * gap:.2f} %", R if gap <= 0.015 else UX, detail)


def jps_scale_table(quick: bool = False) -> Table:
    """JPS' gap to the certified optimum against K (beyond the paper's K <= 30), over instance and JPS seeds."""
    Ks = (15, 100) if quick else (15, 30, 50, 100, 200, 300, 1000)
    inst_seeds = (0,) if quick else (0, 1, 2)
    t = Table("placement: JPS above the certified optimum against K (S = 4, paper setting)",
              ["K", "instance seed", "N", "mean gap", "max gap", "optimum [s]", "certified in [s]"])
    for K in Ks:
        for s in inst_seeds:
            for N in ((60,) if quick else (40, 60)):
                r = _jps_vs_certified(K, s, N, 3 if K >= 300 else 5, 0.0 if s == 0 else 0.1,
                                      "assignment" if K >= 300 else "auction", timed=True)
                t.add(K, s, N, r["mean"], r["max"], r["optimum"], r["seconds"])
    t.notes.append("instance seed 0: generate_instance(n_jobs=4, n_workers=K) as is; seeds 1-2: 10 % throughput noise "
                   "per (job, type). "
                   "Gaps over 5 JPS seeds (3 for K >= 300, with P3 solved by the Hungarian route: Theorem 2); every "
                   "optimum certified by solve_exact (status OPTIMAL).")
    t.notes.append("paper (Fig. 9): JPS (N = 60) +0.54 % (K = 15) and +2.04 % (K = 30), measured where exhaustive search ran.")
    return t


def _c(id_, location, statement, paper_value, verdict, diagnosis, check, *, flip, direction="", cost="fast", sweep=None,
       evidence=(), beyond=False) -> Claim:
    return Claim(id=id_, paper=P, location=location, statement=statement, paper_value=paper_value, verdict=verdict,
                 diagnosis=diagnosis, check=check, evidence=tuple(evidence), cost=cost, sweep=sweep, flip=flip,
                 direction=direction, beyond=beyond)


CLAIMS: list[Claim] = [
    _c("liu2024.prop1.complexity", "Section IV-B, Proposition 1",
       "Algorithm 2 needs O(S K P_max C(K-1, S-1)) steps: at most P_max price updates per category, C(K-1, S-1) categories",
       "O(S K P_max C(K-1, S-1))", PE,
       "The count of categories holds (HAS runs Algorithm 2 on all 364 for S = 4, K = 15), but the proof's 'the while loop is "
       "performed for P_max times at most' is Theorem 1's bound, which eq. (22) as printed breaks: on liu2024_auction_cycle, "
       "category (8, 4, 2, 1), the pricing has not ended after P_max + 1 = 19,672 updates. Flip: the exact (Demange-Gale-"
       "Sotomayor) price update ends within P_max (3 updates), and the bound holds.",
       experiment(_prop1), evidence=("liu2024_auction_cycle",),
       flip=Flip("the price update of Demange, Gale and Sotomayor (rule='dgs') instead of eq. (22)", R, "rule", "dgs")),
    _c("liu2024.fig5.fairness_ranges", "Section V-A, Fig. 5",
       "The fairness degrees of all categories range over [0.527, 0.994] for K = 15 and [0.384, 0.999] for K = 30: some category "
       "is nearly equal", "[0.527, 0.994] / [0.384, 0.999]", DM,
       "Fairness (33) of Algorithm 2's placement on every category of the paper setting: [0.477, 0.989] (K = 15) and "
       "[0.338, 0.997] (K = 30): the upper ends match, the lower ends are 0.05 lower; the range moves with the unpublished "
       "matrix, the direction (a wide range with a nearly equal category) agrees. Flip (a reading of the formula): eq. (32) as "
       "printed, with its leading sum over i (one Lambda^[e] for every job): the best category only reaches 0.890 at K = 15, "
       "no category is nearly equal, the proxy no longer agrees.",
       experiment(_fig5), direction="the fairness range is wide and some category is nearly equal (fairness >= 0.95)",
       flip=Flip("eq. (32) as printed (leading sum over i: one Lambda^[e] for every job)", UX, "equal_share", "printed")),
    _c("liu2024.sec5b.random_vs_prioritized", "Section V-B",
       "With N = 20, random sampling raises the average JCT by 7.65 % / 10.43 % (K = 15 / 30); job prioritizing with alpha = 0.7 "
       "by 2.95 % / 5.10 %", "7.65 / 10.43 % vs 2.95 / 5.10 %", DM,
       "Our random sampling loses +8.8 / +14.6 %, prioritized sampling +4.2 / +7.5 % (N = 20, 20 seeds, certified optima): "
       "1.2-4.2 points above the paper's, which rest on the unpublished matrix; the direction (prioritizing more than "
       "halves the loss) agrees. Flip: jobs prioritized in reverse (heaviest first): the rear of Psi gives the most workers to "
       "the lightest jobs and prioritized sampling loses more than random.",
       experiment(_sec5b), direction="sampling the rear of Psi with job prioritizing loses less than random sampling",
       flip=Flip("jobs prioritized in descending order of T_i |Pi_i| / (S sum_k rho_ik) instead of ascending", UX,
                 "order", "reversed")),
    _c("liu2024.fig6.decline", "Section V-B, Fig. 6",
       "After job prioritizing, the average JCT of the categories shows a trend of decline along Psi", "decline", R,
       "Algorithm 2 on the 364 categories with Algorithm 3's job order: the JCT falls along Psi (least-squares slope negative, "
       "last third about half the first). Flip: the jobs in the reverse order: the trend rises, as without prioritizing.",
       experiment(_fig6), flip=Flip("jobs in descending instead of ascending priority", UX, "order", "reversed")),
    _c("liu2024.table4.art_ratios", "Section VI-B1, Table IV",
       "Compared with HAS, JPS (N = 60) reduces the algorithm running time by 4.86x (K = 15) and 49.15x (K = 30)",
       "4.86x / 49.15x", DM,
       "CPU time of HAS over JPS (N = 60, process time: robust to other processes) on this machine: about 7x (K = 15) and "
       "70x (K = 30), so the ratio grows "
       "about tenfold with K as in the paper (|Psi| / N: 6.1 and 60.9). Absolute ratios depend on the machine and the "
       "implementation; the direction agrees. Flip: N grown with |Psi| (N = |Psi| / 6): the ratio stays flat, the "
       "advantage no longer grows with K.",
       experiment(_table4), cost="slow", direction="JPS' running-time advantage over HAS grows about tenfold from K = 15 to K = 30",
       flip=Flip("N = |Psi| / 6 (61 at K = 15, 609 at K = 30) instead of 60", UX,
                 "samples", "scaled")),
    _c("liu2024.fig11.jps_loss_by_s", "Section VI-B1, Fig. 11",
       "Compared with exhaustive search, JPS (N = 60) loses 0.53 % to 5.68 % for S = 3-5 (K = 15)", "0.53-5.68 %", R,
       "JPS (N = 60, 10 seeds) above the certified optimum at S = 3 / 4 / 5: about +0.2 / +1.4 / +5.7 %: both ends within a "
       "point of the printed range. Flip (job prioritizing switched off): alpha = 0 loses more at every S and leaves the range.",
       experiment(_fig11_loss), flip=Flip("alpha = 0: samples from all of Psi (no job prioritizing)", UX, "alpha", 0.0)),
    _c("liu2024.fig11.jps_vs_optimus_lb", "Section VI-B1, Fig. 11",
       "Compared with Optimus-LB, JPS (N = 60) lowers the average JCT by 9.38 % to 14.5 % (S = 3-5)", "9.38-14.5 %", DM,
       "JPS is below Optimus-LB (the paper's reading) at every S, by 4-9 %: the direction agrees, the size rests on the "
       "unpublished matrix (Optimus-LB's loss swings with it, liu2024.fig9.optimus_lb_loss). Flip: Optimus-LB read as "
       "balanced_gains: at S = 5 it beats JPS, the proxy no longer agrees.",
       experiment(_fig11_lb), direction="JPS has a lower average JCT than Optimus-LB at every S",
       flip=Flip("Optimus-LB read as balanced_gains", UX, "reading", "balanced_gains")),
    _c("liu2024.fig12.alpha_best", "Section VI-B1, Fig. 12",
       "The JCT of JPS falls as alpha grows from 0 to 0.7 and rises from 0.7 to 0.9: alpha = 0.7 is best (the best category is "
       "the 276th of 364)", "alpha = 0.7", DM,
       "The best alpha sits just below the position of the best category, p*/|Psi|: the paper's best is the 276th (0.76), ours "
       "the 328th (0.90), so our JCT keeps falling up to alpha = 0.8 (N = 20, 20 seeds). Where the best category sits depends "
       "on the unpublished matrix; the direction (prioritized sampling gains from discarding the front of Psi) agrees. Flip: "
       "jobs in reverse priority: the best categories move to the front and the JCT rises with alpha.",
       experiment(_fig12), direction="JPS' average JCT falls as alpha grows from 0 to 0.7",
       flip=Flip("jobs in descending instead of ascending priority", UX, "order", "reversed")),
    _c("liu2024.fig13.beta_tradeoff", "Section VI-B1, Fig. 13",
       "As beta grows from 0 to 1 the average JCT of JPS falls (4,301.35 -> 3,944.17 s) and its fairness falls (0.947 -> 0.821)",
       "4,301.35 -> 3,944.17 s; 0.947 -> 0.821", DM,
       "On the paper setting (N = 60, 5 seeds) the JCT falls about 8,000 -> 7,270 s and the fairness 0.98 -> 0.77: the same "
       "trade-off; the JCTs are those of our matrix (the paper's is unpublished). Flip: N = 1 (a single sample): eq. (34) has "
       "nothing to choose from, beta changes nothing, the proxy no longer agrees.",
       experiment(_fig13), direction="raising beta lowers both the average JCT and the fairness of JPS",
       flip=Flip("N = 1 sample instead of 60", UX, "n_samples", 1)),
    _c("liu2024.fig14.jct_falls_with_h", "Section VI-B1, Fig. 14",
       "With more powerful workers (higher H) the average JCT decreases", "decreases", R,
       "On the paper's H axis (T4s replaced by V100s, sweep placement.optimus_trend) the certified optimal JCT falls from about "
       "7,420 s (H 1.11) to 6,770 s (H 1.23). Flip (the other reading of a ratio): H raised by slowing the slower workers "
       "(the knob's matrices divided by a common factor that keeps the fastest worker): the JCT rises with H.",
       experiment(_fig14_jct), sweep="placement.optimus_trend",
       flip=Flip("H raised by slowing the slower workers (fastest worker's speed kept) instead of adding V100s", UX,
                 "reading", "slowed")),
    _c("liu2024.fig15.prediction_error", "Section VI-B1, Fig. 15",
       "At a prediction error of 30 % the JCT of HAS and JPS rises by only 3.75 % and 4.3 %", "+3.75 % / +4.3 %", DM,
       "Decisions on throughputs drawn from [(1 - eps) rho, (1 + eps) rho] (perturb_throughput), JCT on the true ones: at "
       "eps = 30 % HAS +2.8 % and JPS +3.0 % (5 seeds), the paper's direction (a small rise) with a smaller size, which rests "
       "on the unpublished matrix. Flip: eps = 0: the decisions do not change, no rise (-0.3 / -0.2 %: the Hungarian route "
       "used for the predicted instances breaks P3's ties differently from the market), the proxy no longer agrees.",
       experiment(_fig15), direction="a 30 % prediction error raises the JCT of HAS and JPS a little (above 0, below 10 %)",
       flip=Flip("prediction error eps = 0 instead of 30 %", UX, "eps", 0.0)),
    _c("liu2024.fig16.jps_beats_optimus", "Section VI-B1, Fig. 16",
       "JPS consistently achieves a lower JCT than Optimus as K grows", "JPS < Optimus at every K", R,
       "At K = 15, 30, 50, 100 (paper setting) JPS (N = 60, 3 seeds) is below Optimus, by 5-38 % (against Optimus-LB see "
       "liu2024.fig16.jps_beats_optimus_lb). Flip: a homogeneous cluster (H = 1): Optimus' equal split is then proportional "
       "and its greedy is at least as good as JPS at every K (ties at K = 50).",
       experiment(_fig16), flip=Flip("a homogeneous cluster (H = 1) instead of H = 1.15", UX, "heterogeneity", 1.0)),
    _c("liu2024.fig16.jps_beats_optimus_lb", "Section VI-B1, Fig. 16",
       "JPS consistently achieves a lower JCT than Optimus-LB as K grows", "JPS < Optimus-LB at every K", WL,
       "JPS (N = 60, 3 seeds) is below Optimus-LB at K = 15, 50 and 100 but 0.4 % above it at K = 30, where JPS' sampling "
       "loss (+3.9 %, liu2024.fig9.jps_loss_k30) exceeds Optimus-LB's on our matrix: every K is a workload of the figure and "
       "they differ. Flip: N = 200 samples: JPS' sampling loss shrinks and it is below Optimus-LB at every K.",
       experiment(_fig16_lb), flip=Flip("N = 200 samples instead of 60", R, "n_samples", 200)),
    _c("liu2024.fig18.gavel_scale_factor", "Section VI-B2, Fig. 18",
       "Gavel's average JCT decreases as one job's scale factor grows from 1 to 5 (the others at 5)", "decreases", R,
       "hetopt's Gavel baseline (Gavel's round mechanism, one GPU type per job per round) on the paper setting: 18,712 -> "
       "6,865 s, falling at every step: more GPUs per job, compute-bound jobs. Flip (the premise removed): link rates 1,000 "
       "times slower, so Ring-AllReduce dominates: the JCT no longer falls.",
       experiment(_fig18), flip=Flip("link rates 1,000 times slower (communication-bound jobs)", UX, "rate_divisor", 1e3)),
    _c("liu2024.beyond.jps_large_k", "Beyond the paper: Section VI-B1's 'JPS within 2.04 % of the optimal JCT' at K > 30",
       "JPS (N = 60) stays within 2.04 % of the optimal average JCT beyond the sizes where exhaustive search ran (the paper "
       "applies it up to K = 300, Fig. 16)", "within 2.04 % (measured at K <= 30)", UX,
       "A claim hetopt adds beyond the paper (counted apart). The paper measured JPS' loss only where exhaustive search ran "
       "(K <= 30). solve_exact certifies the optimum at K = 100 in about a second: JPS (N = 60, 5 seeds) is +3.5 % above it "
       "on average (max +6.1 %). The premise (K <= 30) is measured absent, and the same experiment inside it, at K = 30, "
       "gives +3.79 % against the paper's 2.04 %: the claim fails inside its premise too, so the verdict is that failure "
       "(issue 30; it was fails-outside-premise by construction, whenever K > 30). The gap does not grow steadily with K (sweep "
       "placement.jps_scale, K 15-1,000, three instances per K, N = 40 and 60; with N = 60: K = 30 +2.9-5.1 %, 100 "
       "+2.7-4.9 %, 200 +2.4-4.1 %, 300 +0.9-2.3 %, 1,000 +1.3-2.9 %): it moves with how the rear 30 % of Psi meets the "
       "instance. Flip: K = 15, inside the paper's sizes: +1.0 %, within 2.04 %.",
       experiment(_beyond), sweep=SCALE, beyond=True, flip=Flip("K = 15 (inside the paper's sizes) instead of K = 100", R, "K", 15)),
    _c("liu2024.beyond.has_large_k", "Beyond the paper: Section VI-B1's 'HAS incurs the same average JCT as exhaustive search' "
       "at K = 100", "HAS stays (near-)optimal beyond the sizes where exhaustive search ran", "0 % (measured at K <= 30)", R,
       "The paper compares HAS with exhaustive search only at K <= 30 and reports 12.98 h for HAS at K = 100 (Table V). HAS "
       "over all 156,849 categories of K = 100 (P3 by the Hungarian route, the same throughput as Algorithm 2 by Theorem 2; "
       "about 40 s) is +0.32 % above the optimum certified by solve_exact on the paper setting (H = 1.15): near-optimal at "
       "K = 100 too, and still at H = 4 on the paper's jobs (+0.44 %, run once). Flip: hetopt's Gavel-throughput workload "
       "(Gavel's measured V100/P100/K80 throughputs, seed 1, H 3.9): P3's total-throughput objective misplaces the long slow "
       "job (liu2024.sec5c.has_near_optimal) and HAS is +19.9 % above the optimum.",
       experiment(_beyond_has), cost="slow", beyond=True,
       flip=Flip("hetopt's Gavel-throughput workload (seed 1) instead of the paper's", UX, "workload", "gavel")),
]

SWEEPS = {SCALE: Sweep(name=SCALE, func=jps_scale_table,
                       description="JPS' gap to the certified optimum against K (15 to 1,000) over instance and JPS seeds",
                       claims=("liu2024.beyond.jps_large_k",))}
