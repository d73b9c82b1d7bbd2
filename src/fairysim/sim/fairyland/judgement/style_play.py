"""Every decision of Fairy Land answered from a *style* (:mod:`.valuation`): the play the four
judging built-ins share (value-bidder, majority-hunter, flower-gardener, courtier, in
:mod:`..policies`). They differ in their style, their weights and the values they give the Day's
visits and the Crest; everything else is here.
"""

from __future__ import annotations

import numba as nb

from fairysim.sim.fairyland.judgement.bidding import (
    CONTEXT_FAIRIES,
    bid_over,
    cheapest_row,
    explore_net_of,
    later_purse,
    most_face,
    most_look,
    visit_cost,
)
from fairysim.sim.fairyland.judgement.valuation import (
    FIXED,
    NEVER,
    S_SPREAD,
    best_card_in_clearings,
    best_rival_clearing_value,
    cards_value,
    clear_counts,
    copy_clearing,
    hand_face,
    item_value,
    one_card_value,
    played_face,
    taken_parts,
    taken_value,
    warrior_relief,
)
from fairysim.sim.fairyland.rules import (
    ACT_CREST,
    ACT_DRUIDS,
    ACT_EXPLORE,
    ACT_QUEEN,
    BID,
    BROOM,
    BROOM_SWEEP,
    C_ACTION,
    C_ARG,
    C_BID,
    C_CARD,
    C_CARD_2,
    C_CARD_NET,
    C_CLEARING,
    C_FIRST,
    C_ITEM,
    C_SECOND,
    CLEARINGS,
    DAWN,
    DAY,
    DRUID_FAIRIES,
    DRUID_PICK,
    DRUIDS_KEY,
    GOBLIN,
    GOBLIN_TRAP,
    HALF,
    HORN_OF_RECALL,
    HORN_RECALL,
    IT_AMOUNT,
    IT_PRIMITIVE,
    ITEM_FIELDS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    NET,
    NO_CARD,
    NO_CLEARING,
    OGRE_VICTIMS,
    PAYMENT,
    QUEEN_FAIRIES,
    QUEEN_PICK,
    V_ACTIVE,
    V_AUCTION_CLEARING,
    V_CLEARING_SIZE,
    V_COLLECTED,
    V_DAWN_CARDS,
    V_FACE_VALUE,
    V_HAND,
    V_HIGH_BID,
    V_ITEM_TABLE,
    V_PLAYED,
)
from fairysim.sim.scratch import stack_float64, stack_int64

ITEM_POINTS = 3.0
"""Points a permanent or usable item is worth to a policy with no weight for it."""
VISIT = 2.0
LOOK = 3
"""What a visit is worth (points) and how many cards it looks at, for a policy with no weight
for them."""
BROOM_DENIAL = 0.5
"""Share of what a rival loses that sweeping a clearing is worth to the sweeper."""


@nb.njit(cache=True)
def dawn_by_style(view, choices, n_choices, seat, style, counts, taken, relief):
    """The Dawn placement (L3) leaving the clearing worth most to the seat, who explores next
    and bids last. A card drawn adds what it is worth alone to the clearing it joins (five
    valuations, not one per clearing and card). Each clearing's value before the cards join it
    and the Warrior's relief in it (:func:`.valuation.taken_parts`) are left in ``taken`` and
    ``relief`` (float64[CLEARINGS]): the value-bidder shortcut's Day reads those of a clearing
    no card joined."""
    first = view[V_DAWN_CARDS]
    second = view[V_DAWN_CARDS + 1]
    worth = stack_int64(CLEARINGS)
    for c in range(CLEARINGS):
        copy_clearing(view, c, counts)
        taken[c], relief[c] = taken_parts(view, seat, counts, style)
        worth[c] = int(FIXED * taken[c])
    first_worth = int(FIXED * one_card_value(view, seat, first, counts, style))
    second_worth = 0
    if second != NO_CARD:
        second_worth = int(FIXED * one_card_value(view, seat, second, counts, style))
    best = 0
    best_worth = -(1 << 62)
    for i in range(n_choices):
        top = -(1 << 62)
        for c in range(CLEARINGS):
            gain = first_worth if c == choices[i, C_FIRST] else 0
            gain += second_worth if c == choices[i, C_SECOND] else 0
            top = max(top, worth[c] + gain)
        if top > best_worth:
            best_worth = top
            best = i
    return best


