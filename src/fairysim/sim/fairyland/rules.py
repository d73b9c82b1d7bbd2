"""Fairy Land rules: card types, the decision contract, the policy's view, and pure scoring.

This module is longer than most (about 700 lines) because it is the one place that fixes the
game's shape for both engines and every policy: card type numbers, decision ids, the layout of
every decision's choice rows and of the view, and the scoring functions. Card *facts* (how many
of each card, the animals' majority points, the house fairies' values) live in
``data/cards.toml``; the Queen's Court items in ``data/court.toml`` (rulings L1, L13).

Card types
----------
Every card is a *type* (a small int). Fairies come first so that a hand, which never holds two
cards of one type, is one bitmask whose bit ``t`` is card type ``t``: the 7 house fairies
(``FAIRY_1`` .. ``FAIRY_7``, a seat's own; two seats' "3" are the same type in their own hands),
then the 6 special fairies; then the animals, the five flower colours (red is the rulebook's
unnamed fifth colour, ruling L1), goblin, ogre and the Lost Half of the Royal Pendant. Per-type
counts (a clearing, a seat's collected cards) are ``int64[N_CARD_TYPES]`` arrays.

Decisions and choices
---------------------
The engine offers every decision to the deciding seat's policy as::

    choice = policy(decision, view, choices, n_choices, weights, rng)

``choices[:n_choices]`` holds the legal choices, one row of ``CHOICE_WIDTH`` small ints each
(columns named ``C_*`` below, unused columns 0), in the order listed for each decision; the
answer is a row index. Each decision's rows are the distinct choices of RULINGS "Random
policy", so the built-in ``random`` policy is one ``randint(rng, n_choices)`` per offered
decision. A decision with a single legal choice is not offered and draws no random number
(ruling PL1). ``MAX_CHOICES`` rows cover the largest decision (every subset of a 13-card hand), so
an engine preallocates one ``int64[MAX_CHOICES, CHOICE_WIDTH]`` array per thread.

========================  ===================================================================
decision                  rows (in this order)
========================  ===================================================================
``DAWN``                  ``(C_FIRST, C_SECOND)``: the clearing of the first and of the second
                          card drawn (L3), first clearing ascending, then second;
                          ``C_SECOND = NO_CLEARING`` when only one card was drawn.
``DAY``                   ``(C_ACTION, C_ARG)``: ``ACT_EXPLORE`` with clearing 0, 1, 2;
                          ``ACT_QUEEN``; ``ACT_DRUIDS``; ``ACT_CREST``; ``ACT_ITEM`` with the
                          item id, ascending (L4, L16). ``C_ARG = NO_ARG`` where none.
``QUEEN_FAIRIES``         ``(C_MASK, C_VALUE, C_LOOK)``: every non-empty subset of the hand
``DRUID_FAIRIES``         (bitmask, ascending), the value it plays for the Queen or the Druids
                          (Herald 5, L5) and the cards it lets the seat look at
                          (``min(value + visit bonus - 1, deck)``, L7, L18).
``BID``                   ``(C_BID,)``: ``PASS`` (0), then every bid from the high bid + 1 up
                          to what the seat can pay, ascending (L5, L14).
``PAYMENT``               ``(C_MASK, C_VALUE)``: every subset of the hand (ascending) whose
                          value for this clearing plus the bid bonus reaches the bid (the empty
                          subset when the bonus alone does, L14); ``C_VALUE`` is the subset's
                          value for this clearing, bonus not included.
``QUEEN_PICK``            ``(C_ITEM,)``: each item seen, ascending id (L7).
``DRUID_PICK``            ``(C_CARD,)``: each distinct card type seen, ascending (L7).
``OGRE_VICTIMS``          ``(C_CARD, C_CARD_2)``: each distinct pair of animal/flower types the
                          seat holds, ``C_CARD <= C_CARD_2``, ascending (L6).
``NET_TAKE``              ``(C_CLEARING, C_CARD_NET)``: each card type of each non-empty clearing,
                          clearing then type ascending (L13 Fairy Net).
``BROOM_SWEEP``           ``(C_CLEARING,)``: each non-empty clearing, ascending.
``HORN_RECALL``           ``(C_MASK,)``: each non-empty subset of the seat's played fairies of
                          at most the item's amount (3) cards, ascending.
========================  ===================================================================

The view
--------
``view`` is an ``int64[VIEW_SIZE]`` array laid out by :data:`VIEW_FIELDS` (offsets ``V_*``).
Everything in it is public (ruling PL2): a hand is hidden, but every seat's hand is deducible
from public information (house fairies 1-7, special fairies shown when gained, played fairies
face up), so the view shows every seat's hand. Hidden and not in the view: the order and content
of the forest, Druid and court decks (only their sizes), which items are in the court deck, the
cards of the box. Only ``V_SEAT`` and the decision context (``V_DAWN_CARDS``, ``V_AUCTION_*``)
change between the seats' views, so an engine may keep one view as its public state.

Scoring
-------
Scores are in half points (ruling L11: a two-way animal tie shares the points exactly); items
score whole points, doubled. The jitted scoring functions take small int arrays and are callable
from Python.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from fairysim.sim.fairyland.facts import MAX_PLAYERS as MAX_PLAYERS
from fairysim.sim.fairyland.facts import MIN_PLAYERS as MIN_PLAYERS
from fairysim.sim.fairyland.facts import PART_NAMES as PART_NAMES
from fairysim.sim.view import view_offsets

# --- Card types (rulings L1, L8) -----------------------------------------------------------------

N_HOUSE_FAIRIES = 7
FAIRY_1, FAIRY_2, FAIRY_3, FAIRY_4, FAIRY_5, FAIRY_6, FAIRY_7 = range(N_HOUSE_FAIRIES)
HOUSE_FAIRIES = tuple(range(N_HOUSE_FAIRIES))
"""Each seat's house fairies 1 to 7 (their values come from the card file)."""

