"""A ``$$`` display in a notebook's markdown cell, a card or a docs page is a block that MyST parses as math.

MyST's ``dollarmath`` reads ``$$`` only where a block starts: a display inside a paragraph is read
as two ``$`` (the math falls apart, ``\\,`` and ``\\{`` lose their backslashes as Markdown escapes),
and a line of it that starts with ``+ `` or ``- `` becomes a bullet list (the duality notebook's
complementary-slackness identity showed ``$$\\text{(19)} - ...`` and a bullet ``\\sum_{t,k,r} ...$$``).
The browser test sees the rendered pages (``tests/docs/test_browser.py``); this one names the line.
"""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def misplaced_displays(text: str) -> list[str]:
    """The lines where a ``$$`` display is not a block: it must open a line that follows a blank line
    (or the cell's start, or another display's closing line), and its closing ``$$`` must end a line."""
    problems = []
    lines = text.split("\n")
    inside = False
    for i, line in enumerate(lines):
        s = line.strip()
        count = s.count("$$")
        if not count:
            continue
        if not inside:
            before = lines[i - 1].strip() if i else ""
            if not s.startswith("$$"):
                problems.append(f"line {i + 1}: $$ after text on its line: {s[:70]!r}")
            elif before and not before.endswith("$$"):
                problems.append(f"line {i + 1}: $$ continues the paragraph above (no blank line before it): "
                                f"{s[:70]!r}")
        closes = (count % 2 == 1) == inside or (not inside and count >= 2)
        if closes and not s.endswith("$$"):
            problems.append(f"line {i + 1}: text after the closing $$: {s[-70:]!r}")
        if count % 2:
            inside = not inside
    if inside:
        problems.append("a $$ display is never closed")
    return problems


def test_the_check_finds_the_duality_bug():
    broken = ("chain gives the identity\n$$\\text{(19)} - \\text{(14)} = \\sum_{t,h,r} p\n"
              "+ \\sum_{t,k,r} q,$$\na sum of nonnegative products.")
    assert misplaced_displays(broken) == [
        "line 2: $$ continues the paragraph above (no blank line before it): '$$\\\\text{(19)} - \\\\text{(14)} = "
        "\\\\sum_{t,h,r} p'"]
    fixed = "chain gives the identity\n\n$$\n\\text{(19)} = p\n+ q,\n$$\n\na sum\n\n$$x = 1$$\n$$y = 2$$\n"
    assert misplaced_displays(fixed) == []
    assert misplaced_displays("text $$x$$ more") and misplaced_displays("\n$$x$$ (label)") \
        and misplaced_displays("\n$$\nx")


def _markdown_cells(nb: Path):
    cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
    return [(i, "".join(c["source"])) for i, c in enumerate(cells) if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("name", sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb")))
def test_notebook_displays_are_blocks(name):
    found = [f"cell {i}, {p}" for i, src in _markdown_cells(ROOT / "notebooks" / f"{name}.ipynb")
             for p in misplaced_displays(src)]
    assert not found, f"notebooks/{name}.ipynb (edit notebooks/generate/{name}.py): {found}"


def test_card_and_docs_displays_are_blocks():
    found = [f"{path.relative_to(ROOT)}, {p}" for path in [*sorted((ROOT / "models").glob("*.md")),
                                                           *sorted((ROOT / "docs").rglob("*.md"))]
             for p in misplaced_displays(path.read_text(encoding="utf-8"))]
    assert not found, found
