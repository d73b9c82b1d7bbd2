"""The Fantastique designer report: how often does each Grande Finale fan change the winner?

One module past 600 lines: the fans' own sections (the ranking, the rate per player count, the
lineups, the check under the best heuristic) and the answer card's fan questions read the one
fan study; the figures live in ``figures``.

``fairysim report fantastique`` calls :func:`write_report`: the standard report
(:mod:`fairysim.analysis.report.pipeline`) of
:func:`fairysim.analysis.fantastique.study.fan_strength` with the fans' own sections, written here.
It writes ``fantastique-report.html`` (figures
embedded) with the tables behind it as CSV files and the figures
(:mod:`fairysim.analysis.fantastique.figures`) as PNG files.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import pandas as pd

from fairysim.analysis.fantastique.check import fan_check
from fairysim.analysis.fantastique.declaration import REPORT
from fairysim.analysis.fantastique.figures import (
    decides_figure,
    gain_figure,
    strength_figure,
)
from fairysim.analysis.fantastique.study import (
    PLAYER_COUNTS,
    FanStrength,
    Lineup,
    baseline_table,
    fan_strength,
    report_lineups,
)
from fairysim.analysis.report.answer import (
    check_question,
    comparisons_answer,
    verdict_table,
)
from fairysim.analysis.report.answer_card import Question, RungAnswer
from fairysim.analysis.report.formats import (
    fmt_interval,
    fmt_intervals,
    fmt_percent,
    fmt_points,
    verdict,
)
from fairysim.analysis.report.heuristic_check import check_paragraphs
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.pipeline import ReportRun, StandardReport, Studies
from fairysim.analysis.report.plots import plain_caption
from fairysim.analysis.report.verdict_marks import definition, tested
from fairysim.analysis.studies.card_effects import CardEffectStudy
from fairysim.analysis.studies.heuristic_check import HeuristicCheck
from fairysim.analysis.studies.ladder import LadderStudy
from fairysim.stats.letters import compact_letters


class FantastiqueReport(StandardReport):
    """The fans' sections of the standard report (:mod:`fairysim.analysis.report.pipeline`)."""

    declaration = REPORT
    title = "Fantastique: how often does each Grande Finale fan change the winner?"
    players = PLAYER_COUNTS
    axes = MappingProxyType({"fan": "I"})
    check = staticmethod(fan_check)

    def study(self, run: ReportRun, games: int, alpha: float) -> FanStrength:
        """The Grande Finale study (:func:`~fairysim.analysis.fantastique.study.fan_strength`):
        every report lineup around the baseline ``run.policy``, at ``games`` per cell."""
        return fan_strength(
            games,
            run.seed,
            run.players,
            threads=run.threads,
            progress=run.progress,
            cards=run.cards,
            alpha=alpha,
            lineups=report_lineups(run.policy),
        )

    def run_what(self, study: FanStrength) -> tuple[str, int]:
        meta = study.meta
        games, runs = meta["games"], len(study.cells)
        covers = ""
        if list(meta["players"]) != list(PLAYER_COUNTS):
            covers = f" ({_join(map(str, meta['players']))} players only, from Python)"
        what = f"{games:,} games per cell (fan x player count x lineup), {runs} runs{covers}"
        return what, games * runs

    def policy_of(self, meta: dict) -> str:
        """The baseline lineup's policy."""
        return next(lu for lu in meta["lineups"] if lu["name"] == meta["baseline"])["seat0"]

    def balance_words(self, study: FanStrength) -> dict[str, str]:
        baseline = study.meta["baseline"]
        return {"what": f"the {baseline} lineup under every fan (each deal counted once)"}

    def replay_command(self, study: FanStrength, example: dict) -> str:
        return _replay_command(study, example)

    def introduction(self, report: Report, studies: Studies) -> None:
        meta = studies.study.meta
        report.paragraph(
            "Every run uses the same seed, so game i deals the same cards in every lineup and "
            "under every fan: lineups and fans are compared game by game on identical deals "
            "(paired differences), which removes the luck of the deal from the comparison."
        )
        report.bullets(_lineup_lines(meta["lineups"], meta["baseline"]))

    def sections_before_effects(self, report: Report, studies: Studies) -> None:
        strength = studies.study
        _strength_section(report, strength, studies.check)
        _decides_section(report, strength)
        _gain_section(report, strength)

    def closing_sections(self, report: Report, studies: Studies) -> None:
        _more_tables(report, studies.study)

    def own_questions(self, studies: Studies) -> list[Question]:
        return [_finale_question(studies.study), _fan_question(studies.study, studies.check)]


