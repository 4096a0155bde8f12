"""Claims of Chen, Li, Wu, Guo, "Hare", HPDC 2022 (``hetopt.hare``).

The paper: "Hare: Exploiting Inter-job and Intra-job Parallelism of Distributed Machine Learning on
Heterogeneous GPUs".

The checks live in :mod:`hetopt.hare.experiments.checks`; the experiments beside them: the Section 7
comparison (:mod:`~hetopt.hare.experiments.section7`) and its sweeps (:mod:`~hetopt.hare.experiments.sweeps`),
the Fig. 1 schedules (:mod:`~hetopt.hare.experiments.fig1`) and the search of the Fig. 1 time tables
(:mod:`~hetopt.hare.experiments.fig1_search`); the paper's printed numbers in
:mod:`~hetopt.hare.experiments.paper`.  Every claim names its flip (issue 21): the same experiment with
one thing changed ((9) on every subset, a reading of line 12, a workload point, a premise
removed); the four Fig. 1 numbers on the reconstruction built to give them are
:data:`CONFORMANCE` checks.
"""

from __future__ import annotations

from ...claims.experiment import Parameter, built, experiment
from ...claims.ledger import Claim, Conformance, Flip, Sweep, Verdict
from . import checks as X
from . import contradictions as Y
from . import sweeps as _sweeps

__all__ = ["CLAIMS", "SWEEPS", "CONFORMANCE"]

P = "hare"
R, RD, DM, PE, WL, UX, OP = (Verdict.REPRODUCED, Verdict.DEPENDS_ON_READING, Verdict.DATA_MISSING, Verdict.PAPER_ERROR,
                             Verdict.DEPENDS_ON_WORKLOAD, Verdict.UNEXPLAINED, Verdict.OUTSIDE_PREMISE)
_SUB = "(9) imposed on every subset of jobs (Queyranne's subset inequalities) instead of the full set only"
#: The flip of the Theorem 4 / Lemma 2 entries: a small instance of the certification sweep (seed 1: one
#: homogeneous GPU type, alpha = 1, the tightest claimed bound, like the counterexamples), where the
#: degenerate relaxation optimum does not occur.  (9) on every subset is the diagnosis the checks run.
_SWEEP1 = Flip("the instance of seed 1 of the certification sweep (homogeneous, alpha = 1) instead of the "
               "counterexample", R, "stem", "sweep seed 1")
#: Flips found by running the experiments (issue 30).
RANGE_FLIP = Flip("twice the workload's speed spread (h = 2): Hare loses to a baseline under every reading", UX,
                  "h", 2.0)
GAP_FLIP = Flip("a light load (arrival rate x0.1): the gap grows under no reading of line 12", UX, "load", 0.1)
BEST_FLIP = Flip("twice the workload's speed spread (h = 2): no reading of line 12 is best at every count", UX,
                 "h", 2.0)
GAPS_FLIP = Flip("AlloX and Sched_Homo planning up front (hetopt's former baseline reading) instead of online", RD,
                 "online", False)
BATCH_FLIP = Flip("tasks of 1,000 mini-batches instead of 100 (synchronization negligible)", RD,
                  "iterations_per_task", 1000)

_THM4_DIAG = ("Theorem 4 is false with (9) as printed. On one GPU alpha = 1, so the claim is a factor 3. The full-set "
              "Queyranne inequality (9) lets the relaxation's unique optimum put all of its slack on the one job of "
              "least w/p (x-hat = a for every other job), so H = a + T^c/2 ignores the weights and Algorithm 1 runs "
              "the heavy job late. The gap in the proof is step (11) of Lemma 2, which applies (9) to prefixes of pi "
              "(Queyranne's subset inequalities) although the relaxation imposes it only on the full set. The check "
              "recomputes the ratio against the exact optimum (MILP, confirmed by enumeration) and toggles (9) to "
              "every subset (subsets=True), which makes Algorithm 1 optimal on the instance.")

