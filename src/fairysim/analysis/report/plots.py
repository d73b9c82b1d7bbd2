"""The figure helpers every report shares: bare matplotlib figures, bars and points with 95%
intervals, heatmaps centred on a reference, tick labels that never repeat, and the check for them.

The module is one past 600 lines because its helpers share one job, an axis every report can
trust (the formatters, the reference heatmap with its corrected cells, the CDF bands); split,
each piece would import the others.

Every percent or percentage-point axis gets as many decimals as its ticks need to read apart
(:func:`percent_formatter`, :func:`points_formatter`); :func:`repeated_tick_labels` draws a
figure and names each axis whose tick labels still repeat, so a test can hold every report
figure to it.

Figures are drawn on a bare :class:`matplotlib.figure.Figure` with matplotlib's Agg canvas (no
pyplot, so no global figure state and no GUI backend is ever touched, which also keeps notebooks
that import these modules unaffected); :mod:`fairysim.analysis.report.page` embeds them in a report.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import Formatter, MaxNLocator


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
    reference_label: str = "",
    unit: str | None = "percent",
) -> Axes:
    """Horizontal bars with 95% interval whiskers, first label on top.

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
    reference_label : str
        The reference line's legend entry (e.g. ``"fair share"``); none when empty.
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
        ax.axvline(reference, color="#666", ls="--", lw=1, label=reference_label or None)
        if reference_label:
            ax.legend(loc="best", fontsize="small")
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
    reference_label: str = "",
    unit: str | None = "points",
) -> Axes:
    """Several series of points with 95% interval whiskers, grouped by label (one row each).

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    labels : sequence of str
        Row labels, first on top.
    series : dict
        ``name -> (values, low, high)`` or ``(values, low, high, significant)``, each sequence
        aligned with ``labels``; with ``significant`` the points that are not are drawn
        hollow.
    xlabel, title : str
        Axis label and title.
    reference : float or None, default 0
        Dashed vertical line (no line when None).
    reference_label : str
        The reference line's legend entry (e.g. ``"no difference"``); none when empty.
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
    offsets = np.linspace(0.2, -0.2, k) if k > 1 else np.zeros(1)  # first series on top
    hollow = False
    for number, (offset, (name, data)) in enumerate(zip(offsets, series.items(), strict=False)):
        values, low, high = (np.asarray(d, dtype=float) for d in data[:3])
        err = np.nan_to_num(np.vstack([values - low, high - values]))
        colour = f"C{number}"
        if len(data) < 4:
            ax.errorbar(values, y + offset, xerr=err, fmt="o", color=colour, capsize=3, lw=1,
                        label=name)  # fmt: skip
            continue
        significant = np.asarray(data[3], dtype=bool)
        hollow = hollow or not significant.all()
        ax.errorbar(values, y + offset, xerr=err, fmt="none", ecolor=colour, capsize=3, lw=1)
        ax.plot(values[significant], (y + offset)[significant], "o", color=colour,
                label=name if significant.any() else None)  # fmt: skip
        ax.plot(values[~significant], (y + offset)[~significant], "o", color=colour,
                mfc="white", label=None if significant.any() else name)  # fmt: skip
    ax.set_yticks(y, labels)
    if reference is not None:
        ax.axvline(reference, color="#666", ls="--", lw=1, label=reference_label or None)
    if hollow:
        ax.plot([], [], "o", color="#444", mfc="white", label="hollow: not significant")
    if len(series) > 1 or hollow or (reference is not None and reference_label):
        # beside the axes, never over a point: a panel of many rows has no empty corner
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, fontsize="small")
    _finish(ax, xlabel, title, unit)
    return ax


def reference_heatmap(
    ax: Axes,
    estimates: pd.DataFrame,
    ses: pd.DataFrame,
    reference: float | pd.Series | pd.DataFrame,
    difference_ses: pd.DataFrame | None = None,
    *,
    reference_label: str,
    title: str = "",
    xlabel: str = "",
    ylabel: str = "",
    method: str = "holm",
) -> pd.DataFrame:
    """Heatmap of shares against a reference: colour centred on it, each cell's interval
    printed, the cells that differ from it after correction outlined.

    The colour is the cell's difference from the reference in percentage points on a diverging
    scale centred on 0 whose half-range is the widest corrected interval's reach, so cells that
    differ by less than their error stay pale instead of being stretched over the colour map.
    The family (every finite cell) is corrected with
    :func:`fairysim.stats.corrections.correct_family`.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    estimates, ses : pandas.DataFrame
        Shares (0..1) and their standard errors; index and columns label the cells (rows top
        to bottom as in the table).
    reference : float, pandas.Series or pandas.DataFrame
        What each cell is compared with: one share, one per column (a Series indexed like the
        columns) or one per cell.
    difference_ses : pandas.DataFrame, optional
        Standard error of each cell minus its reference (when the reference is estimated from
        the same cells, see :func:`mean_reference`); ``ses`` when omitted (a fixed reference).
    reference_label : str
        What the reference is, for the colour bar and the note (e.g. ``"fair share"``).
    title, xlabel, ylabel : str
        Labels.
    method : {"holm", "fdr_bh"}, default "holm"
        The correction.

    Returns
    -------
    pandas.DataFrame
        The corrected family (:func:`~fairysim.stats.corrections.correct_family`'s columns,
        difference from the reference), one row per cell in row-major order with ``row`` and
        ``column`` labels.
    """
    from fairysim.stats.corrections import correct_family

    est = estimates.to_numpy(dtype=float)
    se = ses.reindex_like(estimates).to_numpy(dtype=float)
    if isinstance(reference, pd.DataFrame):
        ref = reference.reindex_like(estimates).to_numpy(dtype=float)
    elif isinstance(reference, pd.Series):
        ref = np.broadcast_to(reference.reindex(estimates.columns).to_numpy(float), est.shape)
    else:
        ref = np.full(est.shape, float(reference))
    dse = se if difference_ses is None else difference_ses.reindex_like(estimates).to_numpy(float)
    diff = est - ref
    family = correct_family(diff.ravel(), dse.ravel(), method=method)
    rows, cols = np.divmod(np.arange(est.size), est.shape[1])
    family.insert(0, "column", [estimates.columns[j] for j in cols])
    family.insert(0, "row", [estimates.index[i] for i in rows])
    low = family["low"].to_numpy().reshape(est.shape)
    high = family["high"].to_numpy().reshape(est.shape)
    significant = family["significant"].to_numpy().reshape(est.shape)
    reach = np.nanmax(np.abs(np.concatenate([low.ravel(), high.ravel(), diff.ravel()])), initial=0)
    half = float(reach) if np.isfinite(reach) and reach > 0 else 0.01
    image = ax.imshow(diff, cmap="RdBu_r", norm=Normalize(-half, half), aspect="auto")
    ax.set_xticks(np.arange(est.shape[1]), [str(c) for c in estimates.columns])
    ax.set_yticks(np.arange(est.shape[0]), [str(i) for i in estimates.index])
    for (i, j), value in np.ndenumerate(est):
        if not np.isfinite(value):
            continue
        width = (high[i, j] - low[i, j]) / 2
        text = f"{100 * value:.1f}%"
        if np.isfinite(width):
            text += f"\n±{100 * width:.1f} pp"
        strong = bool(significant[i, j])
        dark = np.isfinite(diff[i, j]) and abs(diff[i, j]) > 0.6 * half
        ax.text(
            j, i, text, ha="center", va="center", fontsize=7,
            fontweight="bold" if strong else "normal", color="white" if dark else "black",
        )  # fmt: skip
        if strong:
            ax.add_patch(
                Rectangle((j - 0.48, i - 0.48), 0.96, 0.96, fill=False, ec="black", lw=1.6)
            )
    bar = ax.figure.colorbar(image, ax=ax)
    bar.set_label("cell minus its reference (percentage points)")
    bar.ax.yaxis.set_major_formatter(points_formatter())
    tested = int(np.isfinite(family["p_value"]).sum())
    ax.set_title(title)
    note = textwrap.fill(
        f"Reference: {reference_label}. Outlined, bold: differs from it after "
        f"{_METHOD_NAMES[method]} correction over {tested} cells; ± is the half-width of that "
        "corrected interval.",
        width=int(ax.figure.get_figwidth() * 13),
    )
    ax.set_xlabel((f"{xlabel}\n" if xlabel else "") + note, fontsize="small")
    ax.set_ylabel(ylabel)
    return family


def facing_ses(
    estimates: pd.DataFrame,
    low: pd.DataFrame,
    high: pd.DataFrame,
    reference: float | pd.Series,
    z: float = 1.959963984540054,
) -> pd.DataFrame:
    """Standard errors read off 95% intervals on the side that faces the reference.

    A Wilson interval is asymmetric near 0 and 1 and never has zero width; the half facing
    the reference is the one a test of "this cell equals the reference" needs (a share of
    11/11 tested against 74 % uses its long lower half, not the empty upper one).

    Parameters
    ----------
    estimates, low, high : pandas.DataFrame
        Shares and their interval bounds, aligned.
    reference : float or pandas.Series
        One share, or one per column.
    z : float, default the 95% normal quantile
        The intervals' critical value.

    Returns
    -------
    pandas.DataFrame
        ``(estimate - low) / z`` where the estimate is at or above its reference, else
        ``(high - estimate) / z``.
    """
    if isinstance(reference, pd.Series):
        above = estimates.ge(reference, axis="columns")
    else:
        above = estimates >= float(reference)
    lower = (estimates - low.reindex_like(estimates)) / z
    upper = (high.reindex_like(estimates) - estimates) / z
    return lower.where(above, upper)


def mean_reference(
    values: Sequence[float], ses: Sequence[float], weights: Sequence[float] | None = None
) -> tuple[float, np.ndarray]:
    """The (weighted) mean of independent estimates as their reference, and the standard error
    of each estimate minus it.

    The difference of estimate ``i`` from the mean has variance
    ``(1 - w_i)^2 se_i^2 + sum_{j != i} w_j^2 se_j^2`` (weights summing to 1). Estimates made
    on shared deals are positively correlated, which only makes the true error of the
    difference smaller, so the result is conservative for them.

    Parameters
    ----------
    values, ses : sequence of float
        Estimates and their standard errors; non-finite ones are left out of the mean.
    weights : sequence of float, optional
        E.g. the games of each estimate (equal weights when omitted).

    Returns
    -------
    reference : float
        The weighted mean.
    difference_ses : numpy.ndarray
        One per estimate (nan where the estimate is not finite).
    """
    v = np.asarray(values, float)
    s = np.asarray(ses, float)
    w = np.ones_like(v) if weights is None else np.asarray(weights, float).copy()
    ok = np.isfinite(v) & np.isfinite(s) & np.isfinite(w)
    w = np.where(ok, w, 0.0)
    total = w.sum()
    if total <= 0:
        return float("nan"), np.full(v.shape, np.nan)
    w = w / total
    reference = float(np.sum(w[ok] * v[ok]))
    spread = np.sum(np.where(ok, (w * s) ** 2, 0.0))
    var = (1 - w) ** 2 * s**2 + spread - (w * s) ** 2
    return reference, np.where(ok, np.sqrt(var), np.nan)


def corrected_intervals(
    table: pd.DataFrame,
    estimate: str,
    low: str,
    high: str,
    se: str = "se",
    null: float | str = 0.0,
    method: str = "holm",
    prefix: str = "",
) -> pd.DataFrame:
    """The intervals and verdicts a figure draws for a family of estimates, corrected.

    A table that already carries corrected intervals (a ``<prefix>p_adjusted`` column, as
    :func:`fairysim.stats.corrections.with_correction` writes) is drawn as it is; otherwise
    its estimates are corrected here over the whole table, so no figure marks an estimate
    significant on an uncorrected interval.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per estimate.
    estimate, low, high, se : str
        Its columns.
    null : float or str, default 0
        The value each estimate is tested against, or the column that holds it.
    method : {"holm", "fdr_bh"}, default "holm"
        The correction, when the table is not corrected yet.
    prefix : str, default ""
        The prefix of the table's corrected columns (``"lift_"`` for ``lift_p_adjusted`` and
        ``lift_significant``).

    Returns
    -------
    pandas.DataFrame
        ``estimate``, ``low``, ``high``, ``significant`` aligned with ``table``'s rows, and
        ``corrected_here`` (bool, the same on every row).
    """
    from fairysim.stats.corrections import correct_family

    if f"{prefix}p_adjusted" in table.columns:
        return pd.DataFrame(
            {
                "estimate": table[estimate].to_numpy(float),
                "low": table[low].to_numpy(float),
                "high": table[high].to_numpy(float),
                "significant": table[f"{prefix}significant"].fillna(False).astype(bool).to_numpy(),
                "corrected_here": False,
            },
            index=table.index,
        )
    nulls = table[null].to_numpy(float) if isinstance(null, str) else null
    family = correct_family(table[estimate], table[se], null=nulls, method=method)
    family.index = table.index
    return family[["estimate", "low", "high", "significant"]].assign(corrected_here=True)


def cumulative_shares(values: Sequence[float], games: Sequence[int]) -> pd.DataFrame:
    """The cumulative distribution of a count per value, with pointwise 95% Wilson intervals.

    Parameters
    ----------
    values : sequence of float
        The measured values (e.g. margins), one per row.
    games : sequence of int
        Games at each value.

    Returns
    -------
    pandas.DataFrame
        Sorted by ``value``: ``value``, ``cdf`` (share of games at or below it), ``low``,
        ``high`` and ``games`` (all games, the same on every row).
    """
    from statsmodels.stats.proportion import proportion_confint

    frame = pd.DataFrame({"value": values, "games": games}).sort_values("value")
    total = int(frame["games"].sum())
    count = frame["games"].cumsum().to_numpy()
    low, high = proportion_confint(count, total, alpha=0.05, method="wilson")
    return pd.DataFrame(
        {
            "value": frame["value"].to_numpy(),
            "cdf": count / total,
            "low": low,
            "high": high,
            "games": total,
        }
    )


def step_cdf(ax: Axes, cdf: pd.DataFrame, *, color: str, label: str, band: bool = True) -> None:
    """Draw a :func:`cumulative_shares` frame as a step line with its Wilson band.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    cdf : pandas.DataFrame
        From :func:`cumulative_shares`.
    color, label : str
        Line colour and legend entry.
    band : bool, default True
        Shade the pointwise 95% interval.
    """
    if band:
        ax.fill_between(cdf["value"], cdf["low"], cdf["high"], step="post", color=color,
                        alpha=0.25, lw=0)  # fmt: skip
    ax.step(cdf["value"], cdf["cdf"], where="post", color=color, lw=1.4, label=label)


def wrapped(text: str, width_inches: float, chars_per_inch: float = 12.0) -> str:
    """``text`` wrapped line by line to fit ``width_inches`` at a medium font size.

    Parameters
    ----------
    text : str
        A title or label; its own line breaks are kept.
    width_inches : float
        The width it may take (a figure's or an axes' width).
    chars_per_inch : float, default 12
        Characters of a medium-size font per inch.

    Returns
    -------
    str
        The text with line breaks added.
    """
    width = max(20, int(width_inches * chars_per_inch))
    return "\n".join(textwrap.fill(line, width) for line in text.split("\n"))


def repeated_tick_labels(fig: Figure) -> list[str]:
    """Draw ``fig`` and describe every axis whose tick labels repeat.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        A figure (drawn here without rendering, so its ticks are the saved ones).

    Returns
    -------
    list of str
        ``"'Title' (axes 2) y axis: 24%, 24%, 25%"`` per axis whose visible, non-empty major
        tick labels hold a label twice; empty when none does.
    """
    fig.draw_without_rendering()
    found = []
    for number, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            labels = [
                t.get_text()
                for t in axis.get_majorticklabels()
                if t.get_visible() and t.get_text().strip()
            ]
            if len(set(labels)) < len(labels):
                title = ax.get_title() or ax.get_ylabel() or ax.get_label()
                found.append(f"{title!r} (axes {number}) {name} axis: {', '.join(labels)}")
    return found


def _finish(ax: Axes, xlabel: str, title: str, unit: str | None) -> None:
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    if unit == "percent":
        ax.xaxis.set_major_formatter(percent_formatter())
    elif unit == "points":
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]))
        ax.xaxis.set_major_formatter(points_formatter())
    elif unit is not None:
        raise ValueError(f"unit must be 'percent', 'points' or None, got {unit!r}")


PLAIN_INTERVALS = (
    "Whiskers and bands: plain 95% intervals, each estimate's own, not corrected; the figure "
    "draws no verdict."
)
"""The caption note of a figure whose intervals are plain (no verdict drawn beside them): a
figure that marks a verdict draws the corrected interval (:func:`corrected_intervals`)."""


def plain_caption(caption: str, verdicts: str = "") -> str:
    """``caption`` with :data:`PLAIN_INTERVALS`, and where the page words a verdict about the
    figure's estimates, where that verdict comes from (``verdicts``)."""
    return " ".join(part for part in (caption, PLAIN_INTERVALS, verdicts) if part)


