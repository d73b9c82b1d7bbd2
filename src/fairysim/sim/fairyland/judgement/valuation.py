"""What cards, clearings, fairies and items are worth to a Fairy Land seat: the judgement the
judging built-in policies share (value-bidder, majority-hunter, flower-gardener, courtier; their
auctions in :mod:`.bidding`, their play in :mod:`.style_play`).

Everything here reads one seat's view (:data:`..rules.VIEW_FIELDS`) and nothing else, so a policy
built on it never sees hidden information (ruling PL2). Values are floats in half points, as
scores are (ruling L11).

Races
-----
An animal's majority is a race. A seat with ``m`` cards against a best rival with ``o`` expects
the share :func:`race_share` of the animal's points: a half at a tie (two tied share the points),
rising towards all of them as its lead grows. How fast it rises is the *spread*: a lead of one
spread gives 85% of the points. The spread shrinks with the forest deck, so at the end of the
game a race is decided as it stands. A card is worth what it changes the expected share, so a
race still open counts more than a safe lead or a lost race. Goblins are the same race run
backwards: the expected penalty is 2 points a goblin times the share of "most goblins". Flowers,
their variety, the three-turtle bonus and the seat's end-game items count exactly.

Styles
------
A *style* is a tuple of floats (``S_*`` below) saying how much each kind of card counts for a
policy: the race spread, multipliers for animals (with a bitmask of focused animals and their own
multiplier), flowers and goblins, and points for a special fairy and for an ogre. Rivals are
judged with :func:`neutral_style` (every multiplier 1).
"""

from __future__ import annotations

import math

import numba as nb
from numba.cpython.unsafe.numbers import trailing_zeros

from fairysim.sim.fairyland.rules import (
    BID_BONUS,
    CLEARINGS,
    FIRST_ANIMAL,
    FIRST_FLOWER,
    FIRST_FOREST_TYPE,
    FLAT_POINTS,
    FLOWER_POINTS_ARRAY,
    GOBLIN,
    GOBLIN_UNIQUE_MOST,
    HALF,
    IT_AMOUNT,
    IT_AT_LEAST,
    IT_CARDS,
    IT_PRIMITIVE,
    ITEM_FIELDS,
    ITEM_UNSEEN,
    LOST_HALF,
    MAX_COURT_ITEMS,
    MAX_FLOWERS_OF_A_COLOUR,
    N_ANIMALS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    N_FLOWERS,
    NO_PRIMITIVE,
    OGRE,
    OGRE_VICTIMS,
    OGRE_WARD,
    PENDANT_PAIR,
    POINTS_PER_CARD_TYPE,
    TURTLE,
    TURTLE_BONUS,
    TURTLE_BONUS_COUNT,
    V_CLEARING,
    V_COLLECTED,
    V_FACE_VALUE,
    V_FOREST_LEFT,
    V_HAND,
    V_ITEM_STATE,
    V_ITEM_TABLE,
    V_ITEMS_HELD,
    V_MAJORITY,
    V_OGRE_WARD,
    V_PLAYED,
    V_PLAYERS,
    V_TURN,
    VARIETY_POINTS_ARRAY,
    WARRIOR,
    WIND,
    mask_value,
)

FOREST_TYPES = ((1 << N_CARD_TYPES) - 1) & ~((1 << FIRST_FOREST_TYPE) - 1)
"""Bitmask of the forest card types: the bits of an item's ``IT_CARDS`` mask that count."""
ANIMAL_TYPES = ((1 << N_ANIMALS) - 1) << FIRST_ANIMAL
FLOWER_TYPES = ((1 << N_FLOWERS) - 1) << FIRST_FLOWER
SPECIAL_TYPES = ((1 << (WIND + 1)) - 1) & ~((1 << WARRIOR) - 1)
"""Bitmasks of the animal, flower and special fairy types."""

NEVER = -1.0e9
"""The value of a choice never to take."""

# --- Styles ------------------------------------------------------------------------------------

