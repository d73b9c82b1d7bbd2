"""The card-effect intervention (ruling PC5): a score card put among one seat's setup cards.

Before the setup deal, a score card the deal does not reach changes places with the first setup
card the seat is to be dealt. The tests check the exchange on constructed piles, that nothing
else of a deal moves, that the jitted engine plays forced games exactly as the reference engine
in every form, and the one-line refusals.
"""

from __future__ import annotations

import numpy as np
import pytest

from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import join_chunks
from fairysim.sim.concerto import effect_cards, engine, make_setup, play_chunks, reference
from fairysim.sim.concerto.rules import N_SCORE_CARDS
from fairysim.sim.concerto.setup import FORCED_COLUMNS

from .test_reference_equivalence import KEYS


def run_exchange(exchange, pile, players, card, seat):
    """Either engine's exchange on a copy of ``pile``: (held, done, pile after)."""
    if exchange is reference.exchange_forced_card:
        after = list(pile)
        held, done = exchange(after, players, card, seat)
        return held, done, after
    arr = np.array(pile, np.int64)
    held, done = exchange(arr, players, card, seat)
    return held, done, [int(x) for x in arr]


EXCHANGES = [reference.exchange_forced_card, engine.exchange_forced_card]


@pytest.mark.parametrize("exchange", EXCHANGES)
def test_the_exchange_on_a_constructed_pile(exchange):
    pile = list(range(N_SCORE_CARDS))  # top card last: seat 0 is dealt 25 then 24, seat 1 23, 22
    held, done, after = run_exchange(exchange, pile, 3, 5, 1)
    assert (held, done) == (0, 1)
    assert after[23] == 5 and after[5] == 23  # seat 1's first setup card changed places
    assert [i for i in range(N_SCORE_CARDS) if after[i] != pile[i]] == [5, 23]


@pytest.mark.parametrize("exchange", EXCHANGES)
def test_no_exchange_where_the_deal_reaches_the_card(exchange):
    pile = list(range(N_SCORE_CARDS))
    assert run_exchange(exchange, pile, 3, 22, 1)[:2] == (1, 0)  # seat 1's own second card
    assert run_exchange(exchange, pile, 3, 25, 1)[:2] == (0, 0)  # seat 0 is dealt it
    assert run_exchange(exchange, pile, 3, 20, 1)[:2] == (0, 0)  # seat 2's second card
    assert run_exchange(exchange, pile, 3, 19, 1)[:2] == (0, 1)  # first card the deal misses
    assert run_exchange(exchange, pile, 1, 23, 0)[:2] == (0, 0)  # solo: Pahha's face-down card
    assert run_exchange(exchange, pile, 1, 22, 0)[:2] == (0, 1)


def test_only_the_forced_seat_changes():
    base = make_setup(players=4, policies="greedy", seed=11)
    for game in range(40):
        plain = reference.setup_game(base, game)
        forced_setup = make_setup(
            players=4, policies="greedy", seed=11, forced_card=8, forced_seat=2
        )
        forced = reference.setup_game(forced_setup, game)
        assert forced.soloist == plain.soloist and forced.popularity == plain.popularity
        assert forced.bag == plain.bag
        for seat in (0, 1, 3):
            assert forced.players[seat].dealt == plain.players[seat].dealt
        held, done = forced.forced
        assert held == (7 in plain.players[2].dealt)
        if done:
            assert forced.players[2].dealt == [7, plain.players[2].dealt[1]]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("policies", ["greedy", "random", "chaser", "denier"])
def test_forced_games_match_the_reference(players, policies):
    for card in (1, 14, 26):
        setup = make_setup(
            players=players, policies=policies, seed=4, forced_card=card, forced_seat=players - 1
        )
        fast = join_chunks(play_chunks(setup, 50))
        for g, ref in enumerate(reference.play_games(setup, 50)):
            for key in KEYS:
                np.testing.assert_array_equal(fast[key][g], ref[key], err_msg=f"{card} {key} {g}")
            for key in (*FORCED_COLUMNS, "pile_left", "discarded"):
                assert int(fast[key][g]) == ref[key], (card, key, g)


def test_forcing_nothing_adds_no_column_and_greedy_lanes_agree():
    plain = join_chunks(play_chunks(make_setup(players=3, seed=9), 200))
    one_at_a_time = join_chunks(play_chunks(make_setup(players=3, seed=9), 200, lanes=False))
    for name in plain:
        np.testing.assert_array_equal(plain[name], one_at_a_time[name])
    assert not set(FORCED_COLUMNS) & set(plain)


def test_effect_cards_are_every_score_card():
    setup = make_setup(players=2)
    assert effect_cards(setup) == [(i + 1, f"S{i + 1:02d}") for i in range(N_SCORE_CARDS)]


@pytest.mark.parametrize(
    ("options", "where"),
    [
        ({"forced_card": 27}, "forced_card"),
        ({"forced_card": -1}, "forced_card"),
        ({"forced_card": 3, "forced_seat": 3}, "forced_seat"),
    ],
)
def test_bad_interventions_are_named(options, where):
    with pytest.raises(FairysimError) as info:
        make_setup(players=3, **options)
    assert info.value.where == where
