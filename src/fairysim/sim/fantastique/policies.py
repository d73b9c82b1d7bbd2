"""Built-in Fantastique policies.

Each is compiled once with :data:`fairysim.sim.policy.POLICY_SIGNATURE` and sees only its seat's
view (:data:`.rules.VIEW_FIELDS`). Weights are floats passed per call, so tuning never recompiles.

==========  ==========================================================================
random      uniform over the distinct legal choices (the statistical reference)
greedy      most cards, then highest value; takes the biggest stack, then highest value
hoarder     keeps the cards its Grande Finale fan counts and plays the others
balancer    weighs the medal a fan wins now against the finale cards it gives up
rollout     determinized Monte Carlo search, played out by balancer (:mod:`.search`)
==========  ==========================================================================
"""

from __future__ import annotations

import types
from typing import Any

import numba as nb
import numpy as np

from fairysim.runtime.errors import UNKNOWN_BUILTIN
from fairysim.sim.dispatch import builtin_table, seat_asker
from fairysim.sim.fantastique.rules import (
    BRONZE_MIN_PLAYERS,
    MEDAL_ROWS,
    N_VALUES,
    PLAY_FAN,
    V_FAN,
    V_HAND,
    V_HAND_SIZE,
    V_NEXT_MEDAL,
    V_PLAYED_COUNT,
    V_PLAYED_VALUE,
    V_PLAYERS,
    V_SEAT,
    V_START_SEAT,
    finale_count_of_counts,
)
from fairysim.sim.policy import MAX_WEIGHT, builtin, policy, weight
from fairysim.sim.rng import randint
from fairysim.sim.scratch import stack_float64
from fairysim.sim.search import rollout_builtin


@policy
def random_policy(decision, view, choices, n_choices, weights, rng):
    """Uniform over the legal choices (which the engine already lists once each)."""
    return randint(rng, n_choices)


GREEDY_KEY_RADIX = 16
"""Greedy ranks a choice by ``size * GREEDY_KEY_RADIX + value``: one integer, size first."""
assert N_VALUES < GREEDY_KEY_RADIX


@policy
def greedy_policy(decision, view, choices, n_choices, weights, rng):
    """Most cards, then highest value (fans); biggest stack, then highest value (stacks)."""
    # One integer key per choice (size first, value second) keeps the loop free of branches
    # that depend on the data, which the branch predictor cannot learn.
    best = 0
    best_key = choices[0, 1] * GREEDY_KEY_RADIX + choices[0, 0]
    for i in range(1, n_choices):
        key = choices[i, 1] * GREEDY_KEY_RADIX + choices[i, 0]
        better = key > best_key
        best = i if better else best
        best_key = key if better else best_key
    return best


@nb.njit(cache=True, inline="always")
def finale_after(view, value, delta):
    """Grande Finale count of the viewer's hand with ``delta`` cards of ``value`` added."""
    return finale_count_of_counts(view[V_FAN], view[V_HAND : V_HAND + N_VALUES + 1], value, delta)


@nb.njit(cache=True, inline="always")
def score_stack_choices(view, choices, n_choices, finale_weight, size_weight):
    """Pick the stack maximising ``finale_weight * finale gain + size_weight * size``."""
    now = finale_count_of_counts(view[V_FAN], view[V_HAND : V_HAND + N_VALUES + 1])
    best = 0
    best_score = -1e300
    for i in range(n_choices):
        gain = finale_after(view, choices[i, 0], choices[i, 1]) - now
        score = finale_weight * gain + size_weight * choices[i, 1] + 0.01 * choices[i, 0]
        if score > best_score:
            best_score = score
            best = i
    return best


@policy
def hoarder_policy(decision, view, choices, n_choices, weights, rng):
    """Play the fan that costs the fewest finale cards; take the stack that adds the most.

    weights: finale (per finale card kept or gained), count (per card played or taken),
    value (per point of the fan's value, for stack-pick order).
    """
    finale_w = weights[0]
    count_w = weights[1]
    value_w = weights[2]
    if decision != PLAY_FAN:
        return score_stack_choices(view, choices, n_choices, finale_w, count_w)
    now = finale_count_of_counts(view[V_FAN], view[V_HAND : V_HAND + N_VALUES + 1])
    best = 0
    best_score = -1e300
    for i in range(n_choices):
        value = choices[i, 0]
        count = choices[i, 1]
        loss = now - finale_after(view, value, -count)
        score = -finale_w * loss + count_w * count + value_w * value
        if score > best_score:
            best_score = score
            best = i
    return best


@nb.njit(cache=True, inline="always")
def fan_beats(count_a, value_a, count_b, value_b):
    """Whether fan (value_a, count_a) ranks above fan (value_b, count_b) for medals (F5)."""
    return count_a > count_b or (count_a == count_b and value_a > value_b)


@nb.njit(cache=True, inline="always")
def int_power(a, b):
    """``a ** b`` for a float ``a`` and a whole ``b >= 0``, by squaring, as numba computes
    ``**`` (so that :func:`can_beat_table`, run as plain Python, gives the compiled numbers)."""
    r = 1.0
    exp = b
    while exp != 0:
        if exp & 1:
            r *= a
        exp >>= 1
        a *= a
    return r