N_STYLE = 8
S_SPREAD, S_ANIMAL, S_FOCUS_MASK, S_FOCUS, S_FLOWER, S_GOBLIN, S_SPECIAL, S_OGRE = range(N_STYLE)
"""Fields of a style: the race spread now (cards); the multiplier of animals; the bitmask of
focused animals (bit ``a`` = animal ``FIRST_ANIMAL + a``) and their multiplier; the multipliers
of flowers and goblins; points for a special fairy and for an ogre (negative)."""

SPECIAL_POINTS = 2.0
"""Points a special fairy is worth to a policy that has no weight for it."""
OGRE_POINTS = -4.0
"""Points an ogre is worth (two animals or flowers lost) to a policy with no weight for it."""
LOST_HALF_HOPE = 0.25
"""Share of the pendant's points the Lost Half is worth while the Retained Half is unseen."""
FUTURE_CARDS = 2.0
"""Cards of its kinds an end-game item's holder expects to add over a whole game to come."""
AUCTIONS_PER_TURN = 0.5
"""Auctions a seat expects to win per turn of its own (what a bid bonus is used in)."""
FIXED = 1024.0
"""Fixed-point scale of values kept in int64 scratch arrays."""


@nb.njit(cache=True, inline="always")
def neutral_style(spread):
    """How a policy judges a rival: every kind of card at face (its spread ``spread``)."""
    return (spread, 1.0, 0.0, 1.0, 1.0, 1.0, SPECIAL_POINTS, OGRE_POINTS)


@nb.njit(cache=True, inline="always")
def game_left(view):
    """Share of the forest deck still to come, 1 at the first turn and 0 at the last."""
    left = view[V_FOREST_LEFT]
    drawn = 2 * view[V_TURN]
    if left + drawn == 0:
        return 0.0
    return left / (left + drawn)


@nb.njit(cache=True, inline="always")
def spread_now(view, spread):
    """The race spread now: ``spread`` cards at the start, shrinking with the forest deck."""
    return spread * game_left(view)


# --- Races ------------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def race_share(lead, spread):
    """Expected share of a race's prize for a lead of ``lead`` cards (a half at a tie); with
    ``spread`` 0 the race is decided as it stands."""
    if spread <= 0.0:
        if lead > 0:
            return 1.0
        return 0.5 if lead == 0 else 0.0
    return 0.5 + 0.5 * lead / math.sqrt(lead * lead + spread * spread)


@nb.njit(cache=True, inline="always")
def standing(mine, best_other, spread):
    """``race_share`` of ``mine`` cards against ``best_other``; nothing without a card."""
    if mine <= 0:
        return 0.0
    return race_share(float(mine - best_other), spread)


@nb.njit(cache=True, inline="always")
def count(view, seat, t):
    """Cards of type ``t`` in front of ``seat``."""
    return view[V_COLLECTED + seat * N_CARD_TYPES + t]


@nb.njit(cache=True, inline="always")
def best_other(view, seat, t):
    """The most cards of type ``t`` any other seat holds."""
    best = 0
    for s in range(view[V_PLAYERS]):
        if s != seat:
            best = max(best, count(view, s, t))
    return best


