"""Claims of Sultana et al., Hadar / HadarE (paper key ``hadar2024``).

The worked example (Section II-A), the theorems, the trace simulation (Section IV) and the
physical-cluster mixes (Sections V-VI).  Each check is an experiment of
:mod:`~hetopt.hadar.experiments.checks`, :mod:`~hetopt.hadar.experiments.physical` or
:mod:`~hetopt.hadar.experiments.trace`; its flip is the same experiment with one input changed.
The Gavel baseline is always run through :func:`hetopt.hadar.simulate`, so its claims follow the
Gavel implementation.
"""

from __future__ import annotations

from typing import Any

from ...claims.experiment import Parameter, experiment
from ...claims.ledger import Claim, Conformance, Flip, Sweep, Verdict
from . import checks as C
from . import measured as M
from . import paper
from . import physical as PH
from . import runs as ex
from . import trace as T

__all__ = ["CLAIMS", "SWEEPS", "CONFORMANCE"]

V = Verdict
PAPER = "hadar"


def _c(id_: str, location: str, statement: str, paper_value: str, verdict: Verdict, diagnosis: str,
       check: Any, **kw: Any) -> Claim:
    """A claim of this paper (id prefixed with ``hadar2024.``)."""
    return Claim(id=f"hadar2024.{id_}", paper=PAPER, location=location, statement=statement, paper_value=paper_value,
                 verdict=verdict, diagnosis=diagnosis, check=check, **kw)


NO_DELAY = Parameter("restart_delay", 0.0, prior="Fig. 1 draws whole rounds of training: the example charges no "
                                                 "restart overhead")
VI_DELAY = Parameter("restart_delay", C.PRINTED_DELAY,
                     prior="Section VI prints no restart overhead; the only value the paper prints is Section IV's "
                           "10 s, fixed as the prior before any comparison")

# ---------------------------------------------------------------- Section II-A, the motivating example
MOTIVATING = [
    _c("sec2a.gavel_rounds", "Section II-A, Fig. 1(a)", "Gavel completes the three jobs in six rounds.", "6",
       V.REPRODUCED, "The instance is rebuilt from the text (J1 3 GPUs/80 epochs, J2 2/30, J3 2/50; OCR speed digits "
       "that agree with Gavel's first round).  Gavel (max-min fairness, a job on one GPU type) needs six rounds of "
       "360 s in our run, as in the paper, which charges no restart delay in the example.  With Section IV's 10 s "
       "restart delay (the flip) Gavel's moves between GPU types cost it two more rounds (8).",
       experiment(C.gavel_rounds), evidence=("hadar2024_motivating",), parameters=(NO_DELAY,),
       flip=Flip("Section IV's 10 s restart delay charged in the example", V.UNEXPLAINED, "restart_delay", 10.0)),
    _c("sec2a.hadar_one_round_fewer", "Section II-A, Fig. 1(b)", "Hadar shortens the total training time by one "
       "round (five rounds against Gavel's six).", "5 rounds", V.PAPER_ERROR,
       "An exact breadth-first search over every schedule in which each job runs one gang of W_j GPUs per round "
       "(P1's constraint (1e), any mix of types at the bottleneck rate) finds no schedule shorter than six rounds: "
       "J3 (2 GPUs, 50 epochs) gains at most 10 epochs per round (the only K80 must pair with a V100 or a P100), so "
       "it alone needs five full rounds, and J1 and J2 cannot fit around it.  Fig. 1(b) gives J1 and J3 'all GPUs', "
       "i.e. it breaks the gang constraint.  Our Hadar takes 8 rounds (it maximizes utility, not the makespan).  "
       "The speeds are reconstructed from OCR digits, which agree with Gavel's first round; the flip scales them by "
       "1.25 and the exact search then finds a five-round schedule, so the verdict rests on the search.",
       experiment(C.hadar_rounds), evidence=("hadar2024_motivating",),
       flip=Flip("every reconstructed speed x1.25 (a perturbation of the OCR digits)", V.UNEXPLAINED,
                 "speed_factor", 1.25)),
    _c("sec2a.hadar_round1_cru", "Section II-A", "Hadar's CRU in the first round approaches 100%.", "~100%",
       V.PAPER_ERROR, "Gangs of 3, 2 and 2 GPUs on 6 GPUs can fill 0, 2, 3, 4 or 5 GPUs in a round (subset sums), "
       "never 6: at most 83% under the paper's own gang constraint (1e), whatever the speeds.  With (1e) dropped "
       "(a job on any number of GPUs, as Fig. 1(b) draws it, the flip) a full round exists.",
       experiment(C.round1_full), evidence=("hadar2024_motivating",),
       flip=Flip("gang constraint (1e) dropped: a job may take any number of GPUs", V.REPRODUCED, "gang", False)),
    _c("sec2a.gavel_round1_cru", "Section II-A", "Gavel's CRU in the first round is 83% (J1 on 3 P100, J2 on 2 "
       "V100).", "83%", V.DEPENDS_ON_READING, "In round 1 no job has received a share, so which jobs run first is "
       "a tie-break the papers do not fix.  Both are run: Gavel's own sort (priority X * 1e9 at zero share, then "
       "deficit, then allocation; the default) keeps 4 of 6 GPUs busy (J2 on P100, J3 on V100) and runs the paper's "
       "round later; the tie broken by job order (J1, J2, J3 each on its largest LP fraction with room) gives the "
       "paper's round, J1 on 3 P100 and J2 on 2 V100, 5/6 busy.  Flip: the example on twice the GPUs, where every "
       "job fits in round 1 under either tie-break (7 of 12 busy under both: fails-unexplained).",
       experiment(C.gavel_round1), evidence=("hadar2024_motivating",),
       flip=Flip("the example on twice the GPUs of every type (every job fits in round 1)", V.UNEXPLAINED,
                 "variant", "double_capacity")),
    _c("sec2a.gavel_process_cru", "Section II-A", "Gavel's CRU over the entire process is about 78%.", "~78%",
       V.DEPENDS_ON_READING, "Busy GPU-seconds over 6 GPUs times Gavel's TTD on the rebuilt instance, no restart "
       "delay.  The max-min fairness LP has several optima here; ECOS (Gavel's solver, an interior point, the "
       "default) returns a central one and the process CRU is 0.722, outside 0.03 of the paper's; HiGHS returns a "
       "vertex and the CRU is 0.759, within.  Both are run.  Flip: the example on twice the GPUs (0.329 / 0.293: "
       "both far from 78%, fails-unexplained).", experiment(C.gavel_process_cru), evidence=("hadar2024_motivating",),
       flip=Flip("the example on twice the GPUs of every type", V.UNEXPLAINED, "variant", "double_capacity")),
    _c("sec2a.hadar_process_cru", "Section II-A", "Hadar's CRU over the entire process is some 87%.", "~87%",
       V.PAPER_ERROR, "No round of gangs (3, 2, 2) keeps more than 5 of 6 GPUs busy, so no gang-feasible schedule "
       "reaches 87% over the process (at most 83.3%); the paper's 87% comes from Fig. 1(b)'s task-level allocation "
       "that breaks (1e).  Our Hadar reaches about 50% (it runs the jobs longer on their fastest GPUs).  Flip: every "
       "job a gang of 2 at the same per-round speed (Hadar and the bound both rerun): gangs 2, 2, 2 can fill the 6 "
       "GPUs, the bound no longer excludes 87%, and Hadar's 53.5% is left unexplained.",
       experiment(C.hadar_process_cru), evidence=("hadar2024_motivating",),
       flip=Flip("every job a gang of 2 GPUs at the same per-round speed", V.UNEXPLAINED, "variant", "gangs_of_two")),
    _c("sec2a.hadar_higher_utility", "Section II-A (and P1's objective (1))", "Hadar's heterogeneity-aware "
       "allocation beats Gavel's on the example (measured by P1's objective: the sum of effective throughputs).",
       "Hadar > Gavel", V.REPRODUCED, "Hadar maximizes total utility and gets a larger sum of effective throughputs "
       "than Gavel (1.54x) although it finishes later (8 rounds against 6): the paper's objective and its makespan "
       "comparison are different criteria.  Flip: J2 alone (the premise, jobs competing for the GPUs, absent): both "
       "give it the three P100 and tie (fails-outside-premise; inside the premise, the example, it holds).",
       experiment(C.higher_utility), evidence=("hadar2024_motivating",),
       flip=Flip("J2 alone on the example's cluster (no other job to allocate against)", V.OUTSIDE_PREMISE,
                 "variant", "one_job")),
]

