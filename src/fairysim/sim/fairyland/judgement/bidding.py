"""Auctions, payments and visits of Fairy Land as the judging policies judge them (rulings L5,
L7, L14, L15): what each seat can pay, what a rival is expected to bid, what to bid, what
exploring a clearing is expected to cost, and the cheapest fairies to pay with. The auction's
rules are :mod:`..rules` (the legal bids and payments) and :mod:`..engine`.

Everything but the decks is public (ruling PL2), so every seat's purse is known exactly; what a
rival wishes to pay is judged by :mod:`.valuation` from its own collection.
"""

from __future__ import annotations

import numba as nb
from numba.cpython.unsafe.numbers import trailing_zeros

from fairysim.sim.fairyland.choices import next_submask, next_value
from fairysim.sim.fairyland.judgement.valuation import (
    face_cost,
    taken_value,
)
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
from fairysim.sim.scratch import stack_int64

CONTEXT_FAIRIES = (1 << EXPLORER) | (1 << FAUNA) | (1 << FLORA)
"""Fairies whose value depends on the clearing explored (L5)."""
CONTEXT_COSTS = (1 << WIND) | (1 << WARRIOR) | (1 << HERALD)
"""Fairies whose cost in a payment is not their face value alone (:func:`cheapest_row`)."""
SUFFIXES = N_FAIRY_TYPES + 1
"""Size of :func:`cheapest_payment`'s table of the value its plain fairies still offer."""


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
        rival = rival + 1 if rival + 1 < n else 0
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
        face = house[mask & (HOUSE_SUBSETS - 1)] + special[mask >> N_HOUSE_FAIRIES]
        cost = payment_cost(mask, face, hand, wind_face, warrior_relief, herald_extra)
        if cost > best_cost:
            continue
        cards = popcount(mask)
        if cost < best_cost or cards < best_cards:
            best, best_cost, best_cards = i, cost, cards
    return best


@nb.njit(cache=True, inline="always")
def payment_cost(sub, face, wind_hand, wind_face, warrior_relief, herald_extra):
    """The cost :func:`cheapest_row` gives the fairies ``sub`` of face value ``face``: the
    Wind's face less when she comes back (``wind_hand`` is the hand, 0 to ignore her return)."""
    costed = sub
    if (sub >> WIND) & 1 and not (wind_hand and popcount(wind_hand & ~sub) <= WIND_HAND_LIMIT):
        costed &= ~(1 << WIND)
    return cost_floor(costed, face, wind_face, warrior_relief, herald_extra)


@nb.njit(cache=True, inline="always")
def cost_floor(costed, face, wind_face, warrior_relief, herald_extra):
    """Face value ``face`` less the Wind's face, less the Warrior's relief, plus the Herald's
    extra for those of them in ``costed``: the cost of fairies whose Wind comes back, and the
    least any fairies of face ``face`` or more with those three can cost."""
    cost = float(face)
    if costed & CONTEXT_COSTS:
        if (costed >> WIND) & 1:
            cost -= wind_face
        if (costed >> WARRIOR) & 1:
            cost -= warrior_relief
        if (costed >> HERALD) & 1:
            cost += herald_extra
    return cost


@nb.njit(cache=True, inline="always")
def better_payment(sub, value, face, costs, best):
    """``best`` (mask, value, cost, cards), or fairies ``sub`` (``value``, ``face``; ``costs``
    the rest of :func:`payment_cost`'s arguments) when they come first: less cost, then fewer
    cards, then the smaller mask (the first of the rows, which ascend)."""
    cost = payment_cost(sub, face, costs[0], costs[1], costs[2], costs[3])
    cards = popcount(sub)
    if cost != best[2]:
        first = cost < best[2]
    elif cards != best[3]:
        first = cards < best[3]
    else:
        first = sub < best[0]
    if first:
        return sub, value, cost, cards
    return best


