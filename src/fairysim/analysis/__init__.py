"""Analysis pipelines: statistics on tidy results, balance studies, figures and reports.

One package per game (:mod:`~fairysim.analysis.fantastique`, :mod:`~fairysim.analysis.concerto`,
:mod:`~fairysim.analysis.fairyland`), with the same module for the same job in each report:
``study.py`` plays the report's games and builds its tables, ``figures.py`` draws them,
``report.py`` writes the HTML page with ``write_report``. What no game owns lives here once:
:mod:`~fairysim.stats.estimates` (intervals, paired differences, seat tests),
:mod:`~fairysim.stats.corrections` (corrected families with intervals that agree with their
verdicts), :mod:`~fairysim.stats.ranking` (tied groups), :mod:`~fairysim.stats.turn_order` (seat
advantage by turn order), :mod:`~fairysim.stats.precision` (playing to a precision),
:mod:`~fairysim.analysis.report.page` (the HTML page, written atomically),
:mod:`~fairysim.analysis.report.plots` (figure helpers), :mod:`~fairysim.analysis.report.formats`
(numbers as text), :mod:`~fairysim.analysis.studies.balance` (the balance card every report opens
with), :mod:`~fairysim.analysis.report.sections` (the sections every report shares: the run block,
the statistics note, the balance card, seat advantage by turn order),
:mod:`~fairysim.analysis.studies.base` (player-count and card-file checks, progress over runs),
:mod:`~fairysim.analysis.studies.what_if` (:func:`compare`: a baseline and its variants on the same
seeds, :mod:`~fairysim.analysis.studies.variants` parsing their setups) and
:mod:`~fairysim.analysis.report.replay` (one game told decision by decision, as text and a page).

Nothing here plays a game except through the public ``simulate`` functions of :mod:`fairysim.sim`,
Fairy Land's auction log through that game's public ``play_auctions``, and a replay's one game
through the game's ``narrate`` module (the reference engine).
"""

from importlib import import_module
from typing import Any

_LAZY = {
    "compare": "fairysim.analysis.studies.what_if",
    "compare_to_precision": "fairysim.analysis.studies.what_if",
    **dict.fromkeys(
        (
            "PairedDifference",
            "decisiveness",
            "lead_changes",
            "paired_difference",
            "seat_advantage",
            "seat_test",
            "wilson_interval",
            "win_rates",
            "winning_margins",
        ),
        "fairysim.stats.estimates",
    ),
}
"""The names this package offers and the module each comes from: imported on first use, so that
reading a report's declaration (``fairysim report --help``) loads neither pandas nor scipy."""

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    """One of :data:`__all__`, imported from its module on first use."""
    if name not in _LAZY:
        raise AttributeError(name)
    return getattr(import_module(_LAZY[name]), name)
