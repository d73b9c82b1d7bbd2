"""The Fantastique report's figures: how often each fan's finale changes the winner, per
player count, and what playing for the fan gains per player count.

Each function takes a finished :class:`~fairysim.analysis.fantastique.study.FanStrength` and
returns a matplotlib figure, so a notebook shows the same pictures as the report.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.fantastique.study import FanStrength, baseline_table
from fairysim.analysis.report.plots import (
    barh_ci,
    corrected_intervals,
    facing_ses,
    mean_reference,
    new_figure,
    points_ci,
    reference_heatmap,
)


def strength_figure(strength: FanStrength) -> Figure:
    """Figure (a): the share of games each fan's finale changes the winner, with 95% intervals.

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
        xlabel=f"share of games the finale changes the winner ({strength.meta['baseline']})",
        title="How often the Grande Finale changes the winner, by fan",
    )
    return fig


def decides_figure(strength: FanStrength) -> Figure:
    """Figure (b): finale-decides rate by fan and player count against that count's mean.

    Parameters
    ----------
    strength : FanStrength
        A finished study.

    Returns
    -------
    matplotlib.figure.Figure
        Heatmap, fans in ranking order top to bottom, player counts left to right; colour is
        each cell minus the mean over fans at its player count (centred on 0), every cell
        prints its share and interval half-width, and the cells that differ from that mean
        after Holm correction over all cells are outlined.
    """
    table = baseline_table(strength, "finale_decides")
    games = baseline_table(strength, "games")
    low = baseline_table(strength, "decides_low")
    high = baseline_table(strength, "decides_high")
    reference = table.mean(axis="index")  # equal weights, as the strength averages
    # Standard errors from the Wilson intervals, on the side facing the reference.
    ses = facing_ses(table, low, high, reference)
    difference_ses = pd.DataFrame(index=table.index, columns=table.columns, dtype=float)
    for column in table.columns:
        mean, dse = mean_reference(table[column], ses[column])
        reference[column] = mean
        difference_ses[column] = dse
    fig, (ax,) = new_figure(7, 4.4)
    reference_heatmap(
        ax,
        table,
        ses,
        reference,
        difference_ses,
        reference_label="the mean over fans at that player count",
        title=f"Share of games the Grande Finale changes the winner ({strength.meta['baseline']}, "
        f"{int(games.to_numpy().min()):,} games a cell)",
        xlabel="players",
        ylabel="Grande Finale fan",
    )
    return fig


def gain_family(strength: FanStrength) -> pd.DataFrame:
    """The per-player-count gains of :attr:`FanStrength.gains` as one corrected family.

    Parameters
    ----------
    strength : FanStrength
        A finished study.

    Returns
    -------
    pandas.DataFrame
        ``fan``, ``players``, ``lineup``, ``gain``, ``low``, ``high``, ``significant``
        (see :func:`fairysim.analysis.report.plots.corrected_intervals`: Holm over every gain unless
        the study corrected them already).
    """
    g = strength.gains.reset_index(drop=True)
    columns = ["fan", "players", "lineup", "gain", "low", "high", "significant"]
    if g.empty:
        return pd.DataFrame(columns=columns)
    c = corrected_intervals(g, "gain", "low", "high")
    return g[["fan", "players", "lineup", "gain"]].assign(
        low=c["low"], high=c["high"], significant=c["significant"]
    )


def gain_figure(strength: FanStrength) -> Figure:
    """Figure (c): win share a fan-aware seat 0 gains over the baseline, per fan and player
    count.

    Parameters
    ----------
    strength : FanStrength
        A finished study.

    Returns
    -------
    matplotlib.figure.Figure
        One panel per fan-aware policy, fans sorted by their mean gain (largest on top), one
        point per player count with its interval, Holm-corrected over every point
        (:func:`gain_family`); hollow points are not significant, the dashed line is no gain.
    """
    family = gain_family(strength)
    lineups = list(dict.fromkeys(family["lineup"]))
    counts = sorted(family["players"].unique())
    fig, axes = new_figure(
        5.2 * max(len(lineups), 1), 0.55 * family["fan"].nunique() + 2.2, ncols=max(len(lineups), 1)
    )
    for ax, lineup in zip(axes, lineups, strict=False):
        part = family[family["lineup"] == lineup]
        fans = list(
            part.groupby("fan", sort=False)["gain"].mean().sort_values(ascending=False).index
        )
        series = {}
        for n in counts:
            g = part[part["players"] == n].set_index("fan").reindex(fans)
            series[f"{n} players"] = (
                g["gain"],
                g["low"],
                g["high"],
                g["significant"].fillna(False).astype(bool),
            )
        points_ci(
            ax,
            [f"fan {fan}" for fan in fans],
            series,
            xlabel=f"seat 0's win share minus with {strength.meta['baseline']}\n"
            "(percentage points)",
            title=str(lineup),
            reference_label="no gain",
        )
    fig.suptitle(
        "Does playing for the fan pay? Paired on identical deals; intervals Holm-corrected "
        f"over {len(family)} gains",
        fontsize="medium",
    )
    return fig


__all__ = ["decides_figure", "gain_family", "gain_figure", "strength_figure"]