WARRIOR, EXPLORER, FAUNA, FLORA, HERALD, WIND = range(N_HOUSE_FAIRIES, N_HOUSE_FAIRIES + 6)
SPECIAL_FAIRIES = (WARRIOR, EXPLORER, FAUNA, FLORA, HERALD, WIND)
N_FAIRY_TYPES = WIND + 1
"""House and special fairies: the types a hand can hold."""
MAX_HAND = N_FAIRY_TYPES
"""A hand holds each fairy type at most once: a hand is a bitmask of ``MAX_HAND`` bits."""

SQUIRREL, FOX, RACOON, DEER, BEAR, UNICORN, TURTLE = range(N_FAIRY_TYPES, N_FAIRY_TYPES + 7)
ANIMALS = (SQUIRREL, FOX, RACOON, DEER, BEAR, UNICORN, TURTLE)
N_ANIMALS = len(ANIMALS)
FIRST_ANIMAL = SQUIRREL

YELLOW, WHITE, VIOLET, PINK, RED = range(TURTLE + 1, TURTLE + 6)
FLOWERS = (YELLOW, WHITE, VIOLET, PINK, RED)
"""Flower colours; red stands for the fifth colour the rulebook does not name (L1)."""
N_FLOWERS = len(FLOWERS)
FIRST_FLOWER = YELLOW

GOBLIN = RED + 1
OGRE = GOBLIN + 1
LOST_HALF = OGRE + 1
"""The Lost Half of the Royal Pendant (a forest card, ruling L15)."""
N_CARD_TYPES = LOST_HALF + 1

FIRST_FOREST_TYPE = WARRIOR
"""Forest cards are the types ``FIRST_FOREST_TYPE .. N_CARD_TYPES - 1`` (L1)."""
NO_CARD = -1