# ---------------------------------------------------------------- Section III: P1/P2 and the theorems
THEOREMS = [
    _c("thm1.dp_polynomial", "Theorem 1 and its proof", "DP_allocation (Algorithm 2) decides a round in polynomial "
       "time: n(Q)HR combinations of (job, server state), O(n(Q)(HR)^2 + R H log H).", "O(n(Q)(HR)^2 + RH log H)",
       V.PAPER_ERROR, "The DP's state is the current server state, i.e. the matrix of free GPUs, and the proof counts "
       "it as one of H*R values.  The number of distinct free-GPU matrices reachable by admitting or skipping each "
       "queued job grows with the queue (up to prod_hr (c^r_h + 1), exponential in the machines): on the bundled "
       "instance (12 jobs, 5 machines of 4 GPUs) the exact DP holds 217 states after the last job against the 5 per "
       "job the proof counts.  Only the greedy pass (beam width 1, the flip) stays within the proof's count, and it "
       "loses Theorem 2 (thm2.polynomial_competitive).", experiment(C.thm1),
       evidence=("hadar2024_theorem1_dp_states",),
       flip=Flip("the DP keeps one state (greedy pass, beam width 1)", V.REPRODUCED, "beam_width", 1)),
    _c("sec3.p1_equals_p2", "Section III-B, P2 (2)-(2c)", "P1 and P2 are equivalent.", "P1 = P2",
       V.DEPENDS_ON_READING, "(2b) as printed (sum_s y_js <= 1, the paper's reading, run first) lets P2 reject a "
       "job, while P1's (1a) makes every job complete: on the bundled instance (a blocking long job and an urgent "
       "one) P2 earns about 20x P1, so the printed statement fails.  With (2b) as an equality (every job admitted "
       "with one schedule) the two optima coincide.  Both readings are run.  Flip: the two-job instance "
       "hadar2024_theorem2_greedy_violation, where admitting every job is optimal anyway: both readings give P1's "
       "optimum (reproduced).", experiment(C.p1_p2), evidence=("hadar2024_p2_relaxes_p1",),
       flip=Flip("the instance hadar2024_theorem2_greedy_violation (no job worth rejecting)", V.REPRODUCED,
                 "instance", C.THM2_VIOLATION)),
    _c("thm2.ratio_exact_dp", "Theorem 2", "Hadar is 2 alpha-competitive, alpha = max_r(1, ln(U^r_max / U^r_min)).",
       "OPT / Hadar <= 2 alpha", V.REPRODUCED, "With the exact DP of Algorithm 2 (the simulator's default on small "
       "clusters) the certified optimum of P1 is within 1.04x of Hadar's utility on the four validation instances "
       "and on hadar2024_theorem2_greedy_violation, far below 2 alpha (14 to 164): the bound holds and is loose "
       "(`hetopt validate hadar --n 20`).  The theorem assumes the exact DP over server states; with the greedy pass "
       "(beam width 1, the flip) OPT/Hadar = 51.5 > 2 alpha = 13.8 on the bundled instance (a long low-value job "
       "admitted first, an urgent one left behind): fails-outside-premise, the premise being the exact DP (inside "
       "it, the check, the bound holds).  Whether a polynomial-time Hadar is 2 alpha-competitive is "
       "thm2.polynomial_competitive.", experiment(C.thm2_exact),
       evidence=("hadar2024_theorem2_greedy_violation",),
       flip=Flip("the greedy pass (beam width 1) instead of the exact DP", V.OUTSIDE_PREMISE, "beam_width", 1)),
    _c("thm2.polynomial_competitive", "Theorems 1-2 together (Section III-D)", "Hadar, whose round is computed in "
       "polynomial time (Theorem 1), is 2 alpha-competitive (Theorem 2).", "polynomial time and OPT / Hadar <= 2 alpha",
       V.PAPER_ERROR, "The two theorems cannot hold of one algorithm.  The pass that is polynomial (the greedy pass, "
       "beam width 1: one state per job, Theorem 1's count) breaks 2 alpha on the bundled "
       "hadar2024_theorem2_greedy_violation (OPT/Hadar 51.5 > 13.8), while the exact DP, which meets the bound "
       "there, holds a number of server states that grows exponentially with the queue (thm1.dp_polynomial: 217 "
       "free-GPU matrices after 12 jobs against the proof's 5).  Issue 30 moved the greedy violation here from the "
       "conformance checks: it is half of a paper claim.  Flip: the four validation instances, on which the greedy "
       "pass meets 2 alpha (reproduced there).", experiment(C.thm2_polynomial),
       evidence=("hadar2024_theorem2_greedy_violation", "hadar2024_theorem1_dp_states"),
       flip=Flip("the validation sweep's four instances instead of the bundled violation", V.REPRODUCED,
                 "instances", "validation")),
    _c("sec3.prices_filter_jobs", "Section III-C, eqs. (5)-(7)", "The price rises exponentially with the "
       "accelerators allocated, so as to filter out low-utility jobs (a job with a low utility or no resources gets a "
       "non-positive payoff).", "prices filter jobs", V.DEPENDS_ON_WORKLOAD,
       "Hadar is run with the prices of eq. (5) and with every price switched off (1e-12 U_min, the communication "
       "cost kept), and the allocations of every round compared, on the two workloads: on the Section VI mixes (one "
       "GPU per node, both clusters) the prices never change a decision (eq. (5) is evaluated at gamma = 0 on a node "
       "that is still free, i.e. at U_min, negligible against any utility, and a full node is not offered: the "
       "premise of a price that rises with the allocation, several GPUs per machine, is absent); on Theorem 2's "
       "validation instances (several GPUs per machine) they do change rounds.  Flip: the mixes run with their five "
       "nodes as one machine (several GPUs per machine): the prices change 13 of 168 rounds there too (reproduced).",
       experiment(C.prices_filter),
       flip=Flip("the Section VI mixes with their five nodes merged into one machine", V.REPRODUCED,
                 "machines", "one_machine")),
]

