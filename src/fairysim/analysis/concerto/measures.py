"""Fairy Concerto's own measures for ``fairysim tune`` (:mod:`fairysim.analysis.tune.measures`).

``solo_win_rate`` is the share of solo games (one player against Pahha, ruling C8) the player
wins: the player's ``win_share`` in seat 0, the ``win`` column the solo study reads
(:mod:`fairysim.analysis.concerto.solo_study`).
"""

from __future__ import annotations

from fairysim.analysis.tune.measures import Arrays, Measure, Reading, mean_reading
from fairysim.sim.game import GameSpec


def _solo_win_rate(spec: GameSpec, arrays: Arrays, players: int) -> Reading:
    return mean_reading(arrays["win_share"][:, 0])


MEASURES = (
    Measure(
        "solo_win_rate",
        "solo win rate",
        "share of games",
        "the share of solo games (one player against Pahha) the player wins",
        _solo_win_rate,
        max_players=1,
    ),
)
"""Fairy Concerto's measures, beside those of every game."""

__all__ = ["MEASURES"]