@nb.njit(cache=True, inline="always")
def binomial_below(n, trials, p):
    """P(X < n) for X ~ Binomial(trials, p), summed term by term (n and trials are small)."""
    if n <= 0:
        return 0.0
    if n > trials:
        return 1.0
    term = int_power(1.0 - p, trials)
    total = term
    odds = p / (1.0 - p)
    for j in range(n - 1):
        term *= (trials - j) / (j + 1) * odds
        total += term
    return min(total, 1.0)


@nb.njit(cache=True, inline="always")
def can_beat(hand_size, value, count):
    """Chance that a hand of ``hand_size`` unseen cards holds a fan beating (value, count).

    Each card is taken as a value drawn uniformly from 1..8, independently (the view carries
    neither the deck's make-up nor the opponents' hands): the hand beats the fan when some value
    ``v`` above ``value`` is held ``count`` times, or some value up to it ``count + 1`` times
    (F5), with the values' counts treated as independent.
    """
    p = 1.0 / N_VALUES
    below_more = binomial_below(count + 1, hand_size, p)  # a value <= value held <= count times
    below_same = binomial_below(count, hand_size, p)  # a value > value held < count times
    return 1.0 - int_power(below_more, value) * int_power(below_same, N_VALUES - value)


MEDAL_DIST_SIZE = len(MEDAL_ROWS) + 1
"""Length of :func:`medal_expected`'s distribution of seats ranking above a fan."""


CAN_BEAT_HANDS = 48
"""Hand sizes (0 .. 47) :data:`CAN_BEAT_TABLE` holds; beyond them :func:`can_beat` is worked
out on the spot."""
CAN_BEAT_COUNTS = 16
"""Fan counts (0 .. 15) :data:`CAN_BEAT_TABLE` holds."""


def _as_python(dispatcher: Any, **callees: Any) -> Any:
    """``dispatcher``'s function run as plain Python, its jitted ``callees`` replaced."""
    function = dispatcher.py_func
    return types.FunctionType(function.__code__, {**function.__globals__, **callees})


def can_beat_table() -> np.ndarray:
    """:func:`can_beat` of every (hand size, value, count) the table holds, run as plain Python
    (importing the policies compiles nothing): the same operations in the same order as the
    compiled function, so a lookup gives the very number a call would (tested)."""
    power = int_power.py_func
    below = _as_python(binomial_below, int_power=power)
    beat = _as_python(can_beat, binomial_below=below, int_power=power)
    table = np.zeros((CAN_BEAT_HANDS, N_VALUES + 1, CAN_BEAT_COUNTS))
    for hand_size in range(CAN_BEAT_HANDS):
        for value in range(1, N_VALUES + 1):
            for count in range(1, CAN_BEAT_COUNTS):
                table[hand_size, value, count] = beat(hand_size, value, count)
    return table


CAN_BEAT_TABLE = can_beat_table()
"""``CAN_BEAT_TABLE[hand_size, value, count]``: :func:`can_beat`'s answer, looked up by
:func:`medal_expected` (a balancer decision asks it for every fan and seat still to play, and
each answer costs a few powers)."""


@nb.njit(cache=True, inline="always")
def chance_to_beat(hand_size, value, count):
    """:func:`can_beat` through :data:`CAN_BEAT_TABLE` where the table holds it."""
    if hand_size < CAN_BEAT_HANDS and count < CAN_BEAT_COUNTS:
        return CAN_BEAT_TABLE[hand_size, value, count]
    return can_beat(hand_size, value, count)


@nb.njit(cache=True, inline="always")
def medal_expected(view, value, count, risk):
    """Expected points of the medal fan (value, count) wins this round.

    The fans already played rank as they stand (F5). Each seat still to play beats the fan with
    the chance that its hand can (:func:`can_beat`) times ``risk``, the share of such seats that
    do; the number of seats above the fan is then a sum of independent coin flips, whose
    distribution is built up seat by seat. ``risk = 0`` counts the played fans alone.
    """
    players = view[V_PLAYERS]
    seat = view[V_SEAT]
    rows = len(MEDAL_ROWS) if players >= BRONZE_MIN_PLAYERS else len(MEDAL_ROWS) - 1
    place = 0
    for s in range(players):
        c = view[V_PLAYED_COUNT + s]
        if c > 0 and fan_beats(c, view[V_PLAYED_VALUE + s], count, value):
            place += 1
    if place >= rows:
        return 0.0
    # dist[j]: chance that j of the seats still to play rank above the fan (j < rows matter)
    dist = stack_float64(MEDAL_DIST_SIZE)
    dist[0] = 1.0
    for j in range(1, MEDAL_DIST_SIZE):
        dist[j] = 0.0
    to_play = (view[V_START_SEAT] - seat - 1) % players
    for k in range(to_play):
        s = (seat + 1 + k) % players
        q = risk * chance_to_beat(view[V_HAND_SIZE + s], value, count)
        for j in range(rows - place, 0, -1):
            dist[j] = dist[j] * (1.0 - q) + dist[j - 1] * q
        dist[0] *= 1.0 - q
    expected = 0.0
    for j in range(rows - place):
        expected += dist[j] * view[V_NEXT_MEDAL + place + j]
    return expected


