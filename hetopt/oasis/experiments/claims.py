"""Claims of OASiS (Bao, Peng, Wu, Li, INFOCOM 2018) and the experiments that decide their verdicts.

Each check recomputes our number and decides the verdict by running the experiment: a failing
verdict is returned only when the diagnostic toggle confirms the mechanism (the exact oracle
(27) in place of Alg. 2, a chunk time with 1 / m integer, a cap on ln(U/L), long-double
prices), otherwise ``fails-unexplained``.  The experiments live in
:mod:`hetopt.oasis.experiments.diagnostics`, the figure data in :mod:`hetopt.oasis.experiments.figures`,
the paper's printed numbers in :mod:`hetopt.oasis.experiments.paper`; the card is ``models/oasis2018.md``.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
import math

import numpy as np

from ...claims.experiment import Parameter, experiment
from ...claims.ledger import Claim, Flip, Outcome, Sweep, Verdict, outside_premise
from ...claims.parallel import claim_map
from ...data import instance_path, list_instances
from ...errors import SolverError
from ..checker import check_schedule
from ..duality import capacity_term, dual_fitting_trace
from ..generator import generate_instance
from ..instance import OasisInstance
from ..offline import solve_exact
from ..oracle import algorithm2_literal, best_schedule
from ..prices import Prices, Usage, price_bounds, prices_from_usage
from ..simulator import simulate
from ..validate import CLAIM_NODE_LIMIT, fig5_setting, validate_ratio
from . import diagnostics as dg
from . import fig3_runs, paper
from .bench import decision_time
from .conformance import CONFORMANCE

__all__ = ["CLAIMS", "SWEEPS", "CONFORMANCE"]

P = "oasis"
V = Verdict
#: The cap on ln(U/L) used by the Fig. 3 checks (the sweep ``oasis.log_ratio_cap`` shows the others).
CAP = 15.0
#: Fig. 3 instances: (jobs, T, H = K, seed).  Small: a fast check; paper: Section V-A's scale.
FIG3_SMALL = (20, 30, 8, 1)
FIG3_PAPER = [(300, paper.FIG3_SLOTS, paper.FIG3_SERVERS, s) for s in (0, 1, 2)]
#: Fig. 5 seeds checked (servers and priority ranges cycle with the seed, see ``fig5_setting``).
FIG5_SEEDS = (0, 1, 2, 3, 4, 5)


def _load(stem: str) -> OasisInstance:
    return OasisInstance.from_json(instance_path(stem))


# ----------------------------------------------------------------------------- Appendix A
def _check_empty_cluster_admits(without_quarter_eta: bool = False) -> Outcome:
    """Appendix A, property (i): at zero use every job with a schedule has a positive payoff.

    ``without_quarter_eta``: L1, L2 of (25)-(26) without their factor 1/(4 eta) (the flip).
    """
    worst, n = np.inf, 0
    for seed in FIG5_SEEDS[:3]:
        inst = fig5_setting(seed=seed)
        b = price_bounds(inst)
        if without_quarter_eta:
            b = dataclasses.replace(b, log_L1=b.log_L1 + float(np.log(4 * b.eta1)), log_L2=b.log_L2 + float(np.log(4 * b.eta2)))
        used = Usage.empty(inst)
        prices = prices_from_usage(inst, b, used)
        for i in range(inst.n_jobs):
            r = best_schedule(inst, i, prices, used)
            if r.schedule is not None:
                worst, n = min(worst, float(r.payoff)), n + 1
    ok = n > 0 and worst > 0
    ours = f"smallest payoff {worst:.3g} over {n} jobs"
    detail = (f"fig5_setting seeds {list(FIG5_SEEDS[:3])}, every job alone on the empty cluster at prices L"
              + (" x 4 eta (the 1/(4 eta) of (25)-(26) removed)" if without_quarter_eta else ""))
    if ok:
        return Outcome(ours, V.REPRODUCED, detail)
    if without_quarter_eta:  # the premise, (25)-(26) as printed, is absent
        return outside_premise(ours, detail, _check_empty_cluster_admits(False))
    return Outcome(ours, V.UNEXPLAINED, detail)


# ----------------------------------------------------------------------------- Theorems 1 and 4
#: The in-premise sibling of each bundled counterexample (the same experiment inside the premise, issue 30).
INSIDE = {"oasis2018_theorem1_counterexample": "oasis2018_theorem1_in_premise",
          "oasis2018_theorem4_violation": "oasis2018_theorem4_in_premise"}


def _theorem1(stem: str, integer_chunks: bool = False) -> Outcome:
    """Theorem 1 on a bundled instance; ``integer_chunks``: with m' = 1 / ceil(1 / m) (the experiment runs it too)."""
    inst = _load(stem)
    r = dg.theorem1_experiment(dg.integer_chunks_variant(inst, 0) if integer_chunks else inst)
    ours = f"Alg. 2 payoff {r['dp']:.6g} (slot {r['dp_completion']}) vs (27) {r['ilp']:.6g} (slot {r['ilp_completion']})"
    rel = "<" if r["rounding_loss"] else ">="
    detail = (f"m = {r['premise']['chunk_time']:g}, demand share {r['premise']['demand_share']:g}; the optimum of (27) "
              f"rounded per slot trains {r['ilp_chunks_when_rounded']} {rel} {r['workload_chunks']} chunks; "
              f"1/m integer: Alg. 2 = (27) {r['integer_variant_equal']}")
    ran = {"integer_chunks": (True,)}  # the integer-chunk variant, run inside as the diagnostic
    if not r["fails"]:
        return Outcome(ours, V.REPRODUCED, detail, ran=ran)
    if not (r["rounding_loss"] and r["integer_variant_equal"]):
        return Outcome(ours, V.UNEXPLAINED, detail, ran=ran)
    if r["premise"]["holds"]:
        return Outcome(ours, V.PAPER_ERROR, detail, ran=ran)
    return outside_premise(ours, detail, _theorem1(INSIDE[stem], integer_chunks), ran=ran)


def _theorem4(stem: str, exact_oracle: bool = False) -> Outcome:
    """Theorem 4 on a bundled instance; ``exact_oracle``: Alg. 1 with problem (27) solved exactly (run inside too)."""
    r = dg.theorem4_experiment(_load(stem))
    ran = {"exact_oracle": (True,)}  # OASiS with the exact oracle, run inside as the diagnostic
    if exact_oracle:
        ok = r["ratio_exact_oracle"] <= r["limit"]
        return Outcome(f"OPT / OASiS = {r['ratio_exact_oracle']:.6g} vs 2 alpha = {r['limit']:.4g} (exact oracle (27))",
                       V.REPRODUCED if ok else V.UNEXPLAINED,
                       f"OPT {r['opt']:.6g}, OASiS with (27) {r['oasis_exact_oracle']:.6g}; with Alg. 2 {r['oasis']:.6g}")
    ours = f"OPT / OASiS = {r['ratio']:.6g} vs 2 alpha = {r['limit']:.4g}"
    detail = (f"OPT {r['opt']:.6g}, OASiS {r['oasis']:.6g}; with the exact oracle (27): {r['oasis_exact_oracle']:.6g} "
              f"(ratio {r['ratio_exact_oracle']:.4g}); m = {r['premise']['chunk_time']:g}, "
              f"demand share {r['premise']['demand_share']:g}")
    if not r["violated"]:
        return Outcome(ours, V.REPRODUCED, detail, ran=ran)
    if r["ratio_exact_oracle"] > r["limit"]:  # the Alg. 2 mechanism does not explain it
        return Outcome(ours, V.UNEXPLAINED, detail, ran=ran)
    if r["premise"]["holds"]:
        return Outcome(ours, V.PAPER_ERROR, detail, ran=ran)
    return outside_premise(ours, detail, _theorem4(INSIDE[stem]), ran=ran)


def _check_cost_t(price_low: float = 0.0) -> Outcome:
    """COST_t against brute force; ``price_low`` < 0: prices drawn from [price_low, 1] (the flip)."""
    r = dg.cost_t_experiment(price_low=price_low)
    ok = r["cases"] > 0 and r["mismatch"] == 0 and r["max_gap"] <= 1e-9
    ours = f"greedy vs brute force on {r['cases']} (slot, worker count) cases, max gap {r['max_gap']:.2g}"
    detail = f"feasibility mismatches: {r['mismatch']}; prices drawn from [{price_low:g}, 1]"
    if ok:
        return Outcome(ours, V.REPRODUCED, detail)
    # negative prices leave the premise of the greedy: (22) never prices below 0, and only then is the fewest PSs cheapest
    if price_low < 0:
        return outside_premise(ours, detail, _check_cost_t(0.0))
    return Outcome(ours, V.UNEXPLAINED, detail)


