"""Greedy's answers read off the engine's table: the greedy shortcut (docs/architecture.md,
"Policy dispatch").

:func:`.policies.greedy_policy` is the definition, and the reference engine asks it. Its Dawn,
Day, bids and payments (over nine tenths of a greedy game's time) score the seat's whole
collection again for every clearing it weighs, about a thousand times a game, or list every
subset of the hand. The engine asks these four decisions of a greedy seat here instead, with the
same arithmetic on the same numbers, so the answers are the same:

- :func:`score_change` is ``seat_score(collected + counts) - seat_score(collected)`` computed
  from the cards that change alone (their animals' majorities, their flower colours and the
  variety, goblins, items), exactly, in half points;
- a gain is then the same float expression greedy evaluates (``cards_gain``), and the same
  comparisons in the same row order pick the same row;
- at Dawn, a clearing's gain with nothing, the first or the second card added is worked out
  once and read for every placement that leaves the clearing so;
- a payment is chosen while the subsets of the hand are enumerated, without writing them as
  rows (:func:`payment_answer`).

The engine's equivalence tests play greedy seats against the reference engine, and
tests/fairyland/test_greedy_shortcut.py compares these answers with ``greedy_policy``'s on
sampled decisions.
"""

from __future__ import annotations

import numba as nb

from fairysim.sim.fairyland.judgement.bidding import cheapest_payment
from fairysim.sim.fairyland.policies import (
    ALWAYS,
    NEVER,
    W_BID_PER_POINT,
    W_CREST_BELOW,
    W_OGRE,
    W_SPECIAL,
    W_VISIT,
)
from fairysim.sim.fairyland.rules import (
    ACT_CREST,
    ACT_DRUIDS,
    ACT_EXPLORE,
    ACT_QUEEN,
    C_ACTION,
    C_ARG,
    C_FIRST,
    C_SECOND,
    CLEARINGS,
    DRUIDS_KEY,
    FIRST_ANIMAL,
    FIRST_FLOWER,
    FIRST_FOREST_TYPE,
    FLOWER_POINTS_ARRAY,
    GOBLIN,
    GOBLIN_TIED_MOST,
    GOBLIN_TRAP,
    GOBLIN_UNIQUE_MOST,
    HALF,
    HORN_OF_RECALL,
    IT_AMOUNT,
    IT_PRIMITIVE,
    ITEM_FIELDS,
    MAX_COURT_ITEMS,
    MAX_FLOWERS_OF_A_COLOUR,
    N_ANIMALS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    N_FLOWERS,
    NET,
    NO_CARD,
    OGRE,
    TURTLE,
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
    VARIETY_POINTS_ARRAY,
    WARRIOR,
    WIND,
    items_halves,
    mask_value,
    turtle_bonus_halves,
)
from fairysim.sim.scratch import stack_int64

DAWN_STATES = 3
"""A clearing at Dawn gets nothing, the first card or the second card (never both, L3)."""


@nb.njit(cache=True, inline="always")
def others_best(v, n_seats, seat, card):
    """The most cards of type ``card`` any other seat holds, and how many other seats hold that
    many."""
    best = 0
    tied = 0
    for s in range(n_seats):
        if s != seat:
            c = v[V_COLLECTED + s * N_CARD_TYPES + card]
            if c > best:
                best = c
                tied = 1
            elif c == best:
                tied += 1
    return best, tied


@nb.njit(cache=True, inline="always")
def majority_of(mine, best, tied, points):
    """``rules.majority_halves`` of a seat holding ``mine`` against others' ``best`` held by
    ``tied`` of them."""
    if mine < best or max(mine, best) == 0:
        return 0
    holders = 1 if mine > best else tied + 1
    if holders == 1:
        return HALF * points
    if holders == 2:
        return points
    return 0


@nb.njit(cache=True, inline="always")
def goblins_of(mine, best):
    """``rules.goblin_halves`` of a seat holding ``mine`` goblins against others' ``best``."""
    if mine < best or mine == 0:
        return 0
    per_goblin = GOBLIN_UNIQUE_MOST if mine > best else GOBLIN_TIED_MOST
    return -HALF * per_goblin * mine