# --- Cards -------------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def held_items_gain(view, seat, counts):
    """Whole points ``seat``'s end-game items gain from the cards ``counts``, plus the hope the
    Lost Half carries while the Retained Half is unseen (L13)."""
    held = view[V_ITEMS_HELD + seat]
    gain = 0.0
    item = 0
    while held:
        if held & 1:
            at = V_ITEM_TABLE + item * ITEM_FIELDS
            primitive = view[at + IT_PRIMITIVE]
            amount = view[at + IT_AMOUNT]
            if primitive == POINTS_PER_CARD_TYPE:
                at_least = view[at + IT_AT_LEAST]
                cards = view[at + IT_CARDS] & FOREST_TYPES  # ascending types, as a loop would
                while cards:
                    t = trailing_zeros(cards)
                    cards &= cards - 1
                    if counts[t] != 0:
                        if at_least == 0:
                            gain += amount * counts[t]
                        else:
                            before = count(view, seat, t) >= at_least
                            after = count(view, seat, t) + counts[t] >= at_least
                            gain += amount * (int(after) - int(before))
            elif (
                primitive == PENDANT_PAIR
                and counts[LOST_HALF] > 0
                and count(view, seat, LOST_HALF) == 0
            ):
                gain += amount
        held >>= 1
        item += 1
    if counts[LOST_HALF] > 0 and count(view, seat, LOST_HALF) == 0:
        for i in range(MAX_COURT_ITEMS):
            at = V_ITEM_TABLE + i * ITEM_FIELDS
            if view[at + IT_PRIMITIVE] == PENDANT_PAIR and view[V_ITEM_STATE + i] == ITEM_UNSEEN:
                gain += LOST_HALF_HOPE * view[at + IT_AMOUNT]
    return gain


@nb.njit(cache=True, inline="always")
def flowers_gain(view, seat, counts):
    """Exact change of ``seat``'s flower and variety points (whole points) from ``counts``."""
    gain = 0
    colours_before = 0
    colours_after = 0
    for f in range(N_FLOWERS):  # whole points: the sums need no order, and no branches
        t = FIRST_FLOWER + f
        before = count(view, seat, t)
        after = before + counts[t]
        colours_before += before > 0
        colours_after += after > 0
        gain += FLOWER_POINTS_ARRAY[min(after, MAX_FLOWERS_OF_A_COLOUR)]
        gain -= FLOWER_POINTS_ARRAY[min(before, MAX_FLOWERS_OF_A_COLOUR)]
    return gain + VARIETY_POINTS_ARRAY[colours_after] - VARIETY_POINTS_ARRAY[colours_before]


@nb.njit(cache=True, inline="always")
def victims_at_hand(view, seat, counts):
    """Animals and flowers an ogre could take from ``seat`` once ``counts`` is added (at most
    2, L6)."""
    held = 0
    for t in range(FIRST_ANIMAL, FIRST_FLOWER + N_FLOWERS):
        held += count(view, seat, t) + counts[t]
        if held >= OGRE_VICTIMS:
            return OGRE_VICTIMS
    return held


@nb.njit(cache=True)
def cards_value(view, seat, counts, style):
    """What the cards ``counts`` (by type; negative counts take cards away) are worth to
    ``seat``, in half points, judged by ``style`` (module docstring).

    The terms are summed in a fixed order (animals, flowers, goblins, special fairies, ogres,
    items; ascending type within each), walking only the types ``counts`` holds (a clearing
    holds a few of the 21 forest types): the same floats as a loop over every type."""
    spread = style[S_SPREAD]
    focus = int(style[S_FOCUS_MASK])
    held = 0  # bit t: counts[t] != 0
    for t in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
        held |= int(counts[t] != 0) << t
    value = 0.0
    animals = held & ANIMAL_TYPES
    while animals:
        t = trailing_zeros(animals)
        animals &= animals - 1
        a = t - FIRST_ANIMAL
        k = counts[t]
        m = count(view, seat, t)
        o = best_other(view, seat, t)
        race = HALF * view[V_MAJORITY + a] * (standing(m + k, o, spread) - standing(m, o, spread))
        value += (style[S_FOCUS] if (focus >> a) & 1 else style[S_ANIMAL]) * race
        if t == TURTLE:
            bonus = int(m + k == TURTLE_BONUS_COUNT) - int(m == TURTLE_BONUS_COUNT)
            value += style[S_ANIMAL] * HALF * TURTLE_BONUS * bonus
    if held & FLOWER_TYPES:
        value += style[S_FLOWER] * HALF * flowers_gain(view, seat, counts)
    if (held >> GOBLIN) & 1:
        k = counts[GOBLIN]
        g = count(view, seat, GOBLIN)
        o = best_other(view, seat, GOBLIN)
        expected = (g + k) * standing(g + k, o, spread) - g * standing(g, o, spread)
        value -= style[S_GOBLIN] * HALF * GOBLIN_UNIQUE_MOST * expected
    specials = held & SPECIAL_TYPES
    while specials:
        t = trailing_zeros(specials)
        specials &= specials - 1
        value += HALF * style[S_SPECIAL] * counts[t]
    if counts[OGRE] > 0 and view[V_OGRE_WARD + seat] == 0:
        share = victims_at_hand(view, seat, counts) / OGRE_VICTIMS
        value += HALF * style[S_OGRE] * counts[OGRE] * share
    if counts[LOST_HALF] != 0 or view[V_ITEMS_HELD + seat] != 0:
        value += HALF * held_items_gain(view, seat, counts)
    return value


