"""Fairy Concerto: draft a 12-fairy orchestra (3-4 players, 2 players, or solo against Pahha).

>>> from fairysim.sim import concerto
>>> df = concerto.simulate(players=1, policies="greedy", games=1000, seed=1)

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
soloist=None, pianist=None, harpist=None, trace=False, chunk_games, threads, progress)`` returns
one row per (game, seat), Pahha's row (policy ``pahha``) included in solo (see
:func:`fairysim.sim.run.simulate`); ``trace`` adds ``score_round_1`` .. ``_N``, each seat's
standing after each round of its form (ruling PC6).
"""

from fairysim.sim.lazy import lazy_attributes

__getattr__ = lazy_attributes(
    __name__,
    {
        "ConcertoCards": "cards",
        "load_cards": "cards",
        "POLICIES": "policies",
        "score_orchestra": "cards",
        "ConcertoSetup": "setup",
        "contest_variants": "setup",
        "effect_cards": "setup",
        "make_setup": "setup",
        "chunk_frame": "runs",
        "play_chunks": "runs",
        "simulate": "runs",
        "simulate_summary": "runs",
        "KINDS": "spec",
        "NAME": "spec",
        "PART_NAMES": "spec",
        "SEAT_COLUMNS": "spec",
        "SOLOISTS": "spec",
        "SPEC": "spec",
    },
)

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
