"""The Fantastique report's figures: fans ranked by strength, how often the finale decides,
what playing for the fan gains, and seat advantage.

Each function takes a finished :class:`~fairysim.analysis.fantastique.study.FanStrength` and
returns a matplotlib figure, so a notebook shows the same pictures as the report.
"""

from __future__ import annotations

from matplotlib.figure import Figure

from fairysim.analysis.fantastique.study import FanStrength, baseline_table
from fairysim.analysis.plots import barh_ci, heatmap, new_figure, points_ci


def strength_figure(strength: FanStrength) -> Figure:
    """Figure (a): the six fans ranked by strength, with 95 % intervals.

    Parameters
    ----------
    strength : FanStrength
        A finished study.

    Returns
    -------
    matplotlib.figure.Figure
        Horizontal bars: share of games the Grande Finale decides (all greedy), averaged over
        player counts; strongest fan on top.
    """
    r = strength.ranking
    fig, (ax,) = new_figure(8, 3.6)
    labels = [f"{fan}: {desc}" for fan, desc in zip(r["fan"], r["description"], strict=True)]
    barh_ci(
        ax,
        labels,
        r["strength"],
        r["strength_low"],
        r["strength_high"],
        xlabel=f"share of games the finale decides ({strength.meta['baseline']})",
        title="Grande Finale fans ranked by strength",
    )
    return fig


def decides_figure(strength: FanStrength) -> Figure:
    """Figure (b): finale-decides rate by fan and player count (baseline lineup).

    Parameters
    ----------
    strength : FanStrength
        A finished study.

    Returns
    -------
    matplotlib.figure.Figure
        Heatmap, fans in ranking order top to bottom, player counts left to right.
    """
    table = baseline_table(strength, "finale_decides")
    fig, (ax,) = new_figure(6, 3.8)
    heatmap(
        ax,
        table,
        title=f"Share of games the Grande Finale decides ({strength.meta['baseline']})",
        xlabel="players",
        ylabel="Grande Finale fan",
        colorbar_label="share of games",
        cmap="magma",
    )
    return fig


def gain_figure(strength: FanStrength) -> Figure:
    """Figure (c): win share a fan-aware seat 0 gains over greedy, by fan, with 95 % intervals.

    Parameters
    ----------
    strength : FanStrength
        A finished study.

    Returns
    -------
    matplotlib.figure.Figure
        One row per fan (ranking order), one point per fan-aware policy; averaged over player
        counts; the dashed line is no gain.
    """
    fans = list(strength.ranking["fan"])
    fig, (ax,) = new_figure(7, 3.6)
    series = {}
    for lineup, group in strength.fan_gains.groupby("lineup", sort=False):
        g = group.set_index("fan").reindex(fans)
        series[str(lineup)] = (g["gain"], g["low"], g["high"])
    points_ci(
        ax,
        [f"fan {fan}" for fan in fans],
        series,
        xlabel="change in seat 0's win share vs greedy (percentage points)",
        title="Does playing for the fan pay? (paired on identical deals)",
    )
    return fig


__all__ = ["decides_figure", "gain_figure", "strength_figure"]
