"""The Fairy Concerto card set in words: what each contest card scores, the card table, and how a
report names and labels the set it played.

The rulebook does not print the score, pianist and harpist cards (ruling C9): every report shows
which card file it played, and when that file is the provisional set, says so in its title, in a
banner at the top and above the card list (:func:`new_report`, :func:`card_section`).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from fairysim.analysis.report.page import Report
from fairysim.sim.concerto import KINDS, ConcertoCards
from fairysim.sim.concerto.cards import DEFAULT_CARDS
from fairysim.sim.concerto.rules import SOLOIST_NAMES, SOLOISTS

SOLOIST_RULES = {
    "A": "4 x the fewest tokens of a kind present",
    "B": "3 x (most - fewest of a kind present)",
    "C": "3 x the most kinds sharing one count",
    "D": "3 x the number of distinct counts",
}
"""What each soloist card scores (ruling C5), for tables and figures."""


def describe_set(multiplicity: Sequence[int] | np.ndarray) -> str:
    """A pianist or harpist set in words: ``[0, 2, 0, 0, 0] -> "2 drummer"``.

    Parameters
    ----------
    multiplicity : sequence of int
        Times each kind of :data:`fairysim.sim.concerto.KINDS` appears on the card.

    Returns
    -------
    str
        ``"trumpeter + violinist"``, ``"2 horn + violinist"``, ...
    """
    parts = []
    for kind, times in zip(KINDS, multiplicity, strict=True):
        if times == 1:
            parts.append(kind)
        elif times > 1:
            parts.append(f"{int(times)} {kind}")
    return " + ".join(parts)


def contest_cards(cards: ConcertoCards) -> pd.DataFrame:
    """Every contest card of a card set: the conductor, soloists A-D, pianists, harpists.

    Parameters
    ----------
    cards : ConcertoCards
        The card set.

    Returns
    -------
    pandas.DataFrame
        ``contest`` (``conductor``, ``soloist``, ``pianist``, ``harpist``), ``card`` (id; the
        conductor card is ``conductor``), ``index`` (code in the results' setup column; -1 for
        the conductor, which is always in play) and ``scores`` (what it counts, in words).
    """
    rows = [("conductor", "conductor", -1, "2 x the most tokens of one kind")]
    rows += [("soloist", s, i, SOLOIST_RULES[s]) for i, s in enumerate(SOLOISTS)]
    for contest, ids, sets in (
        ("pianist", cards.pianist_ids, cards.pianist_sets),
        ("harpist", cards.harpist_ids, cards.harpist_sets),
    ):
        rows += [
            (contest, card, i, f"3 per set of {describe_set(sets[i])}")
            for i, card in enumerate(ids)
        ]
    return pd.DataFrame(rows, columns=["contest", "card", "index", "scores"])


def card_table(cards: ConcertoCards) -> pd.DataFrame:
    """The card set as one table (for reports: what exactly was simulated).

    Parameters
    ----------
    cards : ConcertoCards
        The card set.

    Returns
    -------
    pandas.DataFrame
        One row per score, pianist and harpist card: ``type``, ``card``, ``name``, ``asks for``
        (a score card's requirement, or the kinds of one set) and ``tokens`` (how many tokens
        that is).
    """
    rows = []
    for i, card in enumerate(cards.score_ids):
        name = cards.score_names[i] if i < len(cards.score_names) else ""
        rows.append(("score", card, name, cards.describe_need(i), int(cards.score_need[i].sum())))
    for kind, ids, sets in (
        ("pianist", cards.pianist_ids, cards.pianist_sets),
        ("harpist", cards.harpist_ids, cards.harpist_sets),
    ):
        for i, card in enumerate(ids):
            rows.append((kind, card, "", describe_set(sets[i]), int(sets[i].sum())))
    return pd.DataFrame(rows, columns=["type", "card", "name", "asks for", "tokens"])


def contest_label(contest: str, card: str) -> str:
    """A contest card's label in tables and figures: ``"pianist P1"``; the conductor, a single
    card always in play, is ``"conductor"`` (not ``"conductor conductor"``)."""
    return contest if contest == card else f"{contest} {card}"


def soloist_label(letter: str) -> str:
    """A soloist card with its name from the rulebook: ``"A (Trustworthy)"``."""
    return f"{letter} ({SOLOIST_NAMES.get(letter, '')})"


# --------------------------------------------------------------------------------------------
# The card set in a report


def cards_option(cards: ConcertoCards) -> str:
    """The ``--cards`` option that reproduces a study: empty for the shipped set."""
    return "" if Path(cards.source) == DEFAULT_CARDS else f" --cards {cards.source}"


def card_file_name(cards: ConcertoCards) -> str:
    """How a report names the card file: the shipped one by its place in the package (an
    absolute path would name the machine the report was made on), any other as given."""
    if Path(cards.source) == DEFAULT_CARDS:
        return "fairysim/sim/concerto/data/cards.toml (shipped)"
    return cards.source


def provisional_banner(report: Report, cards: ConcertoCards) -> None:
    """Add the card-set notice: a red PROVISIONAL banner for the provisional set (ruling C9).

    Parameters
    ----------
    report : Report
        The report to add to.
    cards : ConcertoCards
        The card set the study played.
    """
    name = html.escape(card_file_name(cards))
    if cards.provisional:
        report.raw(
            '<p style="background:#fff1f0;border:2px solid #c0392b;padding:.7rem 1rem;">'
            "<strong>PROVISIONAL card set (ruling C9).</strong> The rulebook does not print the "
            "26 score cards or the 3 pianist and 3 harpist cards. Every number here was played "
            f"with the project's provisional stand-in, <code>{name}</code>, not the published "
            "cards: read them as a test of that design (see <code>docs/concerto-cards.md</code>)"
            ", and rerun with <code>--cards FILE</code> for another set.</p>"
        )
    else:
        report.paragraph(
            f"Card set: `{card_file_name(cards)}` (declared final by its file).", "meta"
        )


def card_section(report: Report, cards: ConcertoCards) -> None:
    """Add the next numbered section listing the cards played (PROVISIONAL in its title when
    they are, ruling C9), with the card table as ``<prefix>cards.csv``."""
    report.section("PROVISIONAL cards played" if cards.provisional else "Cards played")
    tokens = ", ".join(f"{n} {k}" for k, n in zip(KINDS, cards.tokens, strict=True))
    report.paragraph(
        f"Card file `{card_file_name(cards)}`"
        + (" (PROVISIONAL, ruling C9)" if cards.provisional else "")
        + f". Bag: {tokens} ({cards.total_tokens} tokens). A score card is worth 5 points when "
        "the orchestra holds at least what it asks for; a pianist or harpist card scores 3 per "
        "complete set of its kinds."
    )
    report.table("cards", card_table(cards), f"The card set: {cards.label}.")


def new_report(title: str, filename: str, prefix: str, cards: ConcertoCards) -> Report:
    """An empty Concerto report whose title and banner say when its card set is provisional
    (ruling C9: every report that shows the provisional cards labels them)."""
    provisional = " (PROVISIONAL cards)" if cards.provisional else ""
    report = Report(f"{title}{provisional}", filename, prefix)
    provisional_banner(report, cards)
    return report


__all__ = [
    "SOLOIST_RULES",
    "card_file_name",
    "card_section",
    "card_table",
    "cards_option",
    "contest_cards",
    "contest_label",
    "describe_set",
    "new_report",
    "provisional_banner",
    "soloist_label",
]
