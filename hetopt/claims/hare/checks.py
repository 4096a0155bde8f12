"""The experiments behind the Hare claims (:mod:`hetopt.claims.hare`).

Every function runs the package and returns an :class:`Outcome` whose verdict the experiment
decides; nothing here hard-codes a verdict without the measurement that supports it.
"""

from __future__ import annotations

import numpy as np

from ..ledger import Outcome, Verdict, close_to

R, WL, RD, DM, PE, UX = (Verdict.REPRODUCED, Verdict.DEPENDS_ON_WORKLOAD, Verdict.DEPENDS_ON_READING,
                         Verdict.DATA_MISSING, Verdict.PAPER_ERROR, Verdict.UNEXPLAINED)

#: Seeds of the Section 7 workload used by the fast checks.
FAST_SEEDS = (0, 1, 2)


# ---------------------------------------------------------------- Fig. 1
def _fig1():
    from ...hare import check_schedule, solve_exact
    from .fig1 import fig1_instance, fig1_schedule_a, fig1_schedule_b

    inst = fig1_instance()
    a, b, c = fig1_schedule_a(inst), fig1_schedule_b(inst), solve_exact(inst)
    for s in (a, b, c):
        check_schedule(inst, s).raise_if_invalid()
    return inst, a, b, c


def fig1_value(which: str, quantity: str):
    """Check of one printed Fig. 1 number: schedule ``which`` in (a, b, c), ``quantity`` "total" or "makespan"."""
    from .paper import FIG1_MAKESPAN, FIG1_TOTAL

    paper = (FIG1_TOTAL if quantity == "total" else FIG1_MAKESPAN)[which]

    def check() -> Outcome:
        inst, a, b, c = _fig1()
        sol = {"a": a, "b": b, "c": c}[which]
        ours = sol.objective if quantity == "total" else sol.makespan
        extra = f", status {c.status.value}" if which == "c" else ""
        ok = close_to(ours, paper, atol=1e-6) and (which != "c" or c.status.value == "optimal")
        return Outcome(round(float(ours), 6), R if ok else UX, f"schedule ({which}) {quantity} {ours:.6g}{extra}")
    return check


def fig1_makespan_c() -> Outcome:
    """Makespan 3 of Fig. 1(c): the least makespan of any total-JCT-optimal schedule of the reconstruction."""
    import pyomo.environ as pyo

    from ...hare import build_hare_sched
    from ...solvers import solve_model
    from .paper import FIG1_MAKESPAN

    paper = FIG1_MAKESPAN["c"]
    inst, _, _, c = _fig1()
    if close_to(c.makespan, paper, atol=1e-6):
        return Outcome(c.makespan, R, f"the certified optimum has makespan {paper:g}")
    m = build_hare_sched(inst)
    m.total_weighted_jct.deactivate()
    m.cmax = pyo.Var(bounds=(0, None))
    m.cmax_def = pyo.Constraint(m.JOBS, rule=lambda mm, n: mm.C[n] <= mm.cmax)
    m.at_optimum = pyo.Constraint(expr=sum(m.w[n] * m.C[n] for n in m.JOBS) <= c.objective + 1e-6)
    m.min_makespan = pyo.Objective(expr=m.cmax, sense=pyo.minimize)
    res = solve_model(m, "highs", threads=1)
    if res.objective is None:  # pragma: no cover - the certified optimum is a feasible point
        return Outcome(None, UX, f"no schedule of total JCT {c.objective:.6g} found ({res.status.value})")
    least = float(res.bound if res.bound is not None else res.objective)
    # the reconstruction's time table cannot give makespan 3 at the optimum: the figure's table is needed
    verdict = DM if res.status.value == "optimal" and least > paper + 1e-6 else UX
    return Outcome(round(float(res.objective), 6), verdict,
                   f"least makespan over total-JCT-optimal ({c.objective:.6g}) schedules of the reconstruction: "
                   f"{res.objective:.6g} ({res.status.value})")


def fig1_theorem4() -> Outcome:
    """Algorithm 1 on Fig. 1 within alpha(2+alpha), and the relaxation below the optimum."""
    from ...hare import schedule, solve_relaxation, theorem4_bound

    inst, _, _, c = _fig1()
    rl = solve_relaxation(inst)
    alg = schedule(inst, rl)
    ratio = alg.objective / c.objective
    ok = ratio <= theorem4_bound(inst) and rl.bound <= c.objective + 1e-6
    return Outcome(round(ratio, 4), R if ok else UX,
                   f"ALG {alg.objective:.6g} / OPT {c.objective:.6g} = {ratio:.4f} <= alpha(2+alpha) = "
                   f"{theorem4_bound(inst):.4g}; relaxation bound {rl.bound:.6g}")


