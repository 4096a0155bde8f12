"""The review's argument matrix, generated: every public function of every kind with bad arguments.

``python -m tests.reliability.argument_sweep [--kinds hare,gavel] [--json out.json]`` calls every Kind
verb and every callable of each paper's ``__all__`` once per (parameter, bad value): the other
arguments keep their defaults, the required ones get a valid value (the kind's example instance, a
solution of it, a policy name, ...); a function whose required arguments cannot be built is listed as
skipped.  Each case is classified: ``named`` (an ArgumentError, InstanceError or SizeLimitError whose
message names the parameter), ``unnamed`` (one of those without the name), ``accepted`` (returned),
``crash`` (any other exception) or ``hang`` (more than ``--timeout`` seconds; the worker process is
then replaced).  A bad value is one the parameter's default or annotation rules out (None where the
default is not None, a bool where an int is expected, a negative, NaN, inf, 2**70, an empty or ragged
sequence, a wrong type).  Slow (minutes): ``tests/reliability/test_argument_sweep.py`` runs it in the
slow tier.
"""

from __future__ import annotations

import argparse
import inspect
import json
import math
import multiprocessing as mp
import sys
from collections import Counter
from typing import Any

from hetopt.errors import ArgumentError, InstanceError, SizeLimitError

OUTCOMES = ("named", "unnamed", "accepted", "crash", "hang")
INSTANCE_NAMES = {"inst", "instance", "workload"}
#: Functions whose instance is another kind's (the arena's converters).
OTHER_KIND = {"from_gavel": "gavel"}
#: parameters where None is a documented value whatever the default (a seed, an executor, a time limit)
NONE_OK = {"seed", "executor", "time_limit", "epochs_range", "chunks_range", "heterogeneity"}
#: free text: any string is valid
FREE_TEXT = {"name", "description", "stem", "title", "label"}
SKIP = {"KIND", "SCHEMA_VERSION"}


def _bad_values(param: inspect.Parameter) -> list[tuple[str, Any]]:
    """(label, value) pairs that the parameter's default or annotation rule out."""
    d, ann = param.default, str(param.annotation)
    if param.name in INSTANCE_NAMES:
        return [("None", None), ("int", 3), ("list", [1, 2])]
    optional = d is None or "None" in ann or param.name in NONE_OK
    out: list[tuple[str, Any]] = [] if optional else [("None", None)]
    if isinstance(d, bool) or (d is inspect.Parameter.empty and ann.startswith("bool")):
        return out + [("str", "x"), ("int 2", 2)]
    if (isinstance(d, int) and not isinstance(d, bool)) or ann.startswith("int"):
        bound = param.name.startswith("max_") or "limit" in param.name  # 2**70 is a valid (absent) bound there
        return out + [("str", "x"), ("bool", True), ("negative", -1), ("float", 1.5), ("nan", math.nan)] + (
            [] if bound else [("2**70", 2**70)])
    if isinstance(d, float) or ann.startswith("float"):
        unbounded = d == math.inf or "time_limit" in param.name  # inf means "no limit" there
        # 2**70 is a finite real number: only integers are probed with it
        return out + [("str", "x"), ("bool", True), ("negative", -1.0), ("nan", math.nan)] + (
            [] if unbounded else [("inf", math.inf)])
    if isinstance(d, str):
        return out + [("int", 3)] + ([] if param.name in FREE_TEXT else [("empty", ""), ("unknown", "no-such-name")])
    if isinstance(d, tuple | list) or "Sequence" in ann:
        return out + [("str", "x"), ("empty", []), ("ragged", [[1.0], [1.0, 2.0]]), ("nan", [math.nan])]
    return out + [("object", object())]


class _Valid:
    """Valid values for a kind's required arguments, built lazily."""

    def __init__(self, kind: Any) -> None:
        self.kind = kind
        self._inst: Any = None
        self._sol: Any = None

    def inst(self) -> Any:
        if self._inst is None:
            self._inst = self.kind.example(seed=0, size=1)
        return self._inst

    def sol(self) -> Any:
        if self._sol is None:
            import hetopt

            self._sol = hetopt.solve(self.inst())
        return self._sol

    def value(self, name: str, function: str = "") -> Any:
        if name in INSTANCE_NAMES and function in OTHER_KIND:
            from hetopt.registry import get_kind

            return get_kind(OTHER_KIND[function]).example(seed=0, size=1)
        if name in INSTANCE_NAMES:
            return self.inst()
        if name in ("sol", "solution", "schedule", "result"):
            return self.sol()
        if name == "policy":
            return next(iter(self.kind.policies)) if self.kind.policies else None
        if name == "n":
            return 2
        raise LookupError(name)


