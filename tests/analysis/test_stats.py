"""Statistics helpers on constructed data with known answers."""

from __future__ import annotations

import gc
import math

import numpy as np
import pandas as pd
import pytest

from fairysim.stats.estimates import (
    Z_95,
    adjust_p_values,
    chi2_sf,
    correct_verdicts,
    decisiveness,
    excludes,
    flag_difference,
    game_blocks,
    lead_change_summary,
    lead_changes,
    max_gap,
    normal_p_value,
    paired_difference,
    proportion_p_value,
    seat_advantage,
    seat_test,
    significance_label,
    trace_columns,
    wilson_interval,
    win_rates,
    winning_margins,
)


def wilson_by_formula(s: float, n: float, z: float = Z_95) -> tuple[float, float]:
    """The textbook Wilson score interval, written independently of the module."""
    p = s / n
    centre = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z / (1 + z**2 / n) * math.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    return centre - half, centre + half


def tidy(rows: list[tuple], columns=("game", "seat", "score", "win_share")) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(columns))


# --------------------------------------------------------------------------------------------
# Wilson


@pytest.mark.parametrize("successes", [0, 5, 10])
def test_wilson_matches_formula_out_of_10(successes):
    low, high = wilson_interval(successes, 10)
    expected_low, expected_high = wilson_by_formula(successes, 10)
    assert float(low) == pytest.approx(max(expected_low, 0.0), abs=1e-12)
    assert float(high) == pytest.approx(min(expected_high, 1.0), abs=1e-12)


def test_wilson_known_values():
    low, high = wilson_interval([0, 5, 10], [10, 10, 10])
    # 0/10 and 10/10: one bound is exact, the other is z^2 / (n + z^2).
    assert low[0] == 0.0 and high[2] == 1.0
    assert high[0] == pytest.approx(Z_95**2 / (10 + Z_95**2), rel=1e-12)
    assert low[2] == pytest.approx(1 - Z_95**2 / (10 + Z_95**2), rel=1e-12)
    assert (low[1], high[1]) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert low[1] + high[1] == pytest.approx(1.0)  # symmetric around 1/2


def test_wilson_fractional_ties_and_empty():
    low, high = wilson_interval(2.5, 10)  # a shared win counts half
    assert (float(low), float(high)) == pytest.approx(wilson_by_formula(2.5, 10))
    low, high = wilson_interval(0, 0)
    assert math.isnan(float(low)) and math.isnan(float(high))


def test_wilson_narrows_with_more_games_and_lower_confidence():
    w10 = np.diff(wilson_interval(5, 10))[0]
    w1000 = np.diff(wilson_interval(500, 1000))[0]
    w10_z1 = np.diff(wilson_interval(5, 10, z=1.0))[0]
    assert w1000 < w10 and w10_z1 < w10


# --------------------------------------------------------------------------------------------
# Significance and paired differences


def test_excludes_and_labels():
    assert excludes(0.1, 0.2) and not excludes(-0.1, 0.2)
    assert excludes(0.3, 0.4, value=0.25)
    assert not excludes(math.nan, 1.0)
    assert list(excludes([0.1, -0.1], [0.2, 0.1])) == [True, False]
    assert significance_label(-0.01, 0.02) == "not significant"
    assert significance_label(0.01, 0.02) == "significant"


def test_paired_difference_constant_shift_is_exact():
    games = np.arange(50)
    b = pd.Series(np.linspace(0, 1, 50), index=games)
    d = paired_difference(b + 0.1, b)
    assert d.mean == pytest.approx(0.1)
    assert d.se == pytest.approx(0.0, abs=1e-12)
    assert d.n == 50
    assert d.significant and d.verdict == "significant"


def test_paired_difference_known_values_and_not_significant():
    a = pd.Series([1.0, 0.0, 1.0, 0.0], index=[10, 11, 12, 13])
    b = pd.Series([0.0, 1.0, 0.0, 1.0], index=[10, 11, 12, 13])
    d = paired_difference(a, b)
    diffs = np.array([1.0, -1.0, 1.0, -1.0])
    se = diffs.std(ddof=1) / 2
    assert (d.mean, d.se, d.n) == pytest.approx((0.0, se, 4))
    assert (d.low, d.high) == pytest.approx((-Z_95 * se, Z_95 * se))
    assert not d.significant and d.verdict == "not significant"
    assert d.to_dict()["significant"] is False