# ---------------------------------------------------------------- Theorem 4
def _ratio(stem: str, subsets: bool = False):
    from ...data import load_json
    from ...hare import HareInstance, brute_force, check_schedule, ratio_report

    inst = HareInstance.from_dict(load_json(stem))
    rep = ratio_report(inst, subsets=subsets)
    bf = brute_force(inst)
    if not close_to(bf.objective, rep.optimum, rtol=1e-9, atol=1e-9):
        raise AssertionError(f"exact model {rep.optimum} and enumeration {bf.objective} disagree on {stem}")
    check_schedule(inst, bf).raise_if_invalid()
    return inst, rep


def theorem4_counterexample(stem: str):
    """Theorem 4 on a bundled one-GPU instance: ratio with the exact optimum; the subset form as the toggle."""
    def check() -> Outcome:
        inst, rep = _ratio(stem)
        _, sub = _ratio(stem, subsets=True)
        ratio = rep.algorithm1 / rep.optimum
        detail = (f"alpha = {rep.alpha:g}, claimed {rep.limit:g}; ALG {rep.algorithm1:.6g} / OPT {rep.optimum:.6g} "
                  f"(MILP = enumeration) = {ratio:.4f}; with (9) on every subset ALG/OPT = "
                  f"{sub.algorithm1 / sub.optimum:.4f}")
        if not rep.theorem_violated:
            return Outcome(round(ratio, 4), R, detail)
        # the mechanism: the full-set (9) misses Queyranne's subset inequalities; imposing them repairs it
        repaired = rep.optimum_proven and sub.vs_optimum is not None and sub.vs_optimum.holds is True
        return Outcome(round(ratio, 4), PE if repaired else UX, detail)
    return check


def lemma2_chain(stem: str):
    """The proof's chain ALG <= alpha(2+alpha) * relaxation bound, on a bundled instance."""
    def check() -> Outcome:
        inst, rep = _ratio(stem)
        _, sub = _ratio(stem, subsets=True)
        ratio = rep.vs_relaxation.ratio
        detail = (f"ALG / relaxation bound = {ratio:.4f} (limit {rep.limit:g}); with (9) on every subset "
                  f"{sub.vs_relaxation.ratio:.4f}")
        if not rep.chain_broken:
            return Outcome(round(ratio, 4), R, detail)
        return Outcome(round(ratio, 4), PE if sub.chain_broken is False else UX, detail)
    return check


# ---------------------------------------------------------------- Section 7
def _paper_setting_reductions(seeds=FAST_SEEDS):
    from .sweeps import causes_reductions

    return causes_reductions(seeds, ("algorithm1", "algorithm1_esf", "algorithm1_ef"), one_batch=True)


def section7_range() -> Outcome:
    """47.6%-75.3%: decided by the toggle experiment of ``hare.section7_causes``."""
    from .paper import PAPER_RANGE
    from .sweeps import ONE_BATCH, settings

    data = _paper_setting_reductions()
    labels = list(settings())
    old, paper = labels[0], labels[-1]
    red = {k: v.mean(axis=0) for k, v in data.items()}
    ours = red[(paper, "algorithm1")]
    detail = ("as printed, paper's setting: " + " / ".join(f"{100 * v:.1f}" for v in ours) + " % vs gavel_fifo / srtf / "
              "sched_homo / sched_allox; old setting: " + " / ".join(f"{100 * v:.1f}" for v in red[(old, "algorithm1")]))
    pct = " / ".join(f"{100 * v:.1f}" for v in ours) + " %"
    if ((ours >= PAPER_RANGE[0]) & (ours <= PAPER_RANGE[1])).all():
        return Outcome(pct, R, detail)
    # mechanism: every one of the four causes moves the reductions, and no reading of line 12 reaches the
    # range against every baseline on the proxy workload -> the number rests on the unpublished testbed traces
    moved = all(np.abs(red[(lbl, "algorithm1")] - red[(old, "algorithm1")]).max() > 0.02 for lbl in labels[1:-1])
    none_in = not any(((red[(p, a)] >= PAPER_RANGE[0]) & (red[(p, a)] <= PAPER_RANGE[1])).all()
                      for a in ("algorithm1", "algorithm1_esf", "algorithm1_ef") for p in (paper, ONE_BATCH))
    detail += "; one mini-batch per task: " + " / ".join(f"{100 * v:.1f}" for v in red[(ONE_BATCH, "algorithm1")])
    spread = max(float(np.ptp(data[(paper, "algorithm1")][:, j])) for j in range(4))
    detail += f"; spread across seeds up to {100 * spread:.1f} points"
    return Outcome(pct, DM if moved and none_in and spread > 0.05 else UX, detail)


