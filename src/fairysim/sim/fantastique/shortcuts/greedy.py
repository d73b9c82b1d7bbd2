"""Greedy's answers read off the engine's table: the greedy shortcut (docs/architecture.md,
"Policy dispatch").

:func:`.policies.greedy_policy` is the definition, and the reference engine asks it. Listing a
greedy seat's legal fans (every value and size still free) costs more than choosing among them,
so the engine reads greedy's fan (:func:`greedy_fan_key`) and stack (:func:`greedy_stack`)
straight off the table instead, ranking them by the same key (``size * GREEDY_KEY_RADIX +
value``), so the answers are the same. tests/fantastique/test_greedy_shortcut.py compares these
answers with ``greedy_policy``'s, and the engine's equivalence tests play greedy seats against
the reference engine.
"""

from __future__ import annotations

import numba as nb

from fairysim.sim.fantastique.policies import GREEDY_KEY_RADIX
from fairysim.sim.fantastique.rules import DISPLAY_STACKS, N_VALUES


@nb.njit(cache=True, inline="always")
def greedy_fan_key(hand, taken_fans):
    """Greedy's fan read straight off a hand: ``count * GREEDY_KEY_RADIX + value``.

    ``hand[v]`` counts the cards of value ``v``; bit ``k`` of ``taken_fans[v]`` is set once the
    fan (v, k) was played this round (F4). The key is that of the fan
    :func:`.policies.greedy_policy` picks from the legal fans, and below ``GREEDY_KEY_RADIX`` when
    no fan is legal. The engine calls this for a greedy seat instead of listing the legal fans,
    which costs more than the choice.
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
    """The display stack :func:`.policies.greedy_policy` takes (biggest, then highest value), -1 if
    none.

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


__all__ = ["greedy_fan_key", "greedy_stack"]