def test_paired_difference_uses_common_games_only():
    a = pd.Series([1.0, 1.0, 1.0, np.nan], index=[0, 1, 2, 3])
    b = pd.Series([0.0, 0.0, 0.5, 0.0, 0.0], index=[1, 2, 3, 4, 5])
    d = paired_difference(a, b)  # common non-missing games: 1 and 2
    assert d.n == 2
    assert d.mean == pytest.approx(1.0)


def test_paired_difference_degenerate():
    one = paired_difference(pd.Series([1.0]), pd.Series([0.0]))
    assert one.n == 1 and one.mean == 1.0 and math.isnan(one.se) and not one.significant
    none = paired_difference(pd.Series([1.0], index=[0]), pd.Series([0.0], index=[1]))
    assert none.n == 0 and math.isnan(none.mean) and not none.significant


def test_paired_difference_interval_covers_truth_about_95_percent():
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(400):
        b = pd.Series(rng.random(200) < 0.5, dtype=float)
        a = pd.Series(rng.random(200) < 0.55, dtype=float)
        d = paired_difference(a, b)
        hits += d.low <= 0.05 <= d.high
    assert 0.90 <= hits / 400 <= 0.99


@pytest.mark.parametrize(
    ("x", "dof", "expected"),
    [
        (3.841458820694124, 1, 0.05),
        (5.991464547107979, 2, 0.05),
        (7.814727903251178, 3, 0.05),
        (9.487729036781154, 4, 0.05),
        (0.5, 1, 0.4795001221869535),
        (1.0, 3, 0.8012519569012008),
        (2.0, 2, math.exp(-1.0)),
        (0.0, 4, 1.0),
    ],
)
def test_chi2_sf_known_values(x, dof, expected):
    assert chi2_sf(x, dof) == pytest.approx(expected, rel=1e-9)


# --------------------------------------------------------------------------------------------
# Win rates and seats


def test_win_rates_counts_ties_fractionally():
    df = tidy(
        [
            (0, 0, 10, 1.0), (0, 1, 5, 0.0),
            (1, 0, 7, 0.5), (1, 1, 7, 0.5),
            (2, 0, 1, 0.0), (2, 1, 9, 1.0),
            (3, 0, 9, 1.0), (3, 1, 2, 0.0),
        ]
    )  # fmt: skip
    rates = win_rates(df, by="seat")
    assert list(rates["games"]) == [4, 4]
    assert list(rates["wins"]) == [2.5, 1.5]
    assert list(rates["win_share"]) == [0.625, 0.375]
    low, high = wilson_interval(2.5, 4)
    assert rates.loc[0, "low"] == pytest.approx(float(low))
    assert rates.loc[0, "high"] == pytest.approx(float(high))
    assert max_gap(rates) == pytest.approx(0.25)


def test_seat_advantage_detects_a_dominant_seat():
    n = 200
    rows = [(g, s, 0, 1.0 if s == 0 else 0.0) for g in range(n) for s in range(2)]
    df = tidy(rows).assign(players=2)
    seats = seat_advantage(df)
    assert list(seats["seat"]) == [0, 1]
    assert list(seats["fair"]) == [0.5, 0.5]
    assert list(seats["advantage"]) == [0.5, -0.5]
    assert seats["significant"].all()
    test = seat_test(df)
    assert test.loc[0, "chi2"] == pytest.approx(n)  # (200-100)^2/100 + (0-100)^2/100
    assert test.loc[0, "dof"] == 1 and test.loc[0, "p_value"] < 1e-6
    assert bool(test.loc[0, "significant"])


def test_seat_advantage_balanced_seats_not_significant():
    n, players = 300, 3
    rows = [(g, s, 0, float(g % players == s)) for g in range(n) for s in range(players)]
    df = tidy(rows)  # no players column: inferred from the seats
    seats = seat_advantage(df)
    assert seats["win_share"].tolist() == pytest.approx([1 / 3] * 3)
    assert not seats["significant"].any()
    test = seat_test(df)
    assert test.loc[0, "chi2"] == pytest.approx(0.0)
    assert test.loc[0, "p_value"] == pytest.approx(1.0)
    assert not bool(test.loc[0, "significant"])


