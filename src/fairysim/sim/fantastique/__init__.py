"""Fantastique: fans, medals and the Grande Finale.

>>> from fairysim.sim import fantastique
>>> df = fantastique.simulate(players=4, fan="III", policies="greedy", games=1000, seed=1)

The package's modules, the same in every game: :mod:`.spec` (the registered spec, read without the
engine), :mod:`.facts` (the values the spec and the kernels share), :mod:`.rules`, :mod:`.cards`
(the card file), :mod:`.setup` (the setup, ``make_setup`` and what a setup declares), :mod:`.runs`
(``play_chunks``, ``chunk_frame``, ``simulate``), :mod:`.engine` (the jitted game loop and its
play-out), :mod:`.shortcuts` (a built-in policy's answers read off the table, one module per
policy), :mod:`.policies`, :mod:`.search` (the table's copy and determinization for ``rollout``),
:mod:`.reference` (the rulebook in plain Python) and :mod:`.narrate` (``fairysim replay``'s words).
Optional parts: :mod:`.lanes` (all-greedy tables played in SIMD lanes).

Attributes load on first use, so that importing the game's spec (``fairysim --help``) does not
load its engine. ``simulate(*, players=4, policies="greedy", games=10_000, seed=0, cards=None,
fan="I", trace=False, chunk_games, threads, progress)`` returns one row per (game, seat) (see
:func:`fairysim.sim.run.simulate`); ``trace`` adds ``medal_points_round_1`` .. ``_7``.
"""

from fairysim.sim.lazy import lazy_attributes

__getattr__ = lazy_attributes(
    __name__,
    {
        "FantastiqueCards": "cards",
        "load_cards": "cards",
        "POLICIES": "policies",
        "finale_count": "rules",
        "FantastiqueSetup": "setup",
        "effect_cards": "setup",
        "make_setup": "setup",
        "chunk_frame": "runs",
        "play_chunks": "runs",
        "simulate": "runs",
        "simulate_summary": "runs",
        "FANS": "spec",
        "NAME": "spec",
        "SEAT_COLUMNS": "spec",
        "SPEC": "spec",
    },
)

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
