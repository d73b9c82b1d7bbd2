"""The summary path's sums, one jitted pass over a chunk's arrays.

:class:`fairysim.sim.batch.SeatAggregate` folds every per-seat column of a chunk into per-seat
(and, for ``by_turn``, per-turn-position) sums and sums of squares. In NumPy that is a cast, a
square and two reductions per column, plus a sort and a gather per column to reorder the seats
by turn position: as long as the game itself. Here each column is read once: each seat's sums,
and each turn position's, accumulate in the same loop, the seat's turn position in a game read
from the game's declared column (each seat's position) or from the seat that starts.

The kernels live in this small module of their own, so that editing them never recompiles an
engine. They reassociate the additions (``fastmath`` ``reassoc`` alone: no FMA contraction, no
change to NaN or infinity), so that the reductions become vector instructions; the sums are
then the same for the same chunk every time, and the same chunk boundaries (the sweep cuts its
tasks at ``simulate_summary``'s) give the same floats. Integer-valued columns sum exactly.
"""

from __future__ import annotations

import numba as nb
import numpy as np

FAST_SUMS = {"reassoc"}
"""LLVM may reorder the additions (vectorised reductions) but not contract or drop NaNs."""


@nb.njit(cache=True, fastmath=FAST_SUMS)
def seat_sums(values, sums, squares):
    """Add each seat's sum and sum of squares of ``values`` (games, seats) to ``sums`` and
    ``squares`` (seats,)."""
    n, seats = values.shape
    for s in range(seats):
        total = 0.0
        square = 0.0
        for g in range(n):
            v = np.float64(values[g, s])
            total += v
            square += v * v
        sums[s] += total
        squares[s] += square


@nb.njit(cache=True)
def positions_of_order(order):
    """Each seat's turn position (0 = first to act) in each game, from ``order`` (games,
    seats), the value each seat acts in the order of (ties by seat), as a stable argsort
    reads it."""
    n, seats = order.shape
    out = np.empty((n, seats), np.int8)
    for g in range(n):
        for s in range(seats):
            rank = 0
            for t in range(seats):
                if order[g, t] < order[g, s] or (order[g, t] == order[g, s] and t < s):
                    rank += 1
            out[g, s] = rank
    return out


@nb.njit(cache=True)
def positions_of_start(start, seats):
    """Each seat's turn position (0 = first to act) in each game, from the seat that starts
    it (play in seat order from there)."""
    n = start.shape[0]
    out = np.empty((n, seats), np.int8)
    for g in range(n):
        first = np.int64(start[g])
        for s in range(seats):
            out[g, s] = (s - first + seats) % seats
    return out


@nb.njit(cache=True)
def turn_sums(values, positions, sums, squares):
    """Add each turn position's sum and sum of squares of ``values`` (games, seats) to
    ``sums`` and ``squares`` (seats,): position ``p`` gathers the seat at ``p`` in each game
    (``positions[g, s]``, seat ``s``'s position in game ``g``)."""
    n, seats = values.shape
    total = np.zeros(seats)
    square = np.zeros(seats)
    for g in range(n):
        for s in range(seats):
            v = np.float64(values[g, s])
            p = positions[g, s]
            total[p] += v
            square[p] += v * v
    for p in range(seats):
        sums[p] += total[p]
        squares[p] += square[p]


__all__ = ["positions_of_order", "positions_of_start", "seat_sums", "turn_sums"]