FINALE_SECTION = "How often the Grande Finale changes the winner, by fan"
FINALE_WORDS = {"above": "more often", "below": "less often"}


def _finale_question(strength: FanStrength) -> Question:
    """The share of games the Grande Finale changes the winner, per fan (the ranking's rates)."""
    r = strength.ranking
    baseline = strength.meta["baseline"]
    rates = "; ".join(
        f"{fan} {fmt_percent(v)} {fmt_interval(lo, hi)}"
        for fan, v, lo, hi in zip(
            r["fan"], r["strength"], r["strength_low"], r["strength_high"], strict=True
        )
    )
    counts = ", ".join(map(str, strength.meta["players"]))
    low, high = r.loc[r["strength"].idxmin()], r.loc[r["strength"].idxmax()]
    short = (
        f"in {fmt_percent(low['strength'])} (fan {low['fan']}) to "
        f"{fmt_percent(high['strength'])} (fan {high['fan']}) of games"
    )
    answer = RungAnswer(
        _policy(strength),
        short,
        f"fan {rates} (plain 95% intervals; averaged over {counts} players)",
        f"{strength.meta['games']:,} games per fan and player count, the {baseline} lineup",
        FINALE_SECTION,
    )
    return Question(
        "Grande Finale",
        "in what share of games does the finale change the winner (against the winner on "
        "medal points alone), per fan?",
        (answer,),
    )


def _fan_question(strength: FanStrength, check: HeuristicCheck | None) -> Question:
    """Is a fan out of band: does the finale change the winner more (or less) often under it
    than under every other fan? The ranking's corrected pairs, then the best-heuristic check."""
    pairs = verdict_table(strength.fan_differences, "difference")
    pooled = comparisons_answer(
        pairs,
        "base_",
        f"{_policy(strength)}, averaged over player counts",
        _pair_name,
        _check_value,
        FINALE_SECTION,
        f"{strength.meta['games']:,} games per fan and player count",
        "pooled",
        what="fan pairs",
        pairs=("stronger", "weaker"),
        words=FINALE_WORDS,
        family="fan_differences",
        columns=("significant", "difference"),
    )
    asks = (
        "is a fan out of band: does the finale change the winner more (or less) often under "
        "it than under every other fan?"
    )
    return check_question(
        check,
        "Fans",
        asks,
        _pair_name,
        _check_value,
        FINALE_SECTION,
        what="fan pairs",
        pairs=("stronger", "weaker"),
        words=FINALE_WORDS,
        before=(pooled,),
        family="fan_check",
    )


def _pair_name(row) -> str:
    return f"fan {row.stronger} against fan {row.weaker}:"


def _policy(strength: FanStrength) -> str:
    meta = strength.meta
    return next(lu for lu in meta["lineups"] if lu["name"] == meta["baseline"])["seat0"]


FANTASTIQUE_REPORT = FantastiqueReport()
write_report = FANTASTIQUE_REPORT.write
"""``write_report(out_dir, *, games=None, seed=None, threads=None, progress=None, cards=None,
players=None, precision=None, max_games=None, policy="greedy", card_games=None,
ladder_games=None, search_games=None, heuristic_games=None)``: play the study and write the
report (:meth:`~fairysim.analysis.report.pipeline.StandardReport.write`; the defaults are
:data:`~fairysim.analysis.fantastique.declaration.REPORT`'s)."""

FILE_PREFIX = FANTASTIQUE_REPORT.prefix
"""CSV and PNG files are named ``fantastique-<table>.csv`` / ``fantastique-<figure>.png``."""

REPORT_FILENAME = FANTASTIQUE_REPORT.filename


def build_report(
    strength: FanStrength,
    effects: CardEffectStudy | None = None,
    ladder: LadderStudy | None = None,
    check: HeuristicCheck | None = None,
) -> Report:
    """Assemble the report of a finished study in memory (nothing is written).

    Parameters
    ----------
    strength : FanStrength
        Result of :func:`~fairysim.analysis.fantastique.study.fan_strength`.
    effects : CardEffectStudy, optional
        The card-effect study (:func:`~fairysim.analysis.studies.card_effects.card_effects`); its
        section is left out without it.
    ladder : LadderStudy, optional
        The skill ladder (:func:`~fairysim.analysis.studies.ladder.ladder_study`); its section is
        left out without it.
    check : HeuristicCheck, optional
        The fan comparisons under the best heuristic
        (:func:`~fairysim.analysis.fantastique.check.fan_check`), shown in the fans' section.

    Returns
    -------
    Report
        Call :meth:`Report.write` to write it.
    """
    return FANTASTIQUE_REPORT.build(Studies(strength, effects, ladder, check))


