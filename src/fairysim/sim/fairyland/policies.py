"""Built-in Fairy Land policies.

Each is compiled once with :data:`fairysim.sim.policy.POLICY_SIGNATURE` and reads only its
seat's view (:data:`.rules.VIEW_FIELDS`, ruling PL2). Weights are floats passed per call, so
tuning never recompiles. "Score" below is a seat's current score without the King's applause
(:func:`.rules.collection_halves`), in half points.

==========  ==========================================================================
random      uniform over the legal choices (RULINGS "Random policy"; the reference)
greedy      takes the clearing worth most to it now and pays as little as it can
==========  ==========================================================================
"""

from __future__ import annotations

import numba as nb

from fairysim.sim.fairyland.rules import (
    ACT_CREST,
    ACT_DRUIDS,
    ACT_EXPLORE,
    ACT_QUEEN,
    BID,
    C_ACTION,
    C_ARG,
    C_BID,
    C_CARD,
    C_CARD_2,
    C_CARD_NET,
    C_CLEARING,
    C_FIRST,
    C_ITEM,
    C_LOOK,
    C_MASK,
    C_SECOND,
    CLEARINGS,
    DAWN,
    DAY,
    DRUID_FAIRIES,
    DRUID_PICK,
    DRUIDS_KEY,
    FIRST_FOREST_TYPE,
    GOBLIN,
    GOBLIN_TRAP,
    HALF,
    HORN_OF_RECALL,
    HORN_RECALL,
    IT_AMOUNT,
    IT_PRIMITIVE,
    ITEM_FIELDS,
    MAX_COURT_ITEMS,
    MAX_SEATS,
    N_ANIMALS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    NET,
    NET_TAKE,
    NO_CARD,
    NO_CLEARING,
    OGRE,
    OGRE_VICTIMS,
    PAYMENT,
    QUEEN_FAIRIES,
    QUEEN_PICK,
    V_AUCTION_CLEARING,
    V_CLEARING,
    V_COLLECTED,
    V_DAWN_CARDS,
    V_FACE_VALUE,
    V_HAND,
    V_ITEM_TABLE,
    V_ITEMS_HELD,
    V_MAJORITY,
    V_OGRE_WARD,
    V_PLAYERS,
    V_SEAT,
    collection_halves,
    is_special,
    item_points,
    mask_value,
    popcount,
)
from fairysim.sim.policy import builtin, policy, weight
from fairysim.sim.rng import randint
from fairysim.sim.scratch import stack_int64

N_COLLECTED = MAX_SEATS * N_CARD_TYPES
"""Slots of the view's collected block (every seat's counts by type)."""

# Greedy's weights, by position (names and defaults in POLICIES below).
W_BID_PER_POINT, W_SPECIAL, W_OGRE, W_VISIT, W_CREST_BELOW, W_LOOK, W_ITEM = range(7)

NEVER = -1.0e9
ALWAYS = 1.0e9


# --- Helpers reading the view (read only: policies work on local copies) ----------------------


@nb.njit(cache=True, inline="always")
def copy_collected(view, collected):
    """Copy every seat's collected counts into ``collected`` (a copy the policy may change)."""
    for i in range(N_COLLECTED):
        collected[i] = view[V_COLLECTED + i]


@nb.njit(cache=True, inline="always")
def copy_clearing(view, c, counts):
    """Copy clearing ``c``'s counts by type into ``counts``."""
    for t in range(N_CARD_TYPES):
        counts[t] = view[V_CLEARING + c * N_CARD_TYPES + t]


@nb.njit(cache=True)
def seat_score(view, collected, seat):
    """``seat``'s score without applause (half points) for the collections ``collected``."""
    return collection_halves(
        collected,
        view[V_PLAYERS],
        seat,
        view[V_MAJORITY : V_MAJORITY + N_ANIMALS],
        view[V_ITEMS_HELD + seat],
        view[V_ITEM_TABLE : V_ITEM_TABLE + MAX_COURT_ITEMS * ITEM_FIELDS],
    )


@nb.njit(cache=True)
def cards_gain(view, seat, collected, base, counts, weights):
    """What taking the cards ``counts`` (by type) is worth to ``seat`` now, in half points.

    Collected cards count by the change of the seat's score from ``base``; a special fairy is
    worth the ``special`` weight and an ogre the ``ogre`` weight (none with an ogre ward).
    ``collected`` is changed and restored.
    """
    row = seat * N_CARD_TYPES
    specials = 0
    ogres = 0
    for t in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
        if counts[t] == 0:
            continue
        if is_special(t):
            specials += counts[t]
        elif t == OGRE:
            ogres += counts[t]
        else:
            collected[row + t] += counts[t]
    score = seat_score(view, collected, seat)
    for t in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
        if not is_special(t) and t != OGRE:
            collected[row + t] -= counts[t]
    gain = float(score - base) + HALF * specials * weights[W_SPECIAL]
    if view[V_OGRE_WARD + seat] == 0:
        gain += HALF * ogres * weights[W_OGRE]
    return gain


