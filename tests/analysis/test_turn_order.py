"""Seat advantage by turn order on constructed runs with a known answer (F1, L18, C4)."""

import numpy as np
import pandas as pd
import pytest

from fairysim.stats.turn_order import turn_advantage, turn_positions


def constructed(games, players, starter_wins, rng, source):
    """Runs where the starter (turn position 0) wins with probability ``starter_wins`` and the
    others share the rest evenly; the lineup seat of the starter is random."""
    first = rng.integers(players, size=games)
    winner_pos = np.where(rng.random(games) < starter_wins, 0, rng.integers(1, players, size=games))
    rows = []
    for g in range(games):
        for seat in range(players):
            pos = (seat - first[g]) % players if source != "seat" else seat
            row = {
                "game": g,
                "seat": seat,
                "players": players,
                "win_share": float(pos == winner_pos[g]),
            }
            if source == "start_seat":
                row["start_seat"] = int(first[g])
            if source == "turn_position":
                row["turn_position"] = int(pos) + 1  # results rows count from 1
            rows.append(row)
    return pd.DataFrame(rows)


@pytest.mark.parametrize("source", ["start_seat", "turn_position", "seat"])
def test_starter_advantage_is_found_by_turn_position(source):
    df = constructed(4000, 4, 0.40, np.random.default_rng(1), source)
    t = turn_advantage(df, source)
    assert t["position"].tolist() == [0, 1, 2, 3]
    assert (t["games"] == 4000).all()
    share = t["win_share"].to_numpy()
    np.testing.assert_allclose(share.sum(), 1.0)
    assert t.loc[0, "significant"] and t.loc[0, "low"] > 0.25
    assert abs(share[0] - 0.40) < 0.03
    assert ((t["low"] > t["fair"]) | (t["high"] < t["fair"])).tolist() == t["significant"].tolist()


def test_fair_game_finds_no_position_advantage():
    df = constructed(3000, 3, 1 / 3, np.random.default_rng(2), "start_seat")
    t = turn_advantage(df, "start_seat")
    assert not t["significant"].any()
    assert ((t["low"] < 1 / 3) & (t["high"] > 1 / 3)).all()


def test_lineup_seats_hide_what_turn_positions_show():
    df = constructed(4000, 4, 0.40, np.random.default_rng(3), "start_seat")
    by_seat = df.groupby("seat")["win_share"].mean()
    assert (abs(by_seat - 0.25) < 0.03).all()  # the random starter evens the lineup seats out
    positions = turn_positions(df, "start_seat")
    expected = (df["seat"] - df["start_seat"]) % 4
    np.testing.assert_array_equal(positions, expected)


def test_missing_turn_column_is_a_clear_error():
    df = pd.DataFrame({"game": [0, 0], "seat": [0, 1], "players": 2, "win_share": [1.0, 0.0]})
    with pytest.raises(ValueError, match="start_seat"):
        turn_advantage(df, "start_seat")


def test_a_handful_of_alike_games_is_no_verdict():
    """Two games the same seat won: every position's clustered standard error is 0, and a
    zero-width interval would call each share different from fair; the fair share's standard
    error stands in, and two games separate nothing."""
    rows = [
        {"game": g, "seat": s, "players": 4, "win_share": float(s == 0)}
        for g in range(2)
        for s in range(4)
    ]
    t = turn_advantage(pd.DataFrame(rows), "seat")
    assert not t["significant"].any()
    np.testing.assert_allclose(t["se"], np.sqrt(0.25 * 0.75 / 2))
    assert (t["low"] < 0.25).all() and (t["high"] > 0.25).all()
