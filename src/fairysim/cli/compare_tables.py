"""What ``fairysim compare`` prints: who wins first (the headline and the ranking), then each
variant's rows, the who-wins rows before score and its parts, which support them.

Shares read in percent, their differences in percentage points (``pp``), other metrics in
their own units; every verdict word comes from the comparison's Holm-corrected tests, and the
family each is corrected over is named where it is printed.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table

from fairysim.analysis.report.formats import fmt_percent, fmt_points
from fairysim.analysis.studies.what_if import (
    POSITION,
    SPREAD,
    SUPPORTING,
    WHO_WINS,
    headline,
    metric_words,
    pairs_family,
)

HEADLINE_ROWS = 3
"""Separated who-wins rows named per variant in the headline (the table has every one)."""


def signed(value: float, unit: str) -> str:
    """A signed difference, ``0.0`` (no sign) where it rounds to zero: a share's in percentage
    points without the unit (``+1.3``), another metric's with three decimals."""
    text = fmt_points(value).removesuffix(" pp") if unit == "share" else f"{value:+.3f}"
    return text[1:] if text[0] in "+-" and float(text) == 0 else text


def shown(unit: str, difference: float, low: float, high: float) -> tuple[str, str]:
    """A difference and its interval in the metric's unit: shares in percentage points
    (``+1.3 pp``, ``[-1.2, +3.4] pp``, never ``-0.0``), other metrics in their own.

    >>> shown("share", -0.00004, -0.0123, 0.034)
    ('0.0 pp', '[-1.2, +3.4] pp')
    >>> shown("points", 0.0, -0.0001, 2.5)
    ('0.000', '[0.000, +2.500]')
    """
    mid, bounds = signed(difference, unit), (signed(x, unit) for x in (low, high))
    if unit == "share":
        return f"{mid} pp", "[{}, {}] pp".format(*bounds)
    return mid, "[{}, {}]".format(*bounds)


def level_of(unit: str, value: float) -> str:
    """A mean in the metric's unit (a share in percent)."""
    return fmt_percent(value) if unit == "share" else f"{value:.3f}"


def short_verdict(verdict: str) -> str:
    """A verdict without the words the table's title already says."""
    return verdict.replace(" than the baseline", "").replace(" from the baseline", "")


def family_line(differences: Any) -> str:
    """The family every verdict against the baseline is corrected over."""
    tests = int(differences["tests"].iloc[0])
    level = float(differences["level"].iloc[0])
    return (
        f"Verdicts against the baseline: Holm-corrected over the {tests} differences of this "
        "comparison "
        f"(every row of every variant below); intervals at the Bonferroni level ({level:.4%} "
        "each, 95% family-wise). Shares in percent, their differences in pp."
    )


def headline_lines(differences: Any) -> list[str]:
    """One line per variant: the who-wins changes the correction separates, largest first, or
    that none is separated (with the largest change and its interval)."""
    separated = headline(differences)
    lines = []
    for variant in dict.fromkeys(differences["variant"]):
        mine = separated[separated["variant"] == variant]
        if mine.empty:
            rows = differences[
                (differences["variant"] == variant) & (differences["question"] == WHO_WINS)
            ]
            if rows.empty:
                lines.append(f"{variant}: no win share to compare.")
                continue
            big = rows.loc[rows["difference"].abs().idxmax()]
            lines.append(
                f"{variant}: no win share or turn-order spread separated from the baseline "
                f"(largest: {_change(big)})."
            )
            continue
        parts = [_change(row) for _, row in mine.head(HEADLINE_ROWS).iterrows()]
        more = len(mine) - HEADLINE_ROWS
        tail = f"; {more} more separated in its table" if more > 0 else ""
        lines.append(f"{variant}: " + "; ".join(parts) + tail + ".")
    return lines


def _change(row: Any) -> str:
    """``seat 0 (hoarder) wins 24.5% -> 33.1%, +8.6 pp [+5.1 pp, +12.0 pp], higher``."""
    mid, interval = shown("share", row["difference"], row["low"], row["high"])
    before, after = fmt_percent(row["baseline_mean"]), fmt_percent(row["variant_mean"])
    if row["metric"] == "win_share":
        what = f"{row['where']} wins {before} -> {after}"
    else:
        what = f"turn-order spread ({row['where']}) {before} -> {after}"
    return f"{what}, {mid} {interval}, {short_verdict(row['verdict'])}"


HEADERS = ("where", "metric", "baseline", "variant", "difference", "interval", "verdict")
"""The columns of a supporting table; a who-wins table has no ``metric`` column (every row is
a win share, the spread's row names itself in ``where``)."""


def differences_table(differences: Any, variant: str, question: str) -> Table:
    """One variant's rows of one kind: who wins, or the supporting score rows."""
    title = (
        f"{variant}: what changes who wins (win share, variant minus baseline)"
        if question == WHO_WINS
        else f"{variant}, supporting rows: score and its parts (variant minus baseline)"
    )
    table = Table(title=title, title_justify="left")
    headers = [h for h in HEADERS if question != WHO_WINS or h != "metric"]
    for header in headers:
        table.add_column(header, overflow="fold")
    rows = differences[(differences["variant"] == variant) & (differences["question"] == question)]
    if question == WHO_WINS:
        rows = rows.iloc[(-rows["difference"].abs()).argsort(kind="stable")]
    elif not rows.empty:
        rows = rows[(rows["group"] == POSITION) | (rows["group"] == "pooled")]
    for row in rows.itertuples():
        mid, interval = shown(row.unit, row.difference, row.low, row.high)
        unit = "" if row.unit == "share" else f" ({row.unit})"
        where = f"turn-order spread ({row.where})" if row.metric == SPREAD else row.where
        cells = [where, f"{row.label}{unit}"] if question != WHO_WINS else [where]
        table.add_row(
            *cells,
            level_of(row.unit, row.baseline_mean),
            level_of(row.unit, row.variant_mean),
            mid,
            interval,
            short_verdict(row.verdict),
        )
    return table


def ranking_title(ranking: Any) -> str:
    """What the ranking sorts by, in which direction, and the families of its two columns."""
    top = ranking.iloc[0]
    metric = metric_words(str(top["metric"]), str(top["group"]), int(top["index"]))
    order = str(top["order"])
    if top["metric"] == SPREAD:
        order += ": closest to fair"
    pairs = pairs_family(int(top["pairs_tested"]))
    return (
        f"Variants ranked by their change in {metric} ({order}); vs baseline: Holm over the "
        f"comparison's differences; vs next: Holm over the {pairs}"
    )


def ranking_table(ranking: Any) -> Table:
    """The printed ranking of the variants, every cell whole."""
    table = Table(title=ranking_title(ranking), title_justify="left")
    for header in ("rank", "variant", "difference", "interval", "vs baseline", "vs next"):
        table.add_column(header, overflow="fold")
    for row in ranking.itertuples():
        unit = "share" if row.metric in ("win_share", SPREAD) else "points"
        mid, interval = shown(unit, row.difference, row.low, row.high)
        table.add_row(
            str(row.rank),
            row.variant,
            mid,
            interval,
            short_verdict(row.versus_baseline),
            row.versus_next,
        )
    return table


__all__ = [
    "SUPPORTING",
    "WHO_WINS",
    "differences_table",
    "family_line",
    "headline_lines",
    "ranking_table",
    "shown",
    "signed",
]
