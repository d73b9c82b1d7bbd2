"""Built-in Fairy Land policies.

One module past 600 lines: every built-in is registered in one table beside its
weights, so ``fairysim policies`` and the dispatcher read one place (judging code is in
``judgement/``).

Each is compiled once with :data:`fairysim.sim.policy.POLICY_SIGNATURE` and reads only its
seat's view (:data:`.rules.VIEW_FIELDS`, ruling PL2). Weights are floats passed per call, so
tuning never recompiles; the judging policies' weights are bounded (``POLICIES``, refused out
of range by :meth:`fairysim.sim.policy.Policy.with_weights`). "Score" below is a seat's current
score without the King's applause (:func:`.rules.collection_halves`), in half points.

===============  ===================================================================
random           uniform over the legal choices (RULINGS "Random policy"; the reference)
greedy           takes the clearing worth most to it now and pays as little as it can
value-bidder     values clearings by their marginal score (open races first) and bids
                 knowing who can pay what after it (the benchmark's policy)
majority-hunter  concentrates on the few animal majorities most worth chasing
flower-gardener  grows flower colours and variety
courtier         the Queen, the Druids and items; keeps the Herald for visits and
                 takes the Crest once much is played
rollout          determinized Monte Carlo search of its Dawn and Day (:mod:`.search`),
                 value-bidder playing out and making its other decisions
===============  ===================================================================
"""

from __future__ import annotations

import numba as nb

from fairysim.runtime.errors import UNKNOWN_BUILTIN
from fairysim.sim.dispatch import builtin_table, seat_asker
from fairysim.sim.fairyland.judgement.bidding import (
    cheapest_row,
    most_face,
    most_look,
)
from fairysim.sim.fairyland.judgement.style_play import (
    LOOK,
    VISIT,
    day_by_style,
    decide_by_style,
    plain_play,
    visit_net,
)
from fairysim.sim.fairyland.judgement.valuation import (
    NEVER,
    OGRE_POINTS,
    SPECIAL_POINTS,
    best_court_prospect,
    best_other,
    copy_clearing,
    face_cost,
    hand_face,
    played_face,
    spread_now,
    standing,
)
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
    C_SECOND,
    CLEARINGS,
    DAWN,
    DAY,
    DRUID_FAIRIES,
    DRUID_PICK,
    DRUIDS_KEY,
    FIRST_ANIMAL,
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
    V_COURT_LEFT,
    V_DAWN_CARDS,
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
)
from fairysim.sim.policy import builtin, policy, weight
from fairysim.sim.rng import randint
from fairysim.sim.scratch import stack_float64, stack_int64
from fairysim.sim.search import rollout_builtin

N_COLLECTED = MAX_SEATS * N_CARD_TYPES
"""Slots of the view's collected block (every seat's counts by type)."""

# Greedy's weights, by position (names and defaults in POLICIES below).
W_BID_PER_POINT, W_SPECIAL, W_OGRE, W_VISIT, W_CREST_BELOW, W_LOOK, W_ITEM = range(7)

ALWAYS = 1.0e9


# --- Helpers reading the view (read only: policies work on local copies) ----------------------


@nb.njit(cache=True, inline="always")
def copy_collected(view, collected):
    """Copy every seat's collected counts into ``collected`` (a copy the policy may change)."""
    for i in range(N_COLLECTED):
        collected[i] = view[V_COLLECTED + i]


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
        return cheapest_row(view, choices, n_choices, -1, 0, 0.0, 0.0)
    if decision == HORN_RECALL:
        return most_face(view, choices, n_choices)
    if decision == QUEEN_FAIRIES or decision == DRUID_FAIRIES:  # noqa: SIM109 (numba)
        need = min(most_look(choices, n_choices), int(weights[W_LOOK]))
        return cheapest_row(view, choices, n_choices, need, 0, 0.0, 0.0)
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


# --- value-bidder ---------------------------------------------------------------------------------

VB_BID_PER_POINT, VB_SHARE, VB_SPREAD, VB_SPECIAL, VB_OGRE, VB_CREST_BELOW, VB_VISIT, VB_LOOK = (
    range(8)
)


