"""Fairy Land's facts that both its spec and its kernels read: plain values, no code.

The spec imports no numba (``fairysim --help`` reads it) and is no kernel source (editing it
compiles nothing, :mod:`fairysim.jit.cache`); ``rules.py`` is both. Each takes these from here, so
they are stated once, and an edit to them recompiles the kernels that read them.
"""

MIN_PLAYERS = 2

MAX_PLAYERS = 4

PART_NAMES = (
    "squirrel",
    "fox",
    "racoon",
    "deer",
    "bear",
    "unicorn",
    "turtle",
    "turtle_bonus",
    "flowers",
    "variety",
    "goblins",
    "items",
    "applause",
)
"""A score's parts (half points): each animal's majority (in card order), then the rest (ruling
L11)."""
