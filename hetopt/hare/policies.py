"""The one policy registry of Hare: the baselines of Section 7.1, online and up-front.

A *policy* decides a whole schedule of an instance: ``policy(inst) -> HareSolution`` (or a
``(start, gpu)`` pair, one start time and one GPU per task).  :func:`hetopt.hare.simulate` runs
one by its name in :data:`POLICIES` or as an object of this protocol, and every entry of
:data:`POLICIES` is a method of the kind (``hetopt.solve(inst, method=name)``).

* online (decisions at run time, never before a job arrives; the paper's simulator runs its
  baselines so): ``gavel_fifo``, ``srtf``, ``sched_homo``, ``sched_allox``
  (:mod:`hetopt.hare.baselines`, :mod:`hetopt.hare.online`);
* up front (decide everything at time 0 from the whole instance; kept under their own names for
  comparison): ``srtf_round``, ``sched_homo_offline``, ``sched_allox_offline``
  (:mod:`hetopt.hare.baselines`).

Algorithm 1 and its variants are the paper's own algorithm, not a baseline: they are heuristic
methods (:func:`hetopt.hare.schedule`), not policies of this registry.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from .baselines import gavel_fifo, sched_allox_offline, sched_homo_offline, srtf_round
from .instance import HareInstance
from .online import sched_allox, sched_homo, srtf
from .solution import HareSolution

__all__ = ["POLICIES", "ONLINE", "OFFLINE", "SINGLE_GPU_POLICIES", "Policy"]

#: A policy: ``policy(inst) -> HareSolution`` (or ``(start, gpu)``).
Policy = Callable[[HareInstance], HareSolution]

#: The paper's four baselines as its simulator runs them (online), in the paper's order.
ONLINE = ("gavel_fifo", "srtf", "sched_homo", "sched_allox")
#: The planners that decide up front.
OFFLINE = ("srtf_round", "sched_homo_offline", "sched_allox_offline")

#: name -> policy: the one registry that feeds :func:`hetopt.hare.simulate` and the kind's methods.
POLICIES: MappingProxyType[str, Policy] = MappingProxyType({
    "gavel_fifo": gavel_fifo, "srtf": srtf, "sched_homo": sched_homo, "sched_allox": sched_allox,
    "srtf_round": srtf_round, "sched_homo_offline": sched_homo_offline, "sched_allox_offline": sched_allox_offline,
})

#: Policies that run one job on one GPU (no gang; any ``|D_r|`` fits).
SINGLE_GPU_POLICIES = ("sched_allox", "sched_allox_offline")
