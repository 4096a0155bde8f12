"""Brute force for the exact round model (tiny workloads only): every assignment of every round.

Independent of the MILP: a memoized search over rounds on the model's grid (rounds from the
earliest arrival; a job runs from the first round starting at or after its arrival).  In each
round every present, unfinished job is idle or runs on one type where its gang fits next to the
others; a running job does a whole round or what is left of it.  The state is the round and, per
job, how many rounds it ran on each type (so the progress is exact up to one sum of floats).  The
search stops at the horizon ``max first round + sum_j rounds on its slowest type``: some optimal
schedule has no idle round once every job has arrived (removing one moves every later round
earlier), and each running round does at least a slowest-type round of work.  A round that
leaves a present job idle while its gang fits on a free type is skipped: running it there only
moves its progress forward, which never delays its completion nor touches the other jobs (the
capacity of a round does not carry over), so such rounds are dominated.
"""

from __future__ import annotations

import itertools
import math
from functools import cache

import numpy as np

DONE = 1e-9


def brute_force_optimum(w, *, round_length: float, objective: str = "average_jct") -> float:
    """The optimal weighted average JCT or makespan (seconds) of the round model of ``w``."""
    L = float(round_length)
    J, R = w.throughput.shape
    origin = float(np.min(w.arrival))
    alpha = [(float(a) - origin) / L for a in w.arrival]
    first = [math.ceil(a - 1e-9) for a in alpha]
    cap = [int(c) for c in w.capacity]
    g = [int(x) for x in w.scale_factor]
    pi = [[float(w.throughput[j, r]) * L / float(w.steps[j]) if w.throughput[j, r] > 0 and cap[r] >= g[j] else 0.0
           for r in range(R)] for j in range(J)]
    wt = [float(x) for x in w.weight]
    total_w = sum(wt)
    horizon = max(first) + sum(math.ceil(1 / min(p for p in pi[j] if p > 0) - 1e-12) for j in range(J)) + 1

    def left(counts_j, j):
        return 1.0 - sum(c * pi[j][r] for r, c in enumerate(counts_j))

    @cache
    def best(k: int, counts: tuple) -> float:
        """The least cost of the jobs unfinished at the start of round k (sum or max, in rounds)."""
        todo = [j for j in range(J) if counts[j] is not None]
        if not todo:
            return 0.0 if objective == "average_jct" else -math.inf
        if k > horizon:
            return math.inf
        present = [j for j in todo if first[j] <= k]
        out = math.inf
        for choice in itertools.product(*[[None] + [r for r in range(R) if pi[j][r] > 0] for j in present]):
            used = [0] * R
            for j, r in zip(present, choice, strict=True):
                if r is not None:
                    used[r] += g[j]
            if any(u > c for u, c in zip(used, cap, strict=True)):
                continue
            if any(r is None and any(pi[j][t] > 0 and used[t] + g[j] <= cap[t] for t in range(R))
                   for j, r in zip(present, choice, strict=True)):
                continue  # a job left idle where its gang fits: dominated (see the module docstring)
            nxt = list(counts)
            here = 0.0 if objective == "average_jct" else -math.inf
            for j, r in zip(present, choice, strict=True):
                if r is None:
                    continue
                rest = left(counts[j], j)
                if rest <= pi[j][r] * (1 + DONE):
                    end = k + rest / pi[j][r]
                    here = here + wt[j] * (end - alpha[j]) if objective == "average_jct" else max(here, end)
                    nxt[j] = None
                else:
                    c = list(counts[j])
                    c[r] += 1
                    nxt[j] = tuple(c)
            rest_cost = best(k + 1, tuple(nxt))
            total = here + rest_cost if objective == "average_jct" else max(here, rest_cost)
            out = min(out, total)
        return out

    value = best(0, tuple(tuple([0] * R) for _ in range(J)))
    if objective == "average_jct":
        return value * L / total_w
    return origin + value * L
