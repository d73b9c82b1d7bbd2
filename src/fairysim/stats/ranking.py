"""Rankings worded from corrected tests: tied groups, and "strongest" only when it is earned.

A table sorted by estimate invites "X is strongest" even when X and the runner-up are within
each other's error. The groups here come from corrected pairwise comparisons
(:func:`fairysim.stats.corrections.correct_family`): the top group is the leader and every
item the correction does not separate from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd


def ranked_groups(
    estimates: Mapping[Any, float], pairs: pd.DataFrame, higher_is_better: bool = True
) -> list[list[Any]]:
    """Items in tied groups, best group first.

    Parameters
    ----------
    estimates : mapping
        Each item's estimate (e.g. win share).
    pairs : pandas.DataFrame
        Corrected pairwise comparisons with columns ``a``, ``b`` and ``significant``; a pair
        absent from the table counts as not separated.
    higher_is_better : bool, default True
        Whether the largest estimate leads.

    Returns
    -------
    list of list
        Repeatedly: the best remaining item and every remaining item not significantly
        different from it, ordered by estimate.
    """
    separated = {
        frozenset((row.a, row.b)) for row in pairs.itertuples(index=False) if row.significant
    }
    remaining = sorted(estimates, key=lambda k: estimates[k], reverse=higher_is_better)
    groups = []
    while remaining:
        leader = remaining[0]
        group = [k for k in remaining if k == leader or frozenset((leader, k)) not in separated]
        groups.append(group)
        remaining = [k for k in remaining if k not in group]
    return groups


def top_wording(groups: Sequence[Sequence[Any]], what: str = "strongest") -> str:
    """The sentence a report prints about the top of a ranking.

    Parameters
    ----------
    groups : sequence of sequences
        From :func:`ranked_groups`.
    what : str, default "strongest"
        The word for a leader separated from every other item.

    Returns
    -------
    str
        ``"strongest: II"`` when the top group has one item, else ``"top group: II, I"``
        (``"<what> group: ..."`` for any other word, so that "hardest" and "easiest" groups
        read apart); ``"no item"`` for an empty ranking.
    """
    if not groups:
        return "no item"
    top = [str(k) for k in groups[0]]
    if len(top) == 1 and sum(len(g) for g in groups) > 1:
        return f"{what}: {top[0]}"
    label = "top group" if what == "strongest" else f"{what} group"
    return f"{label}: " + ", ".join(top)


def group_label(what: str, group: Sequence[Any]) -> str:
    """The words before a listed leading group: ``what`` for a leader separated from every
    other item, ``"<what> group (not separated after correction)"`` for several."""
    return what if len(group) == 1 else f"{what} group (not separated after correction)"


def pairwise_differences(
    estimates: Mapping[Any, float], ses: Mapping[Any, float], method: str = "holm"
) -> pd.DataFrame:
    """Corrected pairwise differences of independent estimates (one family of all pairs).

    Parameters
    ----------
    estimates, ses : mapping
        Each item's estimate and standard error; the difference's standard error is
        ``sqrt(se_a^2 + se_b^2)`` (independent runs; paired designs should pass their own
        table to :func:`ranked_groups`).
    method : {"holm", "fdr_bh"}, default "holm"
        The correction.

    Returns
    -------
    pandas.DataFrame
        ``a``, ``b`` and the columns of :func:`~fairysim.stats.corrections.correct_family`.
    """
    from fairysim.stats.corrections import correct_family

    keys = list(estimates)
    pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1 :]]
    diff = [estimates[a] - estimates[b] for a, b in pairs]
    se = [(ses[a] ** 2 + ses[b] ** 2) ** 0.5 for a, b in pairs]
    out = correct_family(diff, se, method=method)
    out.insert(0, "b", [b for _, b in pairs])
    out.insert(0, "a", [a for a, _ in pairs])
    return out


def leading_group(
    estimates: Mapping[Any, float],
    ses: Mapping[Any, float],
    what: str,
    higher_is_better: bool = True,
    method: str = "holm",
) -> tuple[str, list[Any], pd.DataFrame]:
    """The sentence about the top of a ranking of independent estimates, and what it rests on.

    Parameters
    ----------
    estimates, ses : mapping
        Each item's estimate and standard error.
    what : str
        The word for a leader separated from every other item (``"easiest"``).
    higher_is_better : bool, default True
        Whether the largest estimate leads (False for "hardest").
    method : {"holm", "fdr_bh"}, default "holm"
        Correction of the family of all pairs.

    Returns
    -------
    wording : str
        ``"easiest: X"`` or ``"top group: X, Y"`` (:func:`top_wording`).
    group : list
        The leading group's items, best first.
    pairs : pandas.DataFrame
        The corrected pairwise comparisons (:func:`pairwise_differences`).
    """
    pairs = pairwise_differences(estimates, ses, method)
    groups = ranked_groups(estimates, pairs, higher_is_better)
    return top_wording(groups, what), list(groups[0]) if groups else [], pairs


PAIR_COLUMNS = (
    "item_a",
    "item_b",
    "difference",
    "low",
    "high",
    "p_corrected",
    "separated",
    "correction",
    "family",
    "family_size",
)
"""Columns of a pairs file: every pair a ranking rests on, ``difference`` = a minus b with its
corrected interval, and the family it was corrected in (its name and how many pairs it holds)."""

CORRECTION_NAMES = {"holm": "Holm", "fdr_bh": "Benjamini-Hochberg"}
"""The corrections as a page names them."""


def pair_rows(pairs: pd.DataFrame, family: str, *, estimate: str = "estimate") -> pd.DataFrame:
    """A family's corrected pairs in the columns of :data:`PAIR_COLUMNS`, for a CSV.

    Parameters
    ----------
    pairs : pandas.DataFrame
        Columns ``a``, ``b``, the difference ``estimate`` (a minus b), ``low``, ``high``,
        ``p_adjusted``, ``significant`` and ``method``, as
        :func:`~fairysim.stats.corrections.correct_family` returns them beside the items.
    family : str
        What the family holds, as the page names it (``"all 112 pairs of card values ..."``).
    estimate : str, default "estimate"
        The difference's column.
    """
    return pd.DataFrame(
        {
            "item_a": pairs["a"].to_numpy(),
            "item_b": pairs["b"].to_numpy(),
            "difference": pairs[estimate].to_numpy(),
            "low": pairs["low"].to_numpy(),
            "high": pairs["high"].to_numpy(),
            "p_corrected": pairs["p_adjusted"].to_numpy(),
            "separated": pairs["significant"].astype(bool).to_numpy(),
            "correction": pairs["method"].to_numpy() if "method" in pairs else "holm",
            "family": family,
            "family_size": len(pairs),
        }
    )


def family_sentence(family: str, method: str = "holm") -> str:
    """The page's naming of a family: ``"pairs corrected together: <family>, Holm"``."""
    return f"pairs corrected together: {family}, {CORRECTION_NAMES.get(method, method)}"


def separated_pairs(pairs: pd.DataFrame) -> list[tuple[Any, Any]]:
    """The pairs (``a``, ``b``) the correction separates, from a table with ``significant``."""
    kept = pairs[pairs["significant"].astype(bool)]
    return list(zip(kept["a"], kept["b"], strict=True))


__all__ = [
    "CORRECTION_NAMES",
    "PAIR_COLUMNS",
    "family_sentence",
    "group_label",
    "leading_group",
    "pair_rows",
    "pairwise_differences",
    "ranked_groups",
    "separated_pairs",
    "top_wording",
]
