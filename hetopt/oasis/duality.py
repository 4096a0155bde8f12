"""LP duality of OASiS made explicit: the duals of (14)'s relaxation, complementary slackness, dual fitting.

The per-job primal and dual increments of Alg. 1 are those the proof of Theorem 4 sums.

* :func:`lp_duals` solves the LP relaxation of (14)-(18) over a given set of schedules and
  reads the optimal duals p, q, mu of (15), (16), (17) from the model's ``dual`` Suffix;
* :func:`dual_objective`, :func:`fit_mu` and :func:`dual_payoffs` evaluate (19)-(20) at any
  prices: with ``mu = fit_mu(...)`` every nonnegative price vector is a feasible dual, so
  its objective is an upper bound on the LP (weak duality);
* :func:`complementary_slackness` lists slack x dual for every row and column;
* :func:`dual_fitting_trace` replays Alg. 1 and records P_i - P_{i-1}, D_i - D_{i-1} and the
  inequality P_i - P_{i-1} >= (D_i - D_{i-1}) / alpha of Lemma 2 (Appendix E).

Schedules are passed as in :func:`~hetopt.oasis.model.build_primal`: ``schedules[i]`` is the
list L_i of job i's candidate schedules.

References
----------
Y. Bao, Y. Peng, C. Wu, Z. Li, INFOCOM 2018, Section IV-A (14)-(21), Appendix E (Lemmas 1-3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyomo.environ as pyo

from ..certify import Status
from ..errors import ArgumentError, SolverError
from ..inputs import takes_instance
from ..solvers import solve_model
from .instance import OasisInstance
from .model import build_primal
from .online import OasisPolicy, arrival_order
from .oracle import OracleResult, best_schedule
from .prices import PriceBounds, Prices, prices_from_usage
from .schedule import JobSchedule, OasisSolution, schedule_cost
from .simulator import simulate

__all__ = ["LPDuals", "lp_duals", "capacity_term", "dual_objective", "dual_payoffs", "fit_mu", "complementary_slackness",
           "DualFitStep", "DualFitTrace", "dual_fitting_trace"]

Schedules = Mapping[int, Sequence[JobSchedule]]


def _check(inst: OasisInstance, schedules: Schedules) -> None:
    """ArgumentError naming ``schedules`` when it has the wrong form (``inst`` is checked by ``@takes_instance``)."""
    if not isinstance(schedules, Mapping):
        raise ArgumentError(f"schedules must be a mapping job -> list of JobSchedule; got {type(schedules).__name__}")
    for i, lst in schedules.items():
        if not (isinstance(i, (int, np.integer)) and 0 <= int(i) < inst.n_jobs):
            raise ArgumentError(f"schedules has key {i!r}; expected a job index in [0, {inst.n_jobs - 1}]")
        for l, sched in enumerate(lst):
            if not isinstance(sched, JobSchedule) or sched.job != i:
                raise ArgumentError(f"schedules[{i}][{l}] must be a JobSchedule of job {i}; got {sched!r:.60}")
            if sched.workers.shape != (inst.n_worker_servers, inst.horizon) or sched.ps.shape != (inst.n_ps_servers, inst.horizon):
                raise ArgumentError(f"schedules[{i}][{l}] has workers {sched.workers.shape} and ps {sched.ps.shape}; expected "
                                    f"({inst.n_worker_servers}, {inst.horizon}) and ({inst.n_ps_servers}, {inst.horizon})")


@dataclass(frozen=True, eq=False)
class LPDuals:
    """Optimal primal and dual solutions of the LP relaxation of (14)-(18).

    Attributes
    ----------
    objective : float
        Optimum of the relaxed (14).
    x : dict
        x_il per column (i, l).
    prices : Prices
        p_h^r(t), q_k^r(t) as dense (T, H, R) and (T, K, R) arrays (0 on rows no schedule uses).
    mu : dict
        mu_i per job with at least one schedule.
    """

    objective: float
    x: dict[tuple[int, int], float]
    prices: Prices
    mu: dict[int, float]


@takes_instance(OasisInstance)
def lp_duals(inst: OasisInstance, schedules: Schedules, *, solver: str = "highs") -> LPDuals:
    """Solve ``build_primal(inst, schedules, relax=True)`` and read its duals.

    The duals come from a Pyomo ``Suffix(direction=IMPORT)`` named ``dual``; for this
    maximization with ``<=`` rows they are >= 0 and are the p, q, mu of (19).

    Parameters
    ----------
    inst : OasisInstance
    schedules : mapping of int to list of JobSchedule
        L_i per job.
    solver : str
        ``"highs"``: the LP is solved through :func:`hetopt.solvers.solve_model` with its duals.

    Returns
    -------
    LPDuals

    Raises
    ------
    ArgumentError
        When ``inst`` or ``schedules`` has the wrong form.
    SolverError
        When the LP is not solved to optimality.
    """
    _check(inst, schedules)
    m = build_primal(inst, schedules, relax=True)
    res = solve_model(m, solver, duals=True, raise_on_failure=False)
    if res.status is not Status.OPTIMAL:
        raise SolverError(f"{solver}: LP relaxation of (14) ended {res.status.value} ({res.message}); expected optimal")
    pr = Prices.zeros(inst)
    for (t, h, r) in m.WROWS:
        pr.p[t - 1, h, r] = max(0.0, float(m.dual[m.worker_capacity[t, h, r]]))
    for (t, k, r) in m.PROWS:
        pr.q[t - 1, k, r] = max(0.0, float(m.dual[m.ps_capacity[t, k, r]]))
    mu = {int(i): max(0.0, float(m.dual[m.one_schedule[i]])) for i in m.JOBS}
    x = {(int(i), int(l)): float(pyo.value(m.x[i, l])) for (i, l) in m.COLUMNS}
    return LPDuals(float(pyo.value(m.utility)), x, pr, mu)


@takes_instance(OasisInstance)
def dual_payoffs(inst: OasisInstance, schedules: Schedules, prices: Prices) -> dict[tuple[int, int], float]:
    """RHS of (20) per column: f_i(t_il - a_i) minus the schedule's resources priced at p, q."""
    _check(inst, schedules)
    return {(i, l): inst.utility_of(i, s.completion) - float(schedule_cost(inst, s, prices.p, prices.q))
            for i in sorted(schedules) for l, s in enumerate(schedules[i])}


