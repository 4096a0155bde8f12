"""The numbers Sultana et al. print (Hadar / HadarE).

The claims of :mod:`hetopt.hadar.experiments.claims` compare hetopt's runs with them.

Pairs are ``(AWS cluster, lab testbed)`` (Section VI); ratios are "x times" (speedups of the TTD
or of the mean JCT, gains of the CRU); utilization fractions are in [0, 1].
"""

from __future__ import annotations

__all__ = [
    "MOTIVATING_GAVEL_ROUNDS", "MOTIVATING_HADAR_ROUNDS", "MOTIVATING_HADAR_ROUND1_CRU",
    "MOTIVATING_GAVEL_ROUND1_CRU", "MOTIVATING_GAVEL_PROCESS_CRU", "MOTIVATING_HADAR_PROCESS_CRU",
    "TTD_SPEEDUP_HADAR", "TTD_SPEEDUP_HADARE", "TTD_SPEEDUP_HADARE_VS_HADAR", "CRU_GAIN_HADAR", "CRU_GAIN_HADARE",
    "M5_SPEEDUP_HADAR", "JCT_GAIN_HADAR", "CRU_GAIN_HADARE_VS_HADAR", "JCT_GAIN_HADARE_VS_HADAR",
    "TRACE_JOBS", "TRACE_TTD_HOURS", "TRACE_TTD_SPEEDUP", "TRACE_MEDIAN_SPEEDUP", "YARN_CS_TTD_HOURS",
    "SCALABILITY_JOBS", "SCALABILITY_SECONDS", "JCT_GAIN_HADARE", "M5_JCT_GAIN_HADAR",
    "ROUNDS_CHANGED_FRACTION",
]

# ---------------------------------------------------------------- Section II-A, Fig. 1 (motivating example)
#: Gavel completes the three jobs in six rounds (Fig. 1(a)).
MOTIVATING_GAVEL_ROUNDS = 6
#: Hadar needs one round fewer (Fig. 1(b)).
MOTIVATING_HADAR_ROUNDS = 5
#: Hadar's CRU in the first round "approaches 100%".
MOTIVATING_HADAR_ROUND1_CRU = 1.0
#: Gavel's CRU in the first round: 83% (J1 on 3 P100, J2 on 2 V100: 5 of 6 GPUs).
MOTIVATING_GAVEL_ROUND1_CRU = 5 / 6
#: Gavel's CRU over the entire process, "about 78%".
MOTIVATING_GAVEL_PROCESS_CRU = 0.78
#: Hadar's CRU over the entire process, "some 87%".
MOTIVATING_HADAR_PROCESS_CRU = 0.87

# ---------------------------------------------------------------- Sections V-VI (physical clusters), abstract
#: Hadar's mean TTD speedup over Gavel across the seven mixes (Fig. 9).
TTD_SPEEDUP_HADAR = (1.17, 1.16)
#: HadarE's mean TTD speedup over Gavel (Fig. 9; one number for both clusters).
TTD_SPEEDUP_HADARE = (2.12, 2.12)
#: HadarE's mean TTD speedup over Hadar (Section VI-C; one number for both clusters).
TTD_SPEEDUP_HADARE_VS_HADAR = (1.79, 1.79)
#: Hadar's CRU gain over Gavel (Fig. 8, abstract).
CRU_GAIN_HADAR = (1.20, 1.21)
#: HadarE's CRU gain over Gavel (Fig. 8).
CRU_GAIN_HADARE = (1.56, 1.62)
#: Mix M-5's TTD speedup of Hadar over Gavel (Fig. 9; Gavel "about 4200 s (3300 s)", Hadar 3900 s (2800 s)).
M5_SPEEDUP_HADAR = (1.18, 1.15)
#: Hadar's mean JCT is this many times shorter than Gavel's (Fig. 10).
JCT_GAIN_HADAR = (1.17, 1.23)
#: HadarE raises the CRU over Hadar by 30% (AWS) / 34% (testbed) (abstract, Section I).
CRU_GAIN_HADARE_VS_HADAR = (1.30, 1.34)
#: HadarE improves the mean JCT over Hadar by 90% (AWS) / 124% (testbed) (abstract, Section I).
JCT_GAIN_HADARE_VS_HADAR = (1.90, 2.24)

#: HadarE's mean JCT reduction against Gavel (Section VI-C, Fig. 10).
JCT_GAIN_HADARE = (2.23, 2.76)
#: Mix M-5: Hadar's JCT is this many times smaller than Gavel's (Section VI-C, Fig. 10).
M5_JCT_GAIN_HADAR = (1.23, 1.43)
#: Section IV-B: "only 30% of scheduling rounds require changes to job resource allocations on average".
ROUNDS_CHANGED_FRACTION = 0.30

# ---------------------------------------------------------------- Section IV (trace-driven simulation), Figs. 3-5
#: Jobs of the (Microsoft) trace.
TRACE_JOBS = 480
#: Hadar completes the trace's jobs in 40 hours (Fig. 4).
TRACE_TTD_HOURS = 40.0
#: YARN-CS's TTD on the trace (Fig. 4).
YARN_CS_TTD_HOURS = 68.0
#: Hadar's TTD is this many times shorter than each baseline's (Fig. 4).
TRACE_TTD_SPEEDUP = {"gavel": 1.21, "tiresias": 1.35, "yarn_cs": 1.67}
#: The time to complete 50% of the jobs is this many times shorter under Hadar (Fig. 4).
TRACE_MEDIAN_SPEEDUP = {"gavel": 1.20, "tiresias": 1.40}
#: Fig. 5: with about this many jobs ...
SCALABILITY_JOBS = 2000
#: ... Hadar schedules a round in less than 7 minutes.
SCALABILITY_SECONDS = 7 * 60.0