# ---------------------------------------------------------------- Sections V-VI: physical clusters
PHYS_MECH = ("Section VI prints no restart overhead, so the check runs the prior fixed before any comparison, Section "
             "IV's printed 10 s (issue 30: a swept value never carries the verdict).  There Hadar is slower and less "
             "utilised than Gavel on every multi-job mix (TTD 0.90x, CRU 0.86-0.88x, M-5 0.89-0.91x).  The candidates "
             "measured (`hetopt sweep hadar.restart_delay`, `hetopt sweep hadar.physical_mechanism`): Gavel's "
             "max-min fairness moves or preempts a running job in 86% of its rounds (AWS) and each move pays the "
             "delay, Hadar in 40%; as the delay grows Hadar's advantage appears (1.0x at about 60 s, the paper's TTD "
             "gain at 120-150 s, its CRU gain at 180 s), but only a swept value reproduces the claim, so the verdict "
             "is the failing one and the sweep is its evidence.  90 s rounds 0.98x, longest-first queue 0.92x, greedy "
             "DP 0.87x, prices off 0.90x do not move it.  The proxy's eq. (10) speeds are rank 1; on Gavel's measured "
             "workloads (rank 3; `hetopt.hadar.experiments.arena_study`, claim sec4.ttd_speedup_gavel_measured) "
             "Hadar trails Gavel too at 10 s (TTD 0.84, mean JCT 0.81, CRU 0.90, three trace seeds) and at 0 s, the "
             "delay turns TTD and JCT only at unprinted values (1.13 / 1.09 at 120 s, through Gavel's moves), never "
             "the CRU (0.88-0.91), and rank-1 speeds shrink Hadar's deficit (TTD 0.91): heterogeneity is not the "
             "mechanism of Hadar's advantage.")


def _phys_claim(id_: str, location: str, statement: str, pv: str, key: str, printed: tuple[float, float],
                at: float, verdict: Verdict, diagnosis: str = PHYS_MECH, flip_verdict: Verdict = V.REPRODUCED,
                **kw: Any) -> Claim:
    return _c(id_, location, statement, pv, verdict, diagnosis,
              experiment(PH.physical, key=key, printed=printed), sweep="hadar.restart_delay", parameters=(VI_DELAY,),
              flip=Flip(f"restart delay {at:g} s (a value of the sweep)", flip_verdict, "restart_delay", at), **kw)


HADARE_DIAG = ("The paper's measured node speeds and job lengths are not published; the proxy (eq. (10) speeds, "
               "every job 20 minutes on its fastest GPU, the prior 10 s restart delay, both clusters; Gavel's "
               "measured speeds in the detail) points the paper's way, by a smaller factor, above 1 by more than the "
               "stated margin (5%: one round of a mix of about 20).  HadarE's gain comes from forking: with one copy "
               "per job (the flip) it vanishes and the proxy turns against the paper.  `hetopt sweep hadar.physical_speeds`.")
ONE_COPY = "HadarE's forking off (one copy per job)"


def _hadare_claim(id_: str, location: str, statement: str, pv: str, key: str, printed: tuple[float, float],
                  direction: str, **kw: Any) -> Claim:
    return _c(id_, location, statement, pv, V.DATA_MISSING, HADARE_DIAG,
              experiment(PH.hadare, key=key, printed=printed), direction=direction, sweep="hadar.physical_speeds",
              flip=Flip(ONE_COPY, V.UNEXPLAINED, "copies", 1), **kw)


