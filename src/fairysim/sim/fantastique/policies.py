"""Built-in Fantastique policies.

Each is compiled once with :data:`fairysim.sim.policy.POLICY_SIGNATURE` and sees only its seat's
view (:data:`.rules.VIEW_FIELDS`). Weights are floats passed per call, so tuning never recompiles.

==========  ==========================================================================
random      uniform over the distinct legal choices (the statistical reference)
greedy      most cards, then highest value; takes the biggest stack, then highest value
hoarder     keeps the cards its Grande Finale fan counts and plays the others
balancer    weighs the medal a fan wins now against the finale cards it gives up
==========  ==========================================================================
"""

from __future__ import annotations

import numba as nb

from fairysim.sim.fantastique.rules import (
    BRONZE_MIN_PLAYERS,
    DISPLAY_STACKS,
    MEDAL_ROWS,
    N_VALUES,
    PLAY_FAN,
    V_FAN,
    V_HAND,
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
def greedy_fan_key(hand, taken_fans):
    """Greedy's fan read straight off a hand: ``count * GREEDY_KEY_RADIX + value``.

    ``hand[v]`` counts the cards of value ``v``; bit ``k`` of ``taken_fans[v]`` is set once the
    fan (v, k) was played this round (F4). The key is that of the fan :func:`greedy_policy` picks
    from the legal fans, and below ``GREEDY_KEY_RADIX`` when no fan is legal. The engine calls
    this for a greedy seat instead of listing the legal fans, which costs more than the choice.
    """
    best_key = 0
    for value in range(1, N_VALUES + 1):
        count = hand[value]
        # The biggest fan of this value still free. Bit 0 is never set (no fan has no card), so
        # the loop ends at count 0 when every size is taken; usually it does not run at all.
        while (taken_fans[value] >> count) & 1:
            count -= 1
        best_key = max(best_key, count * GREEDY_KEY_RADIX + value)
    return best_key


@nb.njit(cache=True, inline="always")
def greedy_stack(stack_value, stack_size):
    """The display stack :func:`greedy_policy` takes (biggest, then highest value), -1 if none.

    A taken or never-dealt stack has size 0; among equal stacks the first in display order is
    taken, as the engine does with greedy's answer.
    """
    best = -1
    best_key = GREEDY_KEY_RADIX - 1  # below every stack with a card
    for s in range(DISPLAY_STACKS):
        key = stack_size[s] * GREEDY_KEY_RADIX + stack_value[s]
        better = key > best_key
        best = s if better else best
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
def medal_now(view, value, count):
    """Points of the medal fan (value, count) would hold against the fans already played."""
    players = view[V_PLAYERS]
    place = 0
    for s in range(players):
        c = view[V_PLAYED_COUNT + s]
        if c > count or (c == count and c > 0 and view[V_PLAYED_VALUE + s] > value):
            place += 1
    rows = len(MEDAL_ROWS) if players >= BRONZE_MIN_PLAYERS else len(MEDAL_ROWS) - 1
    if place >= rows:
        return 0.0
    return float(view[V_NEXT_MEDAL + place])


@policy
def balancer_policy(decision, view, choices, n_choices, weights, rng):
    """Medal points won now minus the finale cards given up, with a cost for cards spent.

    weights: finale (points per finale card), pick (per seat played earlier in the stack order),
    spent (per card played beyond the first), risk (share of the medal lost per player still to
    play).
    """
    finale_w = weights[0]
    pick_w = weights[1]
    spent_w = weights[2]
    risk_w = weights[3]
    if decision != PLAY_FAN:
        return score_stack_choices(view, choices, n_choices, finale_w, 1.0)
    players = view[V_PLAYERS]
    to_play = (view[V_START_SEAT] - view[V_SEAT] - 1) % players
    risk = max(0.0, 1.0 - risk_w * to_play)
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
            risk * medal_now(view, value, count)
            + pick_w * picks_before
            - finale_w * loss
            - spent_w * (count - 1)
        )
        if score > best_score:
            best_score = score
            best = i
    return best


# Built-ins are called directly through ``call_builtin`` (an integer id per seat), which LLVM
# inlines; a call through a first-class function costs ~40-60 ns of reference counting on the
# arrays it passes, more than the whole decision of greedy. User policies take that path.
RANDOM, GREEDY, HOARDER, BALANCER = range(4)


@nb.njit(cache=True, inline="always")
def call_builtin(policy_id, decision, view, choices, n_choices, weights, rng):
    """Run built-in policy ``policy_id`` (an id declared just above)."""
    if policy_id == GREEDY:
        return greedy_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == RANDOM:
        return random_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == HOARDER:
        return hoarder_policy(decision, view, choices, n_choices, weights, rng)
    return balancer_policy(decision, view, choices, n_choices, weights, rng)


@nb.njit(cache=True, inline="always")
def ask_policy(policy_ids, policies, seat, decision, view, choices, n_choices, weights, rng):
    """Ask seat ``seat``'s policy: built-ins directly, user policies through their function."""
    policy_id = policy_ids[seat]
    if policy_id >= 0:
        return call_builtin(policy_id, decision, view, choices, n_choices, weights, rng)
    return policies[seat](decision, view, choices, n_choices, weights, rng)


POLICIES = {
    p.name: p
    for p in (
        builtin(
            "random",
            random_policy,
            "uniform over the distinct legal choices",
            builtin_id=RANDOM,
            reads_view=False,
        ),
        builtin(
            "greedy",
            greedy_policy,
            "most cards, then highest value; biggest stack",
            builtin_id=GREEDY,
            reads_view=False,
        ),
        builtin(
            "hoarder",
            hoarder_policy,
            "keeps the cards its Grande Finale fan counts, plays the others",
            builtin_id=HOARDER,
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
            builtin_id=BALANCER,
            # Defaults from the same grid search (docs/policies.md).
            finale=weight(0.5, 0, MAX_WEIGHT),
            pick=weight(2.0, 0, MAX_WEIGHT),
            spent=weight(0.5, 0, MAX_WEIGHT),
            # a share of the medal per player still to play: 1 already discounts it all
            risk=weight(0.0, 0, 1),
        ),
    )
}
"""Built-in policies by name."""
