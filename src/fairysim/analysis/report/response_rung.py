"""The best-response rung on a report page: the best heuristic's searched response, its gain
over the defaults on fresh deals, and whether it is a dominant strategy
(:mod:`fairysim.analysis.strategy.rung`), with the figure of its head-to-head shares by opponent
and turn position against the band."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.report.answer_card import Mark, Question, RungAnswer
from fairysim.analysis.report.formats import fmt_interval, fmt_percent, fmt_points
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.plots import new_figure, points_ci
from fairysim.analysis.report.verdict_marks import (
    definition,
    dominance_rows,
    dominance_verdict,
    tested,
)
from fairysim.analysis.strategy.rung import ResponseRung, rung_verdict

_SAYS = {
    "dominant": "a dominant strategy was found",
    "not dominant": "no dominant strategy was found in this family",
    "undecided": "the games played do not decide whether it is a dominant strategy",
}


CELLS_NAME = "best_response_dominance"
"""The cells file the section writes, which its verdicts are marked against."""


def verdict_sentence(rung: ResponseRung, family: str | None = None) -> str:
    """One sentence: the verdict, the weakest cell's interval, the band and the weights; the
    verdict and the weakest cell marked against the cells file ``family`` where given."""
    data = rung_verdict(rung)
    weakest = data["weakest"]
    weights = ", ".join(f"{k} {v:.3g}" for k, v in data["weights"].items())
    if data["weights"] == data["start"]:
        weights += ": its defaults, which no candidate beat"
    level = f"{100 * weakest['level']:.4g}%"
    says = f"{data['verdict']}: {_SAYS[data['verdict']]}"
    cell = (
        f"ranks above {weakest['opponent']} at the same table {fmt_percent(weakest['share'])} "
        f"{fmt_interval(weakest['low'], weakest['high'])} of their meetings when it acts "
        f"{weakest['turn']}, its weakest cell"
    )
    band = f"dominant means above {fmt_percent(0.5 + data['band'])} in every cell"
    if family is not None:
        cells = rung.dominance.cells
        says = dominance_verdict(says, family, cells, data["verdict"])
        cell = _weakest_mark(cell, family, cells, data["verdict"])
        band = definition(band)
    return (
        f"Dominant strategy: {says}. The searched response of "
        f"{data['policy']} ({weights}) at {data['players']} players {cell} ({level} "
        f"simultaneous intervals over every opponent and turn position; {band})."
    )


def _weakest_mark(text: str, family: str, cells: pd.DataFrame, verdict: str) -> str:
    """``text`` (the weakest cell's words) marked against its row: above the band where the
    response dominates, below it where it does not, neither where undecided."""
    row = int(np.argmin(cells["low"].to_numpy()))
    claim, flag = {
        "dominant": ("separated", "above_band"),
        "not dominant": ("separated", "below_band"),
    }.get(verdict, ("not separated", "above_band"))
    if verdict == "not dominant" and not bool(cells["below_band"].iloc[row]):
        claim = "not separated"  # the lowest lower end need not be a cell below the band
        flag = "above_band"
    return tested(text, family, row, claim, significant=flag, value="share")


SECTION = "The best-response rung: is there a dominant strategy?"


def dominance_question(rung: ResponseRung) -> Question:
    """The answer card's line: whether the best heuristic's searched response dominates the
    table, from the verdict its section prints (:func:`verdict_sentence`); one rung, the
    response, since the question is asked of it alone."""
    data = rung_verdict(rung)
    weakest = data["weakest"]
    short = f"{data['verdict']}: {_SAYS[data['verdict']]}"
    meaning = f"dominant: above {fmt_percent(0.5 + data['band'])} in every cell"
    answer = RungAnswer(
        f"{data['policy']}'s best response",
        short,
        f"{short}; the cell closest to failing, against {weakest['opponent']} acting "
        f"{weakest['turn']}: it finishes ahead of {weakest['opponent']} in "
        f"{fmt_percent(weakest['share'])} {fmt_interval(weakest['low'], weakest['high'])} of "
        f"their meetings ({meaning})",
        f"{data['deals']:,} deals at {data['players']} players",
        SECTION,
        marks=(*_dominance_marks(rung, data["verdict"]), Mark("best response"), Mark(meaning)),
    )
    return Question(
        "Dominant strategy",
        "does a searched strategy beat every other policy at the table at every turn "
        "position by more than the band?",
        (answer,),
        comparable=False,
        note="A search over one policy's weights: a strategy can gain at least this much.",
    )


def _dominance_marks(rung: ResponseRung, verdict: str) -> tuple[Mark, ...]:
    """The verdict tied to the cells of ``best_response_dominance.csv`` that decide it, as the
    section marks it (:func:`~fairysim.analysis.report.verdict_marks.dominance_rows`)."""
    rows, claim, flag = dominance_rows(rung.dominance.cells.reset_index(drop=True), verdict)
    if not rows:
        return ()
    return (Mark(_SAYS[verdict], "best_response_dominance", tuple(rows), claim, flag, "share"),)


def response_section(report: Report, rung: ResponseRung, command: str) -> None:
    """Write the section: what was searched, the gain, the verdict, its figure and table."""
    result = rung.result
    gain = result.gain
    report.section(SECTION)
    family = f"{report.prefix}{CELLS_NAME}.csv"
    report.paragraph(
        f"One rung past the ladder's best heuristic, {result.policy_name}'s weights are "
        "searched for "
        + definition("the best response to the game's built-ins")
        + f" ({', '.join(rung.field)}, its own "
        f"defaults among them) at {result.players} players: CMA-ES over "
        f"{len(result.candidates)} candidates of {result.games:,} deals each, every seat "
        f"rotated (seed {result.seed}). {_gain_words(result, gain)} Searched weights: "
        + ", ".join(
            f"{k} {v:.3g} (default {result.start[k]:.3g})" for k, v in result.weights.items()
        )
        + "."
    )
    report.paragraph(verdict_sentence(rung, family), css_class="verdict")
    report.paragraph(
        f"Dominance is judged on {rung.dominance.deals:,} further deals neither the search nor "
        "the validation played: for each other policy at the table and each turn position of "
        "the response, "
        + definition(
            "how often the response ranks above it (an equal rank counts half), clustered by "
            "deal. Dominant: every interval above one half plus the band; not dominant: some "
            "interval below it; undecided otherwise"
        )
        + f". Reproduce the search with `{command}`."
    )
    report.figure(
        "best_response",
        dominance_figure(rung),
        "The share of meetings the searched response finishes ahead of each other policy at "
        "the same table (an equal rank counts half), by the response's turn position, with "
        "simultaneous intervals; the dashed line is one half plus the band.",
    )
    cells = rung.dominance.cells
    report.table(
        CELLS_NAME,
        cells,
        "The searched response against each policy at each of its turn positions "
        "(simultaneous intervals; "
        + definition("ranks above: how often it finishes above that policy")
        + ").",
        display=_display(cells, family),
    )


def _gain_words(result: Any, gain: Any) -> str:
    """The response's gain over the defaults on the fresh deals, or that none was found."""
    if result.weights == result.start:
        return (
            "No candidate beat the defaults on the search deals, so the response is the "
            "defaults themselves and no gain is claimed."
        )
    return (
        f"On {result.validation_games:,} fresh deals the response gains "
        f"{fmt_points(gain['estimate'])} {fmt_interval(gain['low'], gain['high'], True)} of win "
        "share over the defaults (Holm-corrected, clustered by deal), "
        + definition(f"a lower bound of how far {result.policy_name}'s weights exploit this field")
        + "."
    )


def response_command(rung: ResponseRung, cards: str = "") -> str:
    """The ``fairysim best-response`` command that runs the rung's search again (``cards`` the
    report's ``--cards`` option, with its leading space, or empty)."""
    result = rung.result
    # A setup axis's option is named after it (docs/vocabulary.md).
    axes = "".join(
        f" --{name.replace('_', '-')} {value}"
        for name, value in result.config.get("axes", {}).items()
    )
    return (
        f"fairysim best-response {result.game} --policy {result.policy_name} --field "
        f"{','.join(rung.field)} --players {result.players} --out-dir best-response "
        f"--seed {result.seed} --evaluations {result.evaluations} --games {result.games} "
        f"--validation-games {result.validation_games}{axes}{cards}"
    )


def dominance_figure(rung: ResponseRung) -> Figure:
    """The cells, one row per opponent (sorted by its lowest share), one series per turn
    position, each with its interval, the band's edge drawn."""
    cells = rung.dominance.cells
    order = cells.groupby("opponent")["share"].min().sort_values(ascending=False).index
    fig, (ax,) = new_figure(7.0, 0.5 * len(order) + 1.6)
    series = {}
    for turn, group in cells.groupby("turn", sort=False):
        by = group.set_index("opponent").reindex(order)
        series[f"acts {turn}"] = (by["share"], by["low"], by["high"])
    points_ci(
        ax,
        list(order),
        series,
        xlabel="Share of meetings the response ranks above the opponent (%)",
        title="The best response against each policy, by its turn position",
        reference=0.5 + rung.dominance.band,
        reference_label=f"dominance band ({fmt_percent(0.5 + rung.dominance.band)})",
        unit="percent",
    )
    return fig


def _display(cells: pd.DataFrame, family: str) -> pd.DataFrame:
    """The cells as the page shows them, each "above"/"below" marked against its own row."""

    def beyond(row: int, above: bool, below: bool) -> str:
        if above:
            return tested(
                "above", family, row, "separated", significant="above_band", value="share"
            )
        if below:
            return tested(
                "below", family, row, "separated", significant="below_band", value="share"
            )
        return "neither"

    return pd.DataFrame(
        {
            "opponent": cells["opponent"],
            "response acts": cells["turn"],
            definition("ranks above"): [fmt_percent(v) for v in cells["share"]],
            "interval": [
                fmt_interval(lo, hi) for lo, hi in zip(cells["low"], cells["high"], strict=True)
            ],
            "beyond the band": [
                beyond(row, bool(a), bool(b))
                for row, (a, b) in enumerate(
                    zip(cells["above_band"], cells["below_band"], strict=True)
                )
            ],
            "deals": [f"{n:,}" for n in cells["deals"]],
        }
    )


__all__ = ["dominance_figure", "response_command", "response_section", "verdict_sentence"]
