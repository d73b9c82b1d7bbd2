"""The counter-based generator: its documented formula, Python/jitted agreement, ranges,
uniformity and shuffles."""

from __future__ import annotations

import itertools

import numba as nb
import numpy as np
import pytest

from fairysim.sim.rng import (
    BATCHED_PILE_LIMIT,
    DEAL_STREAM,
    FIRST_POLICY_STREAM,
    RNG_COUNTER,
    RNG_KEY,
    RNG_STATE_SIZE,
    check_seed,
    lay_out_counts,
    new_stream,
    next_u64,
    randint,
    seed_game_streams,
    seed_stream,
    shuffle_prefix,
    split_word,
    stream_key,
    uniform,
)

# --- The documented formula, in plain Python integers --------------------------------------------

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def mix(z: int) -> int:
    """SplitMix64's finaliser."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def key_of(seed: int, game: int, stream: int) -> int:
    k = mix(seed + GAMMA)
    k = mix(k ^ ((game * GAMMA + 1) & MASK64))
    return mix(k ^ ((stream * 0xBF58476D1CE4E5B9 + 2) & MASK64))


def python_randint(key: int, counter: int, n: int) -> tuple[int, int]:
    """Lemire's unbiased bounded integer on the high 32 bits; returns (value, new counter)."""

    def draw() -> int:
        nonlocal counter
        counter += 1
        return mix(key + counter * GAMMA)

    m = (draw() >> 32) * n
    low = m & 0xFFFFFFFF
    if low < n:
        threshold = ((1 << 32) - n) % n
        while low < threshold:
            m = (draw() >> 32) * n
            low = m & 0xFFFFFFFF
    return m >> 32, counter


@pytest.mark.parametrize(("seed", "game", "stream"), [(0, 0, 0), (1, 2, 3), (2**63 - 1, 10**9, 6)])
def test_stream_key_and_draws_follow_the_documented_formula(seed, game, stream):
    key = key_of(seed, game, stream)
    assert int(stream_key(seed, game, stream)) == key
    state = new_stream(seed, game, stream)
    assert int(state[RNG_KEY]) == key
    assert int(state[RNG_COUNTER]) == 0
    for i in range(1, 6):
        assert int(next_u64(state)) == mix(key + i * GAMMA)
    counter = 5
    for n in (1, 2, 7, 100, 3 * 2**30, 2**32 - 1):
        expected, counter = python_randint(key, counter, n)
        assert int(randint(state, n)) == expected
        assert int(state[RNG_COUNTER]) == counter


# --- Python and jitted callers see the same numbers ----------------------------------------------


@nb.njit
def draws_in_jit(seed, game, stream, bounds, cards):
    state = np.zeros(RNG_STATE_SIZE, np.uint64)
    seed_stream(state, seed, game, stream)
    out = np.empty(len(bounds), np.int64)
    for i in range(len(bounds)):
        out[i] = randint(state, bounds[i])
    u = uniform(state)
    shuffle_prefix(state, cards, len(cards))
    return out, u, state


def test_same_numbers_from_python_and_from_a_jitted_function():
    bounds = np.array([1, 2, 3, 5, 10, 52, 1000, 2**31 + 7], dtype=np.int64)
    cards_jit = np.arange(1, 41, dtype=np.int64)
    out, u, state_jit = draws_in_jit(42, 7, 3, bounds, cards_jit)
    state = new_stream(42, 7, 3)
    assert [int(randint(state, int(n))) for n in bounds] == list(out)
    assert uniform(state) == u
    cards = np.arange(1, 41, dtype=np.int64)
    shuffle_prefix(state, cards, len(cards))
    np.testing.assert_array_equal(cards, cards_jit)
    np.testing.assert_array_equal(state, state_jit)


# --- Ranges and uniformity -----------------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 10, 100, 2**31 + 1, 2**32 - 1])
def test_randint_stays_in_range(n):
    state = new_stream(1, 0, 0)
    values = [int(randint(state, n)) for _ in range(2000)]
    assert min(values) >= 0
    assert max(values) < n
    if n > 1:
        assert len(set(values)) > 1


