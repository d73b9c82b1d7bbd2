"""Each seat's standing after each round (ruling PC6) in every form: the trace's shape, its last
round the final score, the fast engine (one game at a time and in lanes) equal to the reference
game by game, and a traced run the same games as an untraced one."""

import numpy as np
import pytest
from trace_checks import assert_a_trace_changes_no_game

from fairysim.sim.batch import join_chunks
from fairysim.sim.concerto import make_setup, play_chunks, reference, simulate
from fairysim.sim.concerto.rules import form_rounds

MIXED = {
    1: ("maestro",),
    2: ("chaser", "random"),
    3: ("random", "greedy", "denier"),
    4: ("maestro", "denier", "greedy", "random"),
}
"""A lineup of several policies per form (solo: one player, Pahha the second seat, C8)."""

LANE_FORMS = (1, 3, 4)
"""The forms an all-greedy table plays in lanes (2 players play one game at a time)."""


def traced(setup, games, lanes=True):
    return join_chunks(play_chunks(setup, games, trace=True, lanes=lanes))


@pytest.mark.parametrize("players", sorted(MIXED))
def test_one_standing_per_seat_and_round_the_last_the_final_score(players):
    """PC6: rounds of the form (7 solo, 4 two players, 2 the draft), Pahha a seat in solo; the
    game ended after the last round is the game, so the last standing is the score."""
    setup = make_setup(players=players, policies=list(MIXED[players]), seed=11)
    arrays = traced(setup, 500, lanes=False)
    trace = arrays["score_round"]
    assert trace.shape == (500, setup.seats, form_rounds(players))
    assert trace.shape[2] == {1: 7, 2: 4}.get(players, 2)
    assert trace.dtype == arrays["score"].dtype
    np.testing.assert_array_equal(trace[:, :, -1], arrays["score"])
    assert (trace >= 0).all()
    assert (trace[:, :, 0] < trace[:, :, -1]).mean() > 0.9  # a first round is a part of a game


@pytest.mark.parametrize("players", sorted(MIXED))
def test_a_trace_changes_no_game(players):
    setup = make_setup(players=players, policies=list(MIXED[players]), seed=4)
    assert_a_trace_changes_no_game(
        join_chunks(play_chunks(setup, 300, lanes=False)),
        traced(setup, 300, lanes=False),
        "score_round",
    )


def reference_trace(setup, games):
    games_ = reference.play_games(setup, games, trace=True)
    for game in games_:  # the reference's last standing is its final score too
        assert [seat[-1] for seat in game["score_round"]] == game["score"]
    return np.array([game["score_round"] for game in games_])


@pytest.mark.parametrize("players", sorted(MIXED))
def test_the_fast_trace_is_the_references_game_by_game(players):
    setup = make_setup(players=players, policies=list(MIXED[players]), seed=7)
    np.testing.assert_array_equal(
        traced(setup, 150, lanes=False)["score_round"], reference_trace(setup, 150)
    )


@pytest.mark.parametrize("players", sorted(MIXED))
def test_greedy_tables_trace_the_references_games_in_lanes_and_one_at_a_time(players):
    """All-greedy tables: the lanes (solo and 3-4 players) and the one-game engine record the
    reference's standings; 2 players play one game at a time either way."""
    setup = make_setup(players=players, policies="greedy", seed=9)
    want = reference_trace(setup, 130)  # 130: a part-filled last batch of lanes
    for lanes in (True, False):
        np.testing.assert_array_equal(traced(setup, 130, lanes)["score_round"], want)
    if players in LANE_FORMS:  # and lanes' trace in chunks of any size
        chunked = join_chunks(play_chunks(setup, 130, trace=True, chunk_games=61))
        np.testing.assert_array_equal(chunked["score_round"], want)


def test_simulate_names_the_columns_by_the_spec_prefix():
    """The tidy rows carry score_round_1 .. _N (GameSpec.trace_prefix); Pahha's row in solo."""
    from fairysim.sim.concerto.spec import SPEC

    df = simulate(players=1, policies="greedy", games=50, seed=3, trace=True)
    columns = [c for c in df.columns if c.startswith(SPEC.trace_prefix)]
    assert columns == [f"score_round_{r}" for r in range(1, 8)]
    assert (df["score_round_7"] == df["score"]).all()
    assert df["policy"].astype(str).tolist()[:2] == ["greedy", "pahha"]
    plain = simulate(players=4, policies="greedy", games=20, seed=3)
    assert not any(c.startswith(SPEC.trace_prefix) for c in plain.columns)


@pytest.mark.slow  # compiles the searching kernel of the draft (minutes)
def test_a_searching_run_traces_the_same_games():
    """A rollout seat's play-outs record no standings (the plain loops); the real game records
    them after each round, and a traced run plays the games of an untraced one."""
    from fairysim.sim.concerto import POLICIES

    policies = [POLICIES["rollout"].with_weights(rollouts=2), *[POLICIES["chaser"]] * 3]
    setup = make_setup(players=4, policies=policies, seed=5)
    assert_a_trace_changes_no_game(
        join_chunks(play_chunks(setup, 40)), traced(setup, 40), "score_round"
    )