# --------------------------------------------------------------------------------------------
# Sections


def _strength_section(
    report: Report, strength: FanStrength, check: HeuristicCheck | None = None
) -> None:
    r = strength.ranking
    d = strength.fan_differences
    report.section(FINALE_SECTION)
    report.paragraph(
        "The measure: the share of games the Grande Finale changes the winner: "
        + definition(
            "games whose winners on the final score differ from the winners on medal points alone"
        )
        + " (before the two Grande "
        f"Finale medals are added), in the {strength.meta['baseline']} lineup, "
        "averaged with equal weight over the player counts. 0 % would mean the finale never "
        "changes who wins; a high value means the finale, not the seven rounds of medals, "
        "often decides the game."
    )
    report.paragraph(
        f"{_ranking_sentence(r, d, f'{report.prefix}fan_differences.csv')} Every pair of fans "
        f"is compared on identical deals (pairs corrected together: all {len(d)} pairs of "
        "fans, strength averaged over the player counts, Holm; every pair in the second table "
        "below); "
        + definition(
            "fans that share a letter in the ranking are not separated after correction, two "
            "that share none are"
        )
        + "."
    )
    report.figure(
        "strength",
        strength_figure(strength),
        plain_caption(
            "Share of games the Grande Finale changes the winner, by fan.",
            "The letters in the table below come from the corrected pairwise differences.",
        ),
    )
    report.table(
        "ranking",
        r,
        "Ranking. letters: "
        + definition(
            "fans sharing a letter are not separated by the corrected pairwise differences"
        )
        + " (next table); plain 95% interval = the fan's own interval, not "
        "corrected; finale cards = mean cards the fan counts per "
        f"seat ({strength.meta['baseline']}); gain = change in seat 0's win share when it "
        "plays for the fan instead of as the baseline (corrected interval).",
        display=_ranking_display(strength, report.prefix),
    )
    if not d.empty:
        report.table(
            "fan_differences",
            d,
            "Differences between every pair of fans in the share of games the finale changes "
            "the winner (pp of games; fan a is the one with the larger estimate), paired on "
            "identical deals, with Holm-corrected intervals.",
            display=_verdict_display(
                d[["stronger", "weaker", "difference", "low", "high", "significant"]],
                {"stronger": "fan a", "weaker": "fan b", "difference": "difference (a minus b)"},
                "difference",
            ),
        )
    if check is not None:
        check_paragraphs(
            report,
            check,
            "fan comparisons",
            lambda r: f"fan {r.stronger} against fan {r.weaker}",
            _check_value,
            "fan_check",
            note="The ranking above averages the player counts; here both policies play one "
            "count, so each pair's verdicts are compared on the same games.",
        )


def _check_value(row, prefix: str) -> str:
    """One policy's difference of a fan pair in the share of games the finale changes the
    winner, with its corrected interval."""
    value, low, high = (getattr(row, prefix + k) for k in ("value", "low", "high"))
    return f"{fmt_points(value)} {fmt_interval(low, high, points=True)}"


def _ranking_sentence(r: pd.DataFrame, d: pd.DataFrame, family: str) -> str:
    """The top and the bottom of the ranking, each verdict marked against the rows of the
    corrected pairs (``d``, written as ``family``) that support it."""
    first = r.iloc[0]
    lead = (
        f"Under fan {first['fan']} ({first['description']}) the finale changes the winner in "
        f"{fmt_percent(first['strength'])} "
        f"{fmt_interval(first['strength_low'], first['strength_high'])} (plain 95%) of games"
    )
    if d.empty:
        return f"{lead}."
    split = d.index[d["significant"]]
    if split.empty:
        return (
            f"{lead}, but "
            + tested(
                "no fan is separated from another after correction",
                family,
                list(d.index),
                "not separated",
            )
            + "."
        )
    return (
        f"{lead}; "
        + "; ".join(_end_of_ranking(r, d, family, end) for end in ("top", "bottom"))
        + "; "
        + tested(f"{len(split)} of {len(d)} pairs are separated", family, list(split), "separated")
        + "."
    )