CARD_NAMES = (
    *(f"fairy_{v + 1}" for v in HOUSE_FAIRIES),
    "warrior",
    "explorer",
    "fauna",
    "flora",
    "herald",
    "wind",
    "squirrel",
    "fox",
    "racoon",
    "deer",
    "bear",
    "unicorn",
    "turtle",
    "yellow",
    "white",
    "violet",
    "pink",
    "red",
    "goblin",
    "ogre",
    "lost_half",
)
"""Names of the card types, in type order (the names card and court files use)."""
CARD_GROUPS = {
    "animal": ANIMALS,
    "flower": FLOWERS,
    "special_fairy": SPECIAL_FAIRIES,
    "evil": (GOBLIN, OGRE),
}
"""Names a court file may use for a group of card types."""

ANIMAL_MASK = sum(1 << t for t in ANIMALS)
FLOWER_MASK = sum(1 << t for t in FLOWERS)
SPECIAL_MASK = sum(1 << t for t in SPECIAL_FAIRIES)
HOUSE_MASK = (1 << N_HOUSE_FAIRIES) - 1
"""Card-type bitmasks (bit ``t`` = type ``t``)."""


def card_type(name: str) -> int:
    """Type number of card ``name`` (``"squirrel"``, ``"fairy_3"``, ...), or ``ValueError``."""
    key = str(name).strip().lower().replace(" ", "_").replace("-", "_")
    if key in CARD_NAMES:
        return CARD_NAMES.index(key)
    raise ValueError(f"unknown card {name!r}; cards are {', '.join(CARD_NAMES)}")


@nb.njit(cache=True, inline="always")
def is_animal(t):
    """True for the seven animal types."""
    return FIRST_ANIMAL <= t < FIRST_ANIMAL + N_ANIMALS


@nb.njit(cache=True, inline="always")
def is_flower(t):
    """True for the five flower colours."""
    return FIRST_FLOWER <= t < FIRST_FLOWER + N_FLOWERS


@nb.njit(cache=True, inline="always")
def is_evil(t):
    """Goblins and ogres are the "evil creatures" of Dawn (L3)."""
    return GOBLIN <= t <= OGRE


@nb.njit(cache=True, inline="always")
def is_special(t):
    """The six special fairies (forest cards that go to the hand)."""
    return WARRIOR <= t <= WIND


# --- Table and turn (rulings L2, L3, L9, L10) ----------------------------------------------------

MAX_SEATS = 4
"""Rows of every per-seat array."""
CLEARINGS = 3
NO_CLEARING = -1
DAWN_DRAW = 2
"""Forest cards drawn at Dawn (1 if only 1 is left, L3)."""
DRUID_DECK_SIZE = 9
COURT_DECK_SIZE = 9
"""Items in a game's Queen's Court deck (L2)."""
OVERCROWDED = 6
"""Sunset discards every clearing holding this many cards or more (L9)."""
CRESTS = 1
CRESTS_TWO_PLAYERS = 2
"""Fairy Crests per seat (L2; the card file may change them)."""
MIN_FOREST = DRUID_DECK_SIZE + CLEARINGS + 1
"""A forest deck must leave at least one card for the first Dawn."""
MAX_FOREST = 255
"""Forest cards a card file may hold (the engines' deck arrays and shuffle, rng.py)."""

# --- Fairy values (rulings L5, L15) ---------------------------------------------------------------

SPECIAL_FACE_VALUE = 1
"""A special fairy's value outside its context, and for the King's applause (L11)."""
FAUNA_VALUE = 3
FAUNA_NEEDS = 2
"""Fairy of the Fauna: 3 when exploring a clearing with at least 2 animals."""
FLORA_VALUE = 4
FLORA_NEEDS = 2
"""Fairy of the Flora: 4 when exploring a clearing with at least 2 flowers."""
HERALD_VALUE = 5
"""Herald Fairy: 5 for the Queen or the Druids."""
WIND_HAND_LIMIT = 3
"""Fairy of the Wind returns when the hand then holds this many cards or fewer (L15, L18)."""
OGRE_VICTIMS = 2
"""Animals/flowers an ogre makes its taker discard (L6)."""

