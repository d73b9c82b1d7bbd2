"""Seat advantage as every report shows it: the chi-square sentences, the tables and the figure.

The frames come from :func:`fairysim.analysis.stats.seat_advantage_counts` (one row per player
count and seat: ``games``, ``win_share`` with ``low``/``high``, ``fair``, ``advantage``,
``significant``) and :func:`fairysim.analysis.stats.seat_test_counts` (one row per player count:
``games``, ``chi2``, ``dof``, ``p_value``, ``significant``), whatever the game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.formats import fmt_intervals, fmt_percent, fmt_points, verdict
from fairysim.analysis.plots import new_figure, percent_formatter


def seat_test_lines(tests: pd.DataFrame, games: bool = False) -> list[str]:
    """One sentence per player count: the chi-square test that every seat wins equally often.

    Parameters
    ----------
    tests : pandas.DataFrame
        Seat tests, one row per player count.
    games : bool, default False
        Say how many games each test rests on.

    Returns
    -------
    list of str
        ``"3 players: chi-square 1.23 on 2 df, p = 0.54: not significant."``
    """
    return [
        f"{int(t.players)} players"
        + (f" ({int(t.games):,} games)" if games else "")
        + f": chi-square {t.chi2:.2f} on {int(t.dof)} df, p = {t.p_value:.3g}: "
        + ("seats differ (significant)." if t.significant else "not significant.")
        for t in tests.itertuples(index=False)
    ]


def seat_display(seats: pd.DataFrame, games: bool = False) -> pd.DataFrame:
    """Seat advantage as a report shows it: win share, interval, fair share and verdict.

    Parameters
    ----------
    seats : pandas.DataFrame
        Seat advantage, one row per player count and seat.
    games : bool, default False
        Add a column with the games of each row.

    Returns
    -------
    pandas.DataFrame
        Text columns ``players``, ``seat``, (``games``), ``win share``, ``95% interval``,
        ``fair share``, ``advantage`` (percentage points) and ``verdict``.
    """
    columns = {"players": seats["players"], "seat": seats["seat"]}
    if games:
        columns["games"] = seats["games"].map(lambda v: f"{int(v):,}")
    columns |= {
        "win share": seats["win_share"].map(fmt_percent),
        "95% interval": fmt_intervals(seats["low"], seats["high"]),
        "fair share": seats["fair"].map(fmt_percent),
        "advantage": seats["advantage"].map(fmt_points),
        "verdict": seats["significant"].map(verdict),
    }
    return pd.DataFrame(columns)


def seat_test_display(tests: pd.DataFrame) -> pd.DataFrame:
    """Seat tests as a report shows them: chi-square to 2 decimals, p to 3 digits, a verdict.

    Parameters
    ----------
    tests : pandas.DataFrame
        Seat tests.

    Returns
    -------
    pandas.DataFrame
        ``tests`` with ``chi2``, ``p_value`` and ``significant`` as text.
    """
    return tests.assign(
        chi2=tests["chi2"].map(lambda v: f"{v:.2f}"),
        p_value=tests["p_value"].map(lambda v: f"{v:.3g}"),
        significant=tests["significant"].map(verdict),
    )


def seat_panels(seats: pd.DataFrame, seat_label: str, title: str, decimals: int) -> Figure:
    """Win share by seat against the fair share, one panel per player count.

    Parameters
    ----------
    seats : pandas.DataFrame
        Seat advantage, one row per player count and seat.
    seat_label : str
        The seat axis's label (which seat is 0).
    title : str
        The figure's title.
    decimals : int
        Decimals of the percent axis.

    Returns
    -------
    matplotlib.figure.Figure
        Points with 95 % intervals; the dashed line is ``1/players``.
    """
    counts = sorted(seats["players"].unique())
    fig, axes = new_figure(2.4 * len(counts) + 1, 3.2, ncols=len(counts))
    for ax, n in zip(axes, counts, strict=True):
        g = seats[seats["players"] == n]
        share = g["win_share"].to_numpy(float)
        err = np.vstack([share - g["low"].to_numpy(float), g["high"].to_numpy(float) - share])
        ax.errorbar(g["seat"], share, yerr=err, fmt="o", capsize=3, lw=1)
        ax.axhline(1.0 / n, color="#666", ls="--", lw=1)
        ax.set_xticks(g["seat"])
        ax.set_title(f"{n} players")
        ax.set_xlabel(seat_label)
        ax.yaxis.set_major_formatter(percent_formatter(decimals))
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("win share")
    fig.suptitle(title)
    return fig


__all__ = ["seat_display", "seat_panels", "seat_test_display", "seat_test_lines"]
