"""Fixtures of the contention tests."""

import pytest

from .contention_workloads import small_workload


@pytest.fixture(params=[0, 1, 2])
def workload(request):
    return small_workload(request.param)
