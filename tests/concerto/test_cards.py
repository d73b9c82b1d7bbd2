"""Card data (C9): the shipped provisional set and refusals of malformed files."""

import re
from pathlib import Path

import pytest

from fairysim.runtime.errors import CardFileError
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


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # booleans are booleans, and a misspelt key is unknown rather than ignored
        ("provisional = true", 'provisional = "no"', "provisional must be true or false, got 'no'"),
        ("provisional = true", "provisional = 0", "provisional must be true or false, got 0"),
        ("provisional = true", "provisonal = true", "unknown table or key 'provisonal'"),
        ("[tokens]", "[extra]\nx = 1\n[tokens]", "the file has unknown table or key 'extra'"),
        ('id = "P1"\nname = "duo"', 'id = "P1"\nnmae = "duo"', "pianist card P1 has unknown key"),
        ('id = "S01"\nname', 'id = "S01"\nneeds = 1\nname', "score card S01 has unknown key"),
        ('name = "duo"', "name = 5", "pianist card P1: name must be a string, got 5"),
        ('id = "S01"', "id = 1", "[[score_card]] number 1: id must be a string, got 1"),
        ('id = "S01"', 'id = "S\\n01"', "id must be printable text"),
        # limits, checked before a value is stored
        ("trumpeter = 12", f"trumpeter = {2**64}", "[tokens] trumpeter must be at most 40"),
        ("trumpeter = 12", "trumpeter = 12.0", "[tokens] trumpeter must be an integer"),
        ("horn = 12", 'horn = 12\n"horn player" = 3', "[tokens]: gives horn twice"),
        (
            "need = { trumpeter = 3 }",
            f"need = {{ trumpeter = {2**64} }}",
            f"score card S01: needs {2**64} trumpeter but the bag holds 12",
        ),
        ("need = { trumpeter = 3 }", 'need = { trumpeter = "3" }', "need of trumpeter must be"),
        (
            'kinds = ["trumpeter", "violinist"]',
            "kinds = [" + ", ".join(['"composer"'] * 9) + "]",
            "pianist card P1: a set needs more composer than the 8 in the bag",
        ),
        (
            'kinds = ["drummer", "drummer"]',
            "kinds = [" + ", ".join(['"drummer"'] * 13) + "]",
            "harpist card H1: a set needs more drummer than the 12 in the bag",
        ),
        ('kinds = ["drummer", "drummer"]', 'kinds = "drummer"', "H1: kinds must be a list"),
        ('kinds = ["drummer", "drummer"]', "kinds = []", "H1: kinds must not be empty"),
    ],
)
def test_unknown_keys_types_and_limits_are_refused_in_one_line(tmp_path, old, new, message):
    path = broken(tmp_path, old, new)
    with pytest.raises(CardFileError) as info:
        load_cards(path)
    text = str(info.value)
    assert text.startswith(f"{path}: "), text
    assert message in text
    assert "\n" not in text


def test_a_set_may_need_every_token_of_a_kind_in_the_bag(tmp_path):
    path = broken(
        tmp_path,
        'kinds = ["trumpeter", "violinist"]',
        "kinds = [" + ", ".join(['"composer"'] * 8) + "]",
    )
    assert load_cards(path).pianist_sets[0].tolist() == [0, 0, 0, 0, 8]


# --- score_orchestra's inputs (checked next to the cards they are checked against) ---------------

SETUP = {"popularity": "horn", "soloist": "D", "pianist": "P3", "harpist": "H2"}


@pytest.mark.parametrize(
    ("counts", "setup", "score_cards", "where", "message"),
    [
        # a misspelt key was silently replaced by the default card
        ([2, 2, 2, 5, 1], {**SETUP, "pianst": "P2"}, (), "setup", "unknown key 'pianst'"),
        ([2, 2, 2, 5, 1], {"Soloist": "D"}, (), "setup", "unknown key 'Soloist'"),
        ([2, 2, 2, 5, 1], None, (), "setup", "give a mapping with keys popularity"),
        ([2, 2, 2, 5, 1], {"soloist": "E"}, (), "setup['soloist']", "unknown soloist 'E'"),
        ([2, 2, 2, 5, 1], {"pianist": "H1"}, (), "setup['pianist']", "unknown card 'H1'"),
        ([2, 2, 2, 5, 1], {"popularity": "tuba"}, (), "setup['popularity']", "unknown kind"),
        # counts past 64-bit arithmetic were wrapped into nonsense scores
        ([2**62, 0, 0, 0, 0], SETUP, (), "counts", "a count must be from 0 to 40, got 4611"),
        ([2**63, 0, 0, 0, 0], SETUP, (), "counts", "a count must be from 0 to 40"),
        ({"horn": 2**62}, SETUP, (), "counts", "a count must be from 0 to 40"),
        ({"horn": 2.5}, SETUP, (), "counts", "a count must be a whole number, got 2.5"),
        ([True, 0, 0, 0, 0], SETUP, (), "counts", "a count must be a whole number, got True"),
        ([-1, 0, 0, 0, 0], SETUP, (), "counts", "a count must be from 0 to 40, got -1"),
        ([13, 0, 0, 0, 0], SETUP, (), "counts", "13 trumpeter but the bag of cards.toml holds 12"),
        (["horn"] * 13, SETUP, (), "counts", "13 horn but the bag"),
        (["horn", 2.5], SETUP, (), "counts", "unknown kind 2.5"),
        ("horn", SETUP, (), "counts", "give a mapping {kind: count}"),
        (7, SETUP, (), "counts", "give a mapping {kind: count}"),
        ([2, 2, 2, 5, 1], SETUP, "S01", "score_cards", "give a list of score card ids"),
        ([2, 2, 2, 5, 1], SETUP, ["S01", "s01"], "score_cards", "S01 is held twice"),
        ([2, 2, 2, 5, 1], SETUP, ["S99"], "score_cards", "unknown card 'S99'"),
    ],
)
def test_score_orchestra_refuses_bad_input_in_one_line(counts, setup, score_cards, where, message):
    from fairysim.runtime.errors import FairysimError
    from fairysim.sim.concerto import score_orchestra

    with pytest.raises(FairysimError) as info:
        score_orchestra(counts, setup, score_cards)
    assert info.value.where == where, str(info.value)
    assert message in str(info.value) and "\n" not in str(info.value), str(info.value)


def test_score_orchestra_takes_the_bag_full_and_leaves_out_keys():
    from fairysim.sim.concerto import score_orchestra

    full = score_orchestra({"trumpeter": 12, "horn player": 1}, {}, ["S01"])
    assert full["conductor"] == 24  # 2 per token of the most numerous kind
    assert full["popularity"] == 12  # trumpeter, the first kind, when popularity is left out
    assert full["score_cards"] == 5
