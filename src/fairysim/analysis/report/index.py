"""``results/index.html``: one page linking every report, each with its balance card in a line.

``fairysim report all`` writes every registered report into its own folder, then this page
beside them. The line of a report is read back from the files the report wrote (its
``<prefix>balance.csv`` and ``<prefix>turn_order.csv``), so the index says exactly what the
pages say; a report without a balance card (the solo report: one player against Pahha) is
linked without one.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from fairysim.analysis.report.formats import fmt_interval, fmt_percent, fmt_points
from fairysim.analysis.report.page import Report
from fairysim.stats.turn_order import ordinal

INDEX_FILENAME = "index.html"
"""The page ``fairysim report all`` writes at the top of its folder."""

REPORT_SUFFIX = "report.html"
"""Every report page is ``<prefix>report.html``; its tables are ``<prefix><table>.csv``."""


@dataclass(frozen=True)
class WrittenReport:
    """A report on disk: its name (``fairysim report <name>``) and its HTML page."""

    name: str
    page: Path

    @property
    def prefix(self) -> str:
        """The prefix of the report's files (``"fantastique-"``)."""
        return self.page.name.removesuffix(REPORT_SUFFIX)

    def table(self, stem: str) -> pd.DataFrame | None:
        """The report's ``<prefix><stem>.csv``, or None where it wrote none."""
        path = self.page.parent / f"{self.prefix}{stem}.csv"
        return pd.read_csv(path) if path.is_file() else None

    def title(self) -> str:
        """The page's title."""
        match = re.search(r"<title>(.*?)</title>", self.page.read_text(encoding="utf-8"), re.S)
        return html.unescape(match.group(1)) if match else self.name


def balance_line(report: WrittenReport) -> str:
    """The report's balance card in one line: the turn-order verdict and the margins."""
    turn, card = report.table("turn_order"), report.table("balance")
    if turn is None or card is None:
        return "No balance card (no turn order to compare)."
    off = turn[turn["significant"].astype(bool)]
    comparisons = int(turn["p_value"].notna().sum())
    if off.empty:
        order = f"no turn position differs from the fair share ({comparisons} comparisons)"
    else:
        order = "; ".join(
            f"{int(r.players)} players {ordinal(int(r.turn_position) - 1)} "
            f"{fmt_points(r.advantage)} "
            f"{fmt_interval(r.low - r.fair, r.high - r.fair, points=True)}"
            for r in off.itertuples(index=False)
        )
        order = f"turn order off fair after correction: {order}"
    margins = ", ".join(
        f"{int(r.players)}p {r.margin:.1f} [{r.margin_low:.1f}, {r.margin_high:.1f}]"
        for r in card.itertuples(index=False)
    )
    line = f"{order.capitalize()}. Winning margin (points): {margins}."
    if "comeback" in card.columns:
        comebacks = ", ".join(
            f"{int(r.players)}p {fmt_percent(r.comeback)} "
            f"{fmt_interval(r.comeback_low, r.comeback_high)}"
            for r in card.itertuples(index=False)
        )
        line += f" Comebacks: {comebacks}."
    games = int(card["games"].sum())
    return f"{line} ({games:,} games on the card.)"


def write_index(out_dir: str | Path, written: list[WrittenReport]) -> Path:
    """Write ``out_dir/index.html`` linking every written report with its balance line.

    Parameters
    ----------
    out_dir : str or Path
        The folder holding the reports' folders.
    written : list of WrittenReport
        The reports, in the order to list them.

    Returns
    -------
    Path
        The index page.
    """
    out = Path(out_dir)
    page = Report("fairysim reports", INDEX_FILENAME)
    page.paragraph(
        "Every report of this run, each with its balance card in one line (intervals 95%, "
        "turn-order verdicts corrected as on the report's own page)."
    )
    items = []
    for report in written:
        link = html.escape(report.page.relative_to(out).as_posix())
        items.append(
            f'<li><a href="{link}">{html.escape(report.title())}</a> '
            f"(<code>fairysim report {html.escape(report.name)}</code>): "
            f"{html.escape(balance_line(report))}</li>"
        )
    page.raw("<ul>" + "".join(items) + "</ul>")
    return page.write(out)


__all__ = ["INDEX_FILENAME", "WrittenReport", "balance_line", "write_index"]
