"""Blocks of games handed to worker threads as they come free (fairysim.sim.blocks)."""

import itertools
import threading

import numba as nb
import numpy as np
import pytest

from fairysim.sim.blocks import block_count, block_rows, claim_block, run_workers, worker_count


@nb.njit(nogil=True)
def claim_every_block(queue, n_blocks, claims, taken):
    """A worker claims blocks until none is left: ``claims[b]`` counts the claims of block ``b``,
    ``taken[0]`` the blocks this worker took."""
    block = claim_block(queue)
    while block < n_blocks:
        claims[block] += 1  # each block is claimed once, so no two threads write here
        taken[0] += 1
        block = claim_block(queue)


def claim_on_threads(n_threads, n_blocks):
    """Every block claimed by :func:`run_workers`' threads; returns ``(claims, taken)``, a row of
    ``taken`` per worker that started."""
    claims = np.zeros(n_blocks, np.int64)
    taken = np.zeros((n_threads, 1), np.int64)
    started = itertools.count()

    def play(queue):
        claim_every_block(queue, n_blocks, claims, taken[next(started)])

    run_workers(play, n_threads, n_blocks, games_per_block=1)
    return claims, taken[: next(started)]


def test_two_threads_racing_for_blocks_claim_each_exactly_once():
    # A plain (non-atomic) increment loses or repeats claims when two threads race this often.
    claims, taken = claim_on_threads(2, 2_000_000)
    assert (claims == 1).all()
    assert len(taken) == 2 and taken.sum() == 2_000_000


def test_a_worker_that_fails_fails_the_call():
    def play(queue):
        raise ValueError("a worker's error")

    with pytest.raises(ValueError, match="a worker's error"):
        run_workers(play, 2, 10, games_per_block=1)


@nb.njit
def claims_in_sequence(n_claims):
    """What ``n_claims`` claims from one fresh queue return, in the order made."""
    queue = np.zeros(1, np.int64)
    claimed = np.empty(n_claims, np.int64)
    for i in range(n_claims):
        claimed[i] = claim_block(queue)
    return claimed


def test_each_claim_returns_the_count_before_it_so_blocks_go_out_in_order():
    # Blocks claimed in increasing order is what makes the smallest failing row the chunk's
    # first failure (fairysim.sim.blocks).
    assert claims_in_sequence(6).tolist() == [0, 1, 2, 3, 4, 5]


def test_one_worker_plays_every_block_on_the_calling_thread():
    claims, taken = claim_on_threads(1, 5)
    assert claims.tolist() == [1, 1, 1, 1, 1] and taken.tolist() == [[5]]
    callers = []
    run_workers(lambda queue: callers.append(threading.get_ident()), 4, 1)
    assert callers == [threading.get_ident()]  # one block: one worker, this thread


def test_blocks_cover_the_chunk_once_the_last_one_short():
    n_games, per_block = 1000, 256
    assert block_count(n_games, per_block) == 4
    rows = [block_rows(b, per_block, n_games) for b in range(4)]
    assert rows == [(0, 256), (256, 512), (512, 768), (768, 1000)]
    assert block_count(256, 256) == 1 and block_count(257, 256) == 2


def test_no_more_workers_than_blocks():
    assert worker_count(2, 1) == 1
    assert worker_count(2, 300) == 2
    assert worker_count(8, 0) == 1