def test_seat_advantage_splits_player_counts_and_groups():
    two = tidy([(g, s, 0, float(s == 0)) for g in range(20) for s in range(2)]).assign(
        players=2, fan="I"
    )
    three = tidy([(g, s, 0, float(s == 1)) for g in range(30) for s in range(3)]).assign(
        players=3, fan="II"
    )
    seats = seat_advantage(pd.concat([two, three]), by="fan")
    assert len(seats) == 5
    assert seats.groupby("players")["win_share"].sum().tolist() == pytest.approx([1.0, 1.0])
    assert set(seat_test(pd.concat([two, three]), by="fan")["dof"]) == {1, 2}


# --------------------------------------------------------------------------------------------
# Decisiveness and lead changes


def test_winning_margins_and_decisiveness():
    df = tidy(
        [
            (0, 0, 30, 1.0), (0, 1, 20, 0.0), (0, 2, 25, 0.0),
            (1, 0, 10, 0.0), (1, 1, 18, 1.0), (1, 2, 18, 0.0),  # top score tied
        ]
    ).assign(players=3)  # fmt: skip
    margins = winning_margins(df)
    assert margins["margin"].tolist() == [5, 0]
    summary = decisiveness(df)
    assert summary.loc[0, "games"] == 2
    assert summary.loc[0, "mean_margin"] == pytest.approx(2.5)
    assert summary.loc[0, "tied_on_points"] == pytest.approx(0.5)


def test_game_blocks_sorts_and_checks():
    df = tidy([(1, 1, 4, 0.0), (0, 1, 2, 0.0), (1, 0, 3, 1.0), (0, 0, 1, 1.0)]).assign(players=2)
    ((key, games, values),) = list(game_blocks(df, ["score"]))
    assert key == {"players": 2}
    assert games.tolist() == [0, 1]
    assert values[:, :, 0].tolist() == [[1, 2], [3, 4]]
    with pytest.raises(ValueError, match="one row per seat"):
        list(game_blocks(df.iloc[:3], ["score"]))


def trace_frame(rounds_by_game: list[list[list[int]]]) -> pd.DataFrame:
    """Per game a list of per-round running totals, one list per round: [[seat0, seat1], ...]."""
    rows = []
    for g, rounds in enumerate(rounds_by_game):
        players = len(rounds[0])
        for s in range(players):
            row = {"game": g, "seat": s, "players": players, "win_share": 0.0}
            for r, totals in enumerate(rounds, start=1):
                row[f"medal_points_round_{r}"] = totals[s]
            rows.append(row)
    return pd.DataFrame(rows)


def test_lead_changes_counts_only_sole_leads_taken_from_another_seat():
    df = trace_frame(
        [
            [[3, 0], [3, 5], [9, 5], [9, 9], [9, 12]],  # 0 leads, 1, 0, tie, 1: 3 changes
            [[1, 0], [2, 0], [3, 3], [4, 3], [5, 3]],  # 0 leads, tie, 0 again: no change
            [[0, 0], [0, 0], [0, 4], [6, 4], [6, 6]],  # no leader, then 1, then 0: 1 change
        ]
    )
    prefix = "medal_points_round_"
    assert trace_columns(df, prefix) == [f"medal_points_round_{r}" for r in range(1, 6)]
    assert lead_changes(df, prefix=prefix)["lead_changes"].tolist() == [3, 0, 1]
    summary = lead_change_summary(df, prefix=prefix)
    assert summary.loc[0, "mean_lead_changes"] == pytest.approx(4 / 3)
    assert summary.loc[0, "no_lead_change"] == pytest.approx(1 / 3)


def test_lead_changes_needs_trace():
    with pytest.raises(ValueError, match="trace"):
        lead_changes(tidy([(0, 0, 1, 1.0), (0, 1, 0, 0.0)]))
    with pytest.raises(ValueError, match="trace"):
        lead_changes(tidy([(0, 0, 1, 1.0), (0, 1, 0, 0.0)]), prefix="points_round_")


def test_the_trace_prefix_is_the_one_the_frames_game_declares():
    """Shared code names no game's columns: the prefix comes from the game's spec."""
    from fairysim.sim.game import games
    from fairysim.stats import estimates as stats

    assert not hasattr(stats, "TRACE_PREFIX")
    declared = {name: spec.trace_prefix for name, spec in games().items()}
    assert declared["fantastique"] == "medal_points_round_"
    assert declared["concerto"] == "score_round_"  # each seat's standing, ruling PC6
    assert declared["fairyland"] == "score_round_"  # after each round of turns, ruling PL11
    assert declared["highcard"] is None  # the toy game of tests/highcard
    df = trace_frame([[[1, 0], [1, 2]]])
    df.attrs["fairysim"] = {"game": "fantastique"}
    assert stats.trace_prefix(df) == "medal_points_round_"
    assert trace_columns(df) == ["medal_points_round_1", "medal_points_round_2"]
    df.attrs["fairysim"] = {"game": "highcard"}
    with pytest.raises(ValueError, match="records no per-round totals"):
        trace_columns(df)


