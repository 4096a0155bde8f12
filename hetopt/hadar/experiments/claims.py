"""Claims of Sultana et al., Hadar / HadarE (paper key ``hadar2024``).

The worked example (Section II-A), the theorems, the trace simulation (Section IV) and the
physical-cluster mixes (Sections V-VI).

Each check reruns its experiment (:mod:`hetopt.hadar.experiments.runs`) and decides the verdict
from it against the paper's printed numbers (:mod:`hetopt.hadar.experiments.paper`); the Gavel baseline
is always run through :func:`hetopt.hadar.simulate`, so its claims follow the Gavel implementation.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ...claims.ledger import Claim, Conformance, Flip, Outcome, Sweep, Verdict, close_to
from ...errors import SolverError
from ...result import Solution
from . import paper
from . import runs as ex

__all__ = ["CLAIMS", "SWEEPS", "CONFORMANCE"]

V = Verdict
PAPER = "hadar"
#: Relative tolerance of a ratio (speedup, gain) to count as reproduced.
RTOL = 0.10
#: Absolute tolerance of a utilization fraction.
ATOL = 0.03


def _c(id_: str, location: str, statement: str, paper_value: str, verdict: Verdict, diagnosis: str,
       check: Any, **kw: Any) -> Claim:
    """A claim of this paper (id prefixed with ``hadar2024.``)."""
    return Claim(id=f"hadar2024.{id_}", paper=PAPER, location=location, statement=statement, paper_value=paper_value,
                 verdict=verdict, diagnosis=diagnosis, check=check, **kw)


# ---------------------------------------------------------------- Section II-A, the motivating example
def _gavel_rounds(restart_delay: float = 0.0) -> Outcome:
    m = ex.motivating_runs(restart_delay)
    k = m["rounds"]["gavel"]
    return Outcome(k, V.REPRODUCED if k == paper.MOTIVATING_GAVEL_ROUNDS else V.UNEXPLAINED,
                   f"Gavel finishes in {k} rounds of 360 s (restart delay {restart_delay:g} s)")


def _hadar_rounds(speed_factor: float = 1.0) -> Outcome:
    m = ex.motivating_runs(0.0, speed_factor)
    k, best = m["rounds"]["hadar"], m["min_rounds"]
    detail = (f"speeds x{speed_factor:g}: Hadar {k} rounds, HadarE {m['rounds']['hadare']}; exact fewest rounds of any "
              f"schedule under (1e): {best}")
    if k == paper.MOTIVATING_HADAR_ROUNDS:
        return Outcome(k, V.REPRODUCED, detail)
    return Outcome(k, V.PAPER_ERROR if best > paper.MOTIVATING_HADAR_ROUNDS else V.UNEXPLAINED, detail)


def _round1_full(gang: bool = True) -> Outcome:
    inst = ex.motivating_runs()["inst"]
    fr = ex.gang_busy_fractions(inst.gpus.tolist(), int(inst.capacity.sum()), gang=gang)
    top = max(fr)
    detail = (f"busy fractions a round of jobs needing (3, 2, 2) GPUs can reach on 6 GPUs"
              f"{'' if gang else ' with (1e) dropped'}: {[round(f, 3) for f in fr]}")
    if top >= paper.MOTIVATING_HADAR_ROUND1_CRU - ATOL:
        return Outcome(top, V.REPRODUCED, detail)
    return Outcome(top, V.PAPER_ERROR, detail)


def _gavel_round1(tiebreaks: tuple[str, ...] = ex.ROUND1_TIEBREAKS) -> Outcome:
    target = paper.MOTIVATING_GAVEL_ROUND1_CRU
    busy = {t: ex.gavel_round1_busy(t) for t in tiebreaks}
    readings = {t: V.REPRODUCED if close_to(b, target, atol=1e-9) else V.UNEXPLAINED for t, b in busy.items()}
    detail = "Gavel's round-1 busy fraction by tie-break: " + ", ".join(f"{t} {b:.3f}" for t, b in busy.items())
    ours = round(busy[tiebreaks[0]], 3)
    if len(set(readings.values())) > 1:
        return Outcome(ours, V.DEPENDS_ON_READING, detail, readings=readings)
    return Outcome(ours, next(iter(readings.values())), detail, readings=readings)


def _gavel_cru(solvers: tuple[str, ...] = ("ecos", "highs")) -> Outcome:
    u = {sv: ex.motivating_runs(0.0, 1.0, sv)["runs"]["gavel"].utilization for sv in solvers}
    readings = {sv: V.REPRODUCED if close_to(x, paper.MOTIVATING_GAVEL_PROCESS_CRU, atol=ATOL) else V.UNEXPLAINED
                for sv, x in u.items()}
    detail = ("busy GPU-seconds over 6 GPUs x TTD under Gavel, by the solver of its LP: "
              + ", ".join(f"{sv} {x:.3f}" for sv, x in u.items()))
    ours = round(u[solvers[0]], 3)
    if len(set(readings.values())) > 1:
        return Outcome(ours, V.DEPENDS_ON_READING, detail, readings=readings)
    return Outcome(ours, next(iter(readings.values())), detail, readings=readings)


def _hadar_cru(gang: bool = True) -> Outcome:
    m = ex.motivating_runs()
    u = m["runs"]["hadar"].utilization
    inst = m["inst"]
    top = max(ex.gang_busy_fractions(inst.gpus.tolist(), int(inst.capacity.sum()), gang=gang))
    detail = (f"Hadar's busy fraction {u:.3f}; no {'gang-feasible' if gang else '(1e)-free'} round keeps more than "
              f"{top:.3f} of the GPUs busy, so no such schedule's process CRU exceeds it")
    target = paper.MOTIVATING_HADAR_PROCESS_CRU
    if close_to(u, target, atol=ATOL):
        return Outcome(u, V.REPRODUCED, detail)
    return Outcome(u, V.PAPER_ERROR if top < target - ATOL else V.UNEXPLAINED, detail)


def _utility(criterion: str = "utility") -> Outcome:
    m = ex.motivating_runs()
    h, g = m["runs"]["hadar"], m["runs"]["gavel"]
    if criterion == "utility":
        a, b = h.total_utility, g.total_utility
    else:  # the makespan, higher is better as -TTD
        a, b = -h.total_duration, -g.total_duration
    return Outcome(round(abs(a / b), 3), V.REPRODUCED if a > b else V.UNEXPLAINED,
                   f"{criterion}: Hadar {a:.4g}, Gavel {b:.4g} (sum of effective throughputs is P1's objective)")


MOTIVATING = [
    _c("sec2a.gavel_rounds", "Section II-A, Fig. 1(a)", "Gavel completes the three jobs in six rounds.", "6",
       V.REPRODUCED, "The instance is rebuilt from the text (J1 3 GPUs/80 epochs, J2 2/30, J3 2/50; OCR speed digits "
       "that agree with Gavel's first round).  Gavel (max-min fairness, a job on one GPU type) needs six rounds of "
       "360 s in our run, as in the paper, which charges no restart delay in the example.  With Section IV's 10 s "
       "restart delay Gavel's moves between GPU types cost it two more rounds (8).", _gavel_rounds,
       evidence=("hadar2024_motivating",),
       flip=Flip("Section IV's 10 s restart delay charged in the example", V.UNEXPLAINED,
                 lambda: _gavel_rounds(10.0))),
    _c("sec2a.hadar_one_round_fewer", "Section II-A, Fig. 1(b)", "Hadar shortens the total training time by one "
       "round (five rounds against Gavel's six).", "5 rounds", V.PAPER_ERROR,
       "An exact breadth-first search over every schedule in which each job runs one gang of W_j GPUs per round "
       "(P1's constraint (1e), any mix of types at the bottleneck rate) finds no schedule shorter than six rounds: "
       "J3 (2 GPUs, 50 epochs) gains at most 10 epochs per round (the only K80 must pair with a V100 or a P100), so "
       "it alone needs five full rounds, and J1 and J2 cannot fit around it.  Fig. 1(b) gives J1 and J3 'all GPUs', "
       "i.e. it breaks the gang constraint.  Our Hadar takes 8 rounds (it maximizes utility, not the makespan).  "
       "The speeds are reconstructed from OCR digits, which agree with Gavel's first round; the flip scales them by "
       "1.25 and the exact search then finds a five-round schedule, so the verdict rests on the search.",
       _hadar_rounds, evidence=("hadar2024_motivating",),
       flip=Flip("every reconstructed speed x1.25 (a perturbation of the OCR digits)", V.UNEXPLAINED,
                 lambda: _hadar_rounds(1.25))),
    _c("sec2a.hadar_round1_cru", "Section II-A", "Hadar's CRU in the first round approaches 100%.", "~100%",
       V.PAPER_ERROR, "Gangs of 3, 2 and 2 GPUs on 6 GPUs can fill 0, 2, 3, 4 or 5 GPUs in a round (subset sums), "
       "never 6: at most 83% under the paper's own gang constraint (1e), whatever the speeds.  With (1e) dropped "
       "(a job on any number of GPUs, as Fig. 1(b) draws it) a full round exists.", _round1_full,
       evidence=("hadar2024_motivating",),
       flip=Flip("gang constraint (1e) dropped: a job may take any number of GPUs", V.REPRODUCED,
                 lambda: _round1_full(gang=False))),
    _c("sec2a.gavel_round1_cru", "Section II-A", "Gavel's CRU in the first round is 83% (J1 on 3 P100, J2 on 2 "
       "V100).", "83%", V.DEPENDS_ON_READING, "In round 1 no job has received a share, so which jobs run first is "
       "a tie-break the papers do not fix.  Both are run: Gavel's own sort (priority X * 1e9 at zero share, then "
       "deficit, then allocation; the default) keeps 4 of 6 GPUs busy (J2 on P100, J3 on V100) and runs the paper's "
       "round later; the tie broken by job order (J1, J2, J3 each on its largest LP fraction with room) gives the "
       "paper's round, J1 on 3 P100 and J2 on 2 V100, 5/6 busy.", _gavel_round1,
       evidence=("hadar2024_motivating",),
       flip=Flip("round-1 ties broken by job order only", V.REPRODUCED, lambda: _gavel_round1(("index",)))),
    _c("sec2a.gavel_process_cru", "Section II-A", "Gavel's CRU over the entire process is about 78%.", "~78%",
       V.DEPENDS_ON_READING, "Busy GPU-seconds over 6 GPUs times Gavel's TTD on the rebuilt instance, no restart "
       "delay.  The max-min fairness LP has several optima here; ECOS (Gavel's solver, an interior point, the "
       "default) returns a central one and the process CRU is 0.722, outside 0.03 of the paper's; HiGHS returns a "
       "vertex and the CRU is 0.759, within.  Both are run.", _gavel_cru, evidence=("hadar2024_motivating",),
       flip=Flip("the LP solved by HiGHS only (a vertex optimum)", V.REPRODUCED, lambda: _gavel_cru(("highs",)))),
    _c("sec2a.hadar_process_cru", "Section II-A", "Hadar's CRU over the entire process is some 87%.", "~87%",
       V.PAPER_ERROR, "No round of gangs (3, 2, 2) keeps more than 5 of 6 GPUs busy, so no gang-feasible schedule "
       "reaches 87% over the process (at most 83.3%); the paper's 87% comes from Fig. 1(b)'s task-level allocation "
       "that breaks (1e).  Our Hadar reaches about 50% (it runs the jobs longer on their fastest GPUs).  With (1e) "
       "dropped the bound no longer excludes 87% and the gap to our 50% is left unexplained.", _hadar_cru,
       evidence=("hadar2024_motivating",),
       flip=Flip("gang constraint (1e) dropped in the bound", V.UNEXPLAINED, lambda: _hadar_cru(gang=False))),
    _c("sec2a.hadar_higher_utility", "Section II-A (and P1's objective (1))", "Hadar's heterogeneity-aware "
       "allocation beats Gavel's on the example (measured by P1's objective: the sum of effective throughputs).",
       "Hadar > Gavel", V.REPRODUCED, "Hadar maximizes total utility and gets a larger sum of effective throughputs "
       "than Gavel although it finishes later (8 rounds against 6): the paper's objective and its makespan "
       "comparison are different criteria; compared on the TTD (the flip), Gavel wins.", _utility,
       evidence=("hadar2024_motivating",),
       flip=Flip("compared on the TTD instead of P1's objective", V.UNEXPLAINED, lambda: _utility("ttd"))),
]


# ---------------------------------------------------------------- Section III: P1/P2 and the theorems
def _objective(sol: Solution) -> float:
    """The objective of a solve that must have one (a SolverError otherwise)."""
    if sol.objective is None:
        raise SolverError(f"{sol.solver} returned no objective ({sol.status.value}: {sol.message})")
    return sol.objective


def _p1_p2(readings: tuple[str, ...] = ("printed", "equality")) -> Outcome:
    from ...data import load_json
    from .. import HadarInstance, enumerate_schedules, solve_exact, solve_p2

    inst = HadarInstance.from_json(load_json("hadar2024_p2_relaxes_p1"))
    p1 = _objective(solve_exact(inst))
    S = [enumerate_schedules(inst, j) for j in range(inst.n_jobs)]
    val = {r: _objective(solve_p2(inst, S, require_all=(r == "equality"))[0]) for r in readings}
    # (2b) is printed as sum_s y_js <= 1: under that reading a mismatch is the paper's statement failing
    verdicts = {r: V.REPRODUCED if close_to(v, p1, rtol=1e-6) else (V.PAPER_ERROR if r == "printed" else V.UNEXPLAINED)
                for r, v in val.items()}
    detail = f"P1 {p1:.4g}; " + "; ".join(f"P2 with (2b) {'<= 1 (printed)' if r == 'printed' else '= 1'} {v:.4g}"
                                          for r, v in val.items())
    ours = round(val[readings[0]] / p1, 3)
    if len(set(verdicts.values())) > 1:
        return Outcome(ours, V.DEPENDS_ON_READING, detail, readings=verdicts)
    return Outcome(ours, next(iter(verdicts.values())), detail, readings=verdicts)


def _thm2_exact(greedy: bool = False) -> Outcome:
    from ...data import load_json
    from .. import HadarInstance, small_instance, validate_ratio

    insts = [small_instance(seed=s) for s in range(4)]
    if greedy:
        insts.append(HadarInstance.from_json(load_json("hadar2024_theorem2_greedy_violation")))
    certs = [validate_ratio(i, options={"beam_width": 1 if greedy else None}) for i in insts]
    limits = [float(c.limit) if c.limit is not None else float("nan") for c in certs]
    worst = max(c.ratio / lim for c, lim in zip(certs, limits, strict=True))
    ok = all(c.proven and c.holds for c in certs)
    detail = (f"OPT/Hadar ({'greedy pass' if greedy else 'exact DP'}) on {len(certs)} certified instances: "
              f"{[round(c.ratio, 3) for c in certs]}, 2 alpha {[round(lim, 1) for lim in limits]} "
              f"(largest ratio/bound {worst:.3f})")
    if ok:
        return Outcome(round(max(c.ratio for c in certs), 4), V.REPRODUCED, detail)
    return Outcome(round(max(c.ratio for c in certs), 4), V.OUTSIDE_PREMISE if greedy else V.UNEXPLAINED, detail)


def _thm2_greedy() -> Outcome:
    from ...data import load_json
    from .. import HadarInstance, validate_ratio

    inst = HadarInstance.from_json(load_json("hadar2024_theorem2_greedy_violation"))
    exact, greedy = validate_ratio(inst, options={"beam_width": None}), validate_ratio(inst, options={"beam_width": 1})
    detail = (f"OPT/Hadar {greedy.ratio:.3g} with the greedy pass, {exact.ratio:.3g} with the exact DP; "
              f"2 alpha = {exact.limit:.3g}")
    ok = (not greedy.holds) and exact.holds and exact.proven
    return Outcome(round(greedy.ratio, 3), V.REPRODUCED if ok else V.UNEXPLAINED, detail)


def _thm1(beam_width: int | None = None) -> Outcome:
    from ...data import load_json
    from .. import HadarInstance, dp_allocation

    inst = HadarInstance.from_json(load_json("hadar2024_theorem1_dp_states"))
    q = np.arange(inst.n_jobs)
    states = [dp_allocation(inst, q[:k], inst.total_iterations.astype(float), 0.0, beam_width=beam_width).max_states
              for k in range(1, inst.n_jobs + 1)]
    HR, total = inst.n_machines * inst.n_types, inst.n_jobs * inst.n_machines * inst.n_types
    detail = (f"largest number of server states held by the {'exact DP' if beam_width is None else f'DP with beam {beam_width}'}"
              f" after 1..{inst.n_jobs} jobs: {states}; the proof counts H*R = {HR} per job, n(Q)HR = {total} in all")
    if max(states) <= HR:
        return Outcome(max(states), V.REPRODUCED, detail)
    growing = all(b >= a for a, b in zip(states, states[1:], strict=False)) and states[-1] > 2 * states[len(states) // 2]
    return Outcome(max(states), V.PAPER_ERROR if growing else V.UNEXPLAINED, detail)


THEOREMS = [
    _c("thm1.dp_polynomial", "Theorem 1 and its proof", "DP_allocation (Algorithm 2) decides a round in polynomial "
       "time: n(Q)HR combinations of (job, server state), O(n(Q)(HR)^2 + R H log H).", "O(n(Q)(HR)^2 + RH log H)",
       V.PAPER_ERROR, "The DP's state is the current server state, i.e. the matrix of free GPUs, and the proof counts "
       "it as one of H*R values.  The number of distinct free-GPU matrices reachable by admitting or skipping each "
       "queued job grows with the queue (up to prod_hr (c^r_h + 1), exponential in the machines): on the bundled "
       "instance (12 jobs, 5 machines of 4 GPUs) the exact DP holds 217 states after the last job against the 5 per "
       "job the proof counts.  Only the greedy pass (beam width 1, the flip) stays within the proof's count, and it "
       "loses Theorem 2 (thm2.ratio_exact_dp's flip).", _thm1,
       evidence=("hadar2024_theorem1_dp_states",),
       flip=Flip("the DP keeps one state (greedy pass, beam width 1)", V.REPRODUCED, lambda: _thm1(1))),
    _c("sec3.p1_equals_p2", "Section III-B, P2 (2)-(2c)", "P1 and P2 are equivalent.", "P1 = P2",
       V.DEPENDS_ON_READING, "(2b) as printed (sum_s y_js <= 1, the paper's reading, run first) lets P2 reject a "
       "job, while P1's (1a) makes every job complete: on the bundled instance (a blocking long job and an urgent "
       "one) P2 earns about 20x P1, so the printed statement fails.  With (2b) as an equality (every job admitted "
       "with one schedule) the two optima coincide, here and on every tested instance.  Both readings are run.",
       _p1_p2, evidence=("hadar2024_p2_relaxes_p1",),
       flip=Flip("(2b) read as an equality only", V.REPRODUCED, lambda: _p1_p2(("equality",)))),
    _c("thm2.ratio_exact_dp", "Theorem 2", "Hadar is 2 alpha-competitive, alpha = max_r(1, ln(U^r_max / U^r_min)).",
       "OPT / Hadar <= 2 alpha", V.REPRODUCED, "With the exact DP of Algorithm 2 (the simulator's default on small "
       "clusters) the certified optimum of P1 is within 1.04x of Hadar's utility on the validation instances, far "
       "below 2 alpha (14 to 164): the bound holds and is loose (`hetopt validate hadar --n 20`).  The theorem "
       "assumes the exact DP over server states: with the greedy pass (beam width 1, what a round over hundreds of "
       "jobs can afford) on the same instances plus the bundled hadar2024_theorem2_greedy_violation (a long "
       "low-value job admitted first, an urgent one left behind) OPT/Hadar = 51.5 > 2 alpha = 13.8.", _thm2_exact,
       evidence=("hadar2024_theorem2_greedy_violation",),
       flip=Flip("the greedy pass (beam width 1) instead of the exact DP, greedy-violation instance added",
                 V.OUTSIDE_PREMISE, lambda: _thm2_exact(greedy=True))),
]

def _prices(workloads: tuple[str, ...] = ("physical", "validation")) -> Outcome:
    readings, parts = {}, []
    total = {}
    for w in workloads:
        eff = ex.prices_bind(w)
        changed = sum(c for c, _ in eff.values())
        rounds = sum(n for _, n in eff.values())
        total[w] = changed
        name = ("Section VI mixes, one GPU per node (the default)" if w == "physical"
                else "Theorem 2's validation instances, several GPUs per machine")
        readings[name] = V.REPRODUCED if changed > 0 else V.OUTSIDE_PREMISE
        parts.append(f"{w}: the prices change Hadar's allocation in {changed} of {rounds} rounds")
    kinds = set(readings.values())
    ours = total[workloads[0]]
    detail = "; ".join(parts) + " (against Hadar with every price 1e-12 U_min)"
    if len(kinds) > 1:
        return Outcome(ours, V.DEPENDS_ON_WORKLOAD, detail, readings=readings)
    return Outcome(ours, kinds.pop(), detail, readings=readings)


THEOREMS.append(_c(
    "sec3.prices_filter_jobs", "Section III-C, eqs. (5)-(7)", "The price rises exponentially with the accelerators "
    "allocated, so as to filter out low-utility jobs (a job with a low utility or no resources gets a non-positive "
    "payoff).", "prices filter jobs", V.DEPENDS_ON_WORKLOAD,
    "Hadar is run with the prices of eq. (5) and with every price switched off (1e-12 U_min, the communication cost "
    "kept), and the allocations of every round compared.  On the Section VI mixes (one GPU per node, both clusters) "
    "the prices never change a decision: eq. (5) is evaluated at gamma = 0 on a node that is still free, i.e. at "
    "U_min, negligible against any utility, and a full node is simply not offered, so Hadar there is a queue-order "
    "greedy on the fastest free nodes (the premise of a price that rises with the allocation needs several GPUs per "
    "machine).  On Theorem 2's validation instances (several GPUs per machine) the prices do change rounds.  This "
    "is the 'prices never bind' of the physical and trace diagnoses, now measured.", _prices,
    flip=Flip("the Section VI mixes only", V.OUTSIDE_PREMISE, lambda: _prices(("physical",)))))

CONFORMANCE = [
    Conformance(id="hadar2024.thm2.greedy_violation", paper=PAPER,
                statement="hetopt's greedy pass of the DP (beam width 1) exceeds 2 alpha on the bundled instance "
                          "hadar2024_theorem2_greedy_violation while the exact DP meets the bound there (a property of "
                          "hetopt's implementation, not a claim of the paper; it is thm2.ratio_exact_dp's flip).",
                check=_thm2_greedy, reference="hetopt.hadar.dp_allocation, exact vs beam_width=1"),
]


# ---------------------------------------------------------------- Sections V-VI: physical clusters
CLUSTER_NAMES = ("aws", "testbed")

PHYS_MECH = ("Mechanism (`hetopt sweep hadar.restart_delay`, every candidate measured in `hetopt sweep "
             "hadar.physical_mechanism`): Gavel's max-min fairness time-shares the fast GPUs, so it moves or preempts "
             "a running job in 86% of its rounds (AWS, seven mixes) and each move pays the checkpoint-restart delay; "
             "Hadar (40% of its rounds), whose prices never bind on "
             "one-GPU nodes (sec3.prices_filter_jobs), keeps its jobs where they are.  With Section IV's 10 s delay "
             "(the only value the paper prints, the default reading) Hadar is slower and less utilised than Gavel on "
             "every multi-job mix (TTD 0.90x, CRU 0.86-0.88x, M-5 0.89-0.91x); the physical clusters' restart "
             "overhead (model reload, the Job Tracker's messages, PCIe 3.0 hosts) is not printed, and as it grows "
             "Hadar's advantage appears: 1.0x at about 60 s, the paper's TTD gain at 120-150 s, its CRU gain at 180 s. "
             " The other candidates do not move it: 90 s rounds 0.98x, longest-first queue 0.92x, greedy DP 0.87x, "
             "prices off 0.90x (identical schedules).  No single delay gives every printed number: the JCT gain "
             "matches only at 10 s (1.17x / 1.13x) and reaches 1.5x at 120 s.  eq. (10) speeds (rank 1) on both "
             "clusters; Gavel's measured speeds (rank 3) are shown in the detail.")


def _phys_value(key: str, cluster: str, delay: float, speeds: str = "eq10") -> Any:
    return ex.physical_summary(cluster, speeds, delay)[key]


def _physical_grid(key: str, printed: tuple[float, float], delays: tuple[float, ...] = ex.PHYS_DELAYS) -> Any:
    """The claim at each restart delay (both clusters within RTOL: reproduced), readings by delay."""

    def check() -> Outcome:
        readings, parts = {}, []
        for d in delays:
            vals = [_phys_value(key, cl, d) for cl in CLUSTER_NAMES]
            ok = all(close_to(v, p, rtol=RTOL) for v, p in zip(vals, printed, strict=True))
            name = f"restart {d:g} s" + (" (Section IV's, the default)" if d == 10.0 else "")
            readings[name] = V.REPRODUCED if ok else V.UNEXPLAINED
            parts.append(f"{d:g} s: " + " / ".join(f"{v:.3f}" for v in vals))
        gav = " / ".join(f"{_phys_value(key, cl, 10.0, 'gavel'):.3f}" for cl in CLUSTER_NAMES)
        detail = ("aws / testbed, eq. (10) speeds, by restart delay: " + "; ".join(parts)
                  + f" | Gavel's measured speeds at 10 s: {gav}")
        ours = round(_phys_value(key, "aws", delays[0]), 3)
        kinds = set(readings.values())
        if len(kinds) > 1:
            return Outcome(ours, V.DEPENDS_ON_WORKLOAD, detail, readings=readings)
        return Outcome(ours, kinds.pop(), detail, readings=readings)

    return check


def _every_mix(delays: tuple[float, ...] = ex.PHYS_DELAYS) -> Outcome:
    readings, parts = {}, []
    for d in delays:
        ok = all(_phys_value("hadar_faster_every_mix", cl, d) for cl in CLUSTER_NAMES)
        readings[f"restart {d:g} s" + (" (Section IV's, the default)" if d == 10.0 else "")] = \
            V.REPRODUCED if ok else V.UNEXPLAINED
        per = ex.physical_summary("aws", "eq10", d)["mixes"]
        parts.append(f"{d:g} s: {ok} (aws Gavel/Hadar " + " ".join(
            f"{m}:{v['ttd']['gavel'] / v['ttd']['hadar']:.2f}" for m, v in per.items()) + ")")
    detail = ("Hadar's TTD below Gavel's on every mix with several jobs (M-1, one job, ties by construction), both "
              "clusters: " + "; ".join(parts))
    ours = all(_phys_value("hadar_faster_every_mix", cl, delays[0]) for cl in CLUSTER_NAMES)
    kinds = set(readings.values())
    if len(kinds) > 1:
        return Outcome(ours, V.DEPENDS_ON_WORKLOAD, detail, readings=readings)
    return Outcome(ours, kinds.pop(), detail, readings=readings)


def _hadare(key: str, printed: tuple[float, float], copies: int | None = None) -> Any:
    """A HadarE claim at Section IV's 10 s delay (eq. (10) speeds, both clusters).

    Reproduced within RTOL, else data-missing when the proxy points the paper's way (ratio above 1 on both clusters), fails-unexplained otherwise.
    """

    def check() -> Outcome:
        vals = [ex.physical_summary(cl, "eq10", 10.0, copies)[key] for cl in CLUSTER_NAMES]
        gav = [ex.physical_summary(cl, "gavel", 10.0, copies)[key] for cl in CLUSTER_NAMES]
        detail = (f"{'HadarE with ' + str(copies) + ' copy per job; ' if copies else ''}aws / testbed eq. (10) "
                  f"{vals[0]:.3f} / {vals[1]:.3f}; Gavel's speeds {gav[0]:.3f} / {gav[1]:.3f}")
        ours = round(vals[0], 3)
        if all(close_to(v, p, rtol=RTOL) for v, p in zip(vals, printed, strict=True)):
            return Outcome(ours, V.REPRODUCED, detail)
        agrees = all(v > 1.0 for v in vals + gav)
        return Outcome(ours, V.DATA_MISSING, detail, proxy_agrees=agrees)

    return check


def _forking_order(copies: int | None = None) -> Outcome:
    ok = {(cl, sp): ex.physical_summary(cl, sp, 10.0, copies)["forking_cru_order"] for cl in CLUSTER_NAMES
          for sp in ("eq10", "gavel")}
    return Outcome(all(ok.values()), V.REPRODUCED if all(ok.values()) else V.UNEXPLAINED,
                   f"{'HadarE with ' + str(copies) + ' copy per job: ' if copies else ''}HadarE CRU >= Hadar CRU on "
                   "every mix: " + ", ".join(f"{k[0]}/{k[1]} {v}" for k, v in ok.items()))


def _thm3(delay: float = 10.0) -> Outcome:
    configs = [(c, s) for c in CLUSTER_NAMES for s in ("eq10", "gavel")]

    def maximal(delay: float) -> list[str]:
        bad = []
        for c, s in configs:
            for name, cru in ex.forking_copies(c, s, delay).items():
                if cru[-1] < max(cru) - 1e-9:
                    bad.append(f"{c}/{s}/{name}: n copies {cru[-1]:.4f} < {max(cru):.4f} with {1 + cru.index(max(cru))}")
        return bad

    with_delay, without = maximal(delay), maximal(0.0)
    detail = (f"with a {delay:g} s restart delay: " + ("; ".join(with_delay) or "n copies maximal everywhere")
              + " | without: " + ("; ".join(without) or "n copies maximal everywhere"))
    if not with_delay:
        return Outcome(True, V.REPRODUCED, detail)
    return Outcome(False, V.OUTSIDE_PREMISE if not without else V.UNEXPLAINED, detail)


HADARE_DIAG = ("The paper's measured node speeds and job lengths are not published; the proxy (eq. (10) speeds, "
               "every job 20 minutes on its fastest GPU, Section IV's 10 s restart delay, both clusters; Gavel's "
               "measured speeds in the detail) points the paper's way, by a smaller factor.  HadarE's gain comes from "
               "forking: with one copy per job (the flip) it vanishes and the proxy turns against the paper.  "
               "`hetopt sweep hadar.physical_speeds`.")
ONE_COPY = "HadarE's forking off (one copy per job)"


def _hadare_claim(id_: str, location: str, statement: str, pv: str, key: str, printed: tuple[float, float],
                  direction: str, **kw: Any) -> Claim:
    return _c(id_, location, statement, pv, V.DATA_MISSING, HADARE_DIAG, _hadare(key, printed),
              direction=direction, sweep="hadar.physical_speeds",
              flip=Flip(ONE_COPY, V.UNEXPLAINED, _hadare(key, printed, copies=1)), **kw)


def _phys_claim(id_: str, location: str, statement: str, pv: str, key: str, printed: tuple[float, float],
                at: float, **kw: Any) -> Claim:
    return _c(id_, location, statement, pv, V.DEPENDS_ON_WORKLOAD, PHYS_MECH, _physical_grid(key, printed),
              sweep="hadar.restart_delay",
              flip=Flip(f"restart delay {at:g} s only", V.REPRODUCED, _physical_grid(key, printed, (at,))), **kw)


PHYSICAL = [
    _phys_claim("sec6.ttd_speedup_hadar", "Section VI-C, Fig. 9; abstract", "Hadar's mean TTD speedup over Gavel "
                "across the seven mixes is 1.17x (AWS) / 1.16x (testbed).", "1.17x / 1.16x", "speedup_hadar",
                paper.TTD_SPEEDUP_HADAR, 120.0, evidence=("hadar2024_m5_aws",)),
    _hadare_claim("sec6.ttd_speedup_hadare", "Section VI-C, Fig. 9", "HadarE's mean TTD speedup over Gavel is 2.12x.",
                  "2.12x", "speedup_hadare", paper.TTD_SPEEDUP_HADARE, "HadarE's TTD is shorter than Gavel's"),
    _hadare_claim("sec6.ttd_speedup_hadare_vs_hadar", "Section VI-C", "HadarE's mean TTD speedup over Hadar is 1.79x.",
                  "1.79x", "speedup_hadare_vs_hadar", paper.TTD_SPEEDUP_HADARE_VS_HADAR,
                  "HadarE's TTD is shorter than Hadar's"),
    _phys_claim("sec6.cru_gain_hadar", "Section VI-C, Fig. 8; abstract", "Hadar's CRU gain over Gavel is 1.20x "
                "(AWS) / 1.21x (testbed).", "1.20x / 1.21x", "cru_hadar", paper.CRU_GAIN_HADAR, 180.0),
    _c("sec6.cru_gain_hadare", "Section VI-C, Fig. 8", "HadarE's CRU gain over Gavel is 1.56x (AWS) / 1.62x "
       "(testbed).", "1.56x / 1.62x", V.REPRODUCED, "Within 10% on both clusters (eq. (10) speeds, 10 s delay): "
       "HadarE's CRU gain comes from forking, whose copies fill the nodes Gavel leaves idle once fewer jobs than "
       "nodes remain, not from heterogeneity, so it survives the rank-1 speed matrix (and Gavel's measured speeds "
       "give about the same gain).  With one copy per job (the flip) the gain falls to about 0.85x.",
       _hadare("cru_hadare", paper.CRU_GAIN_HADARE), sweep="hadar.physical_speeds",
       flip=Flip(ONE_COPY, V.UNEXPLAINED, _hadare("cru_hadare", paper.CRU_GAIN_HADARE, copies=1))),
    _c("sec6.hadar_faster_every_mix", "Section VI-C, Fig. 9", "Hadar has a smaller TTD than Gavel under every "
       "workload mix on both clusters.", "every mix", V.DEPENDS_ON_WORKLOAD, PHYS_MECH + "  Per mix: at 10 s Gavel "
       "is faster on all six multi-job mixes; from 120 s Hadar is faster on every one (M-1, a single job on the "
       "fastest GPU under both, ties).", _every_mix, sweep="hadar.restart_delay",
       flip=Flip("restart delay 120 s only", V.REPRODUCED, lambda: _every_mix((120.0,)))),
    _phys_claim("sec6.m5_speedup_hadar", "Section VI-C, Fig. 9", "On mix M-5, Gavel takes about 4200 s (3300 s) and "
                "Hadar 3900 s (2800 s) on the AWS (testbed) cluster: a 1.18x (1.15x) speedup.", "1.18x / 1.15x",
                "m5_speedup_hadar", paper.M5_SPEEDUP_HADAR, 150.0, evidence=("hadar2024_m5_aws",)),
    _c("sec6.jct_hadar", "Section VI-C, Fig. 10", "Hadar's mean JCT is 1.17x (AWS) / 1.23x (testbed) shorter than "
       "Gavel's across the seven mixes.", "1.17x / 1.23x", V.DEPENDS_ON_WORKLOAD, "Reproduced at Section IV's 10 s "
       "delay only, and not through heterogeneity (rank-1 speeds): Hadar runs the queue's jobs to completion on "
       "their fastest free nodes while Gavel's max-min fairness time-shares every job, which delays most "
       "completions (run-to-completion against processor sharing).  At the restart delays where Hadar's TTD and "
       "CRU gains appear (120-180 s) the JCT gain grows to 1.5-1.8x, beyond the paper's: no single overhead gives "
       "both, so the 10 s match is a coincidence of the setting.  " + PHYS_MECH,
       _physical_grid("jct_hadar", paper.JCT_GAIN_HADAR), sweep="hadar.restart_delay",
       flip=Flip("restart delay 10 s only", V.REPRODUCED, _physical_grid("jct_hadar", paper.JCT_GAIN_HADAR, (10.0,)))),
    _hadare_claim("abstract.hadare_cru_vs_hadar", "Abstract / Section I", "HadarE raises the CRU over Hadar by 30% "
                  "(AWS) / 34% (testbed).", "1.30x / 1.34x", "cru_hadare_vs_hadar", paper.CRU_GAIN_HADARE_VS_HADAR,
                  "HadarE's CRU is higher than Hadar's"),
    _hadare_claim("abstract.hadare_jct_vs_hadar", "Abstract / Section I", "HadarE improves the mean JCT over Hadar by "
                  "90% (AWS) / 124% (testbed).", "1.90x / 2.24x", "jct_hadare_vs_hadar", paper.JCT_GAIN_HADARE_VS_HADAR,
                  "HadarE's mean JCT is shorter than Hadar's"),
    _c("sec5.forking_raises_cru", "Section V-B, eqs. (11)-(14)", "Forking every job into copies (HadarE) gives a CRU "
       "at least that of no forking (Hadar), the maximum with n copies.", "CRU(HadarE) >= CRU(Hadar)",
       V.REPRODUCED, "On every mix, both clusters and both speed sources, HadarE's CRU is at least Hadar's: copies "
       "fill nodes that Hadar leaves idle when fewer jobs than nodes remain (the mechanism of (11)-(14)).  With one "
       "copy per job (the flip) HadarE falls below Hadar on some mixes.",
       _forking_order, sweep="hadar.physical_speeds",
       flip=Flip(ONE_COPY, V.UNEXPLAINED, lambda: _forking_order(1))),
    _c("thm3.n_copies_maximal_cru", "Theorem 3, Section V-C", "HadarE achieves the maximal CRU of an n-node "
       "cluster by forking every job into n copies.", "n copies maximal", V.OUTSIDE_PREMISE,
       "The proof counts busy node-time per round with no overhead.  In the simulation with the 10 s "
       "checkpoint-restart delay of Section IV, more copies mean more copies that start on a new node and pay the "
       "delay: on mix M-5 (AWS, Gavel's speeds) 2 copies per job give a CRU of 0.840 against 0.829 with 5.  With "
       "the restart delay set to 0 (the theorem's premise, the flip) n copies are maximal on every mix, cluster and "
       "speed source.  `hetopt sweep hadar.forking_copies`.", _thm3, sweep="hadar.forking_copies",
       flip=Flip("restart delay 0 s (the proof's premise)", V.REPRODUCED, lambda: _thm3(0.0))),
]


def _m5_jct(speeds: str = "eq10") -> Outcome:
    grid = {d: [ex.physical_summary(cl, speeds, d)["m5_jct_hadar"] for cl in CLUSTER_NAMES] for d in ex.PHYS_DELAYS}
    detail = (f"M-5 Gavel/Hadar mean JCT, aws / testbed, {speeds} speeds, by restart delay: "
              + "; ".join(f"{d:g} s: {v[0]:.3f} / {v[1]:.3f}" for d, v in grid.items()))
    at10 = grid[10.0]
    if all(close_to(v, p, rtol=RTOL) for v, p in zip(at10, paper.M5_JCT_GAIN_HADAR, strict=True)):
        return Outcome(round(at10[0], 3), V.REPRODUCED, detail)
    agrees = all(v > 1.0 for vals in grid.values() for v in vals)
    return Outcome(round(at10[0], 3), V.DATA_MISSING, detail, proxy_agrees=agrees)



def _gap_insensitive(delays: tuple[float, ...] = ex.PHYS_DELAYS) -> Outcome:
    readings, parts = {}, []
    for d in delays:
        ok = True
        for cl in CLUSTER_NAMES:
            g = ex.physical_summary(cl, "eq10", d)["gap_per_mix"]
            mean = float(np.mean(list(g.values())))
            ok &= all(close_to(v, mean, rtol=RTOL) for v in g.values())
            if cl == "aws":
                parts.append(f"{d:g} s: aws " + " ".join(f"{m}:{v:.2f}" for m, v in g.items()) + f" (mean {mean:.2f})")
        readings[f"restart {d:g} s" + (" (Section IV's, the default)" if d == 10.0 else "")] = \
            V.REPRODUCED if ok else V.UNEXPLAINED
    detail = "Gavel/Hadar TTD per multi-job mix, every one within 10% of the mean on both clusters: " + "; ".join(parts)
    kinds = set(readings.values())
    ours = next(iter(readings.values())).value
    if len(kinds) > 1:
        return Outcome(ours, V.DEPENDS_ON_WORKLOAD, detail, readings=readings)
    return Outcome(ours, kinds.pop(), detail, readings=readings)


PHYSICAL += [
    _hadare_claim("sec6.jct_hadare_vs_gavel", "Section VI-C, Fig. 10", "HadarE reduces the mean JCT against Gavel "
                  "by 2.23x (AWS) / 2.76x (testbed).", "2.23x / 2.76x", "jct_hadare", paper.JCT_GAIN_HADARE,
                  "HadarE's mean JCT is shorter than Gavel's"),
    _c("sec6.m5_jct_hadar", "Section VI-C, Fig. 10", "On mix M-5 Hadar's JCT is 1.23x (AWS) / 1.43x (testbed) "
       "smaller than Gavel's.", "1.23x / 1.43x", V.DATA_MISSING, "Hadar's M-5 JCT is shorter than Gavel's at every "
       "restart delay run (eq. (10) speeds: 1.16x / 1.10x at 10 s, 1.35x / 1.28x at 90 s, 1.44x / 1.42x at 120 s): "
       "the paper's direction.  Its two numbers need a different overhead per cluster (about 90 s on AWS, 120 s on "
       "the testbed, whose PCIe 3.0 hosts the paper says suffer a larger overhead), which the paper does not print: "
       "data-missing.  With Gavel's measured speeds (the flip) Hadar's M-5 JCT is no longer shorter (1.00x / 0.94x): "
       "the direction rests on the speed source.", _m5_jct, direction="Hadar's M-5 JCT is shorter than Gavel's",
       sweep="hadar.restart_delay", flip=Flip("Gavel's measured speeds instead of eq. (10)", V.UNEXPLAINED,
                                              lambda: _m5_jct("gavel"))),
    _c("sec6.gap_insensitive_to_mix", "Section VI-C, Fig. 9", "The performance gaps between Hadar and Gavel change "
       "insignificantly across the workload mixes.", "gap about constant", V.DEPENDS_ON_WORKLOAD,
       "Read as: every multi-job mix's Gavel/Hadar TTD ratio within 10% of the mean ratio, on both clusters, run "
       "at each restart delay.  " + PHYS_MECH, _gap_insensitive, sweep="hadar.restart_delay",
       flip=Flip("restart delay 120 s only", V.REPRODUCED, lambda: _gap_insensitive((120.0,)))),
]



# ---------------------------------------------------------------- Section VI-C: HadarE's JCT range
def _range_vs_gavel(readings_run: tuple[str, ...] = ex.GAVEL_POLICY_READINGS) -> Outcome:
    verdicts: dict[str, Verdict] = {}
    parts = []
    for reading in readings_run:
        narrower = [(cl, m) for cl in ("aws", "testbed") for m, r in ex.jct_ranges(cl, reading).items()
                    if r["hadare"] < r["gavel"]]
        total = sum(len(ex.jct_ranges(cl, reading)) for cl in ("aws", "testbed"))
        verdicts[reading] = V.REPRODUCED if len(narrower) == total else V.UNEXPLAINED
        parts.append(f"Gavel {reading}: HadarE's range narrower on {len(narrower)} of {total} multi-job mixes")
    vs_hadar = [(cl, m) for cl in ("aws", "testbed") for m, r in ex.jct_ranges(cl, readings_run[0]).items()
                if r["hadare"] >= r["hadar"]]
    detail = "; ".join(parts) + (f"; not narrower than Hadar's on {', '.join(f'{c} {m}' for c, m in vs_hadar)}"
                                 if vs_hadar else "; narrower than Hadar's on every mix")
    ours = ", ".join(f"{k}: {v.value}" for k, v in verdicts.items())
    if len(set(verdicts.values())) > 1:
        return Outcome(ours, V.DEPENDS_ON_READING, detail, readings=verdicts)
    return Outcome(ours, next(iter(verdicts.values())), detail, readings=verdicts)


RANGE = [
    _c("sec6.hadare_jct_range_narrowest", "Section VI-C, Fig. 10", "The JCT range of every workload mix (with more "
       "than one model) is more confined under HadarE than under Gavel (and Hadar as well), on both clusters.",
       "narrower on every multi-job mix", V.DEPENDS_ON_READING,
       "The paper does not name the Gavel policy it ran.  Under Gavel's max-min fairness (hetopt's default, Gavel's "
       "headline policy) Gavel's range is the narrowest on every mix (AWS M-12: 2048 s against HadarE's 6651 s at "
       "10 s restart delay): max-min fairness equalizes the jobs' normalized progress, so they finish close "
       "together, while Hadar and HadarE run jobs nearly to completion one after the other.  Under Gavel's FIFO "
       "(the same round mechanism, jobs in arrival order) HadarE's range is narrower than Gavel's on every "
       "multi-job mix of both clusters: the reading of Gavel's policy moves the verdict.  The parenthesis (narrower "
       "than Hadar's too) fails on the large AWS mixes under either reading (M-8 to M-12: HadarE's copies spread "
       "the last jobs' completions): reported in the detail.", _range_vs_gavel, sweep="hadar.jct_range",
       flip=Flip("Gavel's FIFO only (the reading under which the claim holds against Gavel)", V.REPRODUCED,
                 lambda: _range_vs_gavel(("fifo",)))),
]

# ---------------------------------------------------------------- Section IV: the trace-driven simulation
TRACE_DIAG = ("The trace's per-job GPU-hours are not in the paper.  Two class readings are run on 480 jobs and the "
              "paper's 60 GPUs: classes sampled uniformly (the generator's, `trace_workload`) and classes taken from "
              "each job's own GPU-hours on the bundled Philly-derived trace (Gavel's msr/ed69ec, "
              "`experiments.philly_workload`).  At the printed GPU-hours neither can finish in 40 h (makespan LP "
              "bound 342 h and 591 h), so the ratios are measured on a light version (GPU-hours x0.1, bound 34 h "
              "and 59 h), at Section IV's 10 s restart delay and at 120 s, Hadar's queue in index order (the "
              "paper's Q).  The restart delay is the mechanism, as on the physical mixes "
              "(`hetopt sweep hadar.restart_delay`): Gavel's max-min fairness moves jobs every round and pays the "
              "delay each time; Hadar, whose prices never bind, keeps its jobs in place.  At 10 s Gavel is faster "
              "under both readings (0.82x uniform, 0.92x Philly); at 120 s Hadar is 1.05x (uniform) and 1.21x "
              "(Philly) faster than Gavel, the paper's 1.21x under the Philly reading: the class reading and the "
              "delay together move the verdict.")

TRACE_GRID = tuple((r, d) for r in ex.CLASS_READINGS for d in (10.0, 120.0))


#: A point of a trace claim's grid: (class reading, restart delay, Hadar's queue order, baseline's type order).
TracePoint = tuple[str, float, str, str]


def _trace_name(pt: TracePoint) -> str:
    reading, delay, queue, types = pt
    name = f"{reading} classes, restart {delay:g} s, Hadar queue {queue}"
    if types != "fastest":
        name += f", baseline types {types} first"
    return name + (" (the default)" if pt == ("uniform", 10.0, "index", "fastest") else "")


def _grid(readings: tuple[str, ...] = ex.CLASS_READINGS, delays: tuple[float, ...] = (10.0, 120.0),
          queues: tuple[str, ...] = ("index",), types: tuple[str, ...] = ("fastest",)) -> tuple[TracePoint, ...]:
    return tuple(itertools.product(readings, delays, queues, types))


def _trace_ratio(other: str, what: str, grid: tuple[TracePoint, ...], direction: bool = False) -> Any:
    """The ratio at every grid point of a trace claim.

    Reproduced within RTOL; otherwise, with ``direction``, data-missing when it points the paper's way (above 1) and fails-unexplained when not.
    """
    printed = (paper.TRACE_TTD_SPEEDUP if what == "ttd" else paper.TRACE_MEDIAN_SPEEDUP)[other]

    def val(run: Any) -> float:
        return run.total_duration if what == "ttd" else float(np.median(run.completion))

    def check() -> Outcome:
        readings, parts = {}, []
        first = None
        for pt in grid:
            reading, d, queue, types = pt
            h = ex.trace_case_run(reading, "hadar", queue, d)
            o = ex.trace_case_run(reading, other, "index", d, types)
            r = val(o) / val(h)
            first = r if first is None else first
            if close_to(r, printed, rtol=RTOL):
                v = V.REPRODUCED
            else:
                v = V.DATA_MISSING if (direction and r > 1.0) else V.UNEXPLAINED
            readings[_trace_name(pt)] = v
            parts.append(f"{reading}/{d:g} s/{queue}{'' if types == 'fastest' else '/' + types}: {r:.3f} "
                         f"({other} {val(o) / 3600:.1f} h, hadar {val(h) / 3600:.1f} h)")
        detail = f"{what} {other} / hadar on the light 480-job trace: " + "; ".join(parts)
        kinds = set(readings.values())
        ours = round(float(first), 3) if first is not None else None
        if len(kinds) > 1:
            verdict = V.DEPENDS_ON_READING if len({q for _, _, q, _ in grid} | {t for *_, t in grid}) > 2 \
                else V.DEPENDS_ON_WORKLOAD
            return Outcome(ours, verdict, detail, readings=readings)
        k = kinds.pop()
        return Outcome(ours, k, detail, readings=readings, proxy_agrees=True if k is V.DATA_MISSING else None)

    return check


def _ttd_40h(orders: tuple[str, ...] = ("printed", "index", "longest_first")) -> Outcome:
    readings, parts = {}, []
    ours = None
    for o in orders:
        if o == "printed":
            bounds = {r: ex.trace_case_bound(r, False).hours for r in ex.CLASS_READINGS}
            v = min(bounds.values())
            ok = v <= paper.TRACE_TTD_HOURS * (1 + RTOL)
            readings["printed GPU-hours, both class readings (the default)"] = V.REPRODUCED if ok else V.UNEXPLAINED
            parts.append("printed GPU-hours: makespan LP bound " + ", ".join(f"{r} {b:.1f} h" for r, b in bounds.items()))
        else:
            v = ex.trace_case_run("uniform", "hadar", o).total_duration / 3600
            ok = close_to(v, paper.TRACE_TTD_HOURS, rtol=RTOL)
            readings[f"GPU-hours x{ex.LIGHT_HOURS:g}, queue {o}"] = V.REPRODUCED if ok else V.UNEXPLAINED
            parts.append(f"GPU-hours x{ex.LIGHT_HOURS:g} (bound {ex.trace_case_bound('uniform').hours:.1f} h), queue "
                         f"{o}: Hadar {v:.1f} h")
        ours = round(v, 1) if ours is None else ours
    detail = "; ".join(parts)
    kinds = set(readings.values())
    if len(kinds) > 1:
        return Outcome(ours, V.DEPENDS_ON_WORKLOAD, detail, readings=readings)
    return Outcome(ours, kinds.pop(), detail, readings=readings)


def _gru(which: str, gru_readings: tuple[str, ...] = ("cluster", "per_job")) -> Outcome:
    runs = {p: ex.trace_case_run("uniform", p) for p in ("gavel", "hadar", "tiresias", "yarn_cs")}
    readings, parts = {}, []
    for g in gru_readings:
        d = {p: (s.utilization if g == "cluster" else s.job_utilization) for p, s in runs.items()}
        ok = (d["yarn_cs"] >= max(d.values()) - 1e-9 if which == "yarn"
              else d["hadar"] > max(d["gavel"], d["tiresias"]))
        readings[g + (" (cluster-wide, the default)" if g == "cluster" else " (per job)")] = \
            V.REPRODUCED if ok else V.UNEXPLAINED
        parts.append(f"{g} GRU " + ", ".join(f"{p} {v:.3f}" for p, v in d.items()))
    key = "yarn_cs" if which == "yarn" else "hadar"
    ours = round(runs[key].utilization if gru_readings[0] == "cluster" else runs[key].job_utilization, 3)
    kinds = set(readings.values())
    detail = "light uniform trace, 10 s: " + "; ".join(parts)
    if len(kinds) > 1:
        return Outcome(ours, V.DEPENDS_ON_READING, detail, readings=readings)
    return Outcome(ours, kinds.pop(), detail, readings=readings)


def _trace_claim(id_: str, statement: str, pv: str, other: str, what: str, grid: tuple[TracePoint, ...],
                 at: TracePoint, verdict: Verdict = V.DEPENDS_ON_WORKLOAD, flip_verdict: Verdict = V.REPRODUCED,
                 diagnosis: str = TRACE_DIAG, direction: str = "", **kw: Any) -> Claim:
    return _c(id_, "Section IV-B, Fig. 4", statement, pv, verdict, diagnosis,
              _trace_ratio(other, what, grid, bool(direction)), cost="slow", sweep="hadar.restart_delay",
              flip=Flip(f"{_trace_name(at)} only", flip_verdict, _trace_ratio(other, what, (at,), bool(direction))),
              direction=direction, **kw)


TIRESIAS_DIAG = (TRACE_DIAG + "  Against Tiresias the delay does not help (Tiresias preempts rarely and pays it "
                 "too: 0.90-0.98x).  Tiresias is heterogeneity-unaware and takes GPU types in a fixed order the paper "
                 "does not give; ours tries the fastest first (V100, P100, K80), the luckiest order.  Taking the "
                 "slowest first (a second reading, run) puts Tiresias's jobs on K80s while V100s are free, and Hadar's "
                 "advantage appears: 1.44x (uniform, 120 s, the paper's 1.35x within 10%), 1.59x (uniform, 10 s), "
                 "1.10-1.14x (Philly).")
MEDIAN_DIAG = (TRACE_DIAG + "  The median is set by the order of Hadar's queue among the jobs that arrive together, "
               "which the paper does not fix (its prices never bind, so the DP admits jobs in queue order): in index "
               "order (the default) Hadar's median is 0.67-1.0x the baseline's (against the paper), shortest first "
               "2.3-2.9x (the paper's direction, beyond its number; the trace's per-job GPU-hours that would fix it "
               "are not published: data-missing for that reading).  Both orders are run under both class readings.")


TRACE = [
    _c("sec4.ttd_40h", "Section IV-B, Fig. 4", "Hadar completes the 480 trace jobs in 40 hours.", "40 h",
       V.DEPENDS_ON_WORKLOAD, "At the printed class GPU-hours no scheduler can finish 480 jobs on 60 GPUs in 40 h: "
       "the fluid LP lower bound on the makespan (`makespan_lower_bound`) is 342 h with classes sampled uniformly "
       "and 591 h with classes from the Philly-derived trace's GPU-hours, so the paper's trace must be about ten "
       "times lighter.  On the light version (GPU-hours x0.1, bound 34 h) Hadar's TTD depends on the order of its "
       "queue among jobs that arrive together, which the paper does not fix (its prices never bind, so the DP "
       "admits jobs in queue order): 44.8 h in index order, 38.0 h longest first (within 10% of 40 h).  "
       "`hetopt sweep hadar.queue_order`.", _ttd_40h, sweep="hadar.queue_order",
       flip=Flip("GPU-hours x0.1, queue longest first only", V.REPRODUCED, lambda: _ttd_40h(("longest_first",)))),
    _trace_claim("sec4.ttd_speedup_gavel", "Hadar's TTD is 1.21x shorter than Gavel's.", "1.21x", "gavel", "ttd",
                 _grid(), ("philly", 120.0, "index", "fastest")),
    _trace_claim("sec4.ttd_speedup_tiresias", "Hadar's TTD is 1.35x shorter than Tiresias's.", "1.35x", "tiresias",
                 "ttd", _grid(types=("fastest", "slowest")), ("uniform", 120.0, "index", "slowest"),
                 verdict=V.DEPENDS_ON_READING, diagnosis=TIRESIAS_DIAG),
    _trace_claim("sec4.ttd_speedup_yarn_cs", "Hadar's TTD is 1.67x shorter than YARN-CS's (68 h).", "1.67x",
                 "yarn_cs", "ttd", _grid(), ("philly", 10.0, "index", "fastest")),
    _trace_claim("sec4.median_speedup_gavel", "The time to complete 50% of the jobs is 1.20x shorter under Hadar "
                 "than under Gavel.", "1.20x", "gavel", "median", _grid(delays=(10.0,), queues=("index", "shortest_first")),
                 ("uniform", 10.0, "shortest_first", "fastest"), verdict=V.DEPENDS_ON_READING,
                 flip_verdict=V.DATA_MISSING, diagnosis=MEDIAN_DIAG,
                 direction="Half of the jobs finish sooner under Hadar than under Gavel"),
    _trace_claim("sec4.median_speedup_tiresias", "The time to complete 50% of the jobs is 1.40x shorter under Hadar "
                 "than under Tiresias.", "1.40x", "tiresias", "median",
                 _grid(delays=(10.0,), queues=("index", "shortest_first")),
                 ("uniform", 10.0, "shortest_first", "fastest"), verdict=V.DEPENDS_ON_READING,
                 flip_verdict=V.DATA_MISSING, diagnosis=MEDIAN_DIAG,
                 direction="Half of the jobs finish sooner under Hadar than under Tiresias"),
    _c("sec4.gru_yarn_highest", "Section IV-B, Fig. 3", "YARN-CS has the highest GRU (non-preemptive), Hadar a "
       "similar one, Gavel and Tiresias lower.", "YARN-CS highest", V.DEPENDS_ON_READING,
       "GRU is 'the percentage of the total job run-time during which GPUs are utilized'.  Both readings are run on "
       "the light trace.  Read cluster-wide (busy GPU-seconds over all GPUs times TTD, the default) YARN-CS has the "
       "lowest GRU: its FIFO head-of-line blocking leaves GPUs idle and stretches the TTD.  Read per job (the "
       "fraction of a job's run, from its first start to its completion, in which it computes), a non-preemptive "
       "job is never paused, so YARN-CS is highest, which is the paper's explanation.",
       lambda: _gru("yarn"), cost="slow",
       flip=Flip("the per-job reading only", V.REPRODUCED, lambda: _gru("yarn", ("per_job",)))),
    _c("sec4.gru_hadar_above_gavel", "Section IV-B, Fig. 3", "Hadar's GRU is higher than Gavel's and Tiresias's "
       "(fewer GPUs left unused).", "Hadar > Gavel, Tiresias", V.DEPENDS_ON_READING,
       "Cluster-wide (the default), Gavel keeps more GPU-seconds busy than Hadar on the light trace (0.95 against "
       "0.80): its LP spreads every job over rounds, while Hadar, whose prices do not bind, runs the queue head "
       "first and leaves a long tail.  Per job, Hadar keeps a job running once started (0.96) while Gavel "
       "time-shares every job across rounds (0.38) and Tiresias preempts by attained service (0.56): the paper's "
       "ordering holds in the per-job reading.  Both readings are run.", lambda: _gru("hadar"), cost="slow",
       flip=Flip("the per-job reading only", V.REPRODUCED, lambda: _gru("hadar", ("per_job",)))),
]

def _rounds_changed(queues: tuple[str, ...] = ("index", "longest_first")) -> Outcome:
    readings, parts = {}, []
    first = None
    for queue in queues:
        c, n = ex.rounds_changed("hadar", "uniform", queue)
        frac = c / n
        first = frac if first is None else first
        if close_to(frac, paper.ROUNDS_CHANGED_FRACTION, atol=0.05):
            v = V.REPRODUCED
        else:
            v = V.DATA_MISSING if frac < 0.5 else V.UNEXPLAINED
        readings[f"queue {queue}" + (" (the default)" if queue == "index" else "")] = v
        parts.append(f"queue {queue}: {c} of {n} rounds ({frac:.2f})")
    g, gn = ex.rounds_changed("gavel", "uniform")
    detail = ("rounds in which Hadar changes the allocation of a job that ran in the previous round (light uniform "
              "trace, 10 s): " + "; ".join(parts) + f"; Gavel: {g} of {gn} ({g / gn:.2f})")
    kinds = set(readings.values())
    if len(kinds) > 1:
        return Outcome(round(float(first), 3) if first is not None else None, V.DEPENDS_ON_READING, detail,
                       readings=readings)
    k = kinds.pop()
    return Outcome(round(float(first), 3) if first is not None else None, k, detail, readings=readings,
                   proxy_agrees=True if k is V.DATA_MISSING else None)


def _exact_round(inst: Any) -> None:
    from .. import dp_allocation, price_parameters

    dp_allocation(inst, np.arange(inst.n_jobs), inst.total_iterations.astype(float), 0.0,
                  params=price_parameters(inst), beam_width=None, work_conserving=True)


def _scalability(exact: bool = False, budget: float = 5.0) -> Outcome:
    import multiprocessing
    import time

    from .. import dp_allocation, price_parameters, trace_workload

    inst = trace_workload(2048, seed=1, n_machines=64)
    states = float(np.prod(inst.capacity.astype(float) + 1.0))
    if exact:
        # the exact DP of Theorem 1 on the same round, in a child process stopped after ``budget`` seconds
        proc = multiprocessing.get_context("fork").Process(target=_exact_round, args=(inst,), daemon=True)
        t0 = time.perf_counter()
        proc.start()
        proc.join(budget)
        done = not proc.is_alive()
        if not done:
            proc.terminate()
            proc.join()
        dt = time.perf_counter() - t0
        return Outcome(round(dt, 2), V.REPRODUCED if done and dt < paper.SCALABILITY_SECONDS else V.UNEXPLAINED,
                       f"exact DP over 2048 jobs on 64 machines x 4 GPUs (up to {states:.2g} free-GPU matrices): "
                       f"{'finished' if done else 'unfinished'} after {dt:.1f} s (budget {budget:g} s)")
    t0 = time.perf_counter()
    res = dp_allocation(inst, np.arange(inst.n_jobs), inst.total_iterations.astype(float), 0.0,
                        params=price_parameters(inst), beam_width=1, work_conserving=True)
    dt = time.perf_counter() - t0
    return Outcome(round(dt, 2), V.REPRODUCED if dt < paper.SCALABILITY_SECONDS else V.UNEXPLAINED,
                   f"one round over 2048 jobs on 64 machines x 4 GPUs, greedy pass: {dt:.2f} s, {len(res.allocations)} "
                   f"jobs placed (the exact DP's state space has up to {states:.2g} free-GPU matrices)")


TRACE.append(_c(
    "sec4.scalability_2048_jobs", "Section IV-B, Fig. 5", "With about 2000 jobs Hadar schedules a round in less than "
    "7 minutes.", "< 7 min per round", V.REPRODUCED, "One round over 2048 queued jobs on 64 machines of 4 GPUs takes "
    "well under a second with the greedy pass of the DP (beam width 1, what the simulator runs on clusters this "
    "large).  The exact DP would not finish (its state space is the set of free-GPU matrices, see "
    "thm1.dp_polynomial; the flip runs it for 5 s and it is still unfinished), so the paper's timing must come from "
    "a pass of this kind.", _scalability,
    flip=Flip("the exact DP of Algorithm 2 instead of the greedy pass (5 s budget)", V.UNEXPLAINED,
              lambda: _scalability(exact=True))))

TRACE.append(_c(
    "sec4.rounds_change_30pct", "Section IV-B", "Only 30% of scheduling rounds require changes to job resource "
    "allocations on average (Hadar allocates newly incoming jobs without changing running jobs unless preempted).",
    "30%", V.DEPENDS_ON_READING, "Counted on the light uniform trace (480 jobs, 10 s delay): a round changes "
    "allocations when a job that ran in the previous round and is still active is preempted or moved.  Hadar "
    "recomputes the DP over the whole queue every round, so the count follows the order of its queue, which the "
    "paper does not fix: in index order (the default) 63% of rounds change a running job (against the paper's "
    "'only 30%'; Gavel changes one in every round), longest first 41% (a minority, the paper's direction; the "
    "number rests on the unpublished trace: data-missing for that reading).  Both are run.", _rounds_changed,
    cost="slow", direction="A minority of Hadar's rounds change a running job's allocation",
    flip=Flip("queue longest first only", V.DATA_MISSING, lambda: _rounds_changed(("longest_first",)))))

CLAIMS: list[Claim] = MOTIVATING + THEOREMS + PHYSICAL + RANGE + TRACE

SWEEPS = {
    "hadar.queue_order": Sweep(
        name="hadar.queue_order", func=ex.queue_order_table,
        description="Hadar's TTD on the trace against its queue order, with Gavel and the makespan LP bound",
        claims=tuple(c.id for c in TRACE if c.sweep == "hadar.queue_order")),
    "hadar.forking_copies": Sweep(
        name="hadar.forking_copies", func=ex.forking_copies_table,
        description="HadarE's CRU against copies per job, with and without the restart delay (Theorem 3)",
        claims=("hadar2024.thm3.n_copies_maximal_cru",)),
    "hadar.restart_delay": Sweep(
        name="hadar.restart_delay", func=ex.restart_delay_table,
        description="Section VI: Hadar against Gavel by restart delay; Hadar's advantage appears as the delay grows",
        claims=tuple(c.id for c in PHYSICAL if c.sweep == "hadar.restart_delay")),
    "hadar.physical_mechanism": Sweep(
        name="hadar.physical_mechanism", func=ex.physical_mechanism_table,
        description="Section VI: every candidate mechanism of Hadar slower than Gavel, measured",
        claims=tuple(c.id for c in PHYSICAL if c.sweep == "hadar.restart_delay")),
    "hadar.jct_range": Sweep(
        name="hadar.jct_range", func=ex.jct_range_table,
        description="Section VI-C: JCT range per mix under Gavel's max-min fairness and FIFO, Hadar and HadarE",
        claims=tuple(c.id for c in RANGE)),
    "hadar.physical_speeds": Sweep(
        name="hadar.physical_speeds", func=ex.physical_speeds_table,
        description="Section VI gains over Gavel with eq. (10) speeds (rank 1) and Gavel's measured speeds",
        claims=tuple(c.id for c in PHYSICAL)),
}
