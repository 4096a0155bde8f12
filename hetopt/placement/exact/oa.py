"""The HiGHS route of :func:`~hetopt.placement.exact.solve_exact`: outer approximation.

The master is the clipped grouped model (:func:`~hetopt.placement.grouped.build_master`) compiled
once into arrays (Pyomo's standard-form compiler) and solved by :func:`hetopt.solvers.solve_milp`;
each new tangent cut is one row appended to the arrays, so a master costs no new translation.
Every master starts from the incumbent (HiGHS's ``setSolution``): it always has a point to report,
and the start spares HiGHS's root heuristics, which otherwise ran for 20 s past a 1 s time limit at
S = 8, K = 2,000.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyomo.environ as pyo
from pyomo.repn.plugins.standard_form import LinearStandardFormCompiler
from scipy import sparse

from ...certify import Status
from ...errors import SolverError
from ...solvers import solve_milp
from ..evaluate import average_jct
from ..grouped import assignment_from_model, load_assignment, tangent_point
from ..instance import PlacementInstance
from .common import ABS_TOL, OAOptions, Run, around, bound_holds, rebase, time_to_build

__all__ = ["ArrayMaster", "MasterResult", "MASTER_OPTIONS", "master_problem", "solve_outer_approximation"]

log = logging.getLogger(__name__)

#: HiGHS options of every master: the relative gap only (the units are the incumbent's, the objective
#: weighted, :mod:`hetopt.placement.grouped`); presolve rule 12 off (``presolve_rule_off = 2**12``):
#: with it, HiGHS 1.16 declared the master of ``generate_instance(n_jobs=2, n_workers=5, seed=8, gpus_per_node=2,
#: setting="gavel")`` infeasible, or postsolved a point that violates a row by 1 ("untransformed
#: violations") and kept that presolved model's bound; turning off rule 12 alone removes both.
MASTER_OPTIONS: dict[str, Any] = {"mip_abs_gap": 0.0, "presolve_rule_off": 1 << 12}


@dataclass(frozen=True)
class MasterResult:
    """A master's outcome in the model's units (objective / unit): HiGHS's status, its point's value, its bound."""

    status: Status
    objective: float | None
    bound: float | None
    message: str


class ArrayMaster:
    """A Pyomo master as arrays for :func:`~hetopt.solvers.solve_milp`, with tangent cuts appended as rows."""

    def __init__(self, m: pyo.ConcreteModel) -> None:
        self.m = m
        r = LinearStandardFormCompiler().write(m, mixed_form=True, set_sense=None)
        self.columns = list(r.columns)
        self.index = {id(v): j for j, v in enumerate(self.columns)}
        A = sparse.csr_matrix(r.A)
        rhs = np.asarray(r.rhs, dtype=float)
        kind = np.array([row.bound_type for row in r.rows], dtype=int)
        # mixed form: bound_type 1 is a <= row, -1 a >= row, 0 an equality
        self.A_eq, self.b_eq = A[kind == 0], rhs[kind == 0]
        self.A_ub = sparse.vstack([A[kind == 1], -A[kind == -1]], format="csr")
        self.b_ub = np.concatenate([rhs[kind == 1], -rhs[kind == -1]])
        self.c = np.asarray(sparse.csr_matrix(r.c).toarray()).ravel()
        self.offset = float(np.asarray(r.c_offset).ravel()[0]) if np.size(r.c_offset) else 0.0
        self.lb = np.array([-np.inf if v.lb is None else float(v.lb) for v in self.columns])
        self.ub = np.array([np.inf if v.ub is None else float(v.ub) for v in self.columns])
        self.integrality = np.array([0 if v.is_continuous() else 1 for v in self.columns])
        self.cut_rows: list[tuple[int, int, float, float]] = []  # (thn column, Vn column, slope, rhs)

    def add_cut(self, i: int, v: float) -> bool:
        """Add the tangent cut at ``v`` (samples/s) as a row (:func:`~hetopt.placement.grouped.tangent_point`)."""
        w = tangent_point(self.m, i, v)
        if w is None:
            return False
        self.cut_rows.append((self.index[id(self.m.thn[i])], self.index[id(self.m.Vn[i])], 1.0 / w**2, 2.0 / w))
        return True

    def start(self, inst: PlacementInstance, assignment: np.ndarray) -> np.ndarray | None:
        """The column values of ``assignment``'s image in the master (None when it has none)."""
        if not load_assignment(inst, self.m, assignment):
            return None
        return np.array([float(v.value) for v in self.columns])

    def solve(self, *, time_limit: float | None, threads: int | None, options: dict[str, Any],
              x0: np.ndarray | None) -> MasterResult:
        """Solve the master; its point is loaded into the Pyomo variables (for ``assignment_from_model``)."""
        A_ub, b_ub = self.A_ub, self.b_ub
        if self.cut_rows:
            n, k = len(self.columns), len(self.cut_rows)
            rows = np.repeat(np.arange(k), 2)
            cols = np.array([c for (t, v, _, _) in self.cut_rows for c in (t, v)])
            vals = np.array([x for (_, _, s, _) in self.cut_rows for x in (-1.0, -s)])
            cuts = sparse.csr_matrix((vals, (rows, cols)), shape=(k, n))
            A_ub = sparse.vstack([A_ub, cuts], format="csr")
            b_ub = np.concatenate([b_ub, [-r for (_, _, _, r) in self.cut_rows]])
        try:
            sol = solve_milp(self.c, A_ub=A_ub, b_ub=b_ub, A_eq=self.A_eq, b_eq=self.b_eq, lb=self.lb, ub=self.ub,
                             integrality=self.integrality, time_limit=time_limit, threads=threads,
                             raise_on_failure=False, options=options, x0=x0)
        except SolverError as exc:  # an inconsistent result (e.g. OPTIMAL without a proof): unusable
            return MasterResult(Status.ERROR, None, None, str(exc))
        x = sol.info["x"]
        if x is not None:
            for v, val in zip(self.columns, x, strict=True):
                v.set_value(float(val), skip_validation=True)
        shift, w = self.offset, self.m._scale.weight
        return MasterResult(sol.status, None if sol.objective is None else (sol.objective + shift) / w,
                            None if sol.bound is None else (sol.bound + shift) / w, sol.message)