def _end_of_ranking(r: pd.DataFrame, d: pd.DataFrame, family: str, end: str) -> str:
    """``"most often: II"`` where the leader is separated from every other fan, else the fans
    the correction does not separate from it (the same at the bottom, "least often")."""
    fan = r["fan"].iloc[0 if end == "top" else -1]
    mine = d[d["stronger"] == fan] if end == "top" else d[d["weaker"] == fan]
    word = "most often" if end == "top" else "least often"
    if mine["significant"].all():
        return tested(f"{word}: {fan}", family, list(mine.index), "higher")
    tied = mine[~mine["significant"]]
    others = tied["weaker"] if end == "top" else tied["stronger"]
    return tested(
        f"not separated from fan {fan}, the {'top' if end == 'top' else 'bottom'} of the "
        f"ranking: {', '.join(others)}",
        family,
        list(tied.index),
        "not separated",
    )


def _decides_section(report: Report, strength: FanStrength) -> None:
    report.section("How often the Grande Finale changes the winner, by player count")
    report.paragraph(
        "The same share per player count. More players means more rivals for the two Grande "
        "Finale medals (20 and 10 points), while the seven rounds hand out the same medal rows."
    )
    report.figure(
        "decides",
        decides_figure(strength),
        "Share of games the Grande Finale changes the winner, by fan and player count.",
    )
    table = baseline_table(strength, "finale_decides")
    display = table.map(fmt_percent).reset_index().rename(columns={"fan": "fan"})
    display.columns = ["fan", *[f"{c} players" for c in table.columns]]
    report.table(
        "cells",
        strength.cells,
        f"Share of games the finale changes the winner ({strength.meta['baseline']}); the CSV "
        "holds every "
        "lineup with intervals, mean cards counted and seat 0's win share.",
        display=display,
    )
    counts = baseline_table(strength, "finale_count")
    count_display = counts.map(lambda v: f"{v:.2f}").reset_index()
    count_display.columns = ["fan", *[f"{c} players" for c in counts.columns]]
    report.table(
        "finale_counts",
        strength.finale_counts,
        f"Mean cards the Grande Finale counts per seat ({strength.meta['baseline']}, cards); "
        "the CSV holds the "
        "full distribution for every lineup.",
        display=count_display,
    )


def _gain_section(report: Report, strength: FanStrength) -> None:
    report.section("Does playing for the fan pay?")
    report.paragraph(
        f"Seat 0 switches from the baseline ({strength.meta['baseline']}) to a fan-aware policy "
        "while every other seat keeps the baseline's; the same deals are played both ways and "
        "seat 0's win share is compared game by game, in percentage points (pp) of games. The "
        "gains per player count are one corrected family, the gains averaged over player "
        "counts another."
    )
    fg, per_players = strength.fan_gains, strength.gains
    if fg.empty:
        report.paragraph("No lineup differs from the baseline at seat 0 only: no gain measured.")
        return
    report.bullets(_gain_lines(fg, per_players, report.prefix))
    report.figure(
        "gain", gain_figure(strength), "Fan-aware gain over the baseline by fan and player count."
    )
    report.table(
        "gains",
        per_players,
        f"Gain of seat 0 over the baseline per player count ({len(per_players)} comparisons, "
        "Holm-corrected intervals; the CSV has every column).",
        display=_verdict_display(
            per_players[["fan", "players", "lineup", "gain", "low", "high", "significant"]],
            {"lineup": "seat 0 plays"},
            "gain",
        ),
    )
    report.table(
        "fan_gains",
        fg,
        f"The same gains averaged over player counts ({len(fg)} comparisons, Holm-corrected).",
        display=_verdict_display(
            fg[["fan", "lineup", "gain", "low", "high", "significant"]],
            {"lineup": "seat 0 plays"},
            "gain",
        ),
    )


def _gain_lines(
    fan_gains: pd.DataFrame, gains: pd.DataFrame, prefix: str = FILE_PREFIX
) -> list[str]:
    """Per lineup: how many averaged gains are up, down or not separated from 0, and every
    per-player-count gain or loss the correction keeps (an average can hide a loss); each
    verdict marked against the rows of ``<prefix>fan_gains.csv`` or ``<prefix>gains.csv``."""
    averaged, per_count = f"{prefix}fan_gains.csv", f"{prefix}gains.csv"
    lines = []
    for lineup, group in fan_gains.groupby("lineup", sort=False):
        parts = [
            tested(
                f"{text} the baseline under {len(rows)} fan(s)",
                averaged,
                list(rows.index),
                claim,
                value="gain",
            )
            for rows, text, claim in (
                (group[(group["gain"] > 0) & group["significant"]], "better than", "higher"),
                (group[(group["gain"] < 0) & group["significant"]], "worse than", "lower"),
                (group[~group["significant"]], "not separated from", "not separated"),
            )
            if len(rows)
        ]
        line = f"{lineup}, averaged over player counts: " + ", ".join(parts) + "."
        cells = gains[(gains["lineup"] == lineup) & gains["significant"]]
        for sign, word, claim in ((1, "gains", "higher"), (-1, "losses", "lower")):
            kept = cells[np.sign(cells["gain"]) == sign]
            if not kept.empty:
                items = "; ".join(
                    f"fan {c.fan} at {int(c.players)} players {fmt_points(c.gain)} "
                    f"{fmt_interval(c.low, c.high, points=True)}"
                    for c in kept.itertuples(index=False)
                )
                line += " " + tested(
                    f"Separated {word} per player count: {items}.",
                    per_count,
                    list(kept.index),
                    claim,
                    value="gain",
                )
        lines.append(line)
    return lines


