"""Fairy Land's analysis: card and item balance, auctions, the Queen's Court, game length and seat
advantage by turn position.

The same modules as every game's analysis: :mod:`~fairysim.analysis.fairyland.declaration`
declares the report (``fairysim report fairyland``: its options and defaults, light),
:mod:`~fairysim.analysis.fairyland.study` plays the report's games and builds its tables (what it
keeps of each run is :mod:`~fairysim.analysis.fairyland.runs`'s; every auction of the first games
comes from :func:`fairysim.sim.fairyland.play_auctions`, the two-player auctions under several
policies from :mod:`~fairysim.analysis.fairyland.contest`),
:mod:`~fairysim.analysis.fairyland.check` plays its headline comparisons again under the best
heuristic, :mod:`~fairysim.analysis.fairyland.figures` draws them and
:mod:`~fairysim.analysis.fairyland.report` writes the report's own sections into the standard
report (:mod:`fairysim.analysis.report.pipeline`). The Queen's Court is PROVISIONAL (ruling L13)
wherever results are shown.

Nothing is imported here, so that the command line reads the declaration without the study's
libraries; :func:`write_report` is imported on first use.
"""

from typing import Any

__all__ = ["write_report"]


def __getattr__(name: str) -> Any:
    """``write_report``, imported from :mod:`~fairysim.analysis.fairyland.report` on first use."""
    if name == "write_report":
        from fairysim.analysis.fairyland.report import write_report

        return write_report
    raise AttributeError(name)
