"""The front of the exact engines: :func:`solve_exact` (CP-SAT by default, or the big-M MILP).

The default route (neither ``engine`` nor ``solver`` given) falls back to the MILP after CP-SAT when
CP-SAT proved its model but the integer scaling was rounded and the certificate on the true data
did not close (data spread over many orders of magnitude, at most ``MAX_TASKS_NO_LIMIT["milp"]``
tasks): the better schedule and the larger of the two valid bounds, ``info["fallback"]``.

Size guards (issue 25): before building, :func:`model_estimate` counts what the engine would
build; without a time limit an instance beyond :data:`MAX_TASKS_NO_LIMIT` tasks is refused
(proofs take from minutes to hours there: ``hetopt bench hare``), and with one beyond
:data:`MAX_TASKS_BUILD` (the model's build time and memory); the :class:`SizeLimitError` gives
the estimate and the way out (``time_limit=...`` or ``max_size=...``).
"""

from __future__ import annotations

from ...certify import Status, certify
from ...errors import ArgumentError, SizeLimitError
from ...inputs import check_choice, check_flag, check_gap, check_size, check_threads, check_time_limit, takes_instance
from ..instance import HareInstance
from ..solution import HareSolution, make_solution
from .cpsat import solve_cpsat_exact
from .milp import model_estimate as milp_estimate
from .milp import solve_milp_exact

__all__ = ["solve_exact", "ENGINES", "DEFAULT_ENGINE", "MILP_SOLVERS", "MAX_TASKS_NO_LIMIT", "MAX_TASKS_BUILD",
           "model_estimate"]

#: Exact engines: the Pyomo big-M MILP (HiGHS or SCIP) and the CP-SAT interval model.
ENGINES = ("milp", "cpsat")
#: The engine of ``solve_exact`` when neither ``engine`` nor a MILP ``solver`` is given: CP-SAT,
#: the faster proven engine (``hetopt bench hare``; models/hare2022.md, section "Exact engines").
DEFAULT_ENGINE = "cpsat"
#: Solvers of the MILP engine.
MILP_SOLVERS = ("highs", "scip")
#: Most tasks each engine accepts without a time limit (``max_size`` overrides): CP-SAT certifies
#: about 20 tasks on 4 GPUs within a minute and the big-M MILP about 10 (``hetopt bench hare``);
#: beyond, a run without a limit lasts from minutes to hours.
MAX_TASKS_NO_LIMIT = {"cpsat": 25, "milp": 12}
#: Most tasks each engine builds a model for, even with a time limit (``max_size`` overrides):
#: the big-M MILP's Pyomo model takes about 10 s to build at 100 tasks and 45 s at 200.
MAX_TASKS_BUILD = {"cpsat": 1000, "milp": 100}


def model_estimate(inst: HareInstance, engine: str) -> dict[str, int]:
    """What an engine would build for ``inst``, counted before building it.

    Parameters
    ----------
    inst : HareInstance
        The instance.
    engine : {"cpsat", "milp"}
        The engine.

    Returns
    -------
    dict
        ``tasks``; CP-SAT: ``intervals`` (optional intervals, one per task and GPU); MILP: those
        of :func:`hetopt.hare.exact.milp.model_estimate`.
    """
    check_choice(engine, "engine", ENGINES)
    if engine == "cpsat":
        return {"tasks": inst.n_tasks, "intervals": inst.n_tasks * inst.n_gpus}
    return milp_estimate(inst)


def _guard(inst: HareInstance, engine: str, time_limit: float | None, max_size: int | None) -> None:
    limit = max_size if max_size is not None else (
        MAX_TASKS_NO_LIMIT[engine] if time_limit is None else MAX_TASKS_BUILD[engine])
    if inst.n_tasks <= limit:
        return
    est = model_estimate(inst, engine)
    what = ", ".join(f"{v} {k}" for k, v in est.items())
    if max_size is not None:
        raise SizeLimitError(f"solve_exact(engine={engine!r}): {what}; above max_size={max_size} tasks: pass a larger "
                             "max_size=... to build it")
    if time_limit is None:
        raise SizeLimitError(f"solve_exact(engine={engine!r}) without a time limit: {what}, above the "
                             f"{MAX_TASKS_NO_LIMIT[engine]} tasks it certifies in about a minute; pass time_limit=... "
                             f"(TIME_LIMIT with the incumbent and a bound) or max_size={inst.n_tasks} to run without "
                             "a limit")
    raise SizeLimitError(f"solve_exact(engine={engine!r}): {what}, above the {MAX_TASKS_BUILD[engine]} tasks whose "
                         f"model it builds by default; pass max_size={inst.n_tasks} to build it anyway"
                         + (" or use engine='cpsat'" if engine == "milp" else ""))


