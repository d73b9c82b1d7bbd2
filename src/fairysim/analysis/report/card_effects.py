"""The card-effect section every report with a declared intervention shares, and its figure.

The study is :func:`fairysim.analysis.studies.card_effects.card_effects`; here it becomes a page
section: what the intervention does, the cards by effect per player count in a compact letter
display (:mod:`fairysim.stats.letters`) with every pair written to a CSV file, the table
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
from fairysim.analysis.report.verdict_marks import definition, tested
from fairysim.analysis.studies.card_effects import (
    CardEffectStudy,
    disagreement_notes,
    verdict_changes,
)
from fairysim.stats.letters import compact_letters
from fairysim.stats.ranking import family_sentence, pair_rows, separated_pairs

"""What the effect compares, where the study's meta does not say (``CardEffects.zero_note``)."""
FIGURE_NAME = "card_effects"
TABLE_NAME = "card_effects"
PAIRS_NAME = "card_effect_pairs"
BEST_NAME = "card_effects_best_heuristic"


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
        f"family of {len(table)} comparisons corrected with Holm's method; "
        + definition(
            f"a card is called {meta['stronger']} or {meta['weaker']} only where its "
            "corrected interval excludes 0."
        )
    )
    pairs, family = effect_pairs(study)
    pairs_file = report.data(PAIRS_NAME, pairs)
    report.paragraph(
        "Each player count's cards are listed by effect with letters: "
        + definition(
            "two cards that share a letter are not separated by their paired difference after "
            "correction, two that share none are"
        )
        + f" ({family_sentence(family, meta['method'])}; every pair in `{pairs_file}`)."
    )
    report.bullets(_verdict_lines(report, study, family))
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
    report.paragraph(
        f"For intervals about a third as wide, rerun with ten times the games: `{command}`."
    )
    notes = [*_marked_notes(report, study), *own_notes] or [
        "The effect and the association agree in sign and in order."
    ]
    report.heading("Where the effect and the association disagree", level=3)
    report.bullets(notes)
    if study.checks:
        report.heading("Card strength as an effect under the best heuristic", level=3)
        checks = study.checks
        if study.under_best is not None:
            best_file = report.data(BEST_NAME, study.under_best.effects)
            checks = verdict_changes(study, study.under_best, _marker(report, study, best_file))
        report.paragraph(
            "Under the best heuristic, every seat playing it (a verdict that changes is not a "
            "tested difference between the two policies: one interval may just reach 0 where "
            "the other does not; compare the effects and their intervals in the CSV files)"
            + (f", its effects in `{best_file}`" if study.under_best is not None else "")
            + ":"
        )
        report.bullets(checks)
    for table_study in study.table_cards:
        table_card_subsection(report, table_study)


def _marked_notes(report: Report, study: CardEffectStudy) -> list[str]:
    """The study's sentences where the effect and the association disagree, each verdict
    marked against its row of the effects file (the study's own, unmarked, where it keeps no
    groups to word them again)."""
    if not study.groups:
        return list(study.notes)
    family = f"{report.prefix}{TABLE_NAME}.csv"
    values = {"effect_significant": "effect", "association_significant": "association"}

    def mark(words: str, column: str, index: object) -> str:
        row = int(study.effects.index.get_loc(index))
        return tested(words, family, row, "separated", significant=column, value=values[column])

    return disagreement_notes(study.effects, study.groups, study.meta["held_text"], mark)


def _marker(report: Report, study: CardEffectStudy, best_file: str):
    """How :func:`verdict_changes` marks each verdict: against its row of this page's effects
    file (``"study"``) or of the best heuristic's (``"other"``)."""
    families = {"study": f"{report.prefix}{TABLE_NAME}.csv", "other": best_file}
    claims = {study.meta["stronger"]: "higher", study.meta["weaker"]: "lower"}

    def mark(verdict: str, which: str, row: int) -> str:
        claim = claims.get(verdict, "not separated")
        return tested(
            verdict,
            families[which],
            row,
            claim,
            significant="effect_significant",
            value="effect",
        )

    return mark


def _verdict_lines(report: Report, study: CardEffectStudy, family: str) -> list[str]:
    """Per player count: the cards by effect in a compact letter display, and the cards each
    verdict names, each verdict marked against the row of the file that supports it."""
    effects_file = f"{report.prefix}{TABLE_NAME}.csv"
    pairs_file = f"{report.prefix}{PAIRS_NAME}.csv"
    lines = []
    for players in study.groups:
        rows = study.effects[study.effects["players"] == players]
        pairs = study.pairs[study.pairs["players"] == players]
        estimates = dict(zip(rows["label"], rows["effect"], strict=True))
        letters = compact_letters(estimates, separated_pairs(pairs))
        shown = ", ".join(f"{label} {letters[label]}" for label in rows["label"])
        split = int(pairs["significant"].sum())
        verdict_words = (
            tested(
                f"{split} of {len(pairs)} pairs separated",
                pairs_file,
                list(pairs.index[pairs["significant"]]),
                "separated",
                significant="separated",
            )
            if split
            else tested(
                f"no pair of the {len(pairs)} separated",
                pairs_file,
                list(pairs.index),
                "not separated",
                significant="separated",
            )
        )
        line = (
            f"{rows['table'].iloc[0]}, by effect, largest first ({verdict_words}; "
            + definition("cards that share a letter are not separated after correction")
            + f"): {shown}."
        )
        for sign, word, claim in ((1, "stronger", "higher"), (-1, "weaker", "lower")):
            kept = rows[rows["effect_significant"] & (np.sign(rows["effect"]) == sign)]
            if not kept.empty:
                line += " " + tested(
                    f"{_capital(study.meta[word])}: {', '.join(kept['label'])}.",
                    effects_file,
                    list(kept.index),
                    claim,
                    significant="effect_significant",
                    value="effect",
                )
        if not rows["effect_significant"].any():
            line += " " + tested(
                "No card's effect is separated from 0 after correction.",
                effects_file,
                list(rows.index),
                "not separated",
                significant="effect_significant",
                value="effect",
            )
        lines.append(line)
    return lines


def effect_pairs(study: CardEffectStudy) -> tuple[pd.DataFrame, str]:
    """Every pair of cards' effects compared at each player count, as the pairs file holds them
    (:data:`~fairysim.stats.ranking.PAIR_COLUMNS` after ``players``), and the family's name."""
    pairs = study.pairs
    plural = f"{study.meta['card_label']}s"
    counts = list(study.groups)
    if len(counts) == 1:
        family = f"all {len(pairs)} pairs of {plural} at {counts[0]} players"
    else:
        per = pairs.groupby("players").size()
        each = (
            f"{int(per.iloc[0])} at each of {len(counts)} player counts"
            if per.nunique() == 1
            else ", ".join(f"{int(k)} at {n} players" for n, k in per.items())
        )
        family = f"all {len(pairs)} pairs of {plural}, {each}"
    rows = pair_rows(pairs, family)
    rows.insert(0, "players", pairs["players"].to_numpy())
    return rows, family


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _display(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "table": table["table"],
            "card": table["label"],
            "effect": table["effect"].map(fmt_points),
            "effect interval": fmt_intervals(table["effect_low"], table["effect_high"], True),
            "effect verdict": table["verdict"],
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


__all__ = ["card_effect_figure", "card_effect_section"]
