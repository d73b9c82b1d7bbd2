"""The Fantastique designer report: how strong is each Grande Finale fan?

``fairysim report fantastique`` calls :func:`write_report`, which runs
:func:`fairysim.analysis.fantastique.study.fan_strength` and writes ``fantastique-report.html``
(figures embedded) with the tables behind it as CSV files and the figures
(:mod:`fairysim.analysis.fantastique.figures`) as PNG files.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from fairysim.analysis.fantastique.figures import (
    decides_figure,
    gain_figure,
    seat_figure,
    strength_figure,
)
from fairysim.analysis.fantastique.study import (
    PLAYER_COUNTS,
    FanStrength,
    Lineup,
    baseline_table,
    fan_strength,
)
from fairysim.analysis.formats import fmt_interval, fmt_intervals, fmt_percent, fmt_points, verdict
from fairysim.analysis.page import Report
from fairysim.analysis.seats import seat_display, seat_test_display, seat_test_lines
from fairysim.analysis.studies import DEFAULT_SEED
from fairysim.sim.batch import Progress
from fairysim.sim.fantastique import FantastiqueCards
from fairysim.sim.fantastique.spec import REPORT_GAMES

DEFAULT_GAMES = REPORT_GAMES
"""Games per (fan, player count, lineup) cell of the default report.

