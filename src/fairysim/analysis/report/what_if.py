"""The what-if figure: how each variant changes who wins.

One message: each variant's win-share difference from the baseline on every row the comparison
tests for who wins (the turn-order spread, each turn position, each seat where the lineup tells
seats apart), in percentage points, with its family-wise interval; rows sorted by the largest
change, filled markers where the Holm correction separates the difference from 0.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from fairysim.analysis.report.plots import new_figure
from fairysim.analysis.studies.what_if import POSITION, SEAT, SPREAD, WHO_WINS, position_words


def row_name(group: str, index: int, wheres: pd.Series) -> str:
    """A figure row's label: the spread, ``1st to act``, or a seat with its lineup entry when
    every variant names it alike."""
    if group == POSITION:
        return position_words(index)
    if group == SEAT:
        places = set(wheres)
        return places.pop() if len(places) == 1 else f"seat {index}"
    places = set(wheres)
    where = places.pop() if len(places) == 1 else "farthest from fair"
    return f"turn-order spread\n({where})"


def who_wins_rows(differences: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """The who-wins rows grouped per (group, index), largest absolute change first."""
    rows = differences[differences["question"] == WHO_WINS]
    groups = []
    for (group, index, metric), one in rows.groupby(["group", "index", "metric"], sort=False):
        if metric not in (SPREAD, "win_share"):
            continue
        groups.append((row_name(group, int(index), one["where"]), one))
    return sorted(groups, key=lambda item: -float(item[1]["difference"].abs().max()))


def difference_figure(differences: pd.DataFrame, title: str) -> Figure:
    """Points with interval whiskers per (who-wins row, variant), rows sorted by the largest
    change, a labelled zero line; intervals at the comparison's Bonferroni level."""
    groups = who_wins_rows(differences)
    variants = list(dict.fromkeys(differences["variant"]))
    height = 1.6 + 0.28 * max(len(groups), 1) * max(len(variants), 1) ** 0.5
    fig, (ax,) = new_figure(7.5, height)
    step = 0.7 / max(len(variants), 1)
    colours = [f"C{k % 10}" for k in range(len(variants))]
    for k, variant in enumerate(variants):
        offset = (k - (len(variants) - 1) / 2) * step
        for y, (_, one) in enumerate(groups):
            row = one[one["variant"] == variant]
            if row.empty:
                continue
            r = row.iloc[0]
            mid, low, high = 100 * r["difference"], 100 * r["low"], 100 * r["high"]
            ax.errorbar(
                [mid],
                [y + offset],
                xerr=[[mid - low], [high - mid]],
                fmt="o",
                capsize=3,
                color=colours[k],
                markerfacecolor=colours[k] if r["separated"] else "white",
            )
    ax.axvline(0.0, color="0.3", linewidth=0.8, linestyle="--")
    ax.set_yticks(np.arange(len(groups)), [name for name, _ in groups], fontsize=8)
    ax.set_ylim(len(groups) - 0.5, -0.5)  # the largest change on top
    ax.set_xlabel("win share, variant minus baseline (pp); 0 = no difference")
    handles = [
        Line2D([], [], marker="o", linestyle="", color=colours[k], label=variant)
        for k, variant in enumerate(variants)
    ]
    handles.append(
        Line2D([], [], marker="o", linestyle="", color="0.4", markerfacecolor="white",
               label="hollow: not separated (Holm)")
    )  # fmt: skip
    ax.legend(handles=handles, fontsize=8, loc="best")
    level = float(differences["level"].iloc[0]) if len(differences) else 0.95
    fig.suptitle(
        f"Who wins: each variant minus the baseline on the same games\n{title}; whiskers: "
        f"paired intervals at {level:.4%} each (95% family-wise)",
        fontsize=9,
    )
    return fig


__all__ = ["difference_figure", "who_wins_rows"]
