"""CLI: validate's exit code follows the violations found; no stray folders; export without warnings."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from hetopt import cli
from hetopt.report import Table


def _fake_validate(violations):
    def validate(n=20, seed=0):
        t = Table("fake", ["seed", "holds"])
        t.add(seed, violations == 0)
        t.violations = violations
        return t
    return validate


@pytest.mark.parametrize("violations, code", [(0, 0), (None, 0), (3, 1)])
def test_validate_exit_code_follows_violations(monkeypatch, capsys, violations, code):
    import dataclasses

    from hetopt import registry

    kind = registry.get_kind("gavel")  # loads the registry; the swap below is undone after the test
    monkeypatch.setitem(registry._registered, "gavel", dataclasses.replace(kind, validate=_fake_validate(violations)))
    assert cli.main(["validate", "gavel", "--n", "1"]) == code
    err = capsys.readouterr().err
    assert ("violation" in err) == bool(code)


def test_validate_hare_writes_nothing_without_out(tmp_path, monkeypatch):
    from hetopt.hare.kind import validate

    monkeypatch.chdir(tmp_path)
    t = validate(n=1)
    assert t.violations is not None
    assert list(tmp_path.iterdir()) == []


def test_validate_out_rejected_where_nothing_is_written(capsys):
    assert cli.main(["validate", "gavel", "--n", "1", "--out", "x"]) != 0


def test_export_prints_no_format_warning(tmp_path, caplog):
    src = Path(__file__).resolve().parents[2] / "instances" / "liu2024_table2.json"
    for fmt in ("lp", "mps"):
        out = tmp_path / f"m.{fmt}"
        with caplog.at_level(logging.WARNING):
            assert cli.main(["export", str(src), "--format", fmt, "-o", str(out)]) == 0
        assert out.stat().st_size > 0
    assert not [r for r in caplog.records if "does not match" in r.getMessage()]
