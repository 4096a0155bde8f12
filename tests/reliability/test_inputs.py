"""Bad field values in every instance kind are rejected with an InstanceError naming the field.

Starting from one bundled instance per kind, each numeric field is replaced by a corrupted
copy (a numeric string, a boolean, a complex number, None, an integer beyond int64, a ragged
list, ...); loading must raise :class:`InstanceError` whose message names the field, never
coerce the value, wrap it, or end in a TypeError / numpy ValueError.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from hetopt.api import load_instance
from hetopt.data import instance_path
from hetopt.errors import ArgumentError, InstanceError
from hetopt.inputs import names_tuple, numeric_array

BUNDLED = {
    "placement": "liu2024_table2",
    "hare": "hare2022_fig1",
    "oasis": "oasis2018_drf_beats_oasis",
    "contention": "wang2019_tiny",
    "hadar": "hadar2024_small",
    "gavel": "gavel2020_three_jobs",
    "arena": "arena_workload_small_test",
}


def _data(kind: str) -> dict:
    data = json.loads(instance_path(BUNDLED[kind]).read_text(encoding="utf-8"))
    assert data["kind"] == kind
    return data


def _first_leaf_path(value, path=()):
    """Index path of the first numeric leaf of a nested list (None when there is none)."""
    if isinstance(value, list):
        for j, v in enumerate(value):
            p = _first_leaf_path(v, path + (j,))
            if p is not None:
                return p
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return path
    return None


def _set(value, path, leaf):
    out = copy.deepcopy(value)
    if not path:
        return leaf
    cur = out
    for j in path[:-1]:
        cur = cur[j]
    cur[path[-1]] = leaf
    return out


def _numeric_fields(data: dict) -> list[str]:
    return [k for k, v in data.items()
            if k not in ("kind", "schema_version") and _first_leaf_path(v) is not None]


def _ragged(value):
    if isinstance(value, list) and value and isinstance(value[0], list) and len(value) >= 2:
        out = copy.deepcopy(value)
        out[1] = out[1] + [out[1][0] if out[1] else 1]
        return out
    if isinstance(value, list) and len(value) >= 2:
        out = copy.deepcopy(value)
        out[1] = [out[1], out[1]]
        return out
    return None


BAD_LEAVES = {
    "numeric_string": lambda x: str(x),
    "bool": lambda x: True,
    "complex": lambda x: complex(x, 1),
    "none": lambda x: None,
    "int_2_63": lambda x: 2**63,
    "int_2_64": lambda x: 2**64 + 5,
    "dict": lambda x: {"v": x},
    "list_in_leaf": lambda x: [x, x],
}

CASES = [(kind, bad) for kind in BUNDLED for bad in [*BAD_LEAVES, "ragged", "whole_string", "whole_bool"]]


@pytest.mark.parametrize("kind, bad", CASES)
def test_bad_field_rejected_naming_it(kind, bad):
    data = _data(kind)
    fields = _numeric_fields(data)
    assert fields, kind
    tried = 0
    for name in fields:
        value = data[name]
        if bad in BAD_LEAVES:
            path = _first_leaf_path(value)
            if bad == "none" and not path:
                continue  # optional scalar fields take None as "default"
            new = _set(value, path, BAD_LEAVES[bad](value if not path else _get(value, path)))
        elif bad == "ragged":
            new = _ragged(value)
            if new is None:
                continue
        elif bad == "whole_string":
            new = "12"
        else:
            new = True
        corrupted = {**data, name: new}
        try:
            load_instance(corrupted)
        except InstanceError as exc:
            assert name in str(exc) or _alias(name) in str(exc), (name, str(exc))
        except Exception as exc:  # noqa: BLE001
            pytest.fail(f"{kind}.{name} = {bad}: {type(exc).__name__}: {exc}")
        else:
            if bad in ("int_2_63", "int_2_64") or bad in ("numeric_string", "bool", "complex", "none", "whole_string",
                                                          "whole_bool", "dict"):
                pytest.fail(f"{kind}.{name} = {bad} ({new!r:.80}) was accepted")
        tried += 1
    assert tried


def _get(value, path):
    for j in path:
        value = value[j]
    return value


def _alias(name: str) -> str:
    return name.rstrip("s")


@pytest.mark.parametrize("kind", list(BUNDLED))
def test_schema_version_true_rejected(kind):
    data = _data(kind)
    data["schema_version"] = True
    with pytest.raises(InstanceError, match="schema_version"):
        load_instance(data)


def test_numeric_array_rules():
    assert numeric_array("x", [1, 2.5]).dtype == float
    assert numeric_array("x", np.array([1, 2], dtype=np.int32), integer=True).dtype == np.int64
    for bad in (["1"], [True], [1j], [None], [[1, 2], [3]], "12", [2**63], np.array([2**63], dtype=np.uint64),
                np.array([True]), [{}]):
        with pytest.raises(InstanceError, match=r"^x"):
            numeric_array("x", bad)
    with pytest.raises(InstanceError, match="x"):
        numeric_array("x", [1e19], integer=True)


@pytest.mark.parametrize("bad", [5, "ab", None.__class__])
def test_names_tuple_rejects_non_sequences(bad):
    with pytest.raises(InstanceError, match="job_names"):
        names_tuple("job_names", bad, 2, "job")


def _front_doors():
    """Every kind's verbs that take an instance: solve_exact, simulate, validate_ratio (registry-driven)."""
    import importlib

    from hetopt.registry import kinds

    out = {}
    for name, kind in kinds().items():
        pkg = importlib.import_module(f"hetopt.{name}")
        out[f"{name}.solve_exact"] = (kind.solve_exact, ())
        out[f"{name}.validate_ratio"] = (pkg.validate_ratio, ())
        if kind.simulate is not None:
            out[f"{name}.simulate"] = (kind.simulate, (next(iter(kind.policies)),))
    return out


