"""The claims ledger of every paper (``hetopt claims``, ``hetopt reproduce``, ``hetopt sweep``).

Each paper's claims live in a module of this package (``hetopt.claims.placement``, ...) as a
list ``CLAIMS`` of :class:`Claim`, with the diagnostic experiments in a dict ``SWEEPS`` of
:class:`Sweep`.  The functions below collect, run and tabulate them.

Examples
--------
>>> from hetopt.claims import claims, Verdict
>>> all(c.verdict in Verdict for c in claims())
True
"""

from __future__ import annotations

import importlib
from collections import Counter
from typing import Callable, Iterable

from ..errors import HetoptError
from ..report import Table
from .ledger import ID_PATTERN, Claim, ClaimResult, Outcome, Sweep, Verdict, close_to

__all__ = ["Claim", "ClaimResult", "Outcome", "Sweep", "Verdict", "close_to", "ID_PATTERN", "PAPERS", "claims",
           "get_claim", "sweeps", "get_sweep", "run", "ledger_table", "results_table", "summary_table"]

#: paper -> module of its claims, in the order the ledger prints them.
PAPERS = {
    "placement": "hetopt.claims.placement",
    "hare": "hetopt.claims.hare",
    "oasis": "hetopt.claims.oasis",
    "contention": "hetopt.claims.contention",
    "hadar": "hetopt.claims.hadar",
    "gavel": "hetopt.claims.gavel",
}


def _modules(paper: str | None = None):
    if paper is not None and paper not in PAPERS:
        raise HetoptError(f"paper is {paper!r}; expected one of {', '.join(PAPERS)}")
    names = [paper] if paper else list(PAPERS)
    out = []
    for name in names:
        try:
            out.append((name, importlib.import_module(PAPERS[name])))
        except ModuleNotFoundError as exc:
            if exc.name != PAPERS[name]:
                raise
    return out


def claims(paper: str | None = None) -> list[Claim]:
    """Every claim of ``paper`` (or of every paper), in ledger order."""
    return [c for _, mod in _modules(paper) for c in mod.CLAIMS]


def get_claim(claim_id: str) -> Claim:
    """The claim with this id; ``HetoptError`` naming the close matches when there is none."""
    found = {c.id: c for c in claims()}
    if claim_id not in found:
        near = [i for i in found if claim_id.split(".")[0] in i][:5]
        raise HetoptError(f"no claim with id {claim_id!r}" + (f"; ids of that paper include {', '.join(near)}" if near else ""))
    return found[claim_id]


def sweeps(paper: str | None = None) -> dict[str, Sweep]:
    """Every registered sweep, by name."""
    out: dict[str, Sweep] = {}
    for _, mod in _modules(paper):
        out.update(getattr(mod, "SWEEPS", {}))
    return out


def get_sweep(name: str) -> Sweep:
    """The sweep with this name; ``HetoptError`` listing the names when there is none."""
    found = sweeps()
    if name not in found:
        raise HetoptError(f"no sweep named {name!r}; expected one of {', '.join(sorted(found))}")
    return found[name]


def run(paper: str | None = None, ids: Iterable[str] | None = None, *, include_slow: bool = True,
        progress: Callable[[int, int, ClaimResult], None] | None = None) -> list[ClaimResult]:
    """Run the checks of the selected claims and return their results in ledger order.

    ``progress(k, n, result)`` is called after each claim (the CLI prints a line to stderr).
    """
    if ids:
        selected = [get_claim(i) for i in ids]
    else:
        selected = [c for c in claims(paper) if include_slow or c.cost == "fast"]
    out = []
    for k, c in enumerate(selected, 1):
        out.append(c.run())
        if progress is not None:
            progress(k, len(selected), out[-1])
    return out


def ledger_table(items: Iterable[Claim]) -> Table:
    """The recorded ledger (no check run): id, location, paper's number, verdict, evidence."""
    t = Table("claims ledger (recorded verdicts; `hetopt claims --run` recomputes them)",
              ["id", "location", "paper", "verdict", "rerun"])
    for c in items:
        t.add(c.id, c.location, c.paper_value, c.verdict.value, f"hetopt sweep {c.sweep}" if c.sweep else c.command)
    return t


def results_table(results: Iterable[ClaimResult], title: str = "claims, rerun") -> Table:
    """The ledger with our numbers and the verdicts the checks computed."""
    t = Table(title, ["id", "paper", "ours", "verdict", "as recorded"])
    for r in results:
        t.add(r.claim.id, r.claim.paper_value, r.outcome.ours, r.outcome.verdict.value, not r.verdict_changed)
    return t


def summary_table(items: Iterable[Claim | ClaimResult]) -> Table:
    """Counts of verdicts per paper (recorded verdicts for claims, computed ones for results)."""
    counts: dict[str, Counter] = {}
    for it in items:
        c = it.claim if isinstance(it, ClaimResult) else it
        v = it.outcome.verdict if isinstance(it, ClaimResult) else it.verdict
        counts.setdefault(c.paper, Counter())[v] += 1
    cols = [v for v in Verdict if any(cnt[v] for cnt in counts.values())]
    t = Table("claims by paper and verdict", ["paper", "claims", *[v.value for v in cols]])
    for paper, cnt in counts.items():
        t.add(paper, sum(cnt.values()), *[cnt[v] for v in cols])
    t.add("all", sum(sum(c.values()) for c in counts.values()), *[sum(c[v] for c in counts.values()) for v in cols])
    return t