def section7_direction() -> Outcome:
    """Hare beats every baseline: as printed vs the heterogeneity-aware readings of line 12."""
    from .sweeps import ONE_BATCH, settings

    data = _paper_setting_reductions()
    paper = list(settings())[-1]
    algs = ("algorithm1", "algorithm1_esf", "algorithm1_ef")
    beats = {a: all(bool((data[(p, a)].mean(axis=0) > 0).all()) for p in (paper, ONE_BATCH)) for a in algs}
    worst = {a: min(float(data[(p, a)].mean(axis=0).min()) for p in (paper, ONE_BATCH)) for a in algs}
    detail = "; ".join(f"{a}: worst reduction {100 * worst[a]:.1f}%" for a in algs) + " (both task granularities)"
    if beats["algorithm1"]:
        return Outcome(True, R, detail)
    return Outcome(False, RD if beats["algorithm1_ef"] else UX, detail)


def fig16_heterogeneity() -> Outcome:
    """Gap grows with heterogeneity: the reduction's slope in h, as printed vs earliest finish."""
    from .sweeps import heterogeneity_reductions

    levels, seeds = (0.0, 1.0, 2.0), (0, 1)
    printed = {h: v.mean(axis=0) for h, v in heterogeneity_reductions(levels, seeds, "algorithm1").items()}
    ef = {h: v.mean(axis=0) for h, v in heterogeneity_reductions(levels, seeds, "algorithm1_ef").items()}
    grows_printed = bool((printed[2.0] > printed[0.0]).all())
    grows_ef = int((ef[2.0] > ef[0.0]).sum())
    detail = ("as printed, reduction at h = 0 / 2: " + ", ".join(f"{100 * a:.0f}/{100 * b:.0f}" for a, b in
                                                                    zip(printed[0.0], printed[2.0], strict=True))
              + "; earliest finish: " + ", ".join(f"{100 * a:.0f}/{100 * b:.0f}" for a, b in zip(ef[0.0], ef[2.0], strict=True))
              + " (vs gavel_fifo, srtf, sched_homo, sched_allox)")
    if grows_printed:
        return Outcome(True, R, detail)
    return Outcome(False, RD if grows_ef >= 3 and int((printed[2.0] < printed[0.0]).sum()) >= 3 else UX, detail)


def switching_negligible() -> Outcome:
    """Ignoring the switching cost (< 5% of a task): its effect on Algorithm 1 and on a job-level baseline."""
    from ...hare import replay, srtf
    from .section7 import ALGORITHM1_VARIANTS, section7_workload, weighted_jct

    rows = []
    for seed in FAST_SEEDS:
        inst = section7_workload(seed=seed)
        over = 0.05 * float(inst.task_compute.mean())
        for name, f in (("algorithm1", ALGORITHM1_VARIANTS["algorithm1"]), ("srtf", srtf)):
            plan = f(inst)
            base = replay(plan, keep_plan_times=True)
            withsw = replay(plan, switch_overhead=over, keep_plan_times=True)
            rows.append((name, weighted_jct(withsw.executed) / weighted_jct(base.executed) - 1.0,
                         withsw.switches / inst.n_tasks))
    alg = [(inc, sw) for n, inc, sw in rows if n == "algorithm1"]
    job = [(inc, sw) for n, inc, sw in rows if n == "srtf"]
    worst = max(inc for inc, _ in alg)
    detail = (f"5% of the mean task time per switch: Algorithm 1's weighted JCT +{100 * min(i for i, _ in alg):.1f}% "
              f"to +{100 * worst:.1f}% (switches on {100 * np.mean([s for _, s in alg]):.0f}% of task starts), "
              f"job-level SRTF's +{100 * max(i for i, _ in job):.1f}% at most ({100 * np.mean([s for _, s in job]):.0f}%)")
    if worst <= 0.05:
        return Outcome(round(100 * worst, 2), R, detail)
    # mechanism: the cost follows the switch rate, which Algorithm 1's task-level interleaving multiplies
    more_switches = np.mean([s for _, s in alg]) > 2 * np.mean([s for _, s in job])
    costlier = np.mean([i for i, _ in alg]) > 2 * np.mean([i for i, _ in job])
    return Outcome(round(100 * worst, 2), WL if more_switches and costlier else UX, detail)