def _check_theorem3(stored_cost_t: bool = True) -> Outcome:
    """Operation counts of Alg. 2 (line-by-line transcription) against O(T N E (H + K) + T N^2 E^2).

    ``stored_cost_t=False`` (the flip): Appendix D's premise that every cost_t(t, d) is computed
    once and stored is dropped; every DP transition then evaluates COST_t (O(H + K)) again.
    """
    rows: list[tuple[int, int, int, int, int]] = []
    ok = True
    for E, N, T in ((2, 3, 6), (4, 3, 6), (8, 3, 6), (2, 3, 12)):
        inst = generate_instance(n_jobs=1, horizon=T, n_worker_servers=3, n_ps_servers=3, seed=0, epochs_range=(E,
                                 E), chunks_range=(N, N))
        d = inst.to_dict()
        d["arrival"] = [1]
        inst = OasisInstance.from_dict(d)
        st: dict[str, int] = {}
        z = Prices.zeros(inst)
        lit = algorithm2_literal(inst, 0, z, stats=st)
        D, HK = E * N, inst.n_worker_servers + inst.n_ps_servers
        ops = st["cost_t_calls"] * HK + st["dp_transitions"] if stored_cost_t else st["dp_transitions"] * (HK + 1)
        bound = T * D * HK + T * D * D  # the theorem's expression with constant 1 (D = N E; +1 terms absorbed)
        ok &= ops <= 2 * bound and abs(float(lit.payoff) - float(best_schedule(inst, 0, z).payoff)) <= 1e-9
        rows.append((E, N, T, ops, bound))
    growth = rows[2][3] / rows[0][3]  # E x 4: quadratic growth is <= 16
    ok &= growth <= 16
    ours = f"ops / bound <= {max(r[3] / r[4] for r in rows):.2f}; E x4 -> ops x{growth:.1f}"
    detail = ("; ".join(f"E={E} N={N} T={T}: {o} ops vs {b}" for E, N, T, o, b in rows)
              + ("" if stored_cost_t else "; cost_t recomputed at every DP transition"))
    if ok:
        return Outcome(ours, V.REPRODUCED, detail)
    if not stored_cost_t:  # Appendix D's premise (cost_t computed once and stored) is absent
        return outside_premise(ours, detail, _check_theorem3(True))
    return Outcome(ours, V.UNEXPLAINED, detail)


def _alone_oracle(inst: OasisInstance, job: int, prices: Prices, used: Usage):
    """Alg. 2 blind to the other jobs' allocations: the residual capacities of (28) replaced by the full ones."""
    return best_schedule(inst, job, prices, Usage.empty(inst))


def _check_theorem2(residual_capacity: bool = True) -> Outcome:
    """Every OASiS schedule passes the checker of (2)-(13).

    ``residual_capacity=False`` (the flip): Alg. 2 plans each job on the full capacities instead
    of the residual ones of (28) (the premise of Appendix C's proof).
    """
    bad, runs = [], 0
    extra = {} if residual_capacity else {"oracle": _alone_oracle}
    for seed in (0, 1):
        inst = generate_instance(n_jobs=20, horizon=30, n_worker_servers=8, n_ps_servers=8, seed=seed)
        for cap in (None, CAP):
            rep = check_schedule(inst, simulate(inst, "oasis", options={"log_ratio_cap": cap, **extra}))
            runs += 1
            if not rep.ok:
                bad.append(f"seed {seed} cap {cap}: {rep.violations[0]}")
    for stem in ("oasis2018_theorem1_in_premise", "oasis2018_theorem4_in_premise"):
        inst = _load(stem)
        runs += 1
        if not check_schedule(inst, simulate(inst, "oasis", options=extra or None)).ok:
            bad.append(stem)
    ours = f"{runs - len(bad)} of {runs} runs feasible"
    detail = "; ".join(bad) or "check_schedule on (2)-(13), Section V-A instances and the bundled ones"
    if not bad:
        return Outcome(ours, V.REPRODUCED, detail)
    if not residual_capacity:  # the premise of Appendix C's proof, the residual capacities of (28), is absent
        return outside_premise(ours, detail + "; Alg. 2 planned every job on the full capacities", _check_theorem2(True))
    return Outcome(ours, V.UNEXPLAINED, detail)


@functools.cache
def _fig5_rows() -> tuple:
    # no time limit, a node limit: the optima do not depend on the machine's load
    return tuple(validate_ratio(fig5_setting(seed=s), time_limit=None, node_limit=CLAIM_NODE_LIMIT) for s in FIG5_SEEDS)


#: The flip of the Fig. 5 entries: OASiS fed U/L estimated with ln(U/L) capped at 5 (estimates far below the
#: true ratios; Theorem 4 and Fig. 5 are stated for the exact (23)-(26)).
FIG5_FLIP_CAP = 5.0


def _fig5_ratios(cap: float | None) -> tuple[list[float], list[float], set]:
    """(OPT / OASiS per seed, 2 alpha per seed, reference kinds); ``cap``: OASiS with ln(U/L) capped (the flip)."""
    rows = _fig5_rows()
    kinds = {c.info["reference_kind"] for c in rows}
    if cap is None:
        return [c.ratio for c in rows], [c.limit for c in rows], kinds
    ratios = []
    for s, c in zip(FIG5_SEEDS, rows, strict=True):
        v = simulate(fig5_setting(seed=s), "oasis", options={"log_ratio_cap": cap}).total_utility
        opt = float(c.info["opt_upper"])
        ratios.append(opt / v if v > 0 else (1.0 if opt <= 1e-9 else float("inf")))
    return ratios, [c.limit for c in rows], kinds


def _check_fig5_range(cap: float | None = None) -> Outcome:
    ratios, _, kinds = _fig5_ratios(cap)
    top = paper.FIG5_RATIO_RANGE[1]
    ok = kinds == {"optimum"} and all(1 - 1e-6 <= r <= top + 1e-6 for r in ratios)  # MILP float noise ~1e-9
    ours = f"OPT / OASiS in [{min(ratios):.3f}, {max(ratios):.3f}]"
    detail = f"fig5_setting seeds {list(FIG5_SEEDS)}, references {sorted(kinds)}" + (
        f"; OASiS with ln(U/L) capped at {cap:g}" if cap is not None else "")
    if ok:
        return Outcome(ours, V.REPRODUCED, detail)
    if cap is not None and kinds == {"optimum"}:  # the premise, the exact (23)-(26), is absent
        return outside_premise(ours, detail, _check_fig5_range(None))
    return Outcome(ours, V.UNEXPLAINED, detail)


def _check_fig5_theorem4(cap: float | None = None) -> Outcome:
    ratios, limits, kinds = _fig5_ratios(cap)
    holds = [r <= lim * (1 + 1e-6) for r, lim in zip(ratios, limits, strict=True)]
    ours = ", ".join(f"{r:.3f} <= {lim:.1f}" if h else f"{r:.3g} > {lim:.1f}" for r, lim, h in zip(ratios, limits, holds, strict=True))
    detail = f"holds: {holds}; references {sorted(kinds)}" + (f"; OASiS with ln(U/L) capped at {cap:g}" if cap is not None else "")
    if all(holds) and kinds == {"optimum"}:
        return Outcome(ours, V.REPRODUCED, detail)
    if cap is not None and kinds == {"optimum"}:  # the premise, the exact (23)-(26), is absent
        return outside_premise(ours, detail, _check_fig5_theorem4(None))
    return Outcome(ours, V.UNEXPLAINED, detail)


#: A "clear trend" along a factor: in every group the ratio moves one way, by more than this (relative) end to end.
TREND_CHANGE = 0.05


def _direction(seq: list[float]) -> int:
    """+1 (-1) when ``seq`` never decreases (increases) and ends more than TREND_CHANGE above (below) its start, else 0."""
    up = all(b >= a * (1 - 1e-9) for a, b in itertools.pairwise(seq)) and seq[-1] > seq[0] * (1 + TREND_CHANGE)
    down = all(b <= a * (1 + 1e-9) for a, b in itertools.pairwise(seq)) and seq[-1] < seq[0] * (1 - TREND_CHANGE)
    return 1 if up else -1 if down else 0


def _clear_trend(groups: list[list[float]]) -> int:
    """The common direction of every group (each ordered by the factor), 0 when they do not all agree."""
    dirs = {_direction(g) for g in groups}
    return dirs.pop() if len(dirs) == 1 else 0


