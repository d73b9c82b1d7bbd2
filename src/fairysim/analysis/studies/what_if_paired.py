"""The paired rows of a what-if and their tests: names of the groups and metrics, the per-game
paired difference, its Holm correction over the comparison's family, and the verdict words.

Every difference is a two-sided t-test on the per-game paired differences (the game is the
cluster); the p-values of a comparison's family are corrected together with Holm's method and
every interval is drawn at the Bonferroni level (:mod:`fairysim.analysis.studies.what_if`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from fairysim.stats.estimates import multipletests

ALPHA = 0.05
"""Family-wise error rate of all the differences one comparison reports."""

POOLED = "pooled"
POSITION = "turn position"
SEAT = "seat"

SPREAD = "turn_order_spread"
LENGTH = "game_length"

WHO_WINS = "who wins"
SUPPORTING = "supporting"
"""The two kinds of row (``question`` column): what changes who wins, and the rest."""


def position_words(position: int) -> str:
    """Turn position ``position`` (0-based) as a player says it: ``0`` -> ``"1st to act"``."""
    n = position + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix} to act"


def spread_contrast(by_position: np.ndarray) -> np.ndarray:
    """Per game, ``±(win share - 1 / players)`` at the turn position whose mean win share is
    farthest from the fair share (the sign makes the mean that distance): the turn-order spread
    as a per-game contrast, whose mean is the spread."""
    players = by_position.shape[1]
    distance = by_position.mean(axis=0) - 1.0 / players
    farthest = int(np.argmax(np.abs(distance)))
    sign = 1.0 if distance[farthest] >= 0 else -1.0
    return sign * (by_position[:, farthest] - 1.0 / players)


def paired_row(base: np.ndarray, variant: np.ndarray) -> dict[str, float]:
    """Means, the paired difference and its standard error, the unpaired standard error, and the
    uncorrected two-sided t-test p-value of ``variant - base`` over games."""
    n = base.size
    diff = variant - base
    mean = float(diff.mean())
    se = float(diff.std(ddof=1) / np.sqrt(n)) if n > 1 else np.nan
    se_unpaired = (
        float(np.sqrt(base.var(ddof=1) / n + variant.var(ddof=1) / n)) if n > 1 else np.nan
    )
    if not np.isfinite(se):
        p = np.nan
    elif se == 0.0:
        p = 1.0 if mean == 0.0 else 0.0  # every game moved by exactly the same amount
    else:
        p = float(2 * sps.t.sf(abs(mean / se), df=n - 1))
    return {
        "baseline_mean": float(base.mean()),
        "variant_mean": float(variant.mean()),
        "difference": mean,
        "se": se,
        "se_unpaired": se_unpaired,
        "se_ratio": se / se_unpaired if se_unpaired > 0 else np.nan,
        "p": p,
        "games": n,
    }


def correct(rows: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Holm-corrected p-values, Bonferroni-level intervals and the verdict of every row."""
    rows = rows.copy()
    finite = rows["p"].notna()
    m = int(finite.sum())
    rows["p_holm"] = np.nan
    rows["separated"] = False
    if m:
        reject, p_holm, _, _ = multipletests(rows.loc[finite, "p"], alpha=alpha, method="holm")
        rows.loc[finite, "p_holm"] = p_holm
        rows.loc[finite, "separated"] = reject
    level = 1 - alpha / max(m, 1)
    quantile = sps.t.ppf(1 - (1 - level) / 2, df=np.maximum(rows["games"] - 1, 1))
    rows["low"] = rows["difference"] - quantile * rows["se"]
    rows["high"] = rows["difference"] + quantile * rows["se"]
    rows["level"] = level
    rows["tests"] = m
    rows["verdict"] = [verdict(r) for r in rows.itertuples()]
    return rows


def verdict(row: Any) -> str:
    """Words for one corrected difference: ``higher``/``lower`` only where Holm separates it."""
    if not row.separated:
        return "not separated from the baseline"
    word = "higher than the baseline" if row.difference > 0 else "lower than the baseline"
    if row.low <= 0 <= row.high:
        return f"{word} (Holm; the Bonferroni interval touches 0)"
    return word


__all__ = [
    "ALPHA",
    "LENGTH",
    "POOLED",
    "POSITION",
    "SEAT",
    "SPREAD",
    "SUPPORTING",
    "WHO_WINS",
    "correct",
    "paired_row",
    "position_words",
    "spread_contrast",
    "verdict",
]
