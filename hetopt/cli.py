"""The ``hetopt`` command: a thin layer over the front door, the ledger and the benchmarks.

    hetopt reproduce [PAPER] [--fast]              run the claims ledger: each claim, ours, the verdict
    hetopt claims [PAPER] [--run] [--json]         the ledger: verdicts, diagnoses, commands that rerun them
    hetopt sweep [NAME] [--quick]                  a diagnostic experiment of the ledger, as a table
    hetopt instances [KIND]                        the bundled instances
    hetopt schema KIND                             the JSON Schema of an instance file
    hetopt solve INSTANCE [--method NAME]          solve (default: the kind's default method; --max-size N
                                                   raises the size guard of a method that has one)
    hetopt solve --list-methods KIND               every method of a kind, with its category
    hetopt compare INSTANCE [--methods a,b]        every method of the kind on one instance
    hetopt validate KIND --n N --seed S            a certification sweep, as a table
    hetopt bench KIND|reproduce|cli [--quick]      timings and ratios measured in one run (cli: start-up times)
    hetopt export INSTANCE --format lp|mps [-o F]  the exact model (an existing F: only with --force)
    hetopt arena [WORKLOAD] --policies a,b --loads 1,2 --seeds 0,1 [--workers N | --dask ADDRESS]
                                                   every scheduler on one workload, against the bounds

Every kind comes from the registry (:mod:`hetopt.registry`); this module has no per-paper code.
Errors (a bad argument, a missing file, an invalid field) print one line on stderr and exit
with status 2; ``hetopt -v`` logs progress and shows tracebacks.  Instance files go through the
strict reader of :func:`hetopt.load_instance` (:func:`hetopt.data.parse_json`); a file larger
than 100 MB is refused unless the environment variable ``HETOPT_MAX_INSTANCE_BYTES`` raises the
limit.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import re
import sys
from pathlib import Path
from typing import Any, NoReturn

from .bench import target_name
from .data import MAX_BYTES_ENV, MAX_INSTANCE_BYTES
from .errors import ArgumentError, HetoptError, SizeLimitError
from .registry import get_kind
from .registry import names as registry_names
from .report import Table
from .result import _jsonable

__all__ = ["main", "build_parser", "DEFAULT_TIME_LIMIT"]

#: Seconds given to every method that takes a time limit when the command line names none.
DEFAULT_TIME_LIMIT = 60.0
#: Most instances a certification sweep (``hetopt validate --n``) runs.
MAX_COUNT = 100_000


class _Parser(argparse.ArgumentParser):
    """argparse, with every usage error as one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _kind_name(value: str) -> str:
    names = registry_names()
    if value not in names:
        raise argparse.ArgumentTypeError(f"{value!r} is not a kind; expected one of {', '.join(names)}")
    return value


def _time_limit(value: str) -> float:
    try:
        v = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of seconds") from None
    if not (v > 0) or math.isinf(v):
        raise argparse.ArgumentTypeError(f"{value} is not a positive, finite number of seconds")
    return v


def _positive_int(value: str) -> int:
    try:
        v = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not an integer") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"{value} is not an integer >= 1")
    return v


def _count(value: str) -> int:
    """A number of instances: an integer in [1, MAX_COUNT]."""
    v = _positive_int(value)
    if v > MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{value} is more than {MAX_COUNT} instances")
    return v


def _seed(value: str) -> int:
    try:
        v = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not an integer seed") from None
    if not 0 <= v <= 2**63 - 1:
        raise argparse.ArgumentTypeError(f"{value} is not a seed in [0, 2**63 - 1]")
    return v


def _print_table(table: Table, args: argparse.Namespace) -> None:
    if getattr(args, "json", False):
        print(table.to_json())
    elif getattr(args, "csv", False):
        print(table.to_csv(), end="")
    else:
        print(table)
        print()


def _progress_bar(total: int, enabled: bool) -> Any:
    from .claims.progress import ClaimProgress

    return ClaimProgress(total, enabled=enabled)


