"""Fantastique's facts that both its spec and its kernels read: plain values, no code.

The spec imports no numba (``fairysim --help`` reads it) and is no kernel source (editing it
compiles nothing, :mod:`fairysim.jit.cache`); ``rules.py`` is both. Each takes these from here, so
they are stated once, and an edit to them recompiles the kernels that read them.
"""

MIN_PLAYERS = 2

MAX_PLAYERS = 5

FANS = ("I", "II", "III", "IV", "V", "VI")
"""The six Grande Finale fan sides; a fan is passed to kernels as its index in this tuple."""