@takes_instance(HareInstance)
def solve_exact(inst: HareInstance, *, time_limit: float | None = None, mip_gap: float | None = None,
                threads: int | None = 1, max_size: int | None = None, solver: str | None = None,
                engine: str | None = None, symmetry_breaking: bool = True) -> HareSolution:
    """Solve Hare_Sched (4)-(8) to optimality with CP-SAT or the big-M MILP (HiGHS or SCIP).

    Parameters
    ----------
    inst : HareInstance
        The instance.
    time_limit : float, optional
        Seconds; a stopped solve is TIME_LIMIT with the incumbent and the solver's bound.
    mip_gap : float, optional
        Relative gap (default: exact optima); MILP engine only.
    threads : int, optional
        Solver threads (CP-SAT workers); 1 by default, as in every kind (deterministic runs);
        None: the solver's default.
    max_size : int, optional
        Size guard, in tasks: the most tasks to build a model for; None (default):
        :data:`MAX_TASKS_NO_LIMIT` of the engine without a time limit and
        :data:`MAX_TASKS_BUILD` with one (module docstring).
    solver : {"highs", "scip"}, optional
        The MILP solver; giving one selects ``engine="milp"`` (default solver "highs").
    engine : {"milp", "cpsat"}, optional
        ``"cpsat"``: the interval model of :mod:`hetopt.hare.exact.cpsat` (integer-scaled times,
        bound valid for the true data); ``"milp"``: the Pyomo GDP/big-M MILP of
        :func:`hetopt.hare.model.build_hare_sched` (:mod:`hetopt.hare.exact.milp`).  Default
        :data:`DEFAULT_ENGINE` unless ``solver`` is given.
    symmetry_breaking : bool
        See :func:`hetopt.hare.model.build_hare_sched`.

    Returns
    -------
    HareSolution
        ``method="exact"``; ``bound`` is the solver-certified lower bound, equal to the
        objective (up to ``OPTIMAL_RTOL``) when the status is OPTIMAL.  The schedule
        passes :func:`hetopt.hare.check_schedule`.

    Raises
    ------
    ArgumentError
        An unknown engine or solver, a MILP option given to the CP-SAT engine, or a bad
        ``time_limit``, ``mip_gap``, ``threads`` or ``max_size``.
    SizeLimitError
        Beyond the size guard (module docstring), with the estimate and the way out.

    References
    ----------
    .. [1] F. Chen et al., "Hare", HPDC 2022, problem Hare_Sched (4)-(8).
    """
    time_limit = check_time_limit(time_limit)
    check_gap(mip_gap, "mip_gap")
    check_threads(threads)
    check_flag(symmetry_breaking, "symmetry_breaking")
    if max_size is not None:
        check_size(max_size, "max_size")
    default_route = engine is None and solver is None
    if engine is None:
        engine = "milp" if solver is not None else DEFAULT_ENGINE
    check_choice(engine, "engine", ENGINES)
    if solver is not None and engine == "milp":
        check_choice(solver, "solver", MILP_SOLVERS)
    _guard(inst, engine, time_limit, max_size)
    if engine == "cpsat":
        if solver not in (None, "cpsat"):
            raise ArgumentError(f"solver is {solver!r}; the cpsat engine takes no MILP solver (use engine='milp')")
        if mip_gap is not None:
            raise ArgumentError(f"mip_gap is {mip_gap!r}; the cpsat engine proves exact optima only "
                                "(use engine='milp')")
        sol = solve_cpsat_exact(inst, time_limit=time_limit, threads=threads, symmetry_breaking=symmetry_breaking)
        if default_route and _rounding_left_open(inst, sol):
            return _with_milp(inst, sol, time_limit, threads, symmetry_breaking)
        return sol
    solver = "highs" if solver is None else solver
    check_choice(solver, "solver", MILP_SOLVERS)
    return solve_milp_exact(inst, solver=solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
                            symmetry_breaking=symmetry_breaking)


def _rounding_left_open(inst: HareInstance, sol: HareSolution) -> bool:
    """CP-SAT proved its rounded model but the certificate on the true data did not close (small instance)."""
    return (sol.status is Status.FEASIBLE and not sol.info.get("exact_scaling", True)
            and sol.info.get("cpsat_status") == Status.OPTIMAL.value and inst.n_tasks <= MAX_TASKS_NO_LIMIT["milp"])


def _with_milp(inst: HareInstance, sol: HareSolution, time_limit: float | None, threads: int | None,
               symmetry_breaking: bool) -> HareSolution:
    """The default route's fallback when CP-SAT's rounding leaves the certificate open.

    The MILP route in normalized floating point (no rounding) runs in the time left; the better
    schedule and the larger of the two valid bounds are reported.
    """
    rest = None if time_limit is None else time_limit - sol.wall_time
    if rest is not None and rest <= 0.1:
        return sol
    milp = solve_milp_exact(inst, time_limit=rest, threads=threads, symmetry_breaking=symmetry_breaking)
    best = milp if milp.objective < sol.objective else sol
    bounds = [b for b in (sol.bound, milp.bound) if b is not None]
    bound = max(bounds) if bounds else None
    status = certify(best.objective, bound, stopped=best.status is Status.TIME_LIMIT, sense="min")
    info = {**best.info, "fallback": "the CP-SAT certificate on the true data did not close (integer scaling "
            "rounded): the MILP route in normalized floating point ran after it",
            "cpsat_result": {"objective": sol.objective, "bound": sol.bound},
            "milp_result": {"status": milp.status.value, "objective": milp.objective, "bound": milp.bound}}
    return make_solution(inst, best.start, best.gpu, method="exact", status=status, bound=bound,
                         wall_time=sol.wall_time + milp.wall_time, solver=f"{sol.solver}+{milp.solver}",
                         message=f"{sol.message}; then {milp.message}", info=info)