def master_problem(run: Run, m: pyo.ConcreteModel, sol: MasterResult, unit: float) -> str | None:
    """Why a master result cannot be used (None when it can); a usable point is offered as incumbent."""
    if sol.status in (Status.INFEASIBLE, Status.UNBOUNDED, Status.ERROR):
        return f"master failed: {sol.status.value} ({sol.message})"
    if sol.objective is not None:
        try:
            a = assignment_from_model(run.inst, m)
        except SolverError as exc:
            return f"master returned an inconsistent point ({exc})"
        val = average_jct(run.inst, a)
        run.offer(a)
        if sol.status is Status.OPTIMAL and not bound_holds(val, (sol.objective - ABS_TOL) * unit):
            return (f"master value {sol.objective * unit!r} is above the evaluated average JCT {val!r} of its point "
                    "(the master must under-estimate it)")
    if sol.bound is not None and not bound_holds(run.best_val, (sol.bound - ABS_TOL) * unit):
        return f"master bound {sol.bound * unit!r} is above the achieved average JCT {run.best_val!r}"
    return None


def _master(run: Run, opts: OAOptions) -> tuple[ArrayMaster, Any]:
    m, scale = around(run, "cuts", opts.tangent_points)
    return ArrayMaster(m), scale


def solve_outer_approximation(run: Run, opts: OAOptions) -> None:
    """Outer approximation (module docstring) on the clipped grouped MILP with HiGHS masters.

    The master is rebuilt around the incumbent when a master point is far better than the
    incumbent its units came from (HiGHS's tolerances are absolute in those units).
    """
    inst = run.inst
    run.info.update(route="grouped MILP + outer approximation (HiGHS)", iterations=0)
    if not time_to_build(run):
        return
    master, scale = _master(run, opts)
    steps = [np.unique(inst.throughput[i]) for i in range(inst.n_jobs)]
    options = dict(MASTER_OPTIONS)
    for it in range(1, opts.max_iterations + 1):
        remaining = run.remaining()
        if remaining is not None and remaining <= 0:
            run.timed_out = True
            break
        run.info["iterations"] = it
        x0 = master.start(inst, run.best_a)
        sol = master.solve(time_limit=remaining, threads=run.threads, options=options, x0=x0)
        problem = master_problem(run, master.m, sol, scale.unit)
        if problem is not None and "presolve" not in options:  # HiGHS's presolve: retry this and later masters without it
            log.warning("OA master: %s; retrying with presolve off", problem)
            run.info["presolve_off"] = problem
            options["presolve"] = "off"
            sol = master.solve(time_limit=run.remaining(), threads=run.threads, options=options,
                               x0=master.start(inst, run.best_a))
            problem = master_problem(run, master.m, sol, scale.unit)
        if problem is not None:
            run.failure = problem
            return
        if rebase(run, scale):  # a point far better than the units' incumbent: rebuild, this bound is not trusted
            master, scale = _master(run, opts)
            continue
        run.prove_scaled(sol.bound, scale.unit)
        if sol.status is Status.TIME_LIMIT:
            run.timed_out = True
            break
        log.info("OA iteration %d: lower %.9g upper %.9g", it, run.lower, run.best_val)
        if run.best_val - run.lower <= opts.rel_gap * abs(run.best_val):
            run.info["message"] = f"outer approximation, {it} iterations"
            return
        if sol.objective is None or not _add_cuts(inst, master, opts.neighbour_cuts, steps):
            if run.certified:  # although not to rel_gap
                run.info["message"] = f"outer approximation, {it} iterations (stopped at gap {run.gap:.3g})"
                return
            run.failure = (f"outer approximation stalled at gap {run.gap:.3g} (the master repeats a point its cuts cannot "
                           "separate: data spanning too many orders of magnitude for the clipped master)")
            return
    else:
        run.failure = f"outer approximation reached max_iterations={opts.max_iterations} at gap {run.gap:.3g}"
    run.info["message"] = f"outer approximation, {run.info['iterations']} iterations"


def _add_cuts(inst: PlacementInstance, master: ArrayMaster, neighbour_cuts: bool, steps: list[np.ndarray]) -> bool:
    """Tangent cuts at the master's V_i (and, with ``neighbour_cuts``, one worker of any class away).

    Returns False when no cut at a master point was new (the master would repeat itself).
    """
    m = master.m
    new = False
    for i in range(inst.n_jobs):
        v = float(pyo.value(m.V[i]))
        new = master.add_cut(i, v) or new
        if neighbour_cuts:  # also at the throughputs one worker away, so near-equal points go together
            lo_v, hi_v = m.Vn[i].lb * float(m.nu[i]), m.Vn[i].ub * float(m.nu[i])
            for step in steps[i]:
                for w in (v - step, v + step):
                    if lo_v < w < hi_v:
                        master.add_cut(i, w)
    return new

