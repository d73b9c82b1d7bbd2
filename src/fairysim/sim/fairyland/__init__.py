"""Fairy Land: explore the forest's clearings in open auctions and collect sets (2-4 players).

The package holds the game's rules and interface (:mod:`.rules`), its card and court data
(:mod:`.cards`), the plain-Python reference engine (:mod:`.reference`) and the built-in policies
(:mod:`.policies`).

>>> from fairysim.sim.fairyland import load_court, make_setup, play_game
>>> load_court("starred").label
'court.toml, starred (PROVISIONAL court, ruling L13)'
>>> play_game(make_setup(players=3, policies="greedy", seed=1), 0)["turns"]
36
"""

from fairysim.sim.fairyland.cards import Court, FairyLandCards, load_cards, load_court
from fairysim.sim.fairyland.policies import POLICIES
from fairysim.sim.fairyland.reference import FairyLandSetup, make_setup, play_game, play_games
from fairysim.sim.fairyland.rules import CARD_NAMES, DECISIONS, PART_NAMES

__all__ = [
    "CARD_NAMES",
    "DECISIONS",
    "PART_NAMES",
    "POLICIES",
    "Court",
    "FairyLandCards",
    "FairyLandSetup",
    "load_cards",
    "load_court",
    "make_setup",
    "play_game",
    "play_games",
]
