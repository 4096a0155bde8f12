"""Feasible solution categories Psi (Algorithm 1, eq. (15)).

A category (K_1, ..., K_S) fixes how many workers each job gets (sum K_i = K, K_i >= 1).
Algorithm 1 enumerates them starting from (K - S + 1, 1, ..., 1): K_2 runs fastest, then K_3,
and so on, with K_1 = K - sum_{j>=2} K_j.  This is the lexicographic order of the reversed
tuples (K_S, ..., K_2), so the n-th category can be computed directly (:func:`category_at`),
which lets the sampling scheme (Algorithm 3) draw from huge Psi without enumerating it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import comb

import numpy as np

from ..errors import ArgumentError, SizeLimitError
from ..inputs import check_size, numeric_array, takes_instance
from .instance import PlacementInstance

#: A category (K_1, ..., K_S): a sequence or an array of worker counts, one per job.
Category = Sequence[int] | np.ndarray

__all__ = ["Category", "check_category", "MAX_CATEGORIES", "HAS_MAX_CATEGORIES", "check_category_count", "categories", "iter_categories", "n_categories", "category_at", "category_index"]


def _check(n_jobs: int, n_workers: int) -> None:
    n_jobs, n_workers = check_size(n_jobs, "n_jobs"), check_size(n_workers, "n_workers")
    if n_workers < n_jobs:
        raise ArgumentError(f"n_workers={n_workers} < n_jobs={n_jobs}; every job needs a worker (8b)")


def n_categories(n_jobs: int, n_workers: int) -> int:
    """|Psi| = C(K-1, S-1) (stars and bars)."""
    _check(n_jobs, n_workers)
    return comb(n_workers - 1, n_jobs - 1)


def iter_categories(n_jobs: int, n_workers: int) -> Iterator[tuple[int, ...]]:
    """Algorithm 1 as printed, yielding categories in the paper's order (arguments checked at the call)."""
    _check(n_jobs, n_workers)
    return _iter_categories(n_jobs, n_workers)


def _iter_categories(n_jobs: int, n_workers: int) -> Iterator[tuple[int, ...]]:
    S, K = n_jobs, n_workers
    if S == 1:
        yield (K,)
        return
    cur = [K - S + 1] + [1] * (S - 1)
    seen: set[tuple[int, ...]] = set()
    while tuple(cur) not in seen:  # line 1
        seen.add(tuple(cur))  # line 2
        yield tuple(cur)
        reset = [False] * S
        # line 3, with K_hat_i of eq. (15) computed from the current K_{i+1..S} (1-based i)
        k_hat = K - 1 - sum(cur[2:])
        if cur[1] < k_hat:
            cur[1] += 1
        else:
            cur[1], reset[1] = 1, True
        for i in range(2, S):  # lines 4-8 (0-based i is job i+1)
            if reset[i - 1]:
                k_hat = K - i - sum(cur[i + 1:])
                if cur[i] < k_hat:
                    cur[i] += 1
                else:
                    cur[i], reset[i] = 1, True
        cur[0] = K - sum(cur[1:])  # line 9


#: Largest |Psi| that :func:`categories` materializes as a list by default.
MAX_CATEGORIES = 1_000_000

#: Largest |Psi| that :func:`~hetopt.placement.has` enumerates by default: HAS takes about
#: 1.2 ms per category (S=6, K=25: 42,504 categories in 49 s on one core), so about a minute.
HAS_MAX_CATEGORIES = 50_000


def check_category_count(n_jobs: int, n_workers: int, limit: int | None = MAX_CATEGORIES, what: str = "categories",
                         option: str = "max_categories") -> int:
    """|Psi| = C(K-1, S-1), or SizeLimitError naming it and ``limit`` when it is larger (None: no limit).

    ``option`` is the caller's name of ``limit`` (the argument the messages name).
    """
    total = n_categories(n_jobs, n_workers)
    if limit is not None:
        limit = check_size(limit, option)
    if limit is not None and total > limit:
        raise SizeLimitError(f"{what}: |Psi| = C(K-1, S-1) = C({n_workers - 1}, {n_jobs - 1}) = {total:.3g} categories "
                             f"for S = n_jobs = {n_jobs} and K = n_workers = {n_workers}; the limit is {limit} "
                             f"(pass a larger {option} to go on, or use a method that does not enumerate Psi)")
    return total


def categories(n_jobs: int, n_workers: int, *, max_categories: int | None = MAX_CATEGORIES) -> list[tuple[int, ...]]:
    """Psi of Algorithm 1, in the paper's order (for K=5, S=3: (3,1,1), (2,2,1), (1,3,1), ...).

    Raises
    ------
    SizeLimitError
        When |Psi| exceeds ``max_categories`` (use :func:`iter_categories` to stream it).
    """
    check_category_count(n_jobs, n_workers, max_categories, "categories")
    return list(iter_categories(n_jobs, n_workers))


def category_at(n_jobs: int, n_workers: int, index: int) -> tuple[int, ...]:
    """The ``index``-th (0-based) category of Algorithm 1's order, without enumerating Psi."""
    total = n_categories(n_jobs, n_workers)
    index = check_size(index, "index", minimum=0, maximum=total - 1)
    S, K = int(n_jobs), int(n_workers)
    out = [0] * S
    rest, r = K, index
    for i in range(S - 1, 0, -1):  # K_S first (most significant), down to K_2
        v = 1
        while True:
            # categories with this prefix: compositions of rest - v into i positive parts
            cnt = comb(rest - v - 1, i - 1)
            if r < cnt:
                break
            r -= cnt
            v += 1
        out[i] = v
        rest -= v
    out[0] = rest
    return tuple(out)


def category_index(category: tuple[int, ...] | list[int]) -> int:
    """Position (0-based) of ``category`` in Algorithm 1's order; inverse of :func:`category_at`."""
    if isinstance(category, (str, bytes)) or not isinstance(category, (Sequence, np.ndarray)) or len(category) == 0:
        raise ArgumentError(f"category is {category!r}; expected a non-empty sequence of worker counts >= 1")
    c = [check_size(x, f"category[{j}]") for j, x in enumerate(category)]
    S, rest, idx = len(c), sum(c), 0
    for i in range(S - 1, 0, -1):
        for v in range(1, c[i]):
            idx += comb(rest - v - 1, i - 1)
        rest -= c[i]
    return idx


@takes_instance(PlacementInstance)
def check_category(inst: PlacementInstance, category: Category) -> np.ndarray:
    """Validate a category (K_1, ..., K_S) of ``inst``: S positive integers summing to K (8c).

    Raises
    ------
    ArgumentError
        Naming ``category``, the index and the expected form.
    """
    c = numeric_array("category", category)
    S, K = inst.n_jobs, inst.n_workers
    if c.shape != (S,):
        raise ArgumentError(f"category has shape {c.shape}; expected ({S},), one worker count per job")
    if c.dtype.kind not in "iu" and not (c.dtype.kind == "f" and np.all(c == np.round(c))):
        raise ArgumentError(f"category {list(category)} must hold integers")
    c = c.astype(int)
    if (c < 1).any():
        i = int(np.flatnonzero(c < 1)[0])
        raise ArgumentError(f"category[{i}] is {c[i]}; every job needs at least one worker (8b)")
    if c.sum() != K:
        raise ArgumentError(f"category {c.tolist()} sums to {c.sum()}; it must sum to K={K} (8c)")
    return c
