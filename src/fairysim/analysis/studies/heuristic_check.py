"""A report's headline comparisons played again under the game's best heuristic, and where
their verdicts change.

A report's verdicts (which fan is stronger, what a court changes) rest on one policy at every seat,
greedy by default. A game-specific study plays the same comparisons twice on the same deals, under
the report's policy and under the best heuristic (the top heuristic rung of ``GameSpec.ladder``),
each family corrected on its own; :func:`compare_verdicts` puts the two side by side and marks each
row whose verdict (higher, lower, not separated) differs, and
:func:`fairysim.analysis.report.heuristic_check.check_paragraphs` writes what a page says about it.
A verdict that changes is not a tested difference between the policies: one corrected interval may
just reach the null where the other does not, so the page says so beside its warning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

BASE, BEST = "base_", "best_"
"""Column prefixes of the report's policy and of the best heuristic in a check's table."""

_VERDICT_WORDS = {1: "above", -1: "below", 0: "not separated"}


@dataclass
class HeuristicCheck:
    """Comparisons under the report's policy and under the best heuristic, side by side.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per comparison: its keys, then for each prefix of ``base_`` (the report's
        policy) and ``best_`` (the best heuristic) the ``value``, ``low``, ``high`` (corrected
        within that policy's family), ``significant`` and ``verdict`` (``"above"``,
        ``"below"`` or ``"not separated"``); ``changed`` marks rows whose verdicts differ.
    meta : dict
        ``policy`` and ``best`` (the two policies), ``players`` (the player count played),
        ``games`` (per arm), ``seed``, and what the game's study adds.
    """

    table: pd.DataFrame
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def changes(self) -> pd.DataFrame:
        """The rows whose verdict differs between the two policies."""
        return self.table[self.table["changed"]]


def heuristic_check(
    base: pd.DataFrame,
    best_table: pd.DataFrame,
    keys: Sequence[str],
    value: str,
    **meta: Any,
) -> HeuristicCheck:
    """A game's check from its two corrected tables (:func:`compare_verdicts`) and what it
    played: ``policy``, ``best``, ``players``, ``games`` (per arm), ``arm`` (what an arm is,
    ``"a fan"``) and ``seed``.

    A game's check function takes ``(games, seed, players, policy, best, cards=None,
    threads=None)``: games per arm under each policy, the report's seed (every arm on the same
    deals), the player count checked, the report's policy and the best heuristic (each at
    every seat), the report's card file, and numba threads (never changing the numbers).
    """
    return HeuristicCheck(compare_verdicts(base, best_table, keys, value), dict(meta))


def verdict_sign(value: float, significant: bool) -> int:
    """+1 or -1 for a significant difference by its sign, 0 where it is not significant."""
    return int(np.sign(value)) if bool(significant) else 0


def compare_verdicts(
    base: pd.DataFrame,
    best: pd.DataFrame,
    keys: Sequence[str],
    value: str,
) -> pd.DataFrame:
    """Two corrected tables of the same comparisons side by side, each row's verdicts compared.

    Parameters
    ----------
    base, best : pandas.DataFrame
        The comparisons under the report's policy and under the best heuristic: ``keys``,
        ``value``, ``low``, ``high`` and ``significant`` (as
        :func:`fairysim.stats.corrections.with_correction` writes them).
    keys : sequence of str
        Columns naming a comparison; both tables hold the same set of keys.
    value : str
        The compared difference.

    Returns
    -------
    pandas.DataFrame
        :attr:`HeuristicCheck.table`, in ``base``'s row order.

    Raises
    ------
    ValueError
        When the two tables do not hold the same comparisons.
    """
    keys = list(keys)
    parts = []
    for prefix, table in ((BASE, base), (BEST, best)):
        part = table[[*keys, value, "low", "high", "significant"]].rename(columns={value: "value"})
        part = part.assign(
            verdict=[
                _VERDICT_WORDS[verdict_sign(v, s)]
                for v, s in zip(part["value"], part["significant"], strict=True)
            ]
        )
        parts.append(part.set_index(keys).add_prefix(prefix))
    if set(parts[0].index) != set(parts[1].index):
        raise ValueError("the two policies' tables hold different comparisons")
    out = parts[0].join(parts[1], how="left")
    out["changed"] = out[f"{BASE}verdict"] != out[f"{BEST}verdict"]
    return out.reset_index()


__all__ = [
    "BASE",
    "BEST",
    "HeuristicCheck",
    "compare_verdicts",
    "heuristic_check",
    "verdict_sign",
]
