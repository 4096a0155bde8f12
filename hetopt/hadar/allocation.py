"""Algorithm 2 of Hadar: FIND_ALLOC and the DP allocation of one scheduling round.

``find_alloc`` looks at one job and the cluster's free GPUs: every consolidated allocation
(the job's ``W_j`` fastest free GPUs on a single machine, one candidate per machine that
can hold the gang) and the non-consolidated one (the ``W_j`` fastest free GPUs anywhere,
cheapest machines first, plus a communication cost), prices each with eq. (5), and keeps
the one with the largest payoff ``mu_j = U_j(f_j - a_j) - cost`` (Alg. 2 lines 23-33).
``dp_allocation`` decides which queued jobs to admit this round: a dynamic program over
the queue whose state is the free-GPU matrix, maximizing the total payoff (lines 1-21).

Reading adopted (``models/hadar2024.md``): the printed DP compares the cost with and
without a job, which would never admit anyone; we read it as the knapsack-style
recursion over (job index, server state) that maximizes the total payoff of the admitted
jobs, each allocated by FIND_ALLOC in the state left by the earlier ones.  Memoizing on
the state makes it exact; it is exponential in the worst case (the number of distinct
states), so ``beam_width`` keeps the best states only (``beam_width=1`` is the greedy
pass that admits each job whose payoff is positive) and the result says whether it was exact.

References
----------
A. Sultana et al., Hadar/HadarE, Section III-C, Algorithms 1-2.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ArgumentError
from ..inputs import check_flag, check_positive, check_size, takes_instance
from ._args import check_now, job_list, real_array
from .instance import HadarInstance
from .price import PriceParameters, _price, price_parameters

__all__ = ["Allocation", "DPResult", "find_alloc", "dp_allocation"]


@dataclass(frozen=True, eq=False)
class Allocation:
    """One job's allocation in a round: ``w`` (H x R GPUs), its rate, cost and payoff."""

    job: int
    w: np.ndarray
    rate: float
    cost: float
    payoff: float
    consolidated: bool


@dataclass(frozen=True, eq=False)
class DPResult:
    """Outcome of :func:`dp_allocation`.

    ``allocations`` maps admitted jobs to their :class:`Allocation`; ``total_payoff`` is the
    sum of their payoffs; ``exact`` is False when the beam dropped states; ``max_states``
    is the largest number of states held at once; ``processed`` the queue positions the DP went
    through (fewer than the queue's only when ``state_budget`` stopped it: then ``exact`` is False).
    """

    allocations: dict
    total_payoff: float
    exact: bool
    max_states: int
    processed: int

    def matrix(self, n_jobs: int, shape: tuple[int, int]) -> np.ndarray:
        """The allocations as a (J, H, R) integer array."""
        out = np.zeros((n_jobs,) + tuple(shape), dtype=np.int64)
        for j, a in self.allocations.items():
            out[j] = a.w
        return out


_ORDERS: weakref.WeakKeyDictionary[HadarInstance, list[np.ndarray]] = weakref.WeakKeyDictionary()


def _type_order(inst: HadarInstance, j: int) -> np.ndarray:
    """Usable types of job j by decreasing throughput (Alg. 2 line 23), computed once per instance."""
    orders = _ORDERS.get(inst)
    if orders is None:
        X = inst.throughput
        orders = []
        for x in X:
            o = np.argsort(-x, kind="stable")
            orders.append(o[x[o] > 0])
        _ORDERS[inst] = orders
    return orders[j]


def _merge(states: dict, key: bytes, item: tuple) -> None:
    """Keep ``item`` under ``key`` unless a state of larger total payoff is there already."""
    old = states.get(key)
    if old is None or item[0] > old[0]:
        states[key] = item


#: Prices kept per instance (cleared when full): (price parameters, free matrix) -> eq. (5)'s prices.
PRICE_MEMO_SIZE = 1 << 14
_PRICES: weakref.WeakKeyDictionary[HadarInstance, dict] = weakref.WeakKeyDictionary()


