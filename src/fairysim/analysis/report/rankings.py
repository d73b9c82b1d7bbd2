"""The leader of a ranking on a page, worded only as far as its corrected pairs allow.

A section that names "the easiest cards" or "the strongest policy" compares every pair of items
(:func:`~fairysim.stats.ranking.pairwise_differences`, one corrected family), writes every pair
beside the page (:data:`~fairysim.stats.ranking.PAIR_COLUMNS`) and words the leader from them:
"easiest" alone where the leader is separated from every other item, else the leader by estimate
with the items the correction does not separate from it. Each wording is marked against the pairs
it rests on (:mod:`~fairysim.analysis.report.verdict_marks`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

import pandas as pd

from fairysim.analysis.report.page import Report
from fairysim.analysis.report.verdict_marks import tested
from fairysim.stats.ranking import family_sentence, pair_rows, pairwise_differences


@dataclass
class RankedPairs:
    """Every pair of a ranking's items, corrected as one family and written as ``file``."""

    estimates: dict[Hashable, float]
    pairs: pd.DataFrame
    file: str
    family: str
    method: str

    def sentence(self) -> str:
        """The family as the page names it (``"pairs corrected together: ..., Holm"``)."""
        return f"{family_sentence(self.family, self.method)}; every pair in `{self.file}`"

    def leader(self, what: str, higher_is_better: bool = True) -> tuple[str, list[Hashable]]:
        """The words before a listed leading group, marked, and the group: the leader by
        estimate and every item the correction does not separate from it, best first.

        Returns ``("easiest (separated from every other after correction)", [X])`` where the
        leader is separated from every other item, else ``("easiest by estimate, with those
        not separated from it after correction", [X, Y, ...])``.
        """
        order = sorted(self.estimates, key=self.estimates.__getitem__, reverse=higher_is_better)
        first = order[0]
        mine = self.pairs[(self.pairs["a"] == first) | (self.pairs["b"] == first)]
        tied = mine[~mine["significant"].astype(bool)]
        close = set(tied["a"]) | set(tied["b"])
        group = [k for k in order if k == first or k in close]
        if len(order) == 1:
            return what, group
        if tied.empty:
            words = f"{what} (separated from every other after correction)"
            return self._mark(words, mine, "separated"), group
        words = f"{what} by estimate, with those not separated from it after correction"
        return self._mark(words, tied, "not separated"), group

    def _mark(self, words: str, rows: pd.DataFrame, claim: str) -> str:
        return tested(words, self.file, list(rows.index), claim, significant="separated")


def ranked_pairs(
    report: Report,
    name: str,
    estimates: Mapping[Hashable, float],
    ses: Mapping[Hashable, float],
    family: str,
    method: str = "holm",
) -> RankedPairs:
    """Compare every pair of independent estimates (one corrected family), write the pairs as
    ``<prefix><name>.csv`` and return them for wording (:meth:`RankedPairs.leader`).

    Parameters
    ----------
    report : Report
        The page the pairs are written beside.
    name : str
        The CSV file's stem (``"completion_pairs"``).
    estimates, ses : mapping
        Each item's estimate and standard error.
    family : str
        What the family holds, as the page names it (``"all 325 pairs of score cards"``).
    method : {"holm", "fdr_bh"}, default "holm"
        The correction.
    """
    pairs = pairwise_differences(estimates, ses, method)
    file = report.data(name, pair_rows(pairs, family))
    return RankedPairs(dict(estimates), pairs, file, family, method)


__all__ = ["RankedPairs", "ranked_pairs"]
