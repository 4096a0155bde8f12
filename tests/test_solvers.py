import math

import cvxpy as cp
import pyomo.environ as pyo
import pytest

from hetopt import ArgumentError, InfeasibleError, SolverError, Status, solve_model, solve_problem
from hetopt.certify import relative_gap
from hetopt.result import Solution


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


# --- solve_milp: MILPs given as arrays (scipy's milp conventions), straight to highspy -----------

import numpy as np  # noqa: E402

from hetopt.solvers import solve_milp  # noqa: E402

KNAP_W = [23, 31, 29, 44, 53, 38, 63, 85, 89, 82]
KNAP_V = [92, 57, 49, 68, 60, 43, 67, 84, 87, 72]


def knapsack_arrays():
    return dict(c=KNAP_V, sense="max", A_ub=[KNAP_W], b_ub=[165], lb=0, ub=1, integrality=1)


def test_solve_milp_knapsack_known_answer():
    sol = solve_milp(**knapsack_arrays())
    x = sol.info["x"]
    assert sol.status is Status.OPTIMAL and sol.sense == "max" and sol.solver == "highs"
    assert sol.objective == pytest.approx(309) and sol.bound == pytest.approx(309)
    assert sol.gap <= 1e-6 and sol.wall_time > 0
    assert np.allclose(x, np.round(x)) and np.dot(KNAP_V, x) == pytest.approx(309)
    assert np.dot(KNAP_W, x) <= 165 + 1e-9


def test_solve_milp_minimization_sense():
    # the same knapsack as a minimization of -value: same optimum, negated
    sol = solve_milp(c=-np.asarray(KNAP_V, float), A_ub=[KNAP_W], b_ub=[165], ub=1, integrality=1)
    assert sol.status is Status.OPTIMAL and sol.sense == "min"
    assert sol.objective == pytest.approx(-309) and sol.bound == pytest.approx(-309)


def test_solve_milp_lp_bound_is_objective():
    # the LP of test_lp_bound_is_objective, with an equality row added
    sol = solve_milp([-1, -1, 0], A_ub=[[1, 2, 0]], b_ub=[6], A_eq=[[1, 0, -1]], b_eq=[0], ub=[4, 4, 10])
    x = sol.info["x"]
    assert sol.status is Status.OPTIMAL and sol.objective == pytest.approx(-5) and sol.bound == pytest.approx(-5)
    assert x[0] == pytest.approx(4) and x[2] == pytest.approx(4)


def test_solve_milp_infeasible_raises_or_reports():
    kw = dict(c=[1.0], A_ub=[[-1.0]], b_ub=[-2.0], ub=1, integrality=1)  # x >= 2, x binary
    with pytest.raises(InfeasibleError):
        solve_milp(**kw)
    sol = solve_milp(**kw, raise_on_failure=False)
    assert sol.status is Status.INFEASIBLE and sol.objective is None and sol.info["x"] is None


def test_solve_milp_unbounded():
    from hetopt.errors import UnboundedError

    with pytest.raises(UnboundedError):
        solve_milp([-1.0, 0.0], A_ub=[[0.0, 1.0]], b_ub=[1.0], integrality=[1, 0], options={"presolve": False})


