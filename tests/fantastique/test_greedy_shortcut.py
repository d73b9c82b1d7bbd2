"""The engine's shortcut for greedy seats picks exactly what asking ``greedy_policy`` would.

The engine reads a greedy seat's fan and stack straight off the table (``greedy_fan_key``,
``greedy_stack``) instead of listing the legal choices; games equal the reference engine's
either way (test_reference_equivalence), and here the two paths meet on many random tables,
including hands and rounds the games rarely reach.
"""

from __future__ import annotations

import numpy as np
import pytest

from fairysim.sim.fantastique import engine
from fairysim.sim.fantastique.policies import GREEDY_KEY_RADIX, greedy_policy
from fairysim.sim.fantastique.rules import (
    DISPLAY_STACKS,
    N_VALUES,
    PLAY_FAN,
    TAKE_STACK,
    VIEW_SIZE,
)
from fairysim.sim.fantastique.shortcuts.greedy import greedy_fan_key, greedy_stack
from fairysim.sim.rng import new_stream

SEAT = 0
WEIGHTS = np.zeros(1)
VIEW = np.zeros(VIEW_SIZE, np.int64)


def random_round(rng: np.random.Generator):
    """A table with a random hand for seat 0, random fans already played and random stacks."""
    t = engine.new_table(100)
    t.hands[SEAT, 1:] = rng.choice([0, 0, 1, 2, 3, 4, 6], size=N_VALUES)
    t.taken_fans[:] = 0
    for _ in range(rng.integers(0, 5)):
        t.taken_fans[rng.integers(1, N_VALUES + 1)] |= 1 << int(rng.integers(1, 5))
    t.stack_value[:] = rng.integers(1, N_VALUES + 1, size=DISPLAY_STACKS)
    t.stack_size[:] = rng.choice([0, 1, 1, 2, 3], size=DISPLAY_STACKS)
    t.counters[engine.N_STACKS] = DISPLAY_STACKS
    return t


@pytest.mark.parametrize("seed", range(5))
def test_greedy_fan_key_is_greedy_policys_fan(seed):
    rng = np.random.default_rng(seed)
    for _ in range(400):
        t = random_round(rng)
        key = greedy_fan_key(t.hands[SEAT], t.taken_fans)
        n = engine.legal_fans(t, SEAT)
        if n == 0:
            assert key < GREEDY_KEY_RADIX
            continue
        c = greedy_policy(PLAY_FAN, VIEW, t.choices, n, WEIGHTS, new_stream(0, 0, 1))
        value, count = t.choices[c]
        assert (key % GREEDY_KEY_RADIX, key // GREEDY_KEY_RADIX) == (value, count)


@pytest.mark.parametrize("seed", range(5))
def test_greedy_stack_is_the_stack_greedy_policy_takes(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(400):
        t = random_round(rng)
        s = greedy_stack(t.stack_value, t.stack_size)
        n = engine.stack_choices(t)
        if n == 0:
            assert s == -1
            continue
        c = greedy_policy(TAKE_STACK, VIEW, t.choices, n, WEIGHTS, new_stream(0, 0, 1))
        value, size = t.choices[c]
        # The engine takes the first stack in display order that matches the answer.
        first = next(
            i for i in range(DISPLAY_STACKS) if (t.stack_value[i], t.stack_size[i]) == (value, size)
        )
        assert s == first
