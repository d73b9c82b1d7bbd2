"""Blocks of games handed to worker threads as they come free (fairysim.sim.blocks)."""

import numba as nb
import numpy as np
import pytest

from fairysim.sim.blocks import block_count, block_rows, claim_block, worker_count


@nb.njit(parallel=True)
def claim_every_block(n_workers, n_blocks, claims):
    """Workers claim blocks until none is left; ``claims[b]`` counts the claims of block ``b``
    and ``claims[n_blocks + w]`` the blocks worker ``w`` took."""
    queue = np.zeros(1, np.int64)
    for worker in nb.prange(n_workers):
        block = claim_block(queue)
        while block < n_blocks:
            claims[block] += 1  # each block is claimed once, so no two threads write here
            claims[n_blocks + worker] += 1
            block = claim_block(queue)


@pytest.mark.skipif(nb.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_two_threads_racing_for_blocks_claim_each_exactly_once():
    # A plain (non-atomic) increment loses or repeats claims when two threads race this often.
    n_blocks = 2_000_000
    claims = np.zeros(n_blocks + 2, np.int64)
    claim_every_block(2, n_blocks, claims)
    assert (claims[:n_blocks] == 1).all()
    assert claims[n_blocks:].sum() == n_blocks


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


def test_one_worker_plays_every_block():
    claims = np.zeros(5 + 1, np.int64)
    claim_every_block(1, 5, claims)
    assert claims.tolist() == [1, 1, 1, 1, 1, 5]


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