CLAIMS: list[Claim] = [
    Claim(id="hare2022.fig1.c_makespan", paper=P, location="Section 1, Fig. 1(c)",
          statement="Schedule (c) reduces total job completion time to 8.5 seconds and makespan to 3 seconds.",
          paper_value="(a) 10.5 s / 4.5 s, (b) 9 s, (c) 8.5 s / 3 s", verdict=R,
          diagnosis="Decided by searching the time tables. hetopt sweep hare.fig1_tables (fig1_search.search) "
          "enumerates every table of task times that are multiples of 0.5 s in [0.5, 3] s, for the job structures the "
          "text allows (J1 one round of 2 tasks, J2 one task, J3 rounds of 2 tasks), keeps those where schedule (a) as "
          "described gives 10.5 s / 4.5 s and a one-GPU-per-job schedule (b) gives 9 s, and decides exactly (time-indexed "
          "search, then hetopt's exact solver) whether (c) exists with total 8.5 s = the certified optimum and makespan "
          "3 s. With J3 of two rounds (the old reconstruction, instances/hare2022_fig1.json) none of the 8,900 "
          "candidate tables does: its optimal schedules have makespan 3.5. With J3 of three rounds the table "
          "J1 (1.5, 1.5, 2), J2 (3, 2, 2.5), J3 (0.5, 1, 1) gives all five numbers (instances/hare2022_fig1_all_five.json): "
          "the check recomputes them on it ((a) with J1 on GPU1 + GPU2, (b) J1 -> GPU3, J2 -> GPU2, J3 -> GPU1, (c) the "
          "exact optimum 8.5 and the least makespan of its optimal schedules, 3, by the exact MILP). The printed "
          "numbers are consistent; in that table J1 does not use GPU3 in (c), so the figure's drawing may differ. "
          "(The four numbers on the old reconstruction, which was built to give them, are conformance checks.)",
          check=built(X.fig1_makespan_c), evidence=("hare2022_fig1_all_five", "hare2022_fig1"), sweep="hare.fig1_tables",
          flip=Flip("the old reconstruction's table (J3 of two rounds, instances/hare2022_fig1.json) instead of the "
                    "table found by the search", UX, "stem", "hare2022_fig1")),
    Claim(id="hare2022.fig1.theorem4_and_relaxation", paper=P, location="Section 5.2-5.3 on Fig. 1",
          statement="Hare_Sched_RL is a lower bound of Hare_Sched, and Algorithm 1 is within alpha(2+alpha) of "
          "the optimum.", paper_value="RL <= OPT; ALG/OPT <= alpha(2+alpha)", verdict=R,
          diagnosis="On the Fig. 1 reconstruction the relaxation's certified bound is below the certified optimum "
          "and Algorithm 1 (line 12 as printed) is within the claimed factor; the instance does not exercise the "
          "degenerate relaxation optimum that breaks Theorem 4.",
          check=built(X.fig1_theorem4), evidence=("hare2022_fig1",),
          flip=Flip("the same check on the all-at-zero counterexample instead of the Fig. 1 instance", PE,
                    "stem", "hare2022_theorem4_counterexample")),
    Claim(id="hare2022.theorem4.ratio_all_at_zero", paper=P, location="Section 5.3, Theorem 4",
          statement="Algorithm 1 is an alpha(2+alpha)-approximation.", paper_value="ALG/OPT <= 3 at alpha = 1",
          verdict=PE, diagnosis=_THM4_DIAG + " Instance: all jobs at time 0, a heavy job of length 2, six unit jobs "
          "and a unit sink; ALG/OPT = 3.994, and (k - 1 + 2)/2 for k unit jobs (unbounded).",
          check=built(X.theorem4_counterexample, stem="hare2022_theorem4_counterexample"),
          evidence=("hare2022_theorem4_counterexample",), flip=_SWEEP1),
    Claim(id="hare2022.theorem4.ratio_release_dates", paper=P, location="Section 5.3, Theorem 4",
          statement="Algorithm 1 is an alpha(2+alpha)-approximation (with release dates).",
          paper_value="ALG/OPT <= 3 at alpha = 1", verdict=PE,
          diagnosis=_THM4_DIAG + " Instance: six single-task jobs with release dates 0-3; the heavy job (w = 100) "
          "is released at 3 and Algorithm 1 runs it fifth: ALG/OPT = 3.0704 > 3, so release dates do not prevent "
          "the failure.", check=built(X.theorem4_counterexample, stem="hare2022_theorem4_release_dates"),
          evidence=("hare2022_theorem4_release_dates",), flip=_SWEEP1),
    Claim(id="hare2022.lemma2.chain_all_at_zero", paper=P, location="Section 5.3, Lemma 2 and (22)",
          statement="Lemmas 2-3 give x-tilde + T-tilde^c <= (2 + alpha) H, hence ALG <= alpha(2+alpha) times the "
          "relaxation's value.", paper_value="ALG/RL <= 3 at alpha = 1", verdict=PE,
          diagnosis="The chain of the proof bounds Algorithm 1 by the relaxation's value; RatioReport.chain_broken "
          "reports it apart from a violation of the theorem (theorem_violated). On the all-at-zero instance the "
          "chain breaks (ALG/RL about 4.0) because (10) needs (9) on the prefix of pi, not only on the full set; "
          "with (9) on every subset it holds.",
          check=built(X.lemma2_chain, stem="hare2022_theorem4_counterexample"),
          evidence=("hare2022_theorem4_counterexample",), flip=_SWEEP1),
    Claim(id="hare2022.lemma2.chain_release_dates", paper=P, location="Section 5.3, Lemma 2 and (22)",
          statement="ALG <= alpha(2+alpha) times the relaxation's value (with release dates).",
          paper_value="ALG/RL <= 3 at alpha = 1", verdict=PE,
          diagnosis="Same mechanism as hare2022.lemma2.chain_all_at_zero on the release-date instance: the "
          "relaxation bound (516.362) is close to the optimum (530.719) but Algorithm 1 is 1629.518; the subset "
          "form of (9) restores the chain.",
          check=built(X.lemma2_chain, stem="hare2022_theorem4_release_dates"),
          evidence=("hare2022_theorem4_release_dates",), flip=_SWEEP1),
    Claim(id="hare2022.lemma2.prefix_bound", paper=P, location="Section 5.3, Lemma 2, (10)",
          statement="For any task pi(j) on GPU m, sum_{k <= j} y-tilde_{pi(k),m} T^c_{pi(k),m} <= 2 H_{pi(j)}.",
          paper_value="ratio <= 1", verdict=PE,
          diagnosis="The proof's step (11) applies (9) to the prefix pi(1..j) with Algorithm 1's assignment "
          "y-tilde, but the relaxation imposes (9) only on the full task set of each GPU and only for its own "
          "assignment y-hat. The check computes (10) directly for Algorithm 1 on both bundled one-GPU "
          "instances (where y-tilde = y-hat): the prefix work reaches 6x and 2.25x of 2H with (9) as printed "
          "and at most 1x with (9) on every subset. (On several GPUs the second gap, y-tilde != y-hat, can "
          "break (10) even with the subset form: e.g. sweep instance 13 of `hetopt validate hare`, 1.01.)",
          check=experiment(X.lemma2_prefix), evidence=X._BUNDLED,
          flip=Flip(_SWEEP1.change, R, "instances", "sweep seed 1")),
    Claim(id="hare2022.lemma3.idle_bound", paper=P, location="Section 5.3, Lemma 3, (14)",
          statement="The total idle time before task pi_m(j) on GPU m is at most alpha H_{pi_m(j)}.",
          paper_value="ratio <= 1", verdict=R,
          diagnosis="Computed directly from Algorithm 1's schedule (idle time of the GPU before each task, over "
          "alpha H of the task) on both bundled counterexamples and on eight seeded instances of the "
          "certification sweep (half heterogeneous): the bound holds on all of them, with room (largest ratio "
          "below 0.8). The failure of Theorem 4 comes from Lemma 2, not Lemma 3. The flip removes the lemma's "
          "premise (the list order by increasing H): with the jobs in decreasing order of H the idle time reaches "
          "2.0 alpha H.",
          check=experiment(X.lemma3_idle), evidence=X._BUNDLED,
          flip=Flip("the lemma's premise removed: jobs list-scheduled in decreasing order of H (rounds in order) "
                    "instead of Algorithm 1's increasing H", OP, "order", "reversed")),
    Claim(id="hare2022.fig12.reduction_range", paper=P, location="Section 7.2, Fig. 12",
          statement="Compared with other schemes, Hare reduces total weighted JCT by 47.6% to 75.3%.",
          paper_value="47.6%-75.3%", verdict=RD,
          diagnosis="Every reading of line 12 is run (Outcome.readings): as printed (the paper's, default), 'earliest "
          "start, fastest among ties' (the proof's (21)) and earliest finish (heterogeneity-aware), each against the "
          "baselines of the paper's setting (JCT = C - a, job-level SRTF, AlloX and Sched_Homo online, 5% switching "
          "overhead) with tasks of 100 mini-batches or of one. hetopt's former baseline choices (C instead of C - a, "
          "round-level backfilling SRTF, AlloX / Sched_Homo planning up front, no overhead) are the diagnosis of "
          "hare.section7_causes, no longer readings of the check (issue 30). Our proxy workload uses Gavel's V100/P100/K80 throughputs for Table 2's models "
          "(the testbed's task times and the sampled Google trace are not published). A reading reproduces when all "
          "four reductions are in the range, is data-missing when Hare beats every baseline (the paper's "
          "direction) outside the range, and fails-unexplained when Hare loses to a baseline. Line 12 as printed "
          "loses to SRTF, Sched_Homo or AlloX under every baseline reading (paper's setting 11 / -43 / -62 / -96 %), "
          "the proof's reading under all but one; earliest finish beats every baseline under every baseline "
          "reading (paper's setting 61 / 37 / 27 / 13 %) without reaching the range against all four. The verdict "
          "moves with the reading of line 12, not with the baseline readings.",
          check=built(X.section7_range), sweep="hare.section7_causes",
          direction="Hare's total weighted JCT below every baseline's (reductions of 47.6% to 75.3%)",
          flip=RANGE_FLIP),
    Claim(id="hare2022.fig12.beats_every_baseline", paper=P, location="Section 7.2, Fig. 12 and Fig. 14-15",
          statement="Hare significantly outperforms every other scheme (Gavel_FIFO, SRTF, Sched_Homo, Sched_Allox).",
          paper_value="Hare best in every run", verdict=RD,
          diagnosis="Line 12 as printed sends each task to the earliest-available GPU whatever its speed, although "
          "the paper describes Algorithm 1 as jointly considering hardware heterogeneity. In the paper's setting "
          "(hare.section7_causes), with tasks of 100 mini-batches or of one, the printed rule (the default reading) "
          "and 'earliest start, fastest among ties' (the reading of the proof's (21)) lose to online AlloX; the "
          "heterogeneity-aware reading (earliest finish, algorithm1_ef) beats all four baselines on the mean of "
          "three seeds. Every reading is run (Outcome.readings); the verdict moves with the reading of line 12. "
          "On Gavel's msr trace in the arena (`hetopt sweep hare.arena_readings`: 951 jobs, 36:36:36, 1-3 jobs/hour) "
          "the printed rule takes the first-listed GPU type (K80) on ties, 1.5-2.1x SRTF's average JCT; the best "
          "reading (earliest start then fastest, replanned at every event) is 0.4-1.3% behind SRTF: no reading wins there.",
          check=built(X.section7_direction), sweep="hare.section7_causes",
          flip=Flip("every GPU at the job's geometric-mean speed (h = 0: no heterogeneity to exploit)", UX, "h", 0.0)),
    Claim(id="hare2022.fig16.gap_grows_with_heterogeneity", paper=P, location="Section 7.2, Fig. 16",
          statement="The gaps between Hare and other schemes become bigger as the heterogeneity level increases.",
          paper_value="gap grows with heterogeneity", verdict=RD,
          diagnosis="hare.heterogeneity rescales every job's per-GPU times T -> g (T/g)^h (h = 0 homogeneous, 1 "
          "the workload, 2 twice the spread). With line 12 as printed (the default reading) the reduction *falls* "
          "against every baseline as h grows (a speed-blind rule wastes fast GPUs), the opposite of Fig. 16; with "
          "the heterogeneity-aware earliest-finish reading it grows against Gavel_FIFO, SRTF and Sched_Homo. Both "
          "readings are run (Outcome.readings); the direction depends on the reading of line 12.",
          check=built(X.fig16_heterogeneity), sweep="hare.heterogeneity",
          flip=GAP_FLIP),
    Claim(id="hare2022.section5_1.switching_negligible", paper=P, location="Section 5.1 and Table 3",
          statement="Task switching cost is below 5% of task training time, so it can be ignored in the scheduling "
          "formulation.", paper_value="< 5% of task time", verdict=WL,
          diagnosis="The 5% is a measurement on the authors' testbed (Table 3). What the formulation relies on is "
          "that such an overhead barely moves the schedule's value. Replaying plans with 5% of the mean task time "
          "added at every job switch on a GPU (simulate(switch_overhead=...)), on four workloads the paper's text "
          "allows (its Section 7 load of 0.5 jobs/s, tasks of one mini-batch, a light load of 0.05 jobs/s, a heavy "
          "one of 5 jobs/s; three seeds each, every workload run, Outcome.readings): Algorithm 1's weighted JCT "
          "rises by at most 3.4% under the light load (the claim holds) and by up to 6-14% under the others, "
          "several times what it costs job-level SRTF (at most 1.8%), because Algorithm 1 interleaves jobs task by "
          "task and switches on 70-90% of its task starts (job-level schemes about 20%) and queues amplify each "
          "delay. Whether the overhead can be ignored depends on the load; it is cause (d) of hare.section7_causes.",
          check=built(X.switching_negligible), sweep="hare.section7_causes",
          parameters=(Parameter("switch_cost", 0.05, printed="Section 5.1 and Table 3: the switching cost is 'below 5% "
                                                              "of task training time' (its upper end, 5%)"),),
          flip=Flip("a switching cost of 1% of the mean task time (within the printed 'below 5%')", R,
                    "switch_cost", 0.01)),
    Claim(id="hare2022.fig13.jct_within_25min", paper=P, location="Section 7.2, Fig. 13",
          statement="About 90.5% of jobs complete within 25 minutes by Hare, while Sched_Allox and Sched_Homo "
          "complete only 66.7% and 56.5%.", paper_value="90.5% / 66.7% / 56.5%", verdict=RD,
          diagnosis="A point of the JCT CDF of the testbed trace, which is not published. The check takes the "
          "JCT within which Algorithm 1 completes 90.5% of the jobs of the Section 7 proxy workload and reports the "
          "share of jobs Sched_Allox and Sched_Homo complete within it, under every reading (Outcome.readings): "
          "line 12 as printed or earliest finish, AlloX / Sched_Homo online (the paper's simulator replays "
          "arrivals; default) or planning up front, tasks of 100 or one mini-batch. With line 12 as printed AlloX "
          "completes 92-99% of the jobs in that time under every baseline reading (Hare is not ahead: the proxy "
          "contradicts the paper); with earliest finish the paper's ordering Hare > AlloX > Sched_Homo appears "
          "(AlloX 79-88%, Sched_Homo 61-84%) but the shares stay above the printed ones (data-missing). The "
          "verdict moves with the reading of line 12.",
          check=built(X.fig13_cdf), sweep="hare.section7_causes",
          direction="Hare completes more jobs within the same time than Sched_Allox and Sched_Homo",
          flip=Flip("every GPU at the job's geometric-mean speed (h = 0): the readings of line 12 nearly coincide", DM,
                    "h", 0.0)),
    Claim(id="hare2022.fig15.reduction_300_jobs", paper=P, location="Section 7.3, Fig. 15",
          statement="With 160 GPUs, Hare outperforms the others by 54.6%-80.5% when processing 300 jobs.",
          paper_value="54.6%-80.5%", verdict=RD,
          diagnosis="On 64 V100 + 48 P100 + 48 K80 with 300 jobs of the Section 7 proxy workload, at 0.5, 5 and 50 "
          "arrivals per second (the load of the unpublished sampled Google trace), every combination is run "
          "(Outcome.readings): line 12 as printed, the proof's reading, earliest finish, each against AlloX and "
          "Sched_Homo online (default) or planning up front, at each rate. A combination reproduces when every "
          "reduction is in the range, is data-missing when Hare beats every baseline outside it (the paper's "
          "direction), fails-unexplained otherwise. Line 12 as printed loses to some baseline at every rate (by "
          "47-243% at 0.5 jobs/s: the speed-blind rule sends tasks to long-idle slow GPUs); earliest finish beats "
          "every baseline under load (32 / 25 / 28 / 15% at 5 jobs/s, 41 / 18 / 33 / 12% at 50 jobs/s, online "
          "baselines; the proof's reading only at 5 jobs/s) and ties with Gavel_FIFO and SRTF at 0.5 jobs/s "
          "(-1%, an idle cluster leaves nothing to schedule). No combination reaches the range against all four "
          "baselines. The verdict moves with the reading of line 12 (and, for the other readings, the load). "
          "Formerly slow; 5 s.",
          check=built(X.fig15_300_jobs),
          direction="Hare's total weighted JCT below every baseline's at 300 jobs on 160 GPUs",
          flip=Flip("every GPU at the job's geometric-mean speed (h = 0: no heterogeneity to exploit)", UX, "h", 0.0)),
    Claim(id="hare2022.fig17.job_mix_direction", paper=P, location="Section 7.2, Fig. 17",
          statement="Increasing the proportion of NLP jobs increases the total weighted JCT of all schemes; more "
          "recommendation jobs decrease it.", paper_value="NLP up, Rec. down, every scheme", verdict=R,
          diagnosis="Raising one category from 25% to 55% (the others 15% each) on the Section 7 workload, with "
          "the paper's setting, changes every scheme's weighted JCT (mean over three seeds) in the printed "
          "direction: the NLP proxies (Gavel's LM and Transformer) train slower than the recommendation proxies. "
          "Our generator gives every category the same range of rounds, so only training time differs; the "
          "direction holds anyway. The flip gives every job the same mean training time and no synchronization "
          "(the paper's stated reason, 'NLP jobs involve heavier training workloads', removed): the direction "
          "disappears (NLP 55% x0.86, recommendation 55% x1.12 for some scheme). Whether Hare stays best is "
          "hare2022.fig17.hare_best_every_mix.",
          check=built(X.fig17_job_mix),
          flip=Flip("every job given the same mean training time and no synchronization (category-neutral speed)", OP,
                    "equal_speed", True)),
    Claim(id="hare2022.fig18.network_10_to_25gbps", paper=P, location="Section 7.2, Fig. 18",
          statement="Faster networks accelerate training, but not linearly: Hare's weighted JCT decreases by only "
          "31.2% from 10 Gbps to 25 Gbps.", paper_value="31.2%", verdict=R,
          diagnosis="The decrease is governed by the share of synchronization in a round. With tasks of one "
          "mini-batch, as the paper defines them (Section 1), T^s = 2 x 4 bytes x parameters / bandwidth is "
          "about 60-75% of T^c at 25 Gbps on the Section 7 workload and Algorithm 1 (as printed) gains 29-32% "
          "from 10 to 25 Gbps (mean of three seeds within 4 points of 31.2%). The flip runs tasks of 100 "
          "mini-batches (the simulator's default, outside the paper's definition of a task): synchronization is "
          "under 1% of compute and the network barely matters (-0.1%).",
          check=built(X.fig18_network),
          flip=Flip("tasks of 100 mini-batches instead of one", OP, "iterations_per_task", 100)),
    Claim(id="hare2022.fig14.gavel_fifo_worst", paper=P, location="Section 7.3, Fig. 14",
          statement="Although Gavel_FIFO schedules jobs with the consideration of heterogeneity, it still has the "
          "largest weighted JCT (under every number of GPUs).", paper_value="Gavel_FIFO largest at every GPU count",
          verdict=WL,
          diagnosis="The paper's GPU counts and its 200-job trace are not in the text; the check runs 60 jobs of the "
          "Section 7 proxy workload (three seeds, paper's setting) on 8, 16 and 32 GPUs (4:2:2 V100/P100/K80), each "
          "count a workload (Outcome.readings). Gavel_FIFO has the largest weighted JCT of the four baselines and "
          "Algorithm 1 on 8 and 16 GPUs (2.4-5x Sched_Allox's), not on 32: when the cluster is lightly loaded "
          "FIFO's head-of-line blocking disappears (FIFO within 2% of SRTF and below AlloX and Sched_Homo) and "
          "Algorithm 1 as printed is the worst (2x FIFO). The claim holds under load and fails on a light one; "
          "the flip keeps only the loaded clusters. (Hare best at every count is "
          "hare2022.fig14.hare_best_every_gpu_count.)",
          check=built(X.fig14_fifo_worst),
          flip=Flip("arrival rate x10 (every cluster loaded)", R, "load", 10.0)),
    Claim(id="hare2022.fig16.close_to_homo_low_heterogeneity", paper=P, location="Section 7.3, Fig. 16",
          statement="Hare and Sched_Homo have close performance when there is a low-level heterogeneity, because "
          "intra-job parallelism optimization has the dominant influence in such scenarios.",
          paper_value="Hare close to Sched_Homo at low heterogeneity", verdict=UX,
          diagnosis="The paper's low level is printed: 'for the low heterogeneity level, we only choose V100 GPUs'. "
          "'Close' is not printed; its prior, fixed before the comparison, is the paper's own bound on what can be "
          "ignored (Section 5.1: below 5%). On the Section 7 workload with its 15 GPUs all V100s (three seeds, the "
          "paper's setting) Hare's weighted JCT is 17.4% above Sched_Homo's with line 12 as printed and 11.6% with "
          "earliest finish (the readings are run): not close under either, so the claim fails; no mechanism is "
          "found (the same with every GPU at the job's geometric-mean speed, h = 0 of hare.heterogeneity: 15.7% and "
          "9.2%). Issue 30 corrected the former verdict, which called a 16% gap close and h = 2 'low' (reproduced "
          "against a relative test of half the gap at h = 1). Flip: a light load (0.05 jobs/s instead of the "
          "Section 7 load): the two schemes differ by 1.2% and 0.1%, close (reproduced).",
          check=experiment(Y.close_to_homo), sweep="hare.heterogeneity",
          parameters=(Parameter("low", "v100_only", printed="Section 7.3: 'For the low heterogeneity level, we only "
                                                            "choose V100 GPUs for training'"),),
          flip=Flip("a light load, 0.05 jobs/s (the V100-only cluster kept)", R, "rate", 0.05)),
    Claim(id="hare2022.fig17.hare_best_every_mix", paper=P, location="Section 7.3, Fig. 17",
          statement="Although Hare is affected by the job proportion, it always achieves the best performance.",
          paper_value="Hare best in every job mix", verdict=RD,
          diagnosis="The default mix (25% each) and each category raised to 55% (the others 15%), three seeds, the "
          "paper's setting, every reading of line 12 run (Outcome.readings): as printed (default) Algorithm 1 "
          "loses to a baseline in every mix (down to -157% vs Sched_Allox with 55% recommendation jobs), as does "
          "the proof's reading (-39%); earliest finish beats every baseline in every mix (smallest margin 0.7%, "
          "55% CV). The verdict moves with the reading of line 12, as hare2022.fig12.beats_every_baseline.",
          check=built(X.fig17_best_every_mix),
          flip=Flip("every GPU at the job's geometric-mean speed (h = 0: no heterogeneity to exploit)", UX, "h", 0.0)),
    Claim(id="hare2022.fig14.hare_best_every_gpu_count", paper=P, location="Section 7.3, Fig. 14",
          statement="The weighted JCT of all schemes decreases as more GPUs are used. Hare always outperforms other "
          "schemes under all cases.", paper_value="Hare best at every GPU count",
          verdict=RD,
          diagnosis="60 jobs of the Section 7 proxy workload (three seeds, paper's setting) on 8, 16 and 32 GPUs (the "
          "paper's counts and 200-job trace are not in the text), every reading run (Outcome.readings): line 12 "
          "as printed (default) or earliest finish, tasks of 100 mini-batches or of one (the paper's definition "
          "of a task, Section 1). As printed, AlloX beats Algorithm 1 at every count with either granularity "
          "(AlloX / Hare 0.48-0.78); earliest finish with tasks of 100 mini-batches loses to AlloX on 8 GPUs "
          "(0.88); earliest finish with tasks of one mini-batch is best at every count. The verdict moves with "
          "the reading of line 12 (and the task granularity). The next sentence, 'Sched_Allox is slower than Hare by about 2x', "
          "is not a claim of the ledger: AlloX / Hare is 1.23-1.32 in the one reading where Hare is best and below "
          "1.5 in every reading, and no toggle explains the gap yet.",
          check=built(X.fig14_hare_best),
          flip=BEST_FLIP),
]

