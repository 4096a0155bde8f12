"""Shared test settings: named tolerances, and the notebooks executed once per session."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")

#: Relative tolerance when comparing objective values of two exact methods.
OBJ_RTOL = 1e-6


def time_allowance(limit: float) -> float:
    """Wall seconds a route given ``time_limit=limit`` may take: 10 % + 0.5 s of slack, the slack
    stretched by the machine's load (on 2 cores under a load of 8, every step after the solver's
    stop takes about 4 times as long, and the limit itself is wall-clock)."""
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    return 1.1 * limit + 0.5 * max(1.0, load)


#: The notebooks (each written by ``notebooks/generate/<name>.py``).
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
#: Seconds a notebook's cell may run before its execution fails.
NOTEBOOK_TIMEOUT = 300


@pytest.fixture(scope="session")
def executed_notebook():
    """``executed_notebook(name)``: ``notebooks/<name>.ipynb`` executed once per session (cached by name).

    Every test that reads a notebook's outputs goes through this fixture, so each notebook runs
    once however many modules check it; an execution error is cached too and raised to each test.
    """
    from hetopt.testing import run_notebook

    cache: dict[str, object] = {}

    def get(name: str):
        if name not in cache:
            try:
                cache[name] = run_notebook(NOTEBOOKS / f"{name}.ipynb", timeout=NOTEBOOK_TIMEOUT)
            except Exception as exc:  # noqa: BLE001 - re-raised to every test of this notebook
                cache[name] = exc
        if isinstance(cache[name], Exception):
            raise cache[name]
        return cache[name]

    return get