class _Prices:
    """A DP state's prices by its key (the free matrix's bytes), computed when the state is first expanded.

    A state merged away, or created at the queue's last position, needs none.  Prices are a function of
    the free matrix and the parameters alone, and the DP meets the same free matrices round after
    round: they are kept per instance, read-only.
    """

    def __init__(self, inst: HadarInstance, params: PriceParameters) -> None:
        self.inst, self.cap, self.params = inst, inst.capacity, params
        self.memo = _PRICES.get(inst)

    def __call__(self, key: bytes, free: np.ndarray) -> np.ndarray:
        memo = self.memo
        if memo is None or len(memo) >= PRICE_MEMO_SIZE:
            memo = self.memo = _PRICES[self.inst] = {}
        k = memo.get((self.params, key))
        if k is None:
            k = memo[(self.params, key)] = _price(self.cap - free, self.cap, self.params)
            k.flags.writeable = False
        return k


def _fits(inst: HadarInstance, j: int, col_free: np.ndarray) -> bool:
    """Cheap pre-check: True when there are ``W_j`` free GPUs of types job j can use."""
    return int(col_free[_type_order(inst, j)].sum()) >= inst.gpus[j]


@takes_instance(HadarInstance)
def find_alloc(inst: HadarInstance, j: int, free: np.ndarray, prices: np.ndarray, *, remaining: float,
               now: float, comm_cost: float, consolidated_only: bool = False,
               require_positive: bool = True, single_type: bool = False) -> Allocation | None:
    """FIND_ALLOC(job, srvr): the best allocation of job ``j`` on the free GPUs, or None.

    Parameters
    ----------
    free : (H, R) int array
        Free GPUs this round.
    prices : (H, R) array
        Current unit prices ``k^r_h`` (eq. (5)).
    remaining : float
        Iterations job j still has to run.
    now : float
        Start of the round (seconds); the payoff uses the finish time the job would reach if
        it kept this allocation: ``now + remaining / rate``.
    comm_cost : float
        Cost per GPU placed outside the machine holding most of the job's GPUs (Alg. 2
        line 27's communication cost of a non-consolidated allocation).
    consolidated_only : bool
        Only consider single-machine allocations.
    require_positive : bool
        Return None when the best payoff is not positive (Alg. 2 lines 30-33); False returns
        the best allocation whatever its payoff (used to fill GPUs that would stay idle).
    single_type : bool
        Only gangs of one GPU type (not the paper's: (1b) lets a gang mix types at its slowest
        type's rate).  The candidates above are built on each usable type alone and the best
        payoff over types is kept (ties: the faster type).  The arena's gang rule ``"single"``.

    Raises
    ------
    ArgumentError
        A ``j`` that is not a job index, ``free`` or ``prices`` of the wrong shape or with
        negative (or, for ``free``, fractional or above-capacity) entries, a ``remaining``, ``now``
        or ``comm_cost`` that is not a finite number >= 0, or a flag that is not a bool.
    """
    j = check_size(j, "j", minimum=0, maximum=inst.n_jobs - 1)
    free = _free(inst, free)
    prices = real_array("prices", prices, inst.capacity.shape, finite=False)
    remaining = check_positive(remaining, "remaining", allow_zero=True)
    now = check_now(now)
    comm_cost = check_positive(comm_cost, "comm_cost", allow_zero=True)
    check_flag(consolidated_only, "consolidated_only")
    check_flag(require_positive, "require_positive")
    check_flag(single_type, "single_type")
    return _find_alloc(inst, j, free, prices, remaining, now, comm_cost, consolidated_only, require_positive,
                       single_type)


def _free(inst: HadarInstance, free: Any) -> np.ndarray:
    """``free`` as an int64 (H, R) array between 0 and the capacity; ArgumentError otherwise."""
    fr = real_array("free", free, inst.capacity.shape, integer=True)
    if np.any(fr > inst.capacity):
        raise ArgumentError(f"free must be an integer array of shape {inst.capacity.shape} between 0 and capacity; "
                            f"got {fr.tolist()}")
    return fr.astype(np.int64)