@nb.njit(cache=True)
def top_faces(view, mask, k):
    """Face value of the ``k`` most valuable fairies of ``mask``."""
    total = 0
    for _ in range(k):
        best = -1
        for t in range(N_FAIRY_TYPES):
            if (mask >> t) & 1 and (best < 0 or view[V_FACE_VALUE + t] > view[V_FACE_VALUE + best]):
                best = t
        if best < 0:
            break
        total += view[V_FACE_VALUE + best]
        mask &= ~(1 << best)
    return total


@nb.njit(cache=True)
def item_use_value(view, seat, item, counts, style, key, recall_rate):
    """What using court item ``item`` as the Day's action is worth (L13): the Net its best card,
    the Broom a share of what the best swept clearing is worth to a rival over the seat, the
    Goblin Trap the goblins' expected penalty, the Horn ``recall_rate`` a face point brought
    back, the Druid's Key ``key``."""
    at = V_ITEM_TABLE + item * ITEM_FIELDS
    primitive = view[at + IT_PRIMITIVE]
    if primitive == NET:
        return best_card_in_clearings(view, seat, counts, style)
    if primitive == BROOM:
        best = NEVER
        for c in range(CLEARINGS):
            if view[V_CLEARING_SIZE + c] > 0:
                copy_clearing(view, c, counts)
                rival = best_rival_clearing_value(view, seat, counts, style[S_SPREAD])
                best = max(best, BROOM_DENIAL * (rival - taken_value(view, seat, counts, style)))
        return best
    if primitive == GOBLIN_TRAP:
        clear_counts(counts)
        counts[GOBLIN] = -min(
            view[at + IT_AMOUNT], view[V_COLLECTED + seat * N_CARD_TYPES + GOBLIN]
        )
        return cards_value(view, seat, counts, style)
    if primitive == HORN_OF_RECALL:
        if recall_rate <= 0.0:
            return NEVER
        return recall_rate * top_faces(view, view[V_PLAYED + seat], view[at + IT_AMOUNT])
    if primitive == DRUIDS_KEY:
        return key
    return NEVER


@nb.njit(cache=True)
def day_by_style(
    view,
    choices,
    n_choices,
    seat,
    style,
    per_point,
    visits,
    crest,
    key,
    recall_rate,
    worth,
    relief,
    known,
):
    """The Day's action (L4) worth most: a clearing its value less the expected price
    (:func:`.bidding.explore_net_of`); the Queen ``visits[0]``, the Druids ``visits[1]`` (half
    points, their fairies' cost included); the Crest ``crest``; an item what using it is worth
    (:func:`item_use_value`). Each clearing's value and the Warrior's relief in it
    (:func:`.valuation.taken_parts`) are left in ``worth`` and ``relief`` (float64[CLEARINGS]),
    which the value-bidder shortcut reads at the auction that follows; those of the clearings
    ``c`` with bit ``c`` of ``known`` set are read from them, not worked out again."""
    counts = stack_int64(N_CARD_TYPES)
    values = stack_int64(N_FAIRY_TYPES)
    hand = view[V_HAND + seat]
    best = 0
    best_value = NEVER
    for i in range(n_choices):
        action = choices[i, C_ACTION]
        arg = choices[i, C_ARG]
        if action == ACT_EXPLORE:
            if not (known >> arg) & 1 or hand & CONTEXT_FAIRIES:  # else counts are not read
                copy_clearing(view, arg, counts)
            if not (known >> arg) & 1:
                worth[arg], relief[arg] = taken_parts(view, seat, counts, style)
            value = explore_net_of(view, seat, counts, values, worth[arg], per_point)
        elif action == ACT_QUEEN:
            value = visits[0]
        elif action == ACT_DRUIDS:
            value = visits[1]
        elif action == ACT_CREST:
            value = crest
        else:
            value = item_use_value(view, seat, arg, counts, style, key, recall_rate)
        if value > best_value:
            best_value = value
            best = i
    return best


