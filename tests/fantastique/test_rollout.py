"""Fantastique's ``rollout`` (fairysim.sim.search over .search and .engine): the search
contract's pieces, exact agreement with its play-out policy where it has nothing to search,
reproducibility, and (slow) its strength against the best heuristic."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import numba as nb
import numpy as np
import pytest

from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import join_chunks
from fairysim.sim.fantastique import engine, make_setup, play_chunks
from fairysim.sim.fantastique import reference as ref
from fairysim.sim.fantastique.policies import POLICIES
from fairysim.sim.fantastique.runs import search_context
from fairysim.sim.fantastique.search import copy_table, redraw_hidden
from fairysim.sim.game import get_game
from fairysim.sim.rng import new_stream, next_u64

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")


def rollout(**weights):
    return POLICIES["rollout"].with_weights(**weights)


def played(policies, games=60, players=4, seed=5, **kwargs):
    setup = make_setup(players=players, policies=policies, seed=seed, fan="II")
    return join_chunks(play_chunks(setup, games, **kwargs))


def test_without_rollouts_it_plays_exactly_as_its_playout_policy():
    for default in ("balancer", "hoarder", "random"):
        searching = played([rollout(rollouts=0, default=default), "balancer", "greedy"], players=3)
        plain = played([default, "balancer", "greedy"], players=3)
        for name in ("score", "rank", "win_share", "finale_count", "start_seat"):
            np.testing.assert_array_equal(searching[name], plain[name], err_msg=name)


def test_it_searches_and_wins_more_than_its_playout_policy_on_the_same_deals():
    searching = played([rollout(rollouts=8), "balancer", "balancer"], players=3, games=200)
    plain = played(["balancer", "balancer", "balancer"], players=3, games=200)
    assert (searching["score"][:, 0] != plain["score"][:, 0]).mean() > 0.5
    assert searching["win_share"][:, 0].mean() > plain["win_share"][:, 0].mean()


def test_the_same_seed_gives_the_same_games_at_any_thread_count_and_chunk_size():
    lineup = [rollout(rollouts=2), "balancer", "hoarder", rollout(rollouts=3, default="greedy")]
    threads = nb.get_num_threads()
    try:
        nb.set_num_threads(1)
        one = played(lineup, games=40, chunk_games=7)
    finally:
        nb.set_num_threads(threads)
    many = played(lineup, games=40, chunk_games=40)
    for name in ("score", "rank", "win_share"):
        np.testing.assert_array_equal(one[name], many[name], err_msg=name)


FRESH_PROCESS = """
from fairysim.sim.batch import join_chunks
from fairysim.sim.fantastique import engine, make_setup, play_chunks
setup = make_setup(players=3, policies="rollout,balancer,balancer", seed=3)
games = join_chunks(play_chunks(setup, 3))
print(sum(engine.play_games.stats.cache_misses.values()), games["win_share"].sum())
"""


def test_a_new_process_loads_the_searching_kernel_from_the_cache_and_plays():
    played([rollout(rollouts=1), "balancer", "balancer"], games=3, players=3)  # compiled here
    result = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS], capture_output=True, text=True, check=True
    )
    misses, shares = result.stdout.split()
    assert int(misses) == 0 and float(shares) == pytest.approx(3.0)  # no compile, 3 games


def dealt_table(players=4, seed=2):
    """A table after the deal of one game (no round played)."""
    setup = make_setup(players=players, policies="balancer", seed=seed)
    t = engine.new_table(setup.cards.total_cards)
    force = np.zeros(engine.FORCE_SIZE, np.int64)
    engine.setup_game(t, seed, 0, players, engine_deck(setup), force)
    return setup, t


def engine_deck(setup):
    from fairysim.sim.rng import lay_out_counts

    return lay_out_counts(setup.cards.deck_counts)


def unseen(t, seat, players):
    """The cards ``seat`` cannot see: the other hands and the draw pile, as a multiset."""
    cards = Counter(int(c) for c in t.pile[: t.counters[engine.PILE_LEN]])
    for s in range(players):
        if s != seat:
            cards.update({v: int(t.hands[s, v]) for v in range(1, 9) if t.hands[s, v]})
    return cards


def test_a_determinization_redeals_only_what_the_seat_cannot_see():
    setup, t = dealt_table()
    search = search_context(make_setup(players=4, policies=[rollout(), "balancer"] * 2))
    searcher = engine.Searcher(search, *[None] * (len(engine.Searcher._fields) - 1))
    det = engine.new_table(setup.cards.total_cards)
    copy_table(t, det)
    for name in engine.Table._fields:
        np.testing.assert_array_equal(getattr(det, name), getattr(t, name), err_msg=name)
    key = next_u64(new_stream(1, 0, 0))
    redraw_hidden(det, 1, key, searcher)
    np.testing.assert_array_equal(det.hands[1], t.hands[1])  # its own hand stays
    np.testing.assert_array_equal(det.hand_size, t.hand_size)  # every hand keeps its size
    assert det.counters[engine.PILE_LEN] == t.counters[engine.PILE_LEN]
    assert unseen(det, 1, 4) == unseen(t, 1, 4)  # the same cards, dealt afresh
    assert any((det.hands[s] != t.hands[s]).any() for s in (0, 2, 3))
    for s in range(4):
        assert det.hands[s].sum() == det.hand_size[s]
    again = engine.new_table(setup.cards.total_cards)
    copy_table(t, again)
    redraw_hidden(again, 1, key, searcher)
    np.testing.assert_array_equal(again.hands, det.hands)  # a key gives one determinization
    np.testing.assert_array_equal(again.pile, det.pile)


def test_the_reference_engine_refuses_a_searching_seat_in_one_line():
    setup = make_setup(players=3, policies=[rollout(), "greedy", "greedy"], seed=1)
    with pytest.raises(FairysimError, match="policies: rollout searches the fast engine"):
        ref.play_game(setup, 0)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rollout_beats_the_best_heuristic_clearly_from_every_seat(players):
    """One rollout seat (the ladder's: its default K, 16 at 2 players) among balancers, 300
    games with it at each seat."""
    search = get_game("fantastique").search_policy(players)
    shares = []
    for seat in range(players):
        lineup = ["balancer"] * players
        lineup[seat] = search
        shares.append(played(lineup, players=players, games=300, seed=11)["win_share"][:, seat])
    share = np.concatenate(shares)
    half_width = 1.96 * share.std(ddof=1) / np.sqrt(len(share))
    assert share.mean() - half_width > 1 / players + 0.05  # far above the fair share
