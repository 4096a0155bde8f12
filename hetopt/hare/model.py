"""Pyomo models of Hare_Sched (4)-(8) and of its relaxation Hare_Sched_RL ((4)-(7), (9)).

``build_hare_sched`` states the exact problem with the non-overlap constraint (8) as a
disjunction per pair of tasks (Pyomo GDP) and transforms it to a MILP with big-M
constants that Pyomo derives from the instance-derived variable bounds of
:mod:`hetopt.hare.bounds`.  ``build_relaxation`` replaces (8) by Queyranne's inequality
(9), either directly (bilinear ``y x`` and quadratic ``(sum y T)^2`` terms, for SCIP) or as
an exact linearization (``u = y x`` and ``z = y y`` by McCormick envelopes, exact because
``y`` is binary and ``x`` bounded; a MILP for HiGHS).

References
----------
.. [1] F. Chen, P. Li, C. Wu, S. Guo, "Hare", HPDC 2022, Section 5.
.. [2] M. Queyranne, "Structure of a simple scheduling polyhedron", Mathematical
   Programming 58 (1993) 263-285.
.. [3] R. Raman, I. E. Grossmann, "Modelling and computational techniques for logic based
   integer programming", Computers & Chemical Engineering 18 (1994) 563-578 (GDP).
"""

from __future__ import annotations

from itertools import combinations

import pyomo.environ as pyo
from pyomo.gdp import Disjunct, Disjunction

from ..errors import ArgumentError, SizeLimitError
from ..inputs import check_flag, takes_instance
from .bounds import TimeBounds, time_bounds
from .instance import HareInstance

__all__ = ["build_hare_sched", "build_relaxation", "overlap_pairs", "model_size", "SUBSET_LIMIT", "FORMS"]

#: Forms of the relaxation: the exact linearization (HiGHS) and the direct quadratic form (SCIP).
FORMS = ("linear", "direct")

#: Largest number of tasks for which ``build_relaxation(subsets=True)`` enumerates subsets.
SUBSET_LIMIT = 12


