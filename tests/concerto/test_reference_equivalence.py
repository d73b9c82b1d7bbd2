"""The jitted engine against the reference engine, game by game, and conservation of tokens and
cards in whole games."""

import numpy as np
import pytest

from fairysim.runtime.errors import IllegalChoiceError
from fairysim.sim.concerto import make_setup, play_chunks, reference
from fairysim.sim.concerto.rules import (
    COMPOSER,
    PICK_TOKEN,
    SOLO_KEEP_TOKENS,
    V_HAND,
    V_ROUND,
)
from fairysim.sim.policy import Policy, policy
from fairysim.sim.rng import randint

FORMS = {
    1: ("random", "greedy", "chaser", "maestro", "denier", "lookahead"),
    2: ("random", "greedy", "chaser", "maestro", "denier"),
    3: ("random", "greedy", "chaser", "maestro", "denier"),
    4: ("random", "greedy", "chaser", "maestro", "denier"),
}
KEYS = (
    "score",
    "rank",
    "win_share",
    "cards_held",
    "cards_completed",
    "held_mask",
    "completed_mask",
)
GAME_KEYS = (
    "soloist_card",
    "pianist_card",
    "harpist_card",
    "popularity_kind",
    "bag_left",
    "tokens_removed",
    "pile_left",
    "discarded",
)


def jitted(setup, games, first=0):
    ((_, arrays),) = list(play_chunks(setup, games, chunk_games=max(games, 1)))
    return arrays


def assert_same(setup, games):
    arrays = jitted(setup, games)
    for g, ref in enumerate(reference.play_games(setup, games)):
        for key in KEYS:
            assert list(arrays[key][g]) == list(ref[key]), (setup.players, g, key)
        for key in GAME_KEYS:
            assert arrays[key][g] == ref[key], (setup.players, g, key)
        assert [
            list(p)
            for p in np.stack(
                [
                    arrays[name][g]
                    for name in (
                        "popularity",
                        "conductor",
                        "soloist",
                        "pianist",
                        "harpist",
                        "score_cards",
                        "honors",
                    )
                ],
                axis=1,
            )
        ] == ref["parts"]


def lineups(players):
    names = FORMS[players]
    mixed = [names[(i + 1) % len(names)] for i in range(players)]
    return [[n] * players for n in names] + [mixed]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_engines_agree(players):
    for i, lineup in enumerate(lineups(players)):
        games = 40 if "lookahead" in lineup else 150
        assert_same(make_setup(players=players, policies=lineup, seed=11 + i), games)


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_engines_agree_20000_games(players):
    # 4 forms x >= 5,000 games each
    for i, lineup in enumerate(lineups(players)):
        games = 300 if "lookahead" in lineup else 5000 // len(lineups(players)) + 1
        assert_same(make_setup(players=players, policies=lineup, seed=100 + i), games)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_token_and_card_conservation(players):
    arrays = jitted(make_setup(players=players, policies="random", seed=3), 2000)
    orchestra = sum(
        arrays[f"n_{k}"] for k in ("trumpeter", "drummer", "violinist", "horn", "composer")
    )
    tokens = orchestra.sum(axis=1) + arrays["tokens_removed"] + arrays["bag_left"] + 1
    assert (tokens == 56).all()  # popularity token, orchestras, removed and bag
    cards = arrays["cards_held"].sum(axis=1) + arrays["pile_left"] + arrays["discarded"]
    assert (cards == 26).all()


@policy
def late_illegal_policy(decision, view, choices, n_choices, weights, rng):
    """Random, except an answer past the last choice when adding tokens from round 1 on with three
    composers or more in hand: the error falls in some later game, at a seat only the game
    decides."""
    adds_tokens = decision in (PICK_TOKEN, SOLO_KEEP_TOKENS)
    if adds_tokens and view[V_ROUND] >= 1 and view[V_HAND + COMPOSER] >= 3:
        return n_choices + 2
    return randint(rng, n_choices)


@pytest.mark.parametrize("players", [1, 4])
def test_illegal_answer_stops_both_engines_at_the_same_game(players):
    # one chunk on two threads: the second block may meet an error first, the lowest game wins
    bad = Policy("bad", late_illegal_policy)
    lineup = [bad] if players == 1 else ["greedy", bad, "random", bad]
    setup = make_setup(players=players, policies=lineup, seed=20)
    with pytest.raises(IllegalChoiceError) as from_reference:
        reference.play_games(setup, 400)  # stops at the first game with an illegal answer
    expected = from_reference.value
    assert expected.game > 0 and expected.decision in ("pick_token", "solo_keep_tokens")
    with pytest.raises(IllegalChoiceError) as from_engine:
        list(play_chunks(setup, 400, chunk_games=400, threads=2))
    got = from_engine.value
    assert [got.game, got.seat, got.decision, got.choice] == [
        expected.game,
        expected.seat,
        expected.decision,
        expected.choice,
    ]
    assert str(got) == str(expected)
