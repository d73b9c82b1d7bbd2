"""Seat advantage as the reports show it, on frames of the statistics module."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.seats import seat_display, seat_panels, seat_test_display, seat_test_lines
from fairysim.analysis.stats import seat_advantage_counts, seat_test_counts

COUNTS = pd.DataFrame(
    {
        "players": [2, 2, 3, 3, 3],
        "seat": [0, 1, 0, 1, 2],
        "games": [1000, 1000, 900, 900, 900],
        "wins": [600.0, 400.0, 300.0, 300.0, 300.0],
    }
)


def test_lines_say_each_test_in_words():
    tests = seat_test_counts(seat_advantage_counts(COUNTS))
    two, three = seat_test_lines(tests)
    assert two.startswith("2 players: chi-square 40.00 on 1 df, p = ")
    assert two.endswith(": seats differ (significant).")
    assert three == "3 players: chi-square 0.00 on 2 df, p = 1: not significant."
    assert seat_test_lines(tests, games=True)[1].startswith("3 players (900 games): chi-square")


def test_tables_show_percentages_and_verdicts():
    seats = seat_advantage_counts(COUNTS)
    shown = seat_display(seats)
    assert list(shown.columns) == [
        "players", "seat", "win share", "95% interval", "fair share", "advantage", "verdict"
    ]  # fmt: skip
    assert shown.iloc[0][["win share", "fair share", "advantage", "verdict"]].tolist() == [
        "60.0%", "50.0%", "+10.0 pp", "significant"
    ]  # fmt: skip
    assert shown.iloc[2]["verdict"] == "not significant"
    assert seat_display(seats, games=True)["games"].tolist() == ["1,000"] * 2 + ["900"] * 3
    tests = seat_test_display(seat_test_counts(seats))
    assert tests["chi2"].tolist() == ["40.00", "0.00"]
    assert tests["significant"].tolist() == ["significant", "not significant"]


def test_panels_one_per_player_count():
    fig = seat_panels(seat_advantage_counts(COUNTS), "seat", "Seats", decimals=0)
    assert isinstance(fig, Figure)
    assert [ax.get_title() for ax in fig.axes] == ["2 players", "3 players"]