@nb.njit(cache=True, inline="always")
def clear_counts(counts):
    """Zero a counts-by-type scratch array."""
    for t in range(N_CARD_TYPES):
        counts[t] = 0


@nb.njit(cache=True, inline="always")
def copy_clearing(view, c, counts):
    """Copy clearing ``c``'s counts by type into ``counts``."""
    for t in range(N_CARD_TYPES):
        counts[t] = view[V_CLEARING + c * N_CARD_TYPES + t]


@nb.njit(cache=True)
def warrior_relief(view, seat, counts, style):
    """What chasing the goblins and ogres of the clearing ``counts`` away is worth to ``seat``
    (a Warrior in the payment does it, L5), in half points, 0 or more."""
    if counts[GOBLIN] + counts[OGRE] == 0:
        return 0.0
    return relief_over(view, seat, counts, style, cards_value(view, seat, counts, style))


@nb.njit(cache=True)
def relief_over(view, seat, counts, style, with_evil):
    """:func:`warrior_relief` given ``with_evil``, what ``counts`` is worth with its goblins
    and ogres (:func:`cards_value`): one valuation, not two."""
    goblins = counts[GOBLIN]
    ogres = counts[OGRE]
    if goblins + ogres == 0:
        return 0.0
    counts[GOBLIN] = 0
    counts[OGRE] = 0
    without = cards_value(view, seat, counts, style)
    counts[GOBLIN] = goblins
    counts[OGRE] = ogres
    return max(0.0, without - with_evil)


@nb.njit(cache=True)
def taken_parts(view, seat, counts, style):
    """:func:`taken_value` and the Warrior's relief in it (0.0 without a Warrior in hand)."""
    value = cards_value(view, seat, counts, style)
    relief = 0.0
    if (view[V_HAND + seat] >> WARRIOR) & 1:
        relief = relief_over(view, seat, counts, style, value)
        value += relief
    return value, relief


@nb.njit(cache=True)
def taken_value(view, seat, counts, style):
    """What taking the clearing ``counts`` is worth to ``seat``; with a Warrior in hand it pays
    with her (face 1) when chasing the goblins and ogres away is worth it (L5)."""
    return taken_parts(view, seat, counts, style)[0]


@nb.njit(cache=True)
def one_card_value(view, seat, card, counts, style):
    """What one card of type ``card`` is worth to ``seat`` (``counts`` is scratch)."""
    clear_counts(counts)
    counts[card] = 1
    return cards_value(view, seat, counts, style)


# --- Fairies ----------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def face_cost(view, mask):
    """The face value of the fairies in ``mask``: what they would be worth later (applause,
    other bids)."""
    return mask_value(mask, view[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES])


@nb.njit(cache=True)
def played_face(view, seat):
    """Face value of ``seat``'s played fairies (what a Crest brings back)."""
    return face_cost(view, view[V_PLAYED + seat])


@nb.njit(cache=True)
def hand_face(view, seat):
    """Face value of ``seat``'s hand (its applause and its purse)."""
    return face_cost(view, view[V_HAND + seat])


