"""Lanes (:mod:`fairysim.sim.concerto.lanes`) play the one-game engine's games, draw for draw.

The lane engine is only used for solo and 3-4 player tables where every seat plays greedy; each
such game must equal, column by column, the game the one-game engine plays (which the
reference-equivalence tests tie to the plain-Python engine). The cases cover the three player
counts and every soloist method, games that do not fill the last batch of lanes, runs that start
mid-way, two threads, composers that empty the score-card pile (C4: reshuffles, and draws from
two empty piles), and random card files.
"""

from __future__ import annotations

import dataclasses
from importlib import import_module

import numpy as np
import pytest
from lane_checks import assert_same_games, record_lane_calls

from fairysim.sim.batch import join_chunks
from fairysim.sim.concerto import lanes, load_cards, make_setup, play_chunks
from fairysim.sim.concerto.rules import COMPOSER, MIN_TOKENS, N_KINDS, N_SCORE_CARDS, SOLOISTS

# The module (the package's ``simulate`` is the function of that name).
simulate_module = import_module("fairysim.sim.concerto.runs")

CARDS = load_cards()


def assert_lanes_equal_one_game(setup, games: int, **options) -> dict[str, np.ndarray]:
    in_lanes = join_chunks(play_chunks(setup, games, lanes=True, **options))
    one_game = join_chunks(play_chunks(setup, games, lanes=False, **options))
    assert_same_games(in_lanes, one_game, f"{setup.players} players, seed {setup.seed}")
    return one_game


@pytest.mark.parametrize("players", lanes.PLAYER_COUNTS)
def test_lanes_play_the_one_game_engines_games(players):
    # 700 games: two full blocks and a third whose last batch of lanes is part-filled.
    assert lanes.GAMES_PER_LANE_BLOCK % lanes.LANES == 0
    assert 2 * lanes.GAMES_PER_LANE_BLOCK < 700 < 3 * lanes.GAMES_PER_LANE_BLOCK
    assert 700 % lanes.LANES != 0
    setup = make_setup(players=players, policies="greedy", seed=40 + players)
    assert_lanes_equal_one_game(setup, 700)


@pytest.mark.parametrize("players", [1, 4])
@pytest.mark.parametrize("soloist", SOLOISTS)
def test_lanes_for_every_soloist_method_and_fixed_setup_cards(soloist, players):
    # A fixed soloist makes every game of the batch score the same method; the other cards are
    # fixed too, so that every pianist and harpist card gets a run.
    i = SOLOISTS.index(soloist)
    setup = make_setup(
        players=players,
        policies="greedy",
        seed=7,
        soloist=soloist,
        pianist=CARDS.pianist_ids[i % len(CARDS.pianist_ids)],
        harpist=CARDS.harpist_ids[(i + 1) % len(CARDS.harpist_ids)],
    )
    assert_lanes_equal_one_game(setup, 300)


@pytest.mark.parametrize("players", [1, 4])
def test_lanes_with_small_chunks_two_threads_and_a_late_first_game(players):
    setup = make_setup(players=players, policies="greedy", seed=3)
    assert_lanes_equal_one_game(setup, 600, chunk_games=97, threads=2, first_game=12_345)
    assert_lanes_equal_one_game(setup, 5, threads=2)


def many_composers(composers: int) -> object:
    """The shipped cards with ``composers`` composer tokens in the bag and every score card
    asking for two more composers, so that greedy seats pick composers often."""
    tokens = CARDS.tokens.copy()
    tokens[COMPOSER] = composers
    need = CARDS.score_need.copy()
    need[:, COMPOSER] += 2
    return dataclasses.replace(
        CARDS, tokens=tokens, score_need=need, source=f"{composers} composers"
    )


@pytest.mark.parametrize("players", [3, 4])
def test_lanes_when_composers_empty_the_score_card_pile(players):
    one_game = assert_lanes_equal_one_game(
        make_setup(players=players, policies="greedy", seed=9, cards=many_composers(40)), 400
    )
    composers = one_game["n_composer"].sum(axis=1)
    drawn = 2 * players + 2 * composers  # setup cards, and two a composer (C4)
    assert (drawn > N_SCORE_CARDS).any()  # the discard pile was shuffled into a new pile
    held = one_game["cards_held"].sum(axis=1)
    # Both piles empty: a composer drew nothing, so some composer kept no card.
    assert (held < players + composers).any()


def test_solo_lanes_when_composers_empty_the_score_card_pile():
    one_game = assert_lanes_equal_one_game(
        make_setup(players=1, policies="greedy", seed=9, cards=many_composers(40)), 400
    )
    yours, pahhas = one_game["n_composer"][:, 0], one_game["n_composer"][:, 1]
    # C8: 2 setup cards and 2 a composer for you, 1 face down and 1 a composer for Pahha
    drawn = 3 + 2 * yours + pahhas
    assert (drawn > N_SCORE_CARDS).any()  # the discard pile was shuffled into a new pile
    # (Both piles empty would take all 26 cards held at once: 24 composers of 26 tokens.)