# --- Scoring (ruling L11), points; scores are stored in half points -----------------------------

HALF = 2
"""Half points per point."""
TURTLE_BONUS_COUNT = 3
TURTLE_BONUS = 3
"""Exactly 3 turtles: +3 points, independent of the turtle majority (L11)."""
FLOWER_POINTS = (0, 0, 2, 5, 10, 15)
"""Points for one colour by the number of its flowers held (at most 5 of a colour)."""
MAX_FLOWERS_OF_A_COLOUR = len(FLOWER_POINTS) - 1
VARIETY_POINTS = (-5, 1, 3, 6, 10, 15)
"""Points by the number of different flower colours held."""
GOBLIN_UNIQUE_MOST = 2
GOBLIN_TIED_MOST = 1
"""Points lost per goblin by the unique most / each tied most (none if the most is 0)."""
APPLAUSE_POINTS = (3, 2, 1, 0)
"""Applause by the number of seats tied at the highest hand value (1, 2, 3, 4)."""

FLOWER_POINTS_ARRAY = np.array(FLOWER_POINTS, dtype=np.int64)
VARIETY_POINTS_ARRAY = np.array(VARIETY_POINTS, dtype=np.int64)
APPLAUSE_POINTS_ARRAY = np.array(APPLAUSE_POINTS, dtype=np.int64)

N_PARTS = len(PART_NAMES)
assert PART_NAMES[:N_ANIMALS] == CARD_NAMES[FIRST_ANIMAL : FIRST_ANIMAL + N_ANIMALS]
P_TURTLE_BONUS = N_ANIMALS
P_FLOWERS, P_VARIETY, P_GOBLINS, P_ITEMS, P_APPLAUSE = range(N_ANIMALS + 1, N_PARTS)

# --- Queen's Court items (rulings L13, L16) -------------------------------------------------------

PRIMITIVES = (
    "bid_bonus",
    "visit_bonus",
    "points_per_card_type",
    "flat_points",
    "pendant_pair",
    "ogre_ward",
    "net",
    "broom",
    "goblin_trap",
    "horn_of_recall",
    "druids_key",
)
"""Effect primitives of court items (documented in docs/fairyland-court.md)."""
(
    BID_BONUS,
    VISIT_BONUS,
    POINTS_PER_CARD_TYPE,
    FLAT_POINTS,
    PENDANT_PAIR,
    OGRE_WARD,
    NET,
    BROOM,
    GOBLIN_TRAP,
    HORN_OF_RECALL,
    DRUIDS_KEY,
) = range(len(PRIMITIVES))
NO_PRIMITIVE = -1
PERMANENT_PRIMITIVES = (BID_BONUS, VISIT_BONUS, OGRE_WARD)
END_GAME_PRIMITIVES = (POINTS_PER_CARD_TYPE, FLAT_POINTS, PENDANT_PAIR)
USABLE_PRIMITIVES = (NET, BROOM, GOBLIN_TRAP, HORN_OF_RECALL, DRUIDS_KEY)

ITEM_FIELDS = 4
IT_PRIMITIVE, IT_AMOUNT, IT_CARDS, IT_AT_LEAST = range(ITEM_FIELDS)
"""Columns of an item table row: primitive; its amount (bonus, points, goblins or fairies);
for points_per_card_type the card-type bitmask counted and ``at_least`` (0: points per card;
``n >= 1``: points per type of the mask held ``n`` times or more)."""
MAX_COURT_ITEMS = 32
"""Items a court file may hold (item sets are int64 bitmasks)."""

# --- Decisions ------------------------------------------------------------------------------------

