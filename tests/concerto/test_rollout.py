"""The ``rollout`` search player (fairysim.sim.search) in every Fairy Concerto form: without
search it plays as its play-out policy, a run is a function of the seed alone, the engine's
search contract keeps what a seat sees, and (slow) it beats the best heuristic."""

import numba as nb
import numpy as np
import pytest

from fairysim.runtime.errors import FairysimError
from fairysim.sim.concerto import POLICIES, make_setup, play_chunks, reference
from fairysim.sim.concerto.engine import BAG_LEN, PILE_LEN, fill_view, new_table, setup_game
from fairysim.sim.concerto.rules import (
    HAND_SIZE,
    MAX_SEATS,
    N_KINDS,
    N_SCORE_CARDS,
    PAHHA,
    SOLO_DRAW,
)
from fairysim.sim.concerto.search import copy_table, redraw_hidden

ROLLOUT = POLICIES["rollout"]
FORMS = (1, 2, 4)


def play(setup, games, chunk_games=None):
    chunks = list(play_chunks(setup, games, chunk_games=chunk_games or games))
    return {key: np.concatenate([arrays[key] for _, arrays in chunks]) for key in chunks[0][1]}


def assert_same_runs(a, b):
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def lineup(players, searcher, seat=0, other="chaser"):
    policies = [POLICIES[other]] * players
    policies[seat] = searcher
    return policies


@pytest.mark.slow  # compiles this game's searching kernel (minutes)
@pytest.mark.parametrize("players", FORMS)
def test_without_rollouts_it_plays_as_its_playout_policy(players):
    """K = 0: every decision is the play-out policy's (asked with the seat's stream), so the
    whole run equals the run with chaser at that seat, row for row."""
    searcher = lineup(players, ROLLOUT.with_weights(rollouts=0), seat=players - 1)
    plain = lineup(players, POLICIES["chaser"], seat=players - 1)
    got = play(make_setup(players=players, policies=searcher, seed=5), 300)
    want = play(make_setup(players=players, policies=plain, seed=5), 300)
    assert_same_runs(got, want)


@pytest.mark.slow  # compiles this game's searching kernel (minutes)
def test_without_rollouts_it_plays_as_another_named_playout_policy():
    searcher = lineup(4, ROLLOUT.with_weights(rollouts=0, default="denier"), seat=1)
    got = play(make_setup(players=4, policies=searcher, seed=2), 200)
    want = play(make_setup(players=4, policies=lineup(4, POLICIES["denier"], seat=1), seed=2), 200)
    assert_same_runs(got, want)


@pytest.mark.slow  # compiles this game's searching kernel (minutes)
@pytest.mark.parametrize("players", FORMS)
def test_the_search_changes_decisions(players):
    """With rollouts the seat departs from its play-out policy in some games (a search that
    never changed a decision would pass the K = 0 test too)."""
    searcher = lineup(players, ROLLOUT.with_weights(rollouts=4))
    got = play(make_setup(players=players, policies=searcher, seed=7), 40)
    want = play(
        make_setup(players=players, policies=lineup(players, POLICIES["chaser"]), seed=7), 40
    )
    assert (got["score"] != want["score"]).any(axis=1).sum() > 5


@pytest.mark.slow  # compiles this game's searching kernel (minutes)
@pytest.mark.parametrize("players", FORMS)
def test_same_seed_same_games_at_any_thread_count_and_chunk_size(players):
    setup = make_setup(players=players, policies=lineup(players, ROLLOUT.with_weights(rollouts=3)))
    before = nb.get_num_threads()
    try:
        nb.set_num_threads(1)
        one = play(setup, 24, chunk_games=24)
        nb.set_num_threads(min(2, nb.config.NUMBA_NUM_THREADS))
        two = play(setup, 24, chunk_games=5)
    finally:
        nb.set_num_threads(before)
    assert_same_runs(one, two)


def test_the_reference_engine_refuses_rollout():
    setup = make_setup(players=3, policies="rollout,chaser,chaser")
    with pytest.raises(FairysimError) as info:
        reference.play_games(setup, 1)
    assert info.value.where == "policies"


def test_a_rollout_playing_out_with_lookahead_is_for_solo_only():
    with pytest.raises(FairysimError) as info:
        make_setup(players=4, policies=[ROLLOUT.with_weights(default="lookahead")] * 4)
    assert info.value.where == "policies"