@nb.njit(cache=True)
def bid_by_style(view, choices, n_choices, seat, style, per_point, share):
    """The ``BID`` (L5): the seat's value of the clearing against what the seats after it can
    pay (:func:`bid_for_value`)."""
    c = view[V_AUCTION_CLEARING]
    if c == NO_CLEARING:
        return 0
    counts = stack_int64(N_CARD_TYPES)
    copy_clearing(view, c, counts)
    value = taken_value(view, seat, counts, style)
    most = choices[n_choices - 1, C_BID]
    return bid_for_value(view, seat, counts, value, most, per_point, share)


@nb.njit(cache=True)
def bid_for_value(view, seat, counts, value, most, per_point, share):
    """The ``BID`` row (:func:`.bidding.bid_over`) of a seat that can pay ``most`` for the
    clearing ``counts`` worth ``value`` to it, against what the seats after it can pay."""
    if out_of_share(view, seat, value, per_point, share):
        return 0
    later = -1
    if seat != view[V_ACTIVE]:
        values = stack_int64(N_FAIRY_TYPES)
        later = later_purse(view, seat, counts, values)
    return bid_over(most, view[V_HIGH_BID], value, per_point, share, later)


@nb.njit(cache=True, inline="always")
def out_of_share(view, seat, value, per_point, share):
    """True when ``seat``, bidding before the active seat, passes whatever the purses after it:
    not even the least bid is within ``share`` of the clearing's ``value`` (L5)."""
    if seat == view[V_ACTIVE]:
        return False
    return value / HALF * per_point * share < view[V_HIGH_BID] + 1


@nb.njit(cache=True)
def best_row_value(view, choices, n_choices, decision, seat, style, per_point, item_points):
    """The ``QUEEN_PICK``, ``DRUID_PICK`` or ``NET_TAKE`` row worth most to the seat."""
    counts = stack_int64(N_CARD_TYPES)
    best = 0
    best_value = NEVER
    for i in range(n_choices):
        if decision == QUEEN_PICK:
            value = item_value(view, seat, choices[i, C_ITEM], style, per_point, item_points)
        elif decision == DRUID_PICK:
            value = one_card_value(view, seat, choices[i, C_CARD], counts, style)
        else:
            value = one_card_value(view, seat, choices[i, C_CARD_NET], counts, style)
        if value > best_value:
            best_value = value
            best = i
    return best


@nb.njit(cache=True)
def decide_by_style(
    decision,
    view,
    choices,
    n_choices,
    seat,
    style,
    per_point,
    share,
    look,
    herald_extra,
    item_points,
):
    """Every decision but the Day's action, the same way for every judging policy.

    Dawn: :func:`dawn_by_style`; bid: :func:`bid_by_style`; payment: the cheapest (the Warrior
    counted for the goblins and ogres she chases, the Herald ``herald_extra`` dearer); Queen and
    Druids: the cheapest fairies looking at ``look`` cards, then the item or card worth most;
    ogre: the victims that cost least; Net: the card worth most; Broom: the clearing a rival
    wants most; Horn: the fairies of most face value.
    """
    hand = view[V_HAND + seat]
    if decision == DAWN:
        counts = stack_int64(N_CARD_TYPES)
        taken = stack_float64(CLEARINGS)
        relief = stack_float64(CLEARINGS)
        return dawn_by_style(view, choices, n_choices, seat, style, counts, taken, relief)
    if decision == BID:
        return bid_by_style(view, choices, n_choices, seat, style, per_point, share)
    if decision == PAYMENT:
        counts = stack_int64(N_CARD_TYPES)
        copy_clearing(view, view[V_AUCTION_CLEARING], counts)
        relief = warrior_relief(view, seat, counts, style) / HALF * per_point
        return cheapest_row(view, choices, n_choices, -1, hand, relief, herald_extra)
    if decision == QUEEN_FAIRIES or decision == DRUID_FAIRIES:  # noqa: SIM109 (numba)
        need = min(most_look(choices, n_choices), look)
        return cheapest_row(view, choices, n_choices, need, hand, 0.0, 0.0)
    if decision == OGRE_VICTIMS:
        counts = stack_int64(N_CARD_TYPES)
        return least_harm_victims(view, choices, n_choices, seat, counts, style)
    if decision == BROOM_SWEEP:
        counts = stack_int64(N_CARD_TYPES)
        return sweep_choice(view, choices, n_choices, seat, counts, style)
    if decision == HORN_RECALL:
        return most_face(view, choices, n_choices)
    return best_row_value(view, choices, n_choices, decision, seat, style, per_point, item_points)


