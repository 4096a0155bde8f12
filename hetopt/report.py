"""Plain-text tables for the command line (reproduce, validate, bench)."""

from __future__ import annotations

import csv
import io
import json
import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Table", "fmt"]


def fmt(value: Any, digits: int = 6) -> str:
    """Format a cell: floats with ``digits`` significant digits, None as '-'."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return f"{value:.{digits}g}"
    return str(value)


@dataclass
class Table:
    """A titled table of rows; ``str(table)`` renders it aligned."""

    title: str
    columns: Sequence[str]
    rows: list[Sequence[Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: For certification tables (``hetopt validate``): how many checks failed (None: not a certification).
    violations: int | None = None
    #: Columns whose cells ``str(table)`` wraps over lines so that a line fits :attr:`width`, with the most
    #: lines a cell may take (None: all; a cell cut short ends with "..."). The data (JSON, CSV) keeps them whole.
    wrap: dict[str, int | None] = field(default_factory=dict)
    #: Characters a line of ``str(table)`` may take when columns wrap.
    width: int = 120

    def add(self, *row: Any) -> None:
        """Append one row; ValueError unless it has one cell per column."""
        if len(row) != len(self.columns):
            raise ValueError(f"row has {len(row)} cells; table {self.title!r} has {len(self.columns)} columns")
        self.rows.append(row)

    def __str__(self) -> str:
        cells = [[str(c) for c in self.columns]] + [[fmt(v) for v in r] for r in self.rows]
        widths = [max(len(r[j]) for r in cells) for j in range(len(self.columns))]
        wrapped = [j for j, c in enumerate(self.columns) if c in self.wrap]
        if wrapped:  # the other columns keep their widths; the wrapped ones share what is left of the line, the
            # last of them the most (each other one takes a third of what is left, at least its longest word)
            left = self.width - sum(w for j, w in enumerate(widths) if j not in wrapped) - 2 * (len(widths) - 1)
            for j in wrapped[:-1]:
                word = max(len(w) for r in cells for w in (r[j].split() or [""]))
                widths[j] = min(widths[j], max(len(cells[0][j]), word, left // 3))
                left -= widths[j]
            widths[wrapped[-1]] = max(len(cells[0][wrapped[-1]]), 12, min(widths[wrapped[-1]], left))
        line = "  ".join("-" * w for w in widths)
        out = [self.title, line]
        for i, row in enumerate(cells):
            parts = [self._lines(c, widths[j], self.wrap.get(self.columns[j])) if j in wrapped and i else [c]
                     for j, c in enumerate(row)]
            for k in range(max(map(len, parts))):
                out.append("  ".join((p[k] if k < len(p) else "").ljust(w)
                                     for p, w in zip(parts, widths, strict=False)).rstrip())
            if i == 0:
                out.append(line)
        out.append(line)
        out += self.notes
        return "\n".join(out)

    @staticmethod
    def _lines(text: str, width: int, most: int | None) -> list[str]:
        lines = textwrap.wrap(text, width) or [""]
        if most is not None and len(lines) > most:
            lines, words = lines[:most], lines[most - 1].split()
            while len(words) > 1 and len(" ".join(words)) + 3 > width:  # cut at a word, "..." within the width
                words.pop()
            lines[-1] = " ".join(words)[:width - 3] + "..."
        return lines

    def to_dict(self) -> dict[str, Any]:
        """The title, columns, rows (cells unformatted) and notes as a dict of plain lists."""
        return {"title": self.title, "columns": list(self.columns), "rows": [list(r) for r in self.rows], "notes": self.notes}

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string (cells JSON cannot hold are written as their ``str``)."""
        return json.dumps(self.to_dict(), default=str)

    def to_csv(self) -> str:
        """The rows as CSV with a header line (numbers unformatted)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(self.columns)
        w.writerows(self.rows)
        return buf.getvalue()

    def to_markdown(self) -> str:
        """The rows as a GitHub-flavoured Markdown table (no title, no notes; ``|`` escaped)."""
        def cell(v: Any) -> str:
            return fmt(v).replace("|", "\\|")

        out = ["| " + " | ".join(cell(c) for c in self.columns) + " |",
               "|" + "|".join(" --- " for _ in self.columns) + "|"]
        out += ["| " + " | ".join(cell(v) for v in r) + " |" for r in self.rows]
        return "\n".join(out)

    def to_pandas(self):
        """The rows as a ``pandas.DataFrame`` (pandas must be installed)."""
        import pandas as pd

        return pd.DataFrame([list(r) for r in self.rows], columns=list(self.columns))
