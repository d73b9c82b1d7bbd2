"""The fast engine's auction log (``play_auctions``): the reference engine's auctions, row for
row, and the same games as a run without it."""

from __future__ import annotations

import pandas as pd
import pytest

from fairysim.sim.fairyland import AUCTION_COLUMNS, make_setup, play_auctions, reference
from fairysim.sim.fairyland.engine import most_auctions
from fairysim.sim.fairyland.runs import simulate

from .auction_replay import record_auctions

SETUPS = [
    {"players": 2, "policies": "greedy", "seed": 3},
    {"players": 3, "policies": "value-bidder", "seed": 4, "court": "starred"},
    {
        "players": 4,
        "policies": ["value-bidder", "courtier", "majority-hunter", "flower-gardener"],
        "seed": 5,
    },
    {"players": 4, "policies": "random", "seed": 6, "court": "none"},
    {"players": 3, "policies": ["greedy", "random", "courtier"], "seed": 7},
]
GAMES = 6


@pytest.mark.parametrize("options", SETUPS, ids=lambda o: f"{o['players']}p-{o['seed']}")
def test_the_log_is_the_reference_engines_auctions_row_for_row(options):
    setup = make_setup(**options)
    fast = play_auctions(setup, GAMES, first_game=2)
    replayed = record_auctions(setup, GAMES, first_game=2)
    assert list(fast.columns) == list(AUCTION_COLUMNS)
    assert len(fast) > 10 * GAMES
    pd.testing.assert_frame_equal(fast, replayed, check_dtype=False)


def test_the_log_plays_the_runs_games():
    setup = make_setup(players=4, policies="value-bidder", seed=9)
    auctions = play_auctions(setup, 40)
    df = simulate(players=4, policies="value-bidder", games=40, seed=9)
    per_game = df.groupby("game").first()
    assert auctions.groupby("game").size().tolist() == per_game["auctions"].tolist()
    unbid = (~auctions["bid"]).groupby(auctions["game"]).sum()
    assert unbid.tolist() == per_game["unbid_clearings"].tolist()
    won = auctions[auctions["bid"]].groupby(["game", "winner"])
    by_seat = df.set_index(["game", "seat"])
    count = won.size().reindex(by_seat.index, fill_value=0)
    assert count.tolist() == by_seat["auctions_won"].tolist()
    # what the winners paid for clearings is part of what they paid in all (visits the rest)
    spent = won["price"].sum().reindex(by_seat.index, fill_value=0)
    assert (spent <= by_seat["value_paid"]).all()
    assert (spent < by_seat["value_paid"]).any()
    assert auctions.loc[~auctions["bid"], ["price", "fairies_paid", "prize"]].isna().all().all()
    assert (auctions["turn"].diff().fillna(1)[auctions["game"].diff() == 0] > 0).all()


def test_rows_do_not_depend_on_threads_or_where_the_run_starts():
    setup = make_setup(players=3, policies="courtier", seed=11)
    whole = play_auctions(setup, 12, threads=2)
    one_thread = play_auctions(setup, 12, threads=1)
    pd.testing.assert_frame_equal(whole, one_thread)
    tail = play_auctions(setup, 5, first_game=7)
    pd.testing.assert_frame_equal(
        tail, whole[whole["game"] >= 7].reset_index(drop=True), check_dtype=False
    )


def test_most_auctions_is_a_turn_for_every_two_cards_drawn():
    # 84 forest cards: 9 for the Druid deck, 3 to the clearings, 72 drawn 2 a Dawn (L2, L3)
    assert most_auctions(84) == 36
    assert most_auctions(85) == 37  # the last Dawn draws 1 card (L10)
    setup = make_setup(players=2, policies="random", seed=1)
    assert play_auctions(setup, 30).groupby("game")["turn"].max().max() < most_auctions(84)


def test_the_reference_engine_is_left_as_it_was():
    original = reference.explore
    record_auctions(make_setup(players=2, seed=1), 1)
    assert reference.explore is original


def test_bad_game_counts_are_refused():
    with pytest.raises(ValueError, match="games"):
        play_auctions(make_setup(players=2, seed=1), 0)


def test_without_bid_bonuses_every_won_auction_costs_a_fairy_or_more():
    """A bid is 1 or more (L5) and, with no bid bonus to count (a court of no effect, PL9),
    the winner plays fairies worth at least the bid (L14): one card or more, value 1 or more."""
    auctions = play_auctions(
        make_setup(players=4, policies="value-bidder", seed=2, court="none"), 20
    )
    won = auctions[auctions["bid"]]
    assert len(won) > 100
    assert (won["fairies_paid"] >= 1).all()
    assert (won["price"] >= 1).all()
