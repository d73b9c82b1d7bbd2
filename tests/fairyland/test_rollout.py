"""The ``rollout`` search player (:mod:`fairysim.sim.fairyland.search` and the engine's play-out,
issue 26): it plays as its play-out policy at K = 0, the same games at any thread count and chunk
size, redraws only what no seat sees, is refused by the reference engine, and beats value-bidder
(slow)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import numba as nb
import numpy as np
import pytest

from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import join_chunks
from fairysim.sim.fairyland import engine
from fairysim.sim.fairyland.engine import PlayoutContext
from fairysim.sim.fairyland.policies import POLICIES
from fairysim.sim.fairyland.reference import play_games as reference_games
from fairysim.sim.fairyland.rules import (
    ITEM_UNSEEN,
    MAX_SEATS,
    N_CARD_TYPES,
    NO_CARD,
    V_CLEARING,
    V_CLEARING_SIZE,
    V_COLLECTED,
    V_COURT_LEFT,
    V_DAWN_CARDS,
    V_DRUIDS_LEFT,
    V_FOREST_LEFT,
    V_ITEM_STATE,
    V_ITEMS_HELD,
)
from fairysim.sim.fairyland.runs import play_chunks
from fairysim.sim.fairyland.search import copy_table, redraw_hidden, search_context
from fairysim.sim.fairyland.setup import make_setup
from fairysim.sim.policy import seat_functions
from fairysim.stats.estimates import wilson_interval

ROLLOUT = POLICIES["rollout"]


def run(policies, games: int, players: int = 4, seed: int = 7, **options):
    setup = make_setup(players=players, policies=policies, seed=seed)
    return join_chunks(play_chunks(setup, games, **options))


def assert_same_games(a, b) -> None:
    assert set(a) == set(b)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


@pytest.mark.slow  # compiles this game's searching kernel (minutes)
@pytest.mark.parametrize(
    ("default", "players", "seat"), [("value-bidder", 4, 1), ("greedy", 3, 0), ("random", 2, 1)]
)
def test_no_rollouts_play_exactly_as_the_play_out_policy(default, players, seat):
    searcher = ROLLOUT.with_weights(rollouts=0, default=default)
    lineup = ["value-bidder"] * players
    alone = list(lineup)
    lineup[seat] = searcher
    alone[seat] = default
    assert_same_games(run(lineup, 40, players), run(alone, 40, players))


@pytest.mark.slow  # compiles this game's searching kernel (minutes)
def test_rollouts_change_the_searching_seats_play():
    searcher = ROLLOUT.with_weights(rollouts=2)
    searched = run([searcher, "value-bidder"], 6, players=2)
    plain = run(["value-bidder", "value-bidder"], 6, players=2)
    assert not np.array_equal(searched["score"], plain["score"])


@pytest.mark.slow  # compiles this game's searching kernel (minutes)
@pytest.mark.skipif(nb.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_the_same_seed_plays_the_same_games_at_any_thread_count_and_chunk_size():
    lineup = [ROLLOUT.with_weights(rollouts=2), "value-bidder", "value-bidder"]
    one = run(lineup, 12, players=3, threads=1)
    assert_same_games(one, run(lineup, 12, players=3, threads=2, chunk_games=5))
    assert_same_games(one, run(lineup, 12, players=3, threads=2))


FRESH_PROCESS = """
from fairysim.sim.batch import join_chunks
from fairysim.sim.fairyland import engine
from fairysim.sim.fairyland.runs import play_chunks
from fairysim.sim.fairyland.setup import make_setup
setup = make_setup(players=2, policies="rollout,value-bidder", seed=3)
games = join_chunks(play_chunks(setup, 2))
print(sum(engine.play_games.stats.cache_misses.values()), games["win_share"].sum())
"""


@pytest.mark.slow  # compiles this game's searching kernel (minutes)
def test_a_new_process_loads_the_searching_kernel_from_the_cache_and_plays():
    run([ROLLOUT.with_weights(rollouts=1), "value-bidder"], 2, players=2)  # compiled here first
    result = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS], capture_output=True, text=True, check=True
    )
    misses, shares = result.stdout.split()
    assert int(misses) == 0 and float(shares) == 2.0  # no compile, and two games won


def test_the_reference_engine_refuses_rollout():
    setup = make_setup(players=2, policies="rollout,value-bidder", seed=1)
    with pytest.raises(FairysimError, match="rollout") as info:
        reference_games(setup, 1)
    assert "\n" not in str(info.value)


# --- The determinization ---------------------------------------------------------------------


def hidden_cards(t) -> Counter:
    """The forest cards a seat cannot see, read from the engine's hidden state."""
    v = t.public
    deck = list(t.forest[: v[V_FOREST_LEFT]])
    bottom = t.counters[engine.DRUID_BOTTOM]
    druids = [t.druids[(bottom + j) & engine.RING_MASK] for j in range(v[V_DRUIDS_LEFT])]
    return Counter(int(c) for c in deck + druids)


