"""Brute force for tiny instances: every GPU assignment and every task order, re-timed semi-actively.

Independent of the models: used to test the engines and to confirm the optima of the bundled
instances.
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np

from ...certify import Status
from ...errors import SizeLimitError
from ...inputs import check_size, takes_instance
from ..instance import HareInstance
from ..listsched import _semi_active
from ..solution import HareSolution, make_solution

__all__ = ["brute_force", "BRUTE_FORCE_LIMIT", "enumeration_size"]

#: Largest ``|D|! * |M|^|D|`` that :func:`brute_force` accepts.
BRUTE_FORCE_LIMIT = 200_000


def enumeration_size(inst: HareInstance) -> int:
    """``|D|! |M|^|D|``, the (assignment, order) pairs of :func:`brute_force`, as an exact integer.

    Capped at ``2**63``: counted in logarithms first, so 10^6 tasks cost nothing.
    """
    d, mm = int(inst.n_tasks), int(inst.n_gpus)
    if math.lgamma(d + 1) + d * math.log(mm) > 63 * math.log(2):
        return 2**63
    return math.factorial(d) * mm**d


@takes_instance(HareInstance)
def brute_force(inst: HareInstance, *, max_size: int = BRUTE_FORCE_LIMIT) -> HareSolution:
    """Exact optimum by enumerating assignments and task orders (tiny instances only).

    For a regular objective an optimal schedule is semi-active: given every task's GPU and
    the order of starts, each task starts as early as (4), (7) and its GPU allow.  Every
    semi-active schedule is produced by some (assignment, order) pair, so enumerating all
    ``|M|^|D| |D|!`` pairs finds the optimum.  Independent of the MILP; used to test it.

    Parameters
    ----------
    inst : HareInstance
        A tiny instance.
    max_size : int
        Size guard, in (assignment, order) pairs: the most to enumerate (default
        :data:`BRUTE_FORCE_LIMIT`).

    Returns
    -------
    HareSolution
        OPTIMAL, ``bound`` equal to the objective, ``solver="enumeration"``.

    Raises
    ------
    SizeLimitError
        When ``|D|! |M|^|D|`` exceeds ``max_size`` (counted before enumerating).
    """
    check_size(max_size, "max_size")
    d, mm = inst.n_tasks, inst.n_gpus
    size = enumeration_size(inst)
    if size > max_size:
        many = f"{size}" if size < 2**63 else "more than 2^63"
        raise SizeLimitError(f"brute force over |D|! |M|^|D| = {many} cases ({d} tasks, {mm} GPUs), above "
                             f"max_size={max_size}: pass max_size={min(size, 2**63 - 1)} to enumerate them "
                             "(about a second per 200,000), or use solve_exact")
    t0 = time.perf_counter()
    obj, start, best_gpu = np.inf, np.zeros(d), np.zeros(d, dtype=int)
    orders = list(itertools.permutations(range(d)))
    for assign in itertools.product(range(mm), repeat=d):
        gpu = np.array(assign)
        for order in orders:
            out = _semi_active(inst, order, gpu)
            if out is not None and out[1] < obj * (1 - 1e-12):  # relative (objectives > 0): every magnitude
                obj, start, best_gpu = out[1], out[0], gpu
    return make_solution(inst, start, best_gpu, method="brute_force", status=Status.OPTIMAL, bound=obj,
                         wall_time=time.perf_counter() - t0, solver="enumeration")