def test_lanes_on_random_card_files():
    """Thirty random card files: token counts, score-card needs and set cards."""
    rng = np.random.default_rng(12)
    for i in range(30):
        tokens = rng.integers(4, 41, N_KINDS)
        while tokens.sum() < MIN_TOKENS:
            tokens[rng.integers(0, N_KINDS)] += 5
        tokens = np.minimum(tokens, 40)
        need = rng.integers(0, 4, (N_SCORE_CARDS, N_KINDS)) * (rng.random((N_SCORE_CARDS, 1)) < 0.9)
        need = np.minimum(need, tokens)
        psets = rng.integers(0, 3, (3, N_KINDS))
        hsets = rng.integers(0, 3, (3, N_KINDS))
        psets[:, 0] += psets.sum(axis=1) == 0  # every set card shows a kind
        hsets[:, 1] += hsets.sum(axis=1) == 0
        cards = dataclasses.replace(
            CARDS,
            tokens=tokens.astype(np.int64),
            score_need=need.astype(np.int64),
            pianist_sets=psets.astype(np.int64),
            harpist_sets=hsets.astype(np.int64),
            source=f"random {i}",
        )
        setup = make_setup(
            players=lanes.PLAYER_COUNTS[i % 3], policies="greedy", seed=i, cards=cards
        )
        assert_lanes_equal_one_game(setup, 150, first_game=int(rng.integers(0, 10**9)))


def test_only_greedy_solo_and_draft_tables_play_in_lanes(monkeypatch):
    calls = record_lane_calls(monkeypatch, simulate_module)
    for setup, in_lanes in (
        (make_setup(players=3, policies="greedy", seed=5), True),
        (make_setup(players=4, policies="greedy", seed=5), True),
        (make_setup(players=4, policies=["greedy", "greedy", "greedy", "chaser"], seed=5), False),
        (make_setup(players=2, policies="greedy", seed=5), False),  # two-player rules (C7)
        (make_setup(players=1, policies="greedy", seed=5), True),  # solo (C8)
        (make_setup(players=1, policies="lookahead", seed=5), False),
    ):
        calls.clear()
        games = join_chunks(play_chunks(setup, 50))
        assert calls == ([setup.players] if in_lanes else [])
        assert games["score"].shape == (50, setup.seats)
    calls.clear()
    join_chunks(play_chunks(make_setup(players=4, policies="greedy", seed=5), 50, lanes=False))
    assert not calls


def test_solo_lanes_score_every_multiset_of_a_keep():
    # The lanes drop the one-game keep's padding, never a multiset.
    for keep in range(1, lanes.MAX_KEEP + 1):
        n = lanes.MULTISETS[keep]
        kinds = {tuple(lanes.KEEP_KINDS[keep, :, m]) for m in range(n)}
        assert len(kinds) == n and all(sum(k) == keep for k in kinds)
        padding = {tuple(lanes.KEEP_KINDS[keep, :, m]) for m in range(n, lanes.KEEP_SLOTS[keep])}
        assert padding <= {tuple(lanes.KEEP_KINDS[keep, :, 0])}


def one_hand_state(hand_row: int, kinds: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """A lane state (and its rows) where every game has an empty orchestra, no score card, soloist
    A, popularity kind 0, set cards that show no kind, and one token of each of ``kinds`` in the
    hand at ``hand_row``."""
    state = np.zeros(lanes.N_FIELDS * lanes.LANES, dtype=np.int64)
    rows = state.reshape(lanes.N_FIELDS, lanes.LANES)
    for seat in range(4):
        for slot in range(lanes.MAX_HELD):
            rows[lanes.need_row(seat, slot)] = lanes.NO_CARD_NEED  # kind 0: no card
    no_sets = int(sum(15 << (4 * x) for x in range(15)))  # greedy.NO_SETS at every count
    rows[lanes.PIANIST_WORDS : lanes.PIANIST_WORDS + N_KINDS] = no_sets
    rows[lanes.HARPIST_WORDS : lanes.HARPIST_WORDS + N_KINDS] = no_sets
    for kind in kinds:
        rows[hand_row + kind] = 1
    return state, rows


def test_a_draft_pick_takes_the_lowest_kind_on_a_tie_and_a_card_breaks_it():
    hand = lanes.hand_row(0, 0)
    state, rows = one_hand_state(hand, (1, 3))  # kinds 1 and 3 score alike
    lanes.pick_greedy_tokens(state, 0, hand, 1)
    assert (rows[lanes.PICK] == 1).all()  # greedy's first best choice, kinds ascending
    rows[lanes.need_row(0, 0) : lanes.need_row(0, 0) + N_KINDS] = [[0], [0], [0], [1], [0]]
    lanes.pick_greedy_tokens(state, 0, hand, 1)  # a held card one kind-3 token short
    assert (rows[lanes.PICK] == 3).all()
    assert (rows[lanes.GAIN + 3] == 1).all() and (rows[lanes.COMPLETE] == 0).all()


def test_a_solo_keep_takes_the_first_multiset_in_choice_order_on_a_tie():
    hand = lanes.solo_hand_row(0)
    state, rows = one_hand_state(hand, (1, 3))
    lanes.keep_greedy_tokens(state, 0, 1)  # round 1 keeps one token (C8)
    # multiset_choices lists (0, 0, 0, 1, 0) before (0, 1, 0, 0, 0): kind 3 comes first
    assert (rows[lanes.KEPT] == 1 << (lanes.KEEP_NIBBLE * 3)).all()
    rows[lanes.need_row(0, 0) : lanes.need_row(0, 0) + N_KINDS] = [[0], [1], [0], [0], [0]]
    lanes.keep_greedy_tokens(state, 0, 1)  # a held card one kind-1 token short
    assert (rows[lanes.KEPT] == 1 << (lanes.KEEP_NIBBLE * 1)).all()
