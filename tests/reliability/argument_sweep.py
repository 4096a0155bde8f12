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

import numpy as np

from hetopt.errors import ArgumentError, InstanceError, SizeLimitError
from tests.reliability.sweep_values import NEEDED

OUTCOMES = ("named", "unnamed", "accepted", "crash", "hang")
INSTANCE_NAMES = {"inst", "instance", "workload"}
#: Functions whose instance is another kind's (the arena's converters).
OTHER_KIND = {"from_gavel": "gavel"}
#: parameters where None is a documented value whatever the default (a seed, an executor, a time limit)
NONE_OK = {"seed", "executor", "time_limit", "epochs_range", "chunks_range", "heterogeneity"}
#: free text: any string is valid
FREE_TEXT = {"name", "description", "stem", "title", "label", "source"}
SKIP = {"KIND", "SCHEMA_VERSION"}
#: (kind, function, parameter, label) of values the generic rules call bad that the function rightly accepts
LEGAL = {
    # one server holds every GPU of its type (the cluster then has one server per type)
    ("arena", "generate_instance", "gpus_per_server", "2**70"), ("arena", "from_gavel", "gpus_per_server", "2**70"),
    ("hadar", "ratio_sweep", "executor", "int"),  # a positive int is a number of worker processes
    ("hare", "lp_ordering", "cuts_per_round", "2**70"),  # at most that many cuts a round: every violated one
    # slots per median compute time, a real number; the step grows to respect max_slots and max_columns
    ("hare", "time_indexed_bound", "resolution", "float"), ("hare", "time_indexed_bound", "resolution", "2**70"),
    ("hare", "job_colgen_bound", "resolution", "float"), ("hare", "job_colgen_bound", "resolution", "2**70"),
    # at most that many steps: the search also stops once its step falls below 1e-6
    ("oasis", "lp_bound", "subgradient_iterations", "2**70"),
    ("placement", "exhaustive", "chunk", "2**70"),  # one chunk holds every candidate (max_size bounds them)
    ("placement", "jps", "n_samples", "2**70"),  # "all of them if fewer remain" (its docstring)
    # closed forms, exact in floating point for any count of nodes or sharing tasks
    ("contention", "allreduce_cost", "n_nodes", "2**70"), ("contention", "allreduce_time", "k", "2**70"),
    ("contention", "transfer_rate", "k", "2**70"),
    ("contention", "fluid_completion_times", "servers", "ragged"),  # tasks span different numbers of servers
    ("contention", "make_placement", "kappa", "2**70"),  # LWF-kappa above every gang size: LS
    ("contention", "srsf_rule", "n", "2**70"),  # SRSF(n) above every load: every all-reduce starts
    # task keys are any hashables: [[1.0], [1.0, 2.0]] is task 1.0 on one server, 1.0 and 2.0 on the other
    ("contention", "adadual", "server_tasks", "ragged"), ("contention", "srsf_rule", "server_tasks", "ragged"),
    ("contention", "empirical_cdf", "values", "empty"),  # the CDF of no values has no points
    ("oasis", "ps_needed", "workers", "2**70"),  # ceil(w b / B), exact in integers
    ("oasis", "build_primal", "schedules", "empty"), ("oasis", "build_dual", "schedules", "empty"),  # no columns
    ("oasis", "price", "log_L", "negative"), ("oasis", "price", "log_U", "negative"),  # ln of a price below 1
    # one server holds every GPU of its type, as in the arena's generator
    ("arena", "cluster", "gpus_per_server", "2**70"), ("arena", "gavel_trace", "gpus_per_server", "2**70"),
    ("arena", "from_philly", "gpus_per_server", "2**70"),
    ("hadar", "dp_allocation", "queue", "empty"),  # no job waits: the round allocates nothing
    # no beam and no state budget: the exact DP (its own size guard still applies)
    ("hadar", "dp_allocation", "beam_width", "2**70"), ("hadar", "dp_allocation", "state_budget", "2**70"),
    ("hare", "improve_schedule", "stall", "2**70"),  # no restart before the time limit or max_moves
    ("hare", "ratio_table", "certificates", "empty"),  # a table without rows
    ("hare", "generate_workload", "iterations_per_task", "2**70"),  # any magnitude: times of ~1e21 s
    # |Psi| = C(K-1, S-1) and its unranking are exact in Python integers
    ("placement", "n_categories", "n_workers", "2**70"), ("placement", "category_at", "n_workers", "2**70"),
    # the sum of the n largest of no values, or of fewer than n: all of them
    ("placement", "sum_top", "values", "empty"), ("placement", "sum_top", "n", "2**70"),
    ("arena", "makespan_lower_bound", "intervals", "2**70"),  # at most that many: the distinct arrivals
    ("gavel", "isolated_allocation", "scale_factor", "empty"),  # no job: an empty allocation
    ("gavel", "build_fifo_step", "floors", "empty"),  # job 0 has no earlier job to keep a floor for
    ("contention", "lwf_kappa", "kappa", "2**70"),  # as make_placement's kappa
    ("placement", "iter_categories", "n_workers", "2**70"),  # a stream: |Psi| is not built
    # at most count units (fewer when the servers are full); the round starts at start modulo the servers
    ("oasis", "place_round_robin", "count", "2**70"), ("oasis", "place_round_robin", "start", "2**70"),
    # make_solution's free text (method, solver, message, ordering) and its bound: any number, inf none proven
    *{(k, "make_solution", p, v) for k in ("hare", "oasis", "placement") for p in ("method", "solver", "message", "ordering")
      for v in ("empty", "unknown")},
    *{(k, "make_solution", "bound", v) for k in ("hare", "oasis", "placement") for v in ("negative", "inf")},
}
#: functions not swept: they change the process's state (the policy registry)
STATEFUL = {("arena", "register_policy"), ("arena", "unregister_policy")}
#: (kind, function, parameter) named like an instance that is not one (contention's placement rules' GPU workloads)
NOT_INSTANCE = {("contention", f, "workload") for f in ("lwf_kappa", "first_fit", "list_scheduling", "random_placement")}


