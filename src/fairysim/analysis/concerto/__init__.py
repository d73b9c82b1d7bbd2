"""Fairy Concerto's analysis: two reports, card balance for 2 to 4 players and solo against Pahha.

Each report has the three modules every game's report has, the solo ones prefixed ``solo_``:
:mod:`~fairysim.analysis.concerto.study` / :mod:`~fairysim.analysis.concerto.solo_study` play the
games and build the tables, :mod:`~fairysim.analysis.concerto.figures` /
:mod:`~fairysim.analysis.concerto.solo_figures` draw them, and
:mod:`~fairysim.analysis.concerto.report` / :mod:`~fairysim.analysis.concerto.solo_report` write
the HTML (``fairysim report concerto`` and ``fairysim report concerto-solo``). Both studies read
their runs through :mod:`~fairysim.analysis.concerto.runs`, and both reports show the card set
through :mod:`~fairysim.analysis.concerto.cards` (ruling C9).
"""

from fairysim.analysis.concerto.report import DEFAULT_GAMES, write_report
from fairysim.analysis.concerto.solo_report import DEFAULT_GAMES as SOLO_DEFAULT_GAMES
from fairysim.analysis.concerto.solo_report import (
    DEFAULT_LOOKAHEAD_GAMES as SOLO_DEFAULT_LOOKAHEAD_GAMES,
)
from fairysim.analysis.concerto.solo_report import write_report as write_solo_report

__all__ = [
    "DEFAULT_GAMES",
    "SOLO_DEFAULT_GAMES",
    "SOLO_DEFAULT_LOOKAHEAD_GAMES",
    "write_report",
    "write_solo_report",
]
