"""Fantastique's analysis: how strong is each Grande Finale fan?

The same modules as every game's analysis: :mod:`~fairysim.analysis.fantastique.declaration`
declares the report (``fairysim report fantastique``: its options and defaults, light),
:mod:`~fairysim.analysis.fantastique.study` plays the report's games and builds its tables (what
it keeps of each run is :mod:`~fairysim.analysis.fantastique.runs`'s),
:mod:`~fairysim.analysis.fantastique.check` plays its headline comparisons again under the best
heuristic, :mod:`~fairysim.analysis.fantastique.figures` draws them and
:mod:`~fairysim.analysis.fantastique.report` writes the report's own sections into the standard
report (:mod:`fairysim.analysis.report.pipeline`).

Nothing is imported here, so that the command line reads the declaration without the study's
libraries; :func:`write_report` is imported on first use.
"""

from typing import Any

__all__ = ["write_report"]


def __getattr__(name: str) -> Any:
    """``write_report``, imported from :mod:`~fairysim.analysis.fantastique.report` on first use."""
    if name == "write_report":
        from fairysim.analysis.fantastique.report import write_report

        return write_report
    raise AttributeError(name)