DECISIONS = (
    "dawn",
    "day",
    "queen_fairies",
    "druid_fairies",
    "bid",
    "payment",
    "queen_pick",
    "druid_pick",
    "ogre_victims",
    "net_take",
    "broom_sweep",
    "horn_recall",
)
(
    DAWN,
    DAY,
    QUEEN_FAIRIES,
    DRUID_FAIRIES,
    BID,
    PAYMENT,
    QUEEN_PICK,
    DRUID_PICK,
    OGRE_VICTIMS,
    NET_TAKE,
    BROOM_SWEEP,
    HORN_RECALL,
) = range(len(DECISIONS))
N_DECISIONS = len(DECISIONS)

CHOICE_WIDTH = 3
MAX_CHOICES = 1 << MAX_HAND
"""Every subset of a full hand: the largest decision (a payment the bonus alone covers)."""

# Column names; each decision uses the ones its table row in the module docstring lists.
C_FIRST, C_SECOND = 0, 1  # DAWN
C_ACTION, C_ARG = 0, 1  # DAY
C_MASK, C_VALUE, C_LOOK = 0, 1, 2  # QUEEN_FAIRIES, DRUID_FAIRIES, PAYMENT, HORN_RECALL
C_BID = 0  # BID
C_ITEM = 0  # QUEEN_PICK
C_CARD, C_CARD_2 = 0, 1  # DRUID_PICK, OGRE_VICTIMS
C_CLEARING = 0  # NET_TAKE (with C_CARD_NET), BROOM_SWEEP
C_CARD_NET = 1

ACTIONS = ("explore", "queen", "druids", "crest", "item")
ACT_EXPLORE, ACT_QUEEN, ACT_DRUIDS, ACT_CREST, ACT_ITEM = range(len(ACTIONS))
NO_ARG = -1
PASS = 0
"""The BID row that passes."""

# --- The view -------------------------------------------------------------------------------------

ITEM_UNSEEN = -1
"""V_ITEM_STATE: in the court deck, or not in this game (the seat cannot tell)."""
ITEM_USED = -2
"""V_ITEM_STATE: a usable item that was used and left the game (L18)."""
NO_SEAT = -1

VIEW_FIELDS = (
    ("players", 1),  # 2, 3 or 4
    ("seat", 1),  # the deciding seat
    ("active", 1),  # the seat whose turn it is
    ("start_seat", 1),  # the starting player: turn position = (seat - start_seat) % players
    ("turn", 1),  # 0-based turn of the game
    ("forest_left", 1),  # cards in the forest deck
    ("druids_left", 1),  # cards in the Druid deck
    ("court_left", 1),  # items in the Queen's Court deck
    ("dawn_cards", DAWN_DRAW),  # the cards drawn this Dawn (DAWN decision), else NO_CARD
    ("auction_clearing", 1),  # BID/PAYMENT: the clearing auctioned, else NO_CLEARING
    ("high_bid", 1),  # BID: the current high bid (0: none); PAYMENT: the bid to pay
    ("high_bidder", 1),  # the seat holding the high bid, else NO_SEAT
    ("clearing", CLEARINGS * N_CARD_TYPES),  # cards of each clearing by type, clearing-major
    ("clearing_size", CLEARINGS),  # cards in each clearing
    ("hand", MAX_SEATS),  # each seat's hand, a bitmask of fairy types (ruling PL2)
    ("played", MAX_SEATS),  # each seat's played fairies (face up), a bitmask
    ("collected", MAX_SEATS * N_CARD_TYPES),  # each seat's collected cards by type, seat-major
    ("crests", MAX_SEATS),  # unused Fairy Crests
    ("bid_bonus", MAX_SEATS),  # permanent bid bonus of each seat (L14)
    ("visit_bonus", MAX_SEATS),  # permanent Queen/Druid bonus of each seat
    ("ogre_ward", MAX_SEATS),  # 1 where the seat holds an ogre ward
    ("items_held", MAX_SEATS),  # bitmask of the item ids each seat holds (unused or permanent)
    ("item_state", MAX_COURT_ITEMS),  # holder seat, ITEM_UNSEEN or ITEM_USED
    ("item_table", MAX_COURT_ITEMS * ITEM_FIELDS),  # the court file's items (static)
    ("face_value", N_FAIRY_TYPES),  # each fairy type's face value (static)
    ("majority", N_ANIMALS),  # each animal's majority points (static)
)


