"""Fairy Concerto: draft a 12-fairy orchestra (3-4 players, 2 players, or solo against Pahha).

>>> from fairysim.sim import concerto
>>> df = concerto.simulate(players=1, policies="greedy", games=1000, seed=1)
"""

from fairysim.sim import run
from fairysim.sim.concerto.cards import ConcertoCards, load_cards
from fairysim.sim.concerto.policies import POLICIES
from fairysim.sim.concerto.simulate import (
    ConcertoSetup,
    chunk_frame,
    make_setup,
    play_chunks,
    score_orchestra,
)
from fairysim.sim.concerto.spec import KINDS, NAME, PART_NAMES, SEAT_COLUMNS, SOLOISTS, SPEC

simulate = run.bind(NAME, run.simulate)
"""``simulate(*, players=4, policies="greedy", games=10_000, seed=0, cards=None, soloist=None,
pianist=None, harpist=None, chunk_games, threads, progress)``: one row per (game, seat), Pahha's
row (policy ``pahha``) included in solo; see :func:`fairysim.sim.run.simulate`."""

simulate_summary = run.simulate_summary

__all__ = [
    "KINDS",
    "PART_NAMES",
    "POLICIES",
    "SEAT_COLUMNS",
    "SOLOISTS",
    "SPEC",
    "ConcertoCards",
    "ConcertoSetup",
    "chunk_frame",
    "load_cards",
    "make_setup",
    "play_chunks",
    "score_orchestra",
    "simulate",
    "simulate_summary",
]