PHYSICAL = [
    _phys_claim("sec6.ttd_speedup_hadar", "Section VI-C, Fig. 9; abstract", "Hadar's mean TTD speedup over Gavel "
                "across the seven mixes is 1.17x (AWS) / 1.16x (testbed).", "1.17x / 1.16x", "speedup_hadar",
                paper.TTD_SPEEDUP_HADAR, 120.0, V.UNEXPLAINED, evidence=("hadar2024_m5_aws",)),
    _hadare_claim("sec6.ttd_speedup_hadare", "Section VI-C, Fig. 9", "HadarE's mean TTD speedup over Gavel is 2.12x.",
                  "2.12x", "speedup_hadare", paper.TTD_SPEEDUP_HADARE, "HadarE's TTD is shorter than Gavel's"),
    _hadare_claim("sec6.ttd_speedup_hadare_vs_hadar", "Section VI-C", "HadarE's mean TTD speedup over Hadar is 1.79x.",
                  "1.79x", "speedup_hadare_vs_hadar", paper.TTD_SPEEDUP_HADARE_VS_HADAR,
                  "HadarE's TTD is shorter than Hadar's"),
    _phys_claim("sec6.cru_gain_hadar", "Section VI-C, Fig. 8; abstract", "Hadar's CRU gain over Gavel is 1.20x "
                "(AWS) / 1.21x (testbed).", "1.20x / 1.21x", "cru_hadar", paper.CRU_GAIN_HADAR, 180.0, V.UNEXPLAINED),
    _c("sec6.cru_gain_hadare", "Section VI-C, Fig. 8", "HadarE's CRU gain over Gavel is 1.56x (AWS) / 1.62x "
       "(testbed).", "1.56x / 1.62x", V.REPRODUCED, "Within 10% on both clusters (eq. (10) speeds, the prior 10 s "
       "delay): HadarE's CRU gain comes from forking, whose copies fill the nodes Gavel leaves idle once fewer jobs "
       "than nodes remain, not from heterogeneity, so it survives the rank-1 speed matrix (and Gavel's measured "
       "speeds give about the same gain).  With one copy per job (the flip) the gain falls to about 0.85x.",
       experiment(PH.hadare, key="cru_hadare", printed=paper.CRU_GAIN_HADARE), sweep="hadar.physical_speeds",
       flip=Flip(ONE_COPY, V.UNEXPLAINED, "copies", 1)),
    _c("sec6.hadar_faster_every_mix", "Section VI-C, Fig. 9", "Hadar has a smaller TTD than Gavel under every "
       "workload mix on both clusters.", "every mix", V.UNEXPLAINED, PHYS_MECH + "  Per mix: at the prior 10 s Gavel "
       "is faster on all six multi-job mixes; from 120 s (the flip) Hadar is faster on every one (M-1, a single job "
       "on the fastest GPU under both, ties).", experiment(PH.every_mix), sweep="hadar.restart_delay",
       parameters=(VI_DELAY,), flip=Flip("restart delay 120 s (a value of the sweep)", V.REPRODUCED,
                                         "restart_delay", 120.0)),
    _phys_claim("sec6.m5_speedup_hadar", "Section VI-C, Fig. 9", "On mix M-5, Gavel takes about 4200 s (3300 s) and "
                "Hadar 3900 s (2800 s) on the AWS (testbed) cluster: a 1.18x (1.15x) speedup.", "1.18x / 1.15x",
                "m5_speedup_hadar", paper.M5_SPEEDUP_HADAR, 150.0, V.UNEXPLAINED, evidence=("hadar2024_m5_aws",)),
    _phys_claim("sec6.jct_hadar", "Section VI-C, Fig. 10", "Hadar's mean JCT is 1.17x (AWS) / 1.23x (testbed) "
                "shorter than Gavel's across the seven mixes.", "1.17x / 1.23x", "jct_hadar", paper.JCT_GAIN_HADAR,
                120.0, V.REPRODUCED, flip_verdict=V.UNEXPLAINED,
                diagnosis="Reproduced at the prior 10 s delay (1.17 / 1.13), and not through heterogeneity (rank-1 "
                "speeds): Hadar runs the queue's jobs to completion on their fastest free nodes while Gavel's max-min "
                "fairness time-shares every job, which delays most completions (run-to-completion against processor "
                "sharing).  At the delays where Hadar's TTD and CRU gains appear (120-180 s, the flip) the JCT gain "
                "grows to 1.5-1.8x, beyond the paper's: no single overhead gives every printed number.  " + PHYS_MECH),
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
       experiment(PH.forking_order), sweep="hadar.physical_speeds", flip=Flip(ONE_COPY, V.UNEXPLAINED, "copies", 1)),
    _c("thm3.n_copies_maximal_cru", "Theorem 3, Section V-C", "HadarE achieves the maximal CRU of an n-node "
       "cluster by forking every job into n copies.", "n copies maximal", V.OUTSIDE_PREMISE,
       "The proof counts busy node-time per round with no overhead.  In the simulation with the prior 10 s "
       "checkpoint-restart delay, more copies mean more copies that start on a new node and pay the delay: on mix "
       "M-5 (AWS, Gavel's speeds) 2 copies per job give a CRU of 0.840 against 0.829 with 5.  The check measures the "
       "premise absent (a delay above 0) and runs the same experiment inside it (no delay): n copies are maximal on "
       "every mix, cluster and speed source.  Flip: a 1 s delay, small against a 360 s round: n copies maximal "
       "again (reproduced).  `hetopt sweep hadar.forking_copies`.", experiment(PH.thm3), sweep="hadar.forking_copies",
       parameters=(VI_DELAY,), flip=Flip("restart delay 1 s", V.REPRODUCED, "restart_delay", 1.0)),
    _hadare_claim("sec6.jct_hadare_vs_gavel", "Section VI-C, Fig. 10", "HadarE reduces the mean JCT against Gavel "
                  "by 2.23x (AWS) / 2.76x (testbed).", "2.23x / 2.76x", "jct_hadare", paper.JCT_GAIN_HADARE,
                  "HadarE's mean JCT is shorter than Gavel's"),
    _c("sec6.m5_jct_hadar", "Section VI-C, Fig. 10", "On mix M-5 Hadar's JCT is 1.23x (AWS) / 1.43x (testbed) "
       "smaller than Gavel's.", "1.23x / 1.43x", V.DATA_MISSING, "At the prior 10 s delay Hadar's M-5 JCT is shorter "
       "than Gavel's by more than the 5% margin (eq. (10) speeds: 1.16x / 1.10x): the paper's direction, by less; "
       "the overheads of the two clusters, which would size it, are not printed (the sweep: 1.35x / 1.28x at 90 s, "
       "1.44x / 1.42x at 120 s).  With Gavel's measured speeds (the flip) Hadar's M-5 JCT is no longer shorter "
       "(1.00x / 0.94x): the direction rests on the speed source.", experiment(PH.m5_jct),
       direction="Hadar's M-5 JCT is shorter than Gavel's", sweep="hadar.restart_delay",
       flip=Flip("Gavel's measured speeds instead of eq. (10)", V.UNEXPLAINED, "speeds", "gavel")),
    _c("sec6.gap_insensitive_to_mix", "Section VI-C, Fig. 9", "The performance gaps between Hadar and Gavel change "
       "insignificantly across the workload mixes.", "gap about constant", V.UNEXPLAINED,
       "Read as: every multi-job mix's Gavel/Hadar TTD ratio within 10% of the mean ratio, on both clusters, at the "
       "prior 10 s delay: M-4 (0.79 on AWS against a mean of 0.89) is 11% off.  At 120 s (the flip) every mix is "
       "within 10%.  " + PHYS_MECH, experiment(PH.gap_insensitive), sweep="hadar.restart_delay",
       parameters=(VI_DELAY,), flip=Flip("restart delay 120 s (a value of the sweep)", V.REPRODUCED,
                                         "restart_delay", 120.0)),
    _c("sec6.hadare_jct_range_narrowest", "Section VI-C, Fig. 10", "The JCT range of every workload mix (with more "
       "than one model) is more confined under HadarE than under Gavel (and Hadar as well), on both clusters.",
       "narrower on every multi-job mix", V.DEPENDS_ON_READING,
       "The paper does not name the Gavel policy it ran.  Under Gavel's max-min fairness (hetopt's default, Gavel's "
       "headline policy) Gavel's range is the narrowest on every mix (AWS M-12: 2048 s against HadarE's 6651 s): "
       "max-min fairness equalizes the jobs' normalized progress, so they finish close together, while Hadar and "
       "HadarE run jobs nearly to completion one after the other.  Under Gavel's FIFO (the same round mechanism, "
       "jobs in arrival order) HadarE's range is narrower than Gavel's on every multi-job mix of both clusters: the "
       "reading of Gavel's policy moves the verdict.  The parenthesis (narrower than Hadar's too) fails on the large "
       "AWS mixes under either reading (M-8 to M-12): reported in the detail.  Flip: HadarE with one copy per job "
       "(forking off).", experiment(PH.range_vs_gavel), sweep="hadar.jct_range",
       flip=Flip(ONE_COPY, V.UNEXPLAINED, "copies", 1)),
]

