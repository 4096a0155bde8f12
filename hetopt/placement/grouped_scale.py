"""The units and the clipping of the grouped model of P1 (:class:`GroupedScale`) and its constants.

:meth:`GroupedScale.plain` gives the exact model of :func:`~hetopt.placement.grouped.build_p1_grouped`;
:meth:`GroupedScale.around` the scale of ``solve_exact``'s masters, centred on an achieved value U
and clipped into the range HiGHS and SCIP handle, always in the direction that keeps the model a
relaxation of P1 among the assignments worth less than ``CAP`` U. The rules and their proofs: the
card (models/liu2024-placement.md, "Exact engines at every magnitude").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .instance import PlacementInstance

if TYPE_CHECKING:
    from .exact_bounds import SizeBounds

__all__ = ["GroupedScale", "throughput_range", "R", "Q_FLOOR", "COST_FLOOR", "CAP", "WEIGHT"]
#: Widest ratio H_i / L_i of the throughputs a clipped model resolves (cut slopes within [1 / R, R]).
R = 1e7
#: Throughput coefficients q = rho / nu of the clipped model are rounded up to at least this.
Q_FLOOR = 1e-8
#: Communication coefficients (objective units) below this are dropped.
COST_FLOOR = 1e-10
#: Assignments worth more than CAP times the incumbent are not represented faithfully (they cannot be optimal).
CAP = 2.0
#: The clipped model's objective is WEIGHT times average JCT / unit, so that the solvers' absolute
#: tolerances (1e-9 on the gap, 1e-7 on reduced costs) are 1e-12 and 1e-10 of the incumbent's value.
WEIGHT = 1e3


def throughput_range(inst: PlacementInstance, bounds: SizeBounds | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Least and largest V_i (samples/s) of every job: one slowest worker to its K - S + 1 fastest, or ``bounds``'s."""
    S, K = inst.n_jobs, inst.n_workers
    lo = inst.throughput.min(axis=1).astype(float)
    hi = (-np.sort(-inst.throughput, axis=1))[:, : K - S + 1].sum(axis=1)
    if bounds is not None:
        sizes = [bounds.sizes(i) for i in range(S)]
        lo = np.maximum(lo, np.array([bounds.vmin[i, sizes[i] - 1].min() for i in range(S)]))
        hi = np.minimum(hi, np.array([bounds.vtop[i, sizes[i] - 1].max() for i in range(S)]) * (1 + 1e-9))
    return lo, np.maximum(hi, lo)


@dataclass(frozen=True)
class GroupedScale:
    """Units of :func:`build_master`: objective unit (s), per-job throughput unit (samples/s), clipping.

    Attributes
    ----------
    unit : float
        Seconds per objective unit (the model minimizes average JCT / unit).
    nu : ndarray, shape (S,)
        Samples/s per unit of job i's throughput (``Vn_i = V_i / nu_i``).
    clip : bool
        Clip every coefficient into the solvers' safe range (the card); False: the exact model.
    w_lo, w_hi : ndarray, shape (S,)
        The resolved throughputs L_i / nu_i and H_i / nu_i (0 and inf without clipping).
    """

    unit: float
    nu: np.ndarray
    clip: bool
    w_lo: np.ndarray
    w_hi: np.ndarray

    @classmethod
    def plain(cls, inst: PlacementInstance) -> GroupedScale:
        """The exact model in seconds: ``unit`` 1, ``nu_i = max_k rho_{i,k}`` (no clipping)."""
        S = inst.n_jobs
        return cls(unit=1.0, nu=inst.throughput.max(axis=1).astype(float), clip=False, w_lo=np.zeros(S),
                   w_hi=np.full(S, np.inf))

    @classmethod
    def around(cls, inst: PlacementInstance, value: float, bounds: SizeBounds | None = None) -> GroupedScale:
        """The clipped units for an achieved average JCT ``value`` (the card), over ``bounds``'s throughputs."""
        vlo, vhi = throughput_range(inst, bounds)
        c = inst.epochs * inst.dataset_size / (inst.n_jobs * value)
        L = np.minimum(np.maximum(vlo, c / CAP), vhi)
        H = np.maximum(np.minimum(vhi, L * R), L)
        nu = np.sqrt(L * H)
        return cls(unit=float(value), nu=nu, clip=True, w_lo=L / nu, w_hi=H / nu)

    @property
    def weight(self) -> float:
        """The objective's factor: ``WEIGHT`` when clipped, else 1 (the objective is weight x average JCT / unit)."""
        return WEIGHT if self.clip else 1.0

    def objective_weights(self, inst: PlacementInstance) -> np.ndarray:
        """``s_i = T_i |Pi_i| / (S unit nu_i)``: the objective term of job i is ``s_i thn_i``.

        Clipped: 0 for a job whose term cannot reach ``COST_FLOOR`` (``s_i / w_lo_i`` is its largest value).
        """
        s = inst.epochs * inst.dataset_size / (inst.n_jobs * self.unit * self.nu)
        return np.where(s / self.w_lo < COST_FLOOR, 0.0, s) if self.clip else s

    def q_cap(self) -> np.ndarray:
        """Per job, the cap of the throughput coefficients (``2 w_hi``; inf without clipping)."""
        return 2 * self.w_hi if self.clip else np.full(len(self.nu), np.inf)

    def throughput_coefficients(self, inst: PlacementInstance, rep: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """``q[i, g] = rho_{i,g} / nu_i`` (clipped) and which jobs have a capped coefficient."""
        q = inst.throughput[:, rep] / self.nu[:, None]
        if not self.clip:
            return q, np.zeros(inst.n_jobs, dtype=bool)
        cap = self.q_cap()[:, None]
        capped = (q > cap).any(axis=1)
        return np.minimum(np.maximum(q, Q_FLOOR), cap), capped

    def comm_coefficients(self, inst: PlacementInstance, i: int, sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(b, beta) of (6) for job i and counts ``sizes``: lc_i >= b_n size_in + beta_n size_spans_in (objective units)."""
        n = np.asarray(sizes, dtype=float)
        base = inst.epochs[i] * inst.comm_coefficient[i] * (n - 1) / n / (inst.n_jobs * self.unit)
        inv_intra = float(inst.inverse_rate(False))
        inv_inter = float(inst.inverse_rate(True)) if inst.multi_node else inv_intra
        b, beta = base * inv_intra, base * (inv_inter - inv_intra)
        if self.clip:
            b = np.where(b < COST_FLOOR, 0.0, np.minimum(b, CAP))
            beta = np.where(beta < COST_FLOOR, 0.0, np.minimum(beta, CAP - b))
        return b, beta
