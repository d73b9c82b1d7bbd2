"""The skill-ladder section every report shares, and its figure.

The study is :func:`fairysim.analysis.studies.ladder.ladder_study`; here it becomes a page section:
the rungs, the starter's advantage and the turn-order spread per rung (corrected intervals), the
skill gap and ratings, and the warnings where greedy's verdict does not hold under the best
heuristic.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.report.formats import (
    fmt_interval,
    fmt_intervals,
    fmt_percent,
    fmt_points,
    verdict,
)
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.plots import new_figure
from fairysim.analysis.report.verdict_marks import definition, tested
from fairysim.analysis.studies.ladder import POSITION, LadderStudy


def ladder_section(report: Report, study: LadderStudy, command: str) -> None:
    """Write the section: what the ladder is, its verdicts, figure and tables."""
    meta = study.meta
    ladder = ", ".join(meta["ladder"])
    searched = not study.search.empty
    search_note = (
        f"; the top rung, {meta['ladder'][-1]}, is a search player (determinized Monte Carlo "
        f"over the best heuristic's play-outs), played on {meta['search_games']:,} games"
        if searched
        else "; the last is its best heuristic"
    )
    report.section("The skill ladder: balance under weak and strong play")
    report.paragraph(
        f"The verdicts above rest on one policy at every seat. Here the game's ladder ({ladder}, "
        f"in the order the game declares{search_note}) is played in mirror tables, every seat "
        "one rung, "
        f"{meta['games']:,} games each on seed {meta['seed']} (the same deals for every rung), "
        "and the heuristics in a tournament "
        f"(every mix of them, seats rotated, {meta['tournament_games']:,} games per mix and "
        "rotation). Starter's advantage = the win share of the first to act minus the fair "
        "share; spread = the first to act minus the last, game by game. Each column is one "
        "family corrected with Holm's method; positions off the fair share are corrected over "
        "every position of every table."
    )
    report.bullets(_lines(study) + _search_lines(study))
    if study.warnings:
        report.paragraph("Where the ladder changes a verdict:")
        marked = [_change_line(report, study, change) for change in study.changes]
        report.bullets(marked + study.warnings[len(marked) :])
    else:
        report.paragraph(
            "Greedy's seat-advantage verdict holds under the best heuristic, and the ratings "
            "follow the ladder."
        )
    report.figure(
        "ladder",
        ladder_figure(study),
        "The starter's advantage on each rung of the ladder, by player count.",
    )
    report.table(
        "ladder",
        study.rungs,
        "Mirror tables per rung (pp of games, corrected intervals).",
        display=_rung_display(study.rungs),
    )
    report.table(
        "ladder_gaps",
        study.gaps,
        "Skill gap: "
        + definition("how often the top rung ranks above the bottom rung at one table (ties half)")
        + ", 95% interval clustered by deal (a measure, no test).",
        display=_gap_display(study.gaps),
    )
    if searched:
        report.table(
            "ladder_search",
            study.search,
            "The search rung against the best heuristic: one searching seat, the best "
            "heuristic at the others, seats rotated on the same deals (corrected intervals "
            "over the player counts).",
            display=_search_display(study.search),
        )
    report.data("ladder_ratings", study.ratings)
    report.data("ladder_positions", study.positions)
    report.paragraph(f"Rerun with ten times the games: `{command}`.")


def _lines(study: LadderStudy) -> list[str]:
    lines = []
    for n, group in study.rungs.groupby("players", sort=True):
        gap = study.gaps[study.gaps["players"] == n].iloc[0]
        parts = [
            f"{r.policy} {fmt_points(r.advantage)} "
            f"{fmt_interval(r.advantage_low, r.advantage_high, points=True)}"
            for r in group.itertuples()
        ]
        lines.append(
            f"{group['table'].iloc[0]}: starter's advantage {'; '.join(parts)}. "
            f"Skill gap, {gap['top']} over {gap['bottom']}: {fmt_percent(gap['share'])} "
            f"{fmt_interval(gap['low'], gap['high'])} of {int(gap['meetings']):,} meetings."
        )
    return lines


def _change_line(report: Report, study: LadderStudy, change: dict) -> str:
    """One player count where greedy's and the best heuristic's positions off the fair share
    part, each rung's positions marked against its rows of the positions file."""
    family = f"{report.prefix}ladder_positions.csv"
    positions = study.positions
    greedy, best = change["rungs"]

    def off_fair(policy: str) -> str:
        table = (positions["players"] == change["players"]) & (positions["policy"] == policy)
        off = table & positions[f"{POSITION}significant"].astype(bool)
        claim, mask = ("separated", off) if off.any() else ("not separated", table)
        rows = [int(i) for i in np.flatnonzero(mask.to_numpy(bool))]
        words = change[policy] or "none"
        return tested(
            words, family, rows, claim, significant=f"{POSITION}significant", value="win_share"
        )

    return (
        f"{change['table']}: the turn positions off the fair share part between {greedy} "
        f"(off the fair share: {off_fair(greedy)}) and {best} ({off_fair(best)}); a verdict "
        "read under greedy alone does not hold under the best heuristic."
    )


