"""The ranking of a what-if's variants: sorted by their difference on one metric, worded from
Holm-corrected tests against the baseline (the comparison's family) and between variants (the
family of every pair of variants, paired on the same games)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from fairysim.analysis.studies.what_if_paired import (
    ALPHA,
    LENGTH,
    POOLED,
    POSITION,
    SPREAD,
    paired_row,
    position_words,
)
from fairysim.runtime.errors import ParameterError
from fairysim.stats.estimates import multipletests


def counted(n: int, noun: str) -> str:
    """``1 label``, ``2 labels``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def pairs_family(n: int) -> str:
    """The family of the ranking's "vs next" tests in words: ``3 pairs of variants``."""
    return f"{counted(n, 'pair')} of variants" if n else "0 pairs (one variant)"


def check_rank(
    metric_names: Sequence[str], rank_by: str, position: int | None, players: int, length: bool
) -> None:
    """Refuse a metric the comparison does not have, and a turn position out of range."""
    known = list(metric_names) + [SPREAD] * (players > 1)
    known += [LENGTH] * length
    if rank_by not in known:
        raise ParameterError("rank_by", f"must be one of {', '.join(known)}, got {rank_by!r}")
    if position is not None:
        if rank_by in (SPREAD, LENGTH):
            raise ParameterError("rank_position", f"{rank_by} is a per-game metric (pooled)")
        if not 1 <= position <= players:
            raise ParameterError(
                "rank_position",
                f"turn positions are 1..{players} (1 = first to act), got {position}",
            )
    elif rank_by == "win_share" and players > 1:
        raise ParameterError(
            "rank_by",
            "a game's win shares sum to 1, so pooled win share never moves: give {rank_position}",
            mentions=("rank_position",),
        )


LOWER_FIRST = (SPREAD,)
"""Metrics the ranking sorts lowest first (a smaller turn-order spread is closer to fair)."""


def rank(
    differences: pd.DataFrame,
    values: Mapping[str, Mapping[tuple[str, int | None, str], np.ndarray]],
    rank_by: str,
    position: int | None,
    labels: Sequence[str],
    alpha: float = ALPHA,
) -> pd.DataFrame:
    """One row per variant, sorted by its difference on ``rank_by`` (lowest first for
    :data:`LOWER_FIRST`, else highest first; ``position`` is 1-based), worded from
    Holm-corrected tests: against the baseline (the family of every difference of the
    comparison) and against the variant ranked next (the family of every pair of variants,
    paired on the same games)."""
    index = -1 if position is None else position - 1
    group = POOLED if position is None else POSITION
    key = (group, None if position is None else index, rank_by)
    rows = differences[
        (differences["group"] == group)
        & (differences["index"] == index)
        & (differences["metric"] == rank_by)
    ].set_index("variant")
    missing = [label for label in labels if label not in rows.index]
    if missing:  # the same in every game of both setups: left out of the tests
        same = {"difference": 0.0, "low": 0.0, "high": 0.0, "p_holm": np.nan}
        same["verdict"] = "the same in every game"
        rows = pd.concat([rows, pd.DataFrame([same] * len(missing), index=missing)])
    lower_first = rank_by in LOWER_FIRST
    sign = 1.0 if lower_first else -1.0
    ordered = sorted(labels, key=lambda label: sign * rows.loc[label, "difference"])
    pairs = [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]
    pair_p = {}
    if pairs:
        ps = [paired_row(values[b][key], values[a][key])["p"] for a, b in pairs]
        finite = [p if np.isfinite(p) else 1.0 for p in ps]
        reject = multipletests(finite, alpha=alpha, method="holm")[0]
        pair_p = dict(zip(pairs, reject, strict=True))
    word = "lower than" if lower_first else "higher than"
    out = []
    for r, label in enumerate(ordered):
        row = rows.loc[label]
        below = ordered[r + 1] if r + 1 < len(ordered) else None
        apart_from_all = all(pair_p.get((label, other), False) for other in ordered[r + 1 :])
        versus_next = ""
        if below is not None:
            versus_next = f"{word if pair_p[(label, below)] else 'not separated from'} {below}"
        out.append(
            {
                "rank": r + 1,
                "variant": label,
                "metric": rank_by,
                "group": group,
                "index": index,
                "order": "lowest first" if lower_first else "highest first",
                "difference": row["difference"],
                "low": row["low"],
                "high": row["high"],
                "p_holm": row["p_holm"],
                "versus_baseline": row["verdict"],
                "versus_next": versus_next,
                "pairs_tested": len(pairs),
                "above_all_below": bool(apart_from_all and below is not None),
            }
        )
    return pd.DataFrame.from_records(out)


def metric_words(metric: str, group: str, index: int) -> str:
    """A ranked metric in words: ``turn-order spread``, ``win share of the 1st to act``."""
    words = "turn-order spread" if metric == SPREAD else metric.replace("_", " ")
    return f"{words} of the {position_words(index)}" if group == POSITION else words


def ranking_sentence(ranking: pd.DataFrame) -> str:
    """The ranking in words: a variant is first only if separated from every other (Holm over
    every pair of variants; the family is named)."""
    if ranking.empty:
        return "No variant was ranked."
    top = ranking.iloc[0]
    metric = metric_words(str(top["metric"]), str(top["group"]), int(top["index"]))
    if (ranking["versus_baseline"] == "the same in every game").all():
        return f"{metric.capitalize()} is the same in every game of every setup: nothing to rank."
    if len(ranking) == 1:
        return f"{top['variant']} on {metric}: {top['versus_baseline']}."
    family = f"Holm over the {pairs_family(int(top['pairs_tested']))}, paired tests"
    extreme = "lowest" if top["order"] == "lowest first" else "highest"
    if top["above_all_below"]:
        return (
            f"{top['variant']} has the {extreme} {metric}, separated from every other variant "
            f"({family})."
        )
    return (
        f"No variant is separated from every other on {metric}: which has the {extreme} is "
        f"not established ({family})."
    )


__all__ = [
    "LOWER_FIRST",
    "check_rank",
    "counted",
    "metric_words",
    "pairs_family",
    "rank",
    "ranking_sentence",
]
