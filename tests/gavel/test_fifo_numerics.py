"""The lexicographic FIFO on a 47-job state where a too-small floor slack made an LP infeasible."""

import importlib
import json
from pathlib import Path

import numpy as np

fifo_mod = importlib.import_module("hetopt.gavel.fifo")

STATE = json.loads((Path(__file__).parent / "fifo_state47.json").read_text())


def _lexi(rtol, atol, monkeypatch):
    monkeypatch.setattr(fifo_mod, "FIFO_FIX_RTOL", rtol)
    monkeypatch.setattr(fifo_mod, "FIFO_FIX_ATOL", atol)
    return fifo_mod.fifo(STATE["throughput"], STATE["scale_factor"], STATE["capacity"], semantics="lexicographic")


def test_lexicographic_fifo_solves_the_47_job_state(monkeypatch):
    T = np.asarray(STATE["throughput"], dtype=float)
    s = np.asarray(STATE["scale_factor"], dtype=float)
    c = np.asarray(STATE["capacity"], dtype=float)
    X = _lexi(fifo_mod.FIFO_FIX_RTOL, fifo_mod.FIFO_FIX_ATOL, monkeypatch)
    assert X.shape == T.shape and np.all(X >= -1e-9)
    assert np.all(X.sum(axis=1) <= 1 + 1e-6)  # time fractions of every job
    assert np.all((X * s[:, None]).sum(axis=0) <= c + 1e-6)  # GPUs of every type
    norm = (T * X).sum(axis=1) / T.max(axis=1)
    assert np.all(norm[:7] >= 1 - 1e-5)  # the first seven jobs fit whole on their best type


def test_the_old_slack_is_what_failed(monkeypatch):
    """The mechanism: with a relative 1e-7 slack and no absolute slack, HiGHS finds LP 25 infeasible."""
    import pytest

    from hetopt.errors import InfeasibleError

    with pytest.raises(InfeasibleError):
        _lexi(1e-7, 0.0, monkeypatch)
