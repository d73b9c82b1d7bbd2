"""Auctions, payments and visits of Fairy Land as the judging policies play them (rulings L5,
L7, L14, L15): what each seat can pay, what a rival is expected to bid, what to bid, what
exploring a clearing is expected to cost, and the cheapest fairies to pay with.

Everything but the decks is public (ruling PL2), so every seat's purse is known exactly; what a
rival wishes to pay is judged by :mod:`.valuation` from its own collection.
"""

from __future__ import annotations

import numba as nb

from fairysim.sim.fairyland.choices import next_submask, next_value
from fairysim.sim.fairyland.rules import (
    C_LOOK,
    C_MASK,
    EXPLORER,
    FAUNA,
    FLORA,
    HALF,
    HERALD,
    HERALD_VALUE,
    N_FAIRY_TYPES,
    N_HOUSE_FAIRIES,
    V_ACTIVE,
    V_BID_BONUS,
    V_FACE_VALUE,
    V_HAND,
    V_PLAYERS,
    V_VISIT_BONUS,
    WARRIOR,
    WIND,
    WIND_HAND_LIMIT,
    explore_values,
    mask_value,
    popcount,
)
from fairysim.sim.fairyland.valuation import (
    face_cost,
    taken_value,
)
from fairysim.sim.scratch import stack_int64

CONTEXT_FAIRIES = (1 << EXPLORER) | (1 << FAUNA) | (1 << FLORA)
"""Fairies whose value depends on the clearing explored (L5)."""
CONTEXT_COSTS = (1 << WIND) | (1 << WARRIOR) | (1 << HERALD)
"""Fairies whose cost in a payment is not their face value alone (:func:`cheapest_row`)."""


@nb.njit(cache=True)
def bid_power(view, seat, counts, values):
    """The most ``seat`` can bid for the clearing ``counts``: its hand's values there plus its
    bid bonus (L5, L14). ``values`` is int64[N_FAIRY_TYPES] scratch, filled only when the hand
    holds a fairy whose value depends on the clearing."""
    hand = view[V_HAND + seat]
    if hand & CONTEXT_FAIRIES:
        explore_values(view[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES], counts, values)
        return mask_value(hand, values) + view[V_BID_BONUS + seat]
    return face_cost(view, hand) + view[V_BID_BONUS + seat]


@nb.njit(cache=True)
def later_purse(view, seat, counts, values):
    """The most any seat bidding after ``seat`` in this auction (up to the active seat, who bids
    last, L5) can pay for the clearing ``counts``: everything but the decks is public (PL2),
    so every purse is known."""
    n = view[V_PLAYERS]
    active = view[V_ACTIVE]
    top = 0
    rival = seat
    while rival != active:
        rival = (rival + 1) % n
        top = max(top, bid_power(view, rival, counts, values))
    return top


@nb.njit(cache=True)
def bid_over(most, high, value, per_point, share, later):
    """How far above ``high`` to bid (0: pass; the ``BID`` row, L5), ``most`` the most the seat
    can pay.

    The last bidder (``later`` < 0) bids one above ``high`` when that costs at most ``value``
    (half points, at ``per_point`` fairy points a point). An earlier seat spends at most
    ``share`` of that: it bids one above what the seats after it can pay (``later``), sure to
    win, when that is within it; else one above ``high`` when that is (the seats after it may
    not want the clearing); else it passes.
    """
    budget = value / HALF * per_point
    bid = high + 1
    if later >= 0:
        budget *= share
        sure = max(high, later) + 1
        if sure <= most and sure <= budget:
            bid = sure
    if bid > most or bid > budget:
        return 0
    return bid - high  # rows: PASS, then high + 1, high + 2, ... (rules.BID)


IDLE = -1.0 * HALF
"""What a Day spent on nothing costs (half points): below any action that gains something."""


@nb.njit(cache=True)
def explore_net(view, seat, counts, values, style, per_point):
    """What exploring the clearing ``counts`` is worth to ``seat``, the active seat, who bids
    last (L5): :func:`explore_net_of` its :func:`.valuation.taken_value`."""
    value = taken_value(view, seat, counts, style)
    return explore_net_of(view, seat, counts, values, value, per_point)


@nb.njit(cache=True)
def explore_net_of(view, seat, counts, values, value, per_point):
    """What exploring the clearing ``counts``, worth ``value`` to ``seat``, the active seat, is
    worth: ``value`` less one fairy point, the least it pays (the seats before it bid only what
    they wish, which a seat judging by purses cannot tell). :data:`IDLE` when the clearing is
    worth nothing to it or it cannot bid (nobody may bid on an empty clearing, L16)."""
    if value <= 0.0 or bid_power(view, seat, counts, values) == 0:
        return IDLE
    return value - HALF / per_point


HOUSE_SUBSETS = 1 << N_HOUSE_FAIRIES
SPECIAL_SUBSETS = 1 << (N_FAIRY_TYPES - N_HOUSE_FAIRIES)
"""Sizes of the face-value tables of :func:`cheapest_row` (house fairies, special fairies)."""


