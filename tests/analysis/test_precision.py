"""Precision stopping on synthetic Bernoulli streams with a known answer."""

import numpy as np
import pytest

from fairysim.stats.precision import look_schedule, run_to_precision


def bernoulli_player(p, seed, chunk=500):
    """``play(first, n)``: seat 0 wins game i with probability p; game i depends only on
    (seed, i), like the engines."""

    def play(first, n):
        for start in range(first, first + n, chunk):
            size = min(chunk, first + n - start)
            wins = np.array(
                [np.random.default_rng([seed, i]).random() < p for i in range(start, start + size)],
                float,
            )
            yield {"win_share": np.column_stack([wins, 1 - wins])}

    return play


def fast_player(p, rng):
    def play(first, n):
        wins = (rng.random(n) < p).astype(float)
        yield {"win_share": np.column_stack([wins, 1 - wins])}

    return play


def test_schedule_doubles_and_ends_at_the_cap():
    assert look_schedule(1000, 8000) == [1000, 2000, 4000, 8000]
    assert look_schedule(1000, 500) == [500]


def test_reaches_the_asked_half_width_and_stops_at_the_first_look_that_does():
    run = run_to_precision(bernoulli_player(0.3, 7), 0.02, 100_000, first_look=250)
    assert run.reached
    assert run.half_widths[-1] <= 0.02 < run.half_widths[-2]
    assert run.games == run.looks[-1] and run.games < 100_000
    assert np.all((run.high - run.low) / 2 <= 0.02)
    assert run.low[0] < 0.3 < run.high[0]
    assert "precision reached" in run.message()


def test_same_seed_same_numbers_whatever_the_chunk():
    a = run_to_precision(bernoulli_player(0.3, 7, chunk=97), 0.03, 20_000, first_look=250)
    b = run_to_precision(bernoulli_player(0.3, 7, chunk=1000), 0.03, 20_000, first_look=250)
    assert a.games == b.games and np.array_equal(a.wins, b.wins)


def test_cap_reached_first_says_so_in_one_line():
    run = run_to_precision(fast_player(0.5, np.random.default_rng(0)), 0.001, 4000)
    assert not run.reached and run.games == 4000
    message = run.message()
    assert "\n" not in message and "--max-games 4,000 reached" in message


def test_bad_precision_is_refused():
    with pytest.raises(ValueError, match="precision"):
        run_to_precision(fast_player(0.5, np.random.default_rng(0)), 0.0, 100)


def test_stopped_intervals_cover_the_truth_at_least_95_percent():
    rng = np.random.default_rng(2026)
    truth = 0.37
    runs = 800
    covered = 0
    for _ in range(runs):
        run = run_to_precision(fast_player(truth, rng), 0.04, 20_000, first_look=50)
        covered += bool(run.low[0] <= truth <= run.high[0])
    # the seed is fixed, so this is deterministic; the union bound over looks makes it ~99%
    assert covered / runs >= 0.95
