"""The front of the exact engines: :func:`solve_exact` (CP-SAT by default, or the big-M MILP)."""

from __future__ import annotations

from ...errors import ArgumentError
from ...inputs import check_choice, check_flag, check_gap, check_threads, check_time_limit, takes_instance
from ..instance import HareInstance
from ..solution import HareSolution
from .cpsat import solve_cpsat_exact
from .milp import solve_milp_exact

__all__ = ["solve_exact", "ENGINES", "DEFAULT_ENGINE", "MILP_SOLVERS"]

#: Exact engines: the Pyomo big-M MILP (HiGHS or SCIP) and the CP-SAT interval model.
ENGINES = ("milp", "cpsat")
#: The engine of ``solve_exact`` when neither ``engine`` nor a MILP ``solver`` is given: CP-SAT,
#: the faster proven engine (``hetopt bench hare``; models/hare2022.md, section "Exact engines").
DEFAULT_ENGINE = "cpsat"
#: Solvers of the MILP engine.
MILP_SOLVERS = ("highs", "scip")


@takes_instance(HareInstance)
def solve_exact(inst: HareInstance, *, solver: str | None = None, engine: str | None = None,
                time_limit: float | None = None, mip_gap: float | None = None, threads: int | None = 1,
                symmetry_breaking: bool = True) -> HareSolution:
    """Solve Hare_Sched (4)-(8) to optimality with CP-SAT or the big-M MILP (HiGHS or SCIP).

    Parameters
    ----------
    inst : HareInstance
        The instance.
    solver : {"highs", "scip"}, optional
        The MILP solver; giving one selects ``engine="milp"`` (default solver "highs").
    engine : {"milp", "cpsat"}, optional
        ``"cpsat"``: the interval model of :mod:`hetopt.hare.exact.cpsat` (integer-scaled times,
        bound valid for the true data); ``"milp"``: the Pyomo GDP/big-M MILP of
        :func:`hetopt.hare.model.build_hare_sched` (:mod:`hetopt.hare.exact.milp`).  Default
        :data:`DEFAULT_ENGINE` unless ``solver`` is given.
    time_limit : float, optional
        Seconds; a stopped solve is TIME_LIMIT with the incumbent and the solver's bound.
    mip_gap : float, optional
        Relative gap (default: exact optima); MILP engine only.
    threads : int, optional
        Solver threads (CP-SAT workers).
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
        ``time_limit``, ``mip_gap`` or ``threads``.

    References
    ----------
    .. [1] F. Chen et al., "Hare", HPDC 2022, problem Hare_Sched (4)-(8).
    """
    check_time_limit(time_limit)
    check_gap(mip_gap, "mip_gap")
    check_threads(threads)
    check_flag(symmetry_breaking, "symmetry_breaking")
    if engine is None:
        engine = "milp" if solver is not None else DEFAULT_ENGINE
    check_choice(engine, "engine", ENGINES)
    if engine == "cpsat":
        if solver not in (None, "cpsat"):
            raise ArgumentError(f"solver is {solver!r}; the cpsat engine takes no MILP solver (use engine='milp')")
        if mip_gap is not None:
            raise ArgumentError(f"mip_gap is {mip_gap!r}; the cpsat engine proves exact optima only "
                                "(use engine='milp')")
        return solve_cpsat_exact(inst, time_limit=time_limit, threads=threads, symmetry_breaking=symmetry_breaking)
    solver = "highs" if solver is None else solver
    check_choice(solver, "solver", MILP_SOLVERS)
    return solve_milp_exact(inst, solver=solver, time_limit=time_limit, mip_gap=mip_gap, threads=threads,
                            symmetry_breaking=symmetry_breaking)
