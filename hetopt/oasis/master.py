"""The restricted master LP of (14)-(17) held in one ``highspy`` model, columns added in place.

The LP relaxation of (14) over the schedules generated so far: ``max sum_l f_il x_il`` subject
to the capacity rows (15)-(16) (one per (t, server, r), all created up front, empty until a
schedule uses them) and (17) ``sum_l x_il <= 1``.  It is solved as a minimization of
``-f x`` so that HiGHS's row duals of the ``<=`` rows are <= 0; the prices of (19)-(20) are
their negatives: ``p_h^r(t)``, ``q_k^r(t)`` and ``mu_i``.  Adding a column keeps the basis,
so each re-solve is a warm-started dual simplex (no model rebuild, unlike
:func:`~hetopt.oasis.model.build_dual`, the declarative statement the tests compare with).
"""

from __future__ import annotations

import numpy as np

from ..errors import SolverError
from ..solvers import new_highs
from .instance import OasisInstance
from .schedule import JobSchedule

__all__ = ["Master"]


class Master:
    """Restricted master LP; rows: I convexity rows, then T H R worker rows, then T K R PS rows."""

    def __init__(self, inst: OasisInstance, *, threads: int | None = 1) -> None:
        self.inst = inst
        I, H, K, R, T = inst.n_jobs, inst.n_worker_servers, inst.n_ps_servers, inst.n_resources, inst.horizon
        self.shape = (I, H, K, R, T)
        # keep the basis between rounds: no presolve (it would discard it), primal simplex (a column
        # added to an optimal basis leaves it primal feasible); HiGHS minimizes by default
        h = new_highs(threads, options={"presolve": "off", "simplex_strategy": 4})
        cap = np.concatenate([np.tile(inst.worker_capacity.ravel(), T), np.tile(inst.ps_capacity.ravel(), T)])
        # each capacity row divided by its capacity (1 where it is 0): HiGHS's tolerances relative to it
        self.scale = np.where(cap > 0, cap, 1.0).astype(float)
        hi = np.concatenate([np.ones(I), cap / self.scale])
        h.addRows(hi.size, np.full(hi.size, -np.inf), hi.astype(float), 0, np.zeros(0, np.int32), np.zeros(0, np.int32),
                  np.zeros(0))
        self.h = h
        self.columns: list[tuple[int, JobSchedule, float]] = []
        self._keys: list[set] = [set() for _ in range(I)]
        self.n_rows = hi.size

    def _entries(self, s: JobSchedule) -> tuple[np.ndarray, np.ndarray]:
        I, H, K, R, T = self.shape
        i = s.job
        w, sd = self.inst.worker_demand[i], self.inst.ps_demand[i]
        # worker row of (t, h, r): I + (t - 1) H R + h R + r
        yv = np.einsum("ht,r->thr", s.workers.astype(float), w)
        zv = np.einsum("kt,r->tkr", s.ps.astype(float), sd)
        wi = np.nonzero(yv.ravel())[0]
        zi = np.nonzero(zv.ravel())[0]
        idx = np.concatenate([[i], I + wi, I + T * H * R + zi]).astype(np.int32)
        val = np.concatenate([[1.0], yv.ravel()[wi] / self.scale[wi], zv.ravel()[zi] / self.scale[T * H * R + zi]])
        return idx, val

    def add(self, s: JobSchedule) -> bool:
        """Add schedule ``s`` of job ``s.job`` as a column; False when it is already there."""
        key = (s.workers.tobytes(), s.ps.tobytes())
        if key in self._keys[s.job]:
            return False
        self._keys[s.job].add(key)
        util = self.inst.utility_of(s.job, s.completion)
        idx, val = self._entries(s)
        self.h.addCol(-util, 0.0, np.inf, idx.size, idx, val)
        self.columns.append((s.job, s, util))
        return True

    def solve(self) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
        """LP value and the duals ``(mu (I,), p (T, H, R), q (T, K, R))``, all >= 0."""
        I, H, K, R, T = self.shape
        if not self.columns:  # no schedule yet: the LP max 0 has value 0 and zero duals (HiGHS calls it "Empty")
            return 0.0, np.zeros(I), np.zeros((T, H, R)), np.zeros((T, K, R))
        self.h.run()
        status = self.h.getModelStatus()
        if self.h.modelStatusToString(status) != "Optimal":
            raise SolverError(f"restricted master LP: HiGHS status {self.h.modelStatusToString(status)}")
        value = -float(self.h.getInfo().objective_function_value)
        dual = -np.asarray(self.h.getSolution().row_dual, dtype=float)
        dual = np.maximum(dual, 0.0)
        mu = dual[:I]
        prices = dual[I:] / self.scale  # the dual of a row divided by c is c times the original row's
        p = prices[:T * H * R].reshape(T, H, R)
        q = prices[T * H * R:].reshape(T, K, R)
        return value, mu, p, q

    def primal(self) -> np.ndarray:
        """x_il of the columns, in the order added."""
        return np.asarray(self.h.getSolution().col_value, dtype=float)
