"""The legal choices of each Fairy Land decision, as jitted enumerators for a jitted engine.

Each function writes the rows of one decision into ``choices`` in the order :mod:`.rules`
documents (RULINGS "Random policy") and returns how many it wrote; the inputs are small int
arrays and masks, so an engine calls them on its preallocated arrays with no allocation. The
reference engine builds the same rows in plain Python from the rulebook's words;
``tests/fairyland/test_choices.py`` checks them row for row on every decision of sampled games.
"""

from __future__ import annotations

import numba as nb
from numba.cpython.unsafe.numbers import trailing_zeros

from fairysim.sim.fairyland.rules import (
    ACT_CREST,
    ACT_DRUIDS,
    ACT_EXPLORE,
    ACT_ITEM,
    ACT_QUEEN,
    BROOM,
    CLEARINGS,
    DRUIDS_KEY,
    FIRST_ANIMAL,
    FIRST_FLOWER,
    FIRST_FOREST_TYPE,
    GOBLIN_TRAP,
    HORN_OF_RECALL,
    IT_PRIMITIVE,
    ITEM_FIELDS,
    N_ANIMALS,
    N_CARD_TYPES,
    N_FLOWERS,
    NET,
    NO_ARG,
    NO_CARD,
    NO_CLEARING,
    PASS,
    is_evil,
    mask_value,
    popcount,
)


@nb.njit(cache=True, inline="always")
def put(choices, n, a, b, c):
    """Write row ``n`` as ``(a, b, c)`` (every column, so unused ones read 0)."""
    choices[n, 0] = a
    choices[n, 1] = b
    choices[n, 2] = c


@nb.njit(cache=True, inline="always")
def next_submask(sub, mask):
    """The next larger submask of ``mask`` after ``sub`` (ascending order; 0 after the last)."""
    return ((sub | ~mask) + 1) & mask


@nb.njit(cache=True, inline="always")
def next_value(sub, after, value, values):
    """The value (``values`` by fairy type) of submask ``after``, the one after ``sub`` whose
    value is ``value``: the step adds one card and takes away the cards below it (a binary
    count), so a whole enumeration costs about two cards a subset, not all of each subset's."""
    return value - mask_value(sub & ~after, values) + values[trailing_zeros(after & ~sub)]


@nb.njit(cache=True)
def dawn_choices(evil, first, second, choices):
    """DAWN (L3, PL3): ``evil[c]`` evil cards in clearing ``c``; ``first``/``second`` the cards
    drawn (``second = NO_CARD`` for one). Rows ``(C_FIRST, C_SECOND)``."""
    least = min(evil[0], min(evil[1], evil[2]))
    n = 0
    if second == NO_CARD:
        for a in range(CLEARINGS):
            if not is_evil(first) or evil[a] == least:
                put(choices, n, a, NO_CLEARING, 0)
                n += 1
        return n
    for a in range(CLEARINGS):
        if is_evil(first) and evil[a] != least:
            continue
        for b in range(CLEARINGS):
            if b == a:
                continue
            if is_evil(second):
                if is_evil(first):  # the fewest of the two other clearings
                    other = 3 - a - b
                    if evil[b] > evil[other]:
                        continue
                elif evil[b] != least:
                    continue
            put(choices, n, a, b, 0)
            n += 1
    return n


@nb.njit(cache=True)
def day_choices(
    hand,
    played,
    crests,
    held_items,
    item_table,
    any_clearing,
    goblins,
    court_left,
    druids_left,
    choices,
):
    """DAY (L4, L16): explore 0-2, the Queen, the Druids, the Crest, each usable item held that
    would change something, ascending item id. ``item_table`` is flat (``rules.V_ITEM_TABLE``).
    Rows ``(C_ACTION, C_ARG)``."""
    n = 0
    for c in range(CLEARINGS):
        put(choices, n, ACT_EXPLORE, c, 0)
        n += 1
    if court_left > 0 and hand != 0:
        put(choices, n, ACT_QUEEN, NO_ARG, 0)
        n += 1
    if druids_left > 0 and hand != 0:
        put(choices, n, ACT_DRUIDS, NO_ARG, 0)
        n += 1
    if crests > 0 and played != 0:
        put(choices, n, ACT_CREST, NO_ARG, 0)
        n += 1
    item = 0
    held = held_items
    while held:
        if held & 1:
            primitive = item_table[item * ITEM_FIELDS + IT_PRIMITIVE]
            legal = (
                ((primitive == NET or primitive == BROOM) and any_clearing)  # noqa: SIM109
                or (primitive == GOBLIN_TRAP and goblins > 0)
                or (primitive == HORN_OF_RECALL and played != 0)
                or (primitive == DRUIDS_KEY and druids_left > 0)
            )
            if legal:
                put(choices, n, ACT_ITEM, item, 0)
                n += 1
        held >>= 1
        item += 1
    return n


