"""Claims of OASiS (Bao, Peng, Wu, Li, INFOCOM 2018) and the experiments that decide their verdicts.

Each check recomputes our number and decides the verdict by running the experiment: a failing
verdict is returned only when the diagnostic toggle confirms the mechanism (the exact oracle
(27) in place of Alg. 2, a chunk time with 1 / m integer, a cap on ln(U/L), long-double
prices), otherwise ``fails-unexplained``.  The experiments live in
:mod:`hetopt.claims.oasis.diagnostics`, the figure data in :mod:`hetopt.claims.oasis.figures`,
the paper's printed numbers in :mod:`hetopt.claims.oasis.paper`; the card is ``models/oasis2018.md``.
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from ...bench.oasis import decision_time
from ...data import instance_path, list_instances
from ...oasis.checker import check_schedule
from ...oasis.duality import dual_fitting_trace
from ...oasis.generator import generate_instance
from ...oasis.instance import OasisInstance
from ...oasis.oracle import algorithm2_literal, best_schedule
from ...oasis.prices import Prices, Usage, price, price_bounds, prices_from_usage
from ...oasis.simulator import simulate
from ...oasis.validate import fig5_setting, validate_ratio
from ..ledger import Claim, Outcome, Sweep, Verdict
from . import diagnostics as dg
from . import paper

__all__ = ["CLAIMS", "SWEEPS"]

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


# ----------------------------------------------------------------------------- price functions
def _price_endpoints():
    inst = fig5_setting(seed=0)
    b = price_bounds(inst)
    cap = inst.worker_capacity[0]
    used = cap > 0
    lo = price(b.log_L1, b.log_U1, np.zeros_like(cap), cap)
    hi = price(b.log_L1, b.log_U1, cap, cap)
    # compare in logs: L1 itself can underflow a double
    with np.errstate(divide="ignore"):
        err_lo = float(np.max(np.abs(np.log(lo) - b.log_L1))) if np.all(lo > 0) else None
    err_hi = float(np.max(np.abs(np.log(hi[used]) - b.log_U1[used])))
    return b, err_lo, err_hi


def _check_price_zero() -> Outcome:
    b, err, _ = _price_endpoints()
    ok = err is not None and err < 1e-9
    return Outcome(f"P(0) = L1, |ln P(0) - ln L1| = {err}", V.REPRODUCED if ok else V.UNEXPLAINED,
                   f"ln L1 = {b.log_L1:.3f} on fig5_setting(0)")


def _check_price_full() -> Outcome:
    b, _, err = _price_endpoints()
    return Outcome(f"P(c) = U1, max |ln P(c) - ln U1| = {err:.2e}", V.REPRODUCED if err < 1e-9 else V.UNEXPLAINED,
                   f"ln U1 = {np.round(b.log_U1, 3).tolist()}")


def _check_empty_cluster_admits() -> Outcome:
    """Appendix A, property (i): at zero use every job with a schedule has a positive payoff."""
    worst, n = np.inf, 0
    for seed in FIG5_SEEDS[:3]:
        inst = fig5_setting(seed=seed)
        used = Usage.empty(inst)
        prices = prices_from_usage(inst, price_bounds(inst), used)
        for i in range(inst.n_jobs):
            r = best_schedule(inst, i, prices, used)
            if r.schedule is not None:
                worst, n = min(worst, float(r.payoff)), n + 1
    ok = n > 0 and worst > 0
    return Outcome(f"smallest payoff {worst:.3g} over {n} jobs", V.REPRODUCED if ok else V.UNEXPLAINED,
                   f"fig5_setting seeds {list(FIG5_SEEDS[:3])}, every job alone on the empty cluster at prices L")


# ----------------------------------------------------------------------------- Theorems 1 and 4
def _theorem1(stem: str, expect_premise: bool) -> Outcome:
    r = dg.theorem1_experiment(_load(stem))
    ours = f"Alg. 2 payoff {r['dp']:.6g} (slot {r['dp_completion']}) vs (27) {r['ilp']:.6g} (slot {r['ilp_completion']})"
    detail = (f"m = {r['premise']['chunk_time']:g}, demand share {r['premise']['demand_share']:g}; the optimum of (27) "
              f"rounded per slot trains {r['ilp_chunks_when_rounded']} < {r['workload_chunks']} chunks; "
              f"1/m integer: Alg. 2 = (27) {r['integer_variant_equal']}")
    if not r["fails"]:
        return Outcome(ours, V.REPRODUCED, detail)
    if not (r["rounding_loss"] and r["integer_variant_equal"]):
        return Outcome(ours, V.UNEXPLAINED, detail)
    return Outcome(ours, V.PAPER_ERROR if r["premise"]["holds"] else V.OUTSIDE_PREMISE, detail)


def _theorem4(stem: str) -> Outcome:
    r = dg.theorem4_experiment(_load(stem))
    ours = f"OPT / OASiS = {r['ratio']:.6g} vs 2 alpha = {r['limit']:.4g}"
    detail = (f"OPT {r['opt']:.6g}, OASiS {r['oasis']:.6g}; with the exact oracle (27): {r['oasis_exact_oracle']:.6g} "
              f"(ratio {r['ratio_exact_oracle']:.4g}); m = {r['premise']['chunk_time']:g}, "
              f"demand share {r['premise']['demand_share']:g}")
    if not r["violated"]:
        return Outcome(ours, V.REPRODUCED, detail)
    if r["ratio_exact_oracle"] > r["limit"]:  # the Alg. 2 mechanism does not explain it
        return Outcome(ours, V.UNEXPLAINED, detail)
    return Outcome(ours, V.PAPER_ERROR if r["premise"]["holds"] else V.OUTSIDE_PREMISE, detail)


def _check_cost_t() -> Outcome:
    r = dg.cost_t_experiment()
    ok = r["cases"] > 0 and r["mismatch"] == 0 and r["max_gap"] <= 1e-9
    return Outcome(f"greedy = brute force on {r['cases']} (slot, worker count) cases, max gap {r['max_gap']:.2g}",
                   V.REPRODUCED if ok else V.UNEXPLAINED, f"feasibility mismatches: {r['mismatch']}")


def _check_theorem3() -> Outcome:
    """Operation counts of Alg. 2 (line-by-line transcription) against O(T N E (H + K) + T N^2 E^2)."""
    rows: list[tuple[int, int, int, int, int]] = []
    ok = True
    for E, N, T in ((2, 3, 6), (4, 3, 6), (8, 3, 6), (2, 3, 12)):
        inst = generate_instance(1, T, 3, 3, seed=0, epochs_range=(E, E), chunks_range=(N, N))
        d = inst.to_dict()
        d["arrival"] = [1]
        inst = OasisInstance.from_dict(d)
        st: dict[str, int] = {}
        z = Prices.zeros(inst)
        lit = algorithm2_literal(inst, 0, z, stats=st)
        D, HK = E * N, inst.n_worker_servers + inst.n_ps_servers
        ops = st["cost_t_calls"] * HK + st["dp_transitions"]
        bound = T * D * HK + T * D * D  # the theorem's expression with constant 1 (D = N E; +1 terms absorbed)
        ok &= ops <= 2 * bound and abs(float(lit.payoff) - float(best_schedule(inst, 0, z).payoff)) <= 1e-9
        rows.append((E, N, T, ops, bound))
    growth = rows[2][3] / rows[0][3]  # E x 4: quadratic growth is <= 16
    ok &= growth <= 16
    return Outcome(f"ops / bound <= {max(r[3] / r[4] for r in rows):.2f}; E x4 -> ops x{growth:.1f}",
                   V.REPRODUCED if ok else V.UNEXPLAINED,
                   "; ".join(f"E={E} N={N} T={T}: {o} ops vs {b}" for E, N, T, o, b in rows))


def _check_theorem2() -> Outcome:
    bad, runs = [], 0
    for seed in (0, 1):
        inst = generate_instance(20, 30, 8, 8, seed=seed)
        for cap in (None, CAP):
            rep = check_schedule(inst, simulate(inst, "oasis", options={"log_ratio_cap": cap}))
            runs += 1
            if not rep.ok:
                bad.append(f"seed {seed} cap {cap}: {rep.violations[0]}")
    for stem in ("oasis2018_theorem1_in_premise", "oasis2018_theorem4_in_premise"):
        inst = _load(stem)
        runs += 1
        if not check_schedule(inst, simulate(inst, "oasis")).ok:
            bad.append(stem)
    return Outcome(f"{runs - len(bad)} of {runs} runs feasible", V.REPRODUCED if not bad else V.UNEXPLAINED,
                   "; ".join(bad) or "check_schedule on (2)-(13), Section V-A instances and the bundled ones")


@functools.cache
def _fig5_rows() -> tuple:
    return tuple(validate_ratio(fig5_setting(seed=s), time_limit=120) for s in FIG5_SEEDS)


def _check_fig5_range() -> Outcome:
    rows = _fig5_rows()
    kinds = {c.info["reference_kind"] for c in rows}
    ratios = [c.ratio for c in rows]
    top = paper.FIG5_RATIO_RANGE[1]
    ok = kinds == {"optimum"} and all(1 - 1e-6 <= r <= top + 1e-6 for r in ratios)  # MILP float noise ~1e-9
    return Outcome(f"OPT / OASiS in [{min(ratios):.3f}, {max(ratios):.3f}]", V.REPRODUCED if ok else V.UNEXPLAINED,
                   f"fig5_setting seeds {list(FIG5_SEEDS)}, references {sorted(kinds)}")


def _check_fig5_theorem4() -> Outcome:
    rows = _fig5_rows()
    ok = all(c.holds is True for c in rows)
    return Outcome(", ".join(f"{c.ratio:.3f} <= {c.limit:.1f}" for c in rows), V.REPRODUCED if ok else V.UNEXPLAINED,
                   f"holds: {[c.holds for c in rows]}")


def _check_decision_time() -> Outcome:
    T, H = paper.DECISION_SLOTS, paper.DECISION_SERVERS // 2
    N, E = paper.LARGEST_CHUNKS, paper.LARGEST_EPOCHS
    best = min(decision_time(T, H, N, E) for _ in range(3))
    return Outcome(f"{best:.3f} s (best of 3)", V.REPRODUCED if best < paper.DECISION_TIME_LIMIT else V.UNEXPLAINED,
                   f"T = {T}, H = K = {H} ({2 * H} servers), N = {N}, E = {E}: pricing (22) + Alg. 2 for one job")


# ----------------------------------------------------------------------------- Fig. 3
def _fig3(settings, label: str) -> Outcome:
    rows = []
    for st in settings:
        inst = _load(st) if isinstance(st, str) else generate_instance(st[0], st[1], st[2], st[2], seed=st[3])
        rows.append(dg.scheme_utilities(inst, caps=(None, CAP), long_double=True))
    base = lambda u: max(u[b] for b in dg.BASELINES)  # noqa: E731
    lit = [u["oasis"] > base(u) for u in rows]
    ld = [u["oasis_longdouble"] > base(u) for u in rows]
    capped = [u[f"oasis@{CAP:g}"] > base(u) for u in rows]
    ours = f"OASiS best on {sum(lit)}/{len(rows)} ({label}); with ln(U/L) <= {CAP:g}: {sum(capped)}/{len(rows)}"
    detail = "; ".join(f"OASiS {u['oasis']:.1f} (long double {u['oasis_longdouble']:.1f}, capped {u[f'oasis@{CAP:g}']:.1f}) "
                       f"vs best baseline {base(u):.1f}" for u in rows)
    if all(lit):
        return Outcome(ours, V.REPRODUCED, detail)
    # the mechanism: not underflow (long double does not rescue it), the size of ln(U/L) (the cap does)
    if not any(ld) and all(capped):
        return Outcome(ours, V.DEPENDS_ON_READING, detail)
    return Outcome(ours, V.UNEXPLAINED, detail)


def _check_fig3_small() -> Outcome:
    return _fig3([FIG3_SMALL], f"{FIG3_SMALL[0]} jobs, T = {FIG3_SMALL[1]}, H = K = {FIG3_SMALL[2]}, seed {FIG3_SMALL[3]}")


def _check_fig3_paper() -> Outcome:
    return _fig3(FIG3_PAPER, "300 jobs, T = 300, H = K = 50, seeds 0-2")


def _check_fig3_bundled() -> Outcome:
    return _fig3(["oasis2018_drf_beats_oasis"], "60 jobs, T = 100, H = K = 50, oasis2018_drf_beats_oasis")


def _check_log_ratio() -> Outcome:
    """Section IV-B / Theorem 4: the size of ln(U/L) at the paper's scale (no claim of the paper; our card's number)."""
    inst = generate_instance(300, paper.FIG3_SLOTS, paper.FIG3_SERVERS, paper.FIG3_SERVERS, seed=0)
    b = price_bounds(inst)
    ratio = float(max(np.max(b.log_U1 - b.log_L1), np.max(b.log_U2 - b.log_L2)))
    # fraction of capacity at which a price reaches 1e-6 of U (prices below are negligible against utilities >= 1)
    frac = 1.0 - np.log(1e6) / ratio
    double_zero = float(np.exp(np.float64(b.log_L1))) == 0.0
    ld_pos = float(np.exp(np.longdouble(b.log_L1)) > 0)
    ok = frac > 0.9  # rationale (ii) (filter low-utility jobs early) cannot act below 90% use
    return Outcome(f"ln L1 = {b.log_L1:.1f}, ln(U/L) up to {ratio:.0f}; prices < U/1e6 below {frac:.1%} use",
                   V.PAPER_ERROR if ok else V.REPRODUCED,
                   f"L1 is 0 in double: {double_zero}; > 0 in long double: {bool(ld_pos)}; 2 alpha = {2 * ratio:.0f}")


#: Fig. 6 instance (jobs, T, H = K, seed) and the under / over estimates compared.
FIG6 = (20, 30, 8, 1)
FIG6_FRACTIONS = (0.5, 2.0)


def _check_fig6() -> Outcome:
    n, T, S, seed = FIG6
    r = dg.estimate_experiment(generate_instance(n, T, S, S, seed=seed), FIG6_FRACTIONS)
    lo, hi = FIG6_FRACTIONS
    ratio_gain = r["ratio"][lo] - r["ratio"][hi]
    log_gain = r["log"][lo] - r["log"][hi]
    ours = f"under - over estimate of U/L: {ratio_gain:+.3g} (U/L scaled), {log_gain:+.3g} (ln(U/L) scaled)"
    detail = (f"{n} jobs, T = {T}, H = K = {S}, seed {seed}, fractions {lo} / {hi}: U/L scaled "
              f"{r['ratio'][lo]:.1f} / {r['ratio'][hi]:.1f}; ln(U/L) scaled {r['log'][lo]:.1f} / {r['log'][hi]:.1f}")
    if ratio_gain > 1e-9:
        return Outcome(ours, V.REPRODUCED, detail)
    if abs(ratio_gain) <= 1e-9 and log_gain > 1e-9:
        return Outcome(ours, V.DEPENDS_ON_READING, detail)
    return Outcome(ours, V.UNEXPLAINED, detail)


def _c(id_, location, statement, paper_value, verdict, diagnosis, check, evidence=(), cost="fast", sweep=None):
    return Claim(id=id_, paper=P, location=location, statement=statement, paper_value=paper_value, verdict=verdict,
                 diagnosis=diagnosis, check=check, evidence=tuple(evidence), cost=cost, sweep=sweep)


CLAIMS: list[Claim] = [
    _c("oasis2018.eq22.price_at_zero_use", "Section IV-B, eq. (22); Appendix A",
       "The price of a resource on an idle server is L1 (L2): p_h^r = L1 when g_h^r(t) = 0.", "P(0) = L1",
       V.REPRODUCED, "Eq. (22) evaluated at zero use on the Fig. 5 instance of seed 0, compared with L1 of (25) in "
       "logarithms (L1 itself can be below the smallest double).", _check_price_zero),
    _c("oasis2018.eq22.price_at_capacity", "Section IV-B, eq. (22); Appendix A",
       "The price of an exhausted resource is U1^r (U2^r): p_h^r = U1^r when g_h^r(t) = c_h^r.", "P(c) = U1",
       V.REPRODUCED, "Eq. (22) evaluated at full capacity on the Fig. 5 instance of seed 0, compared with U1^r of (23) "
       "in logarithms.", _check_price_full),
    _c("oasis2018.appendix_a.empty_cluster_admits", "Section IV-B, rationale (i); Appendix A",
       "At zero use any job can be admitted, since L1 and L2 are the lowest unit job utility.", "payoff > 0 for every job",
       V.REPRODUCED, "Every job of the Fig. 5 instances (seeds 0-2) that has a feasible schedule gets a positive payoff "
       "from Alg. 2 on the empty cluster at prices L1, L2: the 1/(4 eta) factor of (25)-(26) keeps the cost of its "
       "whole schedule below f_i(T - a_i).", _check_empty_cluster_admits),
    _c("oasis2018.theorem1.alg2_optimal_outside_premise", "Section IV-D, Theorem 1; Appendix B",
       "Alg. 2 produces an optimal solution of problem (27).", "optimal",
       V.OUTSIDE_PREMISE, "Alg. 2 assumes a worker trains a whole number of chunks per slot (d chunks need ceil(d m_i) "
       "workers, line 26); (27) only asks for E_i N_i m_i worker-slots in total. With m = 0.4 slot Alg. 2 needs 3 slots "
       "(payoff 5), (27) 2 slots (payoff 8). This instance violates the premise stated before (32) (a chunk takes much "
       "less than a slot: m = 0.4, and a worker fills the server); the in-premise instance fails the same way. The check "
       "confirms the mechanism: the optimum of (27), rounded per slot, trains fewer than E N chunks, and with "
       "m' = 1 / ceil(1 / m) Alg. 2 reaches the optimum of (27).", lambda: _theorem1("oasis2018_theorem1_counterexample", False),
       evidence=("oasis2018_theorem1_counterexample",)),
    _c("oasis2018.theorem1.alg2_optimal_in_premise", "Section IV-D, Theorem 1; Appendix B",
       "Alg. 2 produces an optimal solution of problem (27) (a chunk takes much less than a slot).", "optimal",
       V.PAPER_ERROR, "Inside the premise (m = 0.03 slot, demands 1% of a server) Alg. 2 still loses a slot at a "
       "deadline: 10 workers train floor(10 / 0.03) = 333 chunks a slot, 999 < 1000 after 3 slots, so Alg. 2 needs a 4th "
       "slot (payoff 1) while (27) finishes in 3 (30 worker-slots, payoff 10). The per-slot rounding loses up to one chunk "
       "per slot however small m is, so the assumption 'we may safely assume a worker trains an integer number of chunks' "
       "does not preserve optimality. With m' = 1 / ceil(1 / m) the two coincide (the check reruns both).",
       lambda: _theorem1("oasis2018_theorem1_in_premise", True), evidence=("oasis2018_theorem1_in_premise",)),
    _c("oasis2018.theorem1.cost_t_optimal", "Section IV-D, Theorem 1 (second half); Alg. 2 lines 23-46",
       "COST_t computes an optimal solution of problem (32).", "optimal",
       V.REPRODUCED, "For a fixed number of workers in a slot, (32) is a min-cost placement of unit items on servers "
       "with integer capacities and linear costs, which filling the cheapest servers first solves; the PS count is "
       "the fewest allowed by (6)-(7) since prices are non-negative. Checked against brute force over every placement "
       "of the workers and every feasible PS count, random prices and residual capacities (3 seeds, 3 + 3 servers). "
       "The failure of Theorem 1 is in the DP's chunk rounding, not here.", _check_cost_t),
    _c("oasis2018.theorem2.feasible", "Section IV-D, Theorem 2; Appendix C",
       "OASiS (Alg. 1 with Alg. 2) computes a feasible solution to problems (1), (14), (19).", "feasible",
       V.REPRODUCED, "Every schedule OASiS returns (literal bounds and ln(U/L) capped at 15, Section V-A instances and "
       "the bundled in-premise ones) passes the independent checker of constraints (2)-(13).", _check_theorem2,
       evidence=("oasis2018_theorem1_in_premise", "oasis2018_theorem4_in_premise")),
    _c("oasis2018.theorem3.polynomial_time", "Section IV-D, Theorem 3; Appendix D",
       "OASiS decides each job in time O(T N_i E_i (H + K) + T N_i^2 E_i^2).", "O(T N E (H + K) + T N^2 E^2)",
       V.REPRODUCED, "Operation counts of the line-by-line transcription of Alg. 2 (distinct COST_t evaluations, each "
       "O(H + K) after sorting, plus iterations of the DP loop of line 14) stay within twice the theorem's expression "
       "on four job sizes, and grow at most quadratically in E (x4 epochs: x6.4 operations, <= 16). The vectorized oracle used by "
       "OASiS's policy (`simulate(inst, 'oasis')`) does the same DP in numpy (the decision-time entry times it).", _check_theorem3),
    _c("oasis2018.theorem4.ratio_outside_premise", "Section IV-D, Theorem 4; Appendix E",
       "OASiS is 2 alpha-competitive, alpha = max_r(1, ln U1^r / L1, ln U2^r / L2).", "OPT / OASiS <= 2 alpha",
       V.OUTSIDE_PREMISE, "Consequence of the Theorem 1 failure: the job can finish in slot 2 (utility 10) but Alg. 2 "
       "only finds slot 3 (utility 1e-3): OPT / OASiS = 1e4 > 2 alpha = 34. The chunk time m = 0.4 is outside the premise "
       "of Section IV-C. With the exact oracle (27) in Alg. 1 the ratio is 1 (the check reruns it).",
       lambda: _theorem4("oasis2018_theorem4_violation"), evidence=("oasis2018_theorem4_violation",)),
    _c("oasis2018.theorem4.ratio_in_premise", "Section IV-D, Theorem 4; Appendix E",
       "OASiS is 2 alpha-competitive (w << c and a chunk much shorter than a slot).", "OPT / OASiS <= 2 alpha",
       V.PAPER_ERROR, "The in-premise Theorem 1 instance with f = [10, 10, 10, 1e-3]: w = 1 of c = 100, m = 0.03 slot. "
       "OASiS with Alg. 2 completes the job in slot 4 (utility 1e-3), the certified offline optimum in slot 3 (utility "
       "10): OPT / OASiS = 1e4 > 2 alpha = 34.6. The proof's step 'mu_i = best payoff' uses Theorem 1; with the exact "
       "oracle (27) in Alg. 1 OASiS reaches the optimum (the check reruns it).",
       lambda: _theorem4("oasis2018_theorem4_in_premise"), evidence=("oasis2018_theorem4_in_premise",)),
    _c("oasis2018.fig5.ratio_range", "Section V-A, Fig. 5 (performance ratio)",
       "OPT / OASiS is around 1.1 to 1.5 (10 jobs, T = 10, varying servers and priorities).",
       "{:g}-{:g}".format(*paper.FIG5_RATIO_RANGE),
       V.REPRODUCED, "Certified offline optima of (1)-(13) (HiGHS) on the Fig. 5 instances of seeds 0-5 (20-60 servers, "
       "gamma1 ranges [1, 10] and [1, 100]): OPT / OASiS stays within [1, 1.5] (the claim's upper end holds); ours is "
       "lower than the paper's 1.1-1.5 (seeds 0-2: OASiS is optimal; 9 seeds: [1.00, 1.18]), since our Fig. 5 "
       "instances draw E_i in [5, 20] (with the paper's [50, 200] only ~2 of 10 jobs can finish by T = 10). The "
       "paper's '2 days' for the offline optimum takes seconds here.", _check_fig5_range, cost="slow"),
    _c("oasis2018.theorem4.fig5_instances", "Section IV-D, Theorem 4 on Fig. 5's instances",
       "OASiS is 2 alpha-competitive (the Fig. 5 instances).", "OPT / OASiS <= 2 alpha",
       V.REPRODUCED, "On the Fig. 5 instances (seeds 0-5) the certified ratio is far below 2 alpha (31-65): the "
       "Theorem 1 gap needs a deadline that the per-slot rounding misses by one chunk, which these instances do not "
       "hit.", _check_fig5_theorem4, cost="slow"),
    _c("oasis2018.section5.decision_time", "Section V-A, footnote 5 (Theorem 3)",
       "OASiS runs for less than 1 second to produce the best schedule of a job with 100 slots and 80 servers.",
       f"< {paper.DECISION_TIME_LIMIT:g} s",
       V.REPRODUCED, "One decision (prices (22) and Alg. 2) for the paper's largest job (N = 100, E = 200) arriving at "
       "slot 1 of T = 100 with 40 + 40 servers, best of 3 runs (timing: slow claim, machine-dependent).",
       _check_decision_time, cost="slow"),
    _c("oasis2018.section4b.log_ratio_size", "Section IV-B, eqs. (23)-(26) with Section V-A's utilities",
       "The price functions start low enough to admit many jobs and rise exponentially to filter out low-utility jobs.",
       "ln(U/L) not stated", V.PAPER_ERROR,
       "With the sigmoid utilities of Section V-A, f_i(T - a_i) of a time-critical job is ~exp(-1,600) at T = 300, so "
       "(25) gives ln L1 ~ -1,617 and ln(U/L) ~ 1,620: a price stays below U / 1e6 until a server is ~99% full and "
       "Theorem 4's bound 2 alpha ~ 3,200 is vacuous. L1 is 0 in double precision but not in long double; the "
       "prices are negligible either way (the Fig. 3 check runs both). This is the mechanism behind the Fig. 3 entries.",
       _check_log_ratio, sweep="oasis.log_ratio_cap"),
    _c("oasis2018.fig3.oasis_best_small", "Section V-A, Fig. 3 (total utility)",
       "OASiS performs the best, especially when resources are scarce.", "OASiS best of 5 schemes",
       V.DEPENDS_ON_READING, "With the literal bounds (25)-(26) OASiS loses to RRH on this Section V-A instance "
       "(20 jobs, T = 30, H = K = 8, seed 1): prices stay ~0 until a server is ~99% full, so OASiS reserves full-width "
       "schedules first-come and later jobs find no capacity. Long-double prices do not change that (it is not an "
       "underflow); capping ln(U/L) at 15 (a reading: Fig. 6 shows the authors feed estimated U/L to OASiS, and the "
       "values used for Fig. 3 are not stated) makes OASiS the best scheme. On 40 jobs, T = 60, H = K = 20, seeds 0-7, "
       "the cap makes OASiS best on 7 of 8, the literal bounds on 1 of 8 (sweep oasis.log_ratio_cap).", _check_fig3_small, sweep="oasis.log_ratio_cap"),
    _c("oasis2018.fig3.oasis_best_paper_scale", "Section V-A, Fig. 3 (total utility, T = 300, H = K = 50)",
       "OASiS performs the best, especially when the number of jobs is larger.", "OASiS best of 5 schemes",
       V.DEPENDS_ON_READING, "At the paper's scale (300 jobs, T = 300, H = K = 50, seeds 0-2) the literal bounds give "
       "ln(U/L) ~ 1,620 and OASiS is not the best scheme; with long-double prices neither; with ln(U/L) capped at 15 "
       "OASiS is best on all three seeds.", _check_fig3_paper, evidence=(), cost="slow", sweep="oasis.log_ratio_cap"),
    _c("oasis2018.fig3.oasis_best_bundled", "Section V-A, Fig. 3 (total utility, T = 100, H = K = 50)",
       "OASiS performs the best, especially when resources are scarce.", "OASiS best of 5 schemes",
       V.DEPENDS_ON_READING, "The bundled Section V-A instance (60 jobs, T = 100, H = K = 50): with the literal bounds "
       "(ln L1 = -490, ln(U/L) ~ 500) Dorm (~960) and DRF (911) beat OASiS (678), whose rejected jobs found no capacity "
       "left; long-double prices give the same 678; with ln(U/L) capped at 15 OASiS reaches 1089, the best.",
       _check_fig3_bundled, evidence=("oasis2018_drf_beats_oasis",), cost="slow", sweep="oasis.log_ratio_cap"),
]

CLAIMS.append(_c(
    "oasis2018.fig6.underestimate_better", "Section V-A, Fig. 6 (inaccurate U/L, T = 300)",
    "Underestimating U1/L1, U2/L2 leads to higher total utility than overestimating them when resources are scarce.",
    "underestimate > overestimate", V.DEPENDS_ON_READING,
    "Read as printed (U/L at a percentage of its value, `simulate(inst, 'oasis', options={'estimates': rho})`), an estimate at 50% or 200% multiplies "
    "every price by at most 2: with ln(U/L) in the hundreds (literal (25)) or capped at 15, no decision changes and the "
    "total utility is identical (0.25-4x on four instances tried). Read as a percentage of ln(U/L) (the exponent), "
    "the underestimate wins: on 20 jobs, T = 30, H = K = 8, seed 1, 51.9 at 50% vs 0.2 at 200% (prices then rise "
    "above every job's utility). The check runs both readings.", _check_fig6))

#: Stem a bundled testbed trace would have (job speeds measured on the paper's Kubernetes / MXNet cluster).
TESTBED_STEM = "oasis2018_testbed"


def _check_testbed() -> Outcome:
    inst = generate_instance(paper.TESTBED_JOBS, paper.TESTBED_SLOTS, 7, paper.TESTBED_SERVERS - 7, seed=0,
                             epochs_range=(4, 30))
    u = dg.scheme_utilities(inst, caps=(None,), baselines=("fifo", "drf", "rrh"))  # Dorm's MILPs: too slow here
    top = max(u.values())
    best = " = ".join(k for k, v in u.items() if v >= top - 1e-9)
    ours = f"simulated 12 jobs, T = 10, 7 + 2 servers: best {best} ({', '.join(f'{k} {v:.1f}' for k, v in u.items())})"
    if TESTBED_STEM in list_instances():
        return Outcome(ours, V.UNEXPLAINED, "a testbed trace is bundled: this entry must compare against it")
    return Outcome(ours, V.DATA_MISSING, f"no {TESTBED_STEM} bundled: the testbed's measured job speeds are not published")


CLAIMS.append(_c(
    "oasis2018.testbed.fig8_oasis_best", "Section V-B, Figs. 8-9 (testbed)",
    "On the 9-server Kubernetes / MXNet testbed (12 jobs, 10 slots of 20 min) the comparison results are similar to "
    "Figs. 3-4: OASiS achieves the highest total utility.", "OASiS best (Fig. 8)", V.DATA_MISSING,
    "The testbed numbers rest on measured training speeds of six ImageNet models on the authors' cluster, which are not "
    "published (nor the 12 jobs' parameters); a simulation of the same size with the Section V-A generator only gives a "
    "direction (printed as ours). The check returns data-missing while no testbed trace is bundled.", _check_testbed))

LEMMA2_STEM = "oasis2018_lemma2_contested"


def _lemma2_worst(inst: OasisInstance) -> tuple[int, int, float]:
    """(admitted jobs, jobs failing Lemma 2, max over admitted jobs of (Delta D / alpha) / Delta P)."""
    tr = dual_fitting_trace(inst)
    adm = [st for st in tr.steps if st.admitted]
    worst = max(((st.delta_dual / tr.alpha) / st.delta_primal for st in adm), default=0.0)
    return len(adm), sum(not st.holds for st in adm), float(worst)


def _check_lemma2() -> Outcome:
    base = OasisInstance.from_json(instance_path(LEMMA2_STEM))
    n, bad, worst = _lemma2_worst(base)
    big = dataclasses.replace(base, worker_capacity=base.worker_capacity * 100, ps_capacity=base.ps_capacity * 100)
    n100, bad100, worst100 = _lemma2_worst(big)
    detail = (f"{bad} of {n} admitted jobs fail it (worst (dD/alpha)/dP = {worst:.2f}); with every capacity x100 "
              f"(each allocation a small fraction of a server) {bad100} of {n100} fail (worst {worst100:.3f})")
    if bad == 0:
        return Outcome(f"holds for all {n} admitted jobs", V.REPRODUCED, detail)
    if bad100 == 0:
        return Outcome(f"fails for {bad} of {n} admitted jobs", V.OUTSIDE_PREMISE, detail)
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
    "every admitted job. The check runs both (notebooks/duality.ipynb, section 4, draws it).",
    _check_lemma2, evidence=(LEMMA2_STEM,)))

SWEEPS: dict[str, Sweep] = {
    "oasis.log_ratio_cap": Sweep(name="oasis.log_ratio_cap", func=dg.log_ratio_cap_sweep,
                                 description="total utility of OASiS against a cap on ln(U/L), with FIFO, DRF, RRH, Dorm",
                                 claims=("oasis2018.fig3.oasis_best_small", "oasis2018.fig3.oasis_best_paper_scale",
                                         "oasis2018.section4b.log_ratio_size")),
}
