"""Normalized units of the floating-point models of Hare_Sched (MILP, relaxation, LP bounds).

Times over ``tau`` and weights over ``omega``, both powers of two, so that the solvers' absolute
tolerances do not depend on the data's magnitude (issue 25; the card's "Magnitudes, certificates
and guards").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..instance import HareInstance

__all__ = ["Normalization", "normalization", "normalized_instance", "TARGET_OBJECTIVE"]


@dataclass(frozen=True)
class Normalization:
    """Units of the floating-point models (MILP, relaxation): ``tau`` seconds and ``omega`` weight units.

    Both are powers of two, so dividing the data by them is exact in binary floating point and
    the normalized instance is the true one in other units: its optimum is the true one over
    ``tau omega``, start times scale by ``tau``.

    Attributes
    ----------
    time : float
        ``tau``: the power of two nearest the median compute time.
    weight : float
        ``omega``: the power of two that puts the trivial bound near :data:`TARGET_OBJECTIVE`.
    """

    time: float
    weight: float

    @property
    def objective(self) -> float:
        """``tau omega``: a normalized objective or bound times this is in the instance's units."""
        return self.time * self.weight
#: Normalized units put the trivial bound ``sum_n w_n (a_n + |R_n| d_n)`` near this.
TARGET_OBJECTIVE = 1e3


def normalization(inst: HareInstance) -> Normalization:
    """The units of :func:`normalized_instance`: times of order 1, objective of order :data:`TARGET_OBJECTIVE`.

    HiGHS and SCIP compare with absolute tolerances (feasibility ``1e-7``, HiGHS's ``mip_abs_gap``
    ``1e-6`` and its MIP feasibility tolerance ``1e-6`` on objective improvements), so data of
    ``1e-6`` were solved within their tolerances, not to optimality, and a bound came back above
    the optimum (issue 25).  In these units the model's magnitudes do not depend on the instance's
    (invariance tested at x1e6, x1e-6 and mixed magnitudes), and an objective of order 1e3 puts
    those absolute tolerances near 1e-9 relative: with the objective of order 1 (weights over the
    largest), HiGHS stopped 1.1e-6 above the optimum of an instance with weights 1 and 3e4
    (hypothesis test).

    Parameters
    ----------
    inst : HareInstance
        The instance.

    Returns
    -------
    Normalization
    """
    tau = 2.0 ** round(math.log2(float(np.median(inst.compute_time))))
    trivial = float(inst.weight @ inst.completion_lower_bound)
    omega = 2.0 ** round(math.log2(trivial / (tau * TARGET_OBJECTIVE)))
    return Normalization(time=tau, weight=omega)


def normalized_instance(inst: HareInstance, norm: Normalization) -> HareInstance:
    """``inst`` with times divided by ``tau`` and weights by ``omega`` (exact: powers of two).

    Parameters
    ----------
    inst : HareInstance
        The instance.
    norm : Normalization
        Its units (:func:`normalization`).

    Returns
    -------
    HareInstance
    """
    return inst.rescaled(arrival=inst.arrival / norm.time, weight=inst.weight / norm.weight,
                         compute_time=inst.compute_time / norm.time, sync_time=inst.sync_time / norm.time)