@nb.njit(cache=True, inline="always")
def fill_subset_faces(view, first, n, table):
    """``table[m]``: the face value of the fairies ``first + b`` for the bits ``b`` of ``m``."""
    table[0] = 0
    for b in range(n):
        face = view[V_FACE_VALUE + first + b]
        for m in range(1 << b):
            table[m | (1 << b)] = table[m] + face


@nb.njit(cache=True)
def cheapest_row(view, choices, n_choices, need_look, hand, warrior_relief, herald_extra):
    """The row of fairies (``C_MASK``) costing least, ties to fewer cards: a ``PAYMENT``, or a
    ``QUEEN_FAIRIES``/``DRUID_FAIRIES`` row looking at ``need_look`` cards or more
    (``need_look`` < 0: every row).

    The cost is the fairies' face value, less the Fairy of the Wind when it comes back (``hand``
    is the seat's hand; it comes back when 3 cards or fewer are left, L15, L18; ``hand`` 0
    ignores this), less ``warrior_relief`` when the Warrior is among them, plus
    ``herald_extra`` when the Herald is. A payment may list a hundred rows, so face values come
    from two small tables of subset sums.
    """
    house = stack_int64(HOUSE_SUBSETS)
    special = stack_int64(SPECIAL_SUBSETS)
    fill_subset_faces(view, 0, N_HOUSE_FAIRIES, house)
    fill_subset_faces(view, N_HOUSE_FAIRIES, N_FAIRY_TYPES - N_HOUSE_FAIRIES, special)
    wind_face = view[V_FACE_VALUE + WIND]
    best = 0
    best_cost = 1.0e18
    best_cards = 1 << 30
    for i in range(n_choices):
        if need_look >= 0 and choices[i, C_LOOK] < need_look:
            continue
        mask = choices[i, C_MASK]
        cost = float(house[mask & (HOUSE_SUBSETS - 1)] + special[mask >> N_HOUSE_FAIRIES])
        if mask & CONTEXT_COSTS:
            if hand and (mask >> WIND) & 1 and popcount(hand & ~mask) <= WIND_HAND_LIMIT:
                cost -= wind_face
            if (mask >> WARRIOR) & 1:
                cost -= warrior_relief
            if (mask >> HERALD) & 1:
                cost += herald_extra
        if cost > best_cost:
            continue
        cards = popcount(mask)
        if cost < best_cost or cards < best_cards:
            best, best_cost, best_cards = i, cost, cards
    return best


@nb.njit(cache=True)
def cheapest_payment(hand, values, face_value, bonus, bid, wind_hand, warrior_relief, herald_extra):
    """The ``PAYMENT`` row :func:`cheapest_row` picks (``wind_hand``, ``warrior_relief`` and
    ``herald_extra`` as its ``hand`` and the rest), found while the subsets of ``hand`` are
    enumerated in the rows' order (:func:`.choices.payment_choices` of ``hand``, ``values``,
    ``bonus``, ``bid``) without writing them. Returns the row's ``(mask, value)``.

    The same float costs in the same order give the same row: a shortcut's payment
    (:mod:`.greedy`, :mod:`.value_bidder`) is the policy's.
    """
    wind_face = face_value[WIND]
    best_mask = 0
    best_value = 0
    best_cost = 1.0e18
    best_cards = 1 << 30
    sub = 0
    value = 0
    face = 0
    while True:
        if value + bonus >= bid:
            cost = float(face)
            if sub & CONTEXT_COSTS:
                if (
                    wind_hand
                    and (sub >> WIND) & 1
                    and popcount(wind_hand & ~sub) <= WIND_HAND_LIMIT
                ):
                    cost -= wind_face
                if (sub >> WARRIOR) & 1:
                    cost -= warrior_relief
                if (sub >> HERALD) & 1:
                    cost += herald_extra
            if cost <= best_cost:
                cards = popcount(sub)
                if cost < best_cost or cards < best_cards:
                    best_mask, best_value, best_cost, best_cards = sub, value, cost, cards
        after = next_submask(sub, hand)
        if after == 0:
            return best_mask, best_value
        value = next_value(sub, after, value, values)
        face = next_value(sub, after, face, face_value)
        sub = after


@nb.njit(cache=True)
def most_look(choices, n_choices):
    """The most cards any ``QUEEN_FAIRIES``/``DRUID_FAIRIES`` row looks at."""
    most = 0
    for i in range(n_choices):
        most = max(most, choices[i, C_LOOK])
    return most


@nb.njit(cache=True)
def visit_cost(view, seat, look):
    """Face value ``seat`` spends to look at ``look`` cards at the Queen or the Druids: the
    Herald alone when it reaches (L5), else fairies worth ``look + 1`` less its visit bonus."""
    need = max(1, look + 1 - view[V_VISIT_BONUS + seat])
    hand = view[V_HAND + seat]
    if (hand >> HERALD) & 1 and need <= HERALD_VALUE:
        return view[V_FACE_VALUE + HERALD]
    return min(need, face_cost(view, hand))


@nb.njit(cache=True)
def most_face(view, choices, n_choices):
    """The row whose fairies (``C_MASK``) have the most face value (the Horn of Recall)."""
    best = 0
    for i in range(n_choices):
        if face_cost(view, choices[i, C_MASK]) > face_cost(view, choices[best, C_MASK]):
            best = i
    return best