@takes_instance(OasisInstance)
def fit_mu(inst: OasisInstance, schedules: Schedules, prices: Prices) -> dict[int, float]:
    """The smallest mu feasible for (20) at these prices: mu_i = max(0, max_l RHS of (20))."""
    pay = dual_payoffs(inst, schedules, prices)
    return {i: max([0.0] + [pay[i, l] for l in range(len(schedules[i]))]) for i in sorted(schedules)}


@takes_instance(OasisInstance)
def capacity_term(inst: OasisInstance, prices: Prices) -> float:
    """sum_t sum_h sum_r p_h^r(t) c_h^r + sum_t sum_k sum_r q_k^r(t) c_k^r (the prices part of (19))."""
    return float(np.einsum("thr,hr->", prices.p, inst.worker_capacity) + np.einsum("tkr,kr->", prices.q, inst.ps_capacity))


@takes_instance(OasisInstance)
def dual_objective(inst: OasisInstance, prices: Prices, mu: Mapping[int, float]) -> float:
    """Objective (19): sum_i mu_i + the priced capacities over every (t, server, r)."""
    return float(sum(mu.values())) + capacity_term(inst, prices)


@takes_instance(OasisInstance)
def complementary_slackness(inst: OasisInstance, schedules: Schedules, x: Mapping[tuple[int, int], float],
                            prices: Prices, mu: Mapping[int, float]) -> list[dict[str, Any]]:
    """Primal slack x dual and dual slack x primal for every row and column of (14)-(20).

    Returns
    -------
    list of dict
        One row per constraint that is used or priced: ``kind`` ("worker capacity (15)", "PS capacity (16)",
        "one schedule (17)" or "column (20)"), ``index``, ``slack`` (>= 0 when feasible),
        ``multiplier`` (the dual for a primal row, x_il for a dual row) and ``product``.
        At a pair of optimal solutions every ``product`` is 0 (up to round-off); for any
        feasible pair the products sum to the duality gap (19) - (14), as long as every
        priced capacity row is listed (rows with zero use and zero price add nothing).
    """
    _check(inst, schedules)
    for name, given in (("x", x), ("mu", mu)):
        if not isinstance(given, Mapping):
            raise ArgumentError(f"{name} is {given!r:.60}; expected a mapping (the LP's solution)")
    if not isinstance(prices, Prices):
        raise ArgumentError(f"prices is {prices!r:.60}; expected hetopt.oasis.Prices (p, q)")
    T, H, K = inst.horizon, inst.n_worker_servers, inst.n_ps_servers
    g = np.zeros((T, H, inst.n_resources))
    v = np.zeros((T, K, inst.n_resources))
    for i in sorted(schedules):
        for l, s in enumerate(schedules[i]):
            xv = float(x.get((i, l), 0.0))
            g += xv * np.einsum("ht,r->thr", s.workers, inst.worker_demand[i])
            v += xv * np.einsum("kt,r->tkr", s.ps, inst.ps_demand[i])
    rows = []
    for (t, h, r) in zip(*np.nonzero((g > 0) | (prices.p > 0)), strict=True):
        slack = float(inst.worker_capacity[h, r] - g[t, h, r])
        rows.append({"kind": "worker capacity (15)", "index": (int(t) + 1, int(h), int(r)), "slack": slack,
                     "multiplier": float(prices.p[t, h, r]), "product": slack * float(prices.p[t, h, r])})
    for (t, k, r) in zip(*np.nonzero((v > 0) | (prices.q > 0)), strict=True):
        slack = float(inst.ps_capacity[k, r] - v[t, k, r])
        rows.append({"kind": "PS capacity (16)", "index": (int(t) + 1, int(k), int(r)), "slack": slack,
                     "multiplier": float(prices.q[t, k, r]), "product": slack * float(prices.q[t, k, r])})
    for i in sorted(schedules):
        slack = 1.0 - sum(float(x.get((i, l), 0.0)) for l in range(len(schedules[i])))
        rows.append({"kind": "one schedule (17)", "index": (i,), "slack": slack, "multiplier": float(mu.get(i, 0.0)),
                     "product": slack * float(mu.get(i, 0.0))})
    pay = dual_payoffs(inst, schedules, prices)
    for (i, l), rhs in pay.items():
        slack = float(mu.get(i, 0.0)) - rhs
        xv = float(x.get((i, l), 0.0))
        rows.append({"kind": "column (20)", "index": (i, l), "slack": slack, "multiplier": xv, "product": slack * xv})
    return rows


