"""Fantastique's own measures for ``fairysim tune`` (:mod:`fairysim.analysis.tune.measures`).

``finale_decides`` is the share of games whose winners the Grande Finale changes, decided per
game by :func:`fairysim.analysis.fantastique.runs.decided`, the function the fan-strength study
(its ``finale_decides`` column and the fans' strength) reads.
"""

from __future__ import annotations

from fairysim.analysis.fantastique.runs import decided
from fairysim.analysis.tune.measures import Arrays, Measure, Reading, mean_reading
from fairysim.sim.game import GameSpec


def _finale_decides(spec: GameSpec, arrays: Arrays, players: int) -> Reading:
    rank = arrays["rank"][:, :players]
    pre = arrays["pre_finale_rank"][:, :players]
    return mean_reading(decided(rank, pre))


MEASURES = (
    Measure(
        "finale_decides",
        "games the Grande Finale decides",
        "share of games",
        "the share of games whose set of winners on the final score differs from the set on "
        "medal points alone (before the two Grande Finale medals)",
        _finale_decides,
    ),
)
"""Fantastique's measures, beside those of every game."""

__all__ = ["MEASURES"]