@nb.njit(cache=True)
def bid_choices(high_bid, can_pay, choices):
    """BID (L5, L14): pass, then every bid from ``high_bid + 1`` to ``can_pay`` (the hand's
    values for this clearing plus the bid bonus). Rows ``(C_BID,)``."""
    put(choices, 0, PASS, 0, 0)
    n = 1
    for bid in range(high_bid + 1, can_pay + 1):
        put(choices, n, bid, 0, 0)
        n += 1
    return n


@nb.njit(cache=True)
def payment_choices(hand, values, bonus, bid, choices):
    """PAYMENT (L5, L14): every subset of ``hand`` whose value (``values`` by fairy type, for
    this clearing) plus ``bonus`` reaches ``bid``, ascending. Rows ``(C_MASK, C_VALUE)``."""
    n = 0
    sub = 0
    value = 0
    while True:
        if value + bonus >= bid:
            put(choices, n, sub, value, 0)
            n += 1
        after = next_submask(sub, hand)
        if after == 0:
            return n
        value = next_value(sub, after, value, values)
        sub = after


@nb.njit(cache=True)
def visit_choices(hand, values, bonus, deck_left, choices):
    """QUEEN_FAIRIES / DRUID_FAIRIES (L7, L16, L18): every non-empty subset of ``hand``, its
    value (Herald 5) and the cards it shows, ``min(value + bonus - 1, deck_left)``. Rows
    ``(C_MASK, C_VALUE, C_LOOK)``."""
    n = 0
    sub = 0
    value = 0
    while True:
        after = next_submask(sub, hand)
        if after == 0:
            return n
        value = next_value(sub, after, value, values)
        sub = after
        put(choices, n, sub, value, min(value + bonus - 1, deck_left))
        n += 1


@nb.njit(cache=True)
def pick_choices(seen, n_seen, choices):
    """QUEEN_PICK / DRUID_PICK (L7): the distinct values of ``seen[:n_seen]`` (item ids or card
    types), ascending. Rows ``(C_ITEM,)`` / ``(C_CARD,)``."""
    n = 0
    last = -1
    while True:
        smallest = -1
        for i in range(n_seen):
            if seen[i] > last and (smallest < 0 or seen[i] < smallest):
                smallest = seen[i]
        if smallest < 0:
            return n
        put(choices, n, smallest, 0, 0)
        n += 1
        last = smallest


@nb.njit(cache=True)
def victims_held(collected, seat):
    """The animals and flowers ``seat`` holds (``collected`` flat, seat-major): 0 and 1 need no
    decision (L6)."""
    row = seat * N_CARD_TYPES
    total = 0
    for t in range(FIRST_ANIMAL, FIRST_FLOWER + N_FLOWERS):
        total += collected[row + t]
    return total


@nb.njit(cache=True)
def ogre_choices(collected, seat, choices):
    """OGRE_VICTIMS (L6): each distinct pair of animal/flower types ``seat`` holds, ``a <= b``.
    Rows ``(C_CARD, C_CARD_2)``."""
    assert FIRST_FLOWER == FIRST_ANIMAL + N_ANIMALS  # one run of victim types
    row = seat * N_CARD_TYPES
    n = 0
    for a in range(FIRST_ANIMAL, FIRST_FLOWER + N_FLOWERS):
        if collected[row + a] == 0:
            continue
        for b in range(a, FIRST_FLOWER + N_FLOWERS):
            if collected[row + b] > (1 if b == a else 0):
                put(choices, n, a, b, 0)
                n += 1
    return n


@nb.njit(cache=True)
def net_choices(clearings, choices):
    """NET_TAKE (L13): each card type of each non-empty clearing (``clearings`` flat,
    clearing-major, as ``rules.V_CLEARING``). Rows ``(C_CLEARING, C_CARD_NET)``."""
    n = 0
    for c in range(CLEARINGS):
        for t in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
            if clearings[c * N_CARD_TYPES + t] > 0:
                put(choices, n, c, t, 0)
                n += 1
    return n


@nb.njit(cache=True)
def broom_choices(clearing_sizes, choices):
    """BROOM_SWEEP (L13): each non-empty clearing. Rows ``(C_CLEARING,)``."""
    n = 0
    for c in range(CLEARINGS):
        if clearing_sizes[c] > 0:
            put(choices, n, c, 0, 0)
            n += 1
    return n


@nb.njit(cache=True)
def horn_choices(played, amount, choices):
    """HORN_RECALL (L13): each non-empty subset of ``played`` of at most ``amount`` fairies,
    ascending. Rows ``(C_MASK,)``."""
    n = 0
    sub = next_submask(0, played)
    while sub != 0:
        if popcount(sub) <= amount:
            put(choices, n, sub, 0, 0)
            n += 1
        sub = next_submask(sub, played)
    return n
