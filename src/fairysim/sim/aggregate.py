"""The summary path's sums, jitted passes over a chunk's arrays.

:class:`fairysim.sim.batch.SeatAggregate` folds every per-seat column of a chunk into per-seat
(and, for ``by_turn``, per-turn-position) sums and sums of squares. In NumPy that is a cast, a
square and two reductions per column, plus a sort and a gather per column to reorder the seats
by turn position: as long as the game itself. Here the seat at each turn position is found
once a chunk (from the game's declared column, each seat's position, or from the seat that
starts), and each column is read once for its sums by seat and once for those by position.
The two passes release the GIL, so that a run folds them side by side on two threads
(:func:`fairysim.sim.batch.chunk_folder`).

The sums by seat reassociate their additions (``fastmath`` ``reassoc`` alone: no FMA
contraction, no change to NaN or infinity), so that they become vector instructions; those by
turn position add in game order. Either way the sums are the same for the same chunk every
time, and the same chunk boundaries (the sweep cuts its tasks at ``simulate_summary``'s) give
the same floats. Integer-valued columns sum exactly.

The module is one of the kernel sources the compile cache is keyed on
(:mod:`fairysim.jit.cache`): an edit here starts a fresh cache, every engine compiled again.
"""

from __future__ import annotations

import numba as nb
import numpy as np

FAST_SUMS = {"reassoc"}
"""LLVM may reorder the additions (vectorised reductions) but not contract or drop NaNs."""


@nb.njit(cache=True, fastmath=FAST_SUMS, nogil=True)
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
def seats_at_order(order):
    """The seat at each turn position (0 = first to act) of each game, from ``order`` (games,
    seats), the value each seat acts in the order of (ties by seat), as a stable argsort of each
    game's row reads it."""
    n, seats = order.shape
    out = np.empty((n, seats), np.int8)
    for g in range(n):
        for s in range(seats):
            rank = 0
            for t in range(seats):
                if order[g, t] < order[g, s] or (order[g, t] == order[g, s] and t < s):
                    rank += 1
            out[g, rank] = s
    return out


@nb.njit(cache=True)
def seats_at_start(start, seats):
    """The seat at each turn position (0 = first to act) of each game, from the seat that
    starts it (play in seat order from there)."""
    n = start.shape[0]
    out = np.empty((n, seats), np.int8)
    for g in range(n):
        seat = np.int64(start[g])
        for p in range(seats):
            out[g, p] = seat
            seat = seat + 1 if seat + 1 < seats else 0  # no division: a tenth of the time
    return out


TURN_PASS = 4
"""Turn positions summed side by side in one pass over a column."""


@nb.njit(cache=True, nogil=True)
def turn_sums(values, seat_at, sums, squares):
    """Add each turn position's sum and sum of squares of ``values`` (games, seats) to
    ``sums`` and ``squares`` (seats,): position ``p`` gathers the seat at ``p`` in each game
    (``seat_at[g, p]``).

    Each position's additions run in game order, none reordered (its floats are the sum of
    its values in game order), in a running total of its own: the :data:`TURN_PASS` positions
    of a pass keep theirs in registers, so their additions overlap rather than wait on each
    other through memory.
    """
    n, seats = values.shape
    last = seats - 1
    for p in range(0, seats, TURN_PASS):
        # Past the last position a pass sums the last one again, and keeps it once.
        p1, p2, p3 = min(p + 1, last), min(p + 2, last), min(p + 3, last)
        t0 = t1 = t2 = t3 = 0.0
        q0 = q1 = q2 = q3 = 0.0
        for g in range(n):
            v0 = np.float64(values[g, seat_at[g, p]])
            v1 = np.float64(values[g, seat_at[g, p1]])
            v2 = np.float64(values[g, seat_at[g, p2]])
            v3 = np.float64(values[g, seat_at[g, p3]])
            t0 += v0
            q0 += v0 * v0
            t1 += v1
            q1 += v1 * v1
            t2 += v2
            q2 += v2 * v2
            t3 += v3
            q3 += v3 * v3
        for k, (total, square) in enumerate(((t0, q0), (t1, q1), (t2, q2), (t3, q3))):
            if p + k < seats:
                sums[p + k] += total
                squares[p + k] += square


__all__ = ["seat_sums", "seats_at_order", "seats_at_start", "turn_sums"]
