"""Lower bounds on the makespan (TTD) of a Hadar instance, valid for every scheduler.

:func:`makespan_lower_bound` solves a fluid LP relaxation: job ``j`` receives ``G_jr``
GPU-seconds of type ``r`` (any machine, any time) and completes when
``sum_r X^r_j G_jr >= E_j N_j``; within a makespan ``M`` a type offers ``C_r M`` GPU-seconds
(``C_r = sum_h c^r_h``) and a job holds at most ``W_j`` GPUs at a time, so
``sum_r G_jr <= W_j M``; a job cannot start before its arrival, so it has
``M - a_j L`` seconds (``sum_r G_jr <= W_j (M - a_j L)``).  Every schedule of every policy in
this package (a gang runs at ``W_j`` times its slowest GPU, which is at most the sum of its
GPUs' rates; restarts only lose time) gives a feasible point, so the LP optimum is a lower
bound on the TTD of every policy that runs a job as one gang at a time (all but HadarE, whose
forked copies hold several gangs of one job).

Scaling: iteration counts reach 1e7 while rates are 1-100 per second, so the LP is written
in units where it is well conditioned: time in units of the longest single-job time
``tau = max_j E_j N_j / (fluid rate of j)`` and GPU-time of job ``j`` normalized by its
work (coefficient ``X^r_j tau / (E_j N_j)``, of order one).

:func:`capacity_lower_bound` is a closed-form cross-check, always at most the LP bound: the
longest single job, and the GPU-seconds every job needs on its fastest type spread over all
GPUs of the types it can use.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.sparse import csr_matrix

from ..errors import InfeasibleError, SizeLimitError, SolverError, UnboundedError
from ..inputs import check_flag, check_positive, check_size, takes_instance
from ..solvers import solve_milp
from .instance import HadarInstance

__all__ = ["MakespanBound", "makespan_lower_bound", "capacity_lower_bound", "min_rounds", "gang_count",
           "MIN_ROUNDS_MAX_STATES"]


@dataclass(frozen=True)
class MakespanBound:
    """A makespan lower bound in seconds.

    Attributes
    ----------
    seconds : float
        The bound (the LP optimum, rescaled to seconds).
    closed_form : float
        :func:`capacity_lower_bound`, never above ``seconds`` (cross-check).
    time_unit : float
        ``tau``: the LP's unit of time in seconds (the longest single-job time).
    status : str
        The LP solver's message.
    """

    seconds: float
    closed_form: float
    time_unit: float
    status: str

    @property
    def hours(self) -> float:
        """The bound in hours."""
        return self.seconds / 3600.0


def _work_and_best(inst: HadarInstance) -> tuple[np.ndarray, np.ndarray]:
    """``E_j N_j`` and the fluid rate of job j.

    The fluid rate is the sum of the per-GPU rates of the ``W_j`` fastest usable GPUs of the
    cluster (at least its best gang rate, which runs every GPU at the slowest one's rate).
    """
    per_type = inst.capacity.sum(axis=0)
    fluid = np.empty(inst.n_jobs)
    for j in range(inst.n_jobs):
        left, rate = int(inst.gpus[j]), 0.0
        for r in np.argsort(-inst.throughput[j], kind="stable"):
            take = min(left, int(per_type[r])) if inst.throughput[j, r] > 0 else 0
            rate += take * inst.throughput[j, r]
            left -= take
        fluid[j] = rate
    return inst.total_iterations.astype(float), fluid


@takes_instance(HadarInstance)
def capacity_lower_bound(inst: HadarInstance, *, one_gang: bool = True) -> float:
    """Closed-form makespan lower bound in seconds.

    ``max( max_j (a_j L + E_j N_j / rate*_j),  sum_j (E_j N_j / max_r X^r_j) / C )`` with
    ``rate*_j`` the sum of the per-GPU rates of the job's ``W_j`` fastest usable GPUs and ``C``
    the number of GPUs: no job finishes before it ran from its arrival on its fastest GPUs,
    and the GPU-seconds the jobs need on their fastest types cannot exceed what every GPU
    offers in the makespan.  Both terms are implied by the LP's constraints.  With
    ``one_gang=False`` only the second term, which also holds when a job runs several gangs at
    once (HadarE's copies).
    """
    check_flag(one_gang, "one_gang")
    work, best = _work_and_best(inst)
    gpu_seconds = float(np.sum(work / inst.throughput.max(axis=1))) / float(inst.capacity.sum())
    if not one_gang:
        return gpu_seconds
    single = float(np.max(inst.arrival * inst.slot_length + work / best))
    return max(single, gpu_seconds)


@takes_instance(HadarInstance)
def makespan_lower_bound(inst: HadarInstance) -> MakespanBound:
    """The fluid LP lower bound on the makespan (seconds); see the module docstring.

    Raises
    ------
    SolverError
        When the LP solver fails, or its optimum is below the closed-form bound (a mis-scaled LP).

    Examples
    --------
    >>> from hetopt.hadar import motivating_example
    >>> b = makespan_lower_bound(motivating_example())
    >>> b.closed_form <= b.seconds + 1e-6
    True
    """
    work, best = _work_and_best(inst)
    J, R = inst.n_jobs, inst.n_types
    tau = float(np.max(work / best))
    C = inst.capacity.sum(axis=0).astype(float)
    X = inst.throughput
    rel = inst.arrival * inst.slot_length / tau
    # variables: g[j, r] (J*R, GPU-time in units of tau), then m (makespan in units of tau)
    n = J * R + 1
    c = np.zeros(n)
    c[-1] = 1.0
    usable = X > 0
    # work: sum_r (X_jr tau / work_j) g_jr >= 1  ->  -sum ... <= -1
    entries: list[tuple[int, int, float]] = []  # (row, column, coefficient)
    rhs: list[float] = []
    k = 0
    for j in range(J):
        for r in range(R):
            if usable[j, r]:
                entries.append((k, j * R + r, -X[j, r] * tau / work[j]))
        rhs.append(-1.0)
        k += 1
    for r in range(R):  # type capacity: sum_j g_jr - C_r m <= 0
        for j in range(J):
            if usable[j, r]:
                entries.append((k, j * R + r, 1.0))
        entries.append((k, n - 1, -C[r]))
        rhs.append(0.0)
        k += 1
    for j in range(J):  # gang: sum_r g_jr - W_j m <= -W_j rel_j
        for r in range(R):
            if usable[j, r]:
                entries.append((k, j * R + r, 1.0))
        entries.append((k, n - 1, -float(inst.gpus[j])))
        rhs.append(-float(inst.gpus[j]) * rel[j])
        k += 1
    rows, cols, vals = (list(x) for x in zip(*entries, strict=True))
    A = csr_matrix((vals, (rows, cols)), shape=(k, n))
    ub = np.array([np.inf if usable[j, r] else 0.0 for j in range(J) for r in range(R)] + [np.inf])
    try:
        sol = solve_milp(c, A_ub=A, b_ub=np.array(rhs), lb=0.0, ub=ub)
    except (SolverError, InfeasibleError, UnboundedError) as exc:  # the LP always has an optimum
        raise SolverError(f"makespan LP failed: {type(exc).__name__}: {exc}") from exc
    if not sol.is_optimal or sol.objective is None:
        raise SolverError(f"makespan LP failed: {sol.status.value} ({sol.message})")
    lp = float(sol.objective) * tau
    closed = capacity_lower_bound(inst)
    if closed > lp * (1 + 1e-6) + 1e-6:
        raise SolverError(f"makespan LP bound {lp:.6g} s is below the closed-form bound {closed:.6g} s: "
                          "the LP is mis-scaled or wrong")
    return MakespanBound(seconds=lp, closed_form=closed, time_unit=tau, status=sol.message)


#: :func:`min_rounds` refuses instances with more jobs or more (machine, type) GPU slots.
MIN_ROUNDS_MAX_JOBS, MIN_ROUNDS_MAX_PAIRS = 6, 8
#: Default ``max_states`` of :func:`min_rounds`: the most joint gang assignments of one round (an estimate
#: made before enumerating them) and the most (frontier x round vectors) combinations of one search step.
MIN_ROUNDS_MAX_STATES = 200_000


def _pairs(inst: HadarInstance) -> list[tuple[int, int]]:
    return [(h, r) for h in range(inst.n_machines) for r in range(inst.n_types) if inst.capacity[h, r] > 0]


def gang_count(inst: HadarInstance, j: int) -> int:
    """The number of gangs of job j: vectors of ``W_j`` GPUs over its usable (machine, type) pairs within capacity."""
    caps = [int(inst.capacity[h, r]) for h, r in _pairs(inst) if inst.throughput[j, r] > 0]
    W = int(inst.gpus[j])
    ways = [1] + [0] * W  # ways[n]: vectors of n GPUs over the pairs seen so far
    for c in caps:
        new = [0] * (W + 1)
        for n in range(W + 1):
            if ways[n]:
                for k in range(min(c, W - n) + 1):
                    new[n + k] += ways[n]
        ways = new
    return ways[W]


def _round_progress(inst: HadarInstance, round_length: float) -> np.ndarray:
    """Pareto-maximal iteration vectors one round can give (every job one gang of W_j GPUs or none)."""
    pairs = _pairs(inst)
    cap0 = np.array([inst.capacity[h, r] for h, r in pairs])

    def gangs(j, cap):
        """Every per-pair GPU count vector of a gang of job j within ``cap`` (usable types only)."""
        out = []

        def rec(i, left, cur):
            if left == 0:
                out.append(cur.copy())
                return
            if i == len(pairs):
                return
            h, r = pairs[i]
            top = min(left, int(cap[i])) if inst.throughput[j, r] > 0 else 0
            for k in range(top, -1, -1):
                cur[i] = k
                rec(i + 1, left - k, cur)
            cur[i] = 0

        rec(0, int(inst.gpus[j]), np.zeros(len(pairs), dtype=np.int64))
        return out

    vectors = set()

    def assign(j, cap, prog):
        if j == inst.n_jobs:
            vectors.add(tuple(prog))
            return
        assign(j + 1, cap, prog)
        for g in gangs(j, cap):
            types = {pairs[i][1] for i in np.flatnonzero(g)}
            rate = inst.gpus[j] * min(inst.throughput[j, r] for r in types)
            assign(j + 1, cap - g, prog[:j] + [rate * round_length] + prog[j + 1:])

    assign(0, cap0, [0.0] * inst.n_jobs)
    vs = np.array(sorted(vectors))
    keep = [v for v in vs if not any(np.all(w >= v) and np.any(w > v) for w in vs)]
    return np.array(keep)


@takes_instance(HadarInstance)
def min_rounds(inst: HadarInstance, *, round_length: float | None = None, max_rounds: int = 1000,
               max_states: int = MIN_ROUNDS_MAX_STATES) -> int:
    """The fewest rounds in which any schedule obeying P1's gang constraint (1e) finishes every job.

    Exact search: each round every arrived job runs one gang of ``W_j`` GPUs (any machines and
    types, at the bottleneck rate of (1b)) or none, with no restart delay; a breadth-first search
    over remaining-iteration vectors, keeping only the Pareto-minimal ones after each round.
    Jobs arrive at the start of round ``a_j`` (rounds of one slot unless ``round_length`` is given).

    Raises
    ------
    ArgumentError
        A ``round_length`` that is not a positive finite number, or a ``max_rounds`` or
        ``max_states`` that is not a positive integer.
    SizeLimitError
        Before searching: with more than ``MIN_ROUNDS_MAX_JOBS`` jobs or ``MIN_ROUNDS_MAX_PAIRS``
        (machine, type) pairs, when the joint gang assignments of a round (``prod_j (1 + gangs_j)``,
        :func:`gang_count`) exceed ``max_states``, or when a makespan lower bound needs more than
        ``max_rounds`` rounds; during the search, when a step would combine more than ``max_states``
        (frontier, round) pairs or no schedule finishes within ``max_rounds`` rounds.  The message
        gives the estimate and the argument to raise.
    """
    check_size(max_rounds, "max_rounds")
    check_size(max_states, "max_states")
    RL = inst.slot_length if round_length is None else check_positive(round_length, "round_length")
    pairs = int(np.count_nonzero(inst.capacity))
    if inst.n_jobs > MIN_ROUNDS_MAX_JOBS or pairs > MIN_ROUNDS_MAX_PAIRS:
        raise SizeLimitError(f"min_rounds: {inst.n_jobs} jobs and {pairs} (machine, type) pairs; the exact search "
                             f"is limited to {MIN_ROUNDS_MAX_JOBS} jobs and {MIN_ROUNDS_MAX_PAIRS} pairs")
    estimate = 1
    for j in range(inst.n_jobs):
        estimate *= 1 + gang_count(inst, j)
    if estimate > max_states:
        raise SizeLimitError(f"min_rounds: a round has up to {estimate} joint gang assignments (prod_j (1 + gangs_j)), "
                             f"above max_states={max_states}; pass max_states={estimate} to enumerate them")
    need = capacity_lower_bound(inst) / RL
    if need * (1 - 1e-9) > max_rounds:
        raise SizeLimitError(f"min_rounds: a makespan lower bound needs {need:.6g} rounds of {RL:g} s, above "
                             f"max_rounds={max_rounds}; pass max_rounds={int(np.ceil(need)) + 1} or longer rounds")
    prog = _round_progress(inst, RL)
    total = inst.total_iterations.astype(float)
    eps = 1e-9 * total
    arr_round = np.ceil(inst.arrival * inst.slot_length / RL - 1e-12).astype(int)
    frontier = np.array([total])
    for k in range(max_rounds):
        if frontier.shape[0] * prog.shape[0] > max_states:
            raise SizeLimitError(f"min_rounds: round {k + 1} combines {frontier.shape[0]} frontier vectors with "
                                 f"{prog.shape[0]} round vectors, above max_states={max_states}; pass a larger "
                                 "max_states")
        act = arr_round <= k
        step = prog * act[None, :]
        nxt = np.maximum(frontier[:, None, :] - step[None, :, :], 0.0).reshape(-1, inst.n_jobs)
        nxt[nxt <= eps] = 0.0
        if np.any(np.all(nxt == 0.0, axis=1)):
            return k + 1
        nxt = np.unique(nxt, axis=0)
        order = np.argsort(nxt.sum(axis=1))
        kept: list[np.ndarray] = []
        for v in nxt[order]:
            if not any(np.all(w <= v) for w in kept):
                kept.append(v)
        frontier = np.array(kept)
    raise SizeLimitError(f"min_rounds: no schedule finishes within max_rounds = {max_rounds} rounds; pass a larger "
                         "max_rounds")
