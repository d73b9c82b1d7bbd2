"""Fantastique's analysis: how strong is each Grande Finale fan?

:mod:`~fairysim.analysis.fantastique.study` plays the report's games and builds its tables
(what it keeps of each run is :mod:`~fairysim.analysis.fantastique.runs`'s),
:mod:`~fairysim.analysis.fantastique.figures` draws them and
:mod:`~fairysim.analysis.fantastique.report` writes the HTML report (``fairysim report
fantastique``).
"""

from fairysim.analysis.fantastique.report import DEFAULT_GAMES, write_report

__all__ = ["DEFAULT_GAMES", "write_report"]
