"""Fairy Concerto: draft a 12-fairy orchestra (3-4 players, 2 players, or solo against Pahha).

>>> from fairysim.sim import concerto
>>> df = concerto.simulate(players=1, policies="greedy", games=1000, seed=1)
"""

from fairysim.sim.concerto.cards import ConcertoCards, load_cards
from fairysim.sim.concerto.policies import POLICIES
from fairysim.sim.concerto.rules import KINDS, PART_NAMES, SOLOISTS
from fairysim.sim.concerto.simulate import (
    SEAT_COLUMNS,
    ConcertoSetup,
    make_setup,
    play_chunks,
    score_orchestra,
    simulate,
    simulate_summary,
)

__all__ = [
    "KINDS",
    "PART_NAMES",
    "POLICIES",
    "SEAT_COLUMNS",
    "SOLOISTS",
    "ConcertoCards",
    "ConcertoSetup",
    "load_cards",
    "make_setup",
    "play_chunks",
    "score_orchestra",
    "simulate",
    "simulate_summary",
]