def mid_game_table(setup, seat: int):
    """A table after setup, then moved on by hand: two Dawn cards drawn, clearing 0 taken by
    ``seat``, clearing 1 swept into the box, the court's top item held by ``seat``."""
    cards = setup.cards
    court = np.ascontiguousarray(setup.court.table, dtype=np.int64)
    t = engine.new_table(cards.forest, court, cards.face_value, cards.majority)
    force = np.zeros(engine.FORCE_SIZE, np.int64)
    engine.setup_game(t, setup.seed, 3, setup.players, cards.crests_for(setup.players), force)
    v = t.public
    box = Counter()
    for c, into in ((0, "seat"), (1, "box")):
        for card in range(N_CARD_TYPES):
            count = v[V_CLEARING + c * N_CARD_TYPES + card]
            if into == "seat":
                v[V_COLLECTED + seat * N_CARD_TYPES + card] += count
            else:
                box[card] += count
                t.counters[engine.BOX] += count
            v[V_CLEARING + c * N_CARD_TYPES + card] = 0
        v[V_CLEARING_SIZE + c] = 0
    left = v[V_FOREST_LEFT]
    v[V_DAWN_CARDS] = t.forest[left - 1]
    v[V_DAWN_CARDS + 1] = t.forest[left - 2]
    v[V_FOREST_LEFT] = left - 2
    court_left = v[V_COURT_LEFT] - 1
    item = t.court[(t.counters[engine.COURT_BOTTOM] + court_left) & engine.RING_MASK]
    v[V_COURT_LEFT] = court_left
    v[V_ITEM_STATE + item] = seat
    v[V_ITEMS_HELD + seat] |= 1 << item
    return t, box


def test_a_redraw_keeps_the_view_and_deals_what_no_seat_sees():
    setup = make_setup(players=3, policies="rollout,value-bidder,greedy", seed=2)
    seated, search = search_context(setup.policies, setup.players, setup.cards.forest)
    context = PlayoutContext(search, seat_functions(seated, MAX_SEATS))
    t, box = mid_game_table(setup, seat=1)
    assert t.public[V_DAWN_CARDS] != NO_CARD and sum(box.values()) > 0
    cards = setup.cards
    court = np.ascontiguousarray(setup.court.table, dtype=np.int64)
    det = engine.new_table(cards.forest, court, cards.face_value, cards.majority)
    unseen_items = {
        i for i in range(setup.court.n_items) if t.public[V_ITEM_STATE + i] == ITEM_UNSEEN
    }
    orders = set()
    for key in range(1, 9):
        copy_table(t, det)
        redraw_hidden(det, 0, np.uint64(key), context)
        np.testing.assert_array_equal(det.public, t.public)
        # the deck and the Druid deck are drawn from the hidden cards and the box, same sizes
        drawn = hidden_cards(det)
        assert sum(drawn.values()) == sum(hidden_cards(t).values())
        assert not drawn - (hidden_cards(t) + box)
        deck = det.forest[: det.public[V_FOREST_LEFT]]
        orders.add(tuple(deck))
        bottom = det.counters[engine.COURT_BOTTOM]
        items = [
            det.court[(bottom + j) & engine.RING_MASK] for j in range(det.public[V_COURT_LEFT])
        ]
        assert len(set(items)) == len(items) and set(items) <= unseen_items
        assert det.deal_rng[0] != t.deal_rng[0] and det.policy_rng[0, 0] != t.policy_rng[0, 0]
    assert len(orders) == 8  # each key its own deal
    copy_table(t, det)
    redraw_hidden(det, 0, np.uint64(1), context)
    again = engine.new_table(cards.forest, court, cards.face_value, cards.majority)
    copy_table(t, again)
    redraw_hidden(again, 0, np.uint64(1), context)
    np.testing.assert_array_equal(det.forest, again.forest)  # a key gives one deal


# --- Strength (slow) -------------------------------------------------------------------------

STRENGTH_GAMES = 100
"""Games per seat of the searching seat: 400 games at 4 players, ~20-40 s on 2 cores."""


@pytest.mark.slow
@pytest.mark.parametrize(("players", "margin"), [(4, 0.1), (3, 0.1), (2, 0.05)])
def test_rollout_beats_value_bidder_clearly(players, margin):
    """One rollout seat among value-bidders, at each seat in turn: its win share's Wilson
    interval lies ``margin`` or more above the fair share."""
    wins = 0.0
    for seat in range(players):
        lineup = ["value-bidder"] * players
        lineup[seat] = "rollout"
        result = run(lineup, STRENGTH_GAMES, players=players, seed=100 + seat)
        wins += result["win_share"][:, seat].sum()
    games = players * STRENGTH_GAMES
    low, high = wilson_interval(wins, games)
    assert low > 1 / players + margin, (wins / games, low, high)
