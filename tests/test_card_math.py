"""The cards' notation and equations are real math: MyST ``$...$`` / ``$$...$$``, typeset on the paper pages.

The docs read each card (``docs/papers/<paper>.md`` includes it) with myst's ``dollarmath``; an
ASCII formula (``C_n >= x_i + sum_m y_{i,m} (...)``) would print as it is typed.
"""

import re
from pathlib import Path

import pytest

from hetopt.registry import kinds

ROOT = Path(__file__).resolve().parents[1]
#: The sections that hold a card's notation and equations (Hadar's card gives its equations in
#: three sections: P1, P2 and P3, the price function), each up to the next heading (``##`` or ``###``).
SECTIONS = ("Notation", "Equations", "P1 (", "P2 (", "Price function (")
#: ASCII pseudo-math that must not stand outside ``$`` math (code spans included).
ASCII_MATH = re.compile(r">=|<=|!=|\bsum_|\b(?:arg)?(?:max|min)_|_\{|\^\{|\^\(")
MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$", re.S)


def sections(text: str) -> dict[str, str]:
    """Heading -> body of every section of ``SECTIONS``."""
    parts = re.split(r"^(#{2,3} .*)$", text, flags=re.M)
    return {head: body for head, body in zip(parts[1::2], parts[2::2], strict=True)
            if head.startswith("## ") and head[3:].startswith(SECTIONS)}


@pytest.mark.parametrize("card", sorted({k.card for k in kinds().values()}))
def test_notation_and_equations_are_math(card):
    found = sections((ROOT / card).read_text(encoding="utf-8"))
    assert any(h.startswith("## Notation") for h in found), f"{card} has no Notation section"
    assert len(found) >= 2, f"{card} has no section of equations ({SECTIONS})"
    for head, body in found.items():
        assert "$" in body, f"{card}, {head!r}: no $ math"
        assert body.count("$$") % 2 == 0, f"{card}, {head!r}: an unclosed $$ block"
        rest = MATH.sub(" ", body)
        assert "$" not in rest, f"{card}, {head!r}: an unclosed $: {rest[rest.index('$') - 40:][:80]!r}"
        ascii_math = [line.strip() for line in rest.splitlines() if ASCII_MATH.search(line)]
        assert not ascii_math, f"{card}, {head!r}: ASCII math outside $...$: {ascii_math}"
