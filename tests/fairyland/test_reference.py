"""Whole games in the reference engine: card conservation, determinism, the random policy's draws
(RULINGS "Random policy", PL1), every decision reached, illegal answers refused."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from fairysim.runtime.errors import IllegalChoiceError
from fairysim.sim.fairyland.policies import POLICIES, random_policy
from fairysim.sim.fairyland.reference import play_game, play_games
from fairysim.sim.fairyland.rules import DECISIONS, HALF, PART_NAMES
from fairysim.sim.fairyland.setup import make_setup
from fairysim.sim.policy import Policy
from fairysim.sim.rng import FIRST_POLICY_STREAM, new_stream, randint


class Recorder:
    """The random policy, recording each offered decision, its choice count and answer."""

    def __init__(self):
        self.calls: list[tuple[int, int, int]] = []

    def __call__(self, decision, view, choices, n_choices, weights, rng) -> int:
        answer = int(random_policy(decision, view, choices, n_choices, weights, rng))
        self.calls.append((int(decision), int(n_choices), answer))
        return answer


def recording_setup(players: int, seed: int, court=None):
    recorders = [Recorder() for _ in range(players)]
    policies = [Policy("random", r, weights=()) for r in recorders]
    return make_setup(players=players, policies=policies, seed=seed, court=court), recorders


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("court", [None, "starred"])
def test_every_card_is_accounted_for_at_the_end(policy, players, court):
    setup = make_setup(players=players, policies=policy, seed=17, court=court)
    for result in play_games(setup, 4 if policy == "random" else 2):
        assert result["forest_accounted"] == 84
        assert result["court_accounted"] == 9
        assert result["turns"] == 36 and result["forest_left"] == 0
        assert bin(result["court_items"]).count("1") == 9
        held = [h | u for h, u in zip(result["items_held"], result["items_used"], strict=True)]
        assert all(h & ~result["court_items"] == 0 for h in held)  # only this game's items
        assert sum(bin(h).count("1") for h in held) + result["court_left"] == 9
        assert result["score"] == [sum(p) for p in result["parts"]]
        assert sorted(result["rank"]) == list(range(1, players + 1))
        assert sum(result["win_share"]) == 1.0
        assert sorted(result["turn_position"]) == list(range(players))
        if court == "starred":
            assert result["court_items"] == (1 << 9) - 1


def test_games_are_reproducible_and_differ_between_games():
    setup = make_setup(players=4, policies="random", seed=3)
    a, b = play_game(setup, 5), play_game(setup, 5)
    assert a == b
    assert play_game(setup, 6) != a
    assert play_game(make_setup(players=4, policies="random", seed=4), 5) != a


def test_random_policy_draws_one_number_per_offered_decision():
    setup, recorders = recording_setup(3, seed=21)
    result = play_game(setup, 2)
    assert result == play_game(make_setup(players=3, policies="random", seed=21), 2)
    for seat, recorder in enumerate(recorders):
        assert recorder.calls, f"seat {seat} was never asked"
        assert all(n >= 2 for _, n, _ in recorder.calls)  # PL1: no single-choice offer
        replay = new_stream(21, 2, FIRST_POLICY_STREAM + seat)
        assert [a for _, _, a in recorder.calls] == [
            randint(replay, n) for _, n, _ in recorder.calls
        ]


def test_every_decision_is_reached_in_random_games():
    reached = Counter()
    for seed in range(60):
        setup, recorders = recording_setup(4, seed=seed)
        play_game(setup, 0)
        for recorder in recorders:
            reached.update(DECISIONS[d] for d, _, _ in recorder.calls)
        if len(reached) == len(DECISIONS):
            break
    assert set(reached) == set(DECISIONS), f"never reached: {set(DECISIONS) - set(reached)}"


def test_random_policy_is_uniform_over_the_day_choices():
    counts = Counter()
    for game in range(40):
        setup, recorders = recording_setup(2, seed=9)
        play_game(setup, game)
        for recorder in recorders:
            counts.update(a for d, n, a in recorder.calls if d == DECISIONS.index("day") and n == 3)
    total = sum(counts.values())
    assert total > 300
    assert all(abs(counts[i] / total - 1 / 3) < 0.06 for i in range(3)), counts


def test_scores_are_in_half_points_and_parts_add_up():
    result = play_game(make_setup(players=2, policies="greedy", seed=1), 0)
    for seat in range(2):
        parts = dict(zip(PART_NAMES, result["parts"][seat], strict=True))
        assert parts["applause"] in (0, HALF * 2, HALF * 3)
        assert parts["variety"] % HALF == 0 and parts["flowers"] % HALF == 0
    winner = result["rank"].index(1)
    assert result["score"][winner] == max(result["score"])


def test_illegal_answer_is_refused_naming_game_seat_and_decision():
    def bad(decision, view, choices, n_choices, weights, rng):
        return n_choices

    setup = make_setup(players=2, policies=[Policy("bad", bad), POLICIES["random"]], seed=0)
    with pytest.raises(IllegalChoiceError, match=r"game 4, seat 0, decision \w+: choice"):
        play_game(setup, 4)


def test_greedy_beats_random_more_often_than_not():
    setup = make_setup(players=2, policies=["greedy", "random"], seed=12)
    wins = np.mean([r["win_share"][0] for r in play_games(setup, 20)])
    assert wins > 0.6
