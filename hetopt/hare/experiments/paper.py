"""Numbers printed in the Hare paper (Chen et al., HPDC 2022), as the claims compare with them.

Only the paper's own numbers live here; what hetopt computes lives in the experiments
(:mod:`hetopt.hare.experiments.checks`, :mod:`hetopt.hare.experiments.section7`, :mod:`hetopt.hare.experiments.sweeps`,
:mod:`hetopt.hare.experiments.fig1`).
"""

from __future__ import annotations

__all__ = ["FIG1_TOTAL", "FIG1_MAKESPAN", "FIG1_OPTIMUM", "PAPER_RANGE", "FIG13_SHARES", "FIG15_RANGE", "FIG18_DECREASE", "THEOREM4_LIMIT"]

#: Fig. 1 (Section 1): the total JCT in seconds of schedules (a), (b) and (c).
FIG1_TOTAL: dict[str, float] = {"a": 10.5, "b": 9.0, "c": 8.5}
#: Fig. 1: the makespans in seconds the text gives, of schedules (a) and (c) ((b)'s is not given).
FIG1_MAKESPAN: dict[str, float] = {"a": 4.5, "c": 3.0}
#: Fig. 1(c): the total JCT of Hare's schedule, the optimum of the toy example.
FIG1_OPTIMUM = 8.5
#: Section 7.2 (Fig. 12): Hare reduces the total weighted JCT by 47.6% to 75.3%, as fractions.
PAPER_RANGE = (0.476, 0.753)
#: Fig. 15: the reductions at 300 jobs on 160 GPUs, 54.6% to 80.5%, as fractions.
FIG15_RANGE = (0.546, 0.805)
#: Fig. 13: at the JCT within which Hare completes 90.5% of jobs, the shares completed by
#: Sched_Allox (66.7%) and Sched_Homo (56.5%), as fractions.
FIG13_SHARES = {"quantile": 0.905, "sched_allox": 0.667, "sched_homo": 0.565}
#: Fig. 18: Hare's weighted JCT decreases by 31.2% from 10 Gbps to 25 Gbps.
FIG18_DECREASE = 0.312
#: Theorem 4: the approximation factor alpha (2 + alpha) at alpha = 1 (one GPU type).
THEOREM4_LIMIT = 3.0