@nb.njit
def randint_counts(seed, n, draws):
    state = np.zeros(RNG_STATE_SIZE, np.uint64)
    seed_stream(state, seed, 0, 0)
    counts = np.zeros(n, np.int64)
    for _ in range(draws):
        counts[randint(state, n)] += 1
    return counts, state[RNG_COUNTER]


def chi_square(counts: np.ndarray) -> float:
    expected = counts.sum() / len(counts)
    return float(((counts - expected) ** 2 / expected).sum())


def generous_bound(categories: int) -> float:
    """About 7 standard deviations above the mean of chi-square: a fixed seed never flakes,
    a biased generator fails by far."""
    df = categories - 1
    return df + 7 * np.sqrt(2 * df)


@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 10, 37])
def test_randint_is_uniform(n):
    counts, _ = randint_counts(2024, n, 200_000)
    assert counts.sum() == 200_000
    assert chi_square(counts) < generous_bound(n), counts


def test_randint_rejects_to_stay_unbiased():
    # With n = 3 * 2**30 a quarter of the raw draws fall in the biased zone and are redrawn; the
    # results, bucketed by 2**30, are then uniform over 3 buckets.
    n = 3 * 2**30
    state = new_stream(9, 0, 0)
    values = np.array([int(randint(state, n)) for _ in range(30_000)])
    assert int(state[RNG_COUNTER]) > 30_000 * 1.15  # redraws happened
    assert values.max() < n
    assert chi_square(np.bincount(values >> 30, minlength=3)) < generous_bound(3)


def test_uniform_is_in_unit_interval_and_uniform():
    state = new_stream(3, 1, 4)
    values = np.array([uniform(state) for _ in range(20_000)])
    assert values.min() >= 0.0
    assert values.max() < 1.0
    assert chi_square(np.bincount((values * 10).astype(int), minlength=10)) < generous_bound(10)


# --- Shuffles ------------------------------------------------------------------------------------


def test_shuffle_prefix_is_a_permutation_of_the_prefix_only():
    state = new_stream(5, 5, 5)
    values = np.arange(100, dtype=np.int64)
    shuffle_prefix(state, values, 60)
    assert sorted(values[:60]) == list(range(60))
    assert list(values[60:]) == list(range(60, 100))
    assert list(values[:60]) != list(range(60))


@pytest.mark.parametrize("n", [0, 1])
def test_shuffle_of_nothing_or_one_card_changes_nothing(n):
    state = new_stream(5, 5, 5)
    values = np.array([4, 3, 2], dtype=np.int64)
    shuffle_prefix(state, values, n)
    assert list(values) == [4, 3, 2]
    assert int(state[RNG_COUNTER]) == 0  # and draws nothing


@nb.njit
def permutation_counts(seed, trials):
    state = np.zeros(RNG_STATE_SIZE, np.uint64)
    seed_stream(state, seed, 0, 0)
    counts = np.zeros(27, np.int64)
    values = np.zeros(3, np.int64)
    for _ in range(trials):
        values[0], values[1], values[2] = 0, 1, 2
        shuffle_prefix(state, values, 3)
        counts[values[0] * 9 + values[1] * 3 + values[2]] += 1
    return counts


def test_shuffle_reaches_every_permutation_uniformly():
    counts = permutation_counts(77, 60_000)
    index = [a * 9 + b * 3 + c for a, b, c in itertools.permutations(range(3))]
    assert counts.sum() == counts[index].sum() == 60_000
    assert chi_square(counts[index]) < generous_bound(6), counts[index]


def python_split_word(word: int, bounds: tuple[int, ...]) -> tuple[list[int], bool]:
    """The batched draw of several bounded integers from one 32-bit word, in plain integers."""
    draws = []
    leftover = word
    for bound in bounds:
        m = leftover * bound
        draws.append(m >> 32)
        leftover = m & 0xFFFFFFFF
    product = int(np.prod(bounds))
    return draws, leftover >= (2**32 - product) % product


