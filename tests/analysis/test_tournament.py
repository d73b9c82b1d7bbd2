"""Tournaments over the game contract: mixes, seat rotation on identical deals, the head-to-head
matrix and the ratings (choix). Fast tests use the toy game under tests/highcard; the slow ones
rank random below greedy in each built-in game."""

from __future__ import annotations

from itertools import pairwise
from math import comb

import numpy as np
import pytest

from fairysim.analysis.tournament import play as tm
from fairysim.runtime.errors import FairysimError
from fairysim.sim import policy as policy_module
from fairysim.sim.game import get_game
from fairysim.sim.rotation import entry_labels


def test_mixes_are_every_multiset_with_two_distinct_entries():
    for entries, players in ((2, 2), (3, 3), (3, 4), (4, 5)):
        mixes = tm.tournament_mixes(entries, players)
        assert len(mixes) == comb(entries + players - 1, players) - entries
        assert len(set(mixes)) == len(mixes)
        assert all(len(set(mix)) > 1 and len(mix) == players for mix in mixes)


def test_entry_labels_tell_copies_apart():
    assert entry_labels(["greedy", "random", "greedy"]) == ("greedy", "random", "greedy#2")


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


def test_a_user_policy_compiles_once_per_tournament(tmp_path, monkeypatch):
    """A user policy is checked and compiled once, then seated in every (mix, rotation): a
    compile per (mix, rotation) cost a notebook's tournament 31 compiles."""
    (tmp_path / "tournament_user_policy.py").write_text(
        "def low(decision, view, choices, n_choices, weights, rng):\n    return 0\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    compiles = []
    compile_policy = policy_module._as_policy_function

    def counted(*args):
        compiles.append(args[1])
        return compile_policy(*args)

    monkeypatch.setattr(policy_module, "_as_policy_function", counted)
    t = tm.play_tournament(
        "highcard", policies="tournament_user_policy:low,stand,coin", players=3, games=50, seed=4
    )
    assert compiles == ["tournament_user_policy:low"]
    assert len(t.mixes) * 3 > 1  # the policy is seated in several (mix, rotation)s
    assert set(t.rows["entry"]) == {0, 1, 2}


@pytest.mark.parametrize(
    ("policies", "players", "where"),
    [
        ("stand", 2, "policies"),
        ("stand,nosuch", 2, "policies"),
        ("stand,", 2, "policies"),
        ("stand,coin", 9, "players"),
        ("stand,coin", 1, "players"),
    ],
)
def test_bad_input_names_the_option(policies, players, where):
    with pytest.raises(FairysimError) as error:
        tm.play_tournament("highcard", policies=policies, players=players, games=10)
    assert error.value.where == where


def test_a_sample_that_cannot_seat_every_pair_together_is_refused():
    """80 entries at 4 seats: 500 tables hold 3,000 seat pairs, fewer than the 3,160 pairs."""
    spec = get_game("highcard")
    with pytest.raises(FairysimError, match="balanced sample") as error:
        tm.check_tournament(spec, ",".join(["stand"] * 80), 4)
    assert error.value.where == "policies"


def test_full_enumeration_is_kept_where_it_fits():
    design = tm.tournament_design(9, 4)  # C(12, 4) - 9 = 486 mixes
    assert design.kind == "every mix" and design.mixes == tm.tournament_mixes(9, 4)
    assert design.every == 486


def _meetings(mixes, entries, players):
    """Meetings per ordered pair of distinct entries and seat occupancy per (entry, seat), per
    deal, counted table by table over every rotation (independently of mix_balance)."""
    meet = np.zeros((entries, entries), int)
    seat = np.zeros((entries, players), int)
    for mix in mixes:
        for rotation in range(players):
            seated = [mix[(s + rotation) % players] for s in range(players)]
            for s, entry in enumerate(seated):
                seat[entry, s] += 1
            for a in range(players):
                for b in range(players):
                    if a != b and seated[a] != seated[b]:
                        meet[seated[a], seated[b]] += 1
    return meet[~np.eye(entries, dtype=bool)], seat


@pytest.mark.parametrize(
    ("entries", "players", "exact"),
    [(10, 4, True), (13, 4, True), (14, 3, True), (8, 5, True), (30, 4, False), (50, 5, False)],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_balanced_sample_seats_and_pairs(entries, players, exact, seed):
    design = tm.tournament_design(entries, players, seed)
    assert design.kind == "balanced sample"
    assert design.every > tm.MAX_MIXES >= len(design.mixes)
    assert len(set(design.mixes)) == len(design.mixes)
    assert all(len(set(mix)) == players for mix in design.mixes)
    meet, seat = _meetings(design.mixes, entries, players)
    # Every entry occupies every seat equally often, exactly (the cyclic development).
    assert (seat == seat[0, 0]).all()
    assert design.seat_games == (seat[0, 0], seat[0, 0])
    # Every ordered pair meets; equally often where a difference family was found, else
    # within the measured spread, which the design reports.
    assert meet.min() >= 1
    assert design.pair_meetings == (meet.min(), meet.max())
    if exact:
        assert meet.min() == meet.max()
    else:
        assert meet.max() - meet.min() <= players
    assert tm.tournament_design(entries, players, seed).mixes == design.mixes


def test_balanced_sample_is_drawn_from_the_seed():
    assert tm.balanced_mixes(10, 4, 0) != tm.balanced_mixes(10, 4, 1)


def test_tournament_over_a_balanced_sample_balances_its_rows():
    """Ten entries at four seats (705 mixes in full) play the 30-table sample; the seat rows
    show every ordered pair meeting equally often and every entry at every seat equally."""
    names = ["stand", "coin", "redraw-low", "stand", "coin"] * 2
    t = tm.play_tournament("highcard", policies=names, players=4, games=6, seed=2)
    design = tm.tournament_design(10, 4, 2)
    assert t.mixes == design.mixes and len(t.mixes) == 30
    assert t.meta["config"]["mix_design"]["kind"] == "balanced sample"
    meetings = tm.pair_results(t).groupby(["row", "col"]).size()
    assert len(meetings) == 90 and meetings.nunique() == 1
    assert meetings.iloc[0] == design.pair_meetings[0] * 6
    seats = t.rows.groupby(["entry", "seat"]).size()
    assert len(seats) == 40 and seats.nunique() == 1


@pytest.fixture(scope="module")
def wide():
    """Fantastique at 2 players to a wide precision: one look."""
    return tm.play_tournament(
        "fantastique",
        policies="random,greedy",
        players=2,
        precision=0.2,
        first_look=40,
        max_games=320,
        seed=5,
    )


def test_wide_precision_stops_at_the_first_look(wide):
    reached = wide.precision
    assert reached.looks == [40] and reached.reached
    assert reached.planned == [40, 80, 160, 320]
    assert wide.games == 40 and wide.rows["game"].max() == 39
    assert wide.alpha == pytest.approx(0.05 / 4)
    matrix = tm.head_to_head(wide)
    widest = float(((matrix["high"] - matrix["low"]) / 2).max())
    assert 0 < widest <= 0.2 and reached.half_widths == [pytest.approx(widest)]
    np.testing.assert_allclose(matrix["level"], 1 - 0.05 / 4)
    meta = wide.meta["config"]["precision"]
    assert meta["asked"] == 0.2 and meta["games_per_pairing"] == 40
    assert meta["looks"] == [40] and not meta["stopped_by_cap"]


def test_narrow_precision_doubles_on_the_same_deals(wide):
    """Asked just inside the first look's width, the rule doubles; whatever it stops at, the
    games are those of a fixed tournament of that count, at another chunk size and thread
    count, and the first look's games are the wide run's."""
    asked = wide.precision.half_widths[0] * 0.9
    t = tm.play_tournament(
        "fantastique",
        policies="random,greedy",
        players=2,
        precision=asked,
        first_look=40,
        max_games=320,
        seed=5,
        chunk_games=7,
        threads=1,
    )
    reached = t.precision
    assert len(reached.looks) >= 2 and reached.looks == [40, 80, 160, 320][: len(reached.looks)]
    assert all(h > asked for h in reached.half_widths[:-1])
    assert reached.reached == (reached.half_widths[-1] <= asked)
    assert t.meta["config"]["precision"]["stopped_by_cap"] == (not reached.reached)
    fixed = tm.play_tournament(
        "fantastique", policies="random,greedy", players=2, games=t.games, seed=5
    )
    key = ["mix", "rotation", "game", "seat"]
    pd_cols = ["entry", "position", "win_share", "rank"]
    np.testing.assert_array_equal(
        t.rows[key + pd_cols].to_numpy(), fixed.rows[key + pd_cols].to_numpy()
    )
    first = t.rows[t.rows["game"] < 40].reset_index(drop=True)
    np.testing.assert_array_equal(first.to_numpy(), wide.rows.to_numpy())


@pytest.mark.parametrize(
    ("options", "where"),
    [
        ({"games": 10, "precision": 0.1}, "precision"),
        ({"precision": 0.7}, "precision"),
        ({"precision": 0.0}, "precision"),
        ({"games": 10, "max_games": 100}, "max_games"),
        ({"precision": 0.1, "max_games": 0}, "max_games"),
        ({"games": 0}, "games"),
    ],
)
def test_bad_counts_name_the_option(options, where):
    with pytest.raises(FairysimError) as error:
        tm.play_tournament("highcard", policies="stand,coin", players=2, **options)
    assert error.value.where == where


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


@pytest.mark.slow
@pytest.mark.parametrize("game", ["fantastique", "concerto", "fairyland"])
def test_the_ladder_rates_in_order_with_intervals_apart(game):
    """Each game's declared ladder (random < greedy < best heuristic), in one tournament: the
    ratings come out in that order with non-overlapping intervals."""
    ladder = get_game(game).ladder
    games = 300 if game == "fairyland" else 1_000
    t = tm.play_tournament(game, policies=list(ladder), players=3, games=games, seed=12)
    rating = tm.ratings(t).set_index("entry")
    for weaker, stronger in pairwise(ladder):
        assert rating.loc[stronger, "low"] > rating.loc[weaker, "high"], rating


SEARCHING_GAMES = [
    name for name in ("fantastique", "concerto", "fairyland") if get_game(name).search
]


@pytest.mark.slow
@pytest.mark.parametrize("game", SEARCHING_GAMES)
def test_random_rates_below_greedy_below_the_search_player(game):
    """Issue 26: random < greedy < rollout, rating intervals apart, at 3 players."""
    search = get_game(game).search
    games = 60 if game == "fairyland" else 200
    t = tm.play_tournament(
        game, policies=["random", "greedy", search], players=3, games=games, seed=13
    )
    rating = tm.ratings(t).set_index("entry")
    assert rating.loc["greedy", "low"] > rating.loc["random", "high"], rating
    assert rating.loc[search, "low"] > rating.loc["greedy", "high"], rating


def test_a_share_without_spread_still_has_an_interval():
    # One entry beat the other in each of 40 deals: a Wilson interval over the deals, not [1, 1].
    mean, low, high = tm._clustered_mean(np.ones(120), np.repeat(np.arange(40), 3))
    assert mean == 1.0 and high == pytest.approx(1.0) and 0.85 < low < 0.95
