"""Fairy Land's analysis: card and item balance, auctions, the Queen's Court, game length and seat
advantage by turn position.

:mod:`~fairysim.analysis.fairyland.study` plays the report's games and builds its tables (what it
keeps of each run is :mod:`~fairysim.analysis.fairyland.runs`'s; every auction of the first
games comes from :func:`fairysim.sim.fairyland.play_auctions`),
:mod:`~fairysim.analysis.fairyland.figures` draws them and
:mod:`~fairysim.analysis.fairyland.report` writes the HTML report (``fairysim report
fairyland``). The Queen's Court is PROVISIONAL (ruling L13) wherever results are shown.
"""

from fairysim.analysis.fairyland.report import DEFAULT_AUCTION_GAMES, DEFAULT_GAMES, write_report

__all__ = ["DEFAULT_AUCTION_GAMES", "DEFAULT_GAMES", "write_report"]