PEAK_DIAG = ("CRU of every mix at the slot times 90 / 180 / 360 / 540 s, prior 10 s delay, eq. (10) speeds, under "
             "both readings of the per-round overhead: the restart delay charged when a job's allocation changes (the "
             "simulator's, Section IV's words) and charged to every job every round (Section VI: every node reports to "
             "the scheduler each round, HadarE aggregates every model).  A reading is data-missing when the peak is "
             "elsewhere but the paper's direction holds (the 360 s slot beats the 90 s one by more than two CRU "
             "points on every large mix).  Measured contradiction, no mechanism found: with the first reading every "
             "large mix peaks at 90 s (HadarE: CRU 0.96 at 90 s against 0.89-0.91 at 360 s); with the second the "
             "peaks scatter over 180-540 s and the 360 s slot does not beat the 90 s one on every large mix.  "
             "Candidates measured (`hetopt sweep hadar.slot_peaks`, runs recorded in the card): restart delays "
             "10-180 s, Gavel's measured speeds, a per-round overhead growing with the number of models (1-5 s per "
             "model), 1-3 copies per job, jobs of 10-60 minutes or sized by dataset: none gives the paper's split.")
PEAK = [
    _c("sec6.hadare_peak_360_large_mixes", "Section VI-C, Fig. 11", "Under HadarE, training performance (CRU) peaks at "
       "the slot time of 360 seconds for large workload mixes, M-8 to M-12 on the AWS cluster (M-5 to M-12 on the "
       "testbed).", "peak at 360 s", V.UNEXPLAINED, PEAK_DIAG + "  Flip: a 20 s delay: under the every-round "
       "reading the 360 s slot beats the 90 s one on every large mix by 6-13 points (the peak moves to 540 s: "
       "data-missing), under the on-change reading it does not (depends-on-reading).",
       experiment(PH.peak_360, policy="hadare"),
       sweep="hadar.slot_peaks", parameters=(VI_DELAY,),
       flip=Flip("restart delay 20 s (a value of the sweep)", V.DEPENDS_ON_READING, "restart_delay", 20.0)),
    _c("sec6.hadar_peak_360_large_mixes_testbed", "Section VI-C, Fig. 12(b)", "Under Hadar on the testbed cluster, "
       "CRU results peak at a long slot time of 360 seconds for M-5 to M-12.", "peak at 360 s", V.UNEXPLAINED,
       PEAK_DIAG + "  Flip: a 20 s delay, where the every-round reading peaks at 360 s on M-5 to M-12 and the "
       "on-change reading does not (depends-on-reading).",
       experiment(PH.peak_360, policy="hadar"), sweep="hadar.slot_peaks", parameters=(VI_DELAY,),
       flip=Flip("restart delay 20 s (a value of the sweep)", V.DEPENDS_ON_READING, "restart_delay", 20.0)),
]

