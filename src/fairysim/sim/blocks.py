"""Blocks of games handed to a kernel's worker threads as they come free.

A kernel call plays a chunk of games on ``n_threads`` worker threads, each on a table of its own:
the iterations of a ``parallel=True`` kernel's ``prange``, or Python threads each running a
``nogil`` kernel (:func:`run_workers`). The parfor costs a kernel 13-19 s of a cold compile; called
from Python threads, a kernel whose game takes about a microsecond played 2-10% slower, one whose
game takes 7-50 µs within 4% (docs/performance-log.md, "Compile time (2026-12-05)").

Splitting the chunk into one equal block per thread up front made the call as slow as its slowest
thread, and on a shared machine one virtual CPU is often slowed for seconds at a time: timed side
by side, one thread of a 4-player Concerto chunk took ~7 µs a game while the other took ~4, and the
call waited for the slow one (docs/architecture.md, "Data flow"). Instead the chunk is cut into
small blocks, and each worker, when it finishes one, takes the next unplayed block from a shared
counter (an atomic fetch-and-add), so a slowed thread simply plays fewer blocks.

``numba.parallel_chunksize`` does not do this: with the ``omp`` and ``workqueue`` threading layers
the chunks it makes are still dealt out to the threads in equal contiguous runs.

Which thread plays a game never matters: a game's numbers depend only on ``(seed, game)``. Blocks
are claimed in increasing order, so when a block stops at an illegal policy answer, every block
before it has been claimed and is played to its end or to its own first failure, and the smallest
failing row over the blocks' error records is the chunk's first failure.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numba as nb
import numpy as np
from numba.core import cgutils, types
from numba.extending import intrinsic

ERROR_ROW = 0
"""Slot of a block's error record holding the chunk row of the game that failed (-1: none)."""

ERROR_RECORD = 5
"""A block's error record: ``(row, seat, decision, choice, n_choices)``; the kernel hands the
last four slots to the game, which fills them when a policy answers illegally."""

GAMES_PER_BLOCK = 256
"""Games in one block of the per-game kernels: ~0.3-2 ms of play, so the counter is touched
rarely, and a chunk of 65,536 games has 256 blocks, so the threads finish within a block's time
of each other."""

NEXT_BLOCK = 0
"""Slot of a kernel's queue (``int64[1]``, zero at the start of the call) counting the blocks
claimed so far."""


@intrinsic
def claim_block(typingctx, queue):
    """Atomically add one to ``queue[NEXT_BLOCK]`` (``int64[1]``) and return the value before: the
    index of the block the calling thread now plays."""
    if not (isinstance(queue, types.Array) and queue.dtype == types.int64):
        return None

    def codegen(context, builder, signature, args):
        array = context.make_array(queue)(context, builder, value=args[0])
        slot = context.get_constant(types.intp, NEXT_BLOCK)
        counter = cgutils.get_item_pointer(context, builder, queue, array, [slot])
        one = context.get_constant(types.int64, 1)
        return builder.atomic_rmw("add", counter, one, "seq_cst")

    return types.int64(queue), codegen


@nb.njit(cache=True)
def block_count(n_games, games_per_block):
    """Blocks of ``games_per_block`` games that cover ``n_games`` games (the last may be short)."""
    return (n_games + games_per_block - 1) // games_per_block


@nb.njit(cache=True, inline="always")
def block_rows(block, games_per_block, n_games):
    """``(lo, hi)``: the chunk rows of block ``block``."""
    lo = block * games_per_block
    return lo, min(n_games, lo + games_per_block)


@nb.njit(cache=True)
def worker_count(n_threads, n_blocks):
    """Worker threads worth starting: no more than there are blocks."""
    return max(1, min(n_threads, n_blocks))


def run_workers(
    play: Callable[[np.ndarray], None],
    n_threads: int,
    n_games: int,
    games_per_block: int = GAMES_PER_BLOCK,
) -> None:
    """Call ``play(queue)`` on :func:`worker_count` threads (at most ``n_threads``) at once, all
    sharing one ``queue`` (``int64[1]``, :data:`NEXT_BLOCK` zero), from which each claims blocks
    of ``games_per_block`` of the call's ``n_games`` games until none is left.

    ``play`` calls a kernel compiled with ``nogil=True``, so the threads play side by side; the
    calling thread is one of them. What this saves over a ``parallel=True`` kernel is numba's
    parfor machinery (outlining the loop's body into a gufunc, its analyses): 13-19 s of a
    kernel's cold compile for a loop that only starts the workers.
    """
    queue = np.zeros(1, np.int64)
    workers = worker_count(n_threads, block_count(n_games, games_per_block))
    if workers == 1:
        play(queue)
        return
    with ThreadPoolExecutor(max_workers=workers - 1) as pool:
        others = [pool.submit(play, queue) for _ in range(workers - 1)]
        play(queue)
        for other in others:
            other.result()