def _check_fig5_no_trend(cap: float | None = None) -> Outcome:
    """Fig. 5: no clear trend of OPT / OASiS with the number of servers nor with max U/L.

    Servers: at each priority range the ratios at 20, 40, 60 servers; U/L: at each number of
    servers the ratios ordered by the instance's largest ln(U/L) (the paper varies the priority
    range so that max U/L grows).  A clear trend: every group moves the same way, by more than
    5% end to end.  ``cap`` (the flip): OASiS with ln(U/L) capped, the optima unchanged.
    """
    ratios, _, kinds = _fig5_ratios(cap)
    insts = [fig5_setting(seed=s) for s in FIG5_SEEDS]
    servers = [i.n_worker_servers + i.n_ps_servers for i in insts]
    log_ratio = []
    for i in insts:
        b = price_bounds(i)
        log_ratio.append(float(max(np.max(b.log_U1 - b.log_L1), np.max(b.log_U2 - b.log_L2))))
    by_prio: dict[int, list[tuple[int, float]]] = {}
    by_servers: dict[int, list[tuple[float, float]]] = {}
    for k, s in enumerate(FIG5_SEEDS):  # fig5_setting: the priority range is FIG5_PRIORITIES[s // 3]
        by_prio.setdefault(s // 3, []).append((servers[k], ratios[k]))
        by_servers.setdefault(servers[k], []).append((log_ratio[k], ratios[k]))
    t_servers = _clear_trend([[r for _, r in sorted(g)] for g in by_prio.values()])
    t_ratio = _clear_trend([[r for _, r in sorted(g)] for g in by_servers.values()])
    word = {1: "increase", -1: "decrease", 0: "none"}
    ours = f"clear trend with servers: {word[t_servers]}; with max U/L: {word[t_ratio]}"
    detail = (f"ratios {[round(r, 3) for r in ratios]} on servers {servers} and max ln(U/L) "
              f"{[round(v, 1) for v in log_ratio]}; a clear trend: every group monotone the same way, > "
              f"{TREND_CHANGE:.0%} end to end" + (f"; OASiS with ln(U/L) capped at {cap:g}" if cap is not None else ""))
    if kinds != {"optimum"}:
        return Outcome(ours, V.UNEXPLAINED, detail + f"; references {sorted(kinds)}")
    if t_servers == 0 and t_ratio == 0:
        return Outcome(ours, V.REPRODUCED, detail)
    if cap is not None:  # the premise, the exact (23)-(26), is absent
        return outside_premise(ours, detail, _check_fig5_no_trend(None))
    return Outcome(ours, V.UNEXPLAINED, detail)


def _check_decision_time(epochs: int = paper.LARGEST_EPOCHS) -> Outcome:
    """Footnote 5 for the paper's largest job; ``epochs`` above the paper's largest E (the flip)."""
    T, H = paper.DECISION_SLOTS, paper.DECISION_SERVERS // 2
    N = paper.LARGEST_CHUNKS
    best = min(decision_time(T, H, N, epochs, cpu=True) for _ in range(3))
    ours = f"{best:.3f} s (best of 3)"
    detail = (f"T = {T}, H = K = {H} ({2 * H} servers), N = {N}, E = {epochs}: pricing (22) + Alg. 2 for one job, "
              f"CPU seconds of the process (best of 3; the wall clock grows with other processes' load)")
    if best < paper.DECISION_TIME_LIMIT:
        return Outcome(ours, V.REPRODUCED, detail)
    if epochs > paper.LARGEST_EPOCHS:  # beyond the paper's largest job, the premise of the footnote
        return outside_premise(ours, detail, _check_decision_time())
    return Outcome(ours, V.UNEXPLAINED, detail)


# ----------------------------------------------------------------------------- Fig. 3
#: The readings of the Fig. 3 entries: the literal bounds (25)-(26) (the paper's formulas, default) and U/L
#: estimated with ln(U/L) capped at CAP (Section IV-B: "we adopt their estimated values").
LITERAL = "literal (25)-(26) (the paper's formulas; default)"
CAPPED = f"estimated U/L, ln(U/L) <= {CAP:g} (Section IV-B: estimates are used)"


def _fig3_baselines(st) -> dict[str, float]:
    return {b: fig3_runs.total(st, b, CAP) for b in dg.BASELINES}


def _fig3_oasis(st, variant: str) -> float:
    return fig3_runs.total(st, variant, CAP)


def _fig3(settings, label: str) -> Outcome:
    """Fig. 3 under both readings of the bounds: the literal (25)-(26) and ln(U/L) capped at CAP."""
    fig3_runs.ensure(settings, (*dg.BASELINES, *fig3_runs.VARIANTS), CAP)  # every run at once, on free cores
    base = [max(_fig3_baselines(st).values()) for st in settings]
    capped = [_fig3_oasis(st, "capped") > b for st, b in zip(settings, base, strict=True)]
    cap_v = V.REPRODUCED if all(capped) else V.UNEXPLAINED
    lit = [_fig3_oasis(st, "literal") > b for st, b in zip(settings, base, strict=True)]
    ld = [_fig3_oasis(st, "longdouble") > b for st, b in zip(settings, base, strict=True)]
    ours = f"OASiS best on {sum(lit)}/{len(settings)} ({label}); with ln(U/L) <= {CAP:g}: {sum(capped)}/{len(settings)}"
    detail = "; ".join(f"OASiS {_fig3_oasis(st, 'literal'):.1f} (long double {_fig3_oasis(st, 'longdouble'):.1f}, "
                       f"capped {_fig3_oasis(st, 'capped'):.1f}) vs best baseline {b:.1f}"
                       for st, b in zip(settings, base, strict=True))
    readings = {LITERAL: V.REPRODUCED if all(lit) else V.UNEXPLAINED, CAPPED: cap_v}
    if all(lit) and all(capped):
        return Outcome(ours, V.REPRODUCED, detail, readings=readings)
    # the mechanism: not underflow (long double does not rescue it), the size of ln(U/L) (the cap does)
    if not any(ld) and all(capped):
        return Outcome(ours, V.DEPENDS_ON_READING, detail, readings=readings)
    if len(set(readings.values())) > 1:
        return Outcome(ours, V.UNEXPLAINED, detail + "; the readings differ but long-double prices also change the "
                                                     "outcome: the mechanism is not confirmed", readings=readings)
    return Outcome(ours, V.UNEXPLAINED, detail, readings=readings)


def _check_fig3_small(slots: int = FIG3_SMALL[1], servers: int = FIG3_SMALL[2]) -> Outcome:
    st = (FIG3_SMALL[0], slots, servers, FIG3_SMALL[3])
    return _fig3([st], f"{st[0]} jobs, T = {slots}, H = K = {servers}, seed {st[3]}")


def _check_fig3_paper(jobs: int = 300) -> Outcome:
    settings = [(jobs, *st[1:]) for st in FIG3_PAPER]
    return _fig3(settings, f"{jobs} jobs, T = 300, H = K = 50, seeds 0-2")


def _check_fig3_bundled(stem: str = "oasis2018_drf_beats_oasis") -> Outcome:
    return _fig3([stem], f"{stem}")


def _filter_fraction(bounds) -> tuple[float, float]:
    """(largest ln(U/L), fraction of capacity below which every price is < U / 1e6)."""
    ratio = float(max(np.max(bounds.log_U1 - bounds.log_L1), np.max(bounds.log_U2 - bounds.log_L2)))
    return ratio, 1.0 - np.log(1e6) / ratio


def _check_log_ratio(slots: int = paper.FIG3_SLOTS) -> Outcome:
    """Section IV-B rationale (ii) at the paper's scale: the use from which the prices filter jobs.

    A price below U / 1e6 is negligible against utilities >= 1, so the prices "filter out jobs
    with low utilities which arrive early" only above the fraction of capacity where they reach
    U / 1e6; the rationale holds when that fraction is below 90%.  Readings: the literal
    (25)-(26) and U/L estimated with ln(U/L) capped at 15.  ``slots``: the horizon T (the
    paper's 300; a shorter one shrinks the literal ln(U/L)).
    """
    inst = generate_instance(n_jobs=300, horizon=slots, n_worker_servers=paper.FIG3_SERVERS,
                             n_ps_servers=paper.FIG3_SERVERS, seed=0)
    b = price_bounds(inst)
    ratio, frac = _filter_fraction(b)
    cratio, cfrac = _filter_fraction(price_bounds(inst, log_ratio_cap=CAP))
    # the literal reading contradicts the printed rationale (ii) with the paper's own (25)-(26) and Section V-A
    readings = {LITERAL: V.PAPER_ERROR if frac > 0.9 else V.REPRODUCED,
                CAPPED: V.REPRODUCED if cfrac <= 0.9 else V.UNEXPLAINED}
    double_zero = float(np.exp(np.float64(b.log_L1))) == 0.0
    ours = (f"literal: ln L1 = {b.log_L1:.1f}, ln(U/L) up to {ratio:.0f}; prices < U/1e6 below {frac:.1%} use; "
            f"ln(U/L) <= {CAP:g}: prices >= U/1e6 from {max(cfrac, 0):.1%} use")
    detail = (f"T = {slots}: L1 is 0 in double: {double_zero}; 2 alpha = {2 * ratio:.0f}; capped at {CAP:g}: prices "
              f">= U / 1e6 from {max(cfrac, 0):.1%} use")
    verdicts = set(readings.values())
    v = verdicts.pop() if len(verdicts) == 1 else V.DEPENDS_ON_READING
    return Outcome(ours, v, detail, readings=readings)


#: Fig. 6 instance (jobs, T, H = K, seed), the under / over estimates compared, and the flip's H = K.
FIG6 = (20, 30, 8, 1)
FIG6_FRACTIONS = (0.5, 2.0)
FIG6_WIDE = (0.01, 100.0)
#: The Fig. 6 readings: (name, how "percentage" scales, fractions); the paper's first (the default).
FIG6_READINGS = (("U/L scaled, 50% / 200% (the paper's words; default)", "ratio", FIG6_FRACTIONS),
                 ("U/L scaled, 1% / 10,000% (the figure's range is not printed)", "ratio", FIG6_WIDE),
                 ("ln(U/L) scaled, 50% / 200% (hetopt's reading)", "log", FIG6_FRACTIONS))


def _check_fig6(servers: int = FIG6[2]) -> Outcome:
    """Fig. 6 under the three readings of "percentage" on a scarce instance (``servers``: H = K)."""
    n, T, _, seed = FIG6
    readings = FIG6_READINGS
    inst = generate_instance(n_jobs=n, horizon=T, n_worker_servers=servers, n_ps_servers=servers, seed=seed,
                             epochs_range=(50, 200), chunks_range=(5, 100),
                             minibatches_range=(10, 100))
    # scarcity, shown: DRF admits every job and completes fewer than can finish alone on the empty cluster
    drf = simulate(inst, "drf")
    feasible = sum(best_schedule(inst, i, Prices.zeros(inst)).schedule is not None for i in range(n))
    result, parts = {}, []
    for name, how, (lo, hi) in readings:
        r = dg.estimate_experiment(inst, (lo, hi), readings=(how,))[how]
        result[name] = V.REPRODUCED if r[lo] - r[hi] > 1e-9 else V.UNEXPLAINED
        parts.append(f"{name}: {r[lo]:.1f} / {r[hi]:.1f}")
    ours = "; ".join(parts)
    detail = (f"{n} jobs, T = {T}, H = K = {servers}, seed {seed}; DRF completes {len(drf.schedules)} of the {feasible} "
              "jobs that can finish alone")
    verdicts = set(result.values())
    if verdicts == {V.REPRODUCED}:
        return Outcome(ours, V.REPRODUCED, detail, readings=result)
    if len(verdicts) > 1:
        return Outcome(ours, V.DEPENDS_ON_READING, detail, readings=result)
    return Outcome(ours, V.UNEXPLAINED, detail, readings=result)


def _c(id_, location, statement, paper_value, verdict, diagnosis, check, evidence=(), cost="fast", sweep=None, *,
       flip: Flip, direction: str = "", beyond: bool = False, timed: bool = False, parameters: tuple = ()):
    return Claim(id=id_, paper=P, location=location, statement=statement, paper_value=paper_value, verdict=verdict,
                 diagnosis=diagnosis, check=check, evidence=tuple(evidence), cost=cost, sweep=sweep, flip=flip,
                 direction=direction, beyond=beyond, timed=timed, parameters=parameters)


#: The flips shared by several entries.
INTEGER_CHUNKS = "chunk time m' = 1 / ceil(1 / m) (a worker trains a whole number of chunks a slot)"
EXACT_ORACLE = "Alg. 1 with problem (27) solved exactly (best_schedule_ilp) in place of Alg. 2"
FIG5_FLIP = f"OASiS fed estimated U/L with ln(U/L) capped at {FIG5_FLIP_CAP:g} (the offline optima unchanged)"
#: Flips found by running the experiments (issue 30): (change, verdict, input, value).
THM1_FLIP = ("the instance oasis2018_lemma2_contested (Alg. 2 reaches the optimum of (27) there)",
             "oasis2018_lemma2_contested")
THM4_FLIP = ("the instance oasis2018_lemma2_contested, where OASiS reaches the optimum", "oasis2018_lemma2_contested")
FIG3_SMALL_FLIP = ("H = K = 40 servers (resources not scarce)", V.UNEXPLAINED, "servers", 40)
FIG3_PAPER_FLIP = ("30 jobs instead of 300 (resources not scarce)", V.UNEXPLAINED, 30)
FIG3_BUNDLED_FLIP = ("the instance oasis2018_lemma2_contested (15 jobs; its literal ln(U/L) is small)", V.REPRODUCED,
                     "oasis2018_lemma2_contested")

CLAIMS: list[Claim] = [
    _c("oasis2018.appendix_a.empty_cluster_admits", "Section IV-B, rationale (i); Appendix A",
       "At zero use any job can be admitted, since L1 and L2 are the lowest unit job utility.", "payoff > 0 for every job",
       V.REPRODUCED, "Every job of the Fig. 5 instances (seeds 0-2) that has a feasible schedule gets a positive payoff "
       "from Alg. 2 on the empty cluster at prices L1, L2: the 1/(4 eta) factor of (25)-(26) keeps the cost of its "
       "whole schedule below f_i(T - a_i). Flip: L1, L2 without that factor (x 4 eta): a job's best payoff at prices L "
       "becomes negative (-0.42), so property (i) needs the 1/(4 eta) of (25)-(26).", experiment(_check_empty_cluster_admits),
       flip=Flip("L1, L2 of (25)-(26) without their factor 1/(4 eta)", V.OUTSIDE_PREMISE, "without_quarter_eta", True)),
    _c("oasis2018.theorem1.alg2_optimal_outside_premise", "Section IV-D, Theorem 1; Appendix B",
       "Alg. 2 produces an optimal solution of problem (27).", "optimal",
       V.PAPER_ERROR, "Alg. 2 assumes a worker trains a whole number of chunks per slot (d chunks need ceil(d m_i) "
       "workers, line 26); (27) only asks for E_i N_i m_i worker-slots in total. With m = 0.4 slot Alg. 2 needs 3 slots "
       "(payoff 5), (27) 2 slots (payoff 8). This instance violates the premise stated before (32) (a chunk takes much "
       "less than a slot: m = 0.4, and a worker fills the server), measured on it; the same experiment inside the "
       "premise (oasis2018_theorem1_in_premise, m = 0.03, run by the check) fails the same way, so the verdict is that "
       "failure (issue 30: outside-premise only when the claim holds inside its premise; it was fails-outside-premise). "
       "The check confirms the mechanism: the optimum of (27), rounded per slot, trains fewer than E N chunks, and with "
       "m' = 1 / ceil(1 / m) Alg. 2 reaches the optimum of (27). Flip: the instance oasis2018_lemma2_contested, where "
       "Alg. 2 reaches the optimum of (27) (reproduced).",
       experiment(_theorem1, stem="oasis2018_theorem1_counterexample"),
       evidence=("oasis2018_theorem1_counterexample", "oasis2018_theorem1_in_premise"),
       flip=Flip(THM1_FLIP[0], V.REPRODUCED, "stem", THM1_FLIP[1])),
    _c("oasis2018.theorem1.alg2_optimal_in_premise", "Section IV-D, Theorem 1; Appendix B",
       "Alg. 2 produces an optimal solution of problem (27) (a chunk takes much less than a slot).", "optimal",
       V.PAPER_ERROR, "Inside the premise (m = 0.03 slot, demands 1% of a server) Alg. 2 still loses a slot at a "
       "deadline: 10 workers train floor(10 / 0.03) = 333 chunks a slot, 999 < 1000 after 3 slots, so Alg. 2 needs a 4th "
       "slot (payoff 1) while (27) finishes in 3 (30 worker-slots, payoff 10). The per-slot rounding loses up to one chunk "
       "per slot however small m is, so the assumption 'we may safely assume a worker trains an integer number of chunks' "
       "does not preserve optimality. With m' = 1 / ceil(1 / m) the two coincide (the check runs both). Flip: the "
       "instance oasis2018_lemma2_contested, where Alg. 2 reaches the optimum of (27) (reproduced).",
       experiment(_theorem1, stem="oasis2018_theorem1_in_premise"), evidence=("oasis2018_theorem1_in_premise",),
       flip=Flip(THM1_FLIP[0], V.REPRODUCED, "stem", THM1_FLIP[1])),
    _c("oasis2018.theorem1.cost_t_optimal", "Section IV-D, Theorem 1 (second half); Alg. 2 lines 23-46",
       "COST_t computes an optimal solution of problem (32).", "optimal",
       V.REPRODUCED, "For a fixed number of workers in a slot, (32) is a min-cost placement of unit items on servers "
       "with integer capacities and linear costs, which filling the cheapest servers first solves; the PS count is "
       "the fewest allowed by (6)-(7) since prices are non-negative. Checked against brute force over every placement "
       "of the workers and every feasible PS count, random prices and residual capacities (3 seeds, 3 + 3 servers). "
       "The failure of Theorem 1 is in the DP's chunk rounding, not here. Flip: prices drawn from [-5, 1] (below what "
       "(22) can give): taking the fewest PSs is then not the cheapest and brute force beats the greedy.", experiment(_check_cost_t),
       flip=Flip("prices drawn from [-5, 1] instead of [0, 1] (negative prices, outside the range of (22))",
                 V.OUTSIDE_PREMISE, "price_low", -5.0)),
    _c("oasis2018.theorem2.feasible", "Section IV-D, Theorem 2; Appendix C",
       "OASiS (Alg. 1 with Alg. 2) computes a feasible solution to problems (1), (14), (19).", "feasible",
       V.REPRODUCED, "Every schedule OASiS returns (literal bounds and ln(U/L) capped at 15, Section V-A instances and "
       "the bundled in-premise ones) passes the independent checker of constraints (2)-(13). Flip: Alg. 2 plans every "
       "job on the full capacities instead of the residual ones of (28), the premise of Appendix C's proof: the "
       "reservations then overlap and the checker finds capacity violations.", experiment(_check_theorem2),
       evidence=("oasis2018_theorem1_in_premise", "oasis2018_theorem4_in_premise"),
       flip=Flip("Alg. 2 planning each job on the full capacities (the residual capacities of (28) ignored)",
                 V.OUTSIDE_PREMISE, "residual_capacity", False)),
    _c("oasis2018.theorem3.polynomial_time", "Section IV-D, Theorem 3; Appendix D",
       "OASiS decides each job in time O(T N_i E_i (H + K) + T N_i^2 E_i^2).", "O(T N E (H + K) + T N^2 E^2)",
       V.REPRODUCED, "Operation counts of the line-by-line transcription of Alg. 2 (distinct COST_t evaluations, each "
       "O(H + K) after sorting, plus iterations of the DP loop of line 14) stay within twice the theorem's expression "
       "on four job sizes, and grow at most quadratically in E (x4 epochs: x6.4 operations, <= 16). The vectorized oracle used by "
       "OASiS's policy (`simulate(inst, 'oasis')`) does the same DP in numpy (the decision-time entry times it). Flip: "
       "without Appendix D's stored cost_t (each DP transition evaluates COST_t again) the counts exceed twice the "
       "theorem's expression.", experiment(_check_theorem3),
       flip=Flip("cost_t(t, d) recomputed at every DP transition (Appendix D's stored table dropped)",
                 V.OUTSIDE_PREMISE, "stored_cost_t", False)),
    _c("oasis2018.theorem4.ratio_outside_premise", "Section IV-D, Theorem 4; Appendix E",
       "OASiS is 2 alpha-competitive, alpha = max_r(1, ln U1^r / L1, ln U2^r / L2).", "OPT / OASiS <= 2 alpha",
       V.PAPER_ERROR, "Consequence of the Theorem 1 failure: the job can finish in slot 2 (utility 10) but Alg. 2 "
       "only finds slot 3 (utility 1e-3): OPT / OASiS = 1e4 > 2 alpha = 34. The chunk time m = 0.4 is outside the premise "
       "of Section IV-C, measured; the same experiment inside it (oasis2018_theorem4_in_premise, run by the check) "
       "fails too (1e4 > 34.6), so the verdict is that failure (issue 30; it was fails-outside-premise). With the "
       "exact oracle (27) in Alg. 1 the ratio is 1 (the check runs it). Flip: the instance oasis2018_lemma2_contested, "
       "where OASiS reaches the certified optimum (OPT / OASiS = 1 <= 29.2: reproduced).",
       experiment(_theorem4, stem="oasis2018_theorem4_violation"),
       evidence=("oasis2018_theorem4_violation", "oasis2018_theorem4_in_premise"),
       flip=Flip(THM4_FLIP[0], V.REPRODUCED, "stem", THM4_FLIP[1])),
    _c("oasis2018.theorem4.ratio_in_premise", "Section IV-D, Theorem 4; Appendix E",
       "OASiS is 2 alpha-competitive (w << c and a chunk much shorter than a slot).", "OPT / OASiS <= 2 alpha",
       V.PAPER_ERROR, "The in-premise Theorem 1 instance with f = [10, 10, 10, 1e-3]: w = 1 of c = 100, m = 0.03 slot. "
       "OASiS with Alg. 2 completes the job in slot 4 (utility 1e-3), the certified offline optimum in slot 3 (utility "
       "10): OPT / OASiS = 1e4 > 2 alpha = 34.6. The proof's step 'mu_i = best payoff' uses Theorem 1; with the exact "
       "oracle (27) in Alg. 1 OASiS reaches the optimum (the check runs it). Flip: the instance "
       "oasis2018_lemma2_contested, where OASiS reaches the certified optimum (reproduced).",
       experiment(_theorem4, stem="oasis2018_theorem4_in_premise"), evidence=("oasis2018_theorem4_in_premise",),
       flip=Flip(THM4_FLIP[0], V.REPRODUCED, "stem", THM4_FLIP[1])),
    _c("oasis2018.fig5.ratio_range", "Section V-A, Fig. 5 (performance ratio)",
       "OPT / OASiS is around 1.1 to 1.5 (10 jobs, T = 10, varying servers and priorities).",
       "{:g}-{:g}".format(*paper.FIG5_RATIO_RANGE),
       V.REPRODUCED, "Certified offline optima of (1)-(13) (HiGHS) on the Fig. 5 instances of seeds 0-5 (20-60 servers, "
       "gamma1 ranges [1, 10] and [1, 100]): OPT / OASiS stays within [1, 1.5] (the claim's upper end holds); ours is "
       "lower than the paper's 1.1-1.5 (seeds 0-2: OASiS is optimal; 9 seeds: [1.00, 1.18]), since our Fig. 5 "
       "instances draw E_i in [5, 20] (with the paper's [50, 200] only ~2 of 10 jobs can finish by T = 10). The "
       "paper's '2 days' for the offline optimum takes seconds here. Flip: OASiS fed estimated U/L with ln(U/L) capped "
       "at 5 (the optima unchanged): it rejects jobs the optimum runs and the ratio leaves [1, 1.5] (inf on seeds 2 "
       "and 5).", experiment(_check_fig5_range), cost="slow",
       flip=Flip(FIG5_FLIP, V.OUTSIDE_PREMISE, "cap", FIG5_FLIP_CAP)),
    _c("oasis2018.theorem4.fig5_instances", "Section IV-D, Theorem 4 on Fig. 5's instances",
       "OASiS is 2 alpha-competitive (the Fig. 5 instances).", "OPT / OASiS <= 2 alpha",
       V.REPRODUCED, "On the Fig. 5 instances (seeds 0-5) the certified ratio is far below 2 alpha (31-65): the "
       "Theorem 1 gap needs a deadline that the per-slot rounding misses by one chunk, which these instances do not "
       "hit. Flip: OASiS fed U/L with ln(U/L) capped at 5 rejects every job on seeds 2 and 5: OPT / OASiS = inf > "
       "2 alpha (Theorem 4 is stated for the exact (23)-(26)).", experiment(_check_fig5_theorem4), cost="slow",
       flip=Flip(FIG5_FLIP, V.OUTSIDE_PREMISE, "cap", FIG5_FLIP_CAP)),
    _c("oasis2018.section5.decision_time", "Section V-A, footnote 5 (Theorem 3)",
       "OASiS runs for less than 1 second to produce the best schedule of a job with 100 slots and 80 servers.",
       f"< {paper.DECISION_TIME_LIMIT:g} s",
       V.REPRODUCED, "One decision (prices (22) and Alg. 2) for the paper's largest job (N = 100, E = 200) arriving at "
       "slot 1 of T = 100 with 40 + 40 servers, best of 3 runs, timed in CPU seconds of the process: 0.15 s, a "
       "margin of 6.7x under the paper's 1 s.  The wall clock is not used: on the shared 2-core machine under a load "
       "of 12 the same decision took 2.3 s of wall time for 0.15 s of CPU (issue 30: no verdict from the machine's "
       "load; tests/claims runs the claim beside a CPU-burning process).  Flip: a job ten times the paper's largest "
       "(E = 2,000) takes 1.3 s of CPU, over 1 s; the footnote's premise is the paper's largest job, and inside it "
       "(E = 200, run too) the claim holds: fails-outside-premise.", experiment(_check_decision_time), cost="slow", timed=True,
       flip=Flip("E = 2,000 epochs (ten times the paper's largest job)", V.OUTSIDE_PREMISE,
                 "epochs", 10 * paper.LARGEST_EPOCHS)),
    _c("oasis2018.section4b.log_ratio_size", "Section IV-B, rationale (ii) of the price functions, with (23)-(26) "
       "and Section V-A's utilities",
       "The prices increase exponentially when the allocated amounts of resources increase, to filter out jobs with "
       "low utilities which arrive early, and to reserve resources for jobs with higher utilities that may arrive later.",
       "'(ii) The prices increase exponentially when the allocated amounts of resources increase, to filter out jobs "
       "with low utilities which arrive early' (ln(U/L) itself is not printed)", V.DEPENDS_ON_READING,
       "Read with the literal (25)-(26) (the default): with the sigmoid utilities of Section V-A, f_i(T - a_i) of a "
       "time-critical job is ~exp(-1,600) at T = 300, so ln L1 ~ -1,617 and ln(U/L) ~ 1,620: a price stays below U / 1e6 "
       "(negligible against utilities >= 1) until a server is ~99% full, so the prices filter nothing before the "
       "last 1% of a server and Theorem 4's 2 alpha ~ 3,200 is vacuous: the paper's own formulas at its own settings "
       "contradict its printed rationale (ii) (fails-paper-error under this reading). L1 is 0 in double precision but "
       "not in long double; the prices are negligible either way (the Fig. 3 check runs both). Read with U/L "
       "estimated (Section IV-B: 'we adopt their estimated values'), ln(U/L) <= 15: prices reach U / 1e6 from 8% "
       "use and the rationale holds. The check runs both readings. This is the mechanism behind the Fig. 3 entries. "
       "Flip: the horizon T = 10 instead of 300, where the literal ln(U/L) is small (the sigmoid has not decayed): "
       "the rationale holds under both readings (reproduced).",
       experiment(_check_log_ratio), sweep="oasis.log_ratio_cap",
       parameters=(Parameter("slots", paper.FIG3_SLOTS, printed="Section V-A and Fig. 6's caption: T = 300 time slots "
                                                           "(H = K = 50 servers of each kind)"),),
       flip=Flip("the horizon T = 10 slots instead of the paper's 300", V.REPRODUCED, "slots", 10)),
    _c("oasis2018.fig3.oasis_best_small", "Section V-A, Fig. 3 (total utility)",
       "OASiS performs the best, especially when resources are scarce.", "OASiS best of 5 schemes",
       V.DEPENDS_ON_READING, "With the literal bounds (25)-(26) OASiS loses to RRH on this Section V-A instance "
       "(20 jobs, T = 30, H = K = 8, seed 1): prices stay ~0 until a server is ~99% full, so OASiS reserves full-width "
       "schedules first-come and later jobs find no capacity. Long-double prices do not change that (it is not an "
       "underflow); capping ln(U/L) at 15 (a reading: Fig. 6 shows the authors feed estimated U/L to OASiS, and the "
       "values used for Fig. 3 are not stated) makes OASiS the best scheme. On 40 jobs, T = 60, H = K = 20, seeds 0-7, "
       "the cap makes OASiS best on 7 of 8, the literal bounds on 1 of 8 (sweep oasis.log_ratio_cap). The outcome "
       "carries both readings (literal first, the default). Flip: H = K = 40 servers (resources not scarce): OASiS is "
       "the best scheme under neither reading (fails-unexplained), as the claim's 'especially when resources are "
       "scarce' allows.", experiment(_check_fig3_small),
       sweep="oasis.log_ratio_cap",
       flip=Flip(FIG3_SMALL_FLIP[0], FIG3_SMALL_FLIP[1], FIG3_SMALL_FLIP[2], FIG3_SMALL_FLIP[3])),
    _c("oasis2018.fig3.oasis_best_paper_scale", "Section V-A, Fig. 3 (total utility, T = 300, H = K = 50)",
       "OASiS performs the best, especially when the number of jobs is larger.", "OASiS best of 5 schemes",
       V.DEPENDS_ON_READING, "At the paper's scale (300 jobs, T = 300, H = K = 50, seeds 0-2) the literal bounds give "
       "ln(U/L) ~ 1,620 and OASiS is not the best scheme; with long-double prices neither; with ln(U/L) capped at 15 "
       "OASiS is best on all three seeds (both readings in the outcome). Flip: 30 jobs instead of 300 on the same "
       "cluster (resources not scarce). Baselines and each OASiS variant are computed once per process.",
       experiment(_check_fig3_paper), evidence=(),
       cost="slow", sweep="oasis.log_ratio_cap",
       flip=Flip(FIG3_PAPER_FLIP[0], FIG3_PAPER_FLIP[1], "jobs", FIG3_PAPER_FLIP[2])),
    _c("oasis2018.fig3.oasis_best_bundled", "Section V-A, Fig. 3 (total utility, T = 100, H = K = 50)",
       "OASiS performs the best, especially when resources are scarce.", "OASiS best of 5 schemes",
       V.DEPENDS_ON_READING, "The bundled Section V-A instance (60 jobs, T = 100, H = K = 50): with the literal bounds "
       "(ln L1 = -490, ln(U/L) ~ 500) Dorm (~960) and DRF (911) beat OASiS (678), whose rejected jobs found no capacity "
       "left; long-double prices give the same 678; with ln(U/L) capped at 15 OASiS reaches 1089, the best (both "
       "readings in the outcome). Flip: the bundled 15-job instance oasis2018_lemma2_contested, whose literal "
       "ln(U/L) is small: OASiS is the best scheme under both readings (reproduced).",
       experiment(_check_fig3_bundled), evidence=("oasis2018_drf_beats_oasis",), cost="slow", sweep="oasis.log_ratio_cap",
       flip=Flip(FIG3_BUNDLED_FLIP[0], FIG3_BUNDLED_FLIP[1], "stem", FIG3_BUNDLED_FLIP[2])),
]

CLAIMS.append(_c(
    "oasis2018.fig6.underestimate_better", "Section V-A, Fig. 6 (inaccurate U/L, T = 300)",
    "Underestimating U1/L1, U2/L2 leads to higher total utility than overestimating them when resources are scarce.",
    "underestimate > overestimate ('at different percentages of their actual values'; the percentages are only in "
    "the figure)", V.DEPENDS_ON_READING,
    "Three readings are run on a scarce Section V-A instance (20 jobs, T = 30, H = K = 8, seed 1; DRF completes fewer "
    "jobs than have a schedule). The paper's words (U/L itself at a percentage of its value, `options={'estimates': "
    "rho}`), 50% vs 200% (the default): an estimate multiplies every price by at most 2, and with ln(U/L) in the "
    "hundreds no decision changes: 51.9 both (not reproduced). The same reading at 1% vs 10,000% (the figure's "
    "range is not printed): 51.9 vs 2.4 (reproduced: a 100x overestimate raises the prices above the jobs' "
    "utilities). hetopt's own reading (a percentage of ln(U/L), the exponent), 50% vs 200%: 51.9 vs 0.2 "
    "(reproduced). The verdict is therefore depends-on-reading; it is not reproduced under the paper's words at "
    "moderate percentages, and the reading that passes at 50% / 200% is hetopt's own. Flip: resources less scarce "
    "(H = K = 20): no reading shows the underestimate ahead (the log reading reverses: 159.0 vs 169.5; at H = K = 40 "
    "U/L at 1% / 10,000%: 165.1 vs 189.5), fails-unexplained, consistent with the claim's 'when resources are "
    "scarce'.", experiment(_check_fig6),
    flip=Flip("H = K = 20 servers (resources less scarce)", V.UNEXPLAINED, "servers", 20)))

#: Stem a bundled testbed trace would have (job speeds measured on the paper's Kubernetes / MXNet cluster).
TESTBED_STEM = "oasis2018_testbed"


#: Seeds of the testbed proxy (12 jobs, T = 10, 7 + 2 servers, E in [4, 30]: the sizes Section V-B prints).
TESTBED_SEEDS = (0, 1, 2, 3, 4, 5)


def _check_testbed(server_factor: int = 1) -> Outcome:
    """Fig. 8's direction on simulated testbeds of the paper's size; ``server_factor`` (the flip) multiplies the servers."""
    H, K = 7 * server_factor, (paper.TESTBED_SERVERS - 7) * server_factor
    best, strict, parts = 0, 0, []
    for seed in TESTBED_SEEDS:
        inst = generate_instance(n_jobs=paper.TESTBED_JOBS, horizon=paper.TESTBED_SLOTS, n_worker_servers=H,
                                 n_ps_servers=K, seed=seed, epochs_range=(4, 30),
                                 chunks_range=(5, 100), minibatches_range=(10, 100))
        u = dg.scheme_utilities(inst, caps=(None,))
        top = max(v for k, v in u.items() if k != "oasis")
        best += u["oasis"] >= top - 1e-9
        strict += u["oasis"] > top + 1e-9
        parts.append(f"seed {seed}: OASiS {u['oasis']:.1f} vs best baseline {top:.1f}")
    n = len(TESTBED_SEEDS)
    # the paper's direction: OASiS has the highest total utility; on a small testbed it may tie (Section V-B says the
    # difference "may not be as apparent"), so the proxy agrees when OASiS is never beaten and strictly best on most
    agrees = best == n and strict > n / 2
    ours = f"OASiS best on {best}/{n} simulated testbeds (strictly on {strict}), {H} + {K} servers"
    detail = "; ".join(parts)
    if TESTBED_STEM in list_instances():
        return Outcome(ours, V.UNEXPLAINED, "a testbed trace is bundled: this entry must compare against it")
    return Outcome(ours, V.DATA_MISSING, f"no {TESTBED_STEM} bundled (the testbed's measured job speeds are not "
                                         f"published); proxy: {detail}", proxy_agrees=agrees)


CLAIMS.append(_c(
    "oasis2018.testbed.fig8_oasis_best", "Section V-B, Figs. 8-9 (testbed)",
    "On the 9-server Kubernetes / MXNet testbed (12 jobs, 10 slots of 20 min) the comparison results are similar to "
    "Figs. 3-4: OASiS achieves the highest total utility.", "OASiS best (Fig. 8)", V.DATA_MISSING,
    "The testbed numbers rest on measured training speeds of six ImageNet models on the authors' cluster, which are not "
    "published (nor the 12 jobs' parameters). The proxy simulates the testbed's size with the Section V-A generator "
    "(12 jobs, T = 10, 7 worker + 2 PS servers, E in [4, 30]) on seeds 0-5 with all five schemes, Dorm included "
    "(0.2-0.4 s a run at this size): OASiS is never beaten and is strictly best on 5 of 6 (seed 0: OASiS = DRF = "
    "41.3, FIFO = RRH = 0, Dorm 6.3; seeds 1-5: OASiS 204 / 165 / 126 / 59 / 247 against 97 / 127 / 101 / 52 / 237). "
    "The proxy agrees with the paper's direction, so the entry is data-missing (a single seed, as before, is a tie). "
    "Flip: the same proxy with ten times the servers (70 + 20, resources not scarce): Dorm beats OASiS on seed 2 "
    "(369.9 vs 369.6) and they tie on seed 3, so the proxy no longer agrees (fails-unexplained): the direction "
    "needs scarce resources, as Section V-B itself says of its small testbed.", experiment(_check_testbed),
    direction="OASiS's total utility is the highest of the five schemes (FIFO, DRF, RRH, Dorm, OASiS)",
    flip=Flip("ten times the servers (70 worker + 20 PS servers: resources not scarce)", V.UNEXPLAINED,
              "server_factor", 10)))


def _check_fig4(n_per_class: int = 100) -> Outcome:
    """Fig. 4: OASiS's timeliness closest to zero in both classes, under both readings of its bounds."""
    tl = dg.fig4_timeliness(n_per_class)
    base = ("fifo", "drf", "rrh", "dorm")
    readings: dict[str, Verdict] = {}
    parts = []
    for reading, scheme in (("literal bounds (25)-(26)", "oasis"), ("ln(U/L) <= 15", "oasis@15")):
        wins = [c for c in ("sensitive", "critical") if tl[scheme][c][0] < min(tl[b][c][0] for b in base)]
        readings[reading] = V.REPRODUCED if len(wins) == 2 else V.UNEXPLAINED
        parts.append(f"{reading}: OASiS {tl[scheme]['sensitive'][0]:.2f} / {tl[scheme]['critical'][0]:.2f}")
    best = {c: min(base, key=lambda b: tl[b][c][0]) for c in ("sensitive", "critical")}
    parts.append("best baseline " + ", ".join(f"{c} {b} {tl[b][c][0]:.2f}" for c, b in best.items()))
    ours = "; ".join(parts)
    detail = f"{n_per_class} + {n_per_class} jobs, seed 0, mean |completion - gamma3| (sensitive / critical)"
    if len(set(readings.values())) > 1:
        return Outcome(ours, V.DEPENDS_ON_READING, detail, readings=readings)
    return Outcome(ours, next(iter(readings.values())), detail, readings=readings)


CLAIMS.append(_c(
    "oasis2018.fig4.timeliness_closest_to_zero", "Section V-A, Fig. 4",
    "OASiS's job completion times are the closest to the targets gamma3 (timeliness closest to zero) for both "
    "time-sensitive and time-critical jobs (100 + 100 jobs).", "OASiS closest to zero in both classes",
    V.UNEXPLAINED,
    "Measured at the paper's 100 + 100 jobs, T = 100, H = K = 50, seed 0, all five schemes: with the literal bounds "
    "OASiS is far from closest (21.7 / 25.6 against RRH 4.26 / 6.33); with ln(U/L) capped at 15 it is closest for "
    "time-critical jobs (2.09) but RRH is closer for time-sensitive ones (4.26 against 4.82), on seeds 1-2 too. "
    "Candidates measured and not explaining it at this load: caps 10 / 12 / 20 / 30, the jobs both complete, "
    "unfinished jobs counted at T + 1, steeper time-sensitive decays (card, Findings). The load moves it: at 50 + 50 "
    "jobs (Section V-A varies arrival rates; Fig. 4 prints 100 + 100) the capped reading is closest in both classes "
    "(5.31 / 2.19 against RRH 5.80 / 4.40), so the claim holds there under that reading (sweep oasis.fig4_load). "
    "No mechanism explains the paper's load, so the entry is fails-unexplained.", experiment(_check_fig4), cost="slow",
    sweep="oasis.fig4_load",
    flip=Flip("50 + 50 jobs (a lower arrival rate, same T, servers and seed)", V.DEPENDS_ON_READING,
              "n_per_class", 50)))

LEMMA2_STEM = "oasis2018_lemma2_contested"


def _lemma2_worst(inst: OasisInstance) -> tuple[int, int, float]:
    """(admitted jobs, jobs failing Lemma 2, max over admitted jobs of (Delta D / alpha) / Delta P)."""
    tr = dual_fitting_trace(inst)
    adm = [st for st in tr.steps if st.admitted]
    worst = max(((st.delta_dual / tr.alpha) / st.delta_primal for st in adm), default=0.0)
    return len(adm), sum(not st.holds for st in adm), float(worst)


#: The premise "demand << capacity", read as alpha w / c << 1 (Lemma 3's differential limit): at most this.
SMALL_SHARE = 0.1


def _alpha_share(inst: OasisInstance) -> float:
    """Alpha times the largest share of a server one worker or PS takes (the premise of Lemma 2, measured)."""
    b = price_bounds(inst)
    alpha = float(max(1.0, np.max(b.log_U1 - b.log_L1), np.max(b.log_U2 - b.log_L2)))
    share = 0.0
    for demand, capacity in ((inst.worker_demand, inst.worker_capacity), (inst.ps_demand, inst.ps_capacity)):
        cap = np.broadcast_to(capacity.min(axis=0), demand.shape)
        share = max(share, float(np.max(np.divide(demand, cap, out=np.zeros(demand.shape), where=cap > 0))))
    return alpha * share


def _check_lemma2(capacity_factor: int = 1) -> Outcome:
    """Lemma 2 on the contested instance with every capacity x ``capacity_factor``; the premise measured on it."""
    base = OasisInstance.from_json(instance_path(LEMMA2_STEM))
    inst = base if capacity_factor == 1 else dataclasses.replace(
        base, worker_capacity=base.worker_capacity * capacity_factor, ps_capacity=base.ps_capacity * capacity_factor)
    n, bad, worst = _lemma2_worst(inst)
    share = _alpha_share(inst)
    detail = (f"capacities x{capacity_factor}: {bad} of {n} admitted jobs fail it (worst (dD/alpha)/dP = {worst:.3f}); "
              f"alpha w / c = {share:.3g} (the premise: at most {SMALL_SHARE:g})")
    if bad == 0:
        return Outcome(f"holds for all {n} admitted jobs", V.REPRODUCED, detail)
    if share > SMALL_SHARE:  # demand << capacity, measured absent: the same experiment with capacities x100 inside it
        return outside_premise(f"fails for {bad} of {n} admitted jobs", detail, _check_lemma2(100),
                               ran={"capacity_factor": (100,)})
    return Outcome(f"fails for {bad} of {n} admitted jobs", V.UNEXPLAINED, detail)


CLAIMS.append(_c(
    "oasis2018.lemma2.per_job_inequality", "Appendix E, Lemma 2 (with Lemma 3)",
    "Every job raises the primal objective by at least 1/alpha of what it raises the dual objective: "
    "P_i - P_{i-1} >= (D_i - D_{i-1}) / alpha, given the allocation-cost relationship of the price function (22) "
    "and demands much smaller than capacities.", "P_i - P_{i-1} >= (D_i - D_{i-1}) / alpha for every i", V.OUTSIDE_PREMISE,
    "Lemma 2 rests on the discrete allocation-cost relationship p Delta g >= (c / alpha) Delta p. With (22) an "
    "allocation of a fraction x = Delta g / c of a server multiplies the price by e^{alpha x}, so the relationship asks "
    "(e^{alpha x} - 1) / (alpha x) <= 1, false for every x > 0: it holds only in the differential limit of Lemma 3, so "
    "the premise 'demand << capacity' must mean alpha w / c << 1. On the bundled contested instance (alpha = 14.6, "
    "allocations a sizable fraction of a server) dual_fitting_trace (hetopt.oasis.duality) finds the per-job inequality "
    "violated for every admitted job while OPT / OASiS = 1 there; with every capacity multiplied by 100 it holds for "
    "every admitted job. The check measures the premise on the instance (alpha w / c, at most 0.1 inside it) and "
    "runs the same experiment with the capacities x100 inside the premise, where it holds (notebooks/duality.ipynb, "
    "section 4, draws it). Flip: every capacity x1000: reproduced.",
    experiment(_check_lemma2), evidence=(LEMMA2_STEM,),
    flip=Flip("every capacity x1000 (each allocation a small fraction of a server: alpha w / c << 1)", V.REPRODUCED,
              "capacity_factor", 1000)))

# ----------------------------------------------------------------------------- Lemma 1 (D0 <= OPT / 2)
#: Lemma 1's instances: the bundled ones with a certified optimum (``expected.exact``) and small Section V-A ones
#: (jobs, T, H = K, seed; E, N in [5, 20]) whose optimum ``solve_exact`` certifies in about a second.
LEMMA1_STEMS = ("oasis2018_theorem1_counterexample", "oasis2018_theorem1_in_premise", "oasis2018_theorem4_in_premise",
                "oasis2018_theorem4_violation", LEMMA2_STEM)
LEMMA1_GENERATED = ((6, 8, 3, 0), (6, 8, 3, 1), (6, 8, 3, 3))


@functools.cache
def _lemma1_cases() -> tuple:
    """((name, instance, certified OPT), ...): OPT from ``solve_exact`` (OPTIMAL), checked against ``expected`` when bundled."""
    cases = []
    for stem in LEMMA1_STEMS:
        inst = _load(stem)
        sol = solve_exact(inst)
        if sol.status.value != "optimal":
            raise SolverError(f"{stem}: offline optimum not certified ({sol.status.value})")
        with open(instance_path(stem)) as fh:
            expected = json.load(fh).get("expected", {}).get("exact")
        if expected is not None and not math.isclose(float(sol.total_utility), float(expected), rel_tol=1e-6, abs_tol=1e-6):
            raise SolverError(f"{stem}: optimum {sol.total_utility} differs from the bundled expected {expected}")
        cases.append((stem, inst, float(sol.total_utility)))
    for n, T, S, seed in LEMMA1_GENERATED:
        inst = generate_instance(n_jobs=n, horizon=T, n_worker_servers=S, n_ps_servers=S, seed=seed, epochs_range=(5,
                                 20), chunks_range=(5, 20),
                                 minibatches_range=(10, 100))
        sol = solve_exact(inst)
        if sol.status.value != "optimal":
            raise SolverError(f"generated {(n, T, S, seed)}: offline optimum not certified ({sol.status.value})")
        cases.append((f"gen({n}, {T}, {S}, seed {seed})", inst, float(sol.total_utility)))
    return tuple(cases)


def _check_lemma1(quarter: bool = True) -> Outcome:
    """D0 = sum_t (sum_h,r L1 c_h^r + sum_k,r L2 c_k^r) <= OPT / 2; ``quarter=False`` (the flip): L without the 1/4 of (25)-(26)."""
    rows = []
    for name, inst, opt in _lemma1_cases():
        b = price_bounds(inst)
        if not quarter:
            b = dataclasses.replace(b, log_L1=b.log_L1 + float(np.log(4)), log_L2=b.log_L2 + float(np.log(4)))
        d0 = capacity_term(inst, prices_from_usage(inst, b, Usage.empty(inst)))
        rows.append((name, d0, opt))
    worst = max(d0 / opt for _, d0, opt in rows)
    bad = [n for n, d0, opt in rows if d0 > opt / 2 * (1 + 1e-9)]
    ours = f"max D0 / OPT = {worst:.4g} over {len(rows)} instances with a certified OPT"
    detail = "; ".join(f"{n}: D0 {d0:.4g}, OPT {opt:.4g}" for n, d0, opt in rows) + (
        "" if quarter else "; L1, L2 without the 1/4 of (25)-(26)")
    if not bad:
        return Outcome(ours, V.REPRODUCED, detail)
    if not quarter:  # the premise, the 1/4 of (25)-(26), is absent
        return outside_premise(ours, detail + f"; D0 > OPT / 2 on {bad}", _check_lemma1(True))
    return Outcome(ours, V.UNEXPLAINED, detail + f"; D0 > OPT / 2 on {bad}")


CLAIMS.append(_c(
    "oasis2018.lemma1.initial_dual_half_opt", "Appendix E-B, proof of Theorem 4, (34)-(35) (the premise of Lemma 1)",
    "The initial dual objective is at most half the offline optimum: D0 = sum_t sum_h sum_r L1 c_h^r + sum_t sum_k "
    "sum_r L2 c_k^r <= OPT / 2 (when the offline optimum accepts at least one job).", "D0 <= OPT / 2",
    V.REPRODUCED,
    "D0 is the capacities priced at L1, L2 of (25)-(26); the proof bounds it by (1/4 + 1/4) of the smallest utility a "
    "job can reach, hence by OPT / 2. Checked on the five bundled instances with a certified optimum and three small "
    "Section V-A instances (6 jobs, T = 8, H = K = 3, E and N in [5, 20]) whose optimum solve_exact certifies (OPTIMAL) "
    "in about a second: max D0 / OPT = 0.3125, on oasis2018_theorem1_counterexample (one job, the chain of (34)-(35) "
    "almost tight), and 5e-8 to 0.05 elsewhere. Lemma 1's other premise (P_i - P_{i-1} >= (D_i - D_{i-1}) / alpha) is "
    "the Lemma 2 entry. Flip: L1, L2 without the 1/4 of (25)-(26): D0 / OPT = 1.25 on the counterexample, so the "
    "factor 1/4 is what the step needs.", experiment(_check_lemma1), evidence=LEMMA1_STEMS,
    flip=Flip("L1, L2 of (25)-(26) without their factor 1/4", V.OUTSIDE_PREMISE,
              "quarter", False)))

CLAIMS.append(_c(
    "oasis2018.fig5.no_trend", "Section V-A, Fig. 5 (performance ratio)",
    "There is no clear trend of increase or decrease of the ratio with more resources and larger max(U/L).",
    "no clear trend", V.REPRODUCED,
    "The certified ratios OPT / OASiS of the Fig. 5 instances (seeds 0-5: 20 / 40 / 60 servers, gamma1 in [1, 10] and "
    "[1, 100]) against the number of servers (at each priority range) and against the largest ln(U/L) (at each number "
    "of servers; the priority range does not order ln(U/L) in our instances, so the instances are ordered by it): a "
    "clear trend is every group moving the same way by more than 5% end to end. Ratios 1.0 / 1.0 / 1.0 and "
    "1.082 / 1.0 / 1.0 (OASiS is optimal on five of six): no clear trend either way. Flip: OASiS fed U/L with ln(U/L) capped at 5 (the optima unchanged): it rejects more jobs the "
    "more servers there are (ratio 3.6 / 3.7 / inf at 20 / 40 / 60 servers for gamma1 in [1, 10]), a clear trend with "
    "the resources, outside the paper's setting (exact (23)-(26)).", experiment(_check_fig5_no_trend), cost="slow",
    flip=Flip(FIG5_FLIP, V.OUTSIDE_PREMISE, "cap", FIG5_FLIP_CAP)))

# ----------------------------------------------------------------------------- beyond the paper's 10 jobs
#: Sizes (jobs) and seeds of the size check: the Fig. 5 setting (T = 10, 40 servers, gamma1 in [1, 100],
#: E in [5, 20]) with more jobs than the paper could solve (the check 30, the flip 20; inside the premise: 10).
SIZE_JOBS = (20, 30)
SIZE_SEEDS = (0, 1, 2)


def _ratio_at(n_jobs: int, seed: int):
    return dg.ratio_at_size(n_jobs, seed=seed)


def _check_ratio_beyond_ten(jobs: int = SIZE_JOBS[-1]) -> Outcome:
    """OPT / OASiS in [1, 1.5] with certified optima at ``jobs`` jobs; beyond the paper's 10 its size is run inside."""
    sizes = (jobs,)
    pairs = [(n, s) for n in sizes for s in SIZE_SEEDS]
    rows = [(n, s, c) for (n, s), c in zip(pairs, claim_map(_ratio_at, pairs), strict=True)]
    kinds = {c.info["reference_kind"] for _, _, c in rows}
    top = paper.FIG5_RATIO_RANGE[1]
    bad = [(n, s, c.ratio) for n, s, c in rows if not 1 - 1e-6 <= c.ratio <= top + 1e-6]
    ours = f"OPT / OASiS in [{min(c.ratio for *_, c in rows):.3f}, {max(c.ratio for *_, c in rows):.3f}] at {list(sizes)} jobs"
    detail = "; ".join(f"{n} jobs seed {s}: {c.ratio:.3f} (OPT {c.reference:.1f}, OASiS {c.value:.1f})" for n, s, c in rows)
    if kinds != {"optimum"}:
        return Outcome(ours, V.UNEXPLAINED, detail + f"; references {sorted(kinds)} (not all certified)")
    if not bad:
        return Outcome(ours, V.REPRODUCED, detail)
    detail += f"; outside [1, {top:g}]: {[(n, s, round(r, 3)) for n, s, r in bad]}"
    # the paper's Fig. 5 stops at 10 jobs ("due to the time complexity of solving (1) exactly"): beyond it the
    # premise (the size measured) is absent, and the same experiment at the paper's size runs inside it
    if jobs > paper.FIG5_JOBS:
        return outside_premise(ours, detail, _check_ratio_beyond_ten(paper.FIG5_JOBS),
                               ran={"jobs": (paper.FIG5_JOBS,)})
    return Outcome(ours, V.UNEXPLAINED, detail)


CLAIMS.append(_c(
    "oasis2018.fig5.ratio_beyond_ten_jobs", "Section V-A, Fig. 5 (performance ratio), beyond its 10 jobs",
    "We observe a ratio around 1.1 to 1.5, showing the good performance of our online algorithm (measured with 10 "
    "jobs only: 'due to the time complexity of solving (1) exactly for the offline optimum, the number of jobs is "
    "limited to 10').", "{:g}-{:g} at 10 jobs".format(*paper.FIG5_RATIO_RANGE), V.OUTSIDE_PREMISE,
    "A claim hetopt adds beyond the paper (issue 30: counted apart). The Fig. 5 setting (T = 10, 20 + 20 servers, "
    "gamma1 in [1, 100], E in [5, 20]) with 30 jobs, seeds 0-2 (the check; 20 jobs is the flip), "
    "against the offline optimum certified by solve_exact (plan route, no time limit and at most 2,000 branch-and-bound "
    "nodes per MILP, a work limit HiGHS honours deterministically, so the outcome does not depend on the machine's "
    "load; the most any instance needs is 1,126 nodes, and each certifies OPTIMAL in 0.4-21 s of CPU): at 20 jobs OPT / OASiS = 1.264 / 1.114 / 1.073, inside the paper's range; at 30 jobs seed 0 it is "
    "3.228 (OPT 886.2, OASiS 274.5; seeds 1-2: 1.156 / 1.378), so the paper's 'around 1.1 to 1.5' does not carry beyond the size it could "
    "solve. The ratio stays far below 2 alpha (54.5), so Theorem 4 is not contradicted. Not the ln(U/L) mechanism "
    "of Fig. 3: ln(U/L) is 27 at T = 10, and the cap (10 / 15 / 20: 2.59 / 2.60 / 2.76) or long-double prices "
    "(2.76) do not bring it back, and the exact oracle (27) in place of Alg. 2 only partly (2.49): OASiS admits 8 "
    "of the 30 jobs (10 with (27)), the online admission itself loses. The premise (the paper's size) is measured "
    "absent and the same experiment at the paper's 10 jobs runs inside it: 1.114 / 1.000 / 1.156, reproduced, so "
    "the verdict is fails-outside-premise. Flip: 20 jobs, reproduced. Sweep oasis.ratio_by_size shows the ratio "
    "against the number of jobs.",
    experiment(_check_ratio_beyond_ten), cost="slow", sweep="oasis.ratio_by_size", beyond=True,
    flip=Flip("20 jobs instead of 30 (same seeds and setting)", V.REPRODUCED,
              "jobs", SIZE_JOBS[0])))

SWEEPS: dict[str, Sweep] = {
    "oasis.log_ratio_cap": Sweep(name="oasis.log_ratio_cap", func=dg.log_ratio_cap_sweep,
                                 description="total utility of OASiS against a cap on ln(U/L), with FIFO, DRF, RRH, Dorm",
                                 claims=("oasis2018.fig3.oasis_best_small", "oasis2018.fig3.oasis_best_paper_scale",
                                         "oasis2018.section4b.log_ratio_size")),
    "oasis.fig4_load": Sweep(name="oasis.fig4_load", func=dg.fig4_load_sweep,
                             description="Fig. 4 timeliness per scheme and class against the jobs per class",
                             claims=("oasis2018.fig4.timeliness_closest_to_zero",)),
    "oasis.ratio_by_size": Sweep(name="oasis.ratio_by_size", func=dg.ratio_by_size_sweep,
                                 description="certified OPT / OASiS against the number of jobs in the Fig. 5 setting",
                                 claims=("oasis2018.fig5.ratio_beyond_ten_jobs",)),
}