def fig18_network() -> Outcome:
    """10 -> 25 Gbps: Algorithm 1's weighted JCT falls 31.2%; tasks of one mini-batch vs 100."""
    from .paper import FIG18_DECREASE
    from .sweeps import network_decrease

    one = network_decrease(FAST_SEEDS, iterations_per_task=1)
    hundred = network_decrease(FAST_SEEDS, iterations_per_task=100)
    ours = float(one.mean())
    detail = (f"one mini-batch per task (the paper's tasks): {100 * ours:.1f}% (seeds "
              + ", ".join(f"{100 * v:.1f}" for v in one) + f"); 100 per task: {100 * hundred.mean():.1f}%")
    if close_to(ours, FIG18_DECREASE, atol=0.04):
        return Outcome(round(100 * ours, 1), R, detail)
    return Outcome(round(100 * ours, 1), WL if abs(hundred.mean()) < abs(ours) else UX, detail)


def fig15_300_jobs() -> Outcome:
    """54.6%-80.5% at 300 jobs on 160 GPUs: reductions against the arrival rate (load) of the trace."""
    from ...hare import cluster
    from .paper import FIG15_RANGE
    from .section7 import ALGORITHM1_VARIANTS, PAPER_SETTING, compare, reductions, section7_workload

    lo, hi = FIG15_RANGE
    gpus = cluster(v100=64, p100=48, k80=48)
    red = {}
    for rate in (0.5, 5.0, 50.0):
        v = compare(section7_workload(seed=0, n_jobs=300, gpus=gpus, rate=rate), PAPER_SETTING)
        for a in ALGORITHM1_VARIANTS:
            red[(rate, a)] = np.array(list(reductions(v, a).values()))
    ours = red[(0.5, "algorithm1")]
    detail = "; ".join(f"rate {r:g}/s: " + " / ".join(f"{100 * x:.0f}" for x in red[(r, "algorithm1")])
                       for r in (0.5, 5.0, 50.0)) + " % (as printed, vs gavel_fifo / srtf / sched_homo / sched_allox)"
    pct = " / ".join(f"{100 * v:.0f}" for v in ours) + " %"
    if ((ours >= lo) & (ours <= hi)).all():
        return Outcome(pct, R, detail)
    swing = max(float(np.ptp([red[(r, a)][j] for r in (0.5, 5.0, 50.0)])) for a in ALGORITHM1_VARIANTS for j in range(4))
    none_in = not any(((x >= lo) & (x <= hi)).all() for x in red.values())
    detail += f"; the load moves a reduction by up to {100 * swing:.0f} points"
    return Outcome(pct, DM if swing > 0.2 and none_in else UX, detail)


# ---------------------------------------------------------------- Lemmas 2 and 3, step by step
def lemma_ratios(inst, rl) -> tuple[float, float]:
    """Largest ratios of Lemma 2's (10) and Lemma 3's (14) for Algorithm 1 on ``x-hat`` of ``rl``.

    ``(10)``: for every task pi(j) on GPU m, ``sum_{k <= j, on m} T^c_{pi(k),m} / (2 H_{pi(j)})``;
    ``(14)``: idle time of GPU m before each of its tasks over ``alpha H`` of that task.  The
    lemma holds on the instance iff the ratio is at most 1.
    """
    from ...hare import alpha, schedule

    alg = schedule(inst, rl)
    H, tc = rl.H, inst.task_compute
    pi = np.argsort(H, kind="stable")
    a = alpha(inst)
    l2 = l3 = 0.0
    for m in range(inst.n_gpus):
        cum = 0.0
        for i in pi:
            if alg.gpu[i] == m:
                cum += tc[i, m]
                l2 = max(l2, cum / (2.0 * H[i]))
        busy = 0.0
        for s, i in sorted((alg.start[i], i) for i in range(inst.n_tasks) if alg.gpu[i] == m):
            l3 = max(l3, (s - busy) / (a * H[i]))
            busy += tc[i, m]
    return float(l2), float(l3)


_BUNDLED = ("hare2022_theorem4_counterexample", "hare2022_theorem4_release_dates")


def lemma2_prefix() -> Outcome:
    """(10) on the bundled instances, with (9) as printed and on every subset."""
    from ...data import load_json
    from ...hare import HareInstance, solve_relaxation

    printed, subsets = [], []
    for stem in _BUNDLED:
        inst = HareInstance.from_dict(load_json(stem))
        printed.append(lemma_ratios(inst, solve_relaxation(inst))[0])
        subsets.append(lemma_ratios(inst, solve_relaxation(inst, subsets=True))[0])
    detail = ("largest prefix work / 2H: " + ", ".join(f"{p:.3f}" for p in printed)
              + " with (9) as printed; " + ", ".join(f"{q:.3f}" for q in subsets) + " with (9) on every subset")
    if max(printed) <= 1 + 1e-9:
        return Outcome(round(max(printed), 4), R, detail)
    return Outcome(round(max(printed), 4), PE if max(subsets) <= 1 + 1e-9 else UX, detail)


