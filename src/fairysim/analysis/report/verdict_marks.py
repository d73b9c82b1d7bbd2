"""Verdicts on a page, each tied to the tested row that supports it.

A word such as "higher", "separated" or "strongest" may appear on a page only where a corrected
test supports it. A section marks such a phrase with :func:`tested`, naming the CSV file the page
writes, the row (or rows) of it, the claim and the columns that hold the test's verdict and
estimate; the page turns the mark into
``<span class="verdict" data-test-family="fantastique-card_effect_pairs.csv" data-test-row="4"
data-test-claim="higher" data-test-significant="separated" data-test-value="difference">``.
A phrase that only explains what a word means (a method note) is marked with :func:`definition`
(``<span class="definition">``). The suite's reviewer's check
(``tests/analysis/test_verdict_marks.py``) writes every report, finds every verdict word and
checks that each stands in a definition or in a verdict whose rows exist and whose corrected
result supports the claim:

- ``higher`` / ``lower``: every row significant, its value above / below 0;
- ``separated``: every row significant; ``not separated``: no row significant;
- ``dominant``: every row significant (a dominance cell's interval above one half plus the
  band, column ``above_band``); ``not dominant``: at least one row significant (a cell's
  interval below it, column ``below_band``).

The marks travel inside plain text as control characters (which no page text holds), so every
writer that takes text (paragraphs, bullets, table cells) carries them, and the page converts
them once, when it assembles its HTML (:func:`to_spans`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any

CLAIMS = ("higher", "lower", "separated", "not separated")
"""What a marked verdict may claim of its rows."""

_START, _FIELD, _END, _DEFINITION = "\x02", "\x1f", "\x03", "\x04"
_MARK = re.compile(f"{_START}([^{_END}]*?){_END}|{_DEFINITION}([^{_DEFINITION}]*?){_DEFINITION}")


def tested(
    text: str,
    family: str,
    rows: int | Iterable[int],
    claim: str,
    *,
    significant: str = "significant",
    value: str = "difference",
) -> str:
    """``text`` marked as a verdict that rows of the CSV file ``family`` support.

    Parameters
    ----------
    text : str
        The phrase as the page prints it (plain text; backticks still mark code).
    family : str
        The CSV file the page writes (``report.prefix + name + ".csv"``).
    rows : int or iterable of int
        0-based rows of that file; each must support ``claim``.
    claim : {"higher", "lower", "separated", "not separated"}
        What the phrase says of each row.
    significant, value : str
        The columns holding the corrected verdict and the estimate.

    Returns
    -------
    str
        The marked text, for a paragraph, bullet or table cell.
    """
    if claim not in CLAIMS:
        raise ValueError(f"claim must be one of {CLAIMS}, got {claim!r}")
    numbers = [int(rows)] if isinstance(rows, int) else [int(r) for r in rows]
    if not numbers:
        raise ValueError(f"a verdict needs at least one row of {family}")
    fields = (family, " ".join(map(str, numbers)), claim, significant, value, text)
    return _START + _FIELD.join(fields) + _END


def definition(text: str) -> str:
    """``text`` marked as explaining a verdict word rather than stating a verdict."""
    return _DEFINITION + text + _DEFINITION


def to_spans(markup: str) -> str:
    """The page's HTML with every mark turned into its ``<span>`` (the text inside was
    escaped with the rest of the page)."""

    def span(match: re.Match) -> str:
        if match.group(2) is not None:
            return f'<span class="definition">{match.group(2)}</span>'
        family, rows, claim, significant, value, text = match.group(1).split(_FIELD)
        attributes = {
            "data-test-family": family,
            "data-test-row": rows,
            "data-test-claim": claim,
            "data-test-significant": significant,
            "data-test-value": value,
        }
        joined = " ".join(f'{k}="{html.escape(v, quote=True)}"' for k, v in attributes.items())
        return f'<span class="verdict" {joined}>{text}</span>'

    return _MARK.sub(span, markup)


def verdict_cells(display: Any, data: Any, family: str) -> Any:
    """``display`` with every verdict cell marked against its own row of ``data``.

    A table of corrected comparisons (:func:`~fairysim.stats.corrections.verdict_prefixes`) is
    written as ``family``; where its display has one row per row of it, each display column of
    verdict words ("significant", "not separated", "above", a declared "stronger than ...")
    is marked, cell by cell, against that row: the family's ``<prefix>significant`` column and
    its estimate. A column is tied to a family by name where the table holds several
    (``"verdict (greedy)"`` to ``greedy_``).
    """
    from fairysim.stats.corrections import verdict_prefixes

    prefixes = verdict_prefixes(data)
    if not prefixes or len(display) != len(data):
        return display
    out = display.copy()
    columns = [c for c in display.columns if any(_claim_of(str(v)) for v in display[c])]
    for column in columns:
        cells = [str(v) for v in display[column]]
        prefix = _prefix_of(str(column), prefixes, data, cells)
        if prefix is None:
            continue
        value = _value_column(data, prefix)
        out[column] = [
            tested(cell, family, row, claim, significant=f"{prefix}significant", value=value)
            if (claim := _claim_of(cell))
            else cell
            for row, cell in enumerate(cells)
        ]
    return out


def _claim_of(cell: str) -> str | None:
    """The claim a verdict cell makes, or None for a cell that is no verdict."""
    words = cell.strip().lower()
    if words in {"not significant", "not separated", "no effect shown", "not separated from 0"}:
        return "not separated"
    if words in {"significant", "separated"} or words.startswith("differs"):
        return "separated"
    if words.startswith(("above", "higher", "stronger", "easier")):
        return "higher"
    if words.startswith(("below", "lower", "weaker", "harder")):
        return "lower"
    return None


def _prefix_of(column: str, prefixes: list[str], data: Any, cells: list[str]) -> str | None:
    """The family a display column of verdicts belongs to: the only one, the one whose
    ``<prefix>verdict`` column it copies (the first such where several hold the same words), the
    one its name names (``"lift verdict"`` to ``lift_``, ``"effect verdict"`` to
    ``forced_effect_``), else the table's unprefixed family."""
    if len(prefixes) == 1:
        return prefixes[0]
    copied = [
        p
        for p in prefixes
        if f"{p}verdict" in data.columns and [str(v) for v in data[f"{p}verdict"]] == cells
    ]
    if copied:
        return copied[0]
    words = set(re.findall(r"[a-z]+", column.lower()))
    named = [p for p in prefixes if p and words & set(p.rstrip("_").split("_"))]
    whole = [p for p in named if set(p.rstrip("_").split("_")) <= words]
    if len(whole) == 1:
        return whole[0]
    if len(named) == 1:
        return named[0]
    return "" if "" in prefixes and not named else None