def _bad_values(param: inspect.Parameter, valid: Any = inspect.Parameter.empty) -> list[tuple[str, Any]]:
    """(label, value) pairs that the parameter's default, annotation or valid value rule out."""
    d, ann = param.default, str(param.annotation)
    if d is inspect.Parameter.empty and valid is not inspect.Parameter.empty and (
            param.name not in INSTANCE_NAMES or isinstance(valid, np.ndarray)):
        d = valid  # a required argument: its valid value stands for the default
        if isinstance(d, np.ndarray):
            d = d.tolist() if d.ndim else d.item()
    if param.name in INSTANCE_NAMES and not isinstance(valid, np.ndarray):
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
        free = param.name in FREE_TEXT and param.default is not inspect.Parameter.empty  # a required name is a key
        return out + [("int", 3)] + ([] if free else [("empty", ""), ("unknown", "no-such-name")])
    if isinstance(d, tuple | list) or "Sequence" in ann or "ndarray" in ann:
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
        from tests.reliability.sweep_values import build

        try:  # a value for this function only comes first (placement's reset_report needs a larger instance)
            return build(self, function, name, specific=True)
        except LookupError:
            pass
        if (self.kind.name, function, name) in NOT_INSTANCE or name in ("policy", "schedule"):
            try:  # the kind's own value first (the arena's Policy object, Hadar's one-job schedule)
                return build(self, function, name, kind_only=True)
            except LookupError:
                pass
        if name in INSTANCE_NAMES and function in OTHER_KIND:
            from hetopt.registry import get_kind

            return get_kind(OTHER_KIND[function]).example(seed=0, size=1)
        if name in INSTANCE_NAMES:
            return self.inst()
        if name in ("sol", "solution", "schedule", "result"):
            return self.sol()
        if name == "policy":
            return next(iter(self.kind.policies)) if self.kind.policies else None
        return build(self, function, name)


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
        if (kind.name, fname) in STATEFUL:
            skipped.append(f"{fname}: changes the policy registry (tests/arena cover its arguments)")
            continue
        base: dict[str, Any] = {"seed": 0, "size": 1} if fname == "example" else {}
        try:
            for name in NEEDED.get((kind.name, fname), ()):
                base[name] = valid.value(name, fname)
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
            for label, value in _bad_values(p, base.get(p.name, p.empty)):
                if (kind.name, fname, p.name, label) not in LEGAL:
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
    base_fails: dict[str, str] = {}
    for i in range(start, len(todo)):
        fname, pname, label, value, base = todo[i]
        if fname not in base_fails:  # the valid call first: a function that fails there is not swept
            conn.send((i, "base", ""))
            try:
                funcs[fname](**base)
                base_fails[fname] = ""
            except Exception as exc:  # noqa: BLE001 - reported as the reason it is skipped
                base_fails[fname] = f"the valid call fails: {type(exc).__name__} {exc}"[:160]
        if base_fails[fname]:
            conn.send((i, "skip", base_fails[fname]))
            continue
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
        wait, in_base = timeout + 60, False  # the imports, then each function's valid call, get a minute more
        while i < len(todo):
            if not parent.poll(wait):
                fname, pname, label, _, _ = todo[i]
                if in_base:  # the valid call itself: the function is not swept
                    skipped.append(f"{fname}: the valid call takes more than {timeout + 60:g} s")
                    while i < len(todo) and todo[i][0] == fname:
                        i += 1
                else:
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
            wait, in_base = (timeout + 60, True) if outcome == "base" else (timeout, False)
            if outcome == "base":
                continue
            fname, pname, label, _, _ = todo[j]
            i = j + 1
            if outcome == "skip":
                if f"{fname}: {detail}" not in skipped:
                    skipped.append(f"{fname}: {detail}")
                continue
            rows.append(dict(kind=kind_name, function=fname, parameter=pname, value=label, outcome=outcome,
                             detail=detail))
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
