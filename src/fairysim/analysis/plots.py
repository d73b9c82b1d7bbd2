"""The figure helpers every report shares: bare matplotlib figures, bars and points with 95 %
intervals, annotated heatmaps and the percent axis.

Figures are drawn on a bare :class:`matplotlib.figure.Figure` with matplotlib's Agg canvas (no
pyplot, so no global figure state and no GUI backend is ever touched, which also keeps notebooks
that import these modules unaffected); :mod:`fairysim.analysis.page` embeds them in a report.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter


def new_figure(
    width: float = 7.0, height: float = 4.0, ncols: int = 1, nrows: int = 1
) -> tuple[Figure, list[Axes]]:
    """A bare matplotlib figure (no pyplot state) with ``nrows`` rows of ``ncols`` axes.

    Parameters
    ----------
    width, height : float
        Size in inches.
    ncols : int, default 1
        Number of axes in one row.
    nrows : int, default 1
        Number of rows.

    Returns
    -------
    fig : matplotlib.figure.Figure
    axes : list of matplotlib.axes.Axes
        Row by row, left to right.
    """
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    return fig, list(axes)


def barh_ci(
    ax: Axes,
    labels: Sequence[str],
    values: Sequence[float],
    low: Sequence[float],
    high: Sequence[float],
    *,
    color: str = "#4c72b0",
    xlabel: str = "",
    title: str = "",
    reference: float | None = None,
    unit: str | None = "percent",
) -> Axes:
    """Horizontal bars with 95 % interval whiskers, first label on top.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    labels : sequence of str
        One per bar.
    values, low, high : sequence of float
        Bar length and interval bounds (shares 0..1 with the default unit).
    color : str
        Bar colour.
    xlabel, title : str
        Axis label and title.
    reference : float, optional
        Draw a dashed vertical line here (e.g. 0 for a difference).
    unit : {"percent", "points", None}, default "percent"
        Axis labels: percent of a share (0..1), signed percentage points of a difference of
        shares, or plain numbers.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.
    """
    y = np.arange(len(labels))[::-1]
    values = np.asarray(values, dtype=float)
    err = np.vstack([values - np.asarray(low, float), np.asarray(high, float) - values])
    ax.barh(y, values, color=color, alpha=0.85)
    ax.errorbar(values, y, xerr=np.nan_to_num(err), fmt="none", ecolor="#222", capsize=3, lw=1)
    ax.set_yticks(y, labels)
    if reference is not None:
        ax.axvline(reference, color="#666", ls="--", lw=1)
    _finish(ax, xlabel, title, unit)
    return ax


def points_ci(
    ax: Axes,
    labels: Sequence[str],
    series: dict[str, tuple[Sequence[float], Sequence[float], Sequence[float]]],
    *,
    xlabel: str = "",
    title: str = "",
    reference: float | None = 0.0,
    unit: str | None = "points",
) -> Axes:
    """Several series of points with 95 % interval whiskers, grouped by label (one row each).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    labels : sequence of str
        Row labels, first on top.
    series : dict
        ``name -> (values, low, high)``, each sequence aligned with ``labels``.
    xlabel, title : str
        Axis label and title.
    reference : float or None, default 0
        Dashed vertical line (no line when None).
    unit : {"percent", "points", None}, default "points"
        Axis labels: percent of a share, signed percentage points of a difference of shares,
        or plain numbers.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.
    """
    y = np.arange(len(labels))[::-1].astype(float)
    k = max(len(series), 1)
    offsets = np.linspace(-0.2, 0.2, k) if k > 1 else np.zeros(1)
    for offset, (name, (values, low, high)) in zip(offsets, series.items(), strict=False):
        values = np.asarray(values, dtype=float)
        err = np.vstack([values - np.asarray(low, float), np.asarray(high, float) - values])
        ax.errorbar(
            values, y + offset, xerr=np.nan_to_num(err), fmt="o", capsize=3, lw=1, label=name
        )
    ax.set_yticks(y, labels)
    if reference is not None:
        ax.axvline(reference, color="#666", ls="--", lw=1)
    if len(series) > 1:
        ax.legend(loc="best", fontsize="small")
    _finish(ax, xlabel, title, unit)
    return ax


def heatmap(
    ax: Axes,
    table: pd.DataFrame,
    *,
    title: str = "",
    xlabel: str = "",
    ylabel: str = "",
    colorbar_label: str = "",
    percent: bool = True,
    cmap: str = "viridis",
) -> Axes:
    """Annotated heatmap of a table (rows top to bottom as in the table).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    table : pandas.DataFrame
        Numeric table; index and columns label the cells.
    title, xlabel, ylabel, colorbar_label : str
        Labels.
    percent : bool, default True
        Annotate cells as percentages (values are shares 0..1).
    cmap : str, default ``"viridis"``
        Colour map.

    Returns
    -------
    matplotlib.axes.Axes
        ``ax``.
    """
    data = table.to_numpy(dtype=float)
    image = ax.imshow(data, cmap=cmap, aspect="auto")
    ax.set_xticks(np.arange(data.shape[1]), [str(c) for c in table.columns])
    ax.set_yticks(np.arange(data.shape[0]), [str(i) for i in table.index])
    finite = data[np.isfinite(data)]
    middle = (finite.min() + finite.max()) / 2 if finite.size else 0.0
    for (i, j), value in np.ndenumerate(data):
        if not np.isfinite(value):
            continue
        text = f"{100 * value:.1f}%" if percent else f"{value:.2f}"
        ax.text(
            j, i, text, ha="center", va="center", fontsize=8,
            color="white" if value < middle else "black",
        )  # fmt: skip
    bar = ax.figure.colorbar(image, ax=ax)
    bar.set_label(colorbar_label)
    if percent:
        bar.ax.yaxis.set_major_formatter(percent_formatter())
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return ax


def _finish(ax: Axes, xlabel: str, title: str, unit: str | None) -> None:
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    if unit == "percent":
        ax.xaxis.set_major_formatter(percent_formatter())
    elif unit == "points":
        ax.xaxis.set_major_formatter(points_formatter())
    elif unit is not None:
        raise ValueError(f"unit must be 'percent', 'points' or None, got {unit!r}")


def percent_formatter(decimals: int | None = None) -> PercentFormatter:
    """Tick labels for shares (0..1) as percentages.

    Parameters
    ----------
    decimals : int, optional
        Decimals of every label; None lets matplotlib choose from the axis range.

    Returns
    -------
    matplotlib.ticker.PercentFormatter
        ``0.25 -> "25%"`` (or ``"25.0%"`` with one decimal).
    """
    return PercentFormatter(xmax=1.0, decimals=decimals)


def points_formatter() -> FuncFormatter:
    """Tick labels for differences of shares as signed percentage points.

    Returns
    -------
    matplotlib.ticker.FuncFormatter
        ``0.031 -> "+3.1 pp"``, ``0 -> "0"``.
    """
    return FuncFormatter(lambda x, _pos: "0" if abs(x) < 1e-12 else f"{100 * x:+g} pp")


__all__ = ["barh_ci", "heatmap", "new_figure", "percent_formatter", "points_ci", "points_formatter"]
