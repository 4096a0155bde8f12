"""Numbers printed in the papers that the Gavel claims check (nothing here is computed).

Gavel's own paper prints no number the claims compare with: its policy claims are checked
against the optimum of Gavel's code (``scheduler/policies/*.py``), recomputed by independent LPs
(:mod:`hetopt.gavel.experiments.checks`).  The numbers below are those Hadar (Sultana et al., IPDPS
2024) prints for Gavel in its motivating example (Section II-A, Fig. 1(a)).
"""

from __future__ import annotations

import numpy as np

__all__ = ["HADAR_Y", "HADAR_BUSY", "HADAR_ROUNDS", "HADAR_FIRST_ROUND"]

#: Gavel's allocation as printed in Hadar, Section II-A (rows J1..J3, columns V100, P100, K80).
HADAR_Y = np.array([[0.6, 0.4, 0.0], [0.2, 0.6, 0.2], [0.2, 0.0, 0.8]])
#: Busy fractions of the first two Gavel rounds stated in Hadar's Section II-A.
HADAR_BUSY = (0.83, 0.67)
#: Rounds Gavel needs to finish the three jobs of Fig. 1(a).
HADAR_ROUNDS = 6
#: The first round drawn in Fig. 1(a): job index -> GPU type index (J1 on the P100, J2 on the V100).
HADAR_FIRST_ROUND = {0: 1, 1: 0}