def _value_column(data: Any, prefix: str) -> str:
    """The estimate a family's verdicts rest on: ``<prefix>estimate`` or the like."""
    stem = prefix.rstrip("_")
    candidates = [f"{prefix}estimate", f"{prefix}value", f"{prefix}difference", stem]
    candidates += ["estimate", "difference", "gain", "effect", "value", "lift"]
    return next((c for c in candidates if c and c in data.columns), f"{prefix}low")


def dominance_rows(cells: Any, verdict: str) -> tuple[list[int], str, str]:
    """The rows of a dominance cells table (one row per opponent and turn position, with
    ``above_band`` and ``below_band`` flags) that decide ``verdict``, the claim they support and
    the flag that holds it: "dominant", every cell above one half plus the band; "not
    dominant", the cells below it; "undecided", no cell below it."""
    below = cells["below_band"].astype(bool).to_numpy()
    if verdict == "dominant":
        return list(range(len(cells))), "separated", "above_band"
    if verdict == "not dominant":
        return [int(i) for i in below.nonzero()[0]], "separated", "below_band"
    return list(range(len(cells))), "not separated", "below_band"


def dominance_verdict(text: str, family: str, cells: Any, verdict: str) -> str:
    """``text`` marked as a dominance verdict against the cells file ``family``
    (:func:`dominance_rows`)."""
    rows, claim, flag = dominance_rows(cells, verdict)
    return tested(text, family, rows, claim, significant=flag, value="share")


def plain(text: str) -> str:
    """``text`` without its marks (for a figure's caption or a terminal)."""
    return _MARK.sub(
        lambda m: m.group(2) if m.group(2) is not None else m.group(1).split(_FIELD)[-1], text
    )


__all__ = [
    "CLAIMS",
    "definition",
    "dominance_rows",
    "dominance_verdict",
    "plain",
    "tested",
    "to_spans",
    "verdict_cells",
]
