"""Tournaments: policies against each other with seats rotated on identical deals, and which mixes
to play."""