CLAIMS += [
    Claim(id="hare2022.fig14.allox_about_twice_hare", paper=P, location="Section 7.3, Fig. 14",
          statement="Sched_Allox is slower than Hare by about 2x, but it is still significantly faster than others.",
          paper_value="AlloX / Hare about 2x", verdict=UX,
          diagnosis="Measured by issue 30 (the card had left it out for want of a mechanism: a measured contradiction "
          "is a claim). 60 jobs of the Section 7 proxy workload on 8, 16 and 32 GPUs, three seeds, the paper's "
          "setting, every reading of line 12 and both task granularities run; 'about 2x' read as within 20% of 2 (a "
          "prior). Sched_Allox's weighted JCT over Hare's is 0.47-0.78 with line 12 as printed and 0.88-1.50 with "
          "earliest finish: AlloX is never twice as slow. Candidates measured: h = 2 (0.12-1.22), 20 jobs, a light "
          "or a heavy load (hare.section7_causes). Flip: a light load (arrival rate x0.05): earliest finish gives "
          "AlloX about twice as slow at every count under one granularity, line 12 as printed under none "
          "(depends-on-reading).", check=experiment(Y.allox_2x), sweep="hare.section7_causes",
          flip=Flip("a light load (arrival rate x0.05)", RD, "load", 0.05)),
    Claim(id="hare2022.fig15.gaps_grow_with_jobs", paper=P, location="Section 7.3, Fig. 15",
          statement="As the number of jobs grows, the total weighted JCT of every scheme grows and the gaps between "
          "Hare and the other schemes grow.", paper_value="gaps grow with the number of jobs", verdict=UX,
          diagnosis="Measured by issue 30 (left out before for want of a mechanism). 20, 40 and 60 jobs of the "
          "Section 7 proxy workload on its 15 GPUs, three seeds, the paper's setting, every reading of line 12 and "
          "both task granularities: a reading reproduces when Hare's reduction against every baseline grows from 20 "
          "to 60 jobs. It does under none: as printed the reductions fall against three baselines; with earliest "
          "finish and tasks of one mini-batch they grow against Gavel_FIFO, SRTF and Sched_Homo but not against "
          "Sched_Allox (the card's 28 -> 24%). Candidates measured: h = 0 and 2, arrival rates x0.1 to x10. Flip: "
          "AlloX and Sched_Homo planning up front instead of online: earliest finish with tasks of one mini-batch "
          "then gains on all four as the jobs grow, line 12 as printed does not (depends-on-reading).",
          check=experiment(Y.gaps_grow_with_jobs), sweep="hare.section7_causes", flip=GAPS_FLIP),
    Claim(id="hare2022.fig19.batch_size_only_homo", paper=P, location="Section 7.3, Fig. 19",
          statement="Batch size has no big influence on any scheme except Sched_Homo (a larger batch leaves Sched_Homo "
          "more GPU idle time).", paper_value="only Sched_Homo moves with the batch size", verdict=UX,
          diagnosis="Measured by issue 30 (left out before for want of a mechanism). The batch size x b modelled as "
          "every task's compute time x b and the rounds / b (b = 0.5 and 2), tasks of 100 mini-batches, three seeds, "
          "the paper's setting; 'no big influence' read as at most 10% (a prior). Sched_Homo moves by 6% and 3%, "
          "Algorithm 1 as printed by 32% and 28%, Gavel_FIFO by 12%: the opposite of the claim. With tasks of one "
          "mini-batch every scheme moves by 30-70%. Candidates measured: h = 0.5 to 2, arrival rates x0.1 to x10, "
          "tasks of 10 mini-batches, AlloX and Sched_Homo planning up front. Flip: tasks of 1,000 mini-batches "
          "(synchronization negligible): with earliest finish Sched_Homo moves by 13% and 11% and every other scheme "
          "by at most 8% (the paper's statement), with line 12 as printed Algorithm 1 still moves by 17% and 32% "
          "(depends-on-reading).", check=experiment(Y.batch_size_only_homo), sweep="hare.section7_causes", flip=BATCH_FLIP),
]

