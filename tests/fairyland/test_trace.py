"""Each seat's standing after each round of turns (ruling PL11): the trace's shape, its last
round the final score, the fast engine equal to the reference game by game (the rulebook's deck,
and a card file whose last round is partial), a traced run the same games as an untraced one,
and the tidy rows named by the spec's prefix."""

from __future__ import annotations

import numpy as np
import pytest
from trace_checks import assert_a_trace_changes_no_game

from fairysim.sim.batch import join_chunks
from fairysim.sim.fairyland import make_setup, play_chunks, reference, simulate
from fairysim.sim.fairyland.rules import CARD_NAMES

from .test_reference_equivalence import CARD_FILE, lineup

ROUNDS = {2: 18, 3: 12, 4: 9}
"""Rounds of turns with the rulebook's deck: 36 turns (L18) in rounds of one turn a seat."""


def traced(setup, games, **options):
    return join_chunks(play_chunks(setup, games, trace=True, **options))


def reference_trace(setup, games, rounds):
    """The reference's standings in points, each game's last repeated to ``rounds`` rounds (a
    game shorter than the run's longest, PL11); its last standing is its final score."""
    rows = []
    for game in reference.play_games(setup, games, trace=True):
        seats = game["score_round"]
        assert [seat[-1] for seat in seats] == game["score"]
        rows.append([seat + [seat[-1]] * (rounds - len(seat)) for seat in seats])
    return np.array(rows) / 2  # half points (L11) to points


@pytest.fixture(scope="module")
def card_file(tmp_path_factory):
    """A 55-card forest: 43 cards after setup, so 22 turns, the last Dawn drawing one (L3)."""
    path = tmp_path_factory.mktemp("trace") / "cards.toml"
    path.write_text(CARD_FILE)
    return path


@pytest.mark.parametrize("players", sorted(ROUNDS))
def test_one_standing_per_seat_and_round_the_last_the_final_score(players):
    """PL11: 36 turns make 18, 12 and 9 rounds; the game ended after the last round is the
    game, so the last standing is the score."""
    setup = make_setup(players=players, policies=lineup(players, "mixed"), seed=11)
    arrays = traced(setup, 400)
    trace = arrays["score_round"]
    assert trace.shape == (400, players, ROUNDS[players])
    assert trace.dtype == arrays["score"].dtype
    assert (arrays["turns"] == 36).all()
    np.testing.assert_array_equal(trace[:, :, -1], arrays["score"])
    assert (trace * 2 == np.round(trace * 2)).all()  # exact halves (L11)
    # A first round scores little: no seat has two flowers of a colour yet at 4 players, and
    # a seat with no flower has the variety bonus's -5 (L11).
    assert (trace[:, :, 0] < trace[:, :, -1]).mean() > 0.8
    assert (trace[:, :, 0] <= -2).any()


@pytest.mark.parametrize("players", sorted(ROUNDS))
def test_a_trace_changes_no_game(players):
    setup = make_setup(players=players, policies=lineup(players, "mixed", offset=1), seed=4)
    assert_a_trace_changes_no_game(
        join_chunks(play_chunks(setup, 300)), traced(setup, 300), "score_round"
    )


@pytest.mark.parametrize(("players", "court"), [(2, "random"), (3, "starred"), (4, "none")])
def test_the_fast_trace_is_the_references_game_by_game(players, court):
    setup = make_setup(players=players, policies=lineup(players, "mixed"), seed=7, court=court)
    np.testing.assert_array_equal(
        traced(setup, 40, chunk_games=17)["score_round"],
        reference_trace(setup, 40, ROUNDS[players]),
    )


@pytest.mark.parametrize("players", [3, 4])
def test_a_partial_last_round_is_a_round(players, card_file):
    """22 turns: 8 rounds at 3 players and 6 at 4, the last of 1 and 2 turns (PL11). Forcing
    the deck's one unicorn out of the forest deck (PL10) leaves 21 turns in some games, whose
    final score is repeated in the rounds they lack."""
    setup = make_setup(players=players, policies=lineup(players, "mixed"), seed=5, cards=card_file)
    rounds = -(-22 // players)
    arrays = traced(setup, 30)
    assert arrays["score_round"].shape == (30, players, rounds)
    np.testing.assert_array_equal(arrays["score_round"], reference_trace(setup, 30, rounds))
    forced = make_setup(
        players=players,
        policies=lineup(players, "mixed"),
        seed=5,
        cards=card_file,
        forced_card=CARD_NAMES.index("unicorn"),
    )
    arrays = traced(forced, 30)
    assert set(arrays["turns"]) == {21, 22}
    assert arrays["score_round"].shape == (30, players, rounds)
    np.testing.assert_array_equal(arrays["score_round"], reference_trace(forced, 30, rounds))
    np.testing.assert_array_equal(arrays["score_round"][:, :, -1], arrays["score"])


def test_simulate_names_the_columns_by_the_spec_prefix():
    """The tidy rows carry score_round_1 .. _N (GameSpec.trace_prefix), none without trace."""
    from fairysim.sim.fairyland.spec import SPEC

    df = simulate(players=3, policies="greedy", games=50, seed=3, trace=True)
    columns = [c for c in df.columns if c.startswith(SPEC.trace_prefix)]
    assert columns == [f"score_round_{r}" for r in range(1, 13)]
    assert (df["score_round_12"] == df["score"]).all()
    plain = simulate(players=4, policies="greedy", games=20, seed=3)
    assert not any(c.startswith(SPEC.trace_prefix) for c in plain.columns)


@pytest.mark.slow  # compiles the searching kernel (minutes)
def test_a_searching_run_traces_the_same_games():
    """A rollout seat's play-outs record no standings; the real game records them after each
    round, and a traced run plays the games of an untraced one."""
    from fairysim.sim.fairyland import POLICIES

    policies = [POLICIES["rollout"].with_weights(rollouts=2), *["value-bidder"] * 2]
    setup = make_setup(players=3, policies=policies, seed=5)
    assert_a_trace_changes_no_game(
        join_chunks(play_chunks(setup, 6)), traced(setup, 6), "score_round"
    )