VIEW_OFFSET, VIEW_SIZE = view_offsets(VIEW_FIELDS)
V_PLAYERS = VIEW_OFFSET["players"]
V_SEAT = VIEW_OFFSET["seat"]
V_ACTIVE = VIEW_OFFSET["active"]
V_START_SEAT = VIEW_OFFSET["start_seat"]
V_TURN = VIEW_OFFSET["turn"]
V_FOREST_LEFT = VIEW_OFFSET["forest_left"]
V_DRUIDS_LEFT = VIEW_OFFSET["druids_left"]
V_COURT_LEFT = VIEW_OFFSET["court_left"]
V_DAWN_CARDS = VIEW_OFFSET["dawn_cards"]
V_AUCTION_CLEARING = VIEW_OFFSET["auction_clearing"]
V_HIGH_BID = VIEW_OFFSET["high_bid"]
V_HIGH_BIDDER = VIEW_OFFSET["high_bidder"]
V_CLEARING = VIEW_OFFSET["clearing"]
V_CLEARING_SIZE = VIEW_OFFSET["clearing_size"]
V_HAND = VIEW_OFFSET["hand"]
V_PLAYED = VIEW_OFFSET["played"]
V_COLLECTED = VIEW_OFFSET["collected"]
V_CRESTS = VIEW_OFFSET["crests"]
V_BID_BONUS = VIEW_OFFSET["bid_bonus"]
V_VISIT_BONUS = VIEW_OFFSET["visit_bonus"]
V_OGRE_WARD = VIEW_OFFSET["ogre_ward"]
V_ITEMS_HELD = VIEW_OFFSET["items_held"]
V_ITEM_STATE = VIEW_OFFSET["item_state"]
V_ITEM_TABLE = VIEW_OFFSET["item_table"]
V_FACE_VALUE = VIEW_OFFSET["face_value"]
V_MAJORITY = VIEW_OFFSET["majority"]


# --- Fairy values (rulings L5, L7, L11, L15, L18) -------------------------------------------------


@nb.njit(cache=True)
def explore_values(face_value, clearing, out):
    """Each fairy type's value when exploring ``clearing`` (counts by type, as auctioned, L18).

    Explorer: the cards in the clearing; Fauna 3 with at least 2 animals there; Flora 4 with at
    least 2 flowers there; every other fairy its face value (specials 1). Writes
    ``out[:N_FAIRY_TYPES]``.
    """
    size = 0
    animals = 0
    flowers = 0
    for t in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
        size += clearing[t]
        if is_animal(t):
            animals += clearing[t]
        elif is_flower(t):
            flowers += clearing[t]
    for t in range(N_FAIRY_TYPES):
        out[t] = face_value[t]
    out[EXPLORER] = size
    out[FAUNA] = FAUNA_VALUE if animals >= FAUNA_NEEDS else face_value[FAUNA]
    out[FLORA] = FLORA_VALUE if flowers >= FLORA_NEEDS else face_value[FLORA]


@nb.njit(cache=True)
def visit_values(face_value, out):
    """Each fairy type's value for the Queen or the Druids: Herald 5, the others face value."""
    for t in range(N_FAIRY_TYPES):
        out[t] = face_value[t]
    out[HERALD] = HERALD_VALUE


@nb.njit(cache=True, inline="always")
def mask_value(mask, values):
    """Total of ``values[t]`` over the fairy types ``t`` in bitmask ``mask``.

    One step per card in ``mask`` (its lowest bit's type, ``trailing_zeros``), not per fairy
    type: payments and visits sum every subset of a hand.
    """
    total = 0
    rest = mask & ((1 << N_FAIRY_TYPES) - 1)
    while rest:
        total += values[trailing_zeros(rest)]
        rest &= rest - 1
    return total


