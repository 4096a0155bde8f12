"""Scheduling policies of the trace simulator, all behind one interface (``reset``, ``allocate``).

* :class:`HadarPolicy` -- Algorithm 1: every round, DP allocation (Algorithm 2) over the queue.
* :class:`HadarEPolicy` -- Section V: each job forked into n copies (n = machines), copies
  scheduled by Hadar's FIND_ALLOC, remaining steps divided among copies by throughput, and
  the last-round rule (only the fastest copies needed to finish are kept).
* :class:`GavelPolicy` -- heterogeneity-aware max-min fairness LP + Gavel's round mechanism
  (:class:`hetopt.gavel.GavelMechanism`), a job on ``W_j`` GPUs of one type.
* :class:`TiresiasPolicy` -- discretized 2D-LAS with two priority queues, PromoteKnob off,
  heterogeneity-unaware (a gang on one type, types in a fixed order).
* :class:`YarnCSPolicy` -- YARN's capacity scheduler: non-preemptive FIFO, any free GPUs.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from ..errors import ArgumentError, InstanceError
from ..gavel import DEFAULT_RECOMPUTE_INTERVAL, GavelMechanism, fastest_first, max_min_fairness
from ..inputs import check_choice, check_flag, check_positive, check_seed, check_size, numeric_array, takes_instance
from .allocation import _find_alloc, dp_allocation
from .instance import HadarInstance
from .price import _price, price_parameters
from .protocol import Gangs, Policy, RoundState

__all__ = ["AUTO_EXACT_STATES", "QUEUE_ORDERS", "queue_rank", "HadarPolicy", "HadarEPolicy", "GavelPolicy", "TiresiasPolicy", "YarnCSPolicy", "POLICIES",
           "make_policy", "place_on_type"]


#: ``beam_width="auto"`` runs the exact DP when the cluster has at most this many free-GPU matrices.
AUTO_EXACT_STATES = 10_000


#: Orders of the queue among jobs that arrived in the same slot (``HadarPolicy(queue_order=...)``).
QUEUE_ORDERS = ("index", "longest_first", "random")


def _queue(state: RoundState, rank: np.ndarray | None = None) -> np.ndarray:
    """Active jobs in arrival order, ties by ``rank`` (default: by index): the queue Q."""
    act = np.flatnonzero(state.active)
    key = act if rank is None else rank[act]
    return act[np.lexsort((act, key, state.inst.arrival[act]))]


@takes_instance(HadarInstance)
def queue_rank(inst: HadarInstance, order: str = "index", *, seed: Any = 0) -> np.ndarray:
    """Rank of every job in the queue among jobs of the same arrival slot.

    ``"index"``: job index (the paper's Q, the default); ``"longest_first"``: the longest
    single-job time first (``E_j N_j`` over the best gang rate); ``"random"``: a random
    permutation drawn with ``seed``.

    Raises
    ------
    ArgumentError
        ``order`` is not one of :data:`QUEUE_ORDERS`, or ``seed`` is not a seed.
    """
    check_choice(order, "queue_order", QUEUE_ORDERS)
    seed = check_seed(seed)
    if order == "index":
        return np.arange(inst.n_jobs)
    if order == "longest_first":
        t = inst.total_iterations / inst.best_gang_rate()
        rank = np.empty(inst.n_jobs, dtype=np.int64)
        rank[np.argsort(-t, kind="stable")] = np.arange(inst.n_jobs)
        return rank
    return np.random.default_rng(seed).permutation(inst.n_jobs)


class HadarPolicy:
    """Algorithm 1: in each round, ``dp_allocation`` over the queue with fresh prices.

    Parameters
    ----------
    beam_width : int, None or "auto"
        States kept by the DP.  None: the exact DP; 1: the greedy pass; "auto" (default): exact
        when the cluster has at most ``AUTO_EXACT_STATES`` free-GPU matrices (the DP's state
        space, ``prod_hr (c^r_h + 1)``), else the greedy pass, fast enough for hundreds of jobs.
    comm_weight : float
        Communication cost per GPU outside the main machine, in units of ``U_min``.
    eta : float, optional
        Scaling factor of eq. (7).
    work_conserving : bool
        Fill GPUs left idle by the DP with the remaining queued jobs (default True; see
        :func:`~hetopt.hadar.allocation.dp_allocation`).
    queue_order : {"index", "longest_first", "random"}
        Order of the queue among jobs that arrived in the same slot (:func:`queue_rank`); the
        paper's Q is in arrival order, ties unspecified ("index", the default).  When the prices
        do not bind (on the trace ``U_min`` is about 1e-12), the DP admits jobs in this order.
    seed : int, optional
        Seed of ``queue_order="random"``.
    single_type : bool
        Only gangs of one GPU type (not the paper's; the arena's gang rule ``"single"``, see
        :func:`~hetopt.hadar.allocation.find_alloc`).
    """

    name = "hadar"

    def __init__(self, beam_width: int | None | str = "auto", comm_weight: float = 1.0, eta: float | None = None,
                 work_conserving: bool = True, queue_order: str = "index", seed: Any = 0, single_type: bool = False):
        if not (beam_width is None or beam_width == "auto"):
            check_size(beam_width, "beam_width")
        self.beam_width = beam_width
        self.comm_weight = check_positive(comm_weight, "comm_weight", allow_zero=True)
        self.eta = None if eta is None else check_positive(eta, "eta")
        self.work_conserving = check_flag(work_conserving, "work_conserving")
        self.queue_order = check_choice(queue_order, "queue_order", QUEUE_ORDERS)
        self.seed = check_seed(seed)
        self.single_type = check_flag(single_type, "single_type")

    def reset(self, inst: HadarInstance) -> None:
        """Rank the queue and compute the prices' parameters for ``inst``."""
        self.rank = queue_rank(inst, self.queue_order, seed=self.seed)
        self.params = price_parameters(inst, self.eta)
        if self.beam_width == "auto":
            states = float(np.prod(inst.capacity.astype(float) + 1.0))
            self.beam: int | None = None if states <= AUTO_EXACT_STATES else 1
        else:
            self.beam = cast(int | None, self.beam_width)

    def allocate(self, state: RoundState) -> Gangs:
        """The DP allocation of Algorithm 2 over the queue at fresh prices."""
        res = dp_allocation(state.inst, _queue(state, self.rank), state.remaining, state.now, params=self.params,
                            beam_width=self.beam, comm_weight=self.comm_weight,
                            work_conserving=self.work_conserving, single_type=self.single_type)
        return [(j, a.w) for j, a in res.allocations.items()]


class HadarEPolicy:
    """HadarE: Hadar on forked copies (Section V-A).

    Every active job has ``n_copies`` copies (default: the number of machines).  Copies are
    considered round-robin (first copies of all jobs in queue order, then second copies, ...),
    each placed where FIND_ALLOC finds the largest payoff and admitted while GPUs are free
    (HadarE runs a job "on as many available nodes as possible"; the payoff chooses where,
    not whether), until the copies already placed for a job can finish its remaining steps
    within the round (the last-round rule: the job's fastest copies finish it; the others
    stay free for other jobs).  A copy takes one machine unless no machine can hold the gang.  The simulator divides the remaining steps among a job's copies in
    proportion to their rates and sums their progress (the Job Tracker).

    Parameters
    ----------
    n_copies : int, optional
    consolidated_only : bool
        Each copy on a single machine (default True: a copy trains on one node, as in Fig. 6).
    initial_throughput : array_like, shape (J, R), optional
        Throughputs to schedule with before they are observed (eq. (10)'s estimate, see
        :func:`~hetopt.hadar.workloads.estimate_throughput`).  A (job, type) pair's true
        throughput replaces the estimate once the job has run on that type (the nodes report
        it to the Job Tracker); the simulator always runs at the true speed.  Types where the
        job cannot run (true throughput 0) stay closed.  Default: the true throughputs.
    comm_weight, eta, single_type : see :class:`HadarPolicy`.
    """

    name = "hadare"

    def __init__(self, n_copies: int | None = None, consolidated_only: bool = True, comm_weight: float = 1.0,
                 eta: float | None = None, initial_throughput: Any = None, single_type: bool = False):
        self.n_copies = None if n_copies is None else check_size(n_copies, "n_copies")
        self.consolidated_only = check_flag(consolidated_only, "consolidated_only")
        self.comm_weight = check_positive(comm_weight, "comm_weight", allow_zero=True)
        self.eta = None if eta is None else check_positive(eta, "eta")
        self.single_type = check_flag(single_type, "single_type")
        if initial_throughput is not None:
            try:
                initial_throughput = numeric_array("initial_throughput", initial_throughput)
            except InstanceError as exc:
                raise ArgumentError(str(exc)) from None
        self.initial_throughput = initial_throughput

    def _believed(self, inst: HadarInstance, known: np.ndarray) -> HadarInstance:
        """The instance with estimated throughputs where the true ones are not yet observed."""
        est = self.initial_throughput
        assert est is not None
        X = np.where(known | (inst.throughput <= 0), inst.throughput, est)
        return dataclasses.replace(inst, throughput=X)

    def reset(self, inst: HadarInstance) -> None:
        """Check the estimates against ``inst`` and set up the copies' bookkeeping."""
        est = self.initial_throughput
        if est is not None:
            if est.shape != inst.throughput.shape:
                raise ArgumentError(f"initial_throughput has shape {est.shape}; expected {inst.throughput.shape}")
            bad = np.argwhere(~np.isfinite(est) | ((est <= 0) & (inst.throughput > 0)))
            if bad.size:
                j, r = bad[0]
                raise ArgumentError(f"initial_throughput[{j}, {r}] is {est[j, r]}; estimates must be > 0 where "
                                    "the job can run")
        self.known = np.zeros(inst.throughput.shape, dtype=bool)
        self.view = inst if est is None else self._believed(inst, self.known)
        self.params = price_parameters(inst, self.eta)
        self.n = inst.n_machines if self.n_copies is None else self.n_copies
        usable = inst.capacity[None, :, :] * (inst.throughput[:, None, :] > 0)  # (J, H, R)
        self.spread = usable.sum(axis=2).max(axis=1) < inst.gpus  # no single machine holds the gang

    def allocate(self, state: RoundState) -> Gangs:
        """Copies placed round-robin by FIND_ALLOC, then the last-round rule (see the class)."""
        if self.initial_throughput is not None:
            seen = state.previous.sum(axis=1) > 0  # (J, R): types each job ran on last round
            if np.any(seen & ~self.known):
                self.known |= seen
                self.view = self._believed(state.inst, self.known)
        inst = self.view
        cap = inst.capacity
        free = cap.copy()
        comm = self.comm_weight * self.params.u_min
        queue = _queue(state)
        planned: dict[int, list[tuple[np.ndarray, float]]] = {int(j): [] for j in queue}  # job -> (w, rate)
        RL = state.round_length
        for _copy in range(self.n):
            for j in queue:
                j = int(j)
                have = planned[j]
                if have and sum(r * RL for _, r in have) >= state.remaining[j]:
                    continue  # last-round rule: the copies placed so far finish the job
                if not free.any():
                    break
                rem = state.remaining[j] - sum(r * RL for _, r in have)
                cons = self.consolidated_only and not self.spread[j]
                a = _find_alloc(inst, j, free, _price(cap - free, cap, self.params), max(float(rem), 0.0), state.now,
                                comm, cons, False, self.single_type)
                if a is not None:
                    have.append((a.w, a.rate))
                    free = free - a.w
        gangs: Gangs = []
        for j, have in planned.items():
            if not have:
                continue
            # keep the fastest copies that suffice (the last-round rule of Section V-A)
            have = sorted(have, key=lambda wr: -wr[1])
            keep: list[np.ndarray] = []
            acc = 0.0
            for w, r in have:
                keep.append(w)
                acc += r * max(RL - state.restart_delay, 0.0)
                if acc >= state.remaining[j]:
                    break
            gangs += [(j, w) for w in keep]
        return gangs


def place_on_type(free: np.ndarray, r: int, n: int, previous: np.ndarray | None = None) -> np.ndarray | None:
    """``n`` GPUs of type ``r`` on the free GPUs, or None if there are fewer.

    The previous machines if still free, else one machine (the fullest that fits), else spread
    over machines with the most free GPUs first.
    """
    if previous is not None and previous.sum() == n and previous[:, r].sum() == n and np.all(previous[:, r] <= free[:, r]):
        return previous.copy()
    if free[:, r].sum() < n:
        return None
    w = np.zeros_like(free)
    fits = np.flatnonzero(free[:, r] >= n)
    if fits.size:
        h = fits[np.argmin(free[fits, r])]
        w[h, r] = n
        return w
    left = n
    for h in np.argsort(-free[:, r], kind="stable"):
        take = min(left, int(free[h, r]))
        w[h, r] = take
        left -= take
        if left == 0:
            break
    return w


class GavelPolicy:
    """Gavel's heterogeneity-aware max-min fairness with the round mechanism of its ``scheduler.py``.

    The LP is re-solved when the set of active jobs has changed, at most every
    ``recompute_interval`` seconds (:class:`~hetopt.gavel.mechanism.GavelMechanism`); each
    job's throughput on type r is ``W_j X^r_j`` (its gang of ``W_j`` type-r GPUs) and its
    scale factor ``W_j``; types whose cluster-wide count is below ``W_j`` are closed to the
    job.  Per-type priority queues, deficits, and work-conserving fill as in Gavel; the queues
    are visited fastest type first (:func:`~hetopt.gavel.mechanism.fastest_first` over all the
    instance's jobs).  A job that ran in the previous round is credited the whole round (Gavel
    credits the time until the job's last step).
    Placement on machines: :func:`place_on_type`.

    Parameters
    ----------
    policy : callable
        A Gavel policy with the common signature (default: max-min fairness).
    recompute_interval : float
        Minimum seconds between two recomputations (Gavel: 1,920).
    """

    name = "gavel"

    def __init__(self, policy: Callable[..., Any] = max_min_fairness,
                 recompute_interval: float = DEFAULT_RECOMPUTE_INTERVAL):
        if not callable(policy):
            raise ArgumentError(f"policy is {policy!r}; expected a Gavel policy function such as max_min_fairness")
        self.policy = policy
        self.recompute_interval = check_positive(recompute_interval, "recompute_interval", allow_zero=True,
                                                 allow_inf=True)

    def reset(self, inst: HadarInstance) -> None:
        """Gang throughputs ``W_j X^r_j``, closed types, and a fresh round mechanism."""
        self.per_type = inst.capacity.sum(axis=0)
        self.T = inst.throughput * inst.gpus[:, None]
        self.T[inst.gpus[:, None] > self.per_type[None, :]] = 0.0
        require_single_type_gangs(inst, "gavel", "Gavel")
        self.mechanism: GavelMechanism | None = None

    def allocate(self, state: RoundState) -> Gangs:
        """Re-solve the LP when due, then Gavel's round mechanism and :func:`place_on_type`."""
        inst = state.inst
        if self.mechanism is None:
            self.mechanism = GavelMechanism(inst.n_types, round_length=state.round_length,
                                            recompute_interval=self.recompute_interval,
                                            type_order=fastest_first(self.T))
        mech = self.mechanism
        if mech.jobs:  # last round's runs count before finished jobs leave (as in Gavel)
            known = np.array(mech.jobs)
            used = state.previous[known].sum(axis=1) > 0  # (jobs, R) types each job ran on last round
            ran = used.any(axis=1)
            for j, r in zip(known[ran].tolist(), used[ran].argmax(axis=1).tolist(), strict=True):
                mech.record(j, r, state.round_length)
        act = np.flatnonzero(state.active)
        mech.sync(act.tolist())
        if mech.recompute_due(state.now):
            X = self.policy(self.T[act], inst.gpus[act], self.per_type)
            mech.reset(state.now, dict(zip(act.tolist(), X, strict=True)))
        place = cast(dict[int, int], mech.schedule({j: self.T[j] for j in act.tolist()},
                                                    {j: int(inst.gpus[j]) for j in act.tolist()}, self.per_type))
        free = inst.capacity.copy()
        gangs: Gangs = []
        for j, r in place.items():
            w = place_on_type(free, r, int(inst.gpus[j]), state.previous[j])
            if w is not None:
                free -= w
                gangs.append((int(j), w))
        return gangs


def require_single_type_gangs(inst: HadarInstance, policy: str, who: str) -> None:
    """Refuse an instance where some job's gang of ``W_j`` GPUs exceeds the count of every type it can use.

    A policy that runs each job on one type (Gavel, Tiresias) could never start that job, and a run
    would only stop at the stall guard; the InstanceError names the first such job.
    """
    per_type = inst.capacity.sum(axis=0)
    fits = (inst.throughput > 0) & (inst.gpus[:, None] <= per_type[None, :])
    stuck = np.flatnonzero(~fits.any(axis=1))
    if stuck.size:
        j = int(stuck[0])
        raise InstanceError(f"{policy} cannot run job {j}: its gang of {inst.gpus[j]} GPUs exceeds the count of every "
                            f"GPU type it can use ({who} runs a job on a single type)")


class TiresiasPolicy:
    """Tiresias (discretized 2D-LAS): two priority queues by attained GPU-seconds, PromoteKnob off.

    Jobs with attained service below ``threshold`` GPU-seconds are in the high queue; within a
    queue, FIFO by arrival.  Heterogeneity-unaware: each job in priority order gets a gang
    of ``W_j`` GPUs of the first type (in index order) with enough free GPUs it can run on.
    Preemptive: a lower-priority job loses its GPUs when they are needed.
    """

    name = "tiresias"

    def __init__(self, threshold: float = 3600.0):
        self.threshold = check_positive(threshold, "threshold", allow_inf=True)

    def reset(self, inst: HadarInstance) -> None:
        """Refuse a job no single type can hold; the queues follow the attained service in the round state."""
        require_single_type_gangs(inst, "tiresias", "Tiresias")

    def allocate(self, state: RoundState) -> Gangs:
        """Jobs by queue and arrival, each on the first type with ``W_j`` free GPUs."""
        inst = state.inst
        act = np.flatnonzero(state.active)
        queue = (state.attained[act] >= self.threshold).astype(int)
        order = act[np.lexsort((act, inst.arrival[act], queue))]
        free = inst.capacity.copy()
        left = free.sum(axis=0).tolist()  # free GPUs per type: place_on_type returns None below W_j
        usable = inst.throughput > 0
        gangs: Gangs = []
        for j in order.tolist():
            n = int(inst.gpus[j])
            for r in range(inst.n_types):
                if left[r] < n or not usable[j, r]:
                    continue
                w = place_on_type(free, r, n, state.previous[j])
                if w is not None:  # n GPUs, all of type r
                    free -= w
                    left[r] -= n
                    gangs.append((j, w))
                    break
        return gangs


class YarnCSPolicy:
    """YARN capacity scheduler: non-preemptive FIFO over any free GPUs (heterogeneity-unaware).

    A running job keeps its GPUs until it completes; waiting jobs, in arrival order, start as
    soon as ``W_j`` GPUs of types they can run on are free (one machine if possible,
    else machines with the most free GPUs first; types mixed, the bottleneck applies).
    """

    name = "yarn_cs"

    def reset(self, inst: HadarInstance) -> None:
        """Nothing to prepare: running jobs keep their GPUs, read from the round state."""

    def allocate(self, state: RoundState) -> Gangs:
        """Running jobs keep their GPUs; waiting jobs start in arrival order where ``W_j`` GPUs are free."""
        inst = state.inst
        free = inst.capacity.copy()
        gangs: Gangs = []
        for j in np.flatnonzero(state.active & (state.previous.sum(axis=(1, 2)) > 0)):
            gangs.append((int(j), state.previous[j].copy()))
            free -= state.previous[j]
        col = free.sum(axis=0).tolist()  # free GPUs per type
        usable = inst.throughput > 0
        rows = usable.tolist()
        running: list[bool] = np.asarray(state.previous.any(axis=(1, 2))).tolist()
        for j in _queue(state).tolist():
            W = int(inst.gpus[j])
            if running[j] or sum(c for c, ok in zip(col, rows[j], strict=True) if ok) < W:
                continue
            avail = np.where(usable[j][None, :], free, 0)
            w = np.zeros_like(free)
            fits = np.flatnonzero(avail.sum(axis=1) >= W)
            machines = [fits[np.argmin(avail[fits].sum(axis=1))]] if fits.size else \
                list(np.argsort(-avail.sum(axis=1), kind="stable"))
            left = W
            for h in machines:
                for r in range(inst.n_types):
                    take = min(left, int(avail[h, r]))
                    w[h, r] += take
                    left -= take
                if left == 0:
                    break
            free -= w
            col = free.sum(axis=0).tolist()
            gangs.append((j, w))
        return gangs


#: Policy name -> class; every class has ``reset(inst)`` and ``allocate(state)`` (:class:`Policy`).
#: The one registry of the simulator's policies: it feeds :func:`make_policy` and the kind's methods.
POLICIES: dict[str, type] = {
    "hadar": HadarPolicy,
    "hadare": HadarEPolicy,
    "gavel": GavelPolicy,
    "tiresias": TiresiasPolicy,
    "yarn_cs": YarnCSPolicy,
}


def make_policy(name: str, **options: Any) -> Policy:
    """Instantiate the policy called ``name`` of :data:`POLICIES` with ``options``.

    Raises
    ------
    ArgumentError
        ``name`` is not in :data:`POLICIES`, or an option is not one the policy takes.
    """
    check_choice(name, "name (the policy)", tuple(POLICIES))
    cls = POLICIES[name]
    takes = list(inspect.signature(cls).parameters)
    unknown = [k for k in options if k not in takes]
    if unknown:
        raise ArgumentError(f"policy {name!r} takes no option {', '.join(map(repr, unknown))}; its options are: "
                            f"{', '.join(takes) or 'none'}")
    return cls(**options)
