"""The numbers Liu et al. print (IEEE TPDS 35(6), 2024), as printed, for the claims of :mod:`hetopt.placement.experiments.claims`.

Units: seconds for JCTs, samples/s for throughputs, percent for losses and reductions.  The
throughputs the instance generator uses (Table II's four published values, Table III's jobs)
stay with the generator in :mod:`hetopt.placement.generators`: the model needs them.
"""

from __future__ import annotations

__all__ = ["TABLE2_CATEGORIES", "TABLE2_OPTIMUM", "TABLE2_OPTIMUM_THROUGHPUT", "TABLE2_VGG19_1_3", "TABLE2_VGG19_SETS",
           "HAS_TABLE2",
           "HAS_LOSS_TABLE2", "LAS_TABLE2", "LAS_LOSS", "PSI_SIZES", "JPS_LOSS", "OPTIMUS_LB_LOSS", "FIG14_HAS",
           "FIG14_JPS", "FIG14_OPTIMUS", "FAIRNESS", "RESET_JCT", "RESET_MAKESPAN", "HAS_VS_GAVEL_JCT",
           "HAS_VS_GAVEL_MAKESPAN", "TABLE4_5_TIMES"]

#: Table II: category -> (throughput of ResNet-18, throughput of VGG-19, average JCT) under Algorithm 2.
TABLE2_CATEGORIES = {(3, 1): (1194, 1754, 11225.8), (2, 2): (550, 3508, 19607.1), (1, 3): (275, 4392, 37502.1)}
#: Table II, row Optimal (exhaustive search): average JCT and the two jobs' throughputs.
TABLE2_OPTIMUM = 10592
TABLE2_OPTIMUM_THROUGHPUT = [1288, 1768]
#: Table II, row {1, 3}: the throughput printed for VGG-19's worker set {T4, T4, V100}.
TABLE2_VGG19_1_3 = 4392
#: Table II: VGG-19's printed worker set (indices of the workers T4, T4, V100, V100) and throughput, by row.
TABLE2_VGG19_SETS = {"3_1": ((2,), 1754), "2_2": ((2, 3), 3508), "1_3": ((0, 1, 2), 4392)}
#: Section V-B: HAS keeps category {3, 1}, 11,225.8 s, a loss of 6.0 %.
HAS_TABLE2 = 11225.8
HAS_LOSS_TABLE2 = 6.0
#: Section IV-A: LAS gives 12,776.8 s, a loss of 20.6 %.
LAS_TABLE2 = 12776.8
LAS_LOSS = 20.6
#: Section V-B and Table IV: |Psi| = C(K-1, S-1) for (S, K).
PSI_SIZES = {(4, 15): 364, (4, 30): 3654, (3, 15): 91, (5, 15): 1001}
#: Fig. 9: JPS (N = 60) loss to exhaustive search, by K.
JPS_LOSS = {15: 0.54, 30: 2.04}
#: Fig. 9: Optimus-LB loss (K = 15 and 30).
OPTIMUS_LB_LOSS = 15.1
#: Fig. 14 (H = 1.1-1.26): HAS loss range, JPS loss range, Optimus loss from H = 1.1 to H = 1.26.
FIG14_HAS = (0.0, 1.28)
FIG14_JPS = (0.49, 1.9)
FIG14_OPTIMUS = (42.09, 18.07)
#: Fig. 14: JPS (N = 60) below Optimus in average JCT, from H = 1.1 to H = 1.26.
FIG14_JPS_VS_OPTIMUS = (41.4, 15.87)
#: Fig. 10: fairness degree (33) of HAS and JPS.
FAIRNESS = (0.779, 0.829)
#: Fig. 17: reductions by reset events against static policies (average JCT, makespan).
RESET_JCT = (17.01, 41.67)
RESET_MAKESPAN = (27.34, 44.35)
#: Fig. 17: HAS with reset events against Gavel (average JCT, makespan reductions).
HAS_VS_GAVEL_JCT = 21.2
HAS_VS_GAVEL_MAKESPAN = 71.3
#: Tables IV-V (S = 4): seconds of exhaustive search, HAS and JPS (N = 40) at the sizes printed.
TABLE4_5_TIMES = {"exhaustive": {15: 47.9, 30: 2.21 * 3600}, "has": {15: 1.07, 30: 55.5, 100: 12.98 * 3600},
                  "jps N=40": {50: 2.1, 300: 114.6}}
