"""HAS, the Heterogeneity-Aware Scheduler: Algorithm 2 over every category of Algorithm 1."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable

import numpy as np

from ..certify import Status
from ..inputs import check_choice, check_size, takes_instance
from .categories import HAS_MAX_CATEGORIES, Category, check_category_count, iter_categories
from .evaluate import PlacementSolution, average_jct, make_solution
from .instance import PlacementInstance
from .matching_market import solve_category

__all__ = ["has", "evaluate_categories"]

MARKETS = ("assignment", "auction")


@takes_instance(PlacementInstance)
def evaluate_categories(inst: PlacementInstance, cats: Iterable[Category], *, market: str = "auction",
                        order: np.ndarray | None = None) -> list[tuple[tuple[int, ...], np.ndarray, float]]:
    """Run the P3 step of Algorithm 2 on each category; return (category, assignment, avg JCT).

    ``order`` maps category positions to jobs (job prioritizing of Algorithm 3): position p of a
    category gives its K_p workers to job ``order[p]``.  Categories returned are per job.
    """
    check_choice(market, "market", MARKETS)
    out = []
    for cat in cats:
        c = np.asarray(cat, dtype=int)
        per_job = c if order is None else _to_jobs(c, order)
        a = solve_category(inst, per_job, market=market)
        out.append((tuple(int(x) for x in per_job), a, average_jct(inst, a)))
    return out


def _to_jobs(c: np.ndarray, order: np.ndarray) -> np.ndarray:
    per_job = np.empty_like(c)
    per_job[order] = c
    return per_job


@takes_instance(PlacementInstance)
def has(inst: PlacementInstance, *, market: str = "auction",
        max_size: int | None = HAS_MAX_CATEGORIES) -> PlacementSolution:
    """HAS (Section V-C): the best placement over all C(K-1, S-1) categories.

    For every category of Algorithm 1, the placement maximizing total throughput (P3) is found,
    its average JCT (14) evaluated with the communication term, and the best kept (lines 16-18).

    Parameters
    ----------
    inst : PlacementInstance
    market : {"auction", "assignment"}
        How each category's P3 optimum is found.  "auction" (default) runs Algorithm 2's
        matching market (:func:`~hetopt.placement.matching_market`, with its default exact price
        rule; the printed rule (22) need not end, see the formulation card).  "assignment"
        computes a P3 optimum with the Hungarian algorithm, about 15 times faster; Theorem 2,
        checked by the tests, says both reach the maximum throughput, so they can differ only in
        how ties among P3 optima are broken.
    max_size : int or None
        Size guard, in categories: refuse (SizeLimitError) when |Psi| = C(K-1, S-1) exceeds it
        (default :data:`~hetopt.placement.categories.HAS_MAX_CATEGORIES`, about a minute); None
        for no limit.

    Returns
    -------
    PlacementSolution
        Status FEASIBLE (HAS is a heuristic for P1: a P3 optimum need not minimize JCT); ``info``
        has the number of categories examined.
    """
    check_choice(market, "market", MARKETS)
    if max_size is not None:
        max_size = check_size(max_size, "max_size")
    check_category_count(inst.n_jobs, inst.n_workers, max_size, "has", option="max_size")
    t0 = time.perf_counter()
    best_val, best_a, n = math.inf, None, 0
    for _, a, val in evaluate_categories(inst, iter_categories(inst.n_jobs, inst.n_workers), market=market):
        n += 1
        if val < best_val:
            best_val, best_a = val, a
    return make_solution(inst, best_a, status=Status.FEASIBLE, solver=f"has[{market}]", wall_time=time.perf_counter() - t0,
                         info={"categories": n, "market": market})