# ---------------------------------------------------------------- Section IV: the trace-driven simulation
TRACE_DIAG = ("Section IV's trace at its printed sizes: 480 jobs on 60 GPUs, all at time 0, the printed class "
              "GPU-hours, the printed 10 s restart delay, 6-minute rounds; Hadar's queue in index order and the "
              "heterogeneity-unaware baselines taking the fastest type first (priors, documented in the claim's "
              "parameters).  The trace's per-job GPU-hours are not in the paper: two class readings are run, classes "
              "sampled uniformly (the generator's, `trace_workload`) and classes from each job's own GPU-hours on the "
              "bundled Philly-derived trace (Gavel's msr/ed69ec, `experiments.runs.philly_workload`).  At the printed "
              "GPU-hours no scheduler finishes in the paper's 40 h (sec4.ttd_40h), so the paper's trace was lighter "
              "than its text says; the light trace (GPU-hours x0.1, fitted so that 40 h is feasible) and the other "
              "delays are the sweeps' (`hetopt sweep hadar.queue_order`, `hetopt sweep hadar.restart_delay`), never "
              "the verdict's input.")
TRACE_PARAMS = (T.DELAY, T.QUEUE, T.TYPES, T.HOURS)


def _trace_claim(id_: str, statement: str, pv: str, other: str, what: str, verdict: Verdict, flip: Flip,
                 diagnosis: str, direction: str = "", **kw: Any) -> Claim:
    return _c(id_, "Section IV-B, Fig. 4", statement, pv, verdict, diagnosis,
              experiment(T.trace_ratio, other=other, what=what, direction=bool(direction)), cost="slow",
              sweep="hadar.restart_delay", flip=flip, direction=direction, parameters=TRACE_PARAMS, **kw)


