"""Fantastique: fans, medals and the Grande Finale.

>>> from fairysim.sim import fantastique
>>> df = fantastique.simulate(players=4, fan="III", policies="greedy", games=1000, seed=1)
"""

from fairysim.sim import run
from fairysim.sim.fantastique.cards import FantastiqueCards, load_cards
from fairysim.sim.fantastique.policies import POLICIES
from fairysim.sim.fantastique.rules import finale_count
from fairysim.sim.fantastique.simulate import (
    FantastiqueSetup,
    chunk_frame,
    make_setup,
    play_chunks,
)
from fairysim.sim.fantastique.spec import FANS, NAME, SEAT_COLUMNS, SPEC

simulate = run.bind(NAME, run.simulate)
"""``simulate(*, players=4, policies="greedy", games=10_000, seed=0, cards=None, fan="I",
trace=False, chunk_games, threads, progress)``: one row per (game, seat); see
:func:`fairysim.sim.run.simulate`. ``trace`` adds ``medal_points_round_1`` .. ``_7``."""

simulate_summary = run.simulate_summary

__all__ = [
    "FANS",
    "POLICIES",
    "SEAT_COLUMNS",
    "SPEC",
    "FantastiqueCards",
    "FantastiqueSetup",
    "chunk_frame",
    "finale_count",
    "load_cards",
    "make_setup",
    "play_chunks",
    "simulate",
    "simulate_summary",
]
