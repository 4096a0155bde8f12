import cvxpy as cp
import pyomo.environ as pyo
import pytest

from hetopt import InfeasibleError, SolverError, Status, solve_model, solve_problem
from hetopt.result import Solution, relative_gap


def knapsack():
    m = pyo.ConcreteModel()
    m.I = pyo.RangeSet(0, 9)
    w = [23, 31, 29, 44, 53, 38, 63, 85, 89, 82]
    v = [92, 57, 49, 68, 60, 43, 67, 84, 87, 72]
    m.x = pyo.Var(m.I, domain=pyo.Binary)
    m.cap = pyo.Constraint(expr=sum(w[i] * m.x[i] for i in m.I) <= 165)
    m.obj = pyo.Objective(expr=sum(v[i] * m.x[i] for i in m.I), sense=pyo.maximize)
    return m


@pytest.mark.parametrize("solver", ["highs", "scip"])
def test_milp_optimal_with_bound(solver):
    # the classical instance (Martello and Toth, p01) has optimum 309
    sol = solve_model(knapsack(), solver)
    assert sol.status is Status.OPTIMAL and sol.sense == "max"
    assert sol.objective == pytest.approx(309)
    assert sol.bound == pytest.approx(309) and sol.gap <= 1e-6 and sol.wall_time > 0


def test_lp_bound_is_objective():
    m = pyo.ConcreteModel()
    m.x = pyo.Var(bounds=(0, 4))
    m.y = pyo.Var(bounds=(0, 4))
    m.c = pyo.Constraint(expr=m.x + 2 * m.y <= 6)
    m.o = pyo.Objective(expr=-(m.x + m.y))
    sol = solve_model(m)
    assert sol.status is Status.OPTIMAL and sol.objective == pytest.approx(-5) and sol.bound == pytest.approx(-5)
    assert pyo.value(m.x) == pytest.approx(4)


def test_infeasible_raises_or_reports():
    m = pyo.ConcreteModel()
    m.x = pyo.Var(domain=pyo.Binary)
    m.c = pyo.Constraint(expr=m.x >= 2)
    m.o = pyo.Objective(expr=m.x)
    with pytest.raises(InfeasibleError):
        solve_model(m)
    sol = solve_model(m, raise_on_failure=False)
    assert sol.status is Status.INFEASIBLE and sol.objective is None


def test_loose_gap_is_not_called_optimal():
    # a 50% gap request on a MILP whose root bound is loose: the answer may stop early, and is
    # only OPTIMAL if the solver's own bound closes the gap
    sol = solve_model(knapsack(), mip_gap=0.5)
    assert sol.status in (Status.OPTIMAL, Status.FEASIBLE)
    if sol.status is Status.OPTIMAL:
        assert sol.gap <= 1e-6


def test_bad_arguments():
    with pytest.raises(ValueError, match="solver"):
        solve_model(knapsack(), "cplex-not-here")
    with pytest.raises(ValueError, match="time_limit"):
        solve_model(knapsack(), time_limit=-1)
    with pytest.raises(ValueError, match="mip_gap"):
        solve_model(knapsack(), mip_gap=2)


def test_cvxpy_lp_and_infeasible():
    x = cp.Variable(2)
    p = cp.Problem(cp.Maximize(cp.sum(x)), [x >= 0, x[0] + 2 * x[1] <= 6, x <= 4])
    sol = solve_problem(p)
    assert sol.status is Status.OPTIMAL and sol.objective == pytest.approx(5) and sol.sense == "max"
    q = cp.Problem(cp.Minimize(cp.sum(x)), [x >= 1, x <= 0])
    with pytest.raises(InfeasibleError):
        solve_problem(q)
    assert solve_problem(q, raise_on_failure=False).status is Status.INFEASIBLE


def test_solution_checks():
    with pytest.raises(ValueError):
        Solution(status=Status.OPTIMAL)
    with pytest.raises(ValueError):
        Solution(status=Status.FEASIBLE, objective=1.0, sense="up")
    assert relative_gap(11.0, 10.0) == pytest.approx(0.1)
    assert relative_gap(None, 1.0) is None
    assert issubclass(SolverError, RuntimeError)
