"""The strict instance reader (issue 28 item 4, issue 31 item 4): what ``json.loads`` accepts silently or
answers with a traceback is refused as one InstanceError line, in Python and by every CLI subcommand that
reads an instance; arrays of numbers are read straight into numpy arrays, equal to what ``json`` reads."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hetopt
from hetopt.cli import main
from hetopt.data import (
    MAX_BYTES_ENV,
    MAX_DEPTH,
    MAX_INSTANCE_BYTES,
    MAX_INT_DIGITS,
    instance_path,
    list_instances,
    parse_json,
)
from hetopt.errors import ArgumentError, InstanceError

BASE = instance_path("hare2022_fig1").read_text(encoding="utf-8")


def _with(old: str, new: str, text: str = BASE) -> str:
    assert old in text
    return text.replace(old, new, 1)


#: name -> (file text, words of the one-line refusal)
REPRODUCERS = {
    "deep_nesting": ("[" * 10**5 + "]" * 10**5, f"nested more than MAX_DEPTH = {MAX_DEPTH} levels deep"),
    "deep_nesting_inside": (_with('"arrival": [', '"arrival": ' + "[" * 40 + "[") , "nested more than"),
    "long_integer": (_with('"arrival": [', '"arrival": [' + "9" * 5000 + ", "),
                     f"an integer of 5000 digits (the loader reads at most MAX_INT_DIGITS = {MAX_INT_DIGITS})"),
    "duplicate_kind": (_with('"kind": "hare",', '"kind": "hare", "kind": "placement",'),
                       "the key 'kind' appears twice in this object"),
    "nan": (_with('"arrival": [', '"arrival": [NaN, '), "NaN is not JSON"),
    "infinity": (_with('"arrival": [', '"arrival": [Infinity, '), "Infinity is not JSON"),
    "minus_infinity": (_with('"arrival": [', '"arrival": [-Infinity, '), "-Infinity is not JSON"),
    "float_overflow": (_with('"arrival": [', '"arrival": [1e400, '), "the number 1e400 overflows a float"),
}


@pytest.fixture(params=sorted(REPRODUCERS))
def reproducer(request, tmp_path):
    text, words = REPRODUCERS[request.param]
    path = tmp_path / f"{request.param}.json"
    path.write_text(text, encoding="utf-8")
    return path, words


def test_python_refuses_each_reproducer(reproducer):
    path, words = reproducer
    with pytest.raises(InstanceError, match=r"line [0-9]+ column [0-9]+( \((arrival)?\[0\]\S*\))?: ") as err:
        hetopt.load_instance(path)
    assert words in str(err.value) and "\n" not in str(err.value)
    kind = hetopt.load_instance("hare2022_fig1")
    with pytest.raises(InstanceError, match="line"):
        type(kind).from_json(path)  # the classes' from_json reads through the same reader


@pytest.mark.parametrize("command", [["solve"], ["compare"], ["export"]])
def test_every_cli_subcommand_that_reads_an_instance_refuses_in_one_line(reproducer, command, capsys):
    path, words = reproducer
    assert main([*command, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and err.startswith("hetopt: ")


def test_duplicate_keys_are_refused_at_any_depth():
    data = hetopt.load_instance("hadar2024_small").to_json()
    text = _with('"kind": "effective_throughput"', '"kind": "effective_throughput", "kind": "sigmoid"', data)
    with pytest.raises(InstanceError, match="'kind' appears twice"):
        parse_json(text)
    with pytest.raises(InstanceError, match="'a' appears twice"):
        parse_json('{"x": [{"b": 1}, {"a": 1, "b": 2, "a": 3}]}')


@pytest.mark.parametrize("text, words", [
    ("[1, 2", "Expecting ',' delimiter"), ("{} x", "Extra data"), ("", "expecting a value"), ("[01]", "delimiter"),
    ("[.5]", "Expecting value"), ("[+1]", "Expecting value"), ('"\x01"', "Invalid control character"),
    ("\ufeff{}", "byte-order mark"), ("[1e999, 2.5]", "overflows"), ("[[1, 2], [3, -1e309]]", "overflows"),
    ("[1,\u00a02]", "Expecting value"), ("[[1, 2],\u2028[3, 4]]", "Expecting value"),  # not JSON whitespace
    ('["a",\u00a0"b"]', "Expecting value"), ('{"a": 1,}', "property name"), ("[1, 2,]", "Expecting value"),
])
def test_invalid_json_is_one_line_with_its_position(text, words):
    with pytest.raises(InstanceError, match=words) as err:
        parse_json(text, arrays=True)
    assert "\n" not in str(err.value)


def test_depth_limit_is_the_documented_one():
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json(ok) is not None and parse_json(ok, arrays=True) is not None
    for text in ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "[" * (MAX_DEPTH - 1) + "[[1, 2]]" + "]" * (MAX_DEPTH - 1)):
        with pytest.raises(InstanceError, match="nested"):
            parse_json(text, arrays=True)


def test_integer_digit_limit_is_the_documented_one():
    assert parse_json("[" + "9" * MAX_INT_DIGITS + "]") == [int("9" * MAX_INT_DIGITS)]
    with pytest.raises(InstanceError, match=f"{MAX_INT_DIGITS + 1} digits"):
        parse_json("[-" + "9" * (MAX_INT_DIGITS + 1) + "]")
    # within the limit but beyond int64: the field check names the field
    with pytest.raises(InstanceError, match=r"arrival\[0\] is 18446744073709551616"):
        hetopt.load_instance(parse_json(_with('"arrival": [', '"arrival": [18446744073709551616, '), arrays=True))


def test_oversized_file_is_refused_and_the_limit_can_be_raised(tmp_path, monkeypatch, capsys):
    path = tmp_path / "big.json"
    with open(path, "wb") as fh:  # a sparse file one byte over the default limit: instant, no disk used
        fh.truncate(MAX_INSTANCE_BYTES + 1)
    with pytest.raises(InstanceError, match=f"{MAX_INSTANCE_BYTES + 1:,} bytes; the loader reads at most") as err:
        hetopt.load_instance(path)
    assert "max_bytes=N" in str(err.value) and MAX_BYTES_ENV in str(err.value)
    assert main(["solve", str(path)]) == 2 and "at most 100,000,000 bytes" in capsys.readouterr().err
    small = tmp_path / "fig1.json"
    small.write_text(BASE, encoding="utf-8")
    size = len(BASE.encode())
    with pytest.raises(InstanceError, match=f"at most {size - 1:,} bytes"):
        hetopt.load_instance(small, max_bytes=size - 1)
    assert hetopt.load_instance(small, max_bytes=size).n_jobs == 3  # the limit is inclusive
    monkeypatch.setenv(MAX_BYTES_ENV, str(size - 1))
    with pytest.raises(InstanceError, match="at most"):
        hetopt.load_instance(small)
    for command in (["solve"], ["compare"], ["export"]):
        assert main([*command, str(small)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"at most {size - 1:,} bytes" in err
    assert hetopt.load_instance(small, max_bytes=size).n_jobs == 3  # the argument overrides the variable
    monkeypatch.setenv(MAX_BYTES_ENV, str(size))
    assert hetopt.load_instance(small).n_jobs == 3
    assert main(["solve", str(small), "--method", "exact"]) == 0
    capsys.readouterr()
    monkeypatch.setenv(MAX_BYTES_ENV, "lots")
    with pytest.raises(ArgumentError, match=MAX_BYTES_ENV):
        hetopt.load_instance(small)
    assert main(["solve", str(small)]) == 2 and MAX_BYTES_ENV in capsys.readouterr().err


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "10"])
def test_max_bytes_is_checked(bad):
    with pytest.raises(ArgumentError, match="max_bytes"):
        hetopt.load_instance("hare2022_fig1", max_bytes=bad)


def _as_lists(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {k: _as_lists(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_lists(v) for v in value]
    return value


@pytest.mark.parametrize("stem", list_instances())
def test_the_reader_reads_every_bundled_file_as_json_does(stem):
    text = instance_path(stem).read_text(encoding="utf-8")
    expected = json.loads(text)
    assert parse_json(text) == expected
    fast = parse_json(text, arrays=True)
    assert _as_lists(fast) == expected
    for key, value in fast.items():  # int64 arrays exactly where json gives lists of ints
        if isinstance(value, np.ndarray):
            ints = all(isinstance(x, int) for x in np.ravel(np.asarray(expected[key], dtype=object)))
            assert (value.dtype == np.int64) == ints, key


_LEAF = (st.none() | st.booleans() | st.integers(-10**MAX_INT_DIGITS + 1, 10**MAX_INT_DIGITS - 1) | st.floats(allow_nan=False, allow_infinity=False)
         | st.text(max_size=5))
_JSON = st.recursive(_LEAF | st.lists(st.floats(-1e300, 1e300), max_size=6) | st.lists(st.integers(-2**63, 2**63), max_size=6),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
                     max_leaves=30)


def _canon(value, exact):
    """The document with every leaf tagged by its JSON type (numbers by value unless ``exact``)."""
    if isinstance(value, dict):
        return {k: _canon(v, exact) for k, v in value.items()}
    if isinstance(value, list):
        return ["list", [_canon(v, exact) for v in value]]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return [type(value).__name__, value]
    return [type(value).__name__ if exact else "number", value]


@settings(max_examples=300, derandomize=True, deadline=None)
@given(_JSON, st.sampled_from([None, 1, 2]))
def test_the_reader_agrees_with_json_on_drawn_documents(doc, indent):
    """The second method: the standard library's parser, on documents written by the standard library."""
    text = json.dumps(doc, indent=indent)
    expected = json.loads(text)
    assert _canon(parse_json(text), exact=True) == _canon(expected, exact=True)
    # arrays of numbers become numpy arrays: a mixed int/float array is read as floats, with the same values
    assert _canon(_as_lists(parse_json(text, arrays=True)), exact=False) == _canon(expected, exact=False)


@settings(max_examples=50, derandomize=True, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=200),
       st.integers(1, 4))
def test_float_arrays_are_read_exactly(values, n_cols):
    rows = [values[i:i + n_cols] for i in range(0, len(values) - len(values) % n_cols, n_cols)] or [values[:1]]
    for doc in (values, rows):
        a = parse_json(json.dumps(doc), arrays=True)
        assert isinstance(a, np.ndarray) and a.tolist() == doc and all(math.copysign(1, x) == math.copysign(1, y)
                                                                       for x, y in zip(np.ravel(a), np.ravel(doc), strict=True))