@nb.njit(cache=True)
def cheapest_payment(hand, values, face_value, bonus, bid, wind_hand, warrior_relief, herald_extra):
    """The ``PAYMENT`` row :func:`cheapest_row` picks (``wind_hand``, ``warrior_relief`` and
    ``herald_extra`` as its ``hand`` and the rest) among the rows
    :func:`..choices.payment_choices` of ``hand``, ``values``, ``bonus``, ``bid`` would write,
    without writing them. Returns the row's ``(mask, value)``.

    The row is the least ``(cost, cards, mask)`` of the subsets that reach the bid. A fairy
    whose cost is its face value (all but the Wind, the Warrior and the Herald) added to a
    subset that already reaches it adds a card and no less cost, so for each choice of those
    three the plain fairies are searched depth first (most value first), a branch ending where
    it reaches the bid, can no longer reach it, or costs more than the best so far even with the
    Wind back (:func:`cost_floor`); each subset it ends on is costed as the rows are, so the
    row is the one the enumeration (:func:`cheapest_payment_walk`) finds. With a plain fairy's
    value negative, or its face below the Wind's (the Wind's return, saving her face, could
    then outweigh it), the enumeration answers.
    """
    wind_face = face_value[WIND]
    plain = hand & ~CONTEXT_COSTS
    fairies = stack_int64(N_FAIRY_TYPES)
    suffix = stack_int64(SUFFIXES)
    n = 0
    least_face = 1 << 30
    bits = plain
    while bits:
        f = trailing_zeros(bits)
        bits &= bits - 1
        if values[f] < 0:
            return cheapest_payment_walk(
                hand, values, face_value, bonus, bid, wind_hand, warrior_relief, herald_extra
            )
        at = n  # most value first (ties by type), so subsets reach the bid early
        while at > 0 and values[fairies[at - 1]] < values[f]:
            fairies[at] = fairies[at - 1]
            at -= 1
        fairies[at] = f
        least_face = min(least_face, face_value[f])
        n += 1
    if least_face < 0 or ((hand >> WIND) & 1 and least_face < wind_face):
        return cheapest_payment_walk(
            hand, values, face_value, bonus, bid, wind_hand, warrior_relief, herald_extra
        )
    suffix[n] = 0
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + values[fairies[i]]
    chosen = stack_int64(N_FAIRY_TYPES)
    costs = (wind_hand, wind_face, warrior_relief, herald_extra)
    best = (0, 0, 1.0e18, 1 << 30)
    costly = hand & CONTEXT_COSTS
    extra = 0
    while True:  # each subset of the Wind, the Warrior and the Herald held
        sub = extra
        value = mask_value(extra, values)
        face = mask_value(extra, face_value)
        depth = 0
        j = 0
        if value + bonus >= bid:
            best = better_payment(sub, value, face, costs, best)
            j = n  # no plain fairy added to it can be cheaper
        while True:
            if j < n and value + suffix[j] + bonus >= bid:
                f = fairies[j]
                j += 1
                floor = cost_floor(
                    extra, face + face_value[f], wind_face, warrior_relief, herald_extra
                )
                if floor > best[2]:  # it and every subset grown from it cost more
                    continue
                sub |= 1 << f
                value += values[f]
                face += face_value[f]
                if value + bonus >= bid:
                    best = better_payment(sub, value, face, costs, best)
                    sub &= ~(1 << f)
                    value -= values[f]
                    face -= face_value[f]
                else:
                    chosen[depth] = j - 1
                    depth += 1
            else:
                if depth == 0:
                    break
                depth -= 1
                j = chosen[depth]
                f = fairies[j]
                sub &= ~(1 << f)
                value -= values[f]
                face -= face_value[f]
                j += 1
        if extra == costly:
            return best[0], best[1]
        extra = next_submask(extra, costly)


@nb.njit(cache=True)
def cheapest_payment_walk(
    hand, values, face_value, bonus, bid, wind_hand, warrior_relief, herald_extra
):
    """:func:`cheapest_payment` by walking every subset of ``hand`` in the rows' order."""
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
            cost = payment_cost(sub, face, wind_hand, wind_face, warrior_relief, herald_extra)
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