@nb.njit(cache=True)
def one_card_gain(view, seat, collected, base, card, counts, weights):
    """What one card of type ``card`` is worth to ``seat`` now (``counts`` is scratch)."""
    for t in range(N_CARD_TYPES):
        counts[t] = 0
    counts[card] = 1
    return cards_gain(view, seat, collected, base, counts, weights)


@nb.njit(cache=True)
def clearing_gain(view, seat, collected, base, c, counts, weights):
    """What clearing ``c`` is worth to ``seat`` now (``counts`` is scratch)."""
    copy_clearing(view, c, counts)
    return cards_gain(view, seat, collected, base, counts, weights)


@nb.njit(cache=True, inline="always")
def face_cost(view, mask):
    """The face value of the fairies in ``mask``: what they would be worth later."""
    return mask_value(mask, view[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES])


@nb.njit(cache=True)
def cheapest(view, choices, n_choices, need_look):
    """The row with the least face cost (then fewest cards) among those looking at
    ``need_look`` cards or more (``need_look`` < 0: every row)."""
    best = 0
    best_cost = 1 << 30
    best_cards = 1 << 30
    for i in range(n_choices):
        if need_look >= 0 and choices[i, C_LOOK] < need_look:
            continue
        mask = choices[i, C_MASK]
        cost = face_cost(view, mask)
        cards = popcount(mask)
        if cost < best_cost or (cost == best_cost and cards < best_cards):
            best, best_cost, best_cards = i, cost, cards
    return best


# --- Policies -----------------------------------------------------------------------------------


@policy
def random_policy(decision, view, choices, n_choices, weights, rng):
    """Uniform over the legal choices (the engine lists each distinct choice once)."""
    return randint(rng, n_choices)


@nb.njit(cache=True)
def greedy_day(view, choices, n_choices, weights, seat, collected, base, counts):
    """The Day action: the Crest (or the Horn) when the hand is low, else the most valuable of
    exploring, the Net, the Goblin Trap and a visit (the Queen, the Druids, the Druid's Key)."""
    hand_value = face_cost(view, view[V_HAND + seat])
    low_hand = hand_value <= weights[W_CREST_BELOW]
    best = 0
    best_value = NEVER
    for i in range(n_choices):
        action = choices[i, C_ACTION]
        value = NEVER
        if action == ACT_EXPLORE:
            value = clearing_gain(view, seat, collected, base, choices[i, C_ARG], counts, weights)
        elif action == ACT_QUEEN or action == ACT_DRUIDS:  # noqa: SIM109 (numba)
            value = HALF * weights[W_VISIT]
        elif action == ACT_CREST:
            value = ALWAYS if low_hand else NEVER
        else:
            item = choices[i, C_ARG]
            primitive = view[V_ITEM_TABLE + item * ITEM_FIELDS + IT_PRIMITIVE]
            if primitive == NET:
                for c in range(CLEARINGS):
                    for t in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
                        if view[V_CLEARING + c * N_CARD_TYPES + t] > 0:
                            g = one_card_gain(view, seat, collected, base, t, counts, weights)
                            value = max(value, g)
            elif primitive == GOBLIN_TRAP:
                amount = view[V_ITEM_TABLE + item * ITEM_FIELDS + IT_AMOUNT]
                row = seat * N_CARD_TYPES + GOBLIN
                caught = min(amount, collected[row])
                collected[row] -= caught
                value = float(seat_score(view, collected, seat) - base)
                collected[row] += caught
            elif primitive == HORN_OF_RECALL:
                value = ALWAYS - 1.0 if low_hand else NEVER
            elif primitive == DRUIDS_KEY:
                value = HALF * weights[W_VISIT]
        if value > best_value:
            best_value = value
            best = i
    return best


@nb.njit(cache=True)
def greedy_ogre(view, choices, n_choices, seat, collected):
    """The pair of victims whose loss lowers the score least."""
    row = seat * N_CARD_TYPES
    best = 0
    best_score = -(1 << 60)
    for i in range(n_choices):
        a = choices[i, C_CARD]
        b = choices[i, C_CARD_2]
        collected[row + a] -= 1
        collected[row + b] -= 1
        score = seat_score(view, collected, seat)
        collected[row + a] += 1
        collected[row + b] += 1
        if score > best_score:
            best_score = score
            best = i
    return best


@nb.njit(cache=True)
def greedy_dawn(view, choices, n_choices, weights, seat, collected, base, counts):
    """The placement that leaves the clearing worth most to the seat (it explores next)."""
    first = view[V_DAWN_CARDS]
    second = view[V_DAWN_CARDS + 1]
    best = 0
    best_value = NEVER
    for i in range(n_choices):
        value = NEVER
        for c in range(CLEARINGS):
            copy_clearing(view, c, counts)
            if choices[i, C_FIRST] == c:
                counts[first] += 1
            if choices[i, C_SECOND] == c and second != NO_CARD:
                counts[second] += 1
            value = max(value, cards_gain(view, seat, collected, base, counts, weights))
        if value > best_value:
            best_value = value
            best = i
    return best