@policy
def balancer_policy(decision, view, choices, n_choices, weights, rng):
    """Expected medal points minus the finale cards given up, with a cost for cards spent.

    weights: finale (points per finale card), pick (per seat played earlier in the stack order),
    spent (per card played beyond the first), risk (share of the seats still to play that beat
    the fan when their hand can, :func:`medal_expected`).
    """
    finale_w = weights[0]
    pick_w = weights[1]
    spent_w = weights[2]
    risk_w = weights[3]
    if decision != PLAY_FAN:
        return score_stack_choices(view, choices, n_choices, finale_w, 1.0)
    players = view[V_PLAYERS]
    now = finale_count_of_counts(view[V_FAN], view[V_HAND : V_HAND + N_VALUES + 1])
    best = 0
    best_score = -1e300
    for i in range(n_choices):
        value = choices[i, 0]
        count = choices[i, 1]
        picks_before = 0
        for s in range(players):
            if view[V_PLAYED_COUNT + s] > 0 and view[V_PLAYED_VALUE + s] < value:
                picks_before += 1
        loss = now - finale_after(view, value, -count)
        score = (
            medal_expected(view, value, count, risk_w)
            + pick_w * picks_before
            - finale_w * loss
            - spent_w * (count - 1)
        )
        if score > best_score:
            best_score = score
            best = i
    return best


# One table of the built-ins (fairysim.sim.dispatch): a built-in's place in it is its dispatch
# id. Built-ins are called directly through ``call_builtin``, which LLVM can inline; user
# policies go through their first-class function (see fairysim.sim.policy).
HEURISTICS = builtin_table(
    builtin(
        "random",
        random_policy,
        "uniform over the distinct legal choices",
        reads_view=False,
    ),
    builtin(
        "greedy",
        greedy_policy,
        "most cards, then highest value; biggest stack",
        reads_view=False,
    ),
    builtin(
        "hoarder",
        hoarder_policy,
        "keeps the cards its Grande Finale fan counts, plays the others",
        # Defaults from a grid search against three greedy opponents (4 players, fans I,
        # III, VI; docs/policies.md): a finale weight above the count weight starves the
        # hoarder of medals.
        finale=weight(1.0, 0, MAX_WEIGHT),
        count=weight(2.0, 0, MAX_WEIGHT),
        value=weight(0.5, 0, MAX_WEIGHT),
    ),
    builtin(
        "balancer",
        balancer_policy,
        "weighs the medal a fan wins now against the finale cards it gives up",
        # Defaults from the same grid search (docs/policies.md).
        finale=weight(0.5, 0, MAX_WEIGHT),
        pick=weight(2.0, 0, MAX_WEIGHT),
        spent=weight(0.5, 0, MAX_WEIGHT),
        # the share of the seats still to play that beat a fan their hand can beat
        risk=weight(0.5, 0, 1),
    ),
)
"""The built-ins that decide from the view alone: the policies ``rollout`` may play out with."""

ROLLOUTS = 4
"""``rollout``'s default play-outs per choice. Against three balancers (4 players, 1,000 to
2,000 games each) it wins 40% at K = 4, 49% at 8 and 59% at 16, and each doubling halves its
speed; K = 4 keeps one searching seat above 1,000 games a second on two cores
(docs/policies.md)."""

POLICIES = builtin_table(
    *HEURISTICS.values(), rollout_builtin(HEURISTICS, "balancer", rollouts=ROLLOUTS)
)
"""Built-in policies by name; a built-in's place here is its id in :func:`call_builtin`.
``rollout`` (:mod:`fairysim.sim.search`) is last: the engine searches for it, never asks it."""

CALLED_DIRECTLY = tuple(HEURISTICS)
"""The built-ins ``call_builtin`` runs by id: all but ``rollout``, which the engine searches
for (:func:`.engine.decide`) and never asks."""

RANDOM, GREEDY, HOARDER, BALANCER, ROLLOUT = (
    POLICIES[name].builtin_id for name in ("random", "greedy", "hoarder", "balancer", "rollout")
)


@nb.njit(cache=True, inline="always")
def call_builtin(policy_id, decision, view, choices, n_choices, weights, rng):
    """Run the built-in of id ``policy_id`` (:data:`POLICIES`); :data:`UNKNOWN_BUILTIN`, an
    illegal answer, for an id the table does not hold."""
    if policy_id == GREEDY:
        return greedy_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == RANDOM:
        return random_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == HOARDER:
        return hoarder_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == BALANCER:
        return balancer_policy(decision, view, choices, n_choices, weights, rng)
    return UNKNOWN_BUILTIN


ask_policy = seat_asker(call_builtin)
"""Ask a seat's policy: built-ins through :func:`call_builtin`, user policies through their
function (:func:`fairysim.sim.dispatch.seat_asker`)."""
