"""The sections every report shares, written once: the run block, the statistics note, the
balance card and seat advantage by turn order.

A report is a :class:`~fairysim.analysis.report.page.Report` filled by a sequence of sections; each
game's ``report.py`` calls these for what every game shows and adds its own sections (fans, honors
and solo setups, auctions and courts). What a section needs from a game comes from the game's spec
(its :class:`~fairysim.sim.game.TurnOrder`, its length column) and from the study's
:class:`~fairysim.analysis.studies.balance.BalanceCard`. ``docs/architecture.md`` ("Reports") says
how a section is added.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.report.formats import (
    fmt_interval,
    fmt_intervals,
    fmt_percent,
    fmt_points,
    games_in_words,
)
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.plots import new_figure, points_formatter
from fairysim.analysis.report.verdict_marks import definition, tested
from fairysim.analysis.studies.balance import BalanceCard
from fairysim.stats.turn_order import ordinal

METHOD_NAMES = {
    "holm": "Holm's step-down correction (family-wise error 5 %)",
    "fdr_bh": "Benjamini-Hochberg (false discovery rate 5 %, intervals FCR-adjusted)",
}
"""How the page names each correction of :mod:`fairysim.stats.corrections`."""


def run_block(report: Report, what: str, games: int, seed: int, version: str, command: str) -> None:
    """The box at the top of every report: what was played, the seed, and how to reproduce it.

    Parameters
    ----------
    report : Report
        The page.
    what : str
        How the games are laid out (e.g. ``"6,000 games per cell (fan x player count x
        lineup), 96 runs"``).
    games : int
        Games played in all.
    seed : int
        The seed of every run.
    version : str
        fairysim's version.
    command : str
        The command that writes this report again.
    """
    report.paragraph(
        f"{what}, {games:,} games in all; seed {seed}; fairysim {version}. "
        f"Reproduce with `{command}`.",
        css_class="meta",
    )


def games_option(meta: dict[str, Any]) -> str:
    """The options that give a report its games again: ``--games N``, or ``--precision H
    --max-games N`` where the study was played to a precision."""
    if "precision" in meta:
        return f"--precision {meta['precision']:g} --max-games {meta['max_games']}"
    return f"--games {meta['games']}"


def precision_note(report: Report, meta: dict[str, Any]) -> None:
    """Where a study was played to a precision, what it reached and how it stopped."""
    if "precision" not in meta:
        return
    looks = ", ".join(f"{n:,}" for n in meta["precision_looks"])
    report.paragraph(
        f"Played to a precision: {meta['precision_reached']}. The study looked at {looks} "
        "games per run (doubling, the last look at --max-games), each look's "
        f"{meta.get('precision_watched', 'turn-order win share')} intervals at the 5 % error "
        "rate divided by the looks planned, so the intervals keep their coverage whatever look "
        "it stopped at.",
        css_class="meta",
    )


def statistics_note(report: Report, method: str = "holm") -> None:
    """The paragraph that says how every interval and verdict on the page is made."""
    report.paragraph(
        "How to read the numbers: every share carries its 95% interval and the games behind "
        "it. Each table of comparisons is one family, corrected with "
        f"{METHOD_NAMES[method]} (statsmodels `multipletests`); "
        + definition(
            "the interval printed beside a comparison is the corrected one, so it excludes the "
            'reference exactly when the verdict says "significant". A ranking names a single '
            "leader only when the correction separates it from every other; otherwise it "
            "lists items with letters, two items sharing a letter not separated after correction."
        )
        + " A shared win between k players counts 1/k for each."
    )


def balance_section(
    report: Report,
    card: BalanceCard,
    order: Any,
    *,
    what: str = "",
    trace_note: str = "",
    standing: str = "",
) -> None:
    """The balance card: one table, one row per player count, before any game's own section.

    Parameters
    ----------
    report : Report
        The page.
    card : BalanceCard
        The study's card.
    order : TurnOrder
        The game's turn order (its ruling and label).
    what : str
        Which runs the card reads (e.g. ``"all greedy, every fan"``).
    trace_note : str
        Said when the card has no lead changes (the engine records no per-round standings).
    standing : str
        What a seat's standing after a round is (the runs' trace), said after the comeback
        line where the card has one.
    """
    report.heading("Balance at a glance")
    summary = card.summary
    lines = [
        f"Turn order ({_order_words(order)}): "
        + _turn_verdict(card, f"{report.prefix}turn_order.csv"),
        "Winning margin: the winner's score minus the runner-up's, in points; "
        '"top score tied" counts games a tie-break or a shared win decided.',
    ]
    if "comeback" in summary.columns:
        lines.append(
            "Comeback: the share of games whose sole leader after the first third of the "
            "rounds does not win (games with a shared lead then are left out); lead changes "
            "count how often the sole leader changes over the rounds."
            + (f" {standing}" if standing else "")
        )
    elif trace_note:
        lines.append(trace_note)
    report.paragraph(f"The games of {what}." if what else "Every game of the study.")
    report.bullets(lines)
    report.table("balance", summary, "Balance card, one row per player count.", _card_display(card))


def turn_order_section(report: Report, card: BalanceCard, order: Any) -> None:
    """Seat advantage by turn order: a figure of every position's advantage with its corrected
    interval, the verdicts, and the table.

    Parameters
    ----------
    report : Report
        The page.
    card : BalanceCard
        The study's card (its ``turn_order`` table).
    order : TurnOrder
        The game's turn order.
    """
    t = card.turn_order
    report.heading("Seat advantage by turn order")
    report.paragraph(
        f"Win share by turn position ({_order_words(order)}) against the fair share 1/players. "
        "Intervals are clustered by game (a game's positions share one win; runs that replay "
        f"the same deals count them once) and corrected over the table's {card.comparisons} "
        f"comparisons with {METHOD_NAMES[card.method]}"
        + (
            f", at an error rate of {card.alpha:.2%} (--precision's looks)."
            if card.alpha < 0.05
            else "."
        )
    )
    deals = _deals(card)
    report.bullets(turn_order_lines(t, deals, f"{report.prefix}turn_order.csv"))
    report.figure(
        "turn_order",
        turn_order_figure(t),
        "Advantage of each turn position over the fair share, with its corrected interval.",
    )
    report.table(
        "turn_order",
        t,
        "Win share by turn position (games = distinct deals, as in the balance card: a deal "
        "replayed in several runs counts once, its runs averaged; the CSV's games count every "
        "run's games).",
        turn_order_display(t, deals),
    )


def replay_section(
    report: Report, card: BalanceCard, command: Callable[[dict[str, Any]], str]
) -> None:
    """Games worth replaying: per player count, a typical game and the widest-margin game,
    each with the ``fairysim replay`` command that tells it move by move.

    Parameters
    ----------
    report : Report
        The page.
    card : BalanceCard
        The study's card (its ``examples``).
    command : callable
        ``command(example)`` the replay command of one example row (its ``players``,
        ``game`` and run label).
    """
    if card.examples.empty:
        return
    report.section("Replay a game")
    report.paragraph(
        "Each game of the study can be told move by move by the reference engine, which plays "
        "it exactly as the fast engine did: the deal, every decision with the choices the seat "
        "had, the score after each round and the final breakdown (add `--html FILE` for a page)."
    )
    report.bullets(
        f"{int(e['players'])} players, {e['kind']} game (winning margin {e['margin']:g} points): "
        f"`{command(e)}`"
        for e in card.examples.to_dict("records")
    )


def _deals(card: BalanceCard) -> dict[int, str]:
    """Per player count, the games the balance card counts (distinct deals) in words, so the
    turn-order section names the same games behind the same intervals."""
    s = card.summary
    return {
        int(p): games_in_words(g, r)
        for p, g, r in zip(s["players"], s["games"], s["runs"], strict=True)
    }


def turn_order_lines(
    t: pd.DataFrame, deals: dict[int, str] | None = None, family: str | None = None
) -> list[str]:
    """One sentence per player count: which positions the corrected tests separate from fair;
    ``deals`` words each count's games as the balance card counts them; with ``family`` (the
    table's CSV file) each verdict is marked against its rows
    (:mod:`~fairysim.analysis.report.verdict_marks`)."""

    def mark(text: str, rows: list[int], claim: str) -> str:
        return tested(text, family, rows, claim, value="advantage") if family else text

    lines = []
    for players, g in t.groupby("players", sort=True):
        games = (deals or {}).get(int(players), f"{int(g['games'].max()):,} games")
        off = g[g["significant"]]
        if off.empty:
            r = _largest(g)
            lines.append(
                f"{int(players)} players ({games}): "
                + mark("no position differs from the fair share", list(g.index), "not separated")
                + f" {fmt_percent(r.fair)} (largest difference: {_advantage(r)})."
            )
            continue
        parts = [
            mark(
                f"{ordinal(int(r.position))} {fmt_percent(r.win_share)} "
                f"{fmt_interval(r.low, r.high)}",
                [int(i)],
                "separated",
            )
            for i, r in zip(off.index, off.itertuples(index=False), strict=True)
        ]
        lines.append(
            f"{int(players)} players ({games}): "
            + mark(
                f"significant against the fair share {fmt_percent(g['fair'].iloc[0])}",
                list(off.index),
                "separated",
            )
            + ": "
            + "; ".join(parts)
            + "."
        )
    return lines


def turn_order_display(t: pd.DataFrame, deals: dict[int, str] | None = None) -> pd.DataFrame:
    """The turn-order table as the page shows it (text columns); ``deals`` as in
    :func:`turn_order_lines`."""
    games = [
        (deals or {}).get(int(p), f"{int(n):,}").removesuffix(" games").replace(" games,", ",")
        for p, n in zip(t["players"], t["games"], strict=True)
    ]
    return pd.DataFrame(
        {
            "players": t["players"].astype(int),
            "turn": t["position"].map(lambda p: ordinal(int(p))),
            "games": games,
            "win share": t["win_share"].map(fmt_percent),
            "corrected interval": fmt_intervals(t["low"], t["high"]),
            "fair share": t["fair"].map(fmt_percent),
            "advantage": t["advantage"].map(fmt_points),
            "verdict": t["significant"].map(
                lambda s: "differs from fair" if s else "not significant"
            ),
        }
    )


def turn_order_figure(t: pd.DataFrame) -> Figure:
    """Each turn position's advantage over the fair share (percentage points), one row per
    player count and position, with its corrected interval; the zero line is the fair share."""
    rows = t.sort_values(["players", "position"]).reset_index(drop=True)
    labels = [f"{int(r.players)} players, {ordinal(int(r.position))}" for r in rows.itertuples()]
    fig, (ax,) = new_figure(7.0, 0.32 * len(rows) + 1.8)
    y = np.arange(len(rows))[::-1].astype(float)
    adv = rows["advantage"].to_numpy(float)
    fair = rows["fair"].to_numpy(float)
    err = np.vstack(
        [adv - (rows["low"].to_numpy(float) - fair), (rows["high"].to_numpy(float) - fair) - adv]
    )
    colors = np.where(rows["significant"].to_numpy(bool), "#c44e52", "#4c72b0")
    for i in range(len(rows)):
        ax.errorbar(adv[i], y[i], xerr=err[:, i : i + 1], fmt="o", color=colors[i], capsize=3)
    ax.axvline(0.0, color="#666", ls="--", lw=1, label="fair share (1/players)")
    ax.errorbar([], [], fmt="o", color="#c44e52", label="differs after correction")
    ax.set_yticks(y, labels)
    ax.set_xlabel("win share minus the fair share (percentage points)")
    ax.xaxis.set_major_formatter(points_formatter())
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, fontsize="small")
    ax.set_title("Seat advantage by turn order")
    return fig


def _card_display(card: BalanceCard) -> pd.DataFrame:
    s = card.summary
    t = card.turn_order
    starter = t[t["position"] == 0].set_index("players")
    out: dict[str, Sequence[Any]] = {
        "players": s["players"].astype(int),
        "games": s["games"].map(lambda v: f"{int(v):,}"),
        "1st to act wins": [
            f"{fmt_percent(starter.loc[p, 'win_share'])} "
            f"{fmt_interval(starter.loc[p, 'low'], starter.loc[p, 'high'])}"
            for p in s["players"]
        ],
        "fair share": [fmt_percent(1 / p) for p in s["players"]],
        "positions off fair": [_off_fair(t[t["players"] == p]) for p in s["players"]],
        "winning margin (points)": _mean_column(s, "margin", "{:.1f}"),
        "top score tied": _share_column(s, "tied"),
    }
    if "comeback" in s.columns:
        out["comeback"] = _share_column(s, "comeback")
        out["lead changes"] = _mean_column(s, "lead_changes", "{:.2f}")
    if "length" in s.columns and (s["length_min"] != s["length_max"]).any():
        out["length"] = _mean_column(s, "length", "{:.1f}")  # only where the length varies
    return pd.DataFrame(out)


def _off_fair(g: pd.DataFrame) -> str:
    off = g[g["significant"]]
    if off.empty:
        return "none"
    return "; ".join(_advantage(r) for r in off.itertuples())


def _advantage(r: Any) -> str:
    """A position's advantage with its corrected interval, in percentage points."""
    interval = fmt_interval(r.low - r.fair, r.high - r.fair, points=True)
    return f"{ordinal(int(r.position))} {fmt_points(r.advantage)} {interval}"