@nb.njit(cache=True, inline="always")
def popcount(mask):
    """Number of cards in a hand bitmask."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


# --- Scoring (rulings L11, L12, L13), half points -------------------------------------------------


# Collected cards are one flat int64 array, seat-major: seat ``s``'s count of type ``t`` is
# ``collected[s * N_CARD_TYPES + t]``, as in the view (V_COLLECTED), so policies score straight
# from the view. An item table is flat too: item ``i``'s field ``f`` is
# ``item_table[i * ITEM_FIELDS + f]`` (V_ITEM_TABLE).


@nb.njit(cache=True, inline="always")
def majority_halves(collected, n_seats, animal, points, seat):
    """Half points ``seat`` scores for the majority of ``animal`` worth ``points`` (L11).

    The unique most (at least 1 card) scores the points; two tied for the most score half each;
    three or more tied score nothing.
    """
    best = 0
    n_best = 0
    for s in range(n_seats):
        c = collected[s * N_CARD_TYPES + animal]
        if c > best:
            best = c
            n_best = 1
        elif c == best:
            n_best += 1
    if best == 0 or collected[seat * N_CARD_TYPES + animal] != best:
        return 0
    if n_best == 1:
        return HALF * points
    if n_best == 2:
        return points
    return 0


@nb.njit(cache=True, inline="always")
def turtle_bonus_halves(collected, seat):
    """Exactly 3 turtles: 3 points, whatever the turtle majority (L11)."""
    return (
        HALF * TURTLE_BONUS if collected[seat * N_CARD_TYPES + TURTLE] == TURTLE_BONUS_COUNT else 0
    )


@nb.njit(cache=True, inline="always")
def flower_halves(collected, seat):
    """Points for each colour of which 2 or more flowers are held."""
    total = 0
    for t in range(FIRST_FLOWER, FIRST_FLOWER + N_FLOWERS):
        count = collected[seat * N_CARD_TYPES + t]
        total += FLOWER_POINTS_ARRAY[min(count, MAX_FLOWERS_OF_A_COLOUR)]
    return HALF * total


@nb.njit(cache=True, inline="always")
def variety_halves(collected, seat):
    """Variety bonus by the number of flower colours held (-5 for none, L11)."""
    colours = 0
    for t in range(FIRST_FLOWER, FIRST_FLOWER + N_FLOWERS):
        if collected[seat * N_CARD_TYPES + t] > 0:
            colours += 1
    return HALF * VARIETY_POINTS_ARRAY[colours]


@nb.njit(cache=True, inline="always")
def goblin_halves(collected, n_seats, seat):
    """Goblins (L11): the unique most loses 2 per goblin, each tied most 1 per goblin; nobody
    loses anything when the most is 0. A negative number of half points."""
    best = 0
    n_best = 0
    for s in range(n_seats):
        g = collected[s * N_CARD_TYPES + GOBLIN]
        if g > best:
            best = g
            n_best = 1
        elif g == best:
            n_best += 1
    if best == 0 or collected[seat * N_CARD_TYPES + GOBLIN] != best:
        return 0
    per_goblin = GOBLIN_UNIQUE_MOST if n_best == 1 else GOBLIN_TIED_MOST
    return -HALF * per_goblin * best


@nb.njit(cache=True)
def applause_halves(hand_values, n_seats, seat):
    """The King's applause (L11): the highest hand value scores 3 alone, 2 each for two, 1 each
    for three, 0 for four; this holds when every hand is worth 0 too."""
    best = hand_values[0]
    for s in range(1, n_seats):
        best = max(best, hand_values[s])
    if hand_values[seat] != best:
        return 0
    tied = 0
    for s in range(n_seats):
        if hand_values[s] == best:
            tied += 1
    return HALF * APPLAUSE_POINTS_ARRAY[tied - 1]


@nb.njit(cache=True, inline="always")
def item_points(item_table, item, collected, seat):
    """Whole points end-game item ``item`` gives ``seat`` at the end; 0 for permanent and usable
    items (L13, L18)."""
    at = item * ITEM_FIELDS
    primitive = item_table[at + IT_PRIMITIVE]
    amount = item_table[at + IT_AMOUNT]
    row = seat * N_CARD_TYPES
    if primitive == FLAT_POINTS:
        return amount
    if primitive == PENDANT_PAIR:
        return amount if collected[row + LOST_HALF] > 0 else 0
    if primitive != POINTS_PER_CARD_TYPE:
        return 0
    cards = item_table[at + IT_CARDS]
    at_least = item_table[at + IT_AT_LEAST]
    count = 0
    for t in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
        if (cards >> t) & 1:
            if at_least == 0:
                count += collected[row + t]
            elif collected[row + t] >= at_least:
                count += 1
    return amount * count


@nb.njit(cache=True, inline="always")
def items_halves(item_table, held, collected, seat):
    """Half points of the items in bitmask ``held`` for ``seat``."""
    total = 0
    item = 0
    while held:
        if held & 1:
            total += item_points(item_table, item, collected, seat)
        held >>= 1
        item += 1
    return HALF * total


@nb.njit(cache=True, inline="always")
def collection_halves(collected, n_seats, seat, majority, held, item_table):
    """``seat``'s score without the King's applause, in half points: what it has collected
    against the others' collections, and its items. The "current score" policies maximise."""
    total = 0
    for a in range(N_ANIMALS):
        total += majority_halves(collected, n_seats, FIRST_ANIMAL + a, majority[a], seat)
    total += turtle_bonus_halves(collected, seat)
    total += flower_halves(collected, seat) + variety_halves(collected, seat)
    total += goblin_halves(collected, n_seats, seat)
    return total + items_halves(item_table, held, collected, seat)