@nb.njit(cache=True)
def greedy_pick_item(view, choices, n_choices, weights, seat, collected):
    """The item worth most: an end-game item its points now, any other the ``item`` weight."""
    table = view[V_ITEM_TABLE : V_ITEM_TABLE + MAX_COURT_ITEMS * ITEM_FIELDS]
    best = 0
    best_value = NEVER
    for i in range(n_choices):
        item = choices[i, C_ITEM]
        points = item_points(table, item, collected, seat)
        value = HALF * points if points > 0 else HALF * weights[W_ITEM]
        if value > best_value:
            best_value = value
            best = i
    return best


@policy
def greedy_policy(decision, view, choices, n_choices, weights, rng):
    """Takes the clearing worth most to it now and pays as little as it can.

    Dawn: the placement leaving the best clearing for itself. Day: see :func:`greedy_day`. Bid:
    the lowest bid when it is at most ``bid_per_point`` per point the clearing is worth to it,
    else pass. Payment: the fairies of least face value (then fewest cards). Queen and Druids:
    the cheapest fairies that look at ``look`` cards (or as many as can be seen); the item or
    card worth most. Ogre: the victims that cost least. Net: the card worth most. Broom: the
    clearing worth most to an opponent. Horn: the fairies of most face value.
    """
    seat = view[V_SEAT]
    if decision == PAYMENT:
        return cheapest(view, choices, n_choices, -1)
    if decision == HORN_RECALL:
        best = 0
        for i in range(n_choices):
            if face_cost(view, choices[i, C_MASK]) > face_cost(view, choices[best, C_MASK]):
                best = i
        return best
    if decision == QUEEN_FAIRIES or decision == DRUID_FAIRIES:  # noqa: SIM109 (numba)
        most = 0
        for i in range(n_choices):
            most = max(most, choices[i, C_LOOK])
        return cheapest(view, choices, n_choices, min(most, int(weights[W_LOOK])))
    collected = stack_int64(N_COLLECTED)
    copy_collected(view, collected)
    counts = stack_int64(N_CARD_TYPES)
    if decision == OGRE_VICTIMS:
        return greedy_ogre(view, choices, n_choices, seat, collected)
    if decision == QUEEN_PICK:
        return greedy_pick_item(view, choices, n_choices, weights, seat, collected)
    base = seat_score(view, collected, seat)
    if decision == DAWN:
        return greedy_dawn(view, choices, n_choices, weights, seat, collected, base, counts)
    if decision == DAY:
        return greedy_day(view, choices, n_choices, weights, seat, collected, base, counts)
    if decision == BID:
        c = view[V_AUCTION_CLEARING]
        if c == NO_CLEARING:
            return 0
        gain = clearing_gain(view, seat, collected, base, c, counts, weights)
        willing = gain / HALF * weights[W_BID_PER_POINT]
        return 1 if choices[1, C_BID] <= willing else 0
    best = 0
    best_value = NEVER
    for i in range(n_choices):
        if decision == DRUID_PICK:
            value = one_card_gain(view, seat, collected, base, choices[i, C_CARD], counts, weights)
        elif decision == NET_TAKE:
            card = choices[i, C_CARD_NET]
            value = one_card_gain(view, seat, collected, base, card, counts, weights)
        else:  # BROOM_SWEEP: deny the opponent who wants a clearing most
            value = NEVER
            for other in range(view[V_PLAYERS]):
                if other != seat:
                    other_base = seat_score(view, collected, other)
                    c = choices[i, C_CLEARING]
                    g = clearing_gain(view, other, collected, other_base, c, counts, weights)
                    value = max(value, g)
        if value > best_value:
            best_value = value
            best = i
    return best


# Built-ins are called directly through ``call_builtin`` (an integer id per seat), which LLVM can
# inline; user policies go through their first-class function (see fairysim.sim.policy).
RANDOM, GREEDY = range(2)


@nb.njit(cache=True, inline="always")
def call_builtin(policy_id, decision, view, choices, n_choices, weights, rng):
    """Run built-in policy ``policy_id`` (an id declared just above)."""
    if policy_id == GREEDY:
        return greedy_policy(decision, view, choices, n_choices, weights, rng)
    return random_policy(decision, view, choices, n_choices, weights, rng)


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
            "uniform over the legal choices",
            builtin_id=RANDOM,
            reads_view=False,
        ),
        builtin(
            "greedy",
            greedy_policy,
            "takes the clearing worth most to it now and pays as little as it can",
            builtin_id=GREEDY,
            # Points are a game's scale (a majority is worth 1-10): the ranges keep each weight
            # a preference of that size, and ``look`` a count of cards.
            bid_per_point=weight(1.0, 0.0, 10.0),
            special=weight(3.0, -20.0, 20.0),
            ogre=weight(-3.0, -20.0, 20.0),
            visit=weight(2.0, -20.0, 20.0),
            crest_below=weight(6.0, 0.0, 100.0),
            look=weight(3.0, 0.0, 30.0, integer=True),
            item=weight(3.0, -20.0, 20.0),
        ),
    )
}
"""Built-in policies by name."""
