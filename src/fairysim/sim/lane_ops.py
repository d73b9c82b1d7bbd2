"""Branch-free selects for the lane engines (``fantastique.lanes``, ``concerto.lanes``).

A lane engine plays a batch of games side by side, one loop over the games per step, and LLVM
turns such a loop into vector instructions only when its body has no branch on the data: LLVM
kept some ``a if c else b`` on a loaded value as branches and then refused the loop ("control
flow cannot be substituted for a select"). Selects are therefore written with masks.
"""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True, inline="always")
def lane_mask(condition):
    """All ones where ``condition`` holds, else 0: selects by mask stay vector instructions."""
    return -np.int64(condition)


@nb.njit(cache=True, inline="always")
def pick(mask, a, b):
    """``a`` where ``mask`` is all ones, ``b`` where it is 0."""
    return (a & mask) | (b & ~mask)