_FIG1_REF = ("instances/hare2022_fig1.json, the reconstruction of Fig. 1's table built so that (a), (b) and (c) give "
             "the text's numbers (its description says how)")
#: Checks that cannot move but by a defect of ours: the Fig. 1 reconstruction gives the numbers it was built for
#: (issue 21 moved them out of the claims; whether a table gives all five printed numbers is hare2022.fig1.c_makespan).
CONFORMANCE: list[Conformance] = [
    Conformance(id="hare2022.fig1.a_total_jct", paper=P,
                statement="Schedule (a) as the text describes it (J2 alone on GPU1, J3 on GPU2 + GPU3, then J1 on two "
                "GPUs) has total JCT 10.5 s on the reconstruction.", check=X.fig1_value("a", "total"), reference=_FIG1_REF),
    Conformance(id="hare2022.fig1.a_makespan", paper=P,
                statement="Schedule (a) has makespan 4.5 s on the reconstruction.", check=X.fig1_value("a", "makespan"),
                reference=_FIG1_REF),
    Conformance(id="hare2022.fig1.b_total_jct", paper=P,
                statement="Schedule (b), one dedicated GPU per job, has total JCT 9 s on the reconstruction.",
                check=X.fig1_value("b", "total"), reference=_FIG1_REF),
    Conformance(id="hare2022.fig1.c_total_jct", paper=P,
                statement="The certified optimum of the reconstruction is 8.5 s, the total of schedule (c).",
                check=X.fig1_value("c", "total"), reference=_FIG1_REF),
]