@nb.njit(cache=True)
def score_change(v, seat, counts):
    """How ``seat``'s score without applause (``rules.collection_halves``, half points) changes
    when the cards ``counts`` (by type; negative to take away) join its collection, exactly.

    Special fairies and ogres in ``counts`` are ignored (they never join a collection).
    ``v`` is the engine's view; its collected counts are changed and restored when the seat
    holds court items (their points are worked out afresh).
    """
    n_seats = v[V_PLAYERS]
    row = V_COLLECTED + seat * N_CARD_TYPES
    change = 0
    for a in range(N_ANIMALS):
        card = FIRST_ANIMAL + a
        d = counts[card]
        if d != 0:
            old = v[row + card]
            best, tied = others_best(v, n_seats, seat, card)
            points = v[V_MAJORITY + a]
            change += majority_of(old + d, best, tied, points)
            change -= majority_of(old, best, tied, points)
    if counts[TURTLE] != 0:
        change -= turtle_bonus_halves(v[V_COLLECTED:], seat)
        v[row + TURTLE] += counts[TURTLE]
        change += turtle_bonus_halves(v[V_COLLECTED:], seat)
        v[row + TURTLE] -= counts[TURTLE]
    colours_before = 0
    colours_after = 0
    flowers = 0
    for f in range(N_FLOWERS):
        card = FIRST_FLOWER + f
        old = v[row + card]
        new = old + counts[card]
        if old > 0:
            colours_before += 1
        if new > 0:
            colours_after += 1
        if new != old:
            flowers += FLOWER_POINTS_ARRAY[min(new, MAX_FLOWERS_OF_A_COLOUR)]
            flowers -= FLOWER_POINTS_ARRAY[min(old, MAX_FLOWERS_OF_A_COLOUR)]
    variety = VARIETY_POINTS_ARRAY[colours_after] - VARIETY_POINTS_ARRAY[colours_before]
    change += HALF * (flowers + variety)
    if counts[GOBLIN] != 0:
        old = v[row + GOBLIN]
        best, _ = others_best(v, n_seats, seat, GOBLIN)
        change += goblins_of(old + counts[GOBLIN], best) - goblins_of(old, best)
    held = v[V_ITEMS_HELD + seat]
    if held != 0:
        table = v[V_ITEM_TABLE : V_ITEM_TABLE + MAX_COURT_ITEMS * ITEM_FIELDS]
        collected = v[V_COLLECTED:]
        change -= items_halves(table, held, collected, seat)
        for card in range(FIRST_ANIMAL, N_CARD_TYPES):  # every type a collection holds
            if card != OGRE:
                v[row + card] += counts[card]
        change += items_halves(table, held, collected, seat)
        for card in range(FIRST_ANIMAL, N_CARD_TYPES):
            if card != OGRE:
                v[row + card] -= counts[card]
    return change


@nb.njit(cache=True)
def gain(v, seat, counts, weights):
    """Greedy's ``cards_gain``: what taking the cards ``counts`` is worth to ``seat`` now (the
    score change, the ``special`` weight per special fairy, the ``ogre`` weight per ogre unless
    the seat holds an ogre ward), the same float expression."""
    specials = 0
    for card in range(WARRIOR, WIND + 1):
        specials += counts[card]
    value = float(score_change(v, seat, counts)) + HALF * specials * weights[W_SPECIAL]
    if v[V_OGRE_WARD + seat] == 0:
        value += HALF * counts[OGRE] * weights[W_OGRE]
    return value


@nb.njit(cache=True, inline="always")
def clearing_gain(v, c, card, seat, weights):
    """Greedy's ``clearing_gain`` of clearing ``c`` with one more ``card`` (unless NO_CARD),
    read from the view's clearing itself (the card is added and taken back)."""
    at = V_CLEARING + c * N_CARD_TYPES
    if card != NO_CARD:
        v[at + card] += 1
    value = gain(v, seat, v[at : at + N_CARD_TYPES], weights)
    if card != NO_CARD:
        v[at + card] -= 1
    return value