_METHOD_NAMES = {"holm": "Holm", "fdr_bh": "Benjamini-Hochberg"}


class DistinctFormatter(Formatter):
    """Tick labels with the fewest decimals (from a minimum) at which every tick reads as its
    value, so no two ticks read the same.

    Matplotlib's percent formatter picks its decimals from the axis range, or takes a fixed
    number; either can print 24%, 24%, 25% on a narrow axis (or 2.5 % as "3%"). This one tries
    ``minimum``, ``minimum + 1``, ... up to ``maximum`` decimals on the axis's tick locations
    and keeps the first at which every label is its tick's value (in percent), else the first
    at which every label differs.

    Parameters
    ----------
    render : callable
        ``render(value, decimals) -> str``.
    minimum, maximum : int
        Fewest and most decimals.
    """

    def __init__(self, render, minimum: int = 0, maximum: int = 6) -> None:
        self.render = render
        self.minimum = minimum
        self.maximum = maximum
        self.decimals = minimum

    def set_locs(self, locs) -> None:
        super().set_locs(locs)
        values = [float(v) for v in locs if np.isfinite(v)]
        distinct = None
        for decimals in range(self.minimum, self.maximum + 1):
            labels = [self.render(v, decimals) for v in values]
            if all(_reads_as(label, v) for label, v in zip(labels, values, strict=True)):
                self.decimals = decimals
                return
            if distinct is None and len(set(labels)) == len(labels):
                distinct = decimals
        self.decimals = self.minimum if distinct is None else distinct

    def __call__(self, x, pos=None) -> str:
        return self.render(float(x), self.decimals)


