"""The forced-card effect beside an association's rows, so a reader sees both in one table.

A lift or a holders' win share describes games: seats that ended with a card won more or less
often than seats without it. It is an association and says nothing of what the card does (a seat
that wins many auctions or drafts many cards holds more of everything). What the card does is the
forced-card effect (:mod:`fairysim.analysis.studies.card_effects`): the same deals played with the
card put in a seat's reach. A report that measures both shows the effect, with its corrected
interval, in the association's own table, each card's row matched by its label, and counts where
the two part: cards whose association is significantly high but whose effect is not separated
from 0, and cards whose association is significantly low while their effect is significantly
positive. No advice is drawn from an association.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairysim.analysis.report.formats import fmt_interval, fmt_intervals, fmt_points, verdict
from fairysim.analysis.report.verdict_marks import tested
from fairysim.analysis.studies.card_effects import CardEffectStudy

NOT_MEASURED = "not measured"
"""What a cell says where the card-effect study has no row for the card."""

COLUMNS = ("forced_effect", "forced_effect_low", "forced_effect_high", "forced_effect_significant")
"""The columns :func:`effects_beside` adds to an association's data (share of games)."""


def effects_beside(effects: CardEffectStudy | None, labels: pd.Series) -> pd.DataFrame:
    """Each label's forced-card effect averaged over the player counts, one Holm family
    (:meth:`CardEffectStudy.pooled`), in the order of ``labels``; nan where the study has no
    such card or no study was run.

    Parameters
    ----------
    effects : CardEffectStudy, optional
        The report's card-effect study.
    labels : pandas.Series
        The association table's card labels, as the card-effect study names them.

    Returns
    -------
    pandas.DataFrame
        :data:`COLUMNS`, one row per label, on ``labels``' index.
    """
    out = pd.DataFrame(index=labels.index, columns=list(COLUMNS), dtype=np.float64)
    if effects is None:
        return out
    pooled = effects.pooled().set_index("label")
    found = labels.map(lambda label: label in pooled.index).to_numpy(bool)
    rows = pooled.reindex(labels[found].to_numpy())
    for column, source in zip(
        COLUMNS, ("effect", "effect_low", "effect_high", "effect_significant"), strict=True
    ):
        out.loc[found, column] = rows[source].to_numpy(np.float64)
    return out


def effect_display(beside: pd.DataFrame) -> dict[str, list[str]]:
    """The display columns of :func:`effects_beside`: the effect in signed points, its
    corrected interval and its verdict; "not measured" where the study has no row, and as the
    verdict where it has no significance flag."""
    measured = beside["forced_effect"].notna().tolist()
    effect = beside["forced_effect"].map(fmt_points).tolist()
    intervals = fmt_intervals(beside["forced_effect_low"], beside["forced_effect_high"], True)
    # a flag the study left unset is no verdict: bool(nan) would read as "significant"
    verdicts = [
        NOT_MEASURED if pd.isna(s) else verdict(bool(s))
        for s in beside["forced_effect_significant"]
    ]
    return {
        "forced-card effect": _where(measured, effect, NOT_MEASURED),
        "effect's corrected interval": _where(measured, intervals, ""),
        "effect verdict": _where(measured, verdicts, ""),
    }


def _where(measured: list[bool], cells: list[str], missing: str) -> list[str]:
    return [c if m else missing for c, m in zip(cells, measured, strict=True)]


def association_against_effect(
    names: pd.Series,
    association: pd.Series,
    significant: pd.Series,
    beside: pd.DataFrame,
    measure: str,
    family: str,
    columns: tuple[str, str],
) -> list[str]:
    """Sentences counting where an association and the forced-card effect part, each count
    marked against the rows of ``family`` that support it.

    Parameters
    ----------
    names : pandas.Series
        How the sentences name each card.
    association, significant : pandas.Series
        The association (share of games) and whether its corrected interval excludes 0.
    beside : pandas.DataFrame
        :func:`effects_beside` of the same rows.
    measure : str
        The association's name on the page ("the lift").
    family : str
        The CSV file the page writes holding these rows, in this order, with ``beside``'s
        columns.
    columns : tuple of str
        That file's columns of the association's corrected flag and of its estimate.

    Returns
    -------
    list of str
        Empty where no effect was measured.
    """
    measured = beside["forced_effect"].notna()
    if not measured.any():
        return []
    effect_sig = beside["forced_effect_significant"].fillna(0).astype(bool) & measured
    high = significant.astype(bool) & (association > 0) & measured
    low = significant.astype(bool) & (association < 0) & measured
    high_no_effect = high & ~effect_sig
    low_helps = low & effect_sig & (beside["forced_effect"] > 0)

    def rows(mask: pd.Series) -> list[int]:
        return [int(i) for i in np.flatnonzero(mask.to_numpy(bool))]

    def effect(text: str, mask: pd.Series, claim: str) -> str:
        return tested(
            text,
            family,
            rows(mask),
            claim,
            significant="forced_effect_significant",
            value="forced_effect",
        )

    if high.any():
        positive = (
            f"Of the {int(high.sum())} card(s) with a "
            + tested(
                f"significantly positive {measure}", family, rows(high), "higher", **_on(columns)
            )
            + ", "
            + (
                effect(
                    f"{int(high_no_effect.sum())} show no effect separated from 0",
                    high_no_effect,
                    "not separated",
                )
                if high_no_effect.any()
                else effect("every one shows an effect separated from 0", high, "separated")
            )
            + " when forced into a seat's reach"
        )
    else:
        positive = f"No card's {measure} is positive with a corrected interval excluding 0"
    if low.any():
        negative = (
            f"of the {int(low.sum())} with a "
            + tested(
                f"significantly negative {measure}", family, rows(low), "lower", **_on(columns)
            )
            + ", "
            + (
                effect(
                    f"{int(low_helps.sum())} raise the win share significantly when forced",
                    low_helps,
                    "higher",
                )
                if low_helps.any()
                else "none gains win share when forced by a corrected interval excluding 0"
            )
        )
    else:
        negative = f"no card's {measure} is negative with a corrected interval excluding 0"
    lines = [
        f"{positive}; {negative}. The {measure} describes who won, not what the card does: "
        "read the forced-card effect for that."
    ]
    if low_helps.any():
        i = association[low_helps].idxmin()
        row = beside.loc[i]
        interval = fmt_interval(row["forced_effect_low"], row["forced_effect_high"], points=True)
        lines.append(
            f"For example {names[i]}: {measure} {fmt_points(association[i])}, forced-card "
            f"effect {fmt_points(row['forced_effect'])} {interval}."
        )
    return lines


def _on(columns: tuple[str, str]) -> dict[str, str]:
    significant, value = columns
    return {"significant": significant, "value": value}


__all__ = ["COLUMNS", "association_against_effect", "effect_display", "effects_beside"]
