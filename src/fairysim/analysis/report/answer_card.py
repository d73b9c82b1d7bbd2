"""The answer card's model: a report's questions, each answered under every skill rung it plays,
and the card's markup with every verdict phrase tied to the rows that test it.

The questions themselves are built in :mod:`fairysim.analysis.report.answer` from the result
tables the sections print; a report adds its own (:class:`Question`) through its
``own_questions`` hook. ``findings`` is what a verdict asserts, as comparable tuples whose first
item is the scope (the player count): two rungs disagree where their findings differ over the
scopes both played, and the card marks that question "depends on skill".
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pandas as pd

from fairysim.analysis.report.verdict_marks import definition, tested

DEPENDS = "depends on skill"
"""How the card marks a question whose verdict differs between rungs."""


@dataclass(frozen=True)
class Mark:
    """A phrase of an answer tied to the rows of a CSV file the page writes that support it
    (:func:`~fairysim.analysis.report.verdict_marks.tested`), or explained as a definition.

    ``family`` is the file's stem (the page adds its prefix); ``claim`` is one of
    :data:`~fairysim.analysis.report.verdict_marks.CLAIMS`, or ``"definition"`` for a phrase
    that names a method rather than states a verdict."""

    phrase: str
    family: str = ""
    rows: tuple[int, ...] = ()
    claim: str = "definition"
    significant: str = "significant"
    value: str = "difference"

    def apply(self, text: str, prefix: str) -> str:
        """``text`` (escaped HTML) with every unmarked occurrence of the phrase marked."""
        phrase = html.escape(self.phrase)
        if self.claim == "definition":
            marked = definition(phrase)
        else:
            marked = tested(
                phrase,
                prefix + self.family + ".csv",
                self.rows,
                self.claim,
                significant=self.significant,
                value=self.value,
            )
        pieces = _MARKED.split(text)
        return "".join(
            piece if _MARKED.fullmatch(piece) else piece.replace(phrase, marked) for piece in pieces
        )


_MARKED = re.compile("(\x02[^\x03]*\x03|\x04[^\x04]*\x04)")
"""A phrase already marked (:mod:`~fairysim.analysis.report.verdict_marks`), left as it is."""


def _marked(text: str, marks: Sequence[Mark], prefix: str) -> str:
    """``text`` with each mark's phrase marked, the longest phrases first."""
    for mark in sorted(marks, key=lambda m: -len(m.phrase)):
        text = mark.apply(text, prefix)
    return text


@dataclass(frozen=True)
class RungAnswer:
    """One question's answer under one skill rung.

    Attributes
    ----------
    rung : str
        The policy every seat plays (``"greedy"``, ``"balancer"``, ``"rollout"``), or what was
        compared (``"balancer against random"``).
    short : str
        The verdict in a few words, no interval (``"the 1st to act loses 1.8-3.5 pp at every
        player count"``).
    detail : str
        The verdict with its corrected intervals.
    games : str
        The games behind it (``"96,000 games per player count"``).
    section : str
        The heading (without its number) of the section that shows it.
    findings : frozenset of tuple
        What the verdict asserts, each tuple's first item its scope (a player count): empty
        where nothing is separated.
    scopes : frozenset
        The scopes the rung played (the player counts).
    """

    rung: str
    short: str
    detail: str
    games: str
    section: str
    findings: frozenset = frozenset()
    scopes: frozenset = frozenset()
    gist: str = ""
    """The verdict in a phrase with no count (``"none out of band"``), where :attr:`short`
    carries one; rungs that agree print it once."""
    marks: tuple[Mark, ...] = field(default=(), compare=False)
    """The verdict phrases of :attr:`short` and :attr:`detail`, each tied to its test rows."""
    tables: tuple[tuple[str, pd.DataFrame], ...] = field(default=(), compare=False)
    """Tables the marks name that no section writes (stem, table): the page writes them."""

    @property
    def verdict(self) -> str:
        """:attr:`gist`, else :attr:`short`."""
        return self.gist or self.short