def _hard_knapsack(n=40, seed=3):
    # values = weights + small noise, capacity half the total weight: the root LP bound is
    # fractional and no root heuristic closes the gap (a subset-sum with even weights and an odd
    # capacity no longer works: HiGHS 1.16 proves it at the root by objective integrality)
    rng = np.random.default_rng(seed)
    w = rng.integers(10_000, 20_000, n)
    v = w + rng.integers(0, 100, n)
    return dict(c=v, sense="max", A_ub=[w], b_ub=[w.sum() // 2], ub=1, integrality=1)


@pytest.fixture(scope="module")
def full_knapsack():
    """The knapsack's optimum, solved once for both limits."""
    return solve_milp(**_hard_knapsack())


@pytest.mark.parametrize("limit", [{"node_limit": 1, "presolve": False}, {"time_limit": 1e-3}])
def test_solve_milp_limited_run_is_not_optimal(limit, full_knapsack):
    kw = _hard_knapsack()
    sol = solve_milp(**kw, options=limit, raise_on_failure=False)
    x = sol.info["x"]
    assert sol.status is not Status.OPTIMAL
    assert sol.status is Status.TIME_LIMIT
    assert (x is None) == (sol.objective is None)
    full = full_knapsack
    assert full.status is Status.OPTIMAL
    if sol.objective is not None:
        assert sol.objective <= full.objective + 1e-6
    if sol.bound is not None:  # a maximization: the dual bound is an upper bound
        assert sol.bound >= full.objective - 1e-6


def test_solve_milp_loose_gap_is_not_called_optimal():
    sol = solve_milp(**knapsack_arrays(), mip_gap=0.5)
    assert sol.status in (Status.OPTIMAL, Status.FEASIBLE)
    if sol.status is Status.OPTIMAL:
        assert sol.gap <= 1e-6


def test_solve_milp_agrees_with_solve_model():
    rng = np.random.default_rng(0)
    for _ in range(3):
        n, mrows = 8, 4
        A = rng.integers(1, 10, (mrows, n)).astype(float)
        b = A.sum(axis=1) / 3
        c = rng.integers(1, 20, n).astype(float)
        ub = rng.integers(1, 4, n)
        sol = solve_milp(c, sense="max", A_ub=A, b_ub=b, ub=ub, integrality=1)
        x = sol.info["x"]
        m = pyo.ConcreteModel()
        m.I = pyo.RangeSet(0, n - 1)
        m.x = pyo.Var(m.I, domain=pyo.NonNegativeIntegers, bounds=lambda _, i: (0, int(ub[i])))
        m.rows = pyo.Constraint(range(mrows), rule=lambda _, r: sum(A[r, i] * m.x[i] for i in m.I) <= b[r])
        m.obj = pyo.Objective(expr=sum(c[i] * m.x[i] for i in m.I), sense=pyo.maximize)
        ref = solve_model(m)
        assert sol.status is Status.OPTIMAL and ref.status is Status.OPTIMAL
        assert sol.objective == pytest.approx(ref.objective, rel=1e-9)
        assert np.all(A @ x <= b + 1e-9)


def test_solve_milp_options_and_threads():
    sol = solve_milp(**knapsack_arrays(), threads=1, options={"presolve": False, "mip_max_nodes": 10_000})
    assert sol.status is Status.OPTIMAL and sol.objective == pytest.approx(309)
    with pytest.raises(ValueError, match="option"):
        solve_milp(**knapsack_arrays(), options={"no_such_highs_option": 1})


class _FakeHighs:
    """What solve_milp reads of a HiGHS run: a model status, an incumbent and a MIP dual bound."""

    def __init__(self, code, objective, bound):
        self.code, self.objective, self.bound = code, objective, bound

    def run(self):
        pass

    def getModelStatus(self):
        return self.code

    def modelStatusToString(self, code):
        return f"status {code}"

    def getInfo(self):
        from types import SimpleNamespace

        import highspy

        return SimpleNamespace(primal_solution_status=int(highspy.SolutionStatus.kSolutionStatusFeasible),
                               objective_function_value=self.objective, mip_dual_bound=self.bound)

    def getSolution(self):
        from types import SimpleNamespace

        return SimpleNamespace(col_value=[1.0])


@pytest.mark.parametrize("code", [7, 13])  # converged; stopped by the time limit
def test_solve_milp_status_is_certify_s(monkeypatch, code):
    """HiGHS's incumbent and bound go to certify: a proof is OPTIMAL even when a limit stopped the run, a bound
    on the wrong side of the incumbent is a failed solve."""
    import hetopt.solvers.milp as solvers

    def run_with(objective, bound, **kw):
        monkeypatch.setattr(solvers, "_highs_milp", lambda *a, **k: _FakeHighs(code, objective, bound))
        return solve_milp([10.0], ub=1, integrality=1, **kw)

    assert run_with(10.0, 10.0 * (1 - 1e-7)).status is Status.OPTIMAL
    far = run_with(10.0, 9.0, raise_on_failure=False)
    assert far.status is (Status.FEASIBLE if code == 7 else Status.TIME_LIMIT) and far.info["x"] is not None
    wrong = run_with(10.0, 11.0, raise_on_failure=False)
    assert wrong.status is Status.ERROR and "not a valid bound" in wrong.message and wrong.info["x"] is None
    with pytest.raises(SolverError, match="not a valid bound"):
        run_with(10.0, 11.0)


def test_solve_milp_result_round_trips_through_json():
    sol = solve_milp(**knapsack_arrays())
    back = Solution.from_dict(sol.to_dict())
    assert back.status is Status.OPTIMAL and back.objective == sol.objective
    assert np.array_equal(np.asarray(back.info["x"]), sol.info["x"])


def test_solve_milp_bad_arguments():
    with pytest.raises(ValueError, match="sense"):
        solve_milp([1.0], sense="maximize")
    with pytest.raises(ValueError, match="time_limit"):
        solve_milp([1.0], time_limit=0)
    with pytest.raises(ValueError, match="mip_gap"):
        solve_milp([1.0], mip_gap=1.5)
    with pytest.raises(ValueError, match="shape"):
        solve_milp([1.0, 2.0], A_ub=[[1.0, 2.0, 3.0]], b_ub=[1.0])
    with pytest.raises(ValueError, match="lb > ub"):
        solve_milp([1.0], lb=2, ub=1)
    with pytest.raises(ArgumentError, match="x0"):
        solve_milp([1.0, 2.0], x0=[1.0])
    with pytest.raises(ArgumentError, match="A_eq"):
        solve_milp([1.0], A_eq=[[1.0]])


def test_highs_solves_with_different_thread_counts_in_one_process():
    """HiGHS sizes one scheduler per process; a later solve with another thread count must still solve."""
    import cvxpy as cp
    import pyomo.environ as pyo

    from hetopt.certify import Status
    from hetopt.solvers import solve_milp, solve_model

    def model():
        m = pyo.ConcreteModel()
        m.x = pyo.Var(range(3), domain=pyo.Integers, bounds=(0, 10))
        m.c = pyo.Constraint(expr=sum(m.x[i] for i in range(3)) >= 2.5)
        m.o = pyo.Objective(expr=sum((i + 1) * m.x[i] for i in range(3)))
        return m

    x = cp.Variable(2, integer=True)
    cp.Problem(cp.Minimize(cp.sum(x)), [x >= 0.5]).solve(solver="HIGHS")
    for threads in (1, None, 2, 1, None):
        sol = solve_model(model(), "highs", threads=threads)
        assert sol.status is Status.OPTIMAL and sol.objective == pytest.approx(3.0), threads
        res = solve_milp([1.0, 2.0], A_ub=[[-1.0, -1.0]], b_ub=[-1.5], lb=[0, 0], ub=[5, 5],
                         integrality=[1, 1], threads=threads)
        assert res.status is Status.OPTIMAL and res.objective == pytest.approx(2.0), threads


def _solve_in_child(inst, conn):
    from hetopt.placement import solve_exact

    sol = solve_exact(inst)
    conn.send((sol.status.value, sol.objective))


def test_a_forked_child_solves_after_the_parent_did():
    """A child forked after a parallel HiGHS solve must not wait for the parent's dead workers."""
    import multiprocessing as mp

    from hetopt.placement import generate_instance, solve_exact

    if "fork" not in mp.get_all_start_methods():
        pytest.skip("no fork on this platform")
    ctx = mp.get_context("fork")
    inst = generate_instance(n_jobs=3, n_workers=12, seed=1)
    parent = solve_exact(inst)
    recv, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_solve_in_child, args=(inst, send))
    child.start()
    child.join(60)
    if child.is_alive():
        child.kill()
        child.join()
        pytest.fail("the forked child hung in its first HiGHS solve")
    status, objective = recv.recv()
    assert status == parent.status.value == "optimal"
    assert objective == pytest.approx(parent.objective, rel=1e-9)


def test_solve_cpsat_status_mapping():
    """CP-SAT: a proven optimum is OPTIMAL with its bound; infeasible raises; no objective is refused."""
    from ortools.sat.python import cp_model

    from hetopt.certify import Status
    from hetopt.errors import InfeasibleError
    from hetopt.solvers import solve_cpsat

    m = cp_model.CpModel()
    x, y = m.new_int_var(0, 10, "x"), m.new_int_var(0, 10, "y")
    m.add(x + 2 * y <= 7)
    m.maximize(3 * x + 4 * y)  # optimum x=7, y=0 -> 21 (by hand: 3/1 > 4/2 per unit of capacity)
    sol = solve_cpsat(m)
    assert sol.status is Status.OPTIMAL and sol.sense == "max"
    assert sol.objective == 21 and sol.bound == 21
    assert sol.info["values"][x.index] == 7 and sol.info["values"][y.index] == 0
    bad = cp_model.CpModel()
    z = bad.new_int_var(0, 3, "z")
    bad.add(z >= 5)
    bad.minimize(z)
    with pytest.raises(InfeasibleError):
        solve_cpsat(bad)
    assert solve_cpsat(bad, raise_on_failure=False).status is Status.INFEASIBLE
    with pytest.raises(ValueError, match="objective"):
        solve_cpsat(cp_model.CpModel())
    with pytest.raises(ValueError, match="options"):
        solve_cpsat(m, options={"no_such_parameter": 1})


def _knapsack_model(n=40, seed=0):
    import pyomo.environ as pyo

    rng = np.random.default_rng(seed)
    w = rng.integers(10, 100, n)
    v = w + rng.integers(0, 10, n)
    m = pyo.ConcreteModel()
    m.I = pyo.RangeSet(0, n - 1)
    m.x = pyo.Var(m.I, domain=pyo.Binary)
    m.cap = pyo.Constraint(expr=sum(int(w[i]) * m.x[i] for i in m.I) <= int(w.sum() // 2))
    m.obj = pyo.Objective(expr=sum(int(v[i]) * m.x[i] for i in m.I), sense=pyo.maximize)
    return m, w, v


@pytest.mark.parametrize("solver", ["highs", "scip"])
def test_warm_start_is_passed_and_never_changes_the_optimum(solver):
    import pyomo.environ as pyo

    m, w, v = _knapsack_model()
    cold = solve_model(m, solver)
    # a feasible greedy start: items by value density until the capacity is used
    for i in m.I:
        m.x[i].value = 0
    cap = int(w.sum() // 2)
    for i in np.argsort(-(v / w)):
        if w[i] <= cap:
            m.x[int(i)].value, cap = 1, cap - int(w[i])
    greedy = float(pyo.value(m.obj))
    warm = solve_model(m, solver, warm_start=True)
    assert warm.status is Status.OPTIMAL and cold.status is Status.OPTIMAL
    assert math.isclose(warm.objective, cold.objective, rel_tol=1e-9)
    assert warm.objective >= greedy - 1e-9
    if solver == "highs":
        assert "warm start: 40 of 40 values" in warm.message


def test_highs_warm_start_gives_an_incumbent_under_a_node_limit():
    """With a start and no search, HiGHS still reports the start as its incumbent."""
    import pyomo.environ as pyo

    opts = {"mip_max_nodes": 0, "presolve": "off", "mip_heuristic_effort": 0.0}
    found = {}
    for warm in (False, True):
        m, w, v = _knapsack_model(n=60, seed=3)
        for i in m.I:
            m.x[i].value = 0
        m.x[0].value = 1
        start = float(pyo.value(m.obj))
        found[warm] = solve_model(m, "highs", warm_start=warm, options=opts, raise_on_failure=False)
    assert found[False].objective is None  # no search, no heuristics: nothing without the start
    assert found[True].status is Status.TIME_LIMIT
    assert found[True].objective is not None and found[True].objective >= start - 1e-9


def test_require_incumbent_false_returns_time_limit_without_objective():
    c = np.ones(3)
    sol = solve_milp(c, A_ub=-np.eye(3), b_ub=-np.ones(3), integrality=np.ones(3), time_limit=1e-9,
                     require_incumbent=False)
    assert sol.status in (Status.TIME_LIMIT, Status.OPTIMAL)
    if sol.status is Status.TIME_LIMIT:
        assert (sol.info["x"] is None) == (sol.objective is None)


def test_solve_problem_prints_no_highs_banner():
    """The process's first HiGHS (here through CVXPY) would print a banner on the C-level stdout."""
    import subprocess
    import sys

    code = ("import cvxpy as cp\nfrom hetopt.solvers import solve_problem\n"
            "x = cp.Variable(2)\nprint(solve_problem(cp.Problem(cp.Maximize(cp.sum(x)), [x <= 1])).status.value)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "optimal", out.stdout


def test_highs_partial_warm_start_is_completed():
    """Values for some variables only: HiGHS completes the start (here, with no search of its own)."""
    import pyomo.environ as pyo

    m, w, v = _knapsack_model(n=60, seed=3)
    for i in m.I:
        m.x[i].value = None
    for i in range(30):
        m.x[i].value = 0
    sol = solve_model(m, "highs", warm_start=True, options={"mip_max_nodes": 0, "presolve": "off",
                                                          "mip_heuristic_effort": 0.0}, raise_on_failure=False)
    assert "warm start: 30 of 60 values" in sol.message
    assert sol.objective is not None
    assert all(pyo.value(m.x[i]) < 0.5 for i in range(30))  # the start's fixed part is kept


def test_scip_partial_warm_start_is_skipped_and_said():
    m, w, v = _knapsack_model(n=20, seed=1)
    for i in m.I:
        m.x[i].value = None
    m.x[0].value = 1
    cold = solve_model(_knapsack_model(n=20, seed=1)[0], "scip")
    sol = solve_model(m, "scip", warm_start=True)
    assert "warm start skipped (19 discrete variables have no value)" in sol.message
    assert sol.status is Status.OPTIMAL and math.isclose(sol.objective, cold.objective, rel_tol=1e-9)


# ---------------------------------------------------------------- issue 31, item 5: the translation counts
@pytest.mark.parametrize("warm_start", [False, True])
def test_the_solver_gets_the_time_left_after_the_translation(monkeypatch, warm_start):
    """A translation that takes 0.3 s of a 0.2 s limit leaves HiGHS MIN_SOLVER_SECONDS, not 0.2 s more."""
    import time

    from pyomo.contrib.solver.solvers.highs import Highs

    from hetopt.solvers.pyomo_models import MIN_SOLVER_SECONDS

    seen: list[float] = []
    set_instance, solve = Highs.set_instance, Highs._solve

    def slow_translation(self, model):
        time.sleep(0.3)
        return set_instance(self, model)

    def spy(self):
        seen.append(self._active_config.time_limit)
        return solve(self)

    monkeypatch.setattr(Highs, "set_instance", slow_translation)
    monkeypatch.setattr(Highs, "_solve", spy)
    m = knapsack()
    if warm_start:
        for i in m.I:
            m.x[i].value = 0
    solve_model(m, "highs", time_limit=0.2, require_incumbent=False, warm_start=warm_start)
    assert seen == [MIN_SOLVER_SECONDS]
    seen.clear()
    solve_model(m, "highs", time_limit=30, require_incumbent=False)
    assert 29 < seen[0] < 30


def test_scip_gets_the_time_left_after_the_translation(monkeypatch):
    import time

    from pyomo.contrib.solver.solvers.scip.scip_direct import ScipDirect

    from hetopt.solvers.pyomo_models import MIN_SOLVER_SECONDS

    seen: list[float] = []
    create = ScipDirect._create_solver_model

    def slow(self, model, config):
        time.sleep(0.3)
        out = create(self, model, config)
        seen.append(config)
        return out

    monkeypatch.setattr(ScipDirect, "_create_solver_model", slow)
    solve_model(knapsack(), "scip", time_limit=0.2, require_incumbent=False)
    assert [c.time_limit for c in seen] == [MIN_SOLVER_SECONDS]