@nb.njit(cache=True, inline="always")
def value_bidder_style(view, weights):
    """value-bidder's style (:mod:`.judgement.valuation`): neutral, its own spread, special and
    ogre."""
    spread = spread_now(view, weights[VB_SPREAD])
    return (spread, 1.0, 0.0, 1.0, 1.0, 1.0, weights[VB_SPECIAL], weights[VB_OGRE])


@policy
def value_bidder_policy(decision, view, choices, n_choices, weights, rng):
    """Values a clearing by its marginal score for it (open races first) and bids knowing the
    auction: the last bidder one above the high bid when that is worth it, an earlier seat just
    above what the seats after it are expected to bid, up to ``share`` of its value."""
    seat = view[V_SEAT]
    per_point = weights[VB_BID_PER_POINT]
    share = weights[VB_SHARE]
    style = value_bidder_style(view, weights)
    crest_below = weights[VB_CREST_BELOW]
    visit = weights[VB_VISIT]
    look = int(weights[VB_LOOK])
    return plain_play(
        decision, view, choices, n_choices, seat, style, per_point, share, crest_below, visit, look
    )


# --- majority-hunter ----------------------------------------------------------------------------

MH_FOCUS, MH_BOOST, MH_OTHERS, MH_FLOWERS, MH_BID_PER_POINT, MH_SHARE, MH_SPREAD, MH_CREST_BELOW = (
    range(8)
)


@nb.njit(cache=True)
def focus_animals(view, seat, k, spread):
    """Bitmask of the ``k`` animals (bit ``a`` = animal ``a``) whose majority is most worth
    chasing: points times the race share one more card would give."""
    mask = 0
    for _ in range(min(k, N_ANIMALS)):
        best = -1
        best_key = -1.0
        for a in range(N_ANIMALS):
            if (mask >> a) & 1:
                continue
            t = FIRST_ANIMAL + a
            mine = view[V_COLLECTED + seat * N_CARD_TYPES + t]
            key = view[V_MAJORITY + a] * standing(mine + 1, best_other(view, seat, t), spread)
            if key > best_key:
                best_key = key
                best = a
        mask |= 1 << best
    return mask


@policy
def majority_hunter_policy(decision, view, choices, n_choices, weights, rng):
    """Concentrates on the ``focus`` animal majorities most worth chasing (their race value
    ``boost`` times), other animals counting ``others`` times and flowers ``flowers`` times;
    bids as value-bidder."""
    seat = view[V_SEAT]
    per_point = weights[MH_BID_PER_POINT]
    share = weights[MH_SHARE]
    spread = spread_now(view, weights[MH_SPREAD])
    focus = focus_animals(view, seat, int(weights[MH_FOCUS]), spread)
    others = weights[MH_OTHERS]
    style = (
        spread,
        others,
        float(focus),
        weights[MH_BOOST],
        weights[MH_FLOWERS],
        1.0,
        SPECIAL_POINTS,
        OGRE_POINTS,
    )
    crest_below = weights[MH_CREST_BELOW]
    return plain_play(
        decision, view, choices, n_choices, seat, style, per_point, share, crest_below, VISIT, LOOK
    )


# --- flower-gardener ----------------------------------------------------------------------------

(
    FG_FLOWERS,
    FG_ANIMALS,
    FG_BID_PER_POINT,
    FG_SHARE,
    FG_SPREAD,
    FG_SPECIAL,
    FG_OGRE,
    FG_CREST_BELOW,
) = range(8)


@policy
def flower_gardener_policy(decision, view, choices, n_choices, weights, rng):
    """Grows flower colours and variety: flowers count ``flowers`` times their points, animals
    ``animals`` times; bids as value-bidder."""
    seat = view[V_SEAT]
    per_point = weights[FG_BID_PER_POINT]
    share = weights[FG_SHARE]
    spread = spread_now(view, weights[FG_SPREAD])
    animals = weights[FG_ANIMALS]
    style = (
        spread,
        animals,
        0.0,
        animals,
        weights[FG_FLOWERS],
        1.0,
        weights[FG_SPECIAL],
        weights[FG_OGRE],
    )
    crest_below = weights[FG_CREST_BELOW]
    return plain_play(
        decision, view, choices, n_choices, seat, style, per_point, share, crest_below, VISIT, LOOK
    )