def _reads_as(label: str, value: float) -> bool:
    """Whether a percent or points label is ``value`` (a share) to within float noise."""
    number = label.replace("%", "").replace("pp", "").replace("+", "").strip()
    try:
        return abs(float(number) - 100 * value) < 1e-6 * max(1.0, abs(100 * value))
    except ValueError:
        return False


def _percent_text(x: float, decimals: int) -> str:
    text = f"{100 * x:.{decimals}f}"
    return ("0" if float(text) == 0 else text) + "%"


def _points_text(x: float, decimals: int) -> str:
    text = f"{100 * x:+.{decimals}f}"
    return "0" if float(text) == 0 else f"{text} pp"


def percent_formatter(decimals: int | None = None) -> DistinctFormatter:
    """Tick labels for shares (0..1) as percentages, never two alike on one axis.

    Parameters
    ----------
    decimals : int, optional
        Fewest decimals of every label (0 when None); more are used where the ticks would
        otherwise read the same.

    Returns
    -------
    DistinctFormatter
        ``0.25 -> "25%"``; ``0.24, 0.245, 0.25 -> "24.0%", "24.5%", "25.0%"``.
    """
    return DistinctFormatter(_percent_text, minimum=decimals or 0)


def points_formatter(decimals: int = 0) -> DistinctFormatter:
    """Tick labels for differences of shares as signed percentage points, never two alike.

    Parameters
    ----------
    decimals : int, default 0
        Fewest decimals; more are used where the ticks would otherwise read the same.

    Returns
    -------
    DistinctFormatter
        ``0.03 -> "+3 pp"``, ``0 -> "0"``; ``0.005, 0.01 -> "+0.5 pp", "+1.0 pp"``.
    """
    return DistinctFormatter(_points_text, minimum=decimals)


__all__ = [
    "PLAIN_INTERVALS",
    "DistinctFormatter",
    "barh_ci",
    "corrected_intervals",
    "cumulative_shares",
    "facing_ses",
    "mean_reference",
    "new_figure",
    "percent_formatter",
    "plain_caption",
    "points_ci",
    "points_formatter",
    "reference_heatmap",
    "repeated_tick_labels",
    "step_cdf",
    "wrapped",
]
