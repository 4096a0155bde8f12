"""Each card's Findings table is the ledger's (issue 30): ``python -m hetopt.claims.cards`` rewrites them."""

import pytest

from hetopt import claims as ledger
from hetopt.claims import cards


@pytest.mark.parametrize("paper", ledger.papers())
def test_card_findings_table_is_generated_from_the_ledger(paper):
    path = cards.card_path(paper)
    if path is None:
        pytest.skip(f"{paper} has no card in this tree")
    text = path.read_text(encoding="utf-8")
    assert text.count("<!-- findings:") == 1, f"{path}: one findings block between markers"
    assert cards.current(text) == cards.findings_table(paper).strip(), (
        f"{path}: the Findings table is stale; run `python -m hetopt.claims.cards`")


def test_findings_table_lists_every_claim_with_its_flip_input():
    for paper in ledger.papers():
        table = cards.findings_table(paper)
        for c in ledger.claims(paper):
            assert f"`{c.id}`" in table and f"`{c.flip.input} = " in table, c.id