TRACE = [
    _c("sec4.ttd_40h", "Section IV-B, Fig. 4", "Hadar completes the 480 trace jobs in 40 hours.", "40 h",
       V.PAPER_ERROR, "At the printed class GPU-hours (Section IV-A: 0-1, 1-10, 10-50 and 60-100 per job) no "
       "scheduler can finish 480 jobs on 60 GPUs in 40 h: the fluid LP lower bound on the makespan "
       "(`makespan_lower_bound`) is 342 h with classes sampled uniformly and 591 h with classes from the "
       "Philly-derived trace's GPU-hours, so the printed sizes and the printed 40 h contradict each other under both "
       "readings.  Flip: the GPU-hours x0.1 (the light trace, bound 34 h and 59 h): the Philly reading is still "
       "infeasible, the uniform one feasible but Hadar (queue in index order, the prior) takes 44.8 h, outside 10% "
       "(longest first, a swept order, gives 38.0 h: `hetopt sweep hadar.queue_order`).",
       experiment(T.ttd_40h), sweep="hadar.queue_order", parameters=(T.HOURS, T.QUEUE),
       flip=Flip("class GPU-hours x0.1 (the light trace)", V.DEPENDS_ON_READING, "hours_scale", ex.LIGHT_HOURS)),
    _trace_claim("sec4.ttd_speedup_gavel", "Hadar's TTD is 1.21x shorter than Gavel's.", "1.21x", "gavel", "ttd",
                 V.UNEXPLAINED, Flip("restart delay 120 s (a value of the sweep)", V.DEPENDS_ON_READING,
                                     "restart_delay", 120.0),
                 TRACE_DIAG + "  Gavel/Hadar TTD 0.83 (uniform: 364 h against 439 h) and 0.93 (Philly: 618 h "
                 "against 664 h): Gavel is faster under both readings, against the paper.  The candidate of the "
                 "physical mixes, the restart delay (Gavel's max-min fairness moves jobs every round and pays it each "
                 "time), is swept: at 120 s (the flip, not a printed value) Gavel/Hadar is 1.18 (uniform, within 10% "
                 "of 1.21) and 1.34 (Philly, the paper's direction beyond its number): depends-on-reading.",
                 direction="Hadar's TTD is shorter than Gavel's"),
    _c("sec4.ttd_speedup_gavel_measured", "Section IV-B, Fig. 4", "Hadar's TTD is 1.21x shorter than Gavel's, on a "
       "workload with Gavel's measured throughputs.", "1.21x", V.UNEXPLAINED,
       "Issue 30: the trace proxy's and the physical proxy's speeds are rank 1 (every job the same relative speed on "
       "every type), so a heterogeneity-aware scheduler has nothing to exploit there.  Here both schedulers run in "
       "the arena on Gavel's msr trace with Gavel's measured throughputs (rank 3), Section IV's size (480 jobs of at "
       "most 100 GPU-hours, the top of its largest class, on 20 GPUs of each type, all at time 0), Gavel's max-min "
       "fairness (the paper names no policy) and the printed 10 s delay: Gavel/Hadar TTD 0.84, mean JCT 0.81, median "
       "0.96, Hadar/Gavel utilization 0.90 (trace seeds 0-2; the check runs seed 0): Hadar is slower.  The study's "
       "toggles (`hetopt.hadar.experiments.arena_study.toggle_table`): 0 s 0.82; rank-1 speeds 0.91 (Hadar's deficit "
       "shrinks: Gavel's LP exploits the measured heterogeneity, Hadar's greedy pass gives the queue's first jobs the "
       "fastest GPUs); Section IV-B's keep-GPUs reading 0.42; single-type gangs identical (every msr job runs on one "
       "GPU); online arrivals at 2 jobs/hour about even (0.99, JCT 1.04); 40 jobs on 15 GPUs 1.21 at 0 and 10 s "
       "alike.  The delay turns the verdict only at unprinted values, through Gavel: at 120 s (the flip) 1.13 "
       "(within 10% of 1.21), Gavel's makespan 233 -> 330 h while Hadar's stays 284-291 h, its utilization gain "
       "never (0.88 at 120 s).  A swept value does not carry the verdict: fails-unexplained.",
       experiment(M.section4_measured), cost="slow", sweep="hadar.restart_delay", parameters=(T.DELAY,),
       flip=Flip("restart delay 120 s (a value of the sweep)", V.REPRODUCED, "restart_delay", 120.0)),
    _trace_claim("sec4.ttd_speedup_tiresias", "Hadar's TTD is 1.35x shorter than Tiresias's.", "1.35x", "tiresias",
                 "ttd", V.UNEXPLAINED, Flip("Tiresias taking the slowest type first (K80, P100, V100)",
                                            V.DATA_MISSING, "type_order", "slowest"),
                 TRACE_DIAG + "  Tiresias/Hadar 0.99 (uniform: 434 h against 439 h) and 1.00 (Philly: 662 h against "
                 "664 h): Tiresias with the fastest type first (the prior) is as fast as Hadar.  Tiresias is "
                 "heterogeneity-unaware and its type order is not printed; taking the slowest first (the flip) puts "
                 "its jobs on K80s while V100s are free, and Hadar's advantage appears under both readings (1.56 and "
                 "1.21, neither within 10% of 1.35: data-missing, the paper's direction).",
                 direction="Hadar's TTD is shorter than Tiresias's"),
    _trace_claim("sec4.ttd_speedup_yarn_cs", "Hadar's TTD is 1.67x shorter than YARN-CS's (68 h).", "1.67x",
                 "yarn_cs", "ttd", V.DEPENDS_ON_READING,
                 Flip("the trace's first job alone (nothing to queue)", V.UNEXPLAINED, "n_jobs", 1),
                 TRACE_DIAG + "  YARN-CS/Hadar 2.24 with classes sampled uniformly (984 h against 439 h: the paper's "
                 "direction beyond its number) and 1.65 with the Philly classes (1093 h against 664 h: within 10% of "
                 "1.67): depends-on-reading.  The gap is YARN-CS's FIFO head-of-line blocking: its type order changes "
                 "nothing (984 h and 1093 h with the slowest type first), and the readings disagree as well at a 120 s "
                 "delay (1.91 / 1.71), on the light trace (2.05 / 1.74) and with Hadar's queue longest first (2.67 / "
                 "1.75).  Flip: the trace's first job alone, nothing to queue: both run it in the same time (ratio 1 "
                 "under both readings: fails-unexplained); with the first 60 jobs the ratio is 5.97 / 5.92.",
                 direction="Hadar's TTD is shorter than YARN-CS's"),
    _trace_claim("sec4.median_speedup_gavel", "The time to complete 50% of the jobs is 1.20x shorter under Hadar "
                 "than under Gavel.", "1.20x", "gavel", "median", V.UNEXPLAINED,
                 Flip("Hadar's queue shortest first (a swept order)", V.DATA_MISSING, "queue_order", "shortest_first"),
                 TRACE_DIAG + "  The median is set by the order of Hadar's queue among the jobs that arrive "
                 "together, which the paper does not fix (its prices never bind, so the DP admits jobs in queue "
                 "order): in index order (the prior) Hadar's median is above the baseline's (Gavel/Hadar 0.44 "
                 "uniform, 0.77 Philly: against the paper); shortest first (the flip) puts it below, beyond the "
                 "paper's number (1.91 and 2.39: data-missing).",
                 direction="Half of the jobs finish sooner under Hadar than under Gavel"),
    _trace_claim("sec4.median_speedup_tiresias", "The time to complete 50% of the jobs is 1.40x shorter under Hadar "
                 "than under Tiresias.", "1.40x", "tiresias", "median", V.UNEXPLAINED,
                 Flip("Hadar's queue shortest first (a swept order)", V.DATA_MISSING, "queue_order", "shortest_first"),
                 TRACE_DIAG + "  As for Gavel: index order (the prior) against the paper (Tiresias/Hadar 0.87 "
                 "uniform, 0.96 Philly), shortest first (the flip) the paper's direction beyond its number (3.80 and "
                 "2.97).",
                 direction="Half of the jobs finish sooner under Hadar than under Tiresias"),
    _c("sec4.gru_yarn_highest", "Section IV-B, Fig. 3", "YARN-CS has the highest GRU (non-preemptive), Hadar a "
       "similar one, Gavel and Tiresias lower.", "YARN-CS highest", V.DEPENDS_ON_READING,
       "GRU is 'the percentage of the total job run-time during which GPUs are utilized'.  Both readings are run on "
       "the trace at its printed sizes.  Read cluster-wide (busy GPU-seconds over all GPUs times TTD, the default) "
       "YARN-CS has the lowest GRU: its FIFO head-of-line blocking leaves GPUs idle and stretches the TTD.  Read per "
       "job (the fraction of a job's run, from its first start to its completion, in which it computes), a "
       "non-preemptive job is never paused, so YARN-CS is highest, which is the paper's explanation.  The readings "
       "differ on every workload tried (Philly classes, no restart delay, 60 jobs); only with the trace's first job "
       "alone (the flip: nothing to queue or preempt) do all four schedulers give the same GRU, YARN-CS's is then the "
       "highest under both readings (reproduced, by a tie).  " + TRACE_DIAG,
       experiment(T.gru, which="yarn"), cost="slow", parameters=(T.DELAY, T.QUEUE),
       flip=Flip("the trace's first job alone (nothing to queue or preempt)", V.REPRODUCED, "n_jobs", 1)),
    _c("sec4.gru_hadar_above_gavel", "Section IV-B, Fig. 3", "Hadar's GRU is higher than Gavel's and Tiresias's "
       "(fewer GPUs left unused).", "Hadar > Gavel, Tiresias", V.DEPENDS_ON_READING,
       "Cluster-wide (the default), Gavel keeps more GPU-seconds busy than Hadar: its LP spreads every job over "
       "rounds, while Hadar, whose prices do not bind, runs the queue head first and leaves a long tail.  Per job, "
       "Hadar keeps a job running once started while Gavel time-shares every job across rounds and Tiresias preempts "
       "by attained service: the paper's ordering holds in the per-job reading.  Both readings are run.  Flip: Hadar's "
       "queue longest first (a swept order): Hadar's cluster-wide GRU rises to 0.996, above Gavel's 0.944, and the "
       "ordering holds under both readings (reproduced).  " + TRACE_DIAG,
       experiment(T.gru, which="hadar"), cost="slow", parameters=(T.DELAY, T.QUEUE),
       flip=Flip("Hadar's queue longest first (a swept order)", V.REPRODUCED, "queue_order", "longest_first")),
    _c("sec4.scalability_2048_jobs", "Section IV-B, Fig. 5", "With about 2000 jobs Hadar schedules a round in less "
       "than 7 minutes.", "< 7 min per round", V.REPRODUCED, "One round over 2048 queued jobs on 64 machines of 4 "
       "GPUs takes well under a second with the greedy pass of the DP (beam width 1, what the simulator runs on "
       "clusters this large): three orders of magnitude below the paper's 7 minutes, a margin no load can cross "
       "(tests/claims runs it beside a CPU-burning process).  The exact DP cannot be timed (its state space is the "
       "set of free-GPU matrices, see thm1.dp_polynomial): the flip runs it over the queue in order and counts its "
       "states, which pass the budget within the first few dozen jobs (25,292 states after job 23 against a budget "
       "of 20,000; 140,774 after job 26), so the round cannot be computed this way and the paper's timing must come from a pass of the greedy kind.",
       experiment(PH.scalability), timed=True,
       flip=Flip("the exact DP of Algorithm 2 instead of the greedy pass (states counted)", V.UNEXPLAINED,
                 "exact", True)),
    _c("sec4.rounds_change_30pct", "Section IV-B", "Only 30% of scheduling rounds require changes to job resource "
       "allocations on average (Hadar allocates newly incoming jobs without changing running jobs unless preempted).",
       "30%", V.DATA_MISSING, "Counted on the trace at its printed sizes (uniform classes, 10 s delay): a round changes "
       "allocations when a job that ran in the previous round and is still active is preempted or moved.  Hadar "
       "recomputes the DP over the whole queue every round; with its queue in index order (the prior) 474 of its "
       "4391 rounds (11%) change a running job, a minority as the paper says but not its 30% (Gavel changes one in "
       "nearly every round); the number rests on the unpublished trace (data-missing, the paper's direction).  The "
       "count follows the length of the trace: on the light trace (GPU-hours x0.1, the flip) 284 of 448 rounds "
       "(63%) change a running job, against the paper (fails-unexplained); there Hadar's queue longest first, a "
       "swept order, gives 157 of 381 (41%).  " + TRACE_DIAG,
       experiment(T.rounds_changed), cost="slow", sweep="hadar.queue_order",
       direction="A minority of Hadar's rounds change a running job's allocation",
       parameters=(T.QUEUE, T.HOURS),
       flip=Flip("class GPU-hours x0.1 (the light trace)", V.UNEXPLAINED, "hours_scale", ex.LIGHT_HOURS)),
]

