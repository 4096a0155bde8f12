"""Shared fixtures of the Hare tests."""

import pytest

from hetopt.hare import HareInstance


@pytest.fixture
def tiny() -> HareInstance:
    """2 jobs on 2 GPUs; job 0: 2 rounds of 1 task, job 1: 1 round of 2 tasks."""
    return HareInstance(arrival=[0.0, 0.5], weight=[1.0, 2.0], rounds=[2, 1], tasks_per_round=[1, 2],
                        compute_time=[[1.0, 2.0], [3.0, 1.5]], sync_time=[[0.25, 0.5], [0.0, 0.0]])
