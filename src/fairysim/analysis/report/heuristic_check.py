"""What a page says about a best-heuristic check (:mod:`fairysim.analysis.studies.heuristic_check`):
the verdicts under both policies side by side, and a warning where they differ."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from fairysim.analysis.report.page import Report
from fairysim.analysis.report.verdict_marks import definition, tested
from fairysim.analysis.studies.heuristic_check import BASE, BEST, HeuristicCheck


def check_paragraphs(
    report: Report,
    check: HeuristicCheck,
    what: str,
    describe: Callable[[Any], str],
    fmt_value: Callable[[Any, str], str],
    name: str,
    note: str = "",
) -> None:
    """Write what the page says of a check: how it was played, a warning line with the verdicts
    that change (or one line saying none does), and the table.

    Parameters
    ----------
    report : Report
        The page, in the section whose verdicts were checked.
    check : HeuristicCheck
    what : str
        The comparisons, for the sentences (``"fan comparisons"``).
    describe : callable
        ``describe(row)``: a comparison named in words (``"fan II against fan IV"``).
    fmt_value : callable
        ``fmt_value(row, prefix)``: that policy's difference and corrected interval as text.
    name : str
        The table's name (its CSV file).
    note : str, optional
        A sentence the report adds to the first paragraph (how the check differs from the
        section's own study).
    """
    meta = check.meta
    policy, best = meta["policy"], meta["best"]
    table = check.table
    report.paragraph(
        f"The same {what} played again under the best heuristic, {best}, at every seat, "
        f"beside {policy} at every seat: {meta['players']} players, {meta['games']:,} games "
        f"{meta['arm']} under each policy, seed {meta['seed']} (the same deals for both), each "
        "policy's comparisons one family corrected with Holm's method: "
        + definition(
            "a comparison is above or below where its corrected interval lies above or below "
            "0, not separated where it holds 0"
        )
        + "."
        + (f" {note}" if note else "")
        + f" The {policy} column here is a run of its own ({meta['games']:,} games "
        f"{meta['arm']}, its {len(table)} comparisons corrected together), not the section's "
        "table: "
        + definition("the same comparison can read separated in one and not in the other")
        + ", and the section's table is the report's verdict; this check asks only whether a "
        "verdict changes with the policy."
    )
    changes = check.changes
    if changes.empty:
        report.bullets(
            [
                f"Every one of the {len(table)} {what} keeps its verdict under {best} "
                f"({meta['players']} players)."
            ]
        )
    else:
        family = f"{report.prefix}{name}.csv"
        rows = [table.index.get_loc(i) for i in changes.index]
        items = "; ".join(
            f"{describe(r)}: "
            + _marked(f"{getattr(r, BEST + 'verdict')} under {best}", r, BEST, family, row)
            + f" ({fmt_value(r, BEST)}), "
            + _marked(f"{getattr(r, BASE + 'verdict')} under {policy}", r, BASE, family, row)
            + f" ({fmt_value(r, BASE)})"
            for row, r in zip(rows, changes.itertuples(index=False), strict=True)
        )
        report.bullets(
            [
                f"Warning: {len(changes)} of the {len(table)} {what} change verdict under "
                f"{best} at {meta['players']} players, so a verdict read under {policy} alone "
                f"may not hold when every seat plays {best}: {items}.",
                "A verdict that changes is not a tested difference between the two policies: "
                "one corrected interval may just reach 0 where the other does not; compare the "
                f"two intervals in the table (`{report.prefix}{name}.csv`).",
            ]
        )
    report.table(
        name,
        table,
        f"The {what} under {policy} and under {best} ({meta['players']} players, corrected "
        "intervals; " + definition("changed = the verdicts differ") + ").",
        display=_display(table, describe, fmt_value, policy, best),
    )


def _marked(text: str, row: Any, prefix: str, family: str, number: int) -> str:
    """``text`` (a policy's verdict) marked against its row of the check's table."""
    word = str(getattr(row, prefix + "verdict"))
    claim = {"above": "higher", "below": "lower"}.get(word, "not separated")
    return tested(
        text, family, number, claim, significant=f"{prefix}significant", value=f"{prefix}value"
    )


def _display(
    table: pd.DataFrame,
    describe: Callable[[Any], str],
    fmt_value: Callable[[Any, str], str],
    policy: str,
    best: str,
) -> pd.DataFrame:
    rows = list(table.itertuples(index=False))
    return pd.DataFrame(
        {
            "comparison": [describe(r) for r in rows],
            policy: [fmt_value(r, BASE) for r in rows],
            f"verdict ({policy})": table[f"{BASE}verdict"].tolist(),
            best: [fmt_value(r, BEST) for r in rows],
            f"verdict ({best})": table[f"{BEST}verdict"].tolist(),
            "changed": table["changed"].map({True: "yes", False: ""}).tolist(),
        }
    )


__all__ = ["check_paragraphs"]
