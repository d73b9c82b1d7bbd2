"""The reviewer's check of a written report: every verdict word traced to a tested row.

:func:`review` reads a report's HTML, finds every verdict word in its text and sorts it into
``supported`` (inside a ``<span class="verdict">`` whose CSV rows exist and support its claim,
or inside a ``<span class="definition">``), ``contradicted`` (a marked verdict its rows do not
support, or rows that do not exist) and ``unmarked`` (no mark at all). The marks are made by
:mod:`fairysim.analysis.report.verdict_marks`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd

VERDICT_WORDS = re.compile(
    r"\b(higher|lower|separated|strongest|strongest|best|weakest|stronger|weaker|above|below|"
    r"differs?|tied|significant|significantly|easiest|hardest)\b|\S\s[<>]\s\S",
    re.IGNORECASE,
)
"""The words (and a ``>`` or ``<`` between two items) a reader takes as a verdict."""

PLACE_WORDS = re.compile(
    r"\b(table|tables|figure|ranking|verdicts|section|sections|groups named|lines|as)\s+(the\s+)?$",
    re.IGNORECASE,
)
"""Before "above" or "below", a word that makes it a place on the page ("the table below")."""

MEASURE_NAMES = re.compile(r"top score tied|(the )?best heuristic", re.IGNORECASE)
"""Names that hold a verdict word without stating one there: "top score tied" (the share of
games a tie-break or a shared win decided) and "the best heuristic" (a rung's role, named where
the ladder's measured tournament chooses it, not on every mention)."""

SKIPPED_TAGS = {"style", "script", "code", "title", "h1"}
"""Text that is no verdict: styles, code spans (file names, commands) and the page's title."""


@dataclass
class Finding:
    """One verdict word in context: the sentence (or table cell) around it and its mark."""

    word: str
    context: str
    heading: str
    mark: dict[str, str] = field(default_factory=dict)
    problem: str = ""


@dataclass
class Review:
    supported: list[Finding] = field(default_factory=list)
    contradicted: list[Finding] = field(default_factory=list)
    unmarked: list[Finding] = field(default_factory=list)


class _Text(HTMLParser):
    """Text nodes with the marks and the section heading around them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict[str, str]]] = []
        self.pieces: list[tuple[str, dict[str, str], str]] = []
        self.heading = ""
        self._in_heading = False

    def handle_starttag(self, tag, attrs):
        if tag in {"img", "br", "meta", "link", "hr", "input"}:
            return
        self.stack.append((tag, dict(attrs)))
        if tag in {"h2", "h3"}:
            self._in_heading, self.heading = True, ""

    def handle_endtag(self, tag):
        for n in range(len(self.stack) - 1, -1, -1):
            if self.stack[n][0] == tag:
                del self.stack[n:]
                break
        if tag in {"h2", "h3"}:
            self._in_heading = False

    def handle_data(self, data):
        if self._in_heading:
            self.heading += data
            return
        if any(tag in SKIPPED_TAGS for tag, _ in self.stack):
            return
        mark = {}
        for _, attrs in self.stack:
            # a verdict mark carries its test's row; a class alone is only styling
            if "data-test-family" in attrs:
                mark = {**attrs, "class": "verdict"}
            elif attrs.get("class") == "definition":
                mark = {**attrs, "class": "definition"}
        self.pieces.append((data, mark, self.heading))


def review(page: Path) -> Review:
    """Every verdict word of ``page`` (an HTML report), sorted by what supports it."""
    parser = _Text()
    parser.feed(page.read_text(encoding="utf-8"))
    out = Review()
    tables: dict[str, pd.DataFrame] = {}
    for text, mark, heading in parser.pieces:
        text = MEASURE_NAMES.sub(lambda m: "_" * len(m.group(0)), text)
        for match in VERDICT_WORDS.finditer(text):
            if match.group(0).lower() in {"above", "below"} and PLACE_WORDS.search(
                text[: match.start()]
            ):
                continue
            start = max(0, match.start() - 80)
            finding = Finding(match.group(0).strip(), text[start : match.end() + 80], heading, mark)
            if mark.get("class") == "definition":
                out.supported.append(finding)
            elif mark.get("class") == "verdict":
                finding.problem = _check(page.parent, mark, tables)
                (out.contradicted if finding.problem else out.supported).append(finding)
            else:
                out.unmarked.append(finding)
    return out


def _check(folder: Path, mark: dict[str, str], tables: dict[str, pd.DataFrame]) -> str:
    """Why the marked rows do not support the claim, or ``""`` where they do."""
    name = mark["data-test-family"]
    if name not in tables:
        path = folder / name
        if not path.exists():
            return f"{name} is not written beside the page"
        tables[name] = pd.read_csv(path)
    table = tables[name]
    significant, value = mark["data-test-significant"], mark["data-test-value"]
    for column in (significant, value):
        if column not in table.columns:
            return f"{name} has no column {column!r}"
    claim = mark["data-test-claim"]
    rows = list(map(int, mark["data-test-row"].split()))
    for row in rows:
        if not 0 <= row < len(table):
            return f"{name} has no row {row}"
        sig = _flag(table[significant].iloc[row])
        estimate = float(table[value].iloc[row])
        ok = {
            "higher": sig and estimate > 0,
            "lower": sig and estimate < 0,
            "separated": sig,
            "not separated": not sig,
        }[claim]
        if not ok:
            return (
                f"{name} row {row}: {significant}={sig}, {value}={estimate:+.4f} against {claim!r}"
            )
    return ""


def _flag(value: object) -> bool:
    """A flag read back from CSV: True/False, or 1.0/0.0 where a float column holds it."""
    return str(value).strip().lower() in {"true", "1", "1.0"}


__all__ = ["VERDICT_WORDS", "Finding", "Review", "review"]