def test_on_simulated_results():
    """The helpers accept simulate()'s real frames (categoricals, compact ints, trace)."""
    from fairysim.sim.fantastique import simulate

    df = simulate(players=3, fan="II", policies="greedy", games=300, seed=5, trace=True)
    rates = win_rates(df, by="seat")
    assert rates["win_share"].sum() == pytest.approx(1.0)
    assert seat_test(df).loc[0, "games"] == 300
    margins = winning_margins(df)
    assert len(margins) == 300 and (margins["margin"] >= 0).all()
    changes = lead_changes(df)
    assert len(changes) == 300 and (changes["lead_changes"] >= 0).all()
    assert (changes["lead_changes"] <= 6).all()  # at most one per round after the first


# --------------------------------------------------------------------------------------------
# Many comparisons


def test_holm_by_hand():
    # Holm: sorted p times (m, m-1, ...), made monotone: 0.01*3, max(0.03*2, .03), max(.04, .06)
    p = [0.04, 0.01, 0.03, math.nan]
    adjusted = adjust_p_values(p)
    assert adjusted[:3] == pytest.approx([0.06, 0.03, 0.06])
    assert math.isnan(adjusted[3])  # nothing tested: left out of the family
    bh = adjust_p_values(p, "fdr_bh")
    assert bh[:3] == pytest.approx([0.04, 0.03, 0.04])
    with pytest.raises(ValueError, match="method"):
        adjust_p_values(p, "bonferonni")


def test_correct_verdicts_follow_the_corrected_test():
    table = pd.DataFrame({"p_value": [0.04, 0.01, 0.03, math.nan], "significant": True})
    out = correct_verdicts(table)
    assert out["significant"].tolist() == [False, True, False, False]
    assert table["significant"].all()  # the input is left alone


def test_p_values_agree_with_the_intervals():
    assert float(normal_p_value(Z_95, 1.0)) == pytest.approx(0.05)
    assert math.isnan(float(normal_p_value(1.0, 0.0)))
    # the score test rejects exactly where the Wilson interval excludes the value
    for wins in range(20, 45):
        low, high = wilson_interval(wins, 100)
        p = float(proportion_p_value(wins, 100, 0.25))
        assert (p < 0.05) == bool(excludes(low, high, 0.25)), wins


def test_flag_difference_clusters_by_group():
    rng = np.random.default_rng(1)
    games = 400
    # two seats a game, one winner: the flag marks seat 0, which wins 60 % of games
    win0 = (rng.random(games) < 0.6).astype(float)
    values = np.column_stack([win0, 1 - win0]).ravel()
    flag = np.tile([True, False], games)
    groups = np.repeat(np.arange(games), 2)
    diff, se, low, high, p = flag_difference(values, flag, groups)
    assert diff == pytest.approx(2 * win0.mean() - 1)
    # within a game the two values are perfectly anti-correlated: the clustered standard error
    # is that of the per-game difference 2 * win0 - 1
    assert se == pytest.approx(np.std(2 * win0 - 1, ddof=1) / math.sqrt(games), rel=0.01)
    assert low < diff < high and p < 0.05
    assert all(math.isnan(v) for v in flag_difference(values, np.ones_like(flag), groups))


@pytest.mark.parametrize("method", ["holm", "fdr_bh"])
def test_multipletests_is_statsmodels_less_its_garbage_collection(monkeypatch, method):
    from statsmodels.stats.multitest import multipletests as statsmodels_multipletests

    from fairysim.stats.estimates import multipletests

    collections: list[int] = []

    def collect(generation: int = 2) -> int:
        collections.append(generation)
        return 0

    monkeypatch.setattr(gc, "collect", collect)
    p = np.random.default_rng(5).uniform(0, 0.2, size=12)
    ours = multipletests(p, alpha=0.05, method=method)
    assert collections == [] and gc.collect is collect  # none run, and put back
    theirs = statsmodels_multipletests(p, alpha=0.05, method=method)
    for mine, reference in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(mine, reference)
    # The reason for the wrapper: statsmodels' Holm collects on every call (0.15).
    assert collections == ([2] if method == "holm" else [])
