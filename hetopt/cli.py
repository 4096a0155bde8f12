"""The ``hetopt`` command.

    hetopt reproduce [PAPER]                      run the claims ledger: each paper claim, ours, the verdict
    hetopt claims [PAPER] [--run] [--json]        the ledger: verdicts, diagnoses, commands that rerun them
    hetopt sweep [NAME] [--quick]                 a diagnostic experiment of the ledger, as a table
    hetopt solve INSTANCE.json --method NAME [--json]
    hetopt compare INSTANCE.json [--methods a,b] [--json|--csv]
    hetopt solve --list-methods KIND              every method of a kind, with its category
    hetopt validate PAPER --n N --seed S          a certification sweep, as a table
    hetopt bench PAPER                            timings and ratios measured in one run
    hetopt export INSTANCE.json --format lp|mps   the exact model, for other solvers

Each paper subpackage provides a ``commands`` module with the same functions
(``validate``, ``bench``, ``export_model``, ``INSTANCE``, ``solution_summary``, ``KIND``,
``METHODS``); instances are loaded and solved through :mod:`hetopt.api`, and this module only
dispatches, with no per-paper special cases.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
from pathlib import Path
from types import ModuleType

from .api import KINDS as PAPERS  # one table of kinds for the API and the CLI
from .errors import HetoptError
from .report import Table
from .result import _jsonable

__all__ = ["main", "PAPERS"]


def _paper(name: str) -> ModuleType:
    if name not in PAPERS:
        raise HetoptError(f"paper is {name!r}; expected one of {', '.join(PAPERS)}")
    return importlib.import_module(PAPERS[name])


def _load(path: str) -> tuple[ModuleType, object]:
    from . import api

    inst = api.load_instance(path)
    return api.commands_module(api.kind_of(inst)), inst


def _print_table(table, args) -> None:
    if getattr(args, "json", False):
        print(table.to_json())
    elif getattr(args, "csv", False):
        print(table.to_csv(), end="")
    else:
        print(table)
        print()


def _claim_progress(k: int, n: int, r) -> None:
    """One line per checked claim on stderr, so a long ledger run shows where it is."""
    print(f"[{k}/{n}] {r.claim.id}: {r.outcome.verdict.value} ({r.wall_time:.1f} s)", file=sys.stderr, flush=True)


def _cmd_reproduce(args: argparse.Namespace) -> int:
    from . import claims as ledger

    results = ledger.run(args.paper, include_slow=not args.fast, progress=_claim_progress)
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
        print(f"{n_ok} of {len(results)} claims reproduced; every other claim carries a verdict and a diagnosis "
              "(`hetopt claims --json`), and its experiment reruns with the command shown there.")
    changed = [r.claim.id for r in results if r.verdict_changed]
    unexplained = [r.claim.id for r in results if r.outcome.verdict is ledger.Verdict.UNEXPLAINED]
    if changed:
        print(f"hetopt: computed verdict differs from the recorded one for: {', '.join(changed)}", file=sys.stderr)
    return 1 if (args.strict and (changed or unexplained)) else 0


def _cmd_claims(args: argparse.Namespace) -> int:
    from . import claims as ledger

    if args.run or args.id:
        results = ledger.run(args.paper, args.id, include_slow=not args.fast, progress=_claim_progress)
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


def _cmd_sweep(args: argparse.Namespace) -> int:
    from . import claims as ledger

    if not args.name:
        for name, sw in sorted(ledger.sweeps().items()):
            print(f"{name:32s} {sw.description}")
        return 0
    _print_table(ledger.get_sweep(args.name).run(quick=args.quick), args)
    return 0


def _cmd_solve(args: argparse.Namespace) -> int:
    from . import api

    if args.list_methods:
        table = Table(f"methods of kind {args.list_methods}", ["method", "category", "description"])
        for name, m in api.methods(args.list_methods).items():
            table.add(name, m.category, m.description)
        _print_table(table, args)
        return 0
    if not args.instance or not args.method:
        raise HetoptError("solve needs INSTANCE and --method NAME (or --list-methods KIND)")
    mod, inst = _load(args.instance)
    sol = api.solve(inst, args.method)
    summary = {"kind": mod.KIND, "method": args.method, "status": sol.status.value, "objective": sol.objective,
               "bound": sol.bound, "gap": sol.gap, "solver": sol.solver, "wall_time": sol.wall_time}
    summary.update({k: v for k, v in mod.solution_summary(sol).items() if k not in summary})
    if args.json:
        print(json.dumps(_jsonable(summary), indent=1))
    else:
        for k, v in summary.items():
            print(f"{k}: {v}")
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from .compare import compare

    methods = [m for m in args.methods.split(",") if m] if args.methods else None
    _print_table(compare(args.instance, methods, time_limit=args.time_limit), args)
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    if args.n < 1:
        raise HetoptError(f"--n is {args.n}; expected a number of instances >= 1")
    import inspect

    func = _paper(args.paper).validate
    kwargs = {}
    if args.out is not None:
        if "save_dir" not in inspect.signature(func).parameters:
            raise HetoptError(f"validate {args.paper} writes no files; --out applies to: hare")
        kwargs["save_dir"] = args.out
    table = func(n=args.n, seed=args.seed, **kwargs)
    _print_table(table, args)
    if table.violations:
        print(f"validate {args.paper}: {table.violations} violation(s) found", file=sys.stderr)
        return 1
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    tables = _paper(args.paper).bench(quick=args.quick)
    if args.json:
        print(json.dumps([t.to_dict() for t in tables], indent=1, default=str))
        return 0
    for table in tables:
        _print_table(table, args)
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    mod, inst = _load(args.instance)
    out = args.output or str(Path(args.instance).with_suffix("." + args.format))
    if Path(out).resolve() == Path(args.instance).resolve():
        raise HetoptError(f"the output {out} is the input instance; choose another path with -o")
    model = mod.export_model(inst)
    from pyomo.opt import ProblemFormat

    fmt = {"lp": ProblemFormat.cpxlp, "mps": ProblemFormat.mps}[args.format]
    model.write(out, format=fmt, io_options={"symbolic_solver_labels": True})
    print(f"wrote {out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="hetopt", description="Optimization models of heterogeneous GPU-cluster scheduling.")
    ap.add_argument("-v", "--verbose", action="store_true", help="log progress (INFO level)")
    sub = ap.add_subparsers(dest="command", required=True)
    papers = list(PAPERS)
    p = sub.add_parser("reproduce", help="run the claims ledger: every paper claim, ours, the computed verdict")
    p.add_argument("paper", nargs="?", choices=papers)
    p.add_argument("--fast", action="store_true", help="skip the claims whose check is slow")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--strict", action="store_true",
                   help="exit with status 1 if a computed verdict differs from the recorded one or is unexplained")
    p.set_defaults(func=_cmd_reproduce)
    p = sub.add_parser("claims", help="the claims ledger (recorded verdicts; --run recomputes them)")
    p.add_argument("paper", nargs="?", choices=papers)
    p.add_argument("--run", action="store_true", help="run the checks and show our numbers and computed verdicts")
    p.add_argument("--id", action="append", help="only this claim id (repeatable); implies --run")
    p.add_argument("--fast", action="store_true", help="with --run: skip slow checks")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true")
    g.add_argument("--csv", action="store_true")
    p.set_defaults(func=_cmd_claims)
    p = sub.add_parser("sweep", help="run a diagnostic sweep of the claims ledger (no NAME: list them)")
    p.add_argument("name", nargs="?")
    p.add_argument("--quick", action="store_true", help="a smaller grid")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true")
    g.add_argument("--csv", action="store_true")
    p.set_defaults(func=_cmd_sweep)
    p = sub.add_parser("solve", help="solve a JSON instance with a method (--list-methods KIND lists them)")
    p.add_argument("instance", nargs="?")
    p.add_argument("--method")
    p.add_argument("--list-methods", metavar="KIND", help="list the methods of an instance kind and exit")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true", help="print the result as JSON")
    g.add_argument("--csv", action="store_true", help="with --list-methods: print CSV")
    p.set_defaults(func=_cmd_solve)
    p = sub.add_parser("compare", help="run every method (or --methods a,b) of an instance's kind and tabulate them")
    p.add_argument("instance")
    p.add_argument("--methods", help="comma-separated method names (default: all of the kind)")
    p.add_argument("--time-limit", type=float, default=None, help="seconds, for the methods that take one")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true")
    g.add_argument("--csv", action="store_true")
    p.set_defaults(func=_cmd_compare)
    p = sub.add_parser("validate", help="certification sweep over seeded instances")
    p.add_argument("paper", choices=list(PAPERS))
    p.add_argument("--n", type=int, default=20, help="number of instances")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--out", metavar="DIR", help="hare: write instances that violate the bound to DIR (default: none written)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true")
    g.add_argument("--csv", action="store_true")
    p.set_defaults(func=_cmd_validate)
    p = sub.add_parser("bench", help="timings and ratios of methods measured in one run")
    p.add_argument("paper", choices=list(PAPERS))
    p.add_argument("--quick", action="store_true", help="small sizes only")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--json", action="store_true")
    g.add_argument("--csv", action="store_true")
    p.set_defaults(func=_cmd_bench)
    p = sub.add_parser("export", help="write the exact model of an instance as LP or MPS")
    p.add_argument("instance")
    p.add_argument("--format", choices=["lp", "mps"], default="lp")
    p.add_argument("-o", "--output")
    p.set_defaults(func=_cmd_export)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    try:
        return args.func(args)
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
