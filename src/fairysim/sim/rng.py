"""Counter-based random numbers keyed by (seed, game index, stream).

Every random draw in fairysim comes from a *stream*: a SplitMix64 sequence whose key is a hash of
``(seed, game, stream)``. Draw ``i`` of a stream is ``mix(key + (i + 1) * GOLDEN_GAMMA)``, so a
stream needs no state beyond its key and a counter, and game ``g`` of a run gives the same numbers
whichever thread, chunk or machine plays it.

A stream lives in a ``uint64`` array of length 2 (slots ``RNG_KEY`` and ``RNG_COUNTER``). The same
jitted functions serve the jitted engines and the plain-Python reference engines (numba dispatchers
are callable from Python), so both engines see identical numbers by construction.

Stream numbering is per game: ``DEAL_STREAM`` (0) shuffles and deals, and ``policy_stream(seat)``
gives each seat's policy its own stream, so the deal of game ``g`` never depends on the policies
(common random numbers).
"""

from __future__ import annotations

import numba as nb
import numpy as np

RNG_KEY = 0
RNG_COUNTER = 1
RNG_STATE_SIZE = 2

DEAL_STREAM = 0
"""Stream for setup, shuffles, reveals and every other draw the rules make."""

FIRST_POLICY_STREAM = 1
"""Seat ``s`` draws its policy randomness from stream ``FIRST_POLICY_STREAM + s``."""

GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_U32_MASK = np.uint64(0xFFFFFFFF)


@nb.njit(cache=True, inline="always")
def splitmix64_mix(z):
    """The SplitMix64 finaliser: a bijective avalanche of one ``uint64``."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, inline="always")
def game_key(seed, game):
    """The part of every stream key of ``(seed, game)`` that does not depend on the stream."""
    k = splitmix64_mix(np.uint64(seed) + GOLDEN_GAMMA)
    return splitmix64_mix(k ^ (np.uint64(game) * GOLDEN_GAMMA + np.uint64(1)))


@nb.njit(cache=True, inline="always")
def key_of_stream(key_of_game, stream):
    """The key of ``stream`` of the game whose :func:`game_key` is ``key_of_game``."""
    return splitmix64_mix(key_of_game ^ (np.uint64(stream) * _MIX_1 + np.uint64(2)))


@nb.njit(cache=True)
def stream_key(seed, game, stream):
    """Hash ``(seed, game, stream)`` (non-negative integers) into one stream key."""
    return key_of_stream(game_key(seed, game), stream)


@nb.njit(cache=True)
def seed_stream(state, seed, game, stream):
    """Point ``state`` (``uint64[2]``) at the start of stream ``(seed, game, stream)``."""
    state[RNG_KEY] = stream_key(seed, game, stream)
    state[RNG_COUNTER] = np.uint64(0)


@nb.njit(cache=True, inline="always")
def seed_game_streams(deal_state, policy_states, seed, game, n_seats):
    """Point ``deal_state`` at ``DEAL_STREAM`` and ``policy_states[s]`` at seat ``s``'s policy
    stream, for seats ``0 .. n_seats - 1`` of game ``(seed, game)``: the same states as
    :func:`seed_stream` gives each, with the game's share of the hash worked out once (an engine
    seeds five streams a game)."""
    key = game_key(seed, game)
    deal_state[RNG_KEY] = key_of_stream(key, DEAL_STREAM)
    deal_state[RNG_COUNTER] = np.uint64(0)
    for s in range(n_seats):
        policy_states[s, RNG_KEY] = key_of_stream(key, FIRST_POLICY_STREAM + s)
        policy_states[s, RNG_COUNTER] = np.uint64(0)


@nb.njit(cache=True, inline="always")
def next_u64(state):
    """Next 64 random bits of the stream in ``state``."""
    state[RNG_COUNTER] += np.uint64(1)
    return splitmix64_mix(state[RNG_KEY] + state[RNG_COUNTER] * GOLDEN_GAMMA)


@nb.njit(cache=True, inline="always")
def draw_below(key, counter, n):
    """A uniform integer in ``[0, n)`` from the stream ``key`` after draw ``counter``.

    Returns ``(value, counter)``, the counter advanced past the draws used. Lemire's
    multiply-shift on the high 32 bits of a draw, with rejection of the few values that would
    bias the result, so exactly unbiased for ``1 <= n < 2**32``; the slow modulo runs only when a
    rejection is possible. Taking and returning the counter keeps it in a register through a
    loop of draws, where a counter in an array goes through memory at every draw.
    """
    n64 = np.uint64(n)
    counter += np.uint64(1)
    m = (splitmix64_mix(key + counter * GOLDEN_GAMMA) >> np.uint64(32)) * n64
    low = m & _U32_MASK
    if low < n64:
        threshold = (np.uint64(1 << 32) - n64) % n64
        while low < threshold:
            counter += np.uint64(1)
            m = (splitmix64_mix(key + counter * GOLDEN_GAMMA) >> np.uint64(32)) * n64
            low = m & _U32_MASK
    return np.int64(m >> np.uint64(32)), counter


@nb.njit(cache=True)
def randint(state, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32``, exactly unbiased (see
    :func:`draw_below`)."""
    value, counter = draw_below(state[RNG_KEY], state[RNG_COUNTER], n)
    state[RNG_COUNTER] = counter
    return value


