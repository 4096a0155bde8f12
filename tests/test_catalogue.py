"""Every bundled instance's ``expected`` values are what its methods compute today.

``instances/*.json`` may carry ``expected``: method name -> the certified objective (found by
that method and confirmed by a second one when the file was written).  This test re-runs each
named method on each bundled instance and asks for a proven optimum equal to the recorded one,
so a change that moves an optimum (or stops proving it) cannot pass unnoticed.  It derives
nothing from the code under test: the values were recorded with their cross-check (the
instance's ``source`` says which).
"""

from __future__ import annotations

import json

import pytest

import hetopt
from hetopt.certify import Status
from hetopt.data import instance_path, list_instances

CASES = [(name, method, value)
         for name in list_instances()
         for method, value in sorted(json.loads(instance_path(name).read_text(encoding="utf-8")).get("expected", {}).items())]


def test_an_uncertified_instance_is_a_workload_or_beyond_the_exact_route():
    """An instance without ``expected`` is a simulation workload (its name says so) or one the kind's
    exact route refuses up front (SizeLimitError): never one that was simply not certified."""
    from hetopt.errors import SizeLimitError

    certified = {name for name, _, _ in CASES}
    for name in sorted(set(list_instances()) - certified):
        if "workload" in name:
            continue
        with pytest.raises(SizeLimitError):
            hetopt.solve(name, "exact")


@pytest.mark.parametrize(("name", "method", "value"), CASES, ids=[f"{n}-{m}" for n, m, _ in CASES])
def test_expected_value_is_recomputed(name, method, value):
    inst = hetopt.load_instance(name)
    sol = hetopt.solve(inst, method)
    assert sol.status is Status.OPTIMAL, (name, method, sol.status, sol.message)
    assert sol.objective == pytest.approx(value, rel=1e-6, abs=1e-9), (name, method, sol.objective, value)
    report = hetopt.registry.kind_of(inst).check_schedule(inst, sol)
    assert report.ok, (name, method, report.violations)
    assert report.objective == pytest.approx(value, rel=1e-6, abs=1e-9), (name, method, report.objective)