SWEEPS: dict[str, Sweep] = {
    "hare.section7_causes": Sweep(
        name="hare.section7_causes", func=_sweeps.section7_causes,
        description="Algorithm 1's reduction of weighted JCT vs each baseline with each of the four causes toggled "
                    "(C vs C - a, SRTF level, online baselines, switching overhead), for each reading of line 12",
        claims=("hare2022.fig12.reduction_range", "hare2022.fig12.beats_every_baseline",
                "hare2022.section5_1.switching_negligible", "hare2022.fig14.allox_about_twice_hare",
                "hare2022.fig15.gaps_grow_with_jobs", "hare2022.fig19.batch_size_only_homo")),
    "hare.heterogeneity": Sweep(
        name="hare.heterogeneity", func=_sweeps.heterogeneity,
        description="Algorithm 1's reduction vs each baseline against speed heterogeneity h (T -> g (T/g)^h)",
        claims=("hare2022.fig16.gap_grows_with_heterogeneity", "hare2022.fig16.close_to_homo_low_heterogeneity")),
    "hare.arena_readings": Sweep(
        name="hare.arena_readings", func=_sweeps.arena_readings,
        description="Algorithm 1 (hare_lp) against FIFO and SRTF in the arena on Gavel's msr trace, for each reading "
                    "of line 12 and each replanning rule (arrivals, or arrivals and completions)",
        claims=("hare2022.fig12.beats_every_baseline",)),
    "hare.fig1_tables": Sweep(
        name="hare.fig1_tables", func=_sweeps.fig1_tables,
        description="Fig. 1 time tables of 0.5 s multiples giving all five printed numbers, per job structure "
                    "(exhaustive where none is found)",
        claims=("hare2022.fig1.c_makespan",)),
}
