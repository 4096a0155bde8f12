"""The numbers Bao et al. (INFOCOM 2018) print, as the claims of :mod:`hetopt.oasis.experiments.claims` compare with them.

Only what the paper states is here; the settings hetopt chooses where the paper is silent (the
instances of each check, the seeds) live beside the checks in :mod:`hetopt.oasis.experiments.claims`.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, "Online Job Scheduling in Distributed Machine Learning
Clusters", IEEE INFOCOM 2018, Sections IV-V.
"""

from __future__ import annotations

__all__ = ["FIG3_SLOTS", "FIG3_SERVERS", "FIG4_JOBS_PER_CLASS", "FIG4_SLOTS", "FIG5_JOBS", "FIG5_SLOTS",
           "FIG5_RATIO_RANGE", "OFFLINE_SOLVER_TIME", "DECISION_TIME_LIMIT", "DECISION_SLOTS", "DECISION_SERVERS",
           "LARGEST_CHUNKS", "LARGEST_EPOCHS", "TESTBED_SERVERS", "TESTBED_JOBS", "TESTBED_SLOTS",
           "TESTBED_SLOT_MINUTES", "COMPETITIVE_RATIO"]

#: Fig. 3 (Section V-A): T = 300 slots, H = K = 50 servers of each kind.
FIG3_SLOTS = 300
FIG3_SERVERS = 50
#: Fig. 4: 100 time-sensitive and 100 time-critical jobs, T = 100.
FIG4_JOBS_PER_CLASS = 100
FIG4_SLOTS = 100
#: Fig. 5: 10 jobs, T = 10; OPT / OASiS "around 1.1 to 1.5".
FIG5_JOBS = 10
FIG5_SLOTS = 10
FIG5_RATIO_RANGE = (1.1, 1.5)
#: Fig. 5: the solver time the paper reports for the offline optimum of 10 jobs.
OFFLINE_SOLVER_TIME = "2 days"
#: Footnote 5: OASiS decides a job in less than 1 s with 100 slots and 80 servers.
DECISION_TIME_LIMIT = 1.0
DECISION_SLOTS = 100
DECISION_SERVERS = 80
#: Section V-A: the largest job (N_i in [5, 100], E_i in [50, 200]).
LARGEST_CHUNKS = 100
LARGEST_EPOCHS = 200
#: Section V-B (Figs. 8-9): 9 servers, 12 jobs, 10 slots of 20 minutes.
TESTBED_SERVERS = 9
TESTBED_JOBS = 12
TESTBED_SLOTS = 10
TESTBED_SLOT_MINUTES = 20
#: Theorem 4: OASiS is 2 alpha-competitive (the factor in front of alpha).
COMPETITIVE_RATIO = "2 alpha"
