"""Fairy Concerto's facts that both its spec and its kernels read: plain values, no code.

The spec imports no numba (``fairysim --help`` reads it) and is no kernel source (editing it
compiles nothing, :mod:`fairysim.jit.cache`); ``rules.py`` is both. Each takes these from here, so
they are stated once, and an edit to them recompiles the kernels that read them.
"""

MIN_PLAYERS = 1

MAX_PLAYERS = 4

SOLOISTS = ("A", "B", "C", "D")
"""Soloist cards by method letter (the Korean translation names them)."""

KINDS = ("trumpeter", "drummer", "violinist", "horn", "composer")
"""Token kinds, in the order of every per-kind array."""

PART_NAMES = (
    "popularity",
    "conductor",
    "soloist",
    "pianist",
    "harpist",
    "score_cards",
    "honors",
)
"""Score parts, in the order of every per-part array."""
