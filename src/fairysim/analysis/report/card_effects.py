"""The card-effect section every report with a declared intervention shares, and its figure.

The study is :func:`fairysim.analysis.studies.card_effects.card_effects`; here it becomes a page
section: what the intervention does, the ranking in tied groups per player count, the table
of effects beside associations (sorted by effect, corrected intervals), the sentences where the
two disagree, and one figure.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.report.formats import fmt_interval, fmt_intervals, fmt_points
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.plots import new_figure, wrapped
from fairysim.analysis.report.table_cards import table_card_subsection
from fairysim.analysis.studies.card_effects import CardEffectStudy

"""What the effect compares, where the study's meta does not say (``CardEffects.zero_note``)."""
FIGURE_NAME = "card_effects"
TABLE_NAME = "card_effects"


def card_effect_section(
    report: Report, study: CardEffectStudy, command: str, own_notes: Sequence[str] = ()
) -> None:
    """Write the section: method, verdicts, figure, table, disagreements and how to rerun.

    ``own_notes`` are the report's own sentences comparing the effect with the card statistic
    it shows elsewhere (:func:`~fairysim.analysis.studies.card_effects.disagreements` on it).
    """
    meta = study.meta
    table = study.effects
    label = meta["card_label"]
    report.section(f"Card strength as an effect: one more card, by {label}")
    report.paragraph(
        f"For every {label}, games 0 to {meta['games'] - 1:,} of seed {meta['seed']} are played "
        f"twice: as dealt, and with the card put in seat {meta['seat']}'s reach: "
        f"{meta['intervention']}. Every other draw and every policy's random stream are the "
        "same in both, so each game gives one paired difference in that seat's win share; the "
        "effect is their mean, in percentage points (pp) of games, over the games where the "
        f"intervention could be made. {meta['zero_note']}."
    )
    report.paragraph(
        "Beside it stands the association the same baseline games show: the change in the "
        f"seat's win share per copy of the card {meta['held_text']} "
        "(least-squares slope, robust standard error). A seat with a strong hand or a strong "
        "game holds more of everything, so the association is not the card's own effect. Each "
        "column is one "
        f"family of {len(table)} comparisons corrected with Holm's method; a card is called "
        f"{meta['stronger']} or {meta['weaker']} only where its "
        "corrected interval excludes 0."
    )
    report.bullets(_verdict_lines(study))
    report.figure(
        FIGURE_NAME,
        card_effect_figure(study),
        f"Effect of one more card, by {label}, on the seat's win share, beside the association.",
    )
    report.table(
        TABLE_NAME,
        table,
        "Effects and associations per player count, sorted by effect (pp of games; "
        "corrected intervals; games = games where the intervention was made; pairing = paired "
        "standard error over that of two unpaired runs of as many games).",
        display=_display(table),
    )
    if study.checks:
        report.paragraph(
            "Under the best heuristic, every seat playing it (a verdict that changes is not a "
            "tested difference between the two policies: one interval may just reach 0 where "
            "the other does not; compare the effects and their intervals in the CSV):"
        )
        report.bullets(study.checks)
    notes = [*study.notes, *own_notes] or [
        "The effect and the association agree in sign and in order."
    ]
    report.paragraph("Where the effect and the association disagree:")
    report.bullets(notes)
    report.paragraph(
        f"For intervals about a third as wide, rerun with ten times the games: `{command}`."
    )
    for table_study in study.table_cards:
        table_card_subsection(report, table_study)


def rerun_command(report_name: str, study: CardEffectStudy, extra: str = "") -> str:
    """The ``fairysim report`` command that replays the section with ten times the games: the
    study's seed and policy, then ``extra`` (the report's own options, ``--cards``)."""
    meta = study.meta
    command = (
        f"fairysim report {report_name} --seed {meta['seed']} --card-games {10 * meta['games']}"
    )
    policies = {p for lineup in meta["policies"].values() for p in lineup}
    if policies != {"greedy"}:
        command += f" --policy {','.join(sorted(policies))}"
    return command + extra


def _verdict_lines(study: CardEffectStudy) -> list[str]:
    """Per player count: the tied groups by effect and the cards each verdict names."""
    lines = []
    for players, groups in study.groups.items():
        rows = study.effects[study.effects["players"] == players]
        ordered = " > ".join("{" + ", ".join(g) + "}" if len(g) > 1 else g[0] for g in groups)
        strong = rows[rows["effect_significant"] & (rows["effect"] > 0)]["label"].tolist()
        weak = rows[rows["effect_significant"] & (rows["effect"] < 0)]["label"].tolist()
        line = (
            f"{rows['table'].iloc[0]}: in tied groups by effect (braces hold cards the correction "
            f"does not separate), {ordered}."
        )
        if strong:
            line += f" {_capital(study.meta['stronger'])}: {', '.join(strong)}."
        if weak:
            line += f" {_capital(study.meta['weaker'])}: {', '.join(weak)}."
        if not strong and not weak:
            line += " No card's effect is separated from 0 after correction."
        lines.append(line)
    return lines


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _display(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "table": table["table"],
            "card": table["label"],
            "effect": table["effect"].map(fmt_points),
            "effect interval": fmt_intervals(table["effect_low"], table["effect_high"], True),
            "verdict": table["verdict"],
            "games": table["games"].map("{:,}".format),
            "pairing": table["se_ratio"].map("{:.2f}".format),
            "association per card": table["association"].map(fmt_points),
            "association interval": [
                fmt_interval(lo, hi, points=True)
                for lo, hi in zip(table["association_low"], table["association_high"], strict=True)
            ],
            "held": table["held"].map("{:.2f}".format),
        }
    )


def card_effect_figure(study: CardEffectStudy) -> Figure:
    """One panel per player count: cards sorted by effect, the effect (filled) and the
    association (hollow) with their corrected intervals, and a labelled zero line."""
    table = study.effects
    counts = list(study.groups)
    # Every panel lists its own order of the cards, so each needs room for the longest label.
    panel = 2.4 + 0.075 * int(table["label"].str.len().max())
    fig, axes = new_figure(
        panel * len(counts) + 0.6, 0.36 * table["label"].nunique() + 1.6, ncols=len(counts)
    )
    axes = np.atleast_1d(axes)
    for ax, players in zip(axes, counts, strict=True):
        rows = table[table["players"] == players].sort_values("effect")
        y = np.arange(len(rows))
        for column, offset, style, name in (
            ("effect", 0.12, {"fmt": "o", "color": "C0"}, "effect"),
            ("association", -0.12, {"fmt": "o", "mfc": "white", "color": "C1"}, "association"),
        ):
            mid = rows[column].to_numpy() * 100
            err = np.vstack(
                [
                    mid - rows[f"{column}_low"].to_numpy() * 100,
                    rows[f"{column}_high"].to_numpy() * 100 - mid,
                ]
            )
            ax.errorbar(mid, y + offset, xerr=err, capsize=2, label=name, **style)
        ax.axvline(0.0, color="0.3", linewidth=0.8, linestyle="--", label="0 = no effect")
        ax.set_yticks(y, rows["label"].tolist())
        ax.set_xlabel("seat's win share (pp of games)")
        ax.set_title(rows["table"].iloc[0], fontsize=10)
    # under the panels, one key for all of them: inside a panel it covered a long interval
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=3, fontsize=8)
    title = (
        f"One more card, by {study.meta['card_label']}: its effect on the seat's win share "
        "(filled) beside the association (hollow)"
    )
    fig.suptitle(wrapped(title, fig.get_figwidth()), fontsize=11)
    return fig


__all__ = ["card_effect_figure", "card_effect_section", "rerun_command"]