def overlap_pairs(inst: HareInstance) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Pairs of tasks that (8) must keep apart.

    Returns ``(free, same_round)``: pairs of tasks of different jobs, whose order is free,
    and pairs ``(i, j)``, ``i < j``, of tasks of the same round of a job.  Pairs of tasks of
    the same job in different rounds are omitted: (7) already orders them with a gap of at
    least ``T^c + T^s >= T^c``, so (8) holds for them in every solution of (7).
    """
    job = inst.task_job
    free = [(i, j) for i, j in combinations(range(inst.n_tasks), 2) if job[i] != job[j]]
    same = [(i, j) for n in range(inst.n_jobs) for r in range(int(inst.rounds[n]))
            for i, j in combinations(inst.round_tasks(n, r), 2)]
    return free, same


def _base(inst: HareInstance, bounds: TimeBounds, name: str) -> pyo.ConcreteModel:
    """Sets, parameters, variables, objective and the linear constraints (4)-(7)."""
    m = pyo.ConcreteModel(name=name)
    m.JOBS = pyo.Set(initialize=range(inst.n_jobs), doc="N, training jobs")
    m.GPUS = pyo.Set(initialize=range(inst.n_gpus), doc="M, heterogeneous GPUs")
    m.TASKS = pyo.Set(initialize=range(inst.n_tasks), doc="D, all tasks (flat index, job by job, round by round)")
    arcs = [(i, j) for n in range(inst.n_jobs) for r in range(int(inst.rounds[n]) - 1)
            for i in inst.round_tasks(n, r) for j in inst.round_tasks(n, r + 1)]
    m.ROUND_ARCS = pyo.Set(initialize=arcs, dimen=2, doc="(i, j): i in D_r, j in D_{r+1} of the same job")
    job = inst.task_job
    m.a = pyo.Param(m.JOBS, initialize=dict(enumerate(inst.arrival.tolist())), doc="a_n, arrival time")
    m.w = pyo.Param(m.JOBS, initialize=dict(enumerate(inst.weight.tolist())), doc="w_n, job weight")
    tc, ts = inst.task_compute, inst.task_sync
    m.Tc = pyo.Param(m.TASKS, m.GPUS, initialize={(i, g): float(tc[i, g]) for i in m.TASKS for g in m.GPUS},
                     doc="T^c_{i,m}, training time of task i on GPU m")
    m.Ts = pyo.Param(m.TASKS, m.GPUS, initialize={(i, g): float(ts[i, g]) for i in m.TASKS for g in m.GPUS},
                     doc="T^s_{i,m}, synchronization time of task i on GPU m")
    m.x = pyo.Var(m.TASKS, bounds=lambda _, i: (float(bounds.x_lower[i]), float(bounds.x_upper[i])),
                  doc="x_i, start time of task i")
    m.y = pyo.Var(m.TASKS, m.GPUS, domain=pyo.Binary, doc="y_{i,m} = 1 if task i runs on GPU m")
    m.C = pyo.Var(m.JOBS, bounds=lambda _, n: (float(bounds.c_lower[n]), float(bounds.c_upper[n])),
                  doc="C_n, completion time of job n")
    m.total_weighted_jct = pyo.Objective(expr=sum(m.w[n] * m.C[n] for n in m.JOBS), sense=pyo.minimize,
                                         doc="Hare_Sched objective: min sum_n w_n C_n")
    m.arrival = pyo.Constraint(m.TASKS, rule=lambda _, i: m.x[i] >= m.a[int(job[i])],
                               doc="(4) no task starts before its job arrives")
    m.assign = pyo.Constraint(m.TASKS, rule=lambda _, i: sum(m.y[i, g] for g in m.GPUS) == 1,
                              doc="(5) every task runs on exactly one GPU")

    def _busy(i):
        return sum(m.y[i, g] * (m.Tc[i, g] + m.Ts[i, g]) for g in m.GPUS)

    m.completion = pyo.Constraint(m.TASKS, rule=lambda _, i: m.C[int(job[i])] >= m.x[i] + _busy(i),
                                  doc="(6) a job completes after each of its tasks synchronizes")
    m.round_barrier = pyo.Constraint(m.ROUND_ARCS, rule=lambda _, i, j: m.x[j] >= m.x[i] + _busy(i),
                                     doc="(7) round r+1 starts after every task of round r synchronizes")
    return m


@takes_instance(HareInstance)
def build_hare_sched(inst: HareInstance, *, transform: bool = True, symmetry_breaking: bool = True,
                     upper_objective: float | None = None, horizon: bool = False) -> pyo.ConcreteModel:
    """The exact problem Hare_Sched, (4)-(8), as a GDP transformed to a big-M MILP.

    Parameters
    ----------
    inst : HareInstance
    transform : bool
        Apply Pyomo's ``gdp.bigm`` (default), giving a MILP for HiGHS or SCIP; with
        ``False`` the disjunctive model is returned untransformed.
    symmetry_breaking : bool
        Tasks of the same round of a job are identical, so any schedule can be relabelled
        so that they start in index order.  With ``True`` (default) the disjunctions of such
        pairs are replaced by that order (``same_round_order``, ``same_round_gap``); the
        optimum is unchanged.
    upper_objective : float, optional
        Value of a known feasible schedule for the variable bounds
        (:func:`hetopt.hare.bounds.time_bounds`); the big-M constants follow from them.
    horizon : bool
        Cap completions at the serial horizon (``time_bounds(..., horizon=True)``): the optimum is
        unchanged and the big-M constants stay at the horizon's scale (the exact route's default).

    Returns
    -------
    pyomo.environ.ConcreteModel
        Variables ``x`` (start), ``y`` (assignment), ``C`` (completion); constraints named
        after (4)-(8).

    Notes
    -----
    (8) for a pair ``{i, j}`` on GPU ``m`` reads: if both run on ``m``, the later one starts
    after the earlier one's compute time.  The disjunction ``non_overlap[i, j]`` chooses
    which starts first; its disjunct ``i_first`` requires, for every GPU ``m``,
    ``x_j - x_i >= T^c_{i,m} (y_{i,m} + y_{j,m} - 1)``, which is the paper's
    ``x_j - x_i >= T^c_{i,m}`` when both tasks are on ``m`` and ``x_j >= x_i - T^c_{i,m}``
    or weaker otherwise (always satisfied by the true order).  Exact.
    """
    check_flag(transform, "transform")
    check_flag(symmetry_breaking, "symmetry_breaking")
    bounds = time_bounds(inst, upper_objective, horizon=horizon)
    m = _base(inst, bounds, "Hare_Sched")
    free, same = overlap_pairs(inst)
    m.PAIRS = pyo.Set(initialize=free, dimen=2, doc="pairs of tasks of different jobs")

    def _first(d, i, j, first, second):
        d.order = pyo.Constraint(expr=m.x[second] >= m.x[first], doc="(8) the disjunct's order of starts")
        d.gap = pyo.Constraint(m.GPUS, rule=lambda _, g: m.x[second] - m.x[first]
                               >= m.Tc[first, g] * (m.y[first, g] + m.y[second, g] - 1),
                               doc="(8) the later task starts after the earlier one's compute time")

    m.i_first = Disjunct(m.PAIRS, rule=lambda d, i, j: _first(d, i, j, i, j), doc="(8) task i starts first")
    m.j_first = Disjunct(m.PAIRS, rule=lambda d, i, j: _first(d, i, j, j, i), doc="(8) task j starts first")
    m.non_overlap = Disjunction(m.PAIRS, rule=lambda _, i, j: [m.i_first[i, j], m.j_first[i, j]],
                                doc="(8) two tasks on the same GPU do not overlap")
    if symmetry_breaking:
        m.SAME_ROUND = pyo.Set(initialize=same, dimen=2, doc="pairs (i < j) of tasks of one round of a job")
        m.same_round_order = pyo.Constraint(m.SAME_ROUND, rule=lambda _, i, j: m.x[i] <= m.x[j],
                                            doc="(8-sym) identical tasks of a round start in index order")
        m.same_round_gap = pyo.Constraint(
            m.SAME_ROUND, m.GPUS, rule=lambda _, i, j, g: m.x[j] - m.x[i] >= m.Tc[i, g] * (m.y[i, g] + m.y[j, g] - 1),
            doc="(8) with (8-sym): the later task of a round starts after the earlier one's compute time")
    else:
        m.SAME_ROUND = pyo.Set(initialize=same, dimen=2, doc="pairs (i < j) of tasks of one round of a job")
        m.i_first_same = Disjunct(m.SAME_ROUND, rule=lambda d, i, j: _first(d, i, j, i, j), doc="(8) task i starts first")
        m.j_first_same = Disjunct(m.SAME_ROUND, rule=lambda d, i, j: _first(d, i, j, j, i), doc="(8) task j starts first")
        m.non_overlap_same = Disjunction(m.SAME_ROUND, rule=lambda _, i, j: [m.i_first_same[i, j], m.j_first_same[i, j]],
                                         doc="(8) two tasks of one round on the same GPU do not overlap")
    if transform:
        pyo.TransformationFactory("gdp.bigm").apply_to(m)
    return m


def _subsets(inst: HareInstance, subsets: bool) -> list[tuple[int, ...]]:
    if not subsets:
        return [tuple(range(inst.n_tasks))]
    if inst.n_tasks > SUBSET_LIMIT:
        raise SizeLimitError(f"subsets=True enumerates 2^|D| subsets; |D| is {inst.n_tasks}, limit {SUBSET_LIMIT}")
    d = range(inst.n_tasks)
    return [s for k in range(1, inst.n_tasks + 1) for s in combinations(d, k)]


@takes_instance(HareInstance)
def build_relaxation(inst: HareInstance, form: str = "linear", *, subsets: bool = False,
                     upper_objective: float | None = None) -> pyo.ConcreteModel:
    """Hare_Sched_RL: (4)-(7) with Queyranne's inequality (9) in place of (8).

    Parameters
    ----------
    inst : HareInstance
    form : {"linear", "direct"}
        ``"direct"``: (9) as printed, a nonconvex quadratic constraint per GPU (SCIP).
        ``"linear"``: the exact linearization with ``u_{i,m} = y_{i,m} x_i`` and
        ``z_{i,j,m} = y_{i,m} y_{j,m}`` (McCormick, exact for binary ``y``), a MILP.
    subsets : bool
        ``False`` (default): (9) as printed, over the full task set of every GPU.
        ``True``: (9) for every non-empty subset ``S`` of tasks (Queyranne's polyhedron,
        which the proof of Lemma 2 uses for prefixes of the ordering); at most
        :data:`SUBSET_LIMIT` tasks.
    upper_objective : float, optional
        Value of a known feasible schedule (variable bounds, McCormick constants).

    Returns
    -------
    pyomo.environ.ConcreteModel

    Notes
    -----
    With ``y`` binary, ``(y T)^2 = y T^2`` and ``(sum_i y_i T_i)^2 = sum_i y_i T_i^2
    + 2 sum_{i<j} T_i T_j y_i y_j``, so (9) for a set ``S`` on GPU ``m`` is equivalent to
    ``sum_{i in S} T^c_{i,m} u_{i,m} >= sum_{i<j in S} T^c_{i,m} T^c_{j,m} z_{i,j,m}``.
    """
    if form not in ("linear", "direct"):
        raise ArgumentError(f"form is {form!r}; expected 'linear' or 'direct'")
    check_flag(subsets, "subsets")
    bounds = time_bounds(inst, upper_objective)
    sets = _subsets(inst, subsets)
    m = _base(inst, bounds, f"Hare_Sched_RL ({form})")
    m.SUBSETS = pyo.Set(initialize=range(len(sets)), doc="task sets S of (9) (the full set D unless subsets=True)")
    members = {k: s for k, s in enumerate(sets)}
    if form == "direct":
        def _q(_, k, g):
            s = members[k]
            lhs = sum(m.y[i, g] * m.Tc[i, g] * (m.x[i] + m.Tc[i, g]) for i in s)
            load = sum(m.y[i, g] * m.Tc[i, g] for i in s)
            return lhs >= 0.5 * (load ** 2 + sum((m.y[i, g] * m.Tc[i, g]) ** 2 for i in s))

        m.queyranne = pyo.Constraint(m.SUBSETS, m.GPUS, rule=_q,
                                     doc="(9) Queyranne's inequality on each GPU (direct quadratic form)")
        return m
    lo, hi = bounds.x_lower, bounds.x_upper
    m.u = pyo.Var(m.TASKS, m.GPUS, bounds=lambda _, i, g: (0.0, float(hi[i])), doc="u_{i,m} = y_{i,m} x_i")
    m.u_le_y = pyo.Constraint(m.TASKS, m.GPUS, rule=lambda _, i, g: m.u[i, g] <= float(hi[i]) * m.y[i, g],
                              doc="(9-lin) McCormick: u <= ub(x) y")
    m.u_ge_y = pyo.Constraint(m.TASKS, m.GPUS, rule=lambda _, i, g: m.u[i, g] >= float(lo[i]) * m.y[i, g],
                              doc="(9-lin) McCormick: u >= lb(x) y")
    m.u_le_x = pyo.Constraint(m.TASKS, m.GPUS, rule=lambda _, i, g: m.u[i, g] <= m.x[i] - float(lo[i]) * (1 - m.y[i, g]),
                              doc="(9-lin) McCormick: u <= x - lb(x) (1 - y)")
    m.u_ge_x = pyo.Constraint(m.TASKS, m.GPUS, rule=lambda _, i, g: m.u[i, g] >= m.x[i] - float(hi[i]) * (1 - m.y[i, g]),
                              doc="(9-lin) McCormick: u >= x - ub(x) (1 - y)")
    pairs = list(combinations(range(inst.n_tasks), 2))
    m.TASK_PAIRS = pyo.Set(initialize=pairs, dimen=2, doc="pairs i < j of tasks")
    m.z = pyo.Var(m.TASK_PAIRS, m.GPUS, bounds=(0.0, 1.0), doc="z_{i,j,m} = y_{i,m} y_{j,m}")
    m.z_le_i = pyo.Constraint(m.TASK_PAIRS, m.GPUS, rule=lambda _, i, j, g: m.z[i, j, g] <= m.y[i, g],
                              doc="(9-lin) McCormick: z <= y_i")
    m.z_le_j = pyo.Constraint(m.TASK_PAIRS, m.GPUS, rule=lambda _, i, j, g: m.z[i, j, g] <= m.y[j, g],
                              doc="(9-lin) McCormick: z <= y_j")
    m.z_ge = pyo.Constraint(m.TASK_PAIRS, m.GPUS, rule=lambda _, i, j, g: m.z[i, j, g] >= m.y[i, g] + m.y[j, g] - 1,
                            doc="(9-lin) McCormick: z >= y_i + y_j - 1")

    def _lin(_, k, g):
        s = members[k]
        return (sum(m.Tc[i, g] * m.u[i, g] for i in s)
                >= sum(m.Tc[i, g] * m.Tc[j, g] * m.z[i, j, g] for i, j in combinations(s, 2)))

    m.queyranne = pyo.Constraint(m.SUBSETS, m.GPUS, rule=_lin,
                                 doc="(9) Queyranne's inequality on each GPU (exact linearization)")
    return m


def model_size(model: pyo.ConcreteModel) -> dict[str, int]:
    """Numbers of variables, binaries and constraints of a built model."""
    vars_ = list(model.component_data_objects(pyo.Var, active=True))
    cons = list(model.component_data_objects(pyo.Constraint, active=True))
    return {"variables": len(vars_), "binaries": sum(v.is_binary() for v in vars_), "constraints": len(cons)}