def _search_lines(study: LadderStudy) -> list[str]:
    """One line per player count: the search's win share against the best heuristic."""
    lines = []
    for r in study.search.itertuples():
        beats = r.significant and r.share > r.fair
        lines.append(
            f"{r.table}: one {r.search} seat among {r.against} wins {fmt_percent(r.share)} "
            f"{fmt_interval(r.low, r.high)} against a fair share of {fmt_percent(r.fair)} "
            f"({int(r.games):,} games: {int(r.deals):,} deals, every seat once); it "
            + ("beats the best heuristic." if beats else "is not shown to beat it.")
        )
    return lines


def _search_display(search: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "table": search["table"],
            "search": search["search"],
            "against": search["against"],
            "win share": search["share"].map(fmt_percent),
            "corrected interval": fmt_intervals(search["low"], search["high"]),
            "fair share": search["fair"].map(fmt_percent),
            "verdict": [
                "beats it" if sig and share > fair else "not shown to beat it"
                for sig, share, fair in zip(
                    search["significant"], search["share"], search["fair"], strict=True
                )
            ],
            "games": search["games"].map("{:,}".format),
        }
    )


def _rung_display(rungs: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "table": rungs["table"],
            "policy": [
                f"{policy} ({weights})" if weights else policy
                for policy, weights in zip(rungs["policy"], rungs["weights"], strict=True)
            ],
            "games": rungs["games"].map("{:,}".format),
            "starter's win share": rungs["starter"].map(fmt_percent),
            "advantage": rungs["advantage"].map(fmt_points),
            "advantage interval": fmt_intervals(
                rungs["advantage_low"], rungs["advantage_high"], points=True
            ),
            "advantage verdict": rungs["advantage_significant"].map(verdict),
            "first - last": rungs["spread"].map(fmt_points),
            "spread interval": fmt_intervals(rungs["spread_low"], rungs["spread_high"], True),
            "spread verdict": rungs["spread_significant"].map(verdict),
            "positions off fair": rungs["off_fair"].replace("", "none"),
        }
    )


def _gap_display(gaps: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "table": gaps["table"],
            "top rung": gaps["top"],
            "bottom rung": gaps["bottom"],
            "skill gap": gaps["share"].map(fmt_percent),
            "plain 95% interval": fmt_intervals(gaps["low"], gaps["high"]),
            "meetings": gaps["meetings"].map("{:,}".format),
        }
    )


def ladder_figure(study: LadderStudy) -> Figure:
    """Points with corrected whiskers: the starter's advantage per rung (weakest first, left
    to right) and player count, a labelled zero line."""
    rungs = study.rungs
    order = study.meta["ladder"]
    counts = sorted(rungs["players"].unique())
    fig, axes = new_figure(1.6 * len(order) + 3.0, 3.6)
    ax = axes[0]
    width = 0.7 / max(len(counts), 1)
    for k, n in enumerate(counts):
        rows = rungs[rungs["players"] == n].set_index("policy").reindex(order)
        x = np.arange(len(order)) + (k - (len(counts) - 1) / 2) * width
        mid = rows["advantage"].to_numpy() * 100
        err = np.vstack(
            [
                mid - rows["advantage_low"].to_numpy() * 100,
                rows["advantage_high"].to_numpy() * 100 - mid,
            ]
        )
        ax.errorbar(x, mid, yerr=err, fmt="o", capsize=3, label=rows["table"].iloc[0])
    ax.axhline(0.0, color="0.3", linewidth=0.8, linestyle="--", label="0 = fair")
    ax.set_xticks(np.arange(len(order)), order)
    ax.set_xlabel("rung of the ladder (weakest first)")
    ax.set_ylabel("starter's win share - fair share (pp)")
    ax.set_title("The starter's advantage up the skill ladder", fontsize=11)
    ax.legend(fontsize=8)
    return fig


__all__ = ["ladder_figure", "ladder_section"]
