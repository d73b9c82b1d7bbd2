"""Fairy Land: explore the forest's clearings in open auctions and collect sets (2-4 players).

>>> from fairysim.sim.fairyland import load_court, make_setup, play_game
>>> load_court("starred").label
'court.toml, starred (PROVISIONAL court, ruling L13)'

The package's modules, the same in every game: :mod:`.spec` (the registered spec, read without the
engine), :mod:`.facts` (the values the spec and the kernels share), :mod:`.rules`, :mod:`.cards`
(the card file), :mod:`.setup` (the setup, ``make_setup`` and what a setup declares), :mod:`.runs`
(``play_chunks``, ``chunk_frame``, ``simulate``), :mod:`.engine` (the jitted game loop and its
play-out), :mod:`.shortcuts` (a built-in policy's answers read off the table, one module per
policy), :mod:`.policies`, :mod:`.search` (the table's copy and determinization for ``rollout``),
:mod:`.reference` (the rulebook in plain Python) and :mod:`.narrate` (``fairysim replay``'s words).
Optional parts: :mod:`.choices` (each decision's choice rows, written apart from the engine) and
:mod:`.judgement` (the judging policies' shared judgement); no lanes.

Attributes load on first use, so that importing the game's spec (``fairysim --help``) does not
load its engine. ``simulate(*, players=4, policies="greedy", games=10_000, seed=0, cards=None,
court=None, trace=False, chunk_games, threads, progress)`` returns one row per (game, seat) (see
:func:`fairysim.sim.run.simulate`); ``trace`` adds ``score_round_1`` .. ``_N``, each seat's
standing after each round of turns (ruling PL11).
"""

from fairysim.jit import plain_call_types
from fairysim.sim.lazy import lazy_attributes

# Its judging functions, called with constants and from kernels and policies alike, compiled
# two to four times each: typed plainly, once (a fifth of the engine's first run, no rate lost).
plain_call_types.type_plainly(__name__)

__getattr__ = lazy_attributes(
    __name__,
    {
        "Court": "cards",
        "FairyLandCards": "cards",
        "load_cards": "cards",
        "load_court": "cards",
        "POLICIES": "policies",
        "play_game": "reference",
        "play_games": "reference",
        "CARD_NAMES": "rules",
        "DECISIONS": "rules",
        "FairyLandSetup": "setup",
        "effect_cards": "setup",
        "effect_held": "setup",
        "make_setup": "setup",
        "removal_variants": "setup",
        "AUCTION_COLUMNS": "runs",
        "chunk_frame": "runs",
        "play_auctions": "runs",
        "play_chunks": "runs",
        "simulate": "runs",
        "simulate_summary": "runs",
        "COURTS": "spec",
        "NAME": "spec",
        "PART_NAMES": "spec",
        "SEAT_COLUMNS": "spec",
        "SPEC": "spec",
    },
)

__all__ = [
    "AUCTION_COLUMNS",
    "CARD_NAMES",
    "COURTS",
    "DECISIONS",
    "NAME",
    "PART_NAMES",
    "POLICIES",
    "SEAT_COLUMNS",
    "SPEC",
    "Court",
    "FairyLandCards",
    "FairyLandSetup",
    "chunk_frame",
    "effect_cards",
    "effect_held",
    "load_cards",
    "load_court",
    "make_setup",
    "play_auctions",
    "play_chunks",
    "play_game",
    "play_games",
    "removal_variants",
    "simulate",
    "simulate_summary",
]