def python_shuffle(key: int, counter: int, values: list[int]) -> tuple[list[int], int]:
    """rng.shuffle_prefix as its docstring describes it: positions from the top down, one draw
    a position above BATCHED_PILE_LIMIT and for the last seven, eight (four from each 32-bit
    half) otherwise, a rejected half throwing away itself and the rest of its draw."""
    values = list(values)
    i = len(values) - 1

    def swap(i: int, j: int) -> None:
        values[i], values[j] = values[j], values[i]

    while i >= BATCHED_PILE_LIMIT:
        j, counter = python_randint(key, counter, i + 1)
        swap(i, j)
        i -= 1
    while i >= 8:
        counter += 1
        z = mix(key + counter * GAMMA)
        for half in (z >> 32, z & 0xFFFFFFFF):
            draws, ok = python_split_word(half, (i + 1, i, i - 1, i - 2))
            if not ok:
                break
            for d, j in enumerate(draws):
                swap(i - d, j)
            i -= 4
    while i > 0:
        j, counter = python_randint(key, counter, i + 1)
        swap(i, j)
        i -= 1
    return values, counter


@pytest.mark.parametrize("n", [2, 8, 9, 16, 17, 100, BATCHED_PILE_LIMIT + 1, 300])
def test_shuffle_follows_its_documented_algorithm(n):
    state = new_stream(3, n, 1)
    key, counter = int(state[RNG_KEY]), int(state[RNG_COUNTER])
    values = np.arange(n, dtype=np.int64) * 10
    shuffle_prefix(state, values, n)
    expected, expected_counter = python_shuffle(key, counter, list(range(0, 10 * n, 10)))
    assert list(values) == expected
    assert int(state[RNG_COUNTER]) == expected_counter


def test_a_100_card_shuffle_takes_about_fifteen_draws():
    # 12 draws of eight positions, then the last three one a draw; a rejection costs one more.
    used = []
    for game in range(20):
        state = new_stream(1, game, 0)
        shuffle_prefix(state, np.arange(100, dtype=np.int64), 100)
        used.append(int(state[RNG_COUNTER]))
    assert min(used) == 15
    assert max(used) <= 18


def test_split_word_draws_from_the_top_of_the_word():
    # Bounds whose product divides 2**32 accept every word and read it as digits.
    assert split_word(np.uint64(0b1011 << 28), 2, 2, 2, 2) == (1, 0, 1, 1, True)
    assert split_word(np.uint64(0xFFFFFFFF), 256, 256, 256, 256) == (255, 255, 255, 255, True)
    # A bound of 1 draws 0 and leaves the rest of the word to the next bound.
    assert split_word(np.uint64(3 << 30), 1, 4, 1, 1) == (0, 3, 0, 0, True)


def test_split_word_rejects_the_words_that_would_bias_it():
    # 2**32 mod 3 == 1: exactly one word (0, whose leftover is 0) is refused for a bound of 3.
    assert split_word(np.uint64(0), 3, 1, 1, 1)[4] is False
    assert split_word(np.uint64(1), 3, 1, 1, 1)[4] is True
    assert split_word(np.uint64(0), 2, 1, 1, 1)[4] is True


@nb.njit
def split_word_counts(b0, b1, b2, b3):
    """For every combination of draws (in mixed radix), how many of the 2**32 words give it."""
    counts = np.zeros(b0 * b1 * b2 * b3, np.int32)
    for word in range(1 << 32):
        j0, j1, j2, j3, ok = split_word(np.uint64(word), b0, b1, b2, b3)
        if ok:
            counts[((j0 * b1 + j1) * b2 + j2) * b3 + j3] += 1
    return counts


@pytest.mark.slow
@pytest.mark.parametrize("bounds", [(7, 6, 5, 4), (12, 11, 10, 1), (64, 63, 62, 61)])
def test_split_word_is_exactly_uniform_over_every_word(bounds):
    # All 2**32 words: every combination of draws is accepted from the same number of words,
    # and only as many words are refused as that needs (fewer than one per combination).
    counts = split_word_counts(*bounds)
    assert counts.min() == counts.max() == 2**32 // len(counts)


@nb.njit
def permutation_ranks(n, trials, seed):
    """How often ``shuffle_prefix`` gives each permutation of ``0 .. n - 1`` (Lehmer rank)."""
    state = np.zeros(RNG_STATE_SIZE, np.uint64)
    seed_stream(state, seed, 0, 0)
    factorial = 1
    for k in range(2, n + 1):
        factorial *= k
    counts = np.zeros(factorial, np.int64)
    values = np.zeros(n, np.int64)
    for _ in range(trials):
        for i in range(n):
            values[i] = i
        shuffle_prefix(state, values, n)
        rank = 0
        for i in range(n):
            smaller_after = 0
            for j in range(i + 1, n):
                smaller_after += values[j] < values[i]
            rank = rank * (n - i) + smaller_after
        counts[rank] += 1
    return counts