def _cmd_reproduce(args: argparse.Namespace) -> int:
    from . import claims as ledger

    selected = ledger.select(args.paper, include_slow=not args.fast)
    skipped = ledger.skipped(args.paper, include_slow=not args.fast)
    if skipped:
        print(f"--fast: skipping {len(skipped)} slow claims: {', '.join(c.id for c in skipped)}", file=sys.stderr)
    results = ledger.run_claims(selected, workers=args.workers, dask=args.dask,
                                progress=_progress_bar(len(selected), not args.json))
    if args.json:
        print(json.dumps([r.to_dict() for r in results], indent=1, default=str))
    else:
        for paper in dict.fromkeys(r.claim.paper for r in results):
            rows = [r for r in results if r.claim.paper == paper]
            print(ledger.results_table(rows, title=f"{paper}: paper's number vs ours"))
            for r in rows:
                if r.outcome.detail:
                    print(f"  {r.claim.id}: {r.outcome.detail}")
            print()
        print(ledger.summary_table(results))
        n_ok = sum(r.outcome.verdict is ledger.Verdict.REPRODUCED for r in results)
        skip = f"; {len(skipped)} slow claims skipped (--fast)" if skipped else ""
        print(f"{n_ok} of {len(results)} claims reproduced{skip}; every other claim carries a verdict and a "
              "diagnosis (`hetopt claims --json`), and its experiment reruns with the command shown there.")
    checks = [c for c in ledger.conformance(args.paper) if not args.fast or c.cost == "fast"]
    conf = ledger.run_conformance(checks, workers=args.workers)
    failed_conf = [r.check.id for r in conf if not r.ok]
    if not args.json:
        print(f"{len(conf) - len(failed_conf)} of {len(conf)} conformance checks hold (counted apart from the "
              "claims: `hetopt claims --conformance --run`)" + (f"; failing: {', '.join(failed_conf)}"
                                                                 if failed_conf else ""))
    changed = [r.claim.id for r in results if r.verdict_changed]
    # a computed fails-unexplained is a failure of --strict unless the ledger records it as such
    unexplained = [r.claim.id for r in results if r.outcome.verdict is ledger.Verdict.UNEXPLAINED
                   and r.claim.verdict is not ledger.Verdict.UNEXPLAINED]
    if changed:
        print(f"hetopt: computed verdict differs from the recorded one for: {', '.join(changed)}", file=sys.stderr)
    return 1 if (args.strict and (changed or unexplained or failed_conf)) else 0


def _cmd_claims(args: argparse.Namespace) -> int:
    from . import claims as ledger

    if args.flip and (args.conformance or not args.id):
        raise ArgumentError("--flip runs the flip of the claims named by --id ID (conformance checks have none)")
    if args.conformance:
        return _conformance(args)
    if args.run or args.id:
        selected = [ledger.get_claim(i) for i in args.id] if args.id else ledger.select(
            args.paper, include_slow=not args.fast)
        results = ledger.run_claims(selected, flip=args.flip, progress=_progress_bar(len(selected), not args.json))
        if args.json:
            print(json.dumps([r.to_dict() for r in results], indent=1, default=str))
            return 0
        _print_table(ledger.results_table(results), args)
        if not args.csv:
            for r in results:
                print(f"{r.claim.id}  [{r.outcome.verdict.value}]  {r.claim.statement}")
                print(f"  paper: {r.claim.paper_value}   ours: {r.outcome.ours}   {r.outcome.detail}")
                print(f"  diagnosis: {r.claim.diagnosis}")
        return 0
    items = ledger.claims(args.paper)
    if args.json:
        print(json.dumps([c.to_dict() for c in items], indent=1))
        return 0
    _print_table(ledger.ledger_table(items), args)
    if not args.csv:
        print(ledger.summary_table(items))
    return 0


def _conformance(args: argparse.Namespace) -> int:
    """``hetopt claims --conformance [--run]``: the conformance checks, listed or run, counted apart."""
    from . import claims as ledger

    checks = ledger.conformance(args.paper)
    unknown = [i for i in args.id or [] if i not in {c.id for c in checks}]
    if unknown:
        raise ArgumentError(f"--id {unknown[0]!r} is not a conformance check; expected one of "
                            f"{', '.join(c.id for c in checks)}")
    checks = [c for c in checks if not args.id or c.id in args.id]
    if not (args.run or args.id):
        if args.json:
            print(json.dumps([c.to_dict() for c in checks], indent=1))
            return 0
        t = Table("conformance checks (hetopt against fixed references; not claims of a paper)",
                  ["id", "statement", "reference"])
        for c in checks:
            t.add(c.id, c.statement, c.reference)
        _print_table(t, args)
        return 0
    results = [c.run() for c in checks]
    if args.json:
        print(json.dumps([r.to_dict() for r in results], indent=1, default=str))
    else:
        t = Table("conformance checks, run", ["id", "ok", "ours", "detail"])
        for r in results:
            t.add(r.check.id, r.ok, r.outcome.ours, r.outcome.detail)
        _print_table(t, args)
        print(f"{sum(r.ok for r in results)} of {len(results)} conformance checks hold")
    return 0 if all(r.ok for r in results) else 1


