"""The arena: every scheduler of hetopt on one workload, in one execution model, against a certified bound.

This package is the experiments floor's (``models/arena.md``).  Its modules are imported by name:
:mod:`hetopt.arena.workload` (the :class:`~hetopt.arena.workload.Workload`),
:mod:`hetopt.arena.bounds` (lower bounds valid for every policy), :mod:`hetopt.arena.exact` (the
exact optimum of the round model on small workloads) and :mod:`hetopt.arena.checker` (the
independent check of a round schedule).
"""
