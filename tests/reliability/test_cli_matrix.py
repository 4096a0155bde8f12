"""Every misuse of every subcommand and option of ``hetopt``: one line on stderr, exit status 2.

The matrix is built from the parser itself (every option of every subcommand, with values that
its type must refuse), plus the misuses that only the command can detect (an unknown method,
claim or sweep, a missing directory, an output that is the input).
"""

from __future__ import annotations

import argparse
import json
import os

import pytest

from hetopt.cli import build_parser, main

#: values each option type must refuse
BAD_VALUES = {
    "_time_limit": ["-3", "0", "nan", "inf", "abc", ""],
    "_positive_int": ["0", "-1", "1.5", "abc", "true"],
    "_count": ["0", "-1", "1.5", "abc", str(2**70)],
    "_seed": ["-5", "1.5", "abc", str(2**64)],
    "_kind_name": ["nope", "HARE", ""],
}

#: the smallest valid command line of each subcommand (bad values are put into it one at a time)
BASE = {
    "reproduce": ["reproduce", "gavel", "--fast"],
    "claims": ["claims", "gavel"],
    "sweep": ["sweep"],
    "instances": ["instances"],
    "schema": ["schema", "hare"],
    "solve": ["solve", "hare2022_fig1"],
    "compare": ["compare", "hare2022_fig1", "--methods", "algorithm1"],
    "validate": ["validate", "hare", "--n", "1"],
    "bench": ["bench", "gavel", "--quick"],
    "export": ["export", "hare2022_fig1"],
    "arena": ["arena", "physical_cluster/small_test", "--policies", "fifo", "--counts", "4:4:4", "--no-bounds"],
}


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def _matrix() -> list[tuple[str, list[str]]]:
    cases = []
    for command, sub in _subparsers().items():
        for action in sub._actions:
            kind = getattr(action.type, "__name__", None)
            if kind not in BAD_VALUES:
                continue
            for bad in BAD_VALUES[kind]:
                argv = list(BASE[command])
                if action.option_strings:
                    argv += [action.option_strings[0], bad]
                else:  # a positional kind: replace the base's
                    argv = [command, bad] + [a for a in BASE[command][2:]]
                cases.append((f"{command} {action.dest}={bad!r}", argv))
        for action in sub._actions:
            if action.choices and action.option_strings and not isinstance(action, argparse._SubParsersAction):
                cases.append((f"{command} {action.dest} not a choice", BASE[command] + [action.option_strings[0], "xls"]))
    return cases


def test_the_matrix_covers_every_subcommand_and_typed_option():
    covered = {name.split()[0] for name, _ in _matrix()}
    assert set(BASE) == set(_subparsers()), "a new subcommand needs its BASE command line here"
    assert {"reproduce", "claims", "solve", "compare", "validate", "bench", "instances"} <= covered


def _one_line_exit_2(argv, capsys) -> str:
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2, (argv, code, err)
    assert err.count("\n") == 1 and "Traceback" not in err and err.startswith("hetopt"), (argv, err)
    return err


@pytest.mark.parametrize("argv", [argv for _, argv in _matrix()], ids=[name for name, _ in _matrix()])
def test_bad_option_values(argv, capsys):
    _one_line_exit_2(argv, capsys)


def test_command_level_misuses(tmp_path, capsys):
    inst = tmp_path / "inst.json"
    inst.write_text(json.dumps(json.loads(open(_bundled("hare2022_fig1")).read())))
    link = tmp_path / "link.lp"
    os.link(inst, link)
    cases = [
        ["solve"],
        ["solve", "/nonexistent.json"],
        ["solve", str(tmp_path)],
        ["solve", "hare2022_fig1", "--method", "nope"],
        ["solve", "liu2024_table2", "--method", "has", "--time-limit", "5"],
        ["compare", "hare2022_fig1", "--methods", "nope"],
        ["claims", "--id", "no.such.claim"],
        ["claims", "--flip"],
        ["sweep", "no_such_sweep"],
        ["export", "hare2022_fig1", "-o", "/nonexistent_dir/x.lp"],
        ["export", str(inst), "-o", str(inst)],
        ["export", str(inst), "-o", str(link)],
        ["validate", "hare", "--n", "1", "--out", str(inst)],
        ["validate", "gavel", "--n", "1", "--out", str(tmp_path)],
    ]
    for argv in cases:
        _one_line_exit_2(argv, capsys)
    assert json.loads(inst.read_text())["kind"] == "hare", "export must never overwrite its input"


#: invocations that were silently coerced (issue 31, item 7): each is refused, naming its option
COERCED = [
    (["compare", "liu2024_table2", "--methods", "has,has"], "--methods 'has,has': 'has'"),
    (["compare", "liu2024_table2", "--methods", ""], "--methods ''"),
    (["compare", "liu2024_table2", "--methods", "has,,optimus"], "--methods"),
    (["export", "hare2022_fig1", "-o", ""], "-o is empty"),
    (["claims", "--conformance", "--id", "nope"], "--id 'nope' is not a conformance check"),
    (["claims", "--conformance", "--flip", "--id", "nope"], "--flip"),
    (["sweep", ""], "sweep NAME is empty"),
    (["sweep", " "], "sweep NAME is empty"),
    (["validate", "hare", "--n", "1", "--out", "/proc/x"], "--out /proc/x"),
]


@pytest.mark.parametrize("argv, named", COERCED, ids=[" ".join(a) or "empty" for a, _ in COERCED])
def test_coercions_are_refused_by_name(argv, named, capsys):
    assert named in _one_line_exit_2(argv, capsys)


def _bundled(name: str):
    from hetopt.data import instance_path

    return instance_path(name)
