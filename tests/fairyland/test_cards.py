"""Card and court data (L1, L2, L13): the shipped files and refusals of malformed ones."""

import re
from pathlib import Path

import pytest

from fairysim.runtime.errors import CardFileError
from fairysim.sim.fairyland.cards import (
    DEFAULT_CARDS,
    DEFAULT_COURT,
    FOREST_NAMES,
    load_cards,
    load_court,
)
from fairysim.sim.fairyland.rules import (
    ANIMALS,
    BID_BONUS,
    FLOWERS,
    GOBLIN,
    IT_AMOUNT,
    IT_AT_LEAST,
    IT_CARDS,
    IT_PRIMITIVE,
    LOST_HALF,
    OGRE,
    POINTS_PER_CARD_TYPE,
    SPECIAL_FAIRIES,
    card_type,
)


def test_shipped_forest_is_the_rulebooks_84_cards():
    cards = load_cards()
    forest = cards.forest
    assert cards.total_forest == 84
    assert [forest[a] for a in ANIMALS] == [10, 8, 6, 4, 2, 1, 4]  # 35 animals
    assert [forest[f] for f in FLOWERS] == [5] * 5  # 25 flowers, red the fifth colour (L1)
    assert [forest[s] for s in SPECIAL_FAIRIES] == [1] * 6
    assert (forest[GOBLIN], forest[OGRE], forest[LOST_HALF]) == (14, 3, 1)
    assert list(cards.majority) == [10, 8, 6, 4, 2, 1, 4]
    assert list(cards.face_value) == [1, 2, 3, 4, 5, 6, 7] + [1] * 6
    assert (cards.crests_for(2), cards.crests_for(3), cards.crests_for(4)) == (2, 1, 1)


def test_shipped_court_is_the_19_provisional_items_with_9_starred():
    court = load_court()
    assert court.n_items == 19 and court.provisional and "PROVISIONAL" in court.label
    assert sum(court.starred) == 9
    starred = load_court("starred")
    assert starred.n_items == 9 and starred.selection == "starred"
    assert starred.ids == (
        "retained_half",
        "silver_acorn",
        "moonlit_crown",
        "antler_crown",
        "garland",
        "ogre_bane",
        "queens_favour",
        "fairy_net",
        "goblin_trap",
    )
    assert "starred" in starred.label and "PROVISIONAL" in starred.label
    bouquet = court.table[court.ids.index("bouquet")]
    assert bouquet[IT_PRIMITIVE] == POINTS_PER_CARD_TYPE
    assert (bouquet[IT_AMOUNT], bouquet[IT_AT_LEAST]) == (2, 2)
    assert bouquet[IT_CARDS] == sum(1 << f for f in FLOWERS)
    golden = court.table[court.ids.index("golden_acorn")]
    assert (golden[IT_PRIMITIVE], golden[IT_AMOUNT]) == (BID_BONUS, 2)
    charm = court.table[court.ids.index("squirrel_charm")]
    assert charm[IT_CARDS] == 1 << card_type("squirrel")


def broken(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text()
    assert old in text, old
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('effect = "bid_bonus"', 'effect = "bid_malus"', r"item silver_acorn: unknown effect"),
        ("bonus = 1", "bonus = 1\ncolour = 3", r"item silver_acorn: unknown key 'colour'"),
        ("bonus = 1", 'bonus = "one"', r"item silver_acorn: bonus must be an integer"),
        ("bonus = 1", "bonus = 0", r"item silver_acorn: bonus must be at least 1"),
        ('id = "golden_acorn"', 'id = "silver_acorn"', r"duplicate id 'silver_acorn'"),
        ('cards = "deer"', 'cards = "dragon"', r"item antler_crown: unknown card 'dragon'"),
        ("points = 12", "", r"item retained_half: effect pendant_pair needs points"),
        ('Pendant"\nstarred = true', 'Pendant"\nstarred = "yes"', r"retained_half: starred must"),
        ("goblins = 2", 'goblins = 2\ncards = "goblin"', r"item goblin_trap: unknown key 'cards'"),
        ('[[item]]\nid = "broom"', '[[thing]]\nid = "broom"', r"unknown key 'thing'"),
        ('id = "broom"', 'id = "bro\\nom"', r"\[\[item\]\] number \d+: id must be printable"),
        ('id = "broom"', f'id = "{"b" * 33}"', r"id must be at most 32 characters"),
        ('name = "Moonlit Crown"', "name = 7", r"item moonlit_crown: name must be a string"),
    ],
)
def test_malformed_court_is_refused_in_one_line(tmp_path, old, new, message):
    path = broken(tmp_path, DEFAULT_COURT, old, new)
    with pytest.raises(CardFileError) as info:
        load_court(path)
    text = str(info.value)
    assert str(path) in text and "\n" not in text
    assert re.search(message, text), text


def test_court_with_too_few_items_is_refused(tmp_path):
    text = DEFAULT_COURT.read_text()
    head = text.split('[[item]]\nid = "queens_favour"')[0]  # the first 12 items
    path = tmp_path / "short.toml"
    path.write_text(head.split('[[item]]\nid = "squirrel_charm"')[0])  # 4 items
    with pytest.raises(CardFileError, match=r"has 4 items; a court needs 9 to 32"):
        load_court(path)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("squirrel = 10\n", "squirrel = 10\ndragon = 2\n", r"\[forest\] 'dragon': unknown card"),
        ("warrior = 1", "warrior = 2", r"\[forest\] warrior must be at most 1"),
        ("yellow = 5", "yellow = 6", r"\[forest\] yellow must be at most 5"),
        ("ogre = 3", "ogre = -1", r"\[forest\] ogre must be at least 0"),
        ("squirrel = 10", "squirrel = 9223372036854775808", r"\[forest\] squirrel must be at most"),
        ("ogre = 3", "", r"\[forest\] ogre: missing"),
        ("fairy_values = [1, 2, 3, 4, 5, 6, 7]", "fairy_values = [1, 2]", r"fairy_values must"),
        ("crests = 1", "crests = true", r"\[house\] crests must be an integer"),
        ("[majority]\n", "[majority]\nwolf = 3\n", r"\[majority\] 'wolf': unknown card"),
    ],
)
def test_malformed_card_file_is_refused_in_one_line(tmp_path, old, new, message):
    path = broken(tmp_path, DEFAULT_CARDS, old, new)
    with pytest.raises(CardFileError) as info:
        load_cards(path)
    text = str(info.value)
    assert str(path) in text and "\n" not in text
    assert re.search(message, text), text


def test_forest_too_small_is_refused(tmp_path):
    forest = "\n".join(f"{name} = {12 if name == 'squirrel' else 0}" for name in FOREST_NAMES)
    rest = DEFAULT_CARDS.read_text().split("[majority]")[1]
    path = tmp_path / "small.toml"
    path.write_text(f"[forest]\n{forest}\n[majority]{rest}")
    with pytest.raises(CardFileError, match=r"holds 12 cards; the game needs 13 to 255"):
        load_cards(path)


def test_missing_and_non_toml_files_are_refused(tmp_path):
    with pytest.raises(CardFileError, match="no such file"):
        load_court(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[[item]\n")
    with pytest.raises(CardFileError, match="not valid TOML"):
        load_cards(bad)
