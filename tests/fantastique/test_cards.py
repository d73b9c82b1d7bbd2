"""Fantastique card files: values past the bounds the outcome columns hold are refused."""

import numpy as np
import pytest

from fairysim.runtime.errors import CardFileError
from fairysim.sim.fantastique.cards import (
    DEFAULT_CARDS,
    MAX_CARDS_PER_VALUE,
    MAX_MEDAL_POINTS,
    load_cards,
)
from fairysim.sim.fantastique.engine import OUTCOME_COLUMNS
from fairysim.sim.fantastique.rules import N_VALUES, ROUNDS


def edited(tmp_path, old: str, new: str):
    text = DEFAULT_CARDS.read_text()
    assert old in text
    path = tmp_path / "variant.toml"
    path.write_text(text.replace(old, new, 1))
    return path


@pytest.mark.parametrize(
    ("old", "new", "what"),
    [
        ("1 = 16", f"1 = {MAX_CARDS_PER_VALUE + 1}", "[fan_cards] 1"),
        ("gold = [6,", f"gold = [{MAX_MEDAL_POINTS + 1},", "[medals] gold[0]"),
        ("gold = 20", f"gold = {MAX_MEDAL_POINTS + 1}", "[grande_finale_medals] gold"),
    ],
)
def test_values_over_the_bound_are_refused_naming_file_and_entry(tmp_path, old, new, what):
    path = edited(tmp_path, old, new)
    with pytest.raises(CardFileError) as raised:
        load_cards(path)
    message = str(raised.value)
    assert "variant.toml" in message
    assert what in message
    assert "at most" in message


def test_values_at_the_bound_load(tmp_path):
    path = edited(tmp_path, "gold = 20", f"gold = {MAX_MEDAL_POINTS}")
    assert load_cards(path).finale_medals[0] == MAX_MEDAL_POINTS


def test_the_largest_possible_score_fits_the_outcome_columns():
    # one medal a round at most, plus the Gold Grande Finale medal
    largest = (ROUNDS + 1) * MAX_MEDAL_POINTS
    for name in ("score", "medal_points", "finale_points"):
        assert largest <= np.iinfo(OUTCOME_COLUMNS[name][0]).max, name
    assert np.iinfo(OUTCOME_COLUMNS["cards_outside_hands"][0]).max >= N_VALUES * MAX_CARDS_PER_VALUE


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # a misspelt or invented table or key is refused, not ignored
        ("[grande_finale_medals]", "[grande_finale_medal]", "missing table [grande_finale_medals]"),
        ("silver = 10", "silver = 10\n[extra]\nx = 1", "the file has unknown table or key 'extra'"),
        ("bronze =", "bronz =", "[medals] has unknown key 'bronz'"),
        ("bronze =", "platinum = [1, 2, 3, 4, 5, 6, 7]\nbronze =", "unknown key 'platinum'"),
        ("silver = 10", "silver = 10\nbronze = 5", "[grande_finale_medals] has unknown key"),
        ("8 = 9", "9 = 9", "[fan_cards] has unknown key '9'"),
        # types and limits, checked before a value is stored
        ("1 = 16", '1 = "16"', "[fan_cards] 1 must be an integer, got '16'"),
        ("1 = 16", "1 = true", "[fan_cards] 1 must be an integer, got True"),
        ("1 = 16", f"1 = {2**63}", "[fan_cards] 1 must be at most"),
        ("gold = [6,", "gold = [6.5,", "[medals] gold[0] must be an integer"),
        ("silver = 10", "", "[grande_finale_medals] silver is missing"),
        ("[fan_cards]", "fan_cards = [16]\n[x]", "[fan_cards] must be a table"),
    ],
)
def test_unknown_keys_types_and_limits_are_refused_in_one_line(tmp_path, old, new, message):
    path = edited(tmp_path, old, new)
    with pytest.raises(CardFileError) as raised:
        load_cards(path)
    text = str(raised.value)
    assert text.startswith(f"{path}: "), text
    assert message in text
    assert "\n" not in text