# --- Items (L13) -------------------------------------------------------------------------------


@nb.njit(cache=True)
def item_value(view, seat, item, style, per_point, other_points):
    """What court item ``item`` is worth to ``seat``, in half points.

    End-game items: their points now, plus ``FUTURE_CARDS`` more cards of their kinds over a
    whole game to come (scaled by the game left); the Retained Half its points with the Lost
    Half held, ``LOST_HALF_HOPE`` of them (scaled by the game left) while nobody holds the Lost
    Half. A bid bonus: its fairy points in ``AUCTIONS_PER_TURN`` of the seat's turns to come, at
    ``per_point`` fairy points a point. Ogre Bane: an ogre's cost (``style``) scaled by the game
    left. Any other item: ``other_points``.
    """
    at = V_ITEM_TABLE + item * ITEM_FIELDS
    primitive = view[at + IT_PRIMITIVE]
    amount = view[at + IT_AMOUNT]
    left = game_left(view)
    if primitive == FLAT_POINTS:
        return HALF * amount
    if primitive == POINTS_PER_CARD_TYPE:
        cards = view[at + IT_CARDS]
        at_least = view[at + IT_AT_LEAST]
        points = 0
        for t in range(N_CARD_TYPES):
            if (cards >> t) & 1:
                if at_least == 0:
                    points += count(view, seat, t)
                elif count(view, seat, t) >= at_least:
                    points += 1
        return HALF * amount * (points + FUTURE_CARDS * left)
    if primitive == PENDANT_PAIR:
        if count(view, seat, LOST_HALF) > 0:
            return HALF * amount
        for s in range(view[V_PLAYERS]):
            if count(view, s, LOST_HALF) > 0:
                return 0.0
        return HALF * amount * LOST_HALF_HOPE * left
    if primitive == BID_BONUS:
        turns = view[V_FOREST_LEFT] / (2.0 * view[V_PLAYERS])
        return HALF * amount * AUCTIONS_PER_TURN * turns / per_point
    if primitive == OGRE_WARD:
        return HALF * -style[S_OGRE] * left
    return HALF * other_points


@nb.njit(cache=True)
def best_court_prospect(view, seat, look, style, per_point, other_points):
    """The best value among the unseen items, when ``look`` cards or more are seen (a
    seat cannot tell which unseen items are in the court deck, so it hopes for the best of
    them only when it looks at many; else their mean)."""
    total = 0.0
    best = 0.0
    unseen = 0
    for i in range(MAX_COURT_ITEMS):
        if view[V_ITEM_TABLE + i * ITEM_FIELDS + IT_PRIMITIVE] == NO_PRIMITIVE:
            continue
        if view[V_ITEM_STATE + i] != ITEM_UNSEEN:
            continue
        value = item_value(view, seat, i, style, per_point, other_points)
        total += value
        best = max(best, value)
        unseen += 1
    if unseen == 0:
        return 0.0
    mean = total / unseen
    reach = min(1.0, max(0.0, (look - 1.0) / max(1.0, unseen - 1.0)))
    return mean + (best - mean) * math.sqrt(reach)


# --- Clearings ---------------------------------------------------------------------------------


@nb.njit(cache=True)
def best_rival_clearing_value(view, seat, counts, spread):
    """The most the clearing ``counts`` is worth to any rival of ``seat`` (neutral style)."""
    style = neutral_style(spread)
    best = NEVER
    for s in range(view[V_PLAYERS]):
        if s != seat:
            best = max(best, taken_value(view, s, counts, style))
    return best


@nb.njit(cache=True)
def best_card_in_clearings(view, seat, counts, style):
    """The most one card of a clearing is worth to ``seat`` (what a Fairy Net takes)."""
    best = NEVER
    for c in range(CLEARINGS):
        for t in range(N_CARD_TYPES):
            if view[V_CLEARING + c * N_CARD_TYPES + t] > 0:
                best = max(best, one_card_value(view, seat, t, counts, style))
    return best
