"""The claims ledger of every paper (``hetopt claims``, ``hetopt reproduce``, ``hetopt sweep``).

Each paper's claims live in a package ``hetopt.claims.<paper>`` (named by the paper's
:class:`~hetopt.contract.Kind`, ``kind.claims``) as a list ``CLAIMS`` of :class:`Claim`, with the
diagnostic experiments in a dict ``SWEEPS`` of :class:`Sweep`; the package also holds the
paper's experiments and its published numbers.  The functions below collect, run and tabulate
them.

Examples
--------
>>> from hetopt.claims import claims, Verdict
>>> all(c.verdict in Verdict for c in claims())
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..errors import HetoptError
from ..report import Table
from .collect import claims, conformance, get_claim, modules, papers
from .experiment import Experiment, Parameter, built, experiment
from .ledger import (
    ID_PATTERN,
    Claim,
    ClaimResult,
    Conformance,
    ConformanceResult,
    Flip,
    Outcome,
    Sweep,
    Verdict,
    close_to,
    enforce,
    outside_premise,
)
from .runner import run_claims, run_conformance

__all__ = ["Claim", "ClaimResult", "Conformance", "ConformanceResult", "Flip", "Outcome", "Sweep", "Verdict", "enforce",
           "close_to", "outside_premise", "Experiment", "experiment", "built", "Parameter", "ID_PATTERN", "papers",
           "claims", "conformance", "get_claim", "sweeps", "get_sweep", "select", "skipped", "run", "run_claims",
           "run_conformance", "ledger_table", "results_table", "summary_table"]

def sweeps(paper: str | None = None) -> dict[str, Sweep]:
    """Every registered sweep, by name."""
    out: dict[str, Sweep] = {}
    for _, mod in modules(paper):
        out.update(getattr(mod, "SWEEPS", {}))
    return out


def get_sweep(name: str) -> Sweep:
    """The sweep with this name; ``HetoptError`` listing the names when there is none."""
    found = sweeps()
    if name not in found:
        raise HetoptError(f"no sweep named {name!r}; expected one of {', '.join(sorted(found))}")
    return found[name]


def select(paper: str | None = None, *, include_slow: bool = True) -> list[Claim]:
    """The claims of ``paper`` (or of all), without the slow ones unless ``include_slow``."""
    return [c for c in claims(paper) if include_slow or c.cost == "fast"]


def skipped(paper: str | None = None, *, include_slow: bool = True) -> list[Claim]:
    """The claims :func:`select` leaves out (the slow ones when ``include_slow`` is False)."""
    return [] if include_slow else [c for c in claims(paper) if c.cost != "fast"]


def run(paper: str | None = None, ids: Iterable[str] | None = None, *, include_slow: bool = True,
        flip: bool = False, workers: int = 1, progress: Any = None) -> list[ClaimResult]:
    """Run the checks (or the flips) of the selected claims; results in ledger order.

    ``ids`` selects claims by id; otherwise every claim of ``paper`` (of every paper when None),
    slow ones included unless ``include_slow`` is False.  See :func:`run_claims` for ``workers``
    and ``progress``.
    """
    chosen = [get_claim(i) for i in ids] if ids else select(paper, include_slow=include_slow)
    return run_claims(chosen, flip=flip, workers=workers, progress=progress)


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
    """Counts of verdicts per paper (recorded verdicts for claims, computed ones for results).

    Claims hetopt adds beyond the papers (``Claim.beyond``) are counted apart, in the last row.
    """
    counts: dict[str, Counter] = {}
    beyond: Counter = Counter()
    for it in items:
        c = it.claim if isinstance(it, ClaimResult) else it
        v = it.outcome.verdict if isinstance(it, ClaimResult) else it.verdict
        (beyond if c.beyond else counts.setdefault(c.paper, Counter()))[v] += 1
    every = [*counts.values(), beyond]
    cols = [v for v in Verdict if any(cnt[v] for cnt in every)]
    t = Table("claims by paper and verdict", ["paper", "claims", *[v.value for v in cols]])
    for paper, cnt in counts.items():
        t.add(paper, sum(cnt.values()), *[cnt[v] for v in cols])
    t.add("all", sum(sum(c.values()) for c in counts.values()), *[sum(c[v] for c in counts.values()) for v in cols])
    if beyond:
        t.add("beyond the papers (hetopt's own)", sum(beyond.values()), *[beyond[v] for v in cols])
    return t
