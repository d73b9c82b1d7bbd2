"""The card-effect intervention (ruling PF5): one more card of a value for one seat.

Before the deal, the first card the seat is to be dealt that is not the forced value changes
places with the topmost card of that value left in the draw pile. The tests check the exchange
on constructed piles, that nothing else of a deal moves, that the jitted engine plays the
forced games exactly as the reference engine, and the one-line refusals.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import join_chunks
from fairysim.sim.fantastique import effect_cards, engine, make_setup, play_chunks
from fairysim.sim.fantastique import reference as ref
from fairysim.sim.fantastique.rules import HAND_SIZE
from fairysim.sim.fantastique.setup import FORCED_COLUMNS

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")


def constructed_pile(players: int, hands: dict[int, list[int]], staying: list[int]) -> list[int]:
    """A pile, top card last, that deals ``hands[seat]`` (first dealt first) to each seat and
    leaves ``staying`` (bottom first) in the draw pile."""
    dealt = []
    for seat in range(players):
        dealt += hands[seat]
    return staying + dealt[::-1]


def dealt_hands(pile: list[int], players: int) -> list[Counter]:
    top = len(pile) - 1
    return [
        Counter(pile[top - HAND_SIZE * s - i] for i in range(HAND_SIZE)) for s in range(players)
    ]


@pytest.mark.parametrize("exchange", [ref.exchange_forced_card, engine.exchange_forced_card])
def test_the_exchange_on_a_constructed_pile(exchange):
    hands = {0: [1] * 10, 1: [8, 8, 3, 4, 5, 6, 7, 1, 2, 3]}
    staying = [2, 8, 5, 8, 6]  # bottom first: the topmost 8 is at index 3
    pile = constructed_pile(2, hands, staying)
    as_list = list(pile)
    arr = np.array(pile, np.int64)
    # Seat 1 holds two 8s; its first other card is the 3 dealt third.
    if exchange is ref.exchange_forced_card:
        held, done = exchange(as_list, 2, 8, 1)
        after = as_list
    else:
        held, done = exchange(arr, len(arr), 2, 8, 1)
        after = [int(x) for x in arr]
    assert (held, done) == (2, 1)
    hands_after = dealt_hands(after, 2)
    assert hands_after[1] == Counter([8, 8, 8, 4, 5, 6, 7, 1, 2, 3])
    assert hands_after[0] == Counter([1] * 10)
    assert after[:5] == [2, 8, 5, 3, 6]  # the given-up 3 takes the 8's place in the draw pile


@pytest.mark.parametrize("exchange", [ref.exchange_forced_card, engine.exchange_forced_card])
def test_no_exchange_when_the_seat_holds_only_that_value_or_none_is_left(exchange):
    def run(pile, card, seat):
        if exchange is ref.exchange_forced_card:
            return exchange(list(pile), 2, card, seat)
        return exchange(np.array(pile, np.int64), len(pile), 2, card, seat)

    pile = constructed_pile(2, {0: [1] * 10, 1: [2] * 10}, [3, 4])
    assert run(pile, 1, 0) == (10, 0)  # seat 0 holds nothing else
    assert run(pile, 5, 1) == (0, 0)  # no 5 left in the draw pile
    assert run(pile, 2, 0) == (0, 0)  # the only 2s are in seat 1's hand, not the draw pile
    assert run(pile, 4, 0) == (0, 1)


def test_only_the_forced_seat_and_one_draw_pile_card_change():
    base = make_setup(players=4, policies="greedy", seed=11)
    for game in range(30):
        plain = ref.new_game(base, game)
        for card in (1, 8):
            forced = ref.new_game(
                make_setup(players=4, policies="greedy", seed=11, forced_card=card, forced_seat=2),
                game,
            )
            assert forced.start_seat == plain.start_seat
            for seat in (0, 1, 3):
                assert forced.players[seat].hand == plain.players[seat].hand
            held, done = forced.forced
            assert held == plain.players[2].hand[card]
            if done:
                assert forced.players[2].hand[card] == held + 1
                assert sum(forced.players[2].hand.values()) == HAND_SIZE
                moved = [
                    i
                    for i, (a, b) in enumerate(zip(forced.draw_pile, plain.draw_pile, strict=True))
                    if a != b
                ]
                assert len(moved) == 1 and plain.draw_pile[moved[0]] == card


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("policies", ["greedy", "random", "balancer", "hoarder"])
def test_forced_games_match_the_reference(players, policies):
    for card in (1, 5, 8):
        setup = make_setup(
            players=players, policies=policies, seed=4, forced_card=card, forced_seat=players - 1
        )
        fast = join_chunks(play_chunks(setup, 60, trace=True))
        slow = ref.play_games(setup, 60, trace=True)
        assert set(fast) == set(slow)
        for name in slow:
            np.testing.assert_array_equal(fast[name], slow[name], err_msg=f"{card} {name}")
        assert set(FORCED_COLUMNS) <= set(fast)


def test_forcing_nothing_is_the_plain_run_and_greedy_lanes_agree():
    plain = join_chunks(play_chunks(make_setup(players=3, seed=9), 200))
    lanes_off = join_chunks(play_chunks(make_setup(players=3, seed=9), 200, lanes=False))
    for name in plain:
        np.testing.assert_array_equal(plain[name], lanes_off[name])
    assert not set(FORCED_COLUMNS) & set(plain)


def test_effect_cards_are_the_values_the_deck_holds():
    assert effect_cards(make_setup()) == [(v, f"value {v}") for v in range(1, 9)]


@pytest.mark.parametrize(
    ("options", "where"),
    [
        ({"forced_card": 9}, "forced_card"),
        ({"forced_card": -1}, "forced_card"),
        ({"forced_card": 3, "forced_seat": 3}, "forced_seat"),
    ],
)
def test_bad_interventions_are_named(options, where):
    with pytest.raises(FairysimError) as info:
        make_setup(players=3, **options)
    assert info.value.where == where
