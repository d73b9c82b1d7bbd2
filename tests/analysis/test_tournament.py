"""Tournaments over the game contract: mixes, seat rotation on identical deals, the head-to-head
matrix and the ratings (choix). Fast tests use the toy game under tests/highcard; the slow ones
rank random below greedy in each built-in game."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from fairysim.analysis import tournament as tm
from fairysim.errors import FairysimError
from fairysim.sim.game import get_game


def test_mixes_are_every_multiset_with_two_distinct_entries():
    for entries, players in ((2, 2), (3, 3), (3, 4), (4, 5)):
        mixes = tm.tournament_mixes(entries, players)
        assert len(mixes) == comb(entries + players - 1, players) - entries
        assert len(set(mixes)) == len(mixes)
        assert all(len(set(mix)) > 1 and len(mix) == players for mix in mixes)


def test_entry_labels_tell_copies_apart():
    assert tm.entry_labels(["greedy", "random", "greedy"]) == ("greedy", "random", "greedy#2")


@pytest.fixture(scope="module")
def ladder():
    """High card at 2 players: redraw-low is the sound policy, stand and coin weaker."""
    return tm.play_tournament(
        "highcard", policies="stand,redraw-low,coin", players=2, games=600, seed=3
    )


def test_every_entry_meets_every_seat_equally(ladder):
    rows = ladder.rows
    counts = rows.groupby(["entry", "seat"]).size().unstack()
    assert (counts.to_numpy() == counts.to_numpy()[0, 0]).all()
    assert len(rows) == len(ladder.mixes) * 2 * 600 * 2


def test_ratings_rank_the_sound_policy_first_with_separate_intervals(ladder):
    rating = tm.ratings(ladder).set_index("entry")
    best = rating.loc["redraw-low"]
    for weaker in ("stand", "coin"):
        assert best["low"] > rating.loc[weaker, "high"], rating
    assert (rating["low"] <= rating["rating"]).all() and (rating["rating"] <= rating["high"]).all()


def test_head_to_head_is_complementary_and_clustered(ladder):
    matrix = tm.head_to_head(ladder).set_index(["row", "col"])
    for (row, col), cell in matrix.iterrows():
        assert cell["share"] + matrix.loc[(col, row), "share"] == pytest.approx(1.0)
        assert cell["low"] < cell["share"] < cell["high"]
        assert cell["games"] == 600
    assert matrix.loc[("redraw-low", "stand"), "low"] > 0.5


def test_rotation_of_one_policy_against_itself_plays_identical_games():
    """Two entries of one policy: every rotation of a mix has the same seat policies, so if
    every rotation plays the same deals, their rows are identical game by game."""
    t = tm.play_tournament("highcard", policies="coin,coin", players=3, games=200, seed=5)
    rows = t.rows
    for _, mix in rows.groupby("mix"):
        by_rotation = [
            r.sort_values(["game", "seat"])[["game", "seat", "win_share", "rank"]].to_numpy()
            for _, r in mix.groupby("rotation")
        ]
        assert len(by_rotation) == 3
        for other in by_rotation[1:]:
            np.testing.assert_array_equal(by_rotation[0], other)
    # and the deals do change from game to game (the check is not vacuous)
    assert rows["win_share"].nunique() > 1


def test_two_copies_of_one_policy_rate_equal_within_their_interval():
    t = tm.play_tournament(
        "highcard", policies="redraw-low,stand,redraw-low", players=3, games=150, seed=7
    )
    rating = tm.ratings(t).set_index("entry")
    one, two = rating.loc["redraw-low"], rating.loc["redraw-low#2"]
    assert one["low"] <= two["rating"] <= one["high"]
    assert two["low"] <= one["rating"] <= two["high"]
    assert one["low"] > rating.loc["stand", "high"]


@pytest.mark.parametrize(
    ("policies", "players", "where"),
    [
        ("stand", 2, "--policies"),
        ("stand,nosuch", 2, "--policies"),
        ("stand,", 2, "--policies"),
        ("stand,coin", 9, "--players"),
        ("stand,coin", 1, "--players"),
    ],
)
def test_bad_input_names_the_option(policies, players, where):
    with pytest.raises(FairysimError) as error:
        tm.play_tournament("highcard", policies=policies, players=players, games=10)
    assert error.value.where == where


def test_too_many_mixes_are_refused():
    spec = get_game("highcard")
    with pytest.raises(FairysimError, match="mixes"):
        tm.check_tournament(spec, ",".join(["stand"] * 40), 4)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["fantastique", "concerto", "fairyland"])
def test_random_rates_below_greedy_on_shared_deals(game):
    spec = get_game(game)
    players = 3
    games = 300 if game == "fairyland" else 2_000
    t = tm.play_tournament(game, policies="random,greedy", players=players, games=games, seed=11)
    rating = tm.ratings(t).set_index("entry")
    assert rating.loc["greedy", "low"] > rating.loc["random", "high"], rating
    # The deal, start seat included, is the same in every pairing: position 0's seat is the
    # start seat, one per game index whatever the policies.
    rows = t.rows
    start = (rows["seat"].astype(int) - rows["position"].astype(int)) % players
    assert (start.groupby(rows["game"]).nunique() == 1).all()
    assert spec.max_players >= players