def lemma3_idle() -> Outcome:
    """(14) on the bundled instances and on eight seeded instances of the certification sweep."""
    from ...data import load_json
    from ...hare import HareInstance, solve_relaxation
    from ...hare.validate import sweep_instance

    insts = [HareInstance.from_dict(load_json(stem)) for stem in _BUNDLED] + [sweep_instance(seed=s) for s in range(8)]
    worst = max(lemma_ratios(inst, solve_relaxation(inst))[1] for inst in insts)
    detail = f"largest idle time / (alpha H) over {len(insts)} instances: {worst:.3f}"
    return Outcome(round(worst, 4), R if worst <= 1 + 1e-9 else UX, detail)


def fig13_cdf() -> Outcome:
    """At the JCT within which Hare completes 90.5% of jobs: the share completed by Sched_Allox and Sched_Homo."""
    from ...hare import replay, simulate
    from .paper import FIG13_SHARES
    from .section7 import ALGORITHM1_VARIANTS, section7_workload

    shares: dict[tuple[int, str], list[list[float]]] = {}  # (granularity, algorithm) -> [(allox, homo) per seed]
    for ipt in (100, 1):
        for seed in FAST_SEEDS:
            inst = section7_workload(seed=seed, iterations_per_task=ipt)
            over = 0.05 * float(inst.task_compute.mean())
            def run(plan, over=over):
                return replay(plan, switch_overhead=over, keep_plan_times=True).jct

            jct = {b: run(simulate(inst, b)) for b in ("sched_allox", "sched_homo")}
            for a in ("algorithm1", "algorithm1_ef"):
                thr = np.quantile(run(ALGORITHM1_VARIANTS[a](inst)), FIG13_SHARES["quantile"])
                shares.setdefault((ipt, a), []).append([float(np.mean(jct[b] <= thr)) for b in jct])
    mean = {k: np.mean(v, axis=0) for k, v in shares.items()}
    ours = mean[(100, "algorithm1")]
    detail = "; ".join(f"{a}, {ipt} batch/task: AlloX {100 * m[0]:.1f}%, Sched_Homo {100 * m[1]:.1f}%"
                       for (ipt, a), m in mean.items())
    allox, homo = FIG13_SHARES["sched_allox"], FIG13_SHARES["sched_homo"]
    if close_to(ours[0], allox, atol=0.05) and close_to(ours[1], homo, atol=0.05):
        return Outcome(f"{100 * ours[0]:.1f}% / {100 * ours[1]:.1f}%", R, detail)
    # the shares are a property of the trace: they move by more than 10 points with the task granularity
    # and the reading of line 12, and no combination gives both printed numbers
    swing = max(float(np.ptp([m[j] for m in mean.values()])) for j in range(2))
    none = not any(close_to(m[0], allox, atol=0.05) and close_to(m[1], homo, atol=0.05) for m in mean.values())
    return Outcome(f"{100 * ours[0]:.1f}% / {100 * ours[1]:.1f}%", DM if swing > 0.1 and none else UX,
                   detail + f"; spread up to {100 * swing:.0f} points")


def fig17_job_mix() -> Outcome:
    """More NLP jobs raise every scheme's weighted JCT, more recommendation jobs lower it (mean of three seeds)."""
    from .section7 import PAPER_SETTING, compare, section7_workload

    heavy = {"CV": 0.15, "NLP": 0.55, "Speech": 0.15, "Rec.": 0.15}
    light = {"CV": 0.15, "NLP": 0.15, "Speech": 0.15, "Rec.": 0.55}
    ratios: dict[tuple[str, str], list[float]] = {}
    for seed in FAST_SEEDS:
        base = compare(section7_workload(seed=seed), PAPER_SETTING)
        for label, mix in (("nlp", heavy), ("rec", light)):
            v = compare(section7_workload(seed=seed, category_mix=mix), PAPER_SETTING)
            for k in v:
                ratios.setdefault((label, k), []).append(v[k] / base[k])
    mean = {k: float(np.mean(v)) for k, v in ratios.items()}
    up = min(v for (lab, _), v in mean.items() if lab == "nlp")
    down = max(v for (lab, _), v in mean.items() if lab == "rec")
    detail = (f"weighted JCT over the default mix, every scheme: NLP 55% x{up:.2f} or more, "
              f"recommendation 55% x{down:.2f} or less")
    return Outcome(f"x{up:.2f} / x{down:.2f}", R if up > 1 and down < 1 else UX, detail)