def _cmd_sweep(args: argparse.Namespace) -> int:
    from . import claims as ledger

    if args.name is not None and not args.name.strip():
        raise ArgumentError("sweep NAME is empty; expected a sweep's name (hetopt sweep lists them)")
    if args.name is None:
        for name, sw in sorted(ledger.sweeps().items()):
            print(f"{name:32s} {sw.description}")
        return 0
    _print_table(ledger.get_sweep(args.name).run(quick=args.quick), args)
    return 0


def _cmd_instances(args: argparse.Namespace) -> int:
    from .data import catalogue

    _print_table(catalogue(args.kind), args)
    return 0


def _options(method: Any, args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """The ``time_limit`` and ``max_size`` options for ``method`` and a note saying where the limit came from."""
    opts: dict[str, Any] = {}
    if args.max_size is not None:
        if not method.accepts("max_size"):
            raise ArgumentError(f"method {method.name!r} has no size guard (no max_size option); drop --max-size")
        opts["max_size"] = args.max_size
    if not method.accepts("time_limit"):
        if args.time_limit is not None:
            raise ArgumentError(f"method {method.name!r} takes no time limit; drop --time-limit")
        return opts, ""
    if args.time_limit is None:
        return opts | {"time_limit": DEFAULT_TIME_LIMIT}, "default; --time-limit to change"
    return opts | {"time_limit": args.time_limit}, ""


def _size_hint(message: str) -> str:
    """A size guard's refusal with the command-line way out, ``--max-size N``.

    N is the refusal's last ``max_size=N``: the refusals name the limit first and the size that would pass last.
    """
    found = re.findall(r"max_size\s*=\s*(\d+)", message)
    return message + (f" (on the command line: --max-size {found[-1]})" if found else
                      " (on the command line: --max-size N raises the guard)")


def _run(method: Any, inst: Any, opts: dict[str, Any]) -> Any:
    """``method(inst, **opts)``; a size guard's refusal names ``--max-size`` when the method takes ``max_size``."""
    try:
        return method(inst, **opts)
    except SizeLimitError as exc:
        if not method.accepts("max_size"):
            raise
        raise SizeLimitError(_size_hint(str(exc))) from None


def _cmd_schema(args: argparse.Namespace) -> int:
    from .schema import json_schema

    print(json.dumps(json_schema(args.kind), indent=1))
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    from . import api

    if args.list_methods:
        kind = get_kind(args.list_methods)
        table = Table(f"methods of kind {kind.name}", ["method", "category", "default", "objective", "description"])
        for m in kind.methods:
            table.add(m.name, m.category, m.default, m.objective, m.description)
        _print_table(table, args)
        return 0
    if not args.instance:
        raise ArgumentError("solve needs INSTANCE (a JSON file or a bundled name) or --list-methods KIND")
    inst = api.load_instance(args.instance)
    kind = api.kind_of(inst)
    method = kind.default_method if args.method is None else kind.method(args.method)
    opts, limit_note = _options(method, args)
    sol = _run(method, inst, opts)
    summary: dict[str, Any] = {"kind": kind.name, "method": method.name, "objective_is": method.objective}
    summary.update({k: opts[k] for k in ("time_limit", "max_size") if k in opts})  # numbers (seconds, a size)
    summary.update({k: v for k, v in sol.summary().items() if k not in summary})
    summary = _jsonable(summary)
    if args.json:
        print(json.dumps(summary, indent=1))
    elif args.csv:
        flat = {k: v for k, v in summary.items() if not isinstance(v, (list, dict))}
        t = Table(f"{kind.name}: {method.name}", list(flat), [tuple(flat.values())])
        print(t.to_csv(), end="")
    else:
        for k, v in summary.items():
            if k == "time_limit":
                v = f"{v:g} s" + (f" ({limit_note})" if limit_note else "")
            print(f"{k}: {v}")
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from . import api
    from .compare import compare

    methods = args.methods.split(",") if args.methods is not None else None
    if methods is not None and (bad := [m for m in methods if not m.strip() or methods.count(m) > 1]):
        raise ArgumentError(f"--methods {args.methods!r}: {bad[0]!r} is empty or repeated; expected names, each once")
    limit = DEFAULT_TIME_LIMIT if args.time_limit is None else args.time_limit
    inst = api.load_instance(args.instance)
    kind = api.kind_of(inst)
    if args.max_size is not None and not any(kind.method(n).accepts("max_size")
                                             for n in (methods or [m.name for m in kind.methods])):
        raise ArgumentError(f"none of the compared {kind.name} methods has a size guard (a max_size option); "
                            "drop --max-size")
    table = compare(inst, methods, time_limit=limit, max_size=args.max_size)
    # a size guard's refusal names the command line's way out, for the methods that take max_size
    msg = table.columns.index("message")
    for i, row in enumerate(table.rows):
        if row[table.columns.index("status")] == "refused" and str(row[msg]).startswith("SizeLimitError") \
                and kind.method(row[0]).accepts("max_size"):
            table.rows[i] = (*row[:msg], _size_hint(str(row[msg])), *row[msg + 1:])
    table.notes.append(f"time limit per method: {limit:g} s" + (" (default; --time-limit to change)"
                                                                 if args.time_limit is None else ""))
    _print_table(table, args)
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    import inspect

    from .files import output_dir

    kind = get_kind(args.kind)
    if kind.validate is None:
        raise ArgumentError(f"kind {kind.name} has no certification sweep")
    kwargs: dict[str, Any] = {}
    if args.out is not None:
        if "save_dir" not in inspect.signature(kind.validate).parameters:
            raise ArgumentError(f"validate {kind.name} writes no files; --out applies to kinds whose sweep saves "
                                "violating instances (hare)")
        kwargs["save_dir"] = str(output_dir(args.out, option="--out"))  # made now: refused before the sweep
    table = kind.validate(n=args.n, seed=args.seed, **kwargs)
    _print_table(table, args)
    if table.violations:
        print(f"validate {kind.name}: {table.violations} violation(s) found", file=sys.stderr)
        return 1
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from . import bench

    tables = bench.run(args.kind, quick=args.quick, parity=args.parity or None, workers=args.workers)
    if args.json:
        print(json.dumps([t.to_dict() for t in tables], indent=1, default=str))
        return 0
    for table in tables:
        _print_table(table, args)
    return 0


def _cmd_arena(args: argparse.Namespace) -> int:
    from .arena import Options, run
    from .files import write_atomic

    def items(text: str | None, kind: type, what: str) -> list[Any] | None:
        if text is None:
            return None
        try:
            return [kind(v) for v in text.split(",") if v.strip()]
        except ValueError:
            raise ArgumentError(f"--{what} is {text!r}; expected comma-separated {kind.__name__} values") from None

    opts = Options(round_length=args.round_length, restart_delay=args.restart_delay, contention=args.contention,
                   gang_rule=args.gang_rule)
    table = run(args.workload, items(args.policies, str, "policies"), loads=items(args.loads, float, "loads"),
                seeds=items(args.seeds, int, "seeds") or [0], options=opts, workers=args.workers, dask=args.dask,
                progress=not (args.json or args.csv), counts=args.counts, bounds=not args.no_bounds)
    if args.output:
        out = Path(args.output)
        text = table.to_csv() if out.suffix == ".csv" else json.dumps(table.to_dict(), default=str)
        write_atomic(out, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"), force=True, option="-o")
    _print_table(table, args)
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from . import api
    from .files import check_output, write_atomic

    inst = api.load_instance(args.instance)
    kind = api.kind_of(inst)
    if kind.export_model is None:
        raise ArgumentError(f"kind {kind.name} has no Pyomo model to export")
    out = check_output(str(Path(args.instance).with_suffix("." + args.format)) if args.output is None else args.output,
                       option="-o", force=args.force, inputs=[args.instance])
    model = kind.export_model(inst)
    from pyomo.opt import ProblemFormat

    fmt = {"lp": ProblemFormat.cpxlp, "mps": ProblemFormat.mps}[args.format]
    write_atomic(out, lambda tmp: model.write(tmp, format=fmt, io_options={"symbolic_solver_labels": True}),
                 force=args.force, suffix="." + args.format, option="-o")
    print(f"wrote {out}")
    return 0


def _formats(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print JSON")
    g.add_argument("--csv", action="store_true", help="print CSV")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``hetopt`` command (every kind from the registry)."""
    ap = _Parser(prog="hetopt", description="Optimization models of heterogeneous GPU-cluster scheduling.",
                 epilog=f"Instance files larger than {MAX_INSTANCE_BYTES:,} bytes are refused; set the environment "
                        f"variable {MAX_BYTES_ENV}=N to read larger ones.")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="log progress (solver log lines, bounds as they improve) and show tracebacks")
    sub = ap.add_subparsers(dest="command", required=True, parser_class=_Parser)
    kind_help = f"one of {', '.join(registry_names())}"
    p = sub.add_parser("reproduce", help="run the claims ledger: every paper claim, ours, the computed verdict")
    p.add_argument("paper", nargs="?", type=_kind_name, help=f"only this paper ({kind_help})")
    p.add_argument("--fast", action="store_true", help="skip the claims whose check is slow (names them)")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--strict", action="store_true",
                   help="exit with status 1 if a computed verdict differs from the recorded one or is unexplained")
    p.add_argument("--workers", type=_positive_int, default=1, metavar="N", help="run the claims in N processes (default 1)")
    p.add_argument("--dask", metavar="ADDRESS", help="run the claims on a dask.distributed scheduler at ADDRESS")
    p.set_defaults(func=_cmd_reproduce)
    p = sub.add_parser("claims", help="the claims ledger (recorded verdicts; --run recomputes them)")
    p.add_argument("paper", nargs="?", type=_kind_name, help=f"only this paper ({kind_help})")
    p.add_argument("--run", action="store_true", help="run the checks and show our numbers and computed verdicts")
    p.add_argument("--id", action="append", help="only this claim (conformance check) id (repeatable); implies --run")
    p.add_argument("--flip", action="store_true", help="with --id: run the claim's flip (the experiment that "
                                                       "moves its verdict) instead of its check")
    p.add_argument("--fast", action="store_true", help="with --run: skip slow checks")
    p.add_argument("--conformance", action="store_true", help="the conformance checks, counted apart (--run; --id)")
    _formats(p)
    p.set_defaults(func=_cmd_claims)
    p = sub.add_parser("sweep", help="run a diagnostic sweep of the claims ledger (no NAME: list them)")
    p.add_argument("name", nargs="?")
    p.add_argument("--quick", action="store_true", help="a smaller grid")
    _formats(p)
    p.set_defaults(func=_cmd_sweep)
    p = sub.add_parser("instances", help="list the bundled instances (kind, size, description)")
    p.add_argument("kind", nargs="?", type=_kind_name, help=f"only this kind ({kind_help})")
    _formats(p)
    p.set_defaults(func=_cmd_instances)
    p = sub.add_parser("schema", help="print the JSON Schema of an instance file of KIND (for editors)")
    p.add_argument("kind", type=_kind_name, help=kind_help)
    p.set_defaults(func=_cmd_schema)
    p = sub.add_parser("solve", help="solve an instance with a method (--list-methods KIND lists them)")
    p.add_argument("instance", nargs="?", help="a JSON file or the name of a bundled instance (hetopt instances)")
    p.add_argument("--method", help="a method of the instance's kind (default: the kind's default method, exact)")
    p.add_argument("--time-limit", type=_time_limit, metavar="SECONDS",
                   help=f"for methods that take one (default {DEFAULT_TIME_LIMIT:g} s)")
    p.add_argument("--max-size", type=_positive_int, metavar="N",
                   help="raise the size guard of a method that has one (its max_size option); refused otherwise")
    p.add_argument("--list-methods", metavar="KIND", type=_kind_name, help="list the methods of a kind and exit")
    _formats(p)
    p.set_defaults(func=_cmd_solve)
    p = sub.add_parser("compare", help="run every method (or --methods a,b) of an instance's kind and tabulate them")
    p.add_argument("instance", help="a JSON file or the name of a bundled instance")
    p.add_argument("--methods", help="comma-separated method names (default: all of the kind)")
    p.add_argument("--time-limit", type=_time_limit, metavar="SECONDS",
                   help=f"per method, for the methods that take one (default {DEFAULT_TIME_LIMIT:g} s)")
    p.add_argument("--max-size", type=_positive_int, metavar="N",
                   help="the size guard of every compared method that has one (max_size); refused when none has")
    _formats(p)
    p.set_defaults(func=_cmd_compare)
    p = sub.add_parser("validate", help="certification sweep over seeded instances")
    p.add_argument("kind", type=_kind_name, help=kind_help)
    p.add_argument("--n", type=_count, default=20, help=f"number of instances (default 20, at most {MAX_COUNT})")
    p.add_argument("--seed", type=_seed, default=0, help="first seed (default 0)")
    p.add_argument("--out", metavar="DIR", help="write instances that violate the bound to DIR (hare)")
    _formats(p)
    p.set_defaults(func=_cmd_validate)
    p = sub.add_parser("bench", help="timings and ratios of methods measured in one run (or of the claims ledger)")
    p.add_argument("kind", type=target_name, help=f"{kind_help}, or reproduce (the claims ledger, serial vs --workers)")
    p.add_argument("--quick", action="store_true", help="small sizes only (reproduce: the fast claims)")
    p.add_argument("--workers", type=_positive_int, metavar="N", help="reproduce: processes of the parallel run (default 2)")
    p.add_argument("--parity", action="store_true", help="gavel: hetopt's simulator beside Gavel's own on its traces")
    _formats(p)
    p.set_defaults(func=_cmd_bench)
    p = sub.add_parser("arena", help="every scheduler on one workload in one execution model, with bound ratios")
    p.add_argument("workload", nargs="?", default="msr/seed=0/ed69ec",
                   help="a Gavel trace name (default msr/seed=0/ed69ec), a .trace file or a workload .json")
    p.add_argument("--policies", help="comma-separated policy names (default: every registered policy)")
    p.add_argument("--loads", help="comma-separated loads in jobs/hour (default: the workload's own arrivals)")
    p.add_argument("--seeds", help="comma-separated seeds (default 0)")
    p.add_argument("--counts", default="36:36:36", help="GPUs v100:p100:k80 of a trace (default 36:36:36, Gavel's "
                                                        "simulated cluster)")
    p.add_argument("--round-length", type=_time_limit, default=360.0, metavar="SECONDS", help="default 360")
    p.add_argument("--restart-delay", type=float, default=0.0, metavar="SECONDS",
                   help="seconds lost by a job whose GPUs change (default 0, Gavel)")
    p.add_argument("--contention", action="store_true", help="Wang et al.'s contention penalty on shared links")
    p.add_argument("--gang-rule", choices=["single", "bottleneck"], default="single")
    p.add_argument("--no-bounds", action="store_true",
                   help="leave out the certified lower bounds (their LPs) and the ratio columns")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--workers", type=_positive_int, default=1, metavar="N", help="run in N processes (default 1)")
    g.add_argument("--dask", metavar="ADDRESS", help="run on a dask.distributed scheduler at ADDRESS")
    p.add_argument("-o", "--output", metavar="FILE", help="also write the table (.csv, else JSON with per-job JCTs)")
    _formats(p)
    p.set_defaults(func=_cmd_arena)
    p = sub.add_parser("export", help="write the exact model of an instance as LP or MPS")
    p.add_argument("instance")
    p.add_argument("--format", choices=["lp", "mps"], default="lp")
    p.add_argument("-o", "--output", help="the file to write (default: INSTANCE with the format's suffix)")
    p.add_argument("--force", action="store_true", help="replace an existing file (never the input, never a link)")
    p.set_defaults(func=_cmd_export)
    return ap


def main(argv: list[str] | None = None) -> int:
    """Run the ``hetopt`` command with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    try:
        return int(args.func(args))
    except HetoptError as exc:
        if args.verbose:
            raise
        print(f"hetopt: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and closed: not an error of ours
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
