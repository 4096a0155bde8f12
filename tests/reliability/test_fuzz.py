"""Fuzz of every instance kind through Python and the CLI (issues 11 and 14).

Thirteen corruption classes (:data:`hetopt.testing.strategies.CORRUPTIONS`: NaN, inf, sign,
numeric string, boolean, null, too-large integer, empty, shape, unequal rows, unknown key,
wrong kind, missing kind) on every numeric field of a small instance of each kind, plus the
file-level classes of the CLI (bad JSON, a directory, a JSON list, a missing file, an oversize
instance for an exhaustive method).  Each case must end in an ``InstanceError`` naming the
field from Python, and in one line on stderr with a non-zero exit code from the CLI.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings

import hetopt
from hetopt import cli
from hetopt.errors import InstanceError
from hetopt.registry import kinds
from hetopt.testing.strategies import CORRUPTIONS, corrupt, instances, invalid_instance_data, numeric_fields

KINDS = list(kinds())
WHOLE = ("unknown_key", "wrong_kind", "no_kind")


def _cases(kind: str, seed: int = 1):
    data = kinds()[kind].example(seed=seed, size=1).to_dict()
    for c in CORRUPTIONS:
        for f in ([None] if c in WHOLE else numeric_fields(data)):
            case = corrupt(data, c, f)
            if case is not None:
                yield case


def _single_type_refusal(kind: str, method: str, inst, exc: Exception) -> bool:
    """Hadar's Gavel and Tiresias baselines run a job on one GPU type: they refuse, naming the job, an
    instance where some job's gang exceeds the count of every type it can run on (checked here)."""
    if kind != "hadar" or method not in ("gavel", "tiresias") or f"{method} cannot run job" not in str(exc):
        return False
    j = int(str(exc).split("cannot run job ")[1].split(":")[0])
    return not any(inst.throughput[j, r] > 0 and int(inst.capacity[:, r].sum()) >= int(inst.gpus[j])
                   for r in range(inst.n_types))


def _named(case, exc: Exception) -> bool:
    return case.field is None or case.field in str(exc) or case.field.rstrip("s") in str(exc)


@pytest.mark.parametrize("kind", KINDS)
def test_every_corruption_of_every_field_is_rejected_naming_it(kind):
    seen = set()
    for case in _cases(kind):
        with pytest.raises(InstanceError) as info:
            hetopt.load_instance(case.data)
        assert _named(case, info.value), (case.corruption, case.field, str(info.value))
        seen.add(case.corruption)
    assert len(seen) >= 10, sorted(seen)


def _make_property(kind):
    @settings(max_examples=15, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(case=invalid_instance_data(kind))
    def prop(case):
        with pytest.raises(InstanceError) as info:
            hetopt.load_instance(case.data)
        assert _named(case, info.value), (case.corruption, case.field, str(info.value))
    return prop


@pytest.mark.parametrize("kind", KINDS)
def test_invalid_instance_strategy_is_rejected(kind):
    _make_property(kind)()


@pytest.mark.parametrize("kind", KINDS)
def test_valid_instance_strategy_round_trips(kind):
    @settings(max_examples=8, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(inst=instances(kind))
    def prop(inst):
        again = hetopt.load_instance(json.loads(json.dumps(inst.to_dict())))
        assert again.to_dict() == inst.to_dict()
    prop()


def _one_line_error(capsys, argv) -> str:
    code = cli.main(argv)
    err = capsys.readouterr().err.strip()
    assert code != 0, argv
    assert "Traceback" not in err and err.count("\n") == 0 and err.startswith("hetopt: "), err
    return err


@pytest.mark.parametrize("kind", KINDS)
def test_cli_rejects_every_corruption_class_in_one_line(kind, tmp_path, capsys):
    method = next(iter(hetopt.methods(kind)))
    done = set()
    for case in _cases(kind):
        if case.corruption in done:
            continue
        done.add(case.corruption)
        path = tmp_path / f"{case.corruption}.json"
        path.write_text(json.dumps(case.data, allow_nan=True))
        err = _one_line_error(capsys, ["solve", str(path), "--method", method, "--json"])
        assert case.field is None or case.field in err or case.field.rstrip("s") in err, err
    assert len(done) >= 10


@pytest.mark.parametrize("content, what", [("{not json", "not valid JSON"), ("[1, 2]", "JSON list"),
                                           ('"text"', "JSON str"), ("", "not valid JSON")])
def test_cli_rejects_bad_files_in_one_line(tmp_path, capsys, content, what):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert what in _one_line_error(capsys, ["solve", str(path), "--method", "exact"])


def test_cli_rejects_directory_and_missing_file(tmp_path, capsys):
    _one_line_error(capsys, ["solve", str(tmp_path), "--method", "exact"])
    _one_line_error(capsys, ["solve", str(tmp_path / "none.json"), "--method", "exact"])


def test_cli_rejects_oversize_instance_in_one_line(tmp_path, capsys):
    from hetopt.placement.generators import generate_instance

    big = generate_instance(n_jobs=6, n_workers=40, seed=0)
    path = tmp_path / "big.json"
    path.write_text(big.to_json())
    err = _one_line_error(capsys, ["solve", str(path), "--method", "exhaustive"])
    assert "max_size" in err, err


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_long_fuzz_invalid_and_valid(kind):
    """The long variant: 300 corrupted instances per kind, and every method of the kind on 10
    drawn valid instances, each solved without a crash, checked by the kind's checker (which must
    find no violation and recompute the same objective), and never better than a certified optimum
    of the same objective."""
    import time

    @settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(case=invalid_instance_data(kind))
    def bad(case):
        with pytest.raises(InstanceError) as info:
            hetopt.load_instance(case.data)
        assert _named(case, info.value)

    @settings(max_examples=10, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(inst=instances(kind, max_size=1))
    def good(inst):
        kind_ = kinds()[kind]
        optimum = {}
        for m in kind_.methods:
            t0 = time.perf_counter()
            try:
                sol = m(inst, time_limit=30) if m.accepts("time_limit") else m(inst)
            except InstanceError as exc:  # only a policy that runs a job on one type may refuse, and only then
                assert _single_type_refusal(kind, m.name, inst, exc), (m.name, str(exc))
                continue
            assert sol.status in ("optimal", "feasible", "time_limit"), (m.name, sol.status)
            assert time.perf_counter() - t0 < 60, m.name
            report = kind_.check_schedule(inst, sol)
            assert report.ok, (m.name, report.violations[:3])
            if report.objective is not None and sol.objective is not None:
                assert report.objective == pytest.approx(sol.objective, rel=1e-6, abs=1e-6), m.name
            if m.category == "exact" and sol.status == "optimal":
                optimum.setdefault(m.objective, (sol.objective, sol.sense))
            elif m.objective in optimum and sol.objective is not None:
                opt, sense = optimum[m.objective]
                sign = 1.0 if sense == "min" else -1.0
                assert sign * sol.objective >= sign * opt - 1e-6 * max(1.0, abs(opt)), m.name

    bad()
    good()