# --- courtier -------------------------------------------------------------------------------------

CT_QUEEN, CT_DRUIDS, CT_ITEM, CT_HERALD, CT_CREST_PLAYED, CT_LOOK, CT_BID_PER_POINT, CT_SHARE = (
    range(8)
)
COURTIER_SPREAD = 2.5
"""The courtier's race spread at the start of a game (cards)."""
LOW_HAND = 3
"""Face value of a hand so low that the courtier takes its fairies back whatever it played."""


@policy
def courtier_policy(decision, view, choices, n_choices, weights, rng):
    """Seeks the Queen's audience and the Druids, keeps the Herald for them and uses items.

    A Queen's visit is worth the best item it may find
    (:func:`.judgement.valuation.best_court_prospect`) plus ``queen`` points, a Druid visit
    ``druids`` points, each less its fairies; an item without end-game points is worth ``item``
    points; paying an auction with the Herald costs ``herald`` face points more; the Crest is
    taken once ``crest_played`` face value is played (or the hand is nearly empty); visits look
    at ``look`` cards.
    """
    seat = view[V_SEAT]
    per_point = weights[CT_BID_PER_POINT]
    share = weights[CT_SHARE]
    spread = spread_now(view, COURTIER_SPREAD)
    style = (spread, 1.0, 0.0, 1.0, 1.0, 1.0, SPECIAL_POINTS, OGRE_POINTS)
    look = int(weights[CT_LOOK])
    if decision == DAY:
        court_look = min(look, view[V_COURT_LEFT])
        item = weights[CT_ITEM]
        queen = best_court_prospect(view, seat, court_look, style, per_point, item)
        queen = visit_net(view, seat, look, queen + HALF * weights[CT_QUEEN], per_point)
        druids = visit_net(view, seat, look, HALF * weights[CT_DRUIDS], per_point)
        played = played_face(view, seat)
        wanted = played >= weights[CT_CREST_PLAYED] or hand_face(view, seat) <= LOW_HAND
        rate = HALF / per_point if wanted else 0.0
        crest = rate * played if wanted else NEVER
        key = HALF * weights[CT_DRUIDS]
        worth = stack_float64(CLEARINGS)
        relief = stack_float64(CLEARINGS)
        return day_by_style(
            view,
            choices,
            n_choices,
            seat,
            style,
            per_point,
            (queen, druids),
            crest,
            key,
            rate,
            worth,
            relief,
            0,
        )
    herald = weights[CT_HERALD]
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
        herald,
        weights[CT_ITEM],
    )


