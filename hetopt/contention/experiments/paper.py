"""The numbers Wang et al. print (Tables IV and V), read by the claims and by ``hetopt bench contention``.

References
----------
Q. Wang, S. Shi, C. Wang, X. Chu, "Communication Contention Aware Scheduling of Multiple
Deep Learning Training Jobs", arXiv:2002.10105, 2020, Section V-B, Tables IV and V.
"""

from __future__ import annotations

__all__ = ["PAPER_TABLE_V", "PAPER_TABLE_IV", "PAPER_AVG_JCT"]

#: Table V (LWF-1): policy -> (average GPU utilisation, average JCT s, median JCT s, 95th JCT s).
PAPER_TABLE_V = {"srsf1": (0.3065, 1374.84, 459.0, 6283.1), "srsf2": (0.2595, 1734.74, 477.0, 7658.6),
                 "srsf3": (0.2514, 1750.9, 520.7, 7578.7), "ada": (0.4278, 1098.57, 487.2, 4024.0)}
#: Table IV (Ada-SRSF): placement -> (average GPU utilisation, average JCT s, median JCT s, 95th JCT s).
PAPER_TABLE_IV = {"rand": (0.1952, 2881.6, 680.3, 8910.9), "ff": (0.2676, 1921.1, 766.1, 6224.6),
                  "ls": (0.2514, 2282.41, 749.9, 7224.9), "lwf1": (0.4278, 1098.57, 487.2, 4024.0)}
#: Average JCT (s) of Tables IV-V by the row names of ``hetopt bench contention``.
PAPER_AVG_JCT = {"SRSF(1)": PAPER_TABLE_V["srsf1"][1], "SRSF(2)": PAPER_TABLE_V["srsf2"][1],
                 "SRSF(3)": PAPER_TABLE_V["srsf3"][1], "Ada-SRSF": PAPER_TABLE_V["ada"][1],
                 "FF+Ada": PAPER_TABLE_IV["ff"][1], "LS+Ada": PAPER_TABLE_IV["ls"][1],
                 "RAND+Ada": PAPER_TABLE_IV["rand"][1]}