def _mean_column(s: pd.DataFrame, name: str, pattern: str) -> list[str]:
    return [
        f"{pattern.format(m)} [{pattern.format(lo)}, {pattern.format(hi)}]"
        for m, lo, hi in zip(s[name], s[f"{name}_low"], s[f"{name}_high"], strict=True)
    ]


def _share_column(s: pd.DataFrame, name: str) -> list[str]:
    return [
        f"{fmt_percent(m)} {fmt_interval(lo, hi)}"
        for m, lo, hi in zip(s[name], s[f"{name}_low"], s[f"{name}_high"], strict=True)
    ]


def _order_words(order: Any) -> str:
    if order.column is not None or order.start_seat is not None:
        return f"1st = the seat that acts first, drawn per game, ruling {order.ruling}"
    return f"seat 0 acts 1st, seat 1 2nd, and so on, ruling {order.ruling}"


def _turn_verdict(card: BalanceCard, family: str) -> str:
    """The balance card's turn-order sentence, marked against the rows of ``family`` (the
    turn-order table's CSV file) that support it."""
    t = card.turn_order
    off = t[t["significant"]]
    if off.empty:
        return (
            tested(
                "no turn position differs from the fair share",
                family,
                list(t.index),
                "not separated",
                value="advantage",
            )
            + f" after correcting for the {card.comparisons} comparisons."
        )
    where = sorted({int(p) for p in off["players"]})
    return (
        tested(
            f"{len(off)} of {card.comparisons} positions differ from the fair share",
            family,
            list(off.index),
            "separated",
            value="advantage",
        )
        + f" after correction, at {', '.join(map(str, where))} players (table below)."
    )


def _largest(g: pd.DataFrame) -> Any:
    """The row of the position farthest from the fair share."""
    adv = g["advantage"].to_numpy(float)
    return next(g.iloc[[int(np.argmax(np.abs(adv)))]].itertuples(index=False))


__all__ = [
    "METHOD_NAMES",
    "balance_section",
    "games_option",
    "precision_note",
    "replay_section",
    "run_block",
    "statistics_note",
    "turn_order_display",
    "turn_order_figure",
    "turn_order_lines",
    "turn_order_section",
]
