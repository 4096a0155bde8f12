"""The ``hetopt`` command.

    hetopt reproduce [PAPER]                      the papers' worked examples, paper vs ours
    hetopt solve INSTANCE.json --method NAME [--json]
    hetopt validate PAPER --n N --seed S          a certification sweep, as a table
    hetopt bench PAPER                            timings and ratios measured in one run
    hetopt export INSTANCE.json --format lp|mps   the exact model, for other solvers

Each paper subpackage provides a ``commands`` module with the same functions
(``reproduce``, ``validate``, ``bench``, ``solve``, ``export_model``, ``KIND``,
``METHODS``); this module only dispatches, with no per-paper special cases.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["main", "PAPERS"]

#: paper name -> module providing its commands
PAPERS = {
    "placement": "hetopt.placement.commands",
    "hare": "hetopt.hare.commands",
    "oasis": "hetopt.oasis.commands",
    "hadar": "hetopt.hadar.commands",
    "contention": "hetopt.contention.commands",
}


def _paper(name: str) -> ModuleType:
    if name not in PAPERS:
        raise SystemExit(f"hetopt: unknown paper {name!r}; expected one of {', '.join(PAPERS)}")
    return importlib.import_module(PAPERS[name])


def _paper_for_instance(data: dict) -> ModuleType:
    kind = data.get("kind")
    for name in PAPERS:
        mod = _paper(name)
        if mod.KIND == kind:
            return mod
    kinds = ", ".join(_paper(n).KIND for n in PAPERS)
    raise SystemExit(f"hetopt: instance kind {kind!r} is not supported; expected one of {kinds}")


def _load(path: str) -> tuple[ModuleType, object]:
    p = Path(path)
    if not p.exists():
        raise SystemExit(f"hetopt: no such file: {path}")
    with open(p, encoding="utf-8") as fh:
        data = json.load(fh)
    mod = _paper_for_instance(data)
    return mod, mod.load_instance(data)


def _cmd_reproduce(args: argparse.Namespace) -> int:
    names = [args.paper] if args.paper else list(PAPERS)
    total = matched = 0
    for name in names:
        for table in _paper(name).reproduce():
            print(table)
            print()
            total += len(table.rows)
            matched += sum(bool(r[-1]) for r in table.rows)
    print(f"{matched} of {total} paper numbers reproduced.")
    if matched < total:
        print("Rows marked 'no' are where our run does not give the paper's number; "
              "each paper's formulation card in models/ explains why.")
    return 1 if (args.strict and matched < total) else 0


def _cmd_solve(args: argparse.Namespace) -> int:
    mod, inst = _load(args.instance)
    if args.method not in mod.METHODS:
        raise SystemExit(f"hetopt: unknown method {args.method!r}; expected one of {', '.join(mod.METHODS)}")
    sol = mod.solve(inst, args.method)
    summary = mod.solution_summary(sol)
    if args.json:
        print(json.dumps(summary, default=str, indent=1))
    else:
        for k, v in summary.items():
            print(f"{k}: {v}")
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    table = _paper(args.paper).validate(n=args.n, seed=args.seed)
    print(table)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    for table in _paper(args.paper).bench(quick=args.quick):
        print(table)
        print()
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    mod, inst = _load(args.instance)
    model = mod.export_model(inst)
    out = args.output or str(Path(args.instance).with_suffix("." + args.format))
    model.write(out, format=args.format, io_options={"symbolic_solver_labels": True})
    print(f"wrote {out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="hetopt", description="Optimization models of heterogeneous GPU-cluster scheduling.")
    ap.add_argument("-v", "--verbose", action="store_true", help="log progress (INFO level)")
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("reproduce", help="rerun the papers' worked examples; paper's number vs ours")
    p.add_argument("paper", nargs="?", choices=list(PAPERS))
    p.add_argument("--strict", action="store_true", help="exit with status 1 if any paper number is not reproduced")
    p.set_defaults(func=_cmd_reproduce)
    p = sub.add_parser("solve", help="solve a JSON instance with a method")
    p.add_argument("instance")
    p.add_argument("--method", required=True)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=_cmd_solve)
    p = sub.add_parser("validate", help="certification sweep over seeded instances")
    p.add_argument("paper", choices=list(PAPERS))
    p.add_argument("--n", type=int, default=20, help="number of instances")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.set_defaults(func=_cmd_validate)
    p = sub.add_parser("bench", help="timings and ratios of methods measured in one run")
    p.add_argument("paper", choices=list(PAPERS))
    p.add_argument("--quick", action="store_true", help="small sizes only")
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
    return args.func(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
