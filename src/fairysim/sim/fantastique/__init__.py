"""Fantastique: fans, medals and the Grande Finale.

>>> from fairysim.sim import fantastique
>>> df = fantastique.simulate(players=4, fan="III", policies="greedy", games=1000, seed=1)
"""

from fairysim.sim.fantastique.cards import FantastiqueCards, load_cards
from fairysim.sim.fantastique.policies import POLICIES
from fairysim.sim.fantastique.rules import FANS, finale_count
from fairysim.sim.fantastique.simulate import (
    SEAT_COLUMNS,
    FantastiqueSetup,
    make_setup,
    play_chunks,
    simulate,
    simulate_summary,
)

__all__ = [
    "FANS",
    "POLICIES",
    "SEAT_COLUMNS",
    "FantastiqueCards",
    "FantastiqueSetup",
    "finale_count",
    "load_cards",
    "make_setup",
    "play_chunks",
    "simulate",
    "simulate_summary",
]