@nb.njit(cache=True)
def uniform(state):
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@nb.njit(cache=True)
def lay_out_counts(counts):
    """``counts[v]`` copies of every ``v``, ascending: the order a pile is laid out in before
    :func:`shuffle_prefix` shuffles it (a deck by value, a bag by kind)."""
    laid_out = np.empty(counts.sum(), np.int64)
    n = 0
    for v in range(len(counts)):
        for _ in range(counts[v]):
            laid_out[n] = v
            n += 1
    return laid_out


SWAPS_PER_WORD = 4
"""A shuffle draws four swaps from each 32-bit half of a draw (see :func:`shuffle_prefix`)."""

BATCHED_PILE_LIMIT = 256
"""Piles of at most this many values are shuffled four swaps to a 32-bit word: the product of
the four bounds, at most ``256 * 255 * 254 * 253``, stays below ``2**32``."""

_TWO_32 = np.uint64(1 << 32)


@nb.njit(cache=True, inline="always")
def split_word(word, b0, b1, b2, b3):
    """Four uniform integers below ``b0 .. b3`` (each at least 1) from one 32-bit ``word``.

    Batched multiply-shift (Brackett-Rozinsky and Lemire, "Batched ranged random integer
    generation", 2024): each draw is the high half of ``leftover * bound`` and its low half is
    the leftover for the next. Returns ``(j0, j1, j2, j3, accept)``; accepting only when the
    last leftover is at least ``2**32 mod (b0 * b1 * b2 * b3)`` makes the four draws exactly
    uniform and independent (the product must stay at most ``2**32``). A bound of 1 draws 0 and
    leaves the leftover as it was.
    """
    m0 = word * np.uint64(b0)
    m1 = (m0 & _U32_MASK) * np.uint64(b1)
    m2 = (m1 & _U32_MASK) * np.uint64(b2)
    m3 = (m2 & _U32_MASK) * np.uint64(b3)
    leftover = m3 & _U32_MASK
    product = np.uint64(b0) * np.uint64(b1) * np.uint64(b2) * np.uint64(b3)
    # The modulo (a slow division) only when a rejection is possible at all.
    accept = leftover >= product or leftover >= (_TWO_32 - product) % product
    return (
        np.int64(m0 >> np.uint64(32)),
        np.int64(m1 >> np.uint64(32)),
        np.int64(m2 >> np.uint64(32)),
        np.int64(m3 >> np.uint64(32)),
        accept,
    )


@nb.njit(cache=True, inline="always")
def swap(values, i, j):
    """Exchange ``values[i]`` and ``values[j]``."""
    tmp = values[i]
    values[i] = values[j]
    values[j] = tmp


@nb.njit(cache=True, inline="always")
def swap_four(values, i, j0, j1, j2, j3):
    """The Fisher-Yates swaps of positions ``i, i - 1, i - 2, i - 3`` with ``j0 .. j3``."""
    swap(values, i, j0)
    swap(values, i - 1, j1)
    swap(values, i - 2, j2)
    swap(values, i - 3, j3)


@nb.njit(cache=True)
def shuffle_prefix(state, values, n):
    """Shuffle ``values[:n]`` in place (Fisher-Yates, from the last position down).

    Eight swap positions come from each draw of the stream, four from each 32-bit half
    (:func:`split_word`), so a 100-card deck takes 15 draws instead of 99: hashing a draw was
    most of a shuffle's cost. A half whose batch is rejected is thrown away with every half
    after it, and the next draw starts where it stood. Piles above
    :data:`BATCHED_PILE_LIMIT` (a very large card file) draw their top positions one a draw, and
    so do the last few (at most seven). Exactly uniform throughout.
    """
    key = state[RNG_KEY]
    counter = state[RNG_COUNTER]
    i = n - 1
    while i >= BATCHED_PILE_LIMIT:
        j, counter = draw_below(key, counter, i + 1)
        swap(values, i, j)
        i -= 1
    while i >= 2 * SWAPS_PER_WORD:
        counter += np.uint64(1)
        z = splitmix64_mix(key + counter * GOLDEN_GAMMA)
        # Both halves are split before either is checked: two independent multiply chains.
        j0, j1, j2, j3, high_ok = split_word(z >> np.uint64(32), i + 1, i, i - 1, i - 2)
        k0, k1, k2, k3, low_ok = split_word(z & _U32_MASK, i - 3, i - 4, i - 5, i - 6)
        if high_ok:
            swap_four(values, i, j0, j1, j2, j3)
            i -= SWAPS_PER_WORD
            if low_ok:
                swap_four(values, i, k0, k1, k2, k3)
                i -= SWAPS_PER_WORD
    while i > 0:
        j, counter = draw_below(key, counter, i + 1)
        swap(values, i, j)
        i -= 1
    state[RNG_COUNTER] = counter


def new_stream(seed: int, game: int, stream: int) -> np.ndarray:
    """A fresh stream state for plain-Python callers (reference engines, notebooks, tests)."""
    state = np.zeros(RNG_STATE_SIZE, dtype=np.uint64)
    seed_stream(state, seed, game, stream)
    return state


def check_seed(seed: int) -> int:
    """Return ``seed`` if it is an integer in ``[0, 2**63)``, else raise ``ValueError``."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not 0 <= int(seed) < 2**63:
        raise ValueError(f"seed must be in [0, 2**63), got {seed}")
    return int(seed)
