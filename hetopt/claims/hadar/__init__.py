"""Claims of Sultana et al., Hadar / HadarE (paper key ``hadar2024``).

The worked example (Section II-A), the theorems, the trace simulation (Section IV) and the
physical-cluster mixes (Sections V-VI).

Each check reruns its experiment (:mod:`hetopt.claims.hadar.experiments`) and decides the verdict
from it against the paper's printed numbers (:mod:`hetopt.claims.hadar.paper`); the Gavel baseline
is always run through :func:`hetopt.hadar.simulate`, so its claims follow the Gavel implementation.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import SolverError
from ...result import Solution
from ..ledger import Claim, Outcome, Sweep, Verdict, close_to
from . import experiments as ex
from . import paper

__all__ = ["CLAIMS", "SWEEPS"]

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
def _gavel_rounds() -> Outcome:
    m = ex.motivating_runs()
    k = m["rounds"]["gavel"]
    return Outcome(k, V.REPRODUCED if k == paper.MOTIVATING_GAVEL_ROUNDS else V.UNEXPLAINED,
                   f"Gavel finishes in {k} rounds of 360 s")


def _hadar_rounds() -> Outcome:
    m = ex.motivating_runs()
    k, best = m["rounds"]["hadar"], m["min_rounds"]
    detail = f"Hadar {k} rounds, HadarE {m['rounds']['hadare']}; exact fewest rounds of any schedule under (1e): {best}"
    if k == paper.MOTIVATING_HADAR_ROUNDS:
        return Outcome(k, V.REPRODUCED, detail)
    return Outcome(k, V.PAPER_ERROR if best > paper.MOTIVATING_HADAR_ROUNDS else V.UNEXPLAINED, detail)


def _round1_full() -> Outcome:
    m = ex.motivating_runs()
    top = max(m["fractions"])
    detail = f"busy fractions a round of gangs (3, 2, 2) can reach on 6 GPUs: {[round(f, 3) for f in m['fractions']]}"
    if top >= paper.MOTIVATING_HADAR_ROUND1_CRU - ATOL:
        return Outcome(top, V.REPRODUCED, detail)
    return Outcome(top, V.PAPER_ERROR, detail)


def _gavel_round1() -> Outcome:
    m = ex.motivating_runs()
    b = m["busy"]["gavel"]
    detail = f"Gavel's GPUs busy per round: {[round(x, 3) for x in b]}"
    target = paper.MOTIVATING_GAVEL_ROUND1_CRU
    if close_to(b[0], target, atol=ATOL):
        return Outcome(b[0], V.REPRODUCED, detail)
    # the paper's first round (J1 on 3 P100, J2 on 2 V100: 5/6 busy) appears later in ours
    return Outcome(b[0], V.DEPENDS_ON_READING if any(close_to(x, target, atol=1e-9) for x in b[1:3])
                   else V.UNEXPLAINED, detail)


def _gavel_cru() -> Outcome:
    m = ex.motivating_runs()
    u = m["runs"]["gavel"].utilization
    return Outcome(u, V.REPRODUCED if close_to(u, paper.MOTIVATING_GAVEL_PROCESS_CRU, atol=ATOL) else V.UNEXPLAINED,
                   f"busy GPU-seconds over 6 GPUs x TTD under Gavel: {u:.3f}")


def _hadar_cru() -> Outcome:
    m = ex.motivating_runs()
    u = m["runs"]["hadar"].utilization
    top = max(m["fractions"])
    detail = f"Hadar's busy fraction {u:.3f}; no gang-feasible round keeps more than {top:.3f} of the GPUs busy"
    target = paper.MOTIVATING_HADAR_PROCESS_CRU
    if close_to(u, target, atol=ATOL):
        return Outcome(u, V.REPRODUCED, detail)
    return Outcome(u, V.PAPER_ERROR if top < target - ATOL else V.UNEXPLAINED, detail)


def _utility() -> Outcome:
    m = ex.motivating_runs()
    h, g = m["runs"]["hadar"].total_utility, m["runs"]["gavel"].total_utility
    return Outcome(round(h / g, 3), V.REPRODUCED if h > g else V.UNEXPLAINED,
                   f"sum of effective throughputs (P1's objective): Hadar {h:.4g}, Gavel {g:.4g}")


MOTIVATING = [
    _c("sec2a.gavel_rounds", "Section II-A, Fig. 1(a)", "Gavel completes the three jobs in six rounds.", "6",
       V.REPRODUCED, "The instance is rebuilt from the text (J1 3 GPUs/80 epochs, J2 2/30, J3 2/50; OCR speed digits "
       "that agree with Gavel's first round).  Gavel (max-min fairness, a job on one GPU type) needs six rounds of "
       "360 s in our run, as in the paper.", _gavel_rounds, evidence=("hadar2024_motivating",)),
    _c("sec2a.hadar_one_round_fewer", "Section II-A, Fig. 1(b)", "Hadar shortens the total training time by one "
       "round (five rounds against Gavel's six).", "5 rounds", V.PAPER_ERROR,
       "An exact breadth-first search over every schedule in which each job runs one gang of W_j GPUs per round "
       "(P1's constraint (1e), any mix of types at the bottleneck rate) finds no schedule shorter than six rounds: "
       "J3 (2 GPUs, 50 epochs) gains at most 10 epochs per round (the only K80 must pair with a V100 or a P100), so "
       "it alone needs five full rounds, and J1 and J2 cannot fit around it.  Fig. 1(b) gives J1 and J3 'all GPUs', "
       "i.e. it breaks the gang constraint.  Our Hadar takes 8 rounds (it maximizes utility, not the makespan).  "
       "The speeds are reconstructed from OCR digits, which agree with Gavel's first round.", _hadar_rounds,
       evidence=("hadar2024_motivating",)),
    _c("sec2a.hadar_round1_cru", "Section II-A", "Hadar's CRU in the first round approaches 100%.", "~100%",
       V.PAPER_ERROR, "Gangs of 3, 2 and 2 GPUs on 6 GPUs can fill 0, 2, 3, 4 or 5 GPUs in a round (subset sums), "
       "never 6: at most 83% under the paper's own gang constraint (1e), whatever the speeds.", _round1_full,
       evidence=("hadar2024_motivating",)),
    _c("sec2a.gavel_round1_cru", "Section II-A", "Gavel's CRU in the first round is 83% (J1 on 3 P100, J2 on 2 "
       "V100).", "83%", V.DEPENDS_ON_READING, "Our Gavel keeps 4 of 6 GPUs busy in round 1 (J2 on P100, J3 on V100) "
       "and runs the paper's first round (J1 on P100, J2 on V100, 5/6 busy) in round 2: in round 1 no job has "
       "received a round, so Gavel's priorities (allocation share over rounds received) tie and the order among "
       "equal priorities, which the papers do not fix, decides which round comes first.", _gavel_round1,
       evidence=("hadar2024_motivating",)),
    _c("sec2a.gavel_process_cru", "Section II-A", "Gavel's CRU over the entire process is about 78%.", "~78%",
       V.REPRODUCED, "Busy GPU-seconds over 6 GPUs times Gavel's TTD on the rebuilt instance, no restart delay; "
       "within 0.03 of the paper's.", _gavel_cru, evidence=("hadar2024_motivating",)),
    _c("sec2a.hadar_process_cru", "Section II-A", "Hadar's CRU over the entire process is some 87%.", "~87%",
       V.PAPER_ERROR, "No round of gangs (3, 2, 2) keeps more than 5 of 6 GPUs busy, so no gang-feasible schedule "
       "reaches 87% over the process (at most 83.3%); the paper's 87% comes from Fig. 1(b)'s task-level allocation "
       "that breaks (1e).  Our Hadar reaches about 50% (it runs the jobs longer on their fastest GPUs).", _hadar_cru,
       evidence=("hadar2024_motivating",)),
    _c("sec2a.hadar_higher_utility", "Section II-A (and P1's objective (1))", "Hadar's heterogeneity-aware "
       "allocation beats Gavel's on the example (measured by P1's objective: the sum of effective throughputs).",
       "Hadar > Gavel", V.REPRODUCED, "Hadar maximizes total utility and gets a larger sum of effective throughputs "
       "than Gavel although it finishes later (8 rounds against 6): the paper's objective and its makespan "
       "comparison are different criteria.", _utility, evidence=("hadar2024_motivating",)),
]


# ---------------------------------------------------------------- Section III: P1/P2 and the theorems
def _objective(sol: Solution) -> float:
    """The objective of a solve that must have one (a SolverError otherwise)."""
    if sol.objective is None:
        raise SolverError(f"{sol.solver} returned no objective ({sol.status.value}: {sol.message})")
    return sol.objective


def _p1_p2() -> Outcome:
    from ...data import load_json
    from ...hadar import HadarInstance, enumerate_schedules, solve_exact, solve_p2

    inst = HadarInstance.from_json(load_json("hadar2024_p2_relaxes_p1"))
    p1 = _objective(solve_exact(inst))
    S = [enumerate_schedules(inst, j) for j in range(inst.n_jobs)]
    le, eq = _objective(solve_p2(inst, S)[0]), _objective(solve_p2(inst, S, require_all=True)[0])
    detail = f"P1 {p1:.4g}; P2 with (2b) '<= 1' {le:.4g}; with '= 1' {eq:.4g}"
    if close_to(le, p1, rtol=1e-6):
        return Outcome(round(le / p1, 3), V.REPRODUCED, detail)
    return Outcome(round(le / p1, 3), V.DEPENDS_ON_READING if close_to(eq, p1, rtol=1e-6) else V.UNEXPLAINED, detail)


def _thm2_exact() -> Outcome:
    from ...hadar import small_instance, validate_ratio

    certs = [validate_ratio(small_instance(seed=s)) for s in range(4)]
    limits = [float(c.limit) if c.limit is not None else float("nan") for c in certs]
    worst = max(c.ratio / lim for c, lim in zip(certs, limits, strict=True))
    ok = all(c.proven and c.holds for c in certs)
    return Outcome(round(max(c.ratio for c in certs), 4), V.REPRODUCED if ok else V.UNEXPLAINED,
                   f"OPT/Hadar on 4 certified instances: {[round(c.ratio, 3) for c in certs]}, 2 alpha "
                   f"{[round(lim, 1) for lim in limits]} (largest ratio/bound {worst:.3f})")


def _thm2_greedy() -> Outcome:
    from ...data import load_json
    from ...hadar import HadarInstance, validate_ratio

    inst = HadarInstance.from_json(load_json("hadar2024_theorem2_greedy_violation"))
    exact, greedy = validate_ratio(inst, beam_width=None), validate_ratio(inst, beam_width=1)
    detail = (f"OPT/Hadar {greedy.ratio:.3g} with the greedy pass, {exact.ratio:.3g} with the exact DP; "
              f"2 alpha = {exact.limit:.3g}")
    if greedy.holds:
        return Outcome(round(greedy.ratio, 3), V.REPRODUCED, detail)
    return Outcome(round(greedy.ratio, 3), V.OUTSIDE_PREMISE if exact.holds and exact.proven else V.UNEXPLAINED,
                   detail)


def _thm1() -> Outcome:
    from ...data import load_json
    from ...hadar import HadarInstance, dp_allocation

    inst = HadarInstance.from_json(load_json("hadar2024_theorem1_dp_states"))
    q = np.arange(inst.n_jobs)
    states = [dp_allocation(inst, q[:k], inst.total_iterations.astype(float), 0.0, beam_width=None).max_states
              for k in range(1, inst.n_jobs + 1)]
    HR, total = inst.n_machines * inst.n_types, inst.n_jobs * inst.n_machines * inst.n_types
    detail = (f"largest number of server states held by the exact DP after 1..{inst.n_jobs} jobs: {states}; the proof "
              f"counts H*R = {HR} per job, n(Q)HR = {total} in all")
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
       "job the proof counts.  Only the greedy pass (beam width 1, the simulator's choice on large clusters) is "
       "polynomial, and it loses Theorem 2 (thm2.greedy_violation).", _thm1,
       evidence=("hadar2024_theorem1_dp_states",)),
    _c("sec3.p1_equals_p2", "Section III-B, P2 (2)-(2c)", "P1 and P2 are equivalent.", "P1 = P2",
       V.DEPENDS_ON_READING, "(2b) as printed (sum_s y_js <= 1) lets P2 reject a job, while P1's (1a) makes every job "
       "complete: on the bundled instance (a blocking long job and an urgent one) P2 earns about 20x P1.  With (2b) "
       "as an equality (every job admitted with one schedule) the two optima coincide, here and on every tested "
       "instance.", _p1_p2, evidence=("hadar2024_p2_relaxes_p1",)),
    _c("thm2.ratio_exact_dp", "Theorem 2", "Hadar is 2 alpha-competitive, alpha = max_r(1, ln(U^r_max / U^r_min)).",
       "OPT / Hadar <= 2 alpha", V.REPRODUCED, "With the exact DP of Algorithm 2 (the simulator's default on small "
       "clusters) the certified optimum of P1 is within 1.04x of Hadar's utility on the validation instances, far "
       "below 2 alpha (14 to 164): the bound holds and is loose (`hetopt validate hadar --n 20`).", _thm2_exact),
    _c("thm2.greedy_violation", "Theorem 2", "The 2 alpha bound holds for the scheduler run on large clusters.",
       "OPT / Hadar <= 2 alpha", V.OUTSIDE_PREMISE, "The theorem assumes the exact DP over server states; a round "
       "over hundreds of jobs can afford only the greedy pass (beam width 1), which admits a long low-value job "
       "first and leaves an urgent job behind it: OPT/Hadar = 51.5 > 2 alpha = 13.8 on the bundled instance, while "
       "the exact DP is optimal there.", _thm2_greedy, evidence=("hadar2024_theorem2_greedy_violation",)),
]


# ---------------------------------------------------------------- Sections V-VI: physical clusters
PHYS_DIAG = ("The paper's measured node speeds, job lengths and overheads are not published; hetopt's mixes use eq. "
             "(10) as the true speed, a product of a GPU factor and a model factor, so the throughput matrix has "
             "rank 1 (every job has the same relative speeds: nothing for a heterogeneity-aware scheduler to "
             "exploit).  With Gavel's measured throughputs on stand-in GPUs (speeds='gavel', rank 3) the number moves "
             "but does not reach the paper's.  Only directions compare.  `hetopt sweep hadar.physical_speeds`.")


def _physical(key: str, printed: tuple[float, float]) -> Any:
    aws, testbed = printed

    def check() -> Outcome:
        ours = {(cl, sp): ex.physical_summary(cl, sp)[key] for cl in ("aws", "testbed") for sp in ("eq10", "gavel")}
        detail = "; ".join(f"{cl}/{sp} {v:.3f}" for (cl, sp), v in ours.items())
        if close_to(ours[("aws", "eq10")], aws, rtol=RTOL) and close_to(ours[("testbed", "eq10")], testbed, rtol=RTOL):
            return Outcome(round(ours[("aws", "eq10")], 3), V.REPRODUCED, detail)
        rank1 = all(ex.physical_summary(cl, "eq10")["rank"] == 1 for cl in ("aws", "testbed"))
        hetero = all(ex.physical_summary(cl, "gavel")["rank"] > 1 for cl in ("aws", "testbed"))
        moves = any(abs(ours[(cl, "gavel")] - ours[(cl, "eq10")]) > 0.01 for cl in ("aws", "testbed"))
        return Outcome(round(ours[("aws", "eq10")], 3), V.DATA_MISSING if rank1 and hetero and moves else V.UNEXPLAINED,
                       detail)

    return check


def _forking_order() -> Outcome:
    ok = {(cl, sp): ex.physical_summary(cl, sp)["forking_cru_order"] for cl in ("aws", "testbed") for sp in ("eq10", "gavel")}
    return Outcome(all(ok.values()), V.REPRODUCED if all(ok.values()) else V.UNEXPLAINED,
                   "HadarE CRU >= Hadar CRU on every mix: " + ", ".join(f"{k[0]}/{k[1]} {v}" for k, v in ok.items()))


def _every_mix() -> Outcome:
    ok = {(cl, sp): ex.physical_summary(cl, sp)["hadar_faster_every_mix"] for cl in ("aws", "testbed") for sp in ("eq10", "gavel")}
    if ok[("aws", "eq10")] and ok[("testbed", "eq10")]:
        return Outcome(True, V.REPRODUCED, str(ok))
    rank1 = all(ex.physical_summary(cl, "eq10")["rank"] == 1 for cl in ("aws", "testbed"))
    return Outcome(False, V.DATA_MISSING if rank1 else V.UNEXPLAINED,
                   "Hadar's TTD below Gavel's on every mix: " + ", ".join(f"{k[0]}/{k[1]} {v}" for k, v in ok.items()))


def _thm3() -> Outcome:
    configs = [(c, s) for c in ("aws", "testbed") for s in ("eq10", "gavel")]

    def maximal(delay: float) -> list[str]:
        bad = []
        for c, s in configs:
            for name, cru in ex.forking_copies(c, s, delay).items():
                if cru[-1] < max(cru) - 1e-9:
                    bad.append(f"{c}/{s}/{name}: n copies {cru[-1]:.4f} < {max(cru):.4f} with {1 + cru.index(max(cru))}")
        return bad

    with_delay, without = maximal(10.0), maximal(0.0)
    detail = ("with the 10 s restart delay: " + ("; ".join(with_delay) or "n copies maximal everywhere")
              + " | without: " + ("; ".join(without) or "n copies maximal everywhere"))
    if not with_delay:
        return Outcome(True, V.REPRODUCED, detail)
    return Outcome(False, V.OUTSIDE_PREMISE if not without else V.UNEXPLAINED, detail)


PHYSICAL = [
    _c("sec6.ttd_speedup_hadar", "Section VI-C, Fig. 9; abstract", "Hadar's mean TTD speedup over Gavel across the "
       "seven mixes is 1.17x (AWS) / 1.16x (testbed).", "1.17x / 1.16x", V.DATA_MISSING, PHYS_DIAG,
       _physical("speedup_hadar", paper.TTD_SPEEDUP_HADAR), evidence=("hadar2024_m5_aws",), sweep="hadar.physical_speeds"),
    _c("sec6.ttd_speedup_hadare", "Section VI-C, Fig. 9", "HadarE's mean TTD speedup over Gavel is 2.12x.", "2.12x",
       V.DATA_MISSING, PHYS_DIAG, _physical("speedup_hadare", paper.TTD_SPEEDUP_HADARE), sweep="hadar.physical_speeds"),
    _c("sec6.ttd_speedup_hadare_vs_hadar", "Section VI-C", "HadarE's mean TTD speedup over Hadar is 1.79x.", "1.79x",
       V.DATA_MISSING, PHYS_DIAG, _physical("speedup_hadare_vs_hadar", paper.TTD_SPEEDUP_HADARE_VS_HADAR), sweep="hadar.physical_speeds"),
    _c("sec6.cru_gain_hadar", "Section VI-C, Fig. 8; abstract", "Hadar's CRU gain over Gavel is 1.20x (AWS) / 1.21x "
       "(testbed).", "1.20x / 1.21x", V.DATA_MISSING, PHYS_DIAG, _physical("cru_hadar", paper.CRU_GAIN_HADAR),
       sweep="hadar.physical_speeds"),
    _c("sec6.cru_gain_hadare", "Section VI-C, Fig. 8", "HadarE's CRU gain over Gavel is 1.56x (AWS) / 1.62x "
       "(testbed).", "1.56x / 1.62x", V.REPRODUCED, "Within 10% on both clusters (eq. (10) speeds): HadarE's CRU gain "
       "comes from forking, whose copies fill the nodes Gavel leaves idle once fewer jobs than nodes remain, not "
       "from heterogeneity, so it survives the rank-1 speed matrix (and Gavel's measured speeds give about the same "
       "gain).", _physical("cru_hadare", paper.CRU_GAIN_HADARE),
       sweep="hadar.physical_speeds"),
    _c("sec6.hadar_faster_every_mix", "Section VI-C, Fig. 9", "Hadar has a smaller TTD than Gavel under every "
       "workload mix on both clusters.", "every mix", V.DATA_MISSING, PHYS_DIAG, _every_mix,
       sweep="hadar.physical_speeds"),
    _c("sec6.m5_speedup_hadar", "Section VI-C, Fig. 9", "On mix M-5, Gavel takes about 4200 s (3300 s) and Hadar "
       "3900 s (2800 s) on the AWS (testbed) cluster: a 1.18x (1.15x) speedup.", "1.18x / 1.15x", V.DATA_MISSING,
       PHYS_DIAG, _physical("m5_speedup_hadar", paper.M5_SPEEDUP_HADAR), evidence=("hadar2024_m5_aws",),
       sweep="hadar.physical_speeds"),
    _c("sec6.jct_hadar", "Section VI-C, Fig. 10", "Hadar's mean JCT is 1.17x (AWS) / 1.23x (testbed) shorter than "
       "Gavel's across the seven mixes.", "1.17x / 1.23x", V.REPRODUCED, "Within 10% on both clusters with eq. (10) "
       "speeds, but not through heterogeneity (the speed matrix has rank 1): Hadar, whose prices do not bind, runs "
       "the queue's jobs to completion one after another on their fastest free nodes, while Gavel's max-min "
       "fairness time-shares every job across rounds, which delays most completions (a run-to-completion versus "
       "processor-sharing effect on the mean JCT).", _physical("jct_hadar", paper.JCT_GAIN_HADAR),
       sweep="hadar.physical_speeds"),
    _c("abstract.hadare_cru_vs_hadar", "Abstract / Section I", "HadarE raises the CRU over Hadar by 30% (AWS) / 34% "
       "(testbed).", "1.30x / 1.34x", V.DATA_MISSING, PHYS_DIAG, _physical("cru_hadare_vs_hadar", paper.CRU_GAIN_HADARE_VS_HADAR),
       sweep="hadar.physical_speeds"),
    _c("abstract.hadare_jct_vs_hadar", "Abstract / Section I", "HadarE improves the mean JCT over Hadar by 90% (AWS) / "
       "124% (testbed).", "1.90x / 2.24x", V.DATA_MISSING, PHYS_DIAG, _physical("jct_hadare_vs_hadar", paper.JCT_GAIN_HADARE_VS_HADAR),
       sweep="hadar.physical_speeds"),
    _c("sec5.forking_raises_cru", "Section V-B, eqs. (11)-(14)", "Forking every job into copies (HadarE) gives a CRU "
       "at least that of no forking (Hadar), the maximum with n copies.", "CRU(HadarE) >= CRU(Hadar)",
       V.REPRODUCED, "On every mix, both clusters and both speed sources, HadarE's CRU is at least Hadar's: copies "
       "fill nodes that Hadar leaves idle when fewer jobs than nodes remain (the mechanism of (11)-(14)).",
       _forking_order, sweep="hadar.physical_speeds"),
    _c("thm3.n_copies_maximal_cru", "Theorem 3, Section V-C", "HadarE achieves the maximal CRU of an n-node "
       "cluster by forking every job into n copies.", "n copies maximal", V.OUTSIDE_PREMISE,
       "The proof counts busy node-time per round with no overhead.  In the simulation with the 10 s "
       "checkpoint-restart delay of Section IV, more copies mean more copies that start on a new node and pay the "
       "delay: on mix M-5 (AWS, Gavel's speeds) 2 copies per job give a CRU of 0.840 against 0.829 with 5.  With "
       "the restart delay set to 0 (the theorem's premise) n copies are maximal on every mix, cluster and speed "
       "source.  `hetopt sweep hadar.forking_copies`.", _thm3, cost="slow", sweep="hadar.forking_copies"),
]


# ---------------------------------------------------------------- Section IV: the trace-driven simulation
TRACE_DIAG = ("The Microsoft trace's per-job GPU-hours are not published; hetopt samples the classes the paper "
              "describes (uniform class, uniform GPU-hours in the class range, Table II models, Gavel's gang sizes and "
              "measured throughputs).  That workload cannot finish in 40 h under any scheduler: a fluid LP lower bound "
              "on the makespan (`makespan_lower_bound`) is about 342 h, so the paper's trace must be much lighter.  "
              "On the sampled workload Gavel ends within about 1.07x of the bound, so no scheduler can be 1.21x "
              "faster than it; and Hadar's own TTD depends on the unspecified order of its queue (369 h longest "
              "first, 439 h in index order, 405-431 h in random orders) because its prices never bind (U_min about 1e-12 makes every "
              "price negligible against the utilities), so the DP admits jobs in queue order.  "
              "`hetopt sweep hadar.queue_order`.")


def _ttd_40h() -> Outcome:
    lb = ex.trace_bound()
    detail = (f"makespan lower bound of the sampled {paper.TRACE_JOBS}-job workload: {lb.hours:.1f} h (closed form "
              f"{lb.closed_form / 3600:.1f} h)")
    if lb.hours <= paper.TRACE_TTD_HOURS * (1 + RTOL):
        return Outcome(round(lb.hours, 1), V.UNEXPLAINED, detail + "; 40 h is not excluded, rerun the simulation")
    return Outcome(round(lb.hours, 1), V.DATA_MISSING, detail)


def _trace_ratio(other: str, what: str = "ttd") -> Any:
    printed = (paper.TRACE_TTD_SPEEDUP if what == "ttd" else paper.TRACE_MEDIAN_SPEEDUP)[other]

    def check() -> Outcome:
        t = ex.trace_runs()
        r, lb = t["runs"], t["bound"]
        val = (lambda s: s.total_duration) if what == "ttd" else (lambda s: float(np.median(s.completion)))
        ours = val(r[other]) / val(r["hadar"])
        detail = (f"{what} {other} / hadar = {ours:.3f}; TTD (h) " + ", ".join(f"{p} {s.total_duration / 3600:.1f}"
                  for p, s in r.items()) + f"; makespan bound {lb.hours:.1f} h; Gavel / bound "
                  f"{r['gavel'].total_duration / lb.seconds:.3f}")
        if close_to(ours, printed, rtol=RTOL):
            return Outcome(round(ours, 3), V.REPRODUCED, detail)
        missing = lb.hours > paper.TRACE_TTD_HOURS * (1 + RTOL)
        return Outcome(round(ours, 3), V.DATA_MISSING if missing else V.UNEXPLAINED, detail)

    return check


def _gru_reading() -> Outcome:
    r = ex.trace_runs()["runs"]
    cl = {p: s.utilization for p, s in r.items()}
    pj = {p: s.job_utilization for p, s in r.items()}
    detail = ("cluster GRU " + ", ".join(f"{p} {v:.3f}" for p, v in cl.items()) + "; per-job GRU "
              + ", ".join(f"{p} {v:.3f}" for p, v in pj.items()))

    def top(d: dict[str, float]) -> bool:
        return d["yarn_cs"] >= max(d.values()) - 1e-9

    if top(cl):
        return Outcome(round(cl["yarn_cs"], 3), V.REPRODUCED, detail)
    return Outcome(round(cl["yarn_cs"], 3), V.DEPENDS_ON_READING if top(pj) else V.UNEXPLAINED, detail)


def _gru_hadar() -> Outcome:
    r = ex.trace_runs()["runs"]
    cl = {p: s.utilization for p, s in r.items()}
    pj = {p: s.job_utilization for p, s in r.items()}

    def above(d: dict[str, float]) -> bool:
        return d["hadar"] > max(d["gavel"], d["tiresias"])

    detail = (f"cluster GRU hadar {cl['hadar']:.3f}, gavel {cl['gavel']:.3f}, tiresias {cl['tiresias']:.3f}; per-job "
              f"GRU hadar {pj['hadar']:.3f}, gavel {pj['gavel']:.3f}, tiresias {pj['tiresias']:.3f}")
    if above(cl):
        return Outcome(round(cl["hadar"], 3), V.REPRODUCED, detail)
    return Outcome(round(cl["hadar"], 3), V.DEPENDS_ON_READING if above(pj) else V.UNEXPLAINED, detail)


TRACE = [
    _c("sec4.ttd_40h", "Section IV-B, Fig. 4", "Hadar completes the 480 trace jobs in 40 hours.", "40 h",
       V.DATA_MISSING, TRACE_DIAG, _ttd_40h, sweep="hadar.queue_order"),
    _c("sec4.ttd_speedup_gavel", "Section IV-B, Fig. 4", "Hadar's TTD is 1.21x shorter than Gavel's.", "1.21x",
       V.DATA_MISSING, TRACE_DIAG, _trace_ratio("gavel"), cost="slow", sweep="hadar.queue_order"),
    _c("sec4.ttd_speedup_tiresias", "Section IV-B, Fig. 4", "Hadar's TTD is 1.35x shorter than Tiresias's.", "1.35x",
       V.DATA_MISSING, TRACE_DIAG, _trace_ratio("tiresias"), cost="slow", sweep="hadar.queue_order"),
    _c("sec4.ttd_speedup_yarn_cs", "Section IV-B, Fig. 4", "Hadar's TTD is 1.67x shorter than YARN-CS's (68 h).",
       "1.67x", V.DATA_MISSING, TRACE_DIAG, _trace_ratio("yarn_cs"), cost="slow", sweep="hadar.queue_order"),
    _c("sec4.median_speedup_gavel", "Section IV-B, Fig. 4", "The time to complete 50% of the jobs is 1.20x shorter "
       "under Hadar than under Gavel.", "1.20x", V.DATA_MISSING, TRACE_DIAG, _trace_ratio("gavel", "median"),
       cost="slow", sweep="hadar.queue_order"),
    _c("sec4.median_speedup_tiresias", "Section IV-B, Fig. 4", "The time to complete 50% of the jobs is 1.40x "
       "shorter under Hadar than under Tiresias.", "1.40x", V.DATA_MISSING, TRACE_DIAG,
       _trace_ratio("tiresias", "median"), cost="slow", sweep="hadar.queue_order"),
    _c("sec4.gru_yarn_highest", "Section IV-B, Fig. 3", "YARN-CS has the highest GRU (non-preemptive), Hadar a "
       "similar one, Gavel and Tiresias lower.", "YARN-CS highest", V.DEPENDS_ON_READING,
       "GRU is 'the percentage of the total job run-time during which GPUs are utilized'.  Read cluster-wide (busy "
       "GPU-seconds over all GPUs times TTD) YARN-CS has the lowest GRU: its FIFO head-of-line blocking leaves GPUs "
       "idle and stretches the TTD.  Read per job (the fraction of a job's run, from its first start to its "
       "completion, in which it computes), a non-preemptive job is never paused, so YARN-CS is highest, which is "
       "the paper's explanation.  `SimulationResult.utilization` and `.job_utilization` report both.",
       _gru_reading, cost="slow"),
    _c("sec4.gru_hadar_above_gavel", "Section IV-B, Fig. 3", "Hadar's GRU is higher than Gavel's and Tiresias's "
       "(fewer GPUs left unused).", "Hadar > Gavel, Tiresias", V.DEPENDS_ON_READING,
       "Cluster-wide, Gavel keeps more GPU-seconds busy than Hadar on the sampled trace (0.93 against 0.81): its "
       "LP spreads every job over rounds, while Hadar, whose prices do not bind, runs the queue head first and "
       "leaves a long tail.  Per job, Hadar keeps a job running once started (0.97) while Gavel time-shares "
       "every job across rounds (0.18) and Tiresias preempts by attained service (0.40): the paper's ordering "
       "holds in the per-job reading.", _gru_hadar, cost="slow"),
]

def _scalability() -> Outcome:
    import time

    from ...hadar import dp_allocation, price_parameters, trace_workload

    inst = trace_workload(2048, seed=1, n_machines=64)
    t0 = time.perf_counter()
    res = dp_allocation(inst, np.arange(inst.n_jobs), inst.total_iterations.astype(float), 0.0,
                        params=price_parameters(inst), beam_width=1, work_conserving=True)
    dt = time.perf_counter() - t0
    states = float(np.prod(inst.capacity.astype(float) + 1.0))
    return Outcome(round(dt, 2), V.REPRODUCED if dt < paper.SCALABILITY_SECONDS else V.UNEXPLAINED,
                   f"one round over 2048 jobs on 64 machines x 4 GPUs, greedy pass: {dt:.2f} s, {len(res.allocations)} "
                   f"jobs placed (the exact DP's state space has up to {states:.2g} free-GPU matrices)")


TRACE.append(_c(
    "sec4.scalability_2048_jobs", "Section IV-B, Fig. 5", "With about 2000 jobs Hadar schedules a round in less than "
    "7 minutes.", "< 7 min per round", V.REPRODUCED, "One round over 2048 queued jobs on 64 machines of 4 GPUs takes "
    "well under a second with the greedy pass of the DP (beam width 1, what the simulator runs on clusters this "
    "large).  The exact DP would not finish (its state space is the set of free-GPU matrices, see "
    "thm1.dp_polynomial), so the paper's timing must come from a pass of this kind.", _scalability))

CLAIMS: list[Claim] = MOTIVATING + THEOREMS + PHYSICAL + TRACE

SWEEPS = {
    "hadar.queue_order": Sweep(
        name="hadar.queue_order", func=ex.queue_order_table,
        description="Hadar's TTD on the trace against its queue order, with Gavel and the makespan LP bound",
        claims=tuple(c.id for c in TRACE if c.sweep == "hadar.queue_order")),
    "hadar.forking_copies": Sweep(
        name="hadar.forking_copies", func=ex.forking_copies_table,
        description="HadarE's CRU against copies per job, with and without the restart delay (Theorem 3)",
        claims=("hadar2024.thm3.n_copies_maximal_cru",)),
    "hadar.physical_speeds": Sweep(
        name="hadar.physical_speeds", func=ex.physical_speeds_table,
        description="Section VI gains over Gavel with eq. (10) speeds (rank 1) and Gavel's measured speeds",
        claims=tuple(c.id for c in PHYSICAL)),
}
