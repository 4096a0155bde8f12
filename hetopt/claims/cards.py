"""The Findings table of each paper's card, generated from the ledger (issue 30).

Each card ``models/<paper>.md`` (``Kind.card``) holds its table between the markers
``<!-- findings: python -m hetopt.claims.cards -->`` and ``<!-- /findings -->``; the table lists every
claim with its recorded verdict and its flip (the input it changes, the value, the verdict).
``python -m hetopt.claims.cards`` rewrites the tables in place; ``tests/claims/test_cards.py`` fails
when one is stale.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..registry import kinds
from .collect import claims, papers

__all__ = ["findings_table", "card_path", "pattern", "current", "update", "MARKER"]

MARKER = "findings"
ROOT = Path(__file__).resolve().parents[2]


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def findings_table(paper: str) -> str:
    """The Markdown table of ``paper``'s claims: id, the paper's number, the verdict, the flip."""
    rows = ["| claim id | paper | verdict | flip: input = value -> verdict |", "| --- | --- | --- | --- |"]
    for c in claims(paper):
        marks = [m for m, on in (("slow", c.cost == "slow"), ("beyond the paper", c.beyond), ("timed", c.timed)) if on]
        ident = f"`{c.id}`" + (f" ({', '.join(marks)})" if marks else "")
        flip = (f"{c.flip.change} (`{c.flip.input} = {c.flip.value!r}`) -> {c.flip.verdict.value}" if c.flip
                else "none")
        rows.append(f"| {ident} | {_cell(c.paper_value)} | {c.verdict.value} | {_cell(flip)} |")
    return "\n".join(rows)


def card_path(paper: str) -> Path | None:
    """The card ``models/<paper>.md`` of ``paper`` in the source tree (None for a kind whose card is elsewhere)."""
    card = kinds()[paper].card
    if not card or not card.startswith("models/"):
        return None
    path = ROOT / card
    return path if path.exists() else None


def pattern() -> re.Pattern:
    """The block between the markers: (opening marker, table, closing marker)."""
    return re.compile(rf"(<!-- {MARKER}:[^\n]*-->\n)(.*?)(<!-- /{MARKER} -->)", re.S)


def current(text: str) -> str | None:
    """The table between the markers of a card's text (None without markers)."""
    m = pattern().search(text)
    return None if m is None else m.group(2).strip()


def update() -> list[Path]:
    """Rewrite every card's table; return the cards that changed."""
    changed = []
    for paper in papers():
        path = card_path(paper)
        if path is None:
            continue
        text = path.read_text(encoding="utf-8")
        table = findings_table(paper)

        def fill(m: re.Match, table: str = table) -> str:
            return m.group(1) + table + "\n" + m.group(3)

        new, n = pattern().subn(fill, text)
        if n != 1:
            raise SystemExit(f"{path} has {n} blocks marked {MARKER!r}; expected 1")
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


if __name__ == "__main__":  # pragma: no cover - maintenance command
    for p in update():
        print(f"rewrote {p}", file=sys.stderr)
