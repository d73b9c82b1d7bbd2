"""Fairy Concerto's analysis: two reports, card balance for 2 to 4 players and solo against Pahha.

The same modules as every game's analysis, the solo report's prefixed ``solo_``:
:mod:`~fairysim.analysis.concerto.declaration` declares both reports (``fairysim report concerto``
and ``fairysim report concerto-solo``: their options and defaults, light),
:mod:`~fairysim.analysis.concerto.study` / :mod:`~fairysim.analysis.concerto.solo_study` play the
games and build the tables, :mod:`~fairysim.analysis.concerto.check` plays the card-balance
report's headline comparisons again under the best heuristic,
:mod:`~fairysim.analysis.concerto.figures` / :mod:`~fairysim.analysis.concerto.solo_figures` draw
them, and :mod:`~fairysim.analysis.concerto.report` / :mod:`~fairysim.analysis.concerto.solo_report`
write the reports' own sections into the standard report
(:mod:`fairysim.analysis.report.pipeline`). Both studies read their runs through
:mod:`~fairysim.analysis.concerto.runs`, and both reports show the card set through
:mod:`~fairysim.analysis.concerto.cards` (ruling C9).

Nothing is imported here, so that the command line reads the declarations without the studies'
libraries; :func:`write_report` and :func:`write_solo_report` are imported on first use.
"""

from typing import Any

__all__ = ["write_report", "write_solo_report"]


def __getattr__(name: str) -> Any:
    """``write_report`` (:mod:`~fairysim.analysis.concerto.report`) and ``write_solo_report``
    (:mod:`~fairysim.analysis.concerto.solo_report`), imported on first use."""
    if name == "write_report":
        from fairysim.analysis.concerto.report import write_report

        return write_report
    if name == "write_solo_report":
        from fairysim.analysis.concerto.solo_report import write_report

        return write_report
    raise AttributeError(name)