@dataclass(frozen=True)
class Question:
    """A question a report answers, with its answer under every rung it plays.

    Attributes
    ----------
    topic : str
        A few words (``"Turn order"``).
    asks : str
        The question (``"does any turn position differ from the fair share?"``).
    answers : tuple of RungAnswer
        One per rung, weakest first.
    comparable : bool
        Whether the rungs answer the same comparisons (then a difference in findings is a
        verdict that depends on skill); False where each rung is its own comparison.
    note : str
        A qualification the card prints under the question.
    """

    topic: str
    asks: str
    answers: tuple[RungAnswer, ...]
    comparable: bool = True
    note: str = ""
    summary: str = ""
    """The headline where the question words its own (a range over the rungs); else
    :meth:`headline` builds it from the rungs' verdicts."""

    @property
    def depends_on_skill(self) -> bool:
        """True where two rungs' verdicts differ over the scopes both played."""
        return bool(self.disagreeing())

    def disagreeing(self) -> list[RungAnswer]:
        """The answers whose verdict differs from another rung's over the scopes both played
        (none where the question's rungs are not comparable)."""
        if not self.comparable:
            return []
        out = []
        for a in self.answers:
            for b in self.answers:
                common = a.scopes & b.scopes
                if a is not b and {f for f in a.findings if f[0] in common} != {
                    f for f in b.findings if f[0] in common
                }:
                    out.append(a)
                    break
        return out

    def headline(self) -> str:
        """The answer in one line: the same under every rung, or how it depends on skill."""
        if self.summary:
            return self.summary
        if len(self.answers) == 1:
            return self.answers[0].short
        first = self.answers[0]
        differ = self.disagreeing()
        if differ:
            text = f"{DEPENDS}: " + "; ".join(f"under {a.rung}, {a.verdict}" for a in differ)
            return f"{text} ({self.note.rstrip('.')})" if self.note else text
        if self.comparable:
            rungs = ", ".join(a.rung for a in self.answers)
            if len({a.verdict for a in self.answers}) == 1:
                return f"{first.verdict} under every rung played ({rungs})"
            return f"the same verdicts under every rung played ({rungs})"
        return "; ".join(f"{a.rung}: {a.short}" for a in self.answers)


@dataclass
class AnswerCard:
    """The questions of one report, rendered as the first block of its page."""

    questions: list[Question] = field(default_factory=list)

    def tables(self) -> list[tuple[str, pd.DataFrame]]:
        """The tables the answers' marks name that no section writes, for the page to write."""
        return [t for q in self.questions for a in q.answers for t in a.tables]

    def html(self, anchor: Callable[[str], tuple[str, str] | None], prefix: str = "") -> str:
        """The card's markup; ``anchor(section)`` is the id and the text of a section's heading
        (None where the page has no such section); ``prefix`` the page's file prefix, which
        the marks' CSV files carry."""
        items = []
        for q in self.questions:
            marks = [m for a in q.answers for m in a.marks]
            headline = _marked(_text(q.headline()), marks, prefix)
            if q.depends_on_skill:
                headline = headline.replace(DEPENDS, f'<span class="skill">{DEPENDS}</span>', 1)
            rows = "".join(_rung_item(a, anchor, prefix) for a in q.answers)
            shown = q.note and q.note.rstrip(".") not in q.headline()
            note = f'<li class="note">{_text(q.note)}</li>' if shown else ""
            items.append(
                f'<div class="question"><p><b>{_text(q.topic)}</b>: {_text(q.asks)}<br>'
                f'<span class="headline">{headline}</span></p>'
                f"<ul>{rows}{note}</ul></div>"
            )
        return (
            '<section class="answer" id="answers"><h2>The answers</h2>'
            '<p class="caption">Each answer under every skill level the report plays, from the '
            "least skilled up; corrected intervals, the games behind them, and the section "
            "with the tables.</p>" + "".join(items) + "</section>"
        )


def _rung_item(
    answer: RungAnswer, anchor: Callable[[str], tuple[str, str] | None], prefix: str
) -> str:
    target = anchor(answer.section)
    link = ""
    if target is not None:
        text = target[1]
        label = f"section {text.split('.')[0]}" if text[:1].isdigit() else text
        link = f' <a href="#{target[0]}">({_text(label)})</a>'

    return (
        f"<li><b>{_marked(_text(answer.rung), answer.marks, prefix)}</b> "
        f"({_text(answer.games)}): {_marked(_text(answer.detail), answer.marks, prefix)}{link}</li>"
    )


def _text(value: str) -> str:
    return html.escape(str(value))


__all__ = ["DEPENDS", "AnswerCard", "Mark", "Question", "RungAnswer"]