@nb.njit(cache=True)
def score_parts(collected, hand_values, items_held, n_seats, majority, item_table, parts):
    """Final scoring (L11, L13) of every seat, in half points.

    Parameters
    ----------
    collected : int64[seats * N_CARD_TYPES]
        Each seat's collected cards by type, seat-major.
    hand_values : int64[seats]
        Each seat's fairies in hand at face value (specials 1).
    items_held : int64[seats]
        Bitmask of the court items each seat holds.
    n_seats : int
    majority : int64[N_ANIMALS]
        Majority points of each animal (card file).
    item_table : int64[n_items * ITEM_FIELDS]
        The court's items, flat.
    parts : int64[seats, N_PARTS]
        Written with each seat's parts (:data:`PART_NAMES`); the score is their sum.
    """
    for s in range(n_seats):
        for a in range(N_ANIMALS):
            parts[s, a] = majority_halves(collected, n_seats, FIRST_ANIMAL + a, majority[a], s)
        parts[s, P_TURTLE_BONUS] = turtle_bonus_halves(collected, s)
        parts[s, P_FLOWERS] = flower_halves(collected, s)
        parts[s, P_VARIETY] = variety_halves(collected, s)
        parts[s, P_GOBLINS] = goblin_halves(collected, n_seats, s)
        parts[s, P_ITEMS] = items_halves(item_table, items_held[s], collected, s)
        parts[s, P_APPLAUSE] = applause_halves(hand_values, n_seats, s)


@nb.njit(cache=True)
def rank_seats(score, hand_values, last_turn, n_seats, rank):
    """Ranks 1..n (ruling L12): higher score first; tied, more fairy value in hand first; still
    tied, the seat whose last turn came later first. ``last_turn[s]`` is the 0-based turn of
    seat ``s``'s last turn (all distinct), so the ranking is strict and rank 1 is the winner."""
    for s in range(n_seats):
        better = 0
        for o in range(n_seats):
            if o == s:
                continue
            if score[o] != score[s]:
                better += score[o] > score[s]
            elif hand_values[o] != hand_values[s]:
                better += hand_values[o] > hand_values[s]
            else:
                better += last_turn[o] > last_turn[s]
        rank[s] = 1 + better