def test_batched_shuffle_reaches_every_permutation_uniformly():
    # Nine values: all eight swaps come from one draw's two halves.
    counts = permutation_ranks(9, 2_000_000, 5)
    assert chi_square(counts) < generous_bound(len(counts))


@nb.njit
def position_counts(n, trials, seed):
    state = np.zeros(RNG_STATE_SIZE, np.uint64)
    seed_stream(state, seed, 0, 0)
    counts = np.zeros((n, n), np.int64)
    values = np.zeros(n, np.int64)
    for _ in range(trials):
        for i in range(n):
            values[i] = i
        shuffle_prefix(state, values, n)
        for i in range(n):
            counts[i, values[i]] += 1
    return counts


@pytest.mark.parametrize("n", [100, BATCHED_PILE_LIMIT + 44])
def test_shuffle_puts_every_value_anywhere_uniformly(n):
    # Each shuffle adds a permutation matrix: chi-square over the n x n table has mean n(n - 1).
    trials = 100_000
    counts = position_counts(n, trials, 8)
    expected = trials / n
    statistic = float(((counts - expected) ** 2 / expected).sum())
    mean = n * (n - 1)
    assert abs(statistic - mean) < 7 * np.sqrt(2 * mean)


# --- Streams -------------------------------------------------------------------------------------


def test_different_seeds_games_and_streams_give_different_streams():
    keys = {}
    for seed, game, stream in itertools.product(range(6), range(60), range(6)):
        state = new_stream(seed, game, stream)
        keys[(seed, game, stream)] = (
            int(state[RNG_KEY]),
            tuple(int(next_u64(state)) for _ in range(2)),
        )
    assert len({k for k, _ in keys.values()}) == len(keys)
    assert len({d for _, d in keys.values()}) == len(keys)
    # Neighbouring streams do not share a shifted sequence either.
    a = new_stream(0, 0, 0)
    b = new_stream(0, 0, 1)
    first = [int(next_u64(a)) for _ in range(50)]
    second = [int(next_u64(b)) for _ in range(50)]
    assert not set(first) & set(second)


def test_seed_stream_restarts_a_stream():
    state = new_stream(8, 9, 10)
    before = [int(randint(state, 1000)) for _ in range(5)]
    seed_stream(state, 8, 9, 10)
    assert [int(randint(state, 1000)) for _ in range(5)] == before


@pytest.mark.parametrize("seed, game", [(0, 0), (1, 7), (2**63 - 1, 2**40 + 3)])
def test_seed_game_streams_gives_each_stream_seed_stream_gives(seed, game):
    deal = np.full(RNG_STATE_SIZE, 99, np.uint64)  # stale counters must be reset too
    policies = np.full((5, RNG_STATE_SIZE), 99, np.uint64)
    seed_game_streams(deal, policies, seed, game, 4)
    expected = np.zeros(RNG_STATE_SIZE, np.uint64)
    seed_stream(expected, seed, game, DEAL_STREAM)
    assert list(deal) == list(expected)
    for s in range(4):
        seed_stream(expected, seed, game, FIRST_POLICY_STREAM + s)
        assert list(policies[s]) == list(expected), s
    assert list(policies[4]) == [99, 99]  # seats beyond n_seats untouched


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "3", True, None])
def test_check_seed_rejects_bad_seeds(seed):
    with pytest.raises(ValueError, match="seed"):
        check_seed(seed)


@pytest.mark.parametrize("seed", [0, 1, 2**63 - 1, np.int64(5)])
def test_check_seed_accepts_good_seeds(seed):
    assert check_seed(seed) == int(seed)


def test_lay_out_counts_lists_each_value_its_count_of_times_ascending():
    assert list(lay_out_counts(np.array([0, 2, 0, 3, 1], np.int64))) == [1, 1, 3, 3, 3, 4]
    assert list(lay_out_counts(np.array([2, 1], np.int64))) == [0, 0, 1]
    assert len(lay_out_counts(np.zeros(4, np.int64))) == 0
