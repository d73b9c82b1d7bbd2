"""What each game's analysis declares apart from its engine (``analysis/<game>/declaration.py``):
the columns ``simulate`` prints and the entry points its card studies play, checked against the
engine's facts they name."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fairysim.analysis.studies.card_studies import card_effects_of, table_cards_of
from fairysim.analysis.wording import SCORE, plain_wording, wording_of
from fairysim.sim.game import games, get_game


def summary_columns(column):
    """The seat columns a summary column reads, its stand-ins for other policies' rows too."""
    yield from column.columns
    for _, instead in column.by_policy:
        yield from summary_columns(instead)


def row_policies(spec):
    """Every policy a row of the game's results can carry: the built-ins, and the rows that are
    no player (solo Concerto's Pahha) at every player count."""
    names = set(spec.policies)
    for players in range(spec.min_players, spec.max_players + 1):
        setup = spec.make_setup(players=players, policies=spec.ladder[0], seed=0)
        names |= set(setup.policy_names)
    return names


@pytest.mark.parametrize("game", sorted(games()))
def test_every_printed_column_is_a_seat_column_of_the_game(game):
    spec = games()[game]
    columns = wording_of(spec).summary
    assert columns
    read = {name for column in columns for name in summary_columns(column)}
    assert read <= set(spec.seat_columns), read - set(spec.seat_columns)
    instead = {policy for column in columns for policy, _ in column.by_policy}
    assert instead <= row_policies(spec), instead - row_policies(spec)


@pytest.mark.parametrize("game", sorted(games()))
def test_the_card_studies_play_the_games_own_package(game):
    spec = games()[game]
    declared = card_effects_of(spec)
    entries = [t.variants for t in table_cards_of(spec)]
    if declared is not None:
        entries += [e for e in (declared.cards, declared.held) if e is not None]
    for entry in entries:
        module = entry.partition(":")[0]
        assert module == spec.package or module.startswith(f"{spec.package}."), entry


def test_a_game_that_declares_nothing_prints_its_mean_score_and_studies_no_card():
    spec = replace(get_game("highcard"), name="plain-highcard")
    words = wording_of(spec)
    assert words == plain_wording(spec)
    assert words.summary == (SCORE,)
    assert SCORE.cell({"policy": "stand", "score_mean": 3.14159}) == "3.14"
    assert card_effects_of(spec) is None and table_cards_of(spec) == ()
    assert card_effects_of(get_game("highcard")) is not None
