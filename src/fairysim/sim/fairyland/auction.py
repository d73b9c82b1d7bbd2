"""Auctions, payments and visits of Fairy Land as the judging policies play them (rulings L5,
L7, L14, L15): what each seat can pay, what a rival is expected to bid, what to bid, what
exploring a clearing is expected to cost, and the cheapest fairies to pay with.

Everything but the decks is public (ruling PL2), so every seat's purse is known exactly; what a
rival wishes to pay is judged by :mod:`.valuation` from its own collection.
"""

from __future__ import annotations

import numba as nb

from fairysim.sim.fairyland.rules import (
    C_LOOK,
    C_MASK,
    HALF,
    HERALD,
    HERALD_VALUE,
    N_FAIRY_TYPES,
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
    S_SPREAD,
    face_cost,
    neutral_style,
    taken_value,
)


@nb.njit(cache=True)
def bid_power(view, seat, counts, values):
    """The most ``seat`` can bid for the clearing ``counts``: its hand's values there plus its
    bid bonus (L5, L14). ``values`` is int64[N_FAIRY_TYPES] scratch."""
    explore_values(view[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES], counts, values)
    return mask_value(view[V_HAND + seat], values) + view[V_BID_BONUS + seat]


@nb.njit(cache=True)
def rival_wish(view, rival, counts, values, style, per_point, share):
    """The most ``rival`` is expected to bid for the clearing ``counts``: its purse (public,
    PL2) or what the clearing is worth to it (``style``) at ``per_point`` fairy points a point,
    all of it for the auction's last bidder (the active seat), ``share`` of it for an earlier
    one."""
    power = bid_power(view, rival, counts, values)
    if power == 0:
        return 0
    wish = taken_value(view, rival, counts, style) / HALF * per_point
    if rival != view[V_ACTIVE]:
        wish *= share
    return min(power, max(0, int(wish)))


@nb.njit(cache=True)
def rivals_top_bid(view, seat, counts, values, spread, per_point, share):
    """The highest bid the seats bidding after ``seat`` in this auction (up to the active seat,
    who bids last, L5) are expected to make for the clearing ``counts`` (:func:`rival_wish`,
    rivals judged in :func:`neutral_style`)."""
    n = view[V_PLAYERS]
    active = view[V_ACTIVE]
    style = neutral_style(spread)
    top = 0
    rival = seat
    while rival != active:
        rival = (rival + 1) % n
        top = max(top, rival_wish(view, rival, counts, values, style, per_point, share))
    return top


@nb.njit(cache=True)
def auction_bid(view, choices, n_choices, seat, high, value, per_point, share, rivals):
    """The ``BID`` row to answer: the last bidder bids one above ``high`` when that costs at
    most ``value`` (half points, at ``per_point`` fairy points a point); an earlier seat bids
    just above what the seats after it are expected to bid (``rivals``) when that is within
    ``share`` of its value, else passes."""
    most = choices[n_choices - 1, 0]
    budget = value / HALF * per_point
    if rivals < 0:  # the last bidder
        bid = high + 1
    else:
        bid = max(high, rivals) + 1
        budget *= share
    if bid > most or bid > budget:
        return 0
    return bid - high  # rows: PASS, then high + 1, high + 2, ... (rules.BID)


IDLE = -1.0 * HALF
"""What a Day spent on nothing costs (half points): below any action that gains something."""


@nb.njit(cache=True)
def explore_net(view, seat, counts, values, style, per_point, share):
    """What exploring the clearing ``counts`` is worth to ``seat``, the active seat, who bids
    last (L5).

    The seats before it bid in turn (judged by :func:`rival_wish`): one that wishes to pay more
    than the clearing is worth to ``seat`` takes it, and exploring it only hands it over
    (:data:`IDLE` less that rival's gain); the others raise the high bid by one each while it is
    below their wish, and ``seat`` pays one more. A clearing worth nothing to ``seat`` is
    :data:`IDLE` (nobody may bid on an empty one, L16).
    """
    value = taken_value(view, seat, counts, style)
    if value <= 0.0:
        return IDLE
    budget = value / HALF * per_point
    rivals = neutral_style(style[S_SPREAD])
    n = view[V_PLAYERS]
    high = 0
    for step in range(1, n):
        rival = (seat + step) % n
        wish = rival_wish(view, rival, counts, values, rivals, per_point, share)
        if wish > budget:
            return IDLE - taken_value(view, rival, counts, rivals)
        if wish > high:
            high += 1
    if high + 1 > bid_power(view, seat, counts, values):
        return IDLE
    return value - HALF * (high + 1) / per_point


@nb.njit(cache=True)
def cheapest_row(view, choices, n_choices, need_look, hand, warrior_relief, herald_extra):
    """The row of fairies (``C_MASK``) costing least, ties to fewer cards: a ``PAYMENT``, or a
    ``QUEEN_FAIRIES``/``DRUID_FAIRIES`` row looking at ``need_look`` cards or more
    (``need_look`` < 0: every row).

    The cost is the fairies' face value, less the Fairy of the Wind when it comes back (``hand``
    is the seat's hand; it comes back when 3 cards or fewer are left, L15, L18; ``hand`` 0
    ignores this), less ``warrior_relief`` when the Warrior is among them, plus
    ``herald_extra`` when the Herald is.
    """
    wind_face = view[V_FACE_VALUE + WIND]
    best = 0
    best_cost = 1.0e18
    best_cards = 1 << 30
    for i in range(n_choices):
        if need_look >= 0 and choices[i, C_LOOK] < need_look:
            continue
        mask = choices[i, C_MASK]
        cost = float(face_cost(view, mask))
        if hand and (mask >> WIND) & 1 and popcount(hand & ~mask) <= WIND_HAND_LIMIT:
            cost -= wind_face
        if (mask >> WARRIOR) & 1:
            cost -= warrior_relief
        if (mask >> HERALD) & 1:
            cost += herald_extra
        cards = popcount(mask)
        if cost < best_cost or (cost == best_cost and cards < best_cards):
            best, best_cost, best_cards = i, cost, cards
    return best


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
