"""JPS, Job Prioritizing for Sampling (Algorithm 3, eq. (34))."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..certify import Status
from ..errors import ArgumentError
from ..inputs import check_choice, check_positive, check_size, rng_from, takes_instance
from .categories import category_at, n_categories
from .evaluate import PlacementSolution, fairness, make_solution
from .has import MARKETS, evaluate_categories
from .instance import PlacementInstance

__all__ = ["jps", "job_priority"]


def _fraction(value: Any, name: str, *, closed: bool) -> float:
    """A real number in [0, 1] (``closed``) or [0, 1); ArgumentError naming ``name`` otherwise."""
    v = check_positive(value, name, allow_zero=True)
    if v > 1 or (v == 1 and not closed):
        raise ArgumentError(f"{name} is {value!r}; expected a number in [0, 1{']' if closed else ')'}")
    return v


@takes_instance(PlacementInstance)
def job_priority(inst: PlacementInstance) -> np.ndarray:
    """Line 1 of Algorithm 3: jobs sorted by T_i |Pi_i| / (S sum_k rho_{i,k}), ascending.

    Position p of a category then belongs to job ``order[p]``: the rear categories of Psi, where
    K_S grows, give more workers to the computationally heaviest jobs.
    """
    key = inst.epochs * inst.dataset_size / (inst.n_jobs * inst.throughput.sum(axis=1))
    return np.argsort(key, kind="stable")


@takes_instance(PlacementInstance)
def jps(inst: PlacementInstance, *, n_samples: int = 20, alpha: float = 0.7, beta: float = 1.0, seed: Any = None,
        market: str = "auction") -> PlacementSolution:
    """JPS (Algorithm 3): Algorithm 2 on N categories sampled from the rear of Psi.

    Parameters
    ----------
    inst : PlacementInstance
    n_samples : int
        N, the number of categories sampled (without replacement; all of them if fewer remain).
    alpha : float in [0, 1)
        Samples are drawn uniformly from Psi[alpha |Psi|, |Psi|] (0-based positions
        floor(alpha |Psi|) .. |Psi| - 1 of Algorithm 1's order).
    beta : float in [0, 1]
        Trade-off of eq. (34): the sample maximizing beta min_n Lambda_n / Lambda_n + (1 - beta) F_n.
    seed : int, numpy.random.Generator or None
    market : {"auction", "assignment"}
        P3 route, as in :func:`~hetopt.placement.has` (default: Algorithm 2's matching market).

    Returns
    -------
    PlacementSolution
        Status FEASIBLE; ``info`` has the sampled categories (per job) and their JCT and fairness.
    """
    n_samples = check_size(n_samples, "n_samples")
    alpha = _fraction(alpha, "alpha", closed=False)
    beta = _fraction(beta, "beta", closed=True)
    check_choice(market, "market", MARKETS)
    t0 = time.perf_counter()
    rng = rng_from(seed)
    S, K = inst.n_jobs, inst.n_workers
    total = n_categories(S, K)
    lo = int(np.floor(alpha * total))
    span = total - lo
    picks = rng.choice(span, size=min(n_samples, span), replace=False) + lo  # line 2
    order = job_priority(inst)
    cats = [category_at(S, K, int(p)) for p in np.sort(picks)]
    results = evaluate_categories(inst, cats, market=market, order=order)  # line 3
    jct = np.array([r[2] for r in results])
    fair = np.array([fairness(inst, r[1]) for r in results])
    score = beta * jct.min() / jct + (1 - beta) * fair  # (34)
    best = int(np.argmax(score))  # line 4
    return make_solution(inst, results[best][1], status=Status.FEASIBLE, solver=f"jps[{market}]",
                         wall_time=time.perf_counter() - t0,
                         info={"positions": np.sort(picks).tolist(), "categories": [r[0] for r in results],
                               "jct": jct.tolist(), "fairness": fair.tolist(), "alpha": alpha, "beta": beta,
                               "n_samples": n_samples, "market": market})