@dataclass(frozen=True)
class DualFitStep:
    """One job of Alg. 1 in the proof of Theorem 4 (Appendix E, Lemma 2).

    ``delta_primal`` = P_i - P_{i-1} (f_i if admitted, else 0); ``mu`` = max(0, payoff);
    ``delta_prices`` = the increase of the priced capacities in (19); ``delta_dual`` =
    D_i - D_{i-1} = ``mu + delta_prices``; ``price_paid`` = the admitted schedule's cost at the
    prices before the job (so ``delta_primal = mu + price_paid`` for an admitted job);
    ``holds`` is ``delta_primal >= delta_dual / alpha`` (relative tolerance 1e-9).
    """

    job: int
    arrival: int
    admitted: bool
    delta_primal: float
    mu: float
    price_paid: float
    delta_prices: float
    delta_dual: float
    holds: bool


@dataclass(frozen=True, eq=False)
class DualFitTrace:
    """Alg. 1 as the primal-dual proof sees it.

    Attributes
    ----------
    steps : list of DualFitStep
        In arrival order.
    alpha : float
        The alpha of the bounds used (Theorem 4).
    D0 : float
        Initial dual objective: the capacities priced at L1, L2.
    primal : float
        P_I, OASiS's total utility.
    dual : float
        D_I = sum_i mu_i + priced capacities at the final prices.
    final_prices : Prices
        p, q after the last job.
    mu : dict
        mu_i per job.
    solution : OasisSolution
        The run of OASiS (``simulate(inst, OasisPolicy(inst, ..., record_prices=True))``).
    """

    steps: list[DualFitStep]
    alpha: float
    D0: float
    primal: float
    dual: float
    final_prices: Prices
    mu: dict[int, float]
    solution: OasisSolution

    @property
    def cumulative_primal(self) -> np.ndarray:
        """P_1, ..., P_I."""
        return np.cumsum([s.delta_primal for s in self.steps])

    @property
    def cumulative_dual(self) -> np.ndarray:
        """D_1, ..., D_I (starting from D_0)."""
        return self.D0 + np.cumsum([s.delta_dual for s in self.steps])


@takes_instance(OasisInstance)
def dual_fitting_trace(inst: OasisInstance, *, oracle: Callable[..., OracleResult] = best_schedule,
                       estimates: PriceBounds | float | None = None, log_ratio_cap: float | None = None) -> DualFitTrace:
    """Replay Alg. 1 (:class:`~hetopt.oasis.online.OasisPolicy`) and record the increments of Lemma 2.

    The prices before job i are those Alg. 1 showed it (``record_prices=True``); the prices
    after it are those the next job saw (after the last job: the final usage priced by (22)).

    Parameters
    ----------
    inst : OasisInstance
    oracle, estimates, log_ratio_cap
        As in :class:`~hetopt.oasis.online.OasisPolicy`.

    Returns
    -------
    DualFitTrace
    """
    sol = simulate(inst, OasisPolicy(inst, estimates, oracle=oracle, record_prices=True, log_ratio_cap=log_ratio_cap))
    bounds = sol.info["bounds"]
    a = float(sol.info["alpha_used"])
    order = arrival_order(inst)
    seen = sol.info["prices"]
    final = prices_from_usage(inst, bounds, sol.info["usage"])
    after = [seen[j] for j in order[1:]] + [final]
    D0 = capacity_term(inst, seen[order[0]]) if order else 0.0
    steps, mu = [], {}
    for i, nxt in zip(order, after, strict=True):
        before = seen[i]
        mu_i = max(0.0, float(sol.payoffs[i]))
        mu[i] = mu_i
        admitted = i in sol.schedules
        dP = inst.utility_of(i, sol.schedules[i].completion) if admitted else 0.0
        paid = float(schedule_cost(inst, sol.schedules[i], before.p, before.q)) if admitted else 0.0
        dprice = float(np.einsum("thr,hr->", nxt.p - before.p, inst.worker_capacity)
                       + np.einsum("tkr,kr->", nxt.q - before.q, inst.ps_capacity))
        dD = mu_i + dprice
        steps.append(DualFitStep(i, int(inst.arrival[i]), admitted, dP, mu_i, paid, dprice, dD,
                                 dP >= dD / a - 1e-9 * max(abs(dP), abs(dD) / a)))
    dual = float(sum(mu.values())) + capacity_term(inst, final)
    return DualFitTrace(steps, a, D0, float(sol.total_utility), dual, final, mu, sol)