@nb.njit(cache=True)
def dawn_answer(v, choices, n, seat, weights, gains):
    """Greedy's Dawn: the placement whose best clearing is worth most to the seat (first such
    row). ``gains`` (float64[CLEARINGS * DAWN_STATES]) is scratch."""
    first = v[V_DAWN_CARDS]
    second = v[V_DAWN_CARDS + 1]
    known = 0
    best = 0
    best_value = NEVER
    for i in range(n):
        value = NEVER
        for c in range(CLEARINGS):
            state = 0
            card = NO_CARD
            if choices[i, C_FIRST] == c:
                state = 1
                card = first
            elif choices[i, C_SECOND] == c and second != NO_CARD:
                state = 2
                card = second
            slot = c * DAWN_STATES + state
            if not (known >> slot) & 1:
                gains[slot] = clearing_gain(v, c, card, seat, weights)
                known |= 1 << slot
            value = max(value, gains[slot])
        if value > best_value:
            best_value = value
            best = i
    return best


@nb.njit(cache=True)
def bid_answer(v, c, seat, high, weights):
    """Greedy's bid on clearing ``c``: True to bid ``high + 1`` (the lowest bid), when it is at
    most ``bid_per_point`` per point the clearing is worth to the seat; False to pass."""
    willing = clearing_gain(v, c, NO_CARD, seat, weights) / HALF * weights[W_BID_PER_POINT]
    return high + 1 <= willing


@nb.njit(cache=True)
def day_answer(v, choices, n, seat, weights):
    """Greedy's Day (``policies.greedy_day``): the Crest or the Horn when the hand is low, else
    the most valuable of exploring, the Net, the Goblin Trap and a visit (first such row)."""
    counts = stack_int64(N_CARD_TYPES)
    hand_value = mask_value(v[V_HAND + seat], v[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES])
    low_hand = hand_value <= weights[W_CREST_BELOW]
    best = 0
    best_value = NEVER
    for i in range(n):
        action = choices[i, C_ACTION]
        value = NEVER
        if action == ACT_EXPLORE:
            value = clearing_gain(v, choices[i, C_ARG], NO_CARD, seat, weights)
        elif action == ACT_QUEEN or action == ACT_DRUIDS:  # noqa: SIM109 (numba)
            value = HALF * weights[W_VISIT]
        elif action == ACT_CREST:
            value = ALWAYS if low_hand else NEVER
        else:
            item = choices[i, C_ARG]
            primitive = v[V_ITEM_TABLE + item * ITEM_FIELDS + IT_PRIMITIVE]
            if primitive == NET:
                for c in range(CLEARINGS):
                    for t in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
                        if v[V_CLEARING + c * N_CARD_TYPES + t] > 0:
                            for k in range(N_CARD_TYPES):
                                counts[k] = 0
                            counts[t] = 1
                            value = max(value, gain(v, seat, counts, weights))
            elif primitive == GOBLIN_TRAP:
                amount = v[V_ITEM_TABLE + item * ITEM_FIELDS + IT_AMOUNT]
                held = v[V_COLLECTED + seat * N_CARD_TYPES + GOBLIN]
                for k in range(N_CARD_TYPES):
                    counts[k] = 0
                counts[GOBLIN] = -min(amount, held)
                value = float(score_change(v, seat, counts))
            elif primitive == HORN_OF_RECALL:
                value = ALWAYS - 1.0 if low_hand else NEVER
            elif primitive == DRUIDS_KEY:
                value = HALF * weights[W_VISIT]
        if value > best_value:
            best_value = value
            best = i
    return best


@nb.njit(cache=True)
def payment_answer(hand, values, face_value, bonus, bid):
    """Greedy's payment (``policies.cheapest_row``): of the subsets of ``hand`` whose value for
    this clearing (``values``) plus ``bonus`` reaches ``bid``, in ascending order, the first of
    least face value, then fewest cards. Returns ``(mask, value)`` without listing the rows."""
    return cheapest_payment(hand, values, face_value, bonus, bid, 0, 0.0, 0.0)