def _functions(kind: Any) -> dict[str, Any]:
    import importlib

    out: dict[str, Any] = {}
    for verb in ("generate_instance", "example", "solve_exact", "simulate", "check_schedule", "validate_ratio",
                 "export_model"):
        f = getattr(kind, verb, None)
        if callable(f):
            out[verb] = f
    mod = importlib.import_module(kind.instance.__module__.rsplit(".", 1)[0])  # the paper's package
    for name in getattr(mod, "__all__", ()):
        obj = getattr(mod, name, None)
        if name in SKIP or name in out or not inspect.isfunction(obj):
            continue
        out[name] = obj
    return out


def cases(kind: Any) -> tuple[list[tuple[str, str, str, Any, dict[str, Any]]], list[str]]:
    """(function, parameter, label, function object, base arguments) per bad value, and the skipped functions."""
    valid = _Valid(kind)
    out, skipped = [], []
    for fname, f in _functions(kind).items():
        try:
            sig = inspect.signature(f)
        except (TypeError, ValueError):
            skipped.append(f"{fname}: no signature")
            continue
        base: dict[str, Any] = {"seed": 0, "size": 1} if fname == "example" else {}
        try:
            for p in sig.parameters.values():
                if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name in base:
                    continue
                if p.default is p.empty:
                    base[p.name] = valid.value(p.name, fname)
        except Exception as exc:  # noqa: BLE001 - a function whose arguments cannot be built is skipped
            skipped.append(f"{fname}: {type(exc).__name__} {exc}"[:120])
            continue
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            for label, value in _bad_values(p):
                out.append((fname, p.name, label, value, base))
    return out, skipped


def _classify(fname: str, f: Any, pname: str, value: Any, base: dict[str, Any]) -> tuple[str, str]:
    args = dict(base)
    args[pname] = value
    try:
        f(**args)
    except (ArgumentError, InstanceError, SizeLimitError) as exc:
        msg = str(exc)
        return ("named" if pname in msg or (pname in INSTANCE_NAMES and "instance" in msg.lower()) else "unnamed",
                f"{type(exc).__name__}: {msg[:160]}")
    except Exception as exc:  # noqa: BLE001 - classified
        return "crash", f"{type(exc).__name__}: {str(exc)[:160]}"
    return "accepted", ""


def _worker(kind_name: str, start: int, conn: Any) -> None:
    from hetopt.registry import get_kind

    kind = get_kind(kind_name)
    todo, _ = cases(kind)
    funcs = _functions(kind)
    for i in range(start, len(todo)):
        fname, pname, label, value, base = todo[i]
        conn.send((i, *_classify(fname, funcs[fname], pname, value, base)))
    conn.send(None)


def run_kind(kind_name: str, timeout: float = 10.0) -> tuple[list[dict[str, Any]], list[str]]:
    from hetopt.registry import get_kind

    todo, skipped = cases(get_kind(kind_name))
    rows: list[dict[str, Any]] = []
    ctx = mp.get_context("fork")
    i = 0
    while i < len(todo):
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(kind_name, i, child), daemon=False)
        proc.start()
        while i < len(todo):
            if not parent.poll(timeout if i else timeout + 60):
                fname, pname, label, _, _ = todo[i]
                rows.append(dict(kind=kind_name, function=fname, parameter=pname, value=label, outcome="hang",
                                 detail=f"> {timeout:g} s"))
                i += 1
                proc.kill()
                proc.join()
                break
            msg = parent.recv()
            if msg is None:
                break
            j, outcome, detail = msg
            fname, pname, label, _, _ = todo[j]
            rows.append(dict(kind=kind_name, function=fname, parameter=pname, value=label, outcome=outcome,
                             detail=detail))
            i = j + 1
        proc.join(1)
        if proc.is_alive():
            proc.kill()
    return rows, skipped


def table(rows: list[dict[str, Any]]) -> str:
    c = Counter(r["outcome"] for r in rows)
    n = len(rows) or 1
    return (f"{len(rows)} cases: " + ", ".join(f"{k} {c[k]} ({100 * c[k] / n:.1f} %)" for k in OUTCOMES))


def main(argv: list[str] | None = None) -> int:
    from hetopt.registry import kinds

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kinds", default=",".join(kinds()))
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    rows, skipped = [], []
    for k in a.kinds.split(","):
        r, s = run_kind(k, a.timeout)
        rows += r
        skipped += [f"{k}.{x}" for x in s]
        print(f"{k}: {table(r)}", flush=True)
    print("all:", table(rows))
    for r in rows:
        if r["outcome"] != "named":
            print(f"  {r['outcome']:8} {r['kind']}.{r['function']}({r['parameter']}={r['value']}) {r['detail']}")
    for s in skipped:
        print("  skipped", s)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"rows": rows, "skipped": skipped}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
