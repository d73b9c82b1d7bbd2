"""Greedy tables in lanes (:mod:`fairysim.sim.fantastique.lanes`) play the one-game engine's games.

The lane engine is only ever used for tables where every seat plays greedy; each such game must
equal, column by column, the game the one-game engine plays (which the reference-equivalence
tests tie to the rulebook engine). The cases cover every player count and Grande Finale fan, games
that do not fill the last batch of lanes, runs that start mid-way, reshuffles and decks that run
dry (F3), and decks whose counts are at the limit of the lanes' packed bytes and past it.
"""

from __future__ import annotations

from importlib import import_module

import numpy as np
import pytest
from lane_checks import assert_same_games, record_lane_calls

from fairysim.sim.batch import join_chunks
from fairysim.sim.fantastique import lanes, make_setup, play_chunks
from fairysim.sim.fantastique.cards import FantastiqueCards
from fairysim.sim.fantastique.rules import FANS

from . import CARDS

# The module (the package's ``simulate`` is the function of that name).
simulate_module = import_module("fairysim.sim.fantastique.runs")


def assert_lanes_equal_one_game(setup, games: int, **options) -> None:
    in_lanes = join_chunks(play_chunks(setup, games, trace=True, lanes=True, **options))
    one_game = join_chunks(play_chunks(setup, games, trace=True, lanes=False, **options))
    assert_same_games(
        in_lanes, one_game, f"{setup.players} players, fan {setup.fan}, seed {setup.seed}"
    )


def deck(counts: list[int], name: str) -> FantastiqueCards:
    return FantastiqueCards(
        np.array([0, *counts], dtype=np.int64), CARDS.medal_values, CARDS.finale_medals, name
    )


@pytest.mark.parametrize("fan", FANS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_lanes_play_the_one_game_engines_games(players, fan):
    # 700 games: two full batches of lanes and a part-filled third.
    setup = make_setup(
        players=players, fan=fan, policies="greedy", seed=90 + 10 * players + FANS.index(fan)
    )
    assert 2 * lanes.LANES < 700 < 3 * lanes.LANES
    assert_lanes_equal_one_game(setup, 700)


def test_lanes_with_small_chunks_two_threads_and_a_late_first_game():
    setup = make_setup(players=4, fan="III", policies="greedy", seed=3)
    assert_lanes_equal_one_game(setup, 600, chunk_games=97, threads=2, first_game=12_345)
    assert_lanes_equal_one_game(setup, 5, threads=2)


@pytest.mark.parametrize(
    "counts",
    [
        [12, 12, 12, 12, 2, 0, 0, 0],  # 5 players: nothing left to reveal in round 1 (F3)
        [60, 0, 0, 0, 0, 0, 0, 0],  # one value: seats run out of free fans (F4)
        [30, 30, 0, 0, 0, 0, 0, 0],
        [10, 10, 10, 10, 10, 10, 0, 0],  # reshuffles every few rounds
        [255, 255, 1, 0, 0, 0, 0, 255],  # the most a packed byte holds
    ],
)
@pytest.mark.parametrize("players", [2, 5])
def test_lanes_on_decks_that_run_dry_or_fill_a_byte(counts, players):
    cards = deck(counts, "variant")
    assert lanes.fits_lanes(cards.deck_counts)
    for fan in ("I", "IV", "VI"):
        setup = make_setup(
            players=players, fan=fan, policies="greedy", seed=17 + players, cards=cards
        )
        assert_lanes_equal_one_game(setup, 300)


def test_only_greedy_tables_that_fit_a_byte_play_in_lanes(monkeypatch):
    calls = record_lane_calls(monkeypatch, simulate_module)
    big = deck([256, 15, 14, 13, 12, 11, 10, 9], "big")
    assert not lanes.fits_lanes(big.deck_counts) and lanes.fits_lanes(CARDS.deck_counts)
    for setup, in_lanes in (
        (make_setup(players=3, fan="II", policies="greedy", seed=5), True),
        (
            make_setup(players=3, fan="II", policies="greedy", seed=5, cards=big),
            False,
        ),  # a count past a byte
        (make_setup(players=3, fan="II", policies=["greedy", "greedy", "hoarder"], seed=5), False),
    ):
        calls.clear()
        games = join_chunks(play_chunks(setup, 50))
        assert bool(calls) == in_lanes
        assert games["score"].shape == (50, 3)
    calls.clear()
    join_chunks(
        play_chunks(make_setup(players=3, fan="II", policies="greedy", seed=5), 50, lanes=False)
    )
    assert not calls


def test_reveal_card_follows_f2_stack_limit():
    """A fourth card of a value starts a new stack; a fifth joins it (F2)."""
    open_stack = stack_value = stack_size = n_stacks = 0
    for card in (3, 3, 3, 3, 5, 3):
        open_stack, stack_value, stack_size, n_stacks = lanes.reveal_card(
            open_stack, stack_value, stack_size, n_stacks, card
        )
    nibbles = [(stack_size >> (lanes.NIBBLE * s)) & lanes.NIBBLE_MASK for s in range(3)]
    values = [(stack_value >> (lanes.NIBBLE * s)) & lanes.NIBBLE_MASK for s in range(3)]
    assert n_stacks == 3
    assert values == [3, 3, 5]
    assert nibbles == [3, 2, 1]


def test_medal_words_hold_every_medal_of_a_row():
    values = np.array([1000, 1, 999, 512, 0, 7, 1000], dtype=np.int64)
    low = lanes.medal_word(values, 0)
    high = lanes.medal_word(values, lanes.MEDALS_PER_WORD)
    assert [lanes.medal_of(low, high, i) for i in range(len(values))] == list(values)


def test_stack_order_puts_value_before_count_for_any_fan():
    """F6 in lanes: a seat with a higher value goes first even against a fan of 17 cards."""
    state = np.zeros(lanes.N_FIELDS * lanes.LANES, dtype=np.int64)
    rows = state.reshape(lanes.N_FIELDS, lanes.LANES)
    rows[lanes.PLAYED + 0] = (17 << lanes.KEY_BITS) | 1  # seat 0: seventeen 1s
    rows[lanes.PLAYED + 1] = (1 << lanes.KEY_BITS) | 2  # seat 1: one 2
    rows[lanes.START] = 0
    lanes.order_seats(state, 3, True)
    seat_mask = (1 << 3) - 1
    assert [int(rows[lanes.SORT_WORDS + i, 0]) & seat_mask for i in range(3)] == [1, 0, 2]
    lanes.order_seats(state, 3, False)  # medals: count first
    assert [int(rows[lanes.SORT_WORDS + i, 0]) & seat_mask for i in range(3)] == [0, 1, 2]


def test_lanes_on_random_decks_and_medal_ladders():
    """Forty random card files (up to 255 cards of a value, medals up to 1,000 points)."""
    rng = np.random.default_rng(5)
    for i in range(40):
        counts = rng.integers(0, 40, 8)
        if rng.random() < 0.3:
            counts[rng.integers(0, 8)] = rng.integers(100, 256)
        players = int(rng.integers(2, 6))
        counts[0] += max(0, 10 * players - int(counts.sum()))
        medals = np.sort(rng.integers(0, 1001, (3, 7)), axis=1)
        cards = FantastiqueCards(
            np.array([0, *counts], dtype=np.int64), medals, CARDS.finale_medals, f"random {i}"
        )
        setup = make_setup(
            players=players, fan=FANS[i % len(FANS)], policies="greedy", seed=i, cards=cards
        )
        assert_lanes_equal_one_game(setup, 500, first_game=int(rng.integers(0, 10**9)))