def _find_alloc(inst: HadarInstance, j: int, free: np.ndarray, prices: np.ndarray, remaining: float, now: float,
                comm_cost: float, consolidated_only: bool, require_positive: bool,
                single_type: bool = False) -> Allocation | None:
    """:func:`find_alloc` on checked arguments (the DP's inner loop)."""
    if single_type and int(inst.gpus[j]) == 1:
        return _find_single_gpu(inst, j, free, prices, remaining, now, require_positive)
    if single_type:
        top: Allocation | None = None
        W = int(inst.gpus[j])
        for r in _type_order(inst, j):
            if int(free[:, r].sum()) < W:
                continue
            only = np.zeros_like(free)
            only[:, r] = free[:, r]
            a = _find_alloc(inst, j, only, prices, remaining, now, comm_cost, consolidated_only, False)
            if a is not None and (top is None or a.payoff > top.payoff):
                top = a
        if top is None or (require_positive and not top.payoff > 0):
            return None
        return top
    rates, costs, fits, take, spread = _candidates(inst, j, free, prices, comm_cost, consolidated_only)
    if not rates.size:
        return None
    rem = max(float(remaining), 0.0)
    arrival = float(inst.arrival[j]) * inst.slot_length
    dur = now + rem / rates - arrival
    util = inst.utility.of_job(j, np.maximum(dur, 1e-9 * inst.slot_length), float(inst.total_iterations[j]))  # relative floor
    pay = util - costs
    best = int(np.argmax(pay))
    if require_positive and not pay[best] > 0:
        return None
    rate, cost, cons = float(rates[best]), float(costs[best]), best < fits.size
    if cons:
        w = np.zeros_like(free)
        w[fits[best], _type_order(inst, j)] = take[best]
    else:
        assert spread is not None
        w = spread.copy()
    return Allocation(job=j, w=w, rate=rate, cost=cost, payoff=float(pay[best]), consolidated=cons)


#: Candidates kept per instance (cleared when full): (job, free, prices, comm_cost, consolidated_only) -> candidates.
CANDIDATE_MEMO_SIZE = 1 << 14
_CANDIDATES: weakref.WeakKeyDictionary[HadarInstance, dict] = weakref.WeakKeyDictionary()


