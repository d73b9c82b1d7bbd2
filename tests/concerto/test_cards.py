"""Card data (C9): the shipped provisional set and refusals of malformed files."""

import re
from pathlib import Path

import pytest

from fairysim.errors import CardFileError
from fairysim.sim.concerto.cards import DEFAULT_CARDS, dominated_pairs, load_cards


def test_shipped_cards_are_provisional_and_no_card_is_dominated():
    cards = load_cards()
    assert cards.provisional and "PROVISIONAL" in cards.label
    assert cards.total_tokens == 56
    assert len(cards.score_ids) == 26
    assert dominated_pairs(cards) == []
    composer_cards = (cards.score_need[:, 4] > 0).sum()
    assert 0 < composer_cards <= 6  # composers asked for sparingly


def broken(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = DEFAULT_CARDS.read_text()
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, count))
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("need = { trumpeter = 3 }", "need = { tuba = 3 }", r"score card S01: unknown kind 'tuba'"),
        ("need = { trumpeter = 3 }", "need = { trumpeter = -1 }", r"score card S01: negative need"),
        ('id = "S02"', 'id = "S01"', r"duplicate id 'S01'"),
        (
            '[[harpist]]\nid = "H3"',
            '[[harpist_x]]\nid = "H3"',
            r"has 2 \[\[harpist\]\] cards; the game has exactly 3",
        ),
        (
            'kinds = ["drummer", "drummer"]',
            'kinds = ["drummer", "oboe"]',
            r"harpist card H1: unknown kind 'oboe'",
        ),
    ],
)
def test_malformed_files_are_refused_naming_file_card_and_problem(tmp_path, old, new, message):
    path = broken(tmp_path, old, new)
    with pytest.raises(CardFileError) as info:
        load_cards(path)
    assert str(path) in str(info.value)
    assert re.search(message, str(info.value)), str(info.value)


def test_missing_file_is_refused(tmp_path):
    with pytest.raises(CardFileError, match="no such file"):
        load_cards(tmp_path / "nope.toml")