@pytest.mark.parametrize("door", sorted(_front_doors()))
@pytest.mark.parametrize("bad", ["none", "path", "other_kind"])
def test_front_doors_reject_non_instances(door, bad):
    func, args = _front_doors()[door]
    other = "liu2024_table2" if door.startswith("gavel") else "gavel2020_three_jobs"
    value = {"none": None, "path": str(instance_path("liu2024_table2")), "other_kind": load_instance(other)}[bad]
    with pytest.raises(ArgumentError, match="inst is a"):
        func(value, *args)


@pytest.mark.parametrize("kind", ["placement", "oasis", "gavel"])
@pytest.mark.parametrize("jobs", [[-1], [0, 99], ["0"], [True]])
def test_job_subsets_reject_bad_indices(kind, jobs):
    inst = load_instance(BUNDLED[kind])
    method = getattr(inst, "subset", None) or inst.with_jobs
    with pytest.raises(InstanceError, match="jobs"):
        method(jobs)


def test_numeric_array_property():
    """Any nested list of floats/ints within int64 is accepted unchanged; one bad leaf anywhere is rejected."""
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import given, settings
    from hypothesis import strategies as st

    good = st.one_of(st.integers(-(2**62), 2**62), st.floats(allow_nan=False, allow_infinity=False, width=64))
    bad = st.one_of(st.booleans(), st.text(max_size=3), st.complex_numbers(), st.none(),
                    st.integers(min_value=2**63, max_value=2**70))

    @settings(max_examples=60, derandomize=True, deadline=None)
    @given(st.lists(st.lists(good, min_size=2, max_size=2), min_size=1, max_size=4), st.data())
    def run(rows, data):
        np.testing.assert_array_equal(numeric_array("m", rows), np.asarray(rows, dtype=float))
        i = data.draw(st.integers(0, len(rows) - 1))
        j = data.draw(st.integers(0, 1))
        broken = [list(r) for r in rows]
        broken[i][j] = data.draw(bad)
        with pytest.raises(InstanceError, match=r"^m"):
            numeric_array("m", broken)

    run()
    assert hypothesis


def _all_methods():
    from hetopt.registry import kinds

    return [(kind, m.name) for kind, k in kinds().items() for m in k.methods]


@pytest.mark.parametrize("kind, name", _all_methods())
def test_every_method_rejects_non_instances(kind, name):
    from hetopt import api

    method = api.methods(kind)[name]
    other = load_instance("liu2024_table2" if kind == "gavel" else "gavel2020_three_jobs")
    for bad in (None, str(instance_path(BUNDLED[kind])), other):
        with pytest.raises(ArgumentError, match="inst is a"):
            method.func(bad)