@nb.njit(cache=True)
def visit_net(view, seat, look, prospect, per_point):
    """A visit to the Queen or the Druids looking at ``look`` cards: ``prospect`` (half points)
    less the face value it plays (:func:`.bidding.visit_cost`) at ``per_point``."""
    return prospect - HALF * visit_cost(view, seat, look) / per_point


@nb.njit(cache=True)
def plain_play(
    decision, view, choices, n_choices, seat, style, per_point, share, crest_below, visit, look
):
    """Every decision of value-bidder, majority-hunter and flower-gardener, who differ only in
    their style. Day: :func:`plain_day`. The rest: :func:`decide_by_style`."""
    if decision != DAY:
        return decide_by_style(
            decision,
            view,
            choices,
            n_choices,
            seat,
            style,
            per_point,
            share,
            look,
            0.0,
            ITEM_POINTS,
        )
    worth = stack_float64(CLEARINGS)
    relief = stack_float64(CLEARINGS)
    return plain_day(
        view, choices, n_choices, seat, style, per_point, crest_below, visit, look, worth, relief, 0
    )


@nb.njit(cache=True)
def plain_day(
    view, choices, n_choices, seat, style, per_point, crest_below, visit, look, worth, relief, known
):
    """The Day of :func:`plain_play`: a visit (Queen, Druids, Druid's Key) is worth ``visit``
    points, less its fairies (looking at ``look`` cards); the Crest and the Horn bring fairies
    back once the hand's face value is ``crest_below`` or less, each face point worth
    ``1 / per_point`` points (:func:`day_by_style`, which fills ``worth`` and ``relief`` but
    for the clearings ``known``)."""
    prospect = HALF * visit
    net = visit_net(view, seat, look, prospect, per_point)
    rate = HALF / per_point if hand_face(view, seat) <= crest_below else 0.0
    crest = rate * played_face(view, seat) if rate > 0.0 else NEVER
    return day_by_style(
        view,
        choices,
        n_choices,
        seat,
        style,
        per_point,
        (net, net),
        crest,
        prospect,
        rate,
        worth,
        relief,
        known,
    )


@nb.njit(cache=True)
def least_harm_victims(view, choices, n_choices, seat, counts, style):
    """The ``OGRE_VICTIMS`` pair whose loss costs ``seat`` least (L6)."""
    best = 0
    best_value = NEVER
    for i in range(n_choices):
        clear_counts(counts)
        counts[choices[i, C_CARD]] -= 1
        counts[choices[i, C_CARD_2]] -= 1
        value = cards_value(view, seat, counts, style)
        if value > best_value:
            best_value = value
            best = i
    return best


@nb.njit(cache=True)
def sweep_choice(view, choices, n_choices, seat, counts, style):
    """The ``BROOM_SWEEP`` clearing worth most to a rival and least to ``seat``."""
    best = 0
    best_value = NEVER
    for i in range(n_choices):
        copy_clearing(view, choices[i, C_CLEARING], counts)
        value = best_rival_clearing_value(view, seat, counts, style[S_SPREAD])
        value -= taken_value(view, seat, counts, style)
        if value > best_value:
            best_value = value
            best = i
    return best