def test_rollout_seats_of_one_run_play_out_with_one_policy():
    policies = [ROLLOUT, ROLLOUT.with_weights(default="greedy"), POLICIES["chaser"]]
    with pytest.raises(FairysimError) as info:
        make_setup(players=3, policies=policies)
    assert info.value.where == "weights"


def view_after_setup(players, seat, key):
    """A table after setup and the first hands (the first pick pending), and the view of
    ``seat`` before and after :func:`redraw_hidden` on a copy of it."""
    setup = make_setup(players=players, seed=11)
    cards = setup.cards
    tokens, need = cards.tokens, cards.score_need
    psets, hsets = cards.pianist_sets, cards.harpist_sets
    t = new_table(tokens, need, psets, hsets)
    setup_game(t, 11, 3, players, setup.fixed_setup())
    draw = HAND_SIZE if players > 1 else SOLO_DRAW[0]
    for s in range(max(players, 1)):
        for _ in range(draw):
            t.counters[BAG_LEN] -= 1
            t.hands[s, t.bag[t.counters[BAG_LEN]]] += 1
    det = new_table(tokens, need, psets, hsets)
    copy_table(t, det)
    redraw_hidden(det, seat, np.uint64(key), (players,))
    views = []
    for table in (t, det):
        fill_view(table, seat, players, 0, 0, 1, tokens, psets, hsets)
        views.append(table.seat_view.copy())
    return t, det, views


def hidden_cards(t, p, others, players):
    """The score cards a seat cannot see, sorted: the pile, the other seats' setup cards and
    (solo) Pahha's."""
    pahha = [*t.held[PAHHA, : t.n_held[PAHHA]]] if players == 1 else []
    return sorted([*t.pile[:p], *t.dealt[others].ravel(), *pahha])


@pytest.mark.parametrize(("players", "seat"), [(4, 2), (2, 0), (1, 0)])
def test_a_redraw_keeps_what_the_seat_sees_and_changes_what_it_does_not(players, seat):
    changed_hands = changed_cards = 0
    for key in range(20):
        t, det, (before, after) = view_after_setup(players, seat, key)
        np.testing.assert_array_equal(before, after)
        # tokens and cards are conserved: the same multiset of hidden tokens, dealt anew
        n = det.counters[BAG_LEN]
        hidden = np.bincount(t.bag[:n], minlength=N_KINDS) + t.hands[:players].sum(0)
        redrawn = np.bincount(det.bag[:n], minlength=N_KINDS) + det.hands[:players].sum(0)
        np.testing.assert_array_equal(hidden, redrawn)
        np.testing.assert_array_equal(t.hands[:players].sum(1), det.hands[:players].sum(1))
        p = t.counters[PILE_LEN]
        others = [s for s in range(players) if s != seat]
        assert hidden_cards(t, p, others, players) == hidden_cards(det, p, others, players)
        assert len(set(hidden_cards(det, p, others, players))) <= N_SCORE_CARDS
        changed_hands += not np.array_equal(t.hands[:MAX_SEATS], det.hands[:MAX_SEATS])
        changed_cards += not np.array_equal(t.pile[:p], det.pile[:p])
    assert changed_cards == 20
    assert changed_hands == (0 if players == 1 else 20)


@pytest.mark.slow
@pytest.mark.parametrize("players", [4, 3, 2])
def test_rollout_beats_the_best_heuristic(players):
    """One rollout seat (K = 16) among chaser seats, the seat rotated: its win share is far
    above 1/players, a 95 % interval clear of it."""
    games = 200
    shares = []
    for seat in range(players):
        setup = make_setup(players=players, policies=lineup(players, ROLLOUT, seat=seat), seed=9)
        shares.append(play(setup, games)["win_share"][:, seat])
    shares = np.concatenate(shares)
    mean = shares.mean()
    half = 1.96 * shares.std(ddof=1) / np.sqrt(len(shares))
    assert mean - half > 1 / players + 0.05, (mean, half)


@pytest.mark.slow
def test_solo_rollout_beats_the_best_heuristic_against_pahha():
    """Solo, on the same deals: rollout (K = 16, chaser playing out) wins clearly more often
    against Pahha than chaser alone, the paired difference's 95 % interval clear of +3 pp."""
    import pandas as pd

    from fairysim.stats.estimates import paired_difference

    games = 600
    shares = [
        pd.Series(play(make_setup(players=1, policies=[policy], seed=21), games)["win_share"][:, 0])
        for policy in (ROLLOUT, POLICIES["chaser"])
    ]
    diff = paired_difference(*shares)
    assert diff.low > 0.03, diff
