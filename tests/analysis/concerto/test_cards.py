"""The card set in words, and how a report names and labels it (ruling C9)."""

from __future__ import annotations

from fairysim.analysis.concerto import cards as acards
from fairysim.sim.concerto import load_cards


def test_card_table_and_descriptions():
    cards = load_cards()
    table = acards.card_table(cards)
    assert len(table) == 26 + 3 + 3
    assert acards.describe_set([0, 2, 0, 0, 0]) == "2 drummer"
    assert acards.describe_set([1, 0, 1, 0, 0]) == "trumpeter + violinist"
    contests = acards.contest_cards(cards)
    assert list(contests["contest"]).count("soloist") == 4
