"""The crashes, unnamed errors and silent acceptances found by the argument sweep (issue 31, item 3).

``python -m tests.reliability.argument_sweep`` found them; each is now an ArgumentError naming the argument.
One test per kind runs its cases (``tests/reliability/matrix.py``).
"""

from __future__ import annotations

import math

import pytest

from hetopt.registry import get_kind
from tests.reliability.matrix import Bad, refused

HUGE = 2**70


def _cases(kind: str) -> list[Bad]:
    ex = get_kind(kind).example(seed=0, size=1)
    if kind == "hare":
        from hetopt.hare import alpha, cluster, theorem4_bound
        from hetopt.hare.exact import job_colgen_bound, time_indexed_bound
        from hetopt.hare.model import build_hare_sched, build_relaxation
        from hetopt.hare.ratio import ratio_report, theorem4_counterexample
        from hetopt.hare.validate import ratio_sweep

        return [Bad("hare", "alpha inst", None, lambda: alpha(None), "inst"),
                Bad("hare", "theorem4_bound inst", 3, lambda: theorem4_bound(3), "inst"),
                Bad("hare", "cluster v100", HUGE, lambda: cluster(v100=HUGE), "v100"),
                Bad("hare", "theorem4_counterexample k", HUGE, lambda: theorem4_counterexample(k=HUGE), "k"),
                Bad("hare", "build_hare_sched inst", None, lambda: build_hare_sched(None), "inst"),
                Bad("hare", "build_hare_sched transform", None, lambda: build_hare_sched(ex, transform=None),
                    "transform"),
                Bad("hare", "build_hare_sched horizon", "x", lambda: build_hare_sched(ex, horizon="x"), "horizon"),
                Bad("hare", "build_hare_sched upper_objective", math.inf,
                    lambda: build_hare_sched(ex, upper_objective=math.inf), "upper_objective"),
                Bad("hare", "build_relaxation subsets", 2, lambda: build_relaxation(ex, subsets=2), "subsets"),
                Bad("hare", "build_relaxation upper_objective", -1.0,
                    lambda: build_relaxation(ex, upper_objective=-1.0), "upper_objective"),
                Bad("hare", "time_indexed_bound step", HUGE, lambda: time_indexed_bound(ex, step=HUGE), "step"),
                Bad("hare", "time_indexed_bound upper", "object",
                    lambda: time_indexed_bound(ex, upper=object()), "upper"),
                Bad("hare", "job_colgen_bound step", HUGE, lambda: job_colgen_bound(ex, step=HUGE), "step"),
                Bad("hare", "ratio_report save_dir", "object", lambda: ratio_report(ex, save_dir=object()), "save_dir"),
                Bad("hare", "ratio_report name", 3, lambda: ratio_report(ex, name=3), "name"),
                Bad("hare", "ratio_sweep save_dir", "object", lambda: ratio_sweep(1, save_dir=object()), "save_dir")]
    if kind == "oasis":
        from hetopt.oasis import alpha, arrival_order, build_offline, competitive_bound, price_bounds
        from hetopt.oasis.generator import fixed_counts
        from hetopt.oasis.validate import ratio_sweep

        return [Bad("oasis", "alpha inst", None, lambda: alpha(None), "inst"),
                Bad("oasis", "alpha bounds", "object", lambda: alpha(ex, object()), "bounds"),
                Bad("oasis", "competitive_bound inst", 3, lambda: competitive_bound(3), "inst"),
                Bad("oasis", "arrival_order inst", [1], lambda: arrival_order([1]), "inst"),
                Bad("oasis", "build_offline inst", None, lambda: build_offline(None), "inst"),
                Bad("oasis", "price_bounds inst", None, lambda: price_bounds(None), "inst"),
                Bad("oasis", "fixed_counts high", HUGE, lambda: fixed_counts(ex, high=HUGE), "high"),
                Bad("oasis", "ratio_sweep n", HUGE, lambda: ratio_sweep(HUGE), "n"),
                Bad("oasis", "ratio_sweep executor", "object", lambda: ratio_sweep(1, executor=object()),
                    "executor")]
    if kind == "gavel":
        from hetopt.gavel.kind import export_model
        from hetopt.gavel.parity import parity_rows
        from hetopt.gavel.validate import ratio_sweep

        return [Bad("gavel", "export_model inst", None, lambda: export_model(None), "inst"),
                Bad("gavel", "parity_rows traces", None, lambda: parity_rows(None), "traces"),
                Bad("gavel", "parity_rows traces", [], lambda: parity_rows([]), "traces"),
                Bad("gavel", "ratio_sweep capacity", None, lambda: ratio_sweep(1, capacity=None), "capacity")]
    if kind == "hadar":
        from hetopt.hadar import check_schedule, finish_utility
        from hetopt.hadar.workloads import trace_workload

        return [Bad("hadar", "check_schedule sol", None, lambda: check_schedule(ex, None), "sol"),
                Bad("hadar", "check_schedule sol", "x", lambda: check_schedule(ex, "x"), "sol"),
                Bad("hadar", "finish_utility horizon", HUGE, lambda: finish_utility(ex, HUGE), "horizon"),
                Bad("hadar", "trace_workload iterations_per_epoch", HUGE,
                    lambda: trace_workload(iterations_per_epoch=HUGE), "iterations_per_epoch")]
    if kind == "placement":
        from hetopt.placement import check_schedule, generate_instance, solve_exact
        from hetopt.placement.grouped import build_p1_grouped
        from hetopt.placement.validate import reset_report

        return [Bad("placement", "check_schedule sol", None, lambda: check_schedule(ex, None), "sol"),
                Bad("placement", "check_schedule sol", "x", lambda: check_schedule(ex, "x"), "sol"),
                Bad("placement", "generate_instance type_ratio", "ragged",
                    lambda: generate_instance(type_ratio=[[1], [1, 2]]), "type_ratio"),
                Bad("placement", "solve_exact tangent_points", HUGE, lambda: solve_exact(ex, tangent_points=HUGE),
                    "tangent_points"),
                Bad("placement", "build_p1_grouped cut_range", "object",
                    lambda: build_p1_grouped(ex, cut_range=object()), "cut_range"),
                Bad("placement", "reset_report methods", None, lambda: reset_report(ex, methods=None), "methods"),
                Bad("placement", "reset_report methods", "x", lambda: reset_report(ex, methods="x"), "methods"),
                Bad("placement", "reset_report methods", (), lambda: reset_report(ex, methods=()), "methods"),
                Bad("placement", "reset_report gavel_scale_factor", True,
                    lambda: reset_report(ex, methods=("has",), gavel_scale_factor=True), "gavel_scale_factor")]
    from hetopt.contention.generators import tiny_instance

    return [Bad("contention", "tiny_instance n_servers", HUGE, lambda: tiny_instance(n_servers=HUGE), "n_servers"),
            Bad("contention", "tiny_instance gpus_per_server", HUGE, lambda: tiny_instance(gpus_per_server=HUGE),
                "gpus_per_server")]


@pytest.mark.parametrize("kind", ["hare", "oasis", "gavel", "hadar", "placement", "contention"])
def test_sweep_findings_are_named_argument_errors(kind):
    refused(_cases(kind))
