"""The SCIP route of :func:`~hetopt.placement.exact.solve_exact`: the grouped MINLP."""

from __future__ import annotations

from ...certify import Status
from ...errors import SolverError
from ...solvers import solve_model
from ..grouped import assignment_from_model, load_assignment
from .common import ABS_TOL, Run, around, bound_holds, rebase, time_to_build
from .oa import MasterResult

__all__ = ["solve_scip"]


def solve_scip(run: Run, rel_gap: float) -> None:
    """The grouped MINLP (``thn_i Vn_i >= 1``, clipped units around the incumbent) solved by SCIP.

    Rebuilt around SCIP's point when it is far better than the incumbent the units were taken
    from (the model's tolerances are absolute in those units).
    """
    inst = run.inst
    run.info["route"] = "grouped MINLP (SCIP)"
    if not time_to_build(run):
        return
    while True:
        m, scale = around(run, "nonlinear")
        remaining = run.remaining()
        if remaining is not None and remaining <= 0:
            run.timed_out = True
            return
        start = load_assignment(inst, m, run.best_a)  # the incumbent as SCIP's start
        try:
            raw = solve_model(m, "scip", time_limit=remaining, threads=run.threads, mip_gap=rel_gap,
                              raise_on_failure=False, require_incumbent=False, warm_start=start)
        except SolverError as exc:  # an inconsistent result (e.g. OPTIMAL without a proof)
            run.failure = f"SCIP failed: {exc}"
            return
        w = scale.weight
        sol = MasterResult(raw.status, None if raw.objective is None else raw.objective / w,
                           None if raw.bound is None else raw.bound / w, raw.message)
        run.info["message"] = sol.message
        if sol.status in (Status.INFEASIBLE, Status.UNBOUNDED, Status.ERROR):
            run.failure = f"SCIP failed: {sol.status.value} ({sol.message})"
            return
        if sol.objective is not None:
            try:
                a = assignment_from_model(inst, m)
            except SolverError as exc:
                run.failure = f"SCIP returned an inconsistent point ({exc})"
                return
            run.offer(a)  # (SCIP's point need not be optimal in V_i: its model value is not compared)
        if sol.bound is not None and not bound_holds(run.best_val, (sol.bound - ABS_TOL) * scale.unit):
            run.failure = f"SCIP bound {sol.bound * scale.unit!r} is above the achieved average JCT {run.best_val!r}"
            return
        if rebase(run, scale):  # SCIP's point is far better than the units' incumbent: its bound is not trusted
            continue
        run.prove_scaled(sol.bound, scale.unit)
        if sol.status is Status.TIME_LIMIT:
            run.timed_out = True
            return
        if run.gap <= rel_gap or run.certified:
            return
        break
    run.failure = (f"SCIP stopped ({sol.status.value}) at gap {run.gap:.3g} on the true data: its clipped model is too "
                   "loose where the data span many orders of magnitude")