# One table of the built-ins (fairysim.sim.dispatch): a built-in's place in it is its dispatch
# id. Random, greedy and value-bidder (:data:`CALLED_DIRECTLY`, the first ids) are called
# directly through ``call_builtin``, which LLVM can inline: the engine's own shortcuts answer for
# greedy and value-bidder (:mod:`.shortcuts`) and these answer the rest. The
# other built-ins, like user policies, go through their first-class function: each decision of
# theirs values clearings for microseconds, beside which an indirect call (no reference counting
# in ``engine.decide``) costs nothing, and the engine then compiles none of them: a run compiles
# only the judging policies its lineup seats (:class:`fairysim.sim.policy.PolicyDispatcher`).
_HEURISTICS = builtin_table(
    builtin(
        "random",
        random_policy,
        "uniform over the legal choices",
        reads_view=False,
    ),
    builtin(
        "greedy",
        greedy_policy,
        "takes the clearing worth most to it now and pays as little as it can",
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
    builtin(
        "value-bidder",
        value_bidder_policy,
        "values a clearing by its marginal score (open races first) and bids knowing who "
        "can pay what after it",
        bid_per_point=weight(2.0, 0.1, 10.0),
        share=weight(0.9, 0.0, 1.0),
        spread=weight(2.0, 0.0, 12.0),
        special=weight(2.0, 0.0, 10.0),
        ogre=weight(-4.0, -20.0, 0.0),
        crest_below=weight(4.0, 0.0, 40.0),
        visit=weight(2.5, 0.0, 20.0),
        look=weight(3.0, 1.0, 9.0, integer=True),
    ),
    builtin(
        "majority-hunter",
        majority_hunter_policy,
        "concentrates on the few animal majorities most worth chasing",
        focus=weight(3.0, 1.0, 7.0, integer=True),
        boost=weight(2.0, 1.0, 5.0),
        others=weight(0.3, 0.0, 1.0),
        flowers=weight(1.0, 0.0, 2.0),
        bid_per_point=weight(2.0, 0.1, 10.0),
        share=weight(0.9, 0.0, 1.0),
        spread=weight(2.0, 0.0, 12.0),
        crest_below=weight(4.0, 0.0, 40.0),
    ),
    builtin(
        "flower-gardener",
        flower_gardener_policy,
        "grows flower colours and variety",
        flowers=weight(2.0, 1.0, 5.0),
        animals=weight(0.5, 0.0, 1.0),
        bid_per_point=weight(2.0, 0.1, 10.0),
        share=weight(0.9, 0.0, 1.0),
        spread=weight(2.0, 0.0, 12.0),
        special=weight(2.0, 0.0, 10.0),
        ogre=weight(-4.0, -20.0, 0.0),
        crest_below=weight(4.0, 0.0, 40.0),
    ),
    builtin(
        "courtier",
        courtier_policy,
        "seeks the Queen and the Druids, keeps the Herald for them and uses its items",
        queen=weight(3.0, 0.0, 20.0),
        druids=weight(2.0, 0.0, 20.0),
        item=weight(3.0, 0.0, 20.0),
        herald=weight(3.0, 0.0, 10.0),
        crest_played=weight(14.0, 0.0, 40.0),
        look=weight(4.0, 1.0, 9.0, integer=True),
        bid_per_point=weight(1.5, 0.1, 10.0),
        share=weight(0.75, 0.0, 1.0),
    ),
)
POLICIES = builtin_table(*_HEURISTICS.values(), rollout_builtin(_HEURISTICS, "value-bidder"))
"""Built-in policies by name; a built-in's place here is its id in :func:`call_builtin`.
``rollout`` (:mod:`fairysim.sim.search`, searched by the engine, :mod:`.rollout`) is last: its
play-out policy is any built-in before it, value-bidder unless its ``default`` weight says."""

RANDOM, GREEDY, VALUE_BIDDER, MAJORITY_HUNTER, FLOWER_GARDENER, COURTIER = (
    POLICIES[name].builtin_id
    for name in (
        "random",
        "greedy",
        "value-bidder",
        "majority-hunter",
        "flower-gardener",
        "courtier",
    )
)

CALLED_DIRECTLY = ("random", "greedy", "value-bidder")
"""The built-ins ``call_builtin`` runs by id (the first of the table); the others are asked
through their function."""


@nb.njit(cache=True, inline="always")
def call_builtin(policy_id, decision, view, choices, n_choices, weights, rng):
    """Run the built-in of id ``policy_id`` among :data:`CALLED_DIRECTLY`;
    :data:`UNKNOWN_BUILTIN`, an illegal answer, for any other id."""
    if policy_id == GREEDY:
        return greedy_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == VALUE_BIDDER:
        return value_bidder_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == RANDOM:
        return random_policy(decision, view, choices, n_choices, weights, rng)
    return UNKNOWN_BUILTIN


ask_policy = seat_asker(call_builtin, direct=len(CALLED_DIRECTLY))
"""Ask a seat's policy: :data:`CALLED_DIRECTLY` through :func:`call_builtin`, the other
built-ins and user policies through their function (:func:`fairysim.sim.dispatch.seat_asker`)."""
