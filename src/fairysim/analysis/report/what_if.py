"""The what-if figure: each variant's difference from the baseline per turn position, with its
family-wise interval, for the win share and the score."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.report.plots import new_figure
from fairysim.analysis.studies.what_if import POSITION

PANELS = (
    ("win_share", "win share, variant - baseline (percentage points)", 100.0),
    ("score", "mean score, variant - baseline (points)", 1.0),
)
"""Metric, axis label and the factor to the axis's unit of each panel."""


def position_label(p: int) -> str:
    """``0`` -> ``"1st"``: turn positions as a player says them."""
    n = p + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def difference_figure(differences: pd.DataFrame, title: str) -> Figure:
    """Points with interval whiskers per (turn position, variant), one panel per metric, a
    labelled zero line; intervals at the comparison's Bonferroni level (``level`` column)."""
    rows = differences[differences["group"] == POSITION]
    variants = list(dict.fromkeys(rows["variant"]))
    fig, axes = new_figure(7.5, 3.2 * len(PANELS), nrows=len(PANELS))
    width = 0.7 / max(len(variants), 1)
    for ax, (metric, ylabel, factor) in zip(axes, PANELS, strict=True):
        panel = rows[rows["metric"] == metric]
        positions = sorted(set(panel["index"]))
        for k, variant in enumerate(variants):
            one = panel[panel["variant"] == variant].set_index("index").reindex(positions)
            x = np.arange(len(positions)) + (k - (len(variants) - 1) / 2) * width
            mid = one["difference"].to_numpy() * factor
            err = np.vstack(
                [mid - one["low"].to_numpy() * factor, one["high"].to_numpy() * factor - mid]
            )
            ax.errorbar(x, mid, yerr=err, fmt="o", capsize=3, label=variant)
        ax.axhline(0.0, color="0.3", linewidth=0.8, linestyle="--")
        ax.annotate(
            "0 = no\ndifference",
            xy=(1.0, 0.0),
            xycoords=("axes fraction", "data"),
            xytext=(4, 0),
            textcoords="offset points",
            ha="left",
            va="center",
            fontsize=8,
            color="0.3",
            annotation_clip=False,
        )
        ax.set_xticks(np.arange(len(positions)), [position_label(int(p)) for p in positions])
        ax.set_xlabel("turn position (1st = acts first)")
        ax.set_ylabel(ylabel, fontsize=8)
    if len(variants) > 1:
        axes[0].legend(fontsize=8, loc="best")
    level = float(differences["level"].iloc[0]) if len(differences) else 0.95
    fig.suptitle(
        f"{title}\nvariant minus baseline on the same games; whiskers: paired intervals at "
        f"{level:.4%} each (95 % family-wise)",
        fontsize=9,
    )
    return fig


__all__ = ["difference_figure", "position_label"]