def _candidates(inst: HadarInstance, j: int, free: np.ndarray, prices: np.ndarray, comm_cost: float,
                consolidated_only: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Job j's candidate gangs on ``free`` at ``prices``: (rates, costs, fits, take, spread), read-only arrays.

    One consolidated candidate per machine that holds the gang (``fits``, its GPUs ``take`` by type in
    :func:`_type_order`), then the spread one (its GPU matrix ``spread``) unless ``consolidated_only``.  A
    function of its arguments only (the payoff, which depends on the round, is not in it): kept per
    instance, since the DP meets the same free matrices round after round.
    """
    memo = _CANDIDATES.get(inst)
    if memo is None or len(memo) >= CANDIDATE_MEMO_SIZE:
        memo = _CANDIDATES[inst] = {}
    key = (j, free.tobytes(), prices.tobytes(), comm_cost, consolidated_only)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _compute_candidates(inst, j, free, prices, comm_cost, consolidated_only)
    return hit


def _compute_candidates(inst: HadarInstance, j: int, free: np.ndarray, prices: np.ndarray, comm_cost: float,
                        consolidated_only: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                          np.ndarray | None]:
    """:func:`_candidates` computed."""
    x = inst.throughput[j]
    W = int(inst.gpus[j])
    order = _type_order(inst, j)
    F = free[:, order]
    # the candidates' rates and costs, in order: one consolidated candidate per machine that holds the gang
    # (``fits``), then the spread one; a candidate's GPU matrix is built only for the one chosen
    rates: list[float] = []
    costs: list[float] = []
    cum = np.cumsum(F, axis=1)
    fits = np.flatnonzero(cum[:, -1] >= W)
    take = F[:0]
    if fits.size:
        Ff, cf = F[fits], cum[fits]
        take = np.minimum(Ff, np.maximum(0, W - (cf - Ff)))
        last = np.argmax(cf >= W, axis=1)
        rates = (W * x[order[last]]).tolist()
        costs = np.sum(take * np.where(take > 0, prices[fits][:, order], 0.0), axis=1).tolist()
    spread: np.ndarray | None = None
    if not consolidated_only and W > 1 and F.sum() >= W:  # a gang of one GPU is never spread
        w = np.zeros_like(free)
        left = W
        slowest = None
        for r in order:  # the types by speed, each type's machines by price, greedily
            if left == 0:
                break
            col = free[:, r]
            if not col.any():
                continue
            hs = np.argsort(prices[:, r], kind="stable")
            c = col[hs]
            n = np.minimum(c, np.maximum(0, left - (np.cumsum(c) - c)))
            if n.any():
                w[hs, r] = n
                left -= int(n.sum())
                slowest = r
        per_machine = w.sum(axis=1)
        if np.count_nonzero(per_machine) > 1:
            spread = w
            rates.append(float(W * x[slowest]))
            costs.append(float(np.sum(w * np.where(w > 0, prices, 0.0))) + comm_cost * (W - int(per_machine.max())))
    out = (np.array(rates, dtype=float), np.array(costs, dtype=float), fits, take, spread)
    for a in out:
        if a is not None:
            a.flags.writeable = False
    return out


def _check_dp_options(beam_width: Any, state_budget: Any, comm_weight: Any, params: Any, **flags: Any) -> float:
    """:func:`dp_allocation`'s options checked by name; the communication weight as a float."""
    for name, size in (("beam_width", beam_width), ("state_budget", state_budget)):
        if size is not None:
            check_size(size, name)
    for name, flag in flags.items():
        check_flag(flag, name)
    if params is not None and not isinstance(params, PriceParameters):
        raise ArgumentError(f"params is {params!r}; expected a PriceParameters (hetopt.hadar.price_parameters) or None")
    return check_positive(comm_weight, "comm_weight", allow_zero=True)


def _find_single_gpu(inst: HadarInstance, j: int, free: np.ndarray, prices: np.ndarray, remaining: float, now: float,
                     require_positive: bool) -> Allocation | None:
    """:func:`_find_alloc` with ``single_type`` for a job of one GPU, the same arithmetic without its detours.

    On each usable type alone the candidates are the machines with a free GPU of it, at the type's rate and
    the machine's price (a gang of one GPU is never spread); the best payoff of each type, the first type of
    the largest payoff, as :func:`_find_alloc` finds them type by type.
    """
    x = inst.throughput[j]
    rem = max(float(remaining), 0.0)
    arrival = float(inst.arrival[j]) * inst.slot_length
    top: Allocation | None = None
    for r in _type_order(inst, j):
        fits = np.flatnonzero(free[:, r] >= 1)
        if not fits.size:
            continue
        rate = float(1 * x[r])
        costs = 1 * prices[fits, r]
        dur = now + rem / np.full(fits.size, rate) - arrival
        pay = inst.utility.of_job(j, np.maximum(dur, 1e-9 * inst.slot_length), float(inst.total_iterations[j])) - costs
        best = int(np.argmax(pay))
        if top is None or pay[best] > top.payoff:
            w = np.zeros_like(free)
            w[fits[best], r] = 1
            top = Allocation(job=j, w=w, rate=rate, cost=float(costs[best]), payoff=float(pay[best]),
                             consolidated=True)
    if top is None or (require_positive and not top.payoff > 0):
        return None
    return top


@takes_instance(HadarInstance)
def dp_allocation(inst: HadarInstance, queue: Any, remaining: Any, now: float, *, free: np.ndarray | None = None,
                  params: PriceParameters | None = None, beam_width: int | None = None,
                  comm_weight: float = 1.0, consolidated_only: bool = False,
                  work_conserving: bool = False, single_type: bool = False,
                  state_budget: int | None = None) -> DPResult:
    """DP_allocation of Algorithm 2 for one round: which queued jobs run, and where.

    Parameters
    ----------
    queue : sequence of int
        Waiting and running jobs in queue order (Q).
    remaining : (J,) array
        Iterations left per job.
    now : float
        Round start (seconds).
    free : (H, R) int array, optional
        Free GPUs (default: the whole cluster).  Prices use ``gamma = capacity - free``.
    params : PriceParameters, optional
        Default: :func:`price_parameters` of the instance.
    beam_width : int, optional
        Keep at most this many states (best total payoff first); None: exact DP.
    comm_weight : float
        Communication cost per GPU outside the main machine, in units of ``U_min``.
    consolidated_only : bool
        Only single-machine allocations.
    work_conserving : bool
        After the DP, give GPUs that would stay idle to the remaining queued jobs in queue
        order, whatever their payoff (not in the paper; without it a job whose utility has
        decayed below its price is never admitted again and starves).
    single_type : bool
        Only gangs of one GPU type (:func:`find_alloc`; not the paper's).
    state_budget : int, optional
        Stop after the first queue position that leaves more states (``processed`` says where; the
        allocation is then the best state held, not the round's).

    Returns
    -------
    DPResult

    Raises
    ------
    ArgumentError
        A ``queue`` that is not a list of distinct job indices, a ``remaining`` that is not J
        finite numbers >= 0, or any other argument of the wrong form (named).
    """
    queue = job_list("queue", queue, inst.n_jobs)
    remaining = real_array("remaining", remaining, (inst.n_jobs,))
    now = check_now(now)
    comm_weight = _check_dp_options(beam_width, state_budget, comm_weight, params, single_type=single_type,
                                    consolidated_only=consolidated_only, work_conserving=work_conserving)
    cap = inst.capacity
    free0 = cap.copy() if free is None else _free(inst, free)
    params = price_parameters(inst) if params is None else params
    comm = comm_weight * params.u_min
    # key -> (total payoff, free matrix, chain of (job, Allocation, parent), free GPUs per type); prices by key
    states, prices = {free0.tobytes(): (0.0, free0, None, free0.sum(axis=0))}, _Prices(inst, params)
    exact, max_states, processed = True, 1, 0
    for j in queue:
        processed += 1
        if remaining[j] <= 0:
            continue
        new: dict = {}
        for key, st in states.items():
            _merge(new, key, st)
            tot, fr, chain, col = st
            if not _fits(inst, j, col):
                continue
            a = _find_alloc(inst, j, fr, prices(key, fr), remaining[j], now, comm, consolidated_only, True, single_type)
            if a is not None:
                fr2 = fr - a.w
                _merge(new, fr2.tobytes(), (tot + a.payoff, fr2, (j, a, chain), fr2.sum(axis=0)))
        if beam_width is not None and len(new) > beam_width:
            exact = False
            new = dict(sorted(new.items(), key=lambda kv: -kv[1][0])[:beam_width])
        states = new
        max_states = max(max_states, len(states))
        if state_budget is not None and len(states) > state_budget:
            exact = False
            break
        if all(not v[1].any() for v in states.values()):
            processed = len(queue)  # no GPU is left in any state: the rest of the queue changes nothing
            break
    tot, _, chain, _ = max(states.values(), key=lambda v: v[0])
    allocs: dict[int, Allocation] = {}
    while chain is not None:
        j, a, chain = chain
        allocs[j] = a
    if work_conserving:
        fr = free0 - sum((a.w for a in allocs.values()), np.zeros_like(free0))
        for j in queue:
            if j in allocs or remaining[j] <= 0 or not _fits(inst, j, fr.sum(axis=0)):
                continue
            a = _find_alloc(inst, j, fr, _price(cap - fr, cap, params), remaining[j], now, comm, consolidated_only,
                            False, single_type)
            if a is not None:
                allocs[j] = a
                fr = fr - a.w
    return DPResult(allocations=dict(sorted(allocs.items())), total_payoff=float(tot), exact=exact,
                    max_states=max_states, processed=processed)