CLAIMS: list[Claim] = MOTIVATING + THEOREMS + PHYSICAL + PEAK + TRACE

#: Issue 30 moved hadar2024.thm2.greedy_violation (half of a paper claim) to thm2.polynomial_competitive.
CONFORMANCE: list[Conformance] = []

SWEEPS = {
    "hadar.queue_order": Sweep(
        name="hadar.queue_order", func=ex.queue_order_table,
        description="Hadar's TTD on the trace against its queue order, with Gavel and the makespan LP bound",
        claims=tuple(c.id for c in CLAIMS if c.sweep == "hadar.queue_order")),
    "hadar.forking_copies": Sweep(
        name="hadar.forking_copies", func=ex.forking_copies_table,
        description="HadarE's CRU against copies per job, with and without the restart delay (Theorem 3)",
        claims=("hadar2024.thm3.n_copies_maximal_cru",)),
    "hadar.restart_delay": Sweep(
        name="hadar.restart_delay", func=ex.restart_delay_table,
        description="Section VI: Hadar against Gavel by restart delay; Hadar's advantage appears as the delay grows",
        claims=tuple(c.id for c in CLAIMS if c.sweep == "hadar.restart_delay")),
    "hadar.physical_mechanism": Sweep(
        name="hadar.physical_mechanism", func=ex.physical_mechanism_table,
        description="Section VI: every candidate mechanism of Hadar slower than Gavel, measured",
        claims=tuple(c.id for c in PHYSICAL if c.sweep == "hadar.restart_delay")),
    "hadar.jct_range": Sweep(
        name="hadar.jct_range", func=ex.jct_range_table,
        description="Section VI-C: JCT range per mix under Gavel's max-min fairness and FIFO, Hadar and HadarE",
        claims=("hadar2024.sec6.hadare_jct_range_narrowest",)),
    "hadar.slot_peaks": Sweep(
        name="hadar.slot_peaks", func=ex.slot_peaks_table,
        description="Figs. 11-12: the slot time of the highest CRU per mix, by overhead reading, speeds and delay",
        claims=tuple(c.id for c in CLAIMS if c.sweep == "hadar.slot_peaks")),
    "hadar.physical_speeds": Sweep(
        name="hadar.physical_speeds", func=ex.physical_speeds_table,
        description="Section VI gains over Gavel with eq. (10) speeds (rank 1) and Gavel's measured speeds",
        claims=tuple(c.id for c in PHYSICAL if c.sweep == "hadar.physical_speeds")),
}
