"""Numba tooling: the kernel cache, compile notices, compiling ahead, the warm-up, inline copies and
plain call types."""
