"""Shared test settings: named tolerances, the notebooks executed once per session, and the groups
that keep a shared fixture on one pytest-xdist worker."""

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


@pytest.fixture(scope="session")
def sources():
    """The package's files read and parsed once per process (``tests/sources.py``); the tests that read the
    code ask for it, which also keeps them on one worker."""
    from tests import sources as module

    return module


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """``xdist_group`` marks (read by ``--dist loadgroup``, the default of pyproject.toml's addopts): the tests
    that share a costly fixture run on one worker, so it is computed once per run, not once per worker;
    a paper's ledger checks share its cached runs the same way.

    A notebook's tests share its execution (``executed_notebook``), the docs' tests the site build
    (``site``), the tests that read the code its parsed files (``sources``), and a module's (or a
    class's) tests a fixture of that scope; every other test is scheduled on its own."""
    heavy = []
    for item in items:
        group = _group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
        heavy.append(_heavy(item, group))
    # the long groups first (a notebook's execution, the docs site, the ledger's checks and flips), so that no
    # worker is left with one of them while the other has finished: a stable sort keeps every other order
    order = sorted(range(len(items)), key=heavy.__getitem__)
    items[:] = [items[i] for i in order]


def _heavy(item, group: str | None) -> int:
    """0 for the tests of a notebook or the docs site, 1 for the ledger's per-claim runs, 2 for the rest."""
    if group is not None and (group.startswith("notebook-") or group == "docs-site"):
        return 0
    return 1 if item.nodeid.startswith("tests/claims/test_ledger.py::test_fast_") else 2


def _group(item) -> str | None:
    info = getattr(item, "_fixtureinfo", None)
    names = set(getattr(info, "names_closure", ()))
    if "executed_notebook" in names:
        return f"notebook-{_notebook_of(item, names)}"
    if "site" in names and item.nodeid.startswith("tests/docs/"):
        return "docs-site"
    if "sources" in names:
        return "sources"
    if item.nodeid.startswith("tests/claims/test_ledger.py::test_fast_"):
        # a paper's claims read the same cached runs (Wang et al.'s simulations, the certified optima, the
        # LPs): on one worker they compute them once, as `hetopt reproduce` does (about 15 % of their time)
        claim = getattr(getattr(item, "callspec", None), "params", {}).get("claim")
        if claim is not None:
            return f"ledger-{claim.paper}"
    for name in sorted(names):
        defs = (getattr(info, "name2fixturedefs", {}) or {}).get(name)
        if defs and defs[-1].scope in ("module", "class") and str(defs[-1].baseid).startswith("tests"):
            return item.nodeid.split("::")[0]
    return None


def _notebook_of(item, names: set[str]) -> str:
    """The notebook a test reads: its ``name`` parameter, a fixture named after it (``nb`` is the duality
    notebook's), or the ``test_<notebook>_`` prefix of its name; "all" when none says."""
    stems = {p.stem for p in NOTEBOOKS.glob("*.ipynb")}
    param = getattr(getattr(item, "callspec", None), "params", {}).get("name")
    if param in stems:
        return param
    if "nb" in names and item.nodeid.startswith("tests/test_duality_notebook.py"):
        return "duality"
    named = sorted(stems & names) or [s for s in sorted(stems) if item.name.startswith(f"test_{s}_")]
    return named[0] if named else "all"