The report plays 6 fans x 4 player counts x 4 lineups = 96 runs, 576,000 games at this setting.
Measured on 2 shared cores: about 16 s with a warm numba cache and about 65 s on a cold cache
(compilation takes about 30 s of it), so the report stays well under 2 minutes even on a slower
or busy machine. The interval on a fan's strength is then about +/- 0.6 percentage points and
neighbouring fans in the ranking are told apart. Raise ``games`` for finer comparisons (time
grows linearly)."""

REPORT_FILENAME = "fantastique-report.html"
FILE_PREFIX = "fantastique-"
"""CSV and PNG files are named ``fantastique-<table>.csv`` / ``fantastique-<figure>.png``."""


def write_report(
    out_dir: str | Path,
    *,
    games: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    cards: str | Path | FantastiqueCards | None = None,
    players: Sequence[int] | None = None,
) -> Path:
    """Run the Grande Finale study and write the HTML report with its CSV and PNG files.

    Parameters
    ----------
    out_dir : str or Path
        Folder for the report (created if missing).
    games : int, default :data:`DEFAULT_GAMES`
        Games per (fan, player count, lineup) cell.
    seed : int, default :data:`~fairysim.analysis.studies.DEFAULT_SEED`
        Seed of every run (all runs share it, so lineups and fans play identical deals).
    threads : int, optional
        numba threads (all cores by default); never changes the numbers.
    progress : callable, optional
        ``progress(games_done, games_total)`` over the whole study.
    cards : path or FantastiqueCards, optional
        Card file (deck and medal rows); the rulebook's by default.
    players : sequence of int, default (2, 3, 4, 5)
        Player counts.

    Returns
    -------
    Path
        ``out_dir / "fantastique-report.html"``.

    Notes
    -----
    Nothing is written until the study and every figure are complete; then every file is
    staged beside its destination and renamed into place, the HTML last, so a failed or
    interrupted run never leaves a half-written report.
    """
    strength = fan_strength(
        DEFAULT_GAMES if games is None else games,
        DEFAULT_SEED if seed is None else seed,
        PLAYER_COUNTS if players is None else players,
        threads=threads,
        progress=progress,
        cards=cards,
    )
    return build_report(strength).write(out_dir)


def build_report(strength: FanStrength) -> Report:
    """Assemble the report of a finished study in memory (nothing is written).

    Parameters
    ----------
    strength : FanStrength
        Result of :func:`~fairysim.analysis.fantastique.study.fan_strength`.

    Returns
    -------
    Report
        Call :meth:`Report.write` to write it.
    """
    meta = strength.meta
    games, seed = meta["games"], meta["seed"]
    runs = len(strength.cells)
    baseline = meta["baseline"]
    report = Report(
        "Fantastique: how strong is each Grande Finale fan?", REPORT_FILENAME, FILE_PREFIX
    )

    command = f"fairysim report fantastique --games {games} --seed {seed}"
    if "cards" in meta:
        command += f" --cards {meta['cards']}"
    players_note = ""
    if list(meta["players"]) != list(PLAYER_COUNTS):
        players_note = f" (this report covers {_join(map(str, meta['players']))} players only)"
    report.paragraph(
        f"{games:,} games per cell (fan x player count x lineup), {runs} runs, "
        f"{games * runs:,} games in all; seed {seed}; fairysim {meta['package_version']}. "
        f"Reproduce with `{command}`{players_note}.",
        css_class="meta",
    )
    report.paragraph(
        "Every run uses the same seed, so game i deals the same cards in every lineup and "
        "under every fan: lineups and fans are compared game by game on identical deals "
        "(paired differences), which removes the luck of the deal from the comparison. "
        "Intervals are 95 %. A shared win between k players counts 1/k for each. "
        'Where an interval covers 0 (or the fair share), the text says "not significant": '
        "the simulation cannot tell the difference from chance at this number of games."
    )
    report.bullets(_lineup_lines(meta["lineups"], baseline))

    _strength_section(report, strength)
    _decides_section(report, strength)
    _gain_section(report, strength)
    _seat_section(report, strength)
    _more_tables(report, strength)

    report.metadata(meta)
    return report


# --------------------------------------------------------------------------------------------
# Sections


def _strength_section(report: Report, strength: FanStrength) -> None:
    r = strength.ranking
    report.heading("1. Fans ranked by strength")
    report.paragraph(
        "Strength = the share of games the Grande Finale decides: games whose winners on the "
        "final score differ from the winners on medal points alone (before the two Grande "
        f"Finale medals are added), in the {strength.meta['baseline']} lineup, "
        "averaged with equal weight over the player counts. 0 % would mean the finale never "
        "changes who wins; a high value means the finale, not the seven rounds of medals, "
        "often decides the game."
    )
    top, bottom = r.iloc[0], r.iloc[-1]
    report.paragraph(
        f"Strongest: fan {top['fan']} ({top['description']}), deciding "
        f"{fmt_percent(top['strength'])} of games "
        f"{fmt_interval(top['strength_low'], top['strength_high'])}. Weakest: fan "
        f"{bottom['fan']} ({bottom['description']}), {fmt_percent(bottom['strength'])} "
        f"{fmt_interval(bottom['strength_low'], bottom['strength_high'])}."
    )
    report.figure("strength", strength_figure(strength), "Figure (a): fans ranked by strength.")
    report.table(
        "ranking",
        r,
        "Ranking. finale cards = mean cards the fan counts per seat (all greedy); gain = "
        "change in seat 0's win share when it plays for the fan instead of greedily.",
        display=_ranking_display(strength),
    )
    if not strength.fan_differences.empty:
        lines = []
        for d in strength.fan_differences.itertuples(index=False):
            verdict = "significant" if d.significant else "not significant"
            lines.append(
                f"Fan {d.stronger} vs fan {d.weaker}: {fmt_points(d.difference)} "
                f"{fmt_interval(d.low, d.high, points=True)}, {verdict}."
            )
        report.paragraph(
            "Is each fan really stronger than the next one in the ranking? Paired on identical "
            "deals:"
        )
        report.bullets(lines)
        report.table(
            "fan_differences",
            strength.fan_differences,
            "Strength differences between neighbours in the ranking (share of games).",
            display=_verdict_display(
                strength.fan_differences,
                {"stronger": "stronger fan", "weaker": "weaker fan"},
                "difference",
            ),
        )


def _decides_section(report: Report, strength: FanStrength) -> None:
    report.heading("2. How often the Grande Finale changes who wins")
    report.paragraph(
        "The same share per player count. More players means more rivals for the two Grande "
        "Finale medals (20 and 10 points), while the seven rounds hand out the same medal rows."
    )
    report.figure(
        "decides", decides_figure(strength), "Figure (b): finale-decides rate by fan and players."
    )
    table = baseline_table(strength, "finale_decides")
    display = table.map(fmt_percent).reset_index().rename(columns={"fan": "fan"})
    display.columns = ["fan", *[f"{c} players" for c in table.columns]]
    report.table(
        "cells",
        strength.cells,
        f"Share of games the finale decides ({strength.meta['baseline']}); the CSV holds every "
        "lineup with intervals, mean cards counted and seat 0's win share.",
        display=display,
    )
    counts = baseline_table(strength, "finale_count")
    count_display = counts.map(lambda v: f"{v:.2f}").reset_index()
    count_display.columns = ["fan", *[f"{c} players" for c in counts.columns]]
    report.table(
        "finale_counts",
        strength.finale_counts,
        "Mean cards the Grande Finale counts per seat (all greedy, cards); the CSV holds the "
        "full distribution for every lineup.",
        display=count_display,
    )


def _gain_section(report: Report, strength: FanStrength) -> None:
    report.heading("3. Does playing for the fan pay?")
    report.paragraph(
        "Seat 0 switches from greedy to a fan-aware policy while every other seat stays "
        "greedy; the same deals are played both ways and seat 0's win share is compared game "
        "by game. Gains are averaged over player counts, in percentage points (pp) of games."
    )
    fg = strength.fan_gains
    if fg.empty:
        report.paragraph("No lineup differs from the baseline at seat 0 only: no gain measured.")
        return
    lines = []
    for lineup, group in fg.groupby("lineup", sort=False):
        up = int(((group["gain"] > 0) & group["significant"]).sum())
        down = int(((group["gain"] < 0) & group["significant"]).sum())
        flat = len(group) - up - down
        lines.append(
            f"{lineup}: significantly better than greedy under {up} fan(s), significantly "
            f"worse under {down}, not significant under {flat}."
        )
    report.bullets(lines)
    report.figure(
        "gain",
        gain_figure(strength),
        "Figure (c): fan-aware gain over greedy by fan and player count.",
    )
    display = _verdict_display(fg.drop(columns=["policy"]), {"lineup": "seat 0 plays"}, "gain")
    report.table(
        "fan_gains",
        fg,
        "Gain of seat 0 over greedy, averaged over player counts.",
        display=display,
    )
    per_players = strength.gains
    report.table(
        "gains",
        per_players,
        "The same gains per player count (the CSV has every column).",
        display=_verdict_display(
            per_players[["fan", "players", "lineup", "gain", "low", "high", "significant"]],
            {"lineup": "seat 0 plays"},
            "gain",
        ),
    )


def _seat_section(report: Report, strength: FanStrength) -> None:
    report.heading("4. Seat advantage")
    report.paragraph(
        "Win share by seat (seat 0 is the first seat in the results; the seat that starts "
        "round 1 is drawn at random, ruling F1) against the fair share 1/players. Under the "
        "baseline every fan replays the same deals, so the pooled interval counts one fan's "
        "games (conservative)."
    )
    tests = strength.seat_tests
    report.bullets(seat_test_lines(tests[tests["fan"] == "all"]))
    report.figure("seats", seat_figure(strength), "Figure (d): seat advantage by player count.")
    seats = strength.seats_pooled
    report.table(
        "seats_pooled", seats, "Seat advantage, pooled over fans.", display=seat_display(seats)
    )
    report.table(
        "seat_tests",
        tests,
        "Chi-square test that every seat wins equally often, per fan and pooled ('all').",
        display=seat_test_display(tests),
    )


def _more_tables(report: Report, strength: FanStrength) -> None:
    report.heading("5. Files")
    report.paragraph(
        "Every table above is also written in full precision as a CSV file beside this page, "
        "with two more: per-seat finale counts and points for every run "
        f"(`{FILE_PREFIX}seat_finale.csv`) and seat advantage per fan (`{FILE_PREFIX}seats.csv`). "
        f"`{FILE_PREFIX}metadata.json` records the configuration."
    )
    report.data("seat_finale", strength.seat_finale)
    report.data("seats", strength.seats)


# --------------------------------------------------------------------------------------------
# Table helpers


def _lineup_lines(lineups: list[dict], baseline: str) -> list[str]:
    out = []
    for lu in lineups:
        lineup = Lineup(lu["name"], lu["seat0"], lu["others"])
        role = " (baseline)" if lineup.name == baseline else ""
        if lineup.seat0 == lineup.others:
            out.append(f"{lineup.name}{role}: every seat plays {lineup.seat0}.")
        else:
            out.append(
                f"{lineup.name}{role}: seat 0 plays {lineup.seat0}, the others {lineup.others}."
            )
    return out


def _ranking_display(strength: FanStrength) -> pd.DataFrame:
    r = strength.ranking
    out = pd.DataFrame(
        {
            "rank": r["rank"],
            "fan": r["fan"],
            "counts": r["description"],
            "strength": r["strength"].map(fmt_percent),
            "95% interval": fmt_intervals(r["strength_low"], r["strength_high"]),
            "finale cards": r["finale_count"].map(lambda v: f"{v:.2f}"),
        }
    )
    for col in r.columns:
        if col.startswith("gain_") and not col.endswith(("_low", "_high", "_significant")):
            name = col.removeprefix("gain_")
            out[f"{name} gain"] = [
                f"{fmt_points(g)} {fmt_interval(lo, hi, points=True)}"
                + ("" if sig else ", not significant")
                for g, lo, hi, sig in zip(
                    r[col], r[f"{col}_low"], r[f"{col}_high"], r[f"{col}_significant"], strict=True
                )
            ]
    return out


def _verdict_display(frame: pd.DataFrame, rename: dict[str, str], value: str) -> pd.DataFrame:
    """Differences as signed pp with their interval and a plain verdict column."""
    out = frame.drop(columns=[c for c in ("se", "n") if c in frame.columns]).copy()
    out[value] = out[value].map(fmt_points)
    out["95% interval"] = fmt_intervals(out["low"], out["high"], points=True)
    out["verdict"] = out["significant"].map(verdict)
    out = out.drop(columns=["low", "high", "significant"])
    return out.rename(columns=rename)


def _join(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


__all__ = [
    "DEFAULT_GAMES",
    "FILE_PREFIX",
    "REPORT_FILENAME",
    "build_report",
    "write_report",
]