def _more_tables(report: Report, strength: FanStrength) -> None:
    report.section("Files")
    report.paragraph(
        "Every table above is also written in full precision as a CSV file beside this page, "
        "with one more: per-seat finale counts and points for every run "
        f"(`{FILE_PREFIX}seat_finale.csv`); every figure is also an SVG file. "
        f"`{FILE_PREFIX}metadata.json` records the configuration."
    )
    report.data("seat_finale", strength.seat_finale)


# --------------------------------------------------------------------------------------------
# Table helpers


def _replay_command(strength: FanStrength, example: dict) -> str:
    """The ``fairysim replay`` command of one of the balance card's example games."""
    meta = strength.meta
    baseline = next(lu for lu in meta["lineups"] if lu["name"] == meta["baseline"])
    players = int(example["players"])
    policy = ",".join(Lineup(**baseline).policies(players))
    if baseline["seat0"] == baseline["others"]:
        policy = baseline["seat0"]
    command = (
        f"fairysim replay fantastique --players {players} --fan {example['fan']} "
        f"--policy {policy} --seed {meta['seed']} --games {meta['games']} "
        f"--game {int(example['game'])}"
    )
    return command + (f" --cards {meta['cards']}" if "cards" in meta else "")


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


def _ranking_display(strength: FanStrength, prefix: str = FILE_PREFIX) -> pd.DataFrame:
    """The ranking as the page shows it, its letters and each gain's verdict marked against
    ``<prefix>ranking.csv``."""
    r = strength.ranking
    out = pd.DataFrame(
        {
            "rank": r["rank"],
            "letters": _letters(strength),
            "fan": r["fan"],
            "counts": r["description"],
            "finale changes the winner": r["strength"].map(fmt_percent),
            "plain 95% interval": fmt_intervals(r["strength_low"], r["strength_high"]),
            "finale cards": r["finale_count"].map(lambda v: f"{v:.2f}"),
        }
    )
    family = f"{prefix}ranking.csv"
    for col in r.columns:
        if col.startswith("gain_") and not col.endswith(("_low", "_high", "_significant")):
            name = col.removeprefix("gain_")
            out[f"{name} gain"] = [
                f"{fmt_points(g)} {fmt_interval(lo, hi, points=True)}"
                + (
                    ""
                    if sig
                    else ", "
                    + tested(
                        "not significant",
                        family,
                        row,
                        "not separated",
                        significant=f"{col}_significant",
                        value=col,
                    )
                )
                for row, (g, lo, hi, sig) in enumerate(
                    zip(
                        r[col],
                        r[f"{col}_low"],
                        r[f"{col}_high"],
                        r[f"{col}_significant"],
                        strict=True,
                    )
                )
            ]
    return out


def _letters(strength: FanStrength) -> list[str]:
    """Each fan's letters in ranking order (:func:`~fairysim.stats.letters.compact_letters`)."""
    r, d = strength.ranking, strength.fan_differences
    estimates = dict(zip(r["fan"], r["strength"], strict=True))
    separated = list(
        zip(d["stronger"][d["significant"]], d["weaker"][d["significant"]], strict=True)
    )
    letters = compact_letters(estimates, separated)
    return [letters[fan] for fan in r["fan"]]


def _verdict_display(frame: pd.DataFrame, rename: dict[str, str], value: str) -> pd.DataFrame:
    """Differences as signed pp with their interval and a plain verdict column."""
    out = frame.drop(columns=[c for c in ("se", "n") if c in frame.columns]).copy()
    out[value] = out[value].map(fmt_points)
    out["corrected interval"] = fmt_intervals(out["low"], out["high"], points=True)
    out["verdict"] = out["significant"].map(verdict)
    out = out.drop(columns=["low", "high", "significant"])
    return out.rename(columns=rename)


def _join(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


__all__ = [
    "FILE_PREFIX",
    "REPORT_FILENAME",
    "FantastiqueReport",
    "build_report",
    "write_report",
]
