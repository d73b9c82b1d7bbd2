"""The jitted Fairy Land game loop, 2 to 4 players: the reference engine's games, draw for draw.

One module past 600 lines (about 1,400, a sixth of them imports): the whole turn is one jitted
block loop, in the reference's order, whose parts share the table's arrays and inline into each
other; split across modules they would no longer read side by side with :mod:`.reference`.

:mod:`.reference` is the specification: this engine makes the same random draws in the same
order (its module docstring lists them), offers the same decisions with the same choice rows
(:mod:`.rules`) and the same view, and must agree with it game by game
(tests/fairyland/test_reference_equivalence.py).

Engine state
------------
One :class:`Table` (a named tuple of small fixed arrays) is allocated per worker thread and reset
for every game, so the game loop allocates nothing. The public state *is* the policies' view:
``Table.public`` is laid out by :data:`.rules.VIEW_FIELDS` and kept up to date move by move
(clearings, hands and played fairies as bitmasks, collected cards, crests, item bonuses, item
states, deck sizes, the Dawn and auction context), and only ``V_SEAT`` is written before a
policy is asked (ruling PL2: every seat sees the same table). What no seat sees is kept beside
it: the forest in its shuffled order, and the Druid and court decks as ring buffers of
:data:`.search.RING` slots (cards seen at a visit and not kept go to the bottom, L18).

Each decision's rows are written by :mod:`.choices` (tested row for row against the reference's
offers). A greedy seat's Dawn, Day, bids and payments are answered by :mod:`.shortcuts.greedy`,
a value-bidder seat's by :mod:`.shortcuts.value_bidder` (the shortcuts: the policies' own
answers, without their choice rows or the work they would repeat). Policies are asked in one place,
:func:`decide`, which compiles the policy dispatch (:func:`.policies.ask_policy`) once. A policy
answering outside the legal choices fills the block's error record and is answered for with
choice 0, so that the game runs to its end and the block stops after it (:func:`play_block`).

A run that logs its auctions (:func:`.runs.play_auctions`, the report's prices and prizes) hands
:func:`play_games` an array to fill: each auction is written into ``Table.auction_log`` as it is
held and the game's rows are copied out with its outcome. A run that does not hands it an array
with no rows, and the auction costs a flag test.

Search
------
The game loop takes one more argument, ``search``: None in ordinary runs, or a
:class:`.search.SearchContext` in runs that seat ``rollout``. Numba prunes every
``if search is not None:`` branch of a loop compiled with None, so the ordinary kernel compiles
and plays as it would without search. With a context, a searching seat's Dawn and Day are
answered by :func:`searched_choice` after its play-out policy has answered them (the
rest of its decisions are the play-out policy's). A search plays the game on from the decision
pending on a copy of the table: :func:`play_turns` plays whole turns from the active seat's
Dawn or from a choice made (``counters[RESUME]``), so the ordinary game is
:func:`setup_game`, :func:`play_turns` and :func:`final_scoring`, and a play-out
(:func:`play_out`) is the same :func:`play_turns`, compiled once for both, taken up at the
searched choice. The play-out and the search are at the end of this module, since they resume
its loop; the table's copy and determinization (:mod:`.search`) import nothing of it.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from fairysim.sim.blocks import (
    ERROR_ROW,
    GAMES_PER_BLOCK,
    block_count,
    block_rows,
    claim_block,
)
from fairysim.sim.borrow import borrowed, borrowed_fields, keep_alive
from fairysim.sim.fairyland.choices import (
    bid_choices,
    broom_choices,
    dawn_choices,
    day_choices,
    horn_choices,
    net_choices,
    ogre_choices,
    payment_choices,
    pick_choices,
    visit_choices,
)
from fairysim.sim.fairyland.policies import (
    GREEDY,
    N_COLLECTED,
    VALUE_BIDDER,
    ask_policy,
    seat_score,
)
from fairysim.sim.fairyland.rules import (
    ACT_CREST,
    ACT_DRUIDS,
    ACT_EXPLORE,
    ACT_QUEEN,
    BID,
    BID_BONUS,
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
    C_LOOK,
    C_MASK,
    C_SECOND,
    C_VALUE,
    CHOICE_WIDTH,
    CLEARINGS,
    COURT_DECK_SIZE,
    DAWN,
    DAY,
    DRUID_DECK_SIZE,
    DRUID_FAIRIES,
    DRUID_PICK,
    DRUIDS_KEY,
    FIRST_ANIMAL,
    FIRST_FLOWER,
    FIRST_FOREST_TYPE,
    GOBLIN,
    GOBLIN_TRAP,
    HORN_OF_RECALL,
    HORN_RECALL,
    HOUSE_MASK,
    IT_AMOUNT,
    IT_PRIMITIVE,
    ITEM_FIELDS,
    ITEM_UNSEEN,
    ITEM_USED,
    MAX_CHOICES,
    MAX_COURT_ITEMS,
    MAX_SEATS,
    N_ANIMALS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    N_FLOWERS,
    N_PARTS,
    NET,
    NET_TAKE,
    NO_CARD,
    NO_CLEARING,
    NO_PRIMITIVE,
    NO_SEAT,
    OGRE,
    OGRE_VICTIMS,
    OGRE_WARD,
    OVERCROWDED,
    PASS,
    PAYMENT,
    QUEEN_FAIRIES,
    QUEEN_PICK,
    V_ACTIVE,
    V_AUCTION_CLEARING,
    V_BID_BONUS,
    V_CLEARING,
    V_CLEARING_SIZE,
    V_COLLECTED,
    V_COURT_LEFT,
    V_CRESTS,
    V_DAWN_CARDS,
    V_DRUIDS_LEFT,
    V_FACE_VALUE,
    V_FOREST_LEFT,
    V_HAND,
    V_HIGH_BID,
    V_HIGH_BIDDER,
    V_ITEM_STATE,
    V_ITEM_TABLE,
    V_ITEMS_HELD,
    V_MAJORITY,
    V_OGRE_WARD,
    V_PLAYED,
    V_PLAYERS,
    V_SEAT,
    V_START_SEAT,
    V_TURN,
    V_VISIT_BONUS,
    VIEW_SIZE,
    VISIT_BONUS,
    WARRIOR,
    WIND,
    WIND_HAND_LIMIT,
    explore_values,
    is_special,
    mask_value,
    popcount,
    rank_seats,
    score_parts,
    visit_values,
)
from fairysim.sim.fairyland.search import (
    COURT_BOTTOM,
    DRUID_BOTTOM,
    PENDING_N,
    RING,
    RING_MASK,
    SearchContext,
    copy_table,
    redraw_hidden,
)
from fairysim.sim.fairyland.shortcuts import value_bidder
from fairysim.sim.fairyland.shortcuts.greedy import (
    DAWN_STATES,
    bid_answer,
    dawn_answer,
    day_answer,
    payment_answer,
)
from fairysim.sim.rng import (
    RNG_STATE_SIZE,
    lay_out_counts,
    randint,
    seed_game_streams,
    shuffle_prefix,
)
from fairysim.sim.search import make_rollout_search
from fairysim.sim.view import as_policy_sees

SeatPolicies = namedtuple("SeatPolicies", ["policy_ids", "policies", "reads_view", "weights"])
"""Who decides for each seat (the arrays of :func:`fairysim.sim.policy.seat_policies`, in its
order). Every seat reads the one view the engine keeps, so ``reads_view`` is not consulted."""


FIRST_VICTIM = FIRST_ANIMAL
END_VICTIM = FIRST_FLOWER + N_FLOWERS
"""Animals and flowers, the cards an ogre takes (L6), are the types ``FIRST_VICTIM ..
END_VICTIM - 1``, animals first: the reference's order of victims."""
assert FIRST_FLOWER == FIRST_ANIMAL + N_ANIMALS

# Table.counters slots
AUCTIONS = 0  # auctions held (a clearing with cards explored)
UNBID = 1  # auctions nobody bid in
BOX = 2  # forest cards discarded into the box
COURT_ITEMS = 3  # bitmask of the game's court deck items
# Slots 4 and 5 (DRUID_BOTTOM, COURT_BOTTOM) and 12 (PENDING_N) are defined in .search, whose copy
# and determinization read them.
FAILED = 6  # 1 once a policy answered outside its choices
KNOWN = 7  # value_bidder's clearing values worked out this turn (bit seat * CLEARINGS + c)
LOGGING = 8  # 1 while the game's auctions are logged (Table.auction_log)
FORCED_HELD = 9  # cards of the forced type the forced seat held at setup (card effects): 0
FORCED_DONE = 10  # 1 if the forced card was put in the seat's hands (ruling PL10), else 0
PENDING = 11  # a search's pending decision (DAWN or DAY of the active seat, searched_choice)
RESUME = 13  # where play_turns takes the active seat's turn up: TURN_START (0) and below
RESUME_CHOICE = 14  # the choice row made where it resumes after a choice
TRACING = 15  # 1 while the game records each seat's standing after each round (ruling PL11)
N_COUNTERS = 16

TURN_START = 0
"""``counters[RESUME]``: the turn starts at its Dawn (every turn of an ordinary game)."""
DAWN_CHOSEN = 1
"""``counters[RESUME]``: the Dawn's cards are drawn and their placement chosen."""
DAY_CHOSEN = 2
"""``counters[RESUME]``: the Day's action is chosen."""

FORCE_CARD = 0
"""Slot of the forced card in a kernel's ``force`` array (ruling PL10): a forest card type
(``FIRST_FOREST_TYPE ..``), ``N_CARD_TYPES + i`` for court item ``i``; 0 = no intervention."""
FORCE_SEAT = 1
"""Slot of the seat the forced card goes to."""
FORCE_REMOVED = 2
"""Slot of the forest card type taken out of the shuffled forest (ruling PL12); 0 = none."""
FORCE_SIZE = 3

# Table.auction_log columns (one row per auction, in order; see play.AUCTION_COLUMNS)
L_TURN = 0  # 0-based turn of the auction
L_EXPLORER = 1  # the seat that explored the clearing
L_WINNER = 2  # the seat that won it, NO_SEAT when nobody bid (the clearing went to the box)
L_CARDS = 3  # cards in the clearing when explored
L_ANIMALS = 4
L_FLOWERS = 5
L_GOBLINS = 6
L_OGRES = 7
L_FAIRIES = 8  # special fairies
L_PRICE = 9  # the fairy value the winner played (L5, L14)
L_FAIRIES_PAID = 10  # fairy cards the winner played
L_PRIZE = 11  # change of the winner's score, applause left out, half points (L11, L13)
N_LOG_FIELDS = 12

# Table.stats columns (per seat)
AUCTIONS_WON = 0
FAIRIES_PAID = 1  # fairy cards played for auctions, the Queen and the Druids
VALUE_PAID = 2  # the values they were played for
QUEEN_VISITS = 3
DRUID_VISITS = 4
CRESTS_USED = 5
LAST_TURN = 6  # 0-based turn of the seat's last turn (ruling L12)
ITEMS_USED = 7  # bitmask of the usable items the seat used
OGRES_GAINED = 8  # ogres the seat gained (resolved, or warded by Ogre Bane)
N_STATS = 9

Table = namedtuple(
    "Table",
    [
        "public",  # int64[VIEW_SIZE]: the public state, rules.VIEW_FIELDS (static tail: item table)
        "choices",  # int64[MAX_CHOICES, CHOICE_WIDTH]: the decision being offered
        "forest",  # int64[forest cards]: shuffled; top at forest[view[V_FOREST_LEFT] - 1]
        "sorted_forest",  # int64[forest cards]: the forest laid out by type (static)
        "druids",  # int64[RING]: Druid deck ring, bottom at counters[DRUID_BOTTOM]
        "court",  # int64[RING]: court deck ring (item ids), bottom at counters[COURT_BOTTOM]
        "court_all",  # int64[court items]: the court file's items, shuffled at setup (L2)
        "seen",  # int64[RING]: cards looked at during a visit, in the order seen
        "taken",  # int64[N_CARD_TYPES]: the cards of a clearing being taken
        "values",  # int64[N_FAIRY_TYPES]: each fairy's value for the current action
        "evil",  # int64[CLEARINGS]: goblins and ogres in each clearing (Dawn, L3)
        "gains",  # float64[CLEARINGS * DAWN_STATES]: greedy's Dawn (shortcuts.greedy.dawn_answer)
        "worth",  # float64[MAX_SEATS, CLEARINGS]: value-bidder's clearing values (its shortcut)
        "relief",  # float64[MAX_SEATS, CLEARINGS]: the Warrior's relief in them
        "purses",  # int64[MAX_SEATS]: what each seat can pay in the auction under way
        "stats",  # int64[MAX_SEATS, N_STATS]
        "counters",  # int64[N_COUNTERS]
        "parts",  # int64[MAX_SEATS, N_PARTS]: final score parts, half points
        "score",  # int64[MAX_SEATS]: half points
        "hand_value",  # int64[MAX_SEATS]
        "last_turn",  # int64[MAX_SEATS]
        "rank",  # int64[MAX_SEATS]
        "auction_log",  # int64[most_auctions(forest cards), N_LOG_FIELDS]: the game's auctions
        "standing",  # int64[MAX_SEATS, most_auctions(forest cards)]: half points after each round
        "deal_rng",  # uint64[2]
        "policy_rng",  # uint64[MAX_SEATS, 2]
    ],
)


Scratch = namedtuple("Scratch", ["det", "work", "totals"])
"""A worker's search scratch (:func:`searched_choice`): two tables beside the real one
(a determinization and a play-out) and the choices' float64 totals. Allocated in every run, read
only where a seat searches."""


@nb.njit(cache=True)
def new_table(forest_counts, item_table, face_value, majority):
    """Allocate one worker's table; the view's static tail (the court's item table, the fairies'
    face values, the animals' majority points) is written here once."""
    sorted_forest = lay_out_counts(forest_counts)
    n_items = item_table.shape[0]
    t = Table(
        np.zeros(VIEW_SIZE, np.int64),
        np.zeros((MAX_CHOICES, CHOICE_WIDTH), np.int64),
        np.zeros(len(sorted_forest), np.int64),
        sorted_forest,
        np.zeros(RING, np.int64),
        np.zeros(RING, np.int64),
        np.zeros(n_items, np.int64),
        np.zeros(RING, np.int64),
        np.zeros(N_CARD_TYPES, np.int64),
        np.zeros(N_FAIRY_TYPES, np.int64),
        np.zeros(CLEARINGS, np.int64),
        np.zeros(CLEARINGS * DAWN_STATES, np.float64),
        np.zeros((MAX_SEATS, CLEARINGS), np.float64),
        np.zeros((MAX_SEATS, CLEARINGS), np.float64),
        np.zeros(MAX_SEATS, np.int64),
        np.zeros((MAX_SEATS, N_STATS), np.int64),
        np.zeros(N_COUNTERS, np.int64),
        np.zeros((MAX_SEATS, N_PARTS), np.int64),
        np.zeros(MAX_SEATS, np.int64),
        np.zeros(MAX_SEATS, np.int64),
        np.zeros(MAX_SEATS, np.int64),
        np.zeros(MAX_SEATS, np.int64),
        np.zeros((most_auctions(len(sorted_forest)), N_LOG_FIELDS), np.int64),
        np.zeros((MAX_SEATS, most_auctions(len(sorted_forest))), np.int64),
        np.zeros(RNG_STATE_SIZE, np.uint64),
        np.zeros((MAX_SEATS, RNG_STATE_SIZE), np.uint64),
    )
    v = t.public
    for i in range(MAX_COURT_ITEMS):
        row = V_ITEM_TABLE + i * ITEM_FIELDS
        if i < n_items:
            for f in range(ITEM_FIELDS):
                v[row + f] = item_table[i, f]
        else:
            v[row + IT_PRIMITIVE] = NO_PRIMITIVE
    for f in range(N_FAIRY_TYPES):
        v[V_FACE_VALUE + f] = face_value[f]
    for a in range(N_ANIMALS):
        v[V_MAJORITY + a] = majority[a]
    return t


# --- Small moves on the view ----------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def item_field(v, item, field):
    """Field ``field`` of court item ``item`` (the view's item table)."""
    return v[V_ITEM_TABLE + item * ITEM_FIELDS + field]


@nb.njit(cache=True, inline="always")
def add_to_clearing(v, c, card):
    """One ``card`` into clearing ``c``."""
    v[V_CLEARING + c * N_CARD_TYPES + card] += 1
    v[V_CLEARING_SIZE + c] += 1


@nb.njit(cache=True, inline="always")
def empty_clearing(v, c, into):
    """Move every card of clearing ``c`` into ``into`` (counts by type, added to); returns how
    many there were."""
    at = V_CLEARING + c * N_CARD_TYPES
    for card in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
        into[card] += v[at + card]
        v[at + card] = 0
    size = v[V_CLEARING_SIZE + c]
    v[V_CLEARING_SIZE + c] = 0
    return size


@nb.njit(cache=True, inline="always")
def discard_clearing(t, c):
    """Every card of clearing ``c`` into the box (Sunset, the Broom, an auction nobody bid in)."""
    v = t.public
    at = V_CLEARING + c * N_CARD_TYPES
    for card in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
        v[at + card] = 0
    t.counters[BOX] += v[V_CLEARING_SIZE + c]
    v[V_CLEARING_SIZE + c] = 0


@nb.njit(cache=True, inline="always")
def play_fairies(t, seat, mask, value):
    """Play the fairies of ``mask`` face up; the Wind comes back when the hand then holds 3 cards
    or fewer, the Wind not counted (L15, L18)."""
    v = t.public
    hand = v[V_HAND + seat] & ~mask
    played = v[V_PLAYED + seat] | mask
    if (mask >> WIND) & 1 and popcount(hand) <= WIND_HAND_LIMIT:
        hand |= 1 << WIND
        played &= ~(1 << WIND)
    v[V_HAND + seat] = hand
    v[V_PLAYED + seat] = played
    t.stats[seat, FAIRIES_PAID] += popcount(mask)
    t.stats[seat, VALUE_PAID] += value


# --- Asking a policy ------------------------------------------------------------------------------


@nb.njit(cache=True, _nrt=False)
def decide(v, choices, policy_rng, counters, seats, error, seat, decision, n):
    """``seat``'s answer (a row of ``choices[:n]``) to ``decision``.

    A single choice is taken without asking (ruling PL1). An answer outside the choices fills
    the error record ``error`` (seat, decision, choice, n_choices; the first failure of the game
    only) and is replaced by 0: the game runs on and the block stops after it. The one call site
    of the policies (compiled once); it takes only the arrays it reads, because a call that
    takes the whole table copies every array's fields.
    """
    if n == 1:
        return 0
    v[V_SEAT] = seat
    answer = ask_policy(
        seats.policy_ids,
        seats.policies,
        seat,
        decision,
        v,
        choices,
        n,
        seats.weights[seat],
        policy_rng[seat],
    )
    if 0 <= answer < n:
        return answer
    if counters[FAILED] == 0:
        counters[FAILED] = 1
        error[0] = seat
        error[1] = decision
        error[2] = answer
        error[3] = n
    return 0


@nb.njit(cache=True, inline="always")
def ask(t, seats, error, seat, decision, n):
    """:func:`decide` on the table ``t``. The integers go as ``np.int64``: numba would compile
    :func:`decide` (every policy inlined in it) once per literal decision code otherwise."""
    return decide(
        t.public,
        t.choices,
        t.policy_rng,
        t.counters,
        seats,
        error,
        np.int64(seat),
        np.int64(decision),
        np.int64(n),
    )


# --- Setup (L2) -----------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def setup_game(t, seed, game, n_players, crests, force):
    """Reset the table and set up game ``game`` with the reference's draws: the forest shuffle,
    the court shuffle, the starting seat (:mod:`.reference`, "Order of random draws").

    With ``force[FORCE_REMOVED] > 0`` every card of that type leaves the shuffled forest before
    the Druid deck is dealt (:func:`remove_card_type`, ruling PL12); with ``force[FORCE_CARD] >
    0`` the forced seat then starts with that card (:func:`force_card`, ruling PL10); neither
    changes a random draw."""
    v = t.public
    for i in range(V_ITEM_TABLE):  # the dynamic part of the view; the rest is static
        v[i] = 0
    for i in range(MAX_COURT_ITEMS):
        v[V_ITEM_STATE + i] = ITEM_UNSEEN
    for s in range(MAX_SEATS):
        for k in range(N_STATS):
            t.stats[s, k] = 0
    for k in range(N_COUNTERS):
        t.counters[k] = 0
    v[V_PLAYERS] = n_players
    v[V_DAWN_CARDS] = NO_CARD
    v[V_DAWN_CARDS + 1] = NO_CARD
    v[V_AUCTION_CLEARING] = NO_CLEARING
    v[V_HIGH_BIDDER] = NO_SEAT
    seed_game_streams(t.deal_rng, t.policy_rng, seed, game, n_players)
    # 1. the forest
    n_forest = len(t.forest)
    for i in range(n_forest):
        t.forest[i] = t.sorted_forest[i]
    shuffle_prefix(t.deal_rng, t.forest, n_forest)
    # 2. the court: its last COURT_DECK_SIZE items are the game's deck, top last
    n_items = len(t.court_all)
    for i in range(n_items):
        t.court_all[i] = i
    shuffle_prefix(t.deal_rng, t.court_all, n_items)
    for j in range(COURT_DECK_SIZE):
        item = t.court_all[n_items - COURT_DECK_SIZE + j]
        t.court[j] = item
        t.counters[COURT_ITEMS] |= 1 << item
    v[V_COURT_LEFT] = COURT_DECK_SIZE
    # 3. the starting seat (L18)
    start = randint(t.deal_rng, n_players)
    v[V_START_SEAT] = start
    v[V_ACTIVE] = start
    for s in range(n_players):
        v[V_HAND + s] = HOUSE_MASK
        v[V_CRESTS + s] = crests
    if force[FORCE_REMOVED] > 0:
        n_forest = remove_card_type(t.forest, n_forest, force[FORCE_REMOVED])
    # No draw: the Druid deck is the forest's top 9 in order, then one card per clearing.
    left = n_forest - DRUID_DECK_SIZE
    for j in range(DRUID_DECK_SIZE):
        t.druids[j] = t.forest[left + j]
    v[V_DRUIDS_LEFT] = DRUID_DECK_SIZE
    for c in range(CLEARINGS):
        left -= 1
        add_to_clearing(v, c, t.forest[left])
    v[V_FOREST_LEFT] = left
    if force[FORCE_CARD] > 0:
        force_card(t, force[FORCE_CARD], force[FORCE_SEAT], n_items)


@nb.njit(cache=True, inline="always")
def remove_card_type(forest, n, card):
    """Card removal (ruling PL12): take every card of type ``card`` out of the shuffled forest
    ``forest[:n]`` (top last), the others closing up in their order, so that the forest deals
    the cards both decks share in the same order. Returns the forest's new size."""
    m = 0
    for i in range(n):
        if forest[i] != card:
            forest[m] = forest[i]
            m += 1
    return m


@nb.njit(cache=True, inline="always")
def take_forced_card(forest, left, card):
    """Card effects (ruling PL10): take the bottommost card of type ``card`` out of the forest
    deck ``forest[:left]`` (top last), the cards above it moving down one place, so that the
    deck gives out the same cards in the same order but that one. Returns the deck's new size,
    or -1 (nothing moved) where the deck holds no such card, or only that one card."""
    if left < 2:
        return -1
    for i in range(left):
        if forest[i] == card:
            for j in range(i, left - 1):
                forest[j] = forest[j + 1]
            return left - 1
    return -1


@nb.njit(cache=True, inline="always")
def force_court_item(court, court_all, n_items, item):
    """Card effects (ruling PL10): take court item ``item`` for a seat before the game. Where the
    game's court deck ``court[:COURT_DECK_SIZE]`` holds it, the first item the court shuffle left
    out (``court_all[n_items - COURT_DECK_SIZE - 1]``) takes its place; otherwise it comes from
    the box and the deck is as drawn. Returns ``(done, placed)``: ``done`` 0 (nothing moved)
    where the deck holds it and the court has no item left out; ``placed`` the item put in its
    place, -1 for none."""
    for j in range(COURT_DECK_SIZE):
        if court[j] == item:
            if n_items <= COURT_DECK_SIZE:
                return 0, -1
            placed = court_all[n_items - COURT_DECK_SIZE - 1]
            court[j] = placed
            return 1, placed
    return 1, -1


@nb.njit(cache=True, inline="always")
def force_card(t, card, seat, n_items):
    """Card effects (ruling PL10): ``seat`` starts the game with ``card``, as if it had gained it
    before the first turn: a forest card taken out of the forest deck
    (:func:`take_forced_card`), in front of the seat or, a special fairy, in its hand; a court
    item (``card = N_CARD_TYPES + item``) face up before it, a permanent one acting from the
    first turn (:func:`force_court_item`). Writes ``FORCED_HELD`` (0: a seat starts with no
    forest card and no item) and ``FORCED_DONE``."""
    v = t.public
    done = 0
    if card < N_CARD_TYPES:
        left = take_forced_card(t.forest, v[V_FOREST_LEFT], card)
        if left >= 0:
            v[V_FOREST_LEFT] = left
            if is_special(card):
                v[V_HAND + seat] |= 1 << card
            else:
                v[V_COLLECTED + seat * N_CARD_TYPES + card] += 1
            done = 1
    else:
        item = card - N_CARD_TYPES
        done, placed = force_court_item(t.court, t.court_all, n_items, item)
        if done:
            if placed >= 0:
                t.counters[COURT_ITEMS] |= 1 << placed
            t.counters[COURT_ITEMS] |= 1 << item
            gain_item(v, seat, item)
    t.counters[FORCED_HELD] = 0
    t.counters[FORCED_DONE] = done


# --- Gaining cards (L6, L17) -------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def resolve_ogre(t, seat, seats, error):
    """Rulebook "Ogres" (L6): the ogre and 2 of the seat's animals/flowers (its choice) go to the
    box; with only one such card, it goes; with none, nothing; an ogre ward (Ogre Bane) discards
    the ogre alone (L13)."""
    v = t.public
    t.counters[BOX] += 1
    t.stats[seat, OGRES_GAINED] += 1
    if v[V_OGRE_WARD + seat]:
        return
    row = V_COLLECTED + seat * N_CARD_TYPES
    held = 0
    only = 0
    for card in range(FIRST_VICTIM, END_VICTIM):
        if v[row + card] > 0:
            held += v[row + card]
            only = card
    if held == 0:
        return
    if held == 1:
        v[row + only] -= 1
        t.counters[BOX] += 1
        return
    n = ogre_choices(v[V_COLLECTED : V_COLLECTED + MAX_SEATS * N_CARD_TYPES], seat, t.choices)
    k = ask(t, seats, error, seat, OGRE_VICTIMS, n)
    v[row + t.choices[k, C_CARD]] -= 1
    v[row + t.choices[k, C_CARD_2]] -= 1
    t.counters[BOX] += 2


@nb.njit(cache=True, inline="always")
def gain_card(t, seat, card, seats, error):
    """A card gained from the Druids, the Fairy Net or the Druid's Key (L17): a special fairy to
    the hand, an ogre resolved at once, any other card in front of the seat."""
    v = t.public
    if card == OGRE:
        resolve_ogre(t, seat, seats, error)
    elif is_special(card):
        v[V_HAND + seat] |= 1 << card
    else:
        v[V_COLLECTED + seat * N_CARD_TYPES + card] += 1


@nb.njit(cache=True, inline="always")
def take_cards(t, seat, seats, error):
    """Take the cards of ``t.taken``: the others are placed first, then each ogre is resolved in
    turn, so its victims may come from them (L18)."""
    v = t.public
    row = V_COLLECTED + seat * N_CARD_TYPES
    for card in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
        count = t.taken[card]
        if count == 0 or card == OGRE:
            continue
        if is_special(card):
            v[V_HAND + seat] |= 1 << card
        else:
            v[row + card] += count
    for _ in range(t.taken[OGRE]):
        resolve_ogre(t, seat, seats, error)


# --- Phase 1: Dawn (L3) ---------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def dawn_choice(t, seat, seats, error, scratch, search):
    """Draw the top 2 forest cards (1 if only 1 is left) into ``V_DAWN_CARDS``; the row of the 2
    clearings they go to: an evil card to a clearing with the fewest evil cards, a second evil
    card to the fewest-evil clearing of the other two (counts before either is placed). A
    searching seat's placement is searched (``search``, :func:`searched_choice`)."""
    v = t.public
    left = v[V_FOREST_LEFT] - 1
    first = t.forest[left]
    second = NO_CARD
    if left > 0:
        left -= 1
        second = t.forest[left]
    v[V_FOREST_LEFT] = left
    v[V_DAWN_CARDS] = first
    v[V_DAWN_CARDS + 1] = second
    for c in range(CLEARINGS):
        at = V_CLEARING + c * N_CARD_TYPES
        t.evil[c] = v[at + GOBLIN] + v[at + OGRE]
    n = dawn_choices(t.evil, first, second, t.choices)
    t.counters[KNOWN] = 0  # value-bidder's clearing values of the turn before are stale
    if n > 1 and seats.policy_ids[seat] == GREEDY:  # the greedy shortcut (shortcuts/greedy.py)
        k = dawn_answer(v, t.choices, n, seat, seats.weights[seat], t.gains)
    elif n > 1 and seats.policy_ids[seat] == VALUE_BIDDER:  # the value-bidder shortcut
        k = value_bidder.dawn_answer(v, t.choices, n, seat, seats.weights[seat], t.worth, t.relief)
        joined = 1 << t.choices[k, C_FIRST]
        if second != NO_CARD:
            joined |= 1 << t.choices[k, C_SECOND]
        t.counters[KNOWN] = (((1 << CLEARINGS) - 1) & ~joined) << (seat * CLEARINGS)
    else:
        k = ask(t, seats, error, seat, DAWN, n)
    if search is not None:
        searched = searched_choice(t, scratch, seat, DAWN, n, k, seats.policies, search)
        if searched != k:  # value-bidder's known clearings were those k's cards left alone
            t.counters[KNOWN] = 0
            k = searched
    return k


@nb.njit(cache=True, inline="always")
def dawn_place(t, k):
    """Place the Dawn's cards (``V_DAWN_CARDS``) as choice row ``k`` says."""
    v = t.public
    add_to_clearing(v, t.choices[k, C_FIRST], v[V_DAWN_CARDS])
    if v[V_DAWN_CARDS + 1] != NO_CARD:
        add_to_clearing(v, t.choices[k, C_SECOND], v[V_DAWN_CARDS + 1])
    v[V_DAWN_CARDS] = NO_CARD
    v[V_DAWN_CARDS + 1] = NO_CARD


# --- Phase 2: Day (L4, L16) -----------------------------------------------------------------------


@nb.njit(cache=True)
def most_auctions(forest_cards):
    """The most auctions a game with ``forest_cards`` forest cards can hold: one a turn at most
    (L4), a turn for every 2 cards the Dawns draw (L3, L10), after the Druid deck and the first
    card of each clearing (L2)."""
    return max(1, (forest_cards - DRUID_DECK_SIZE - CLEARINGS + 1) // 2)


def most_rounds(forest_cards, n_players):
    """The most rounds of turns a game of ``n_players`` can have (:func:`most_auctions` turns,
    a last round whole or not): the width of a run's trace (ruling PL11)."""
    return -(-most_auctions(forest_cards) // n_players)


@nb.njit(cache=True)
def log_auction_start(v, row, seat, c):
    """Start the log row ``row`` (a row of ``Table.auction_log``): the turn, the explorer and
    what clearing ``c`` holds. The log functions take the arrays they read, not the table: a
    call taking the table would keep every array's fields live through the auction."""
    for k in range(N_LOG_FIELDS):
        row[k] = 0
    at = V_CLEARING + c * N_CARD_TYPES
    row[L_TURN] = v[V_TURN]
    row[L_EXPLORER] = seat
    row[L_CARDS] = v[V_CLEARING_SIZE + c]
    for a in range(N_ANIMALS):
        row[L_ANIMALS] += v[at + FIRST_ANIMAL + a]
    for f in range(N_FLOWERS):
        row[L_FLOWERS] += v[at + FIRST_FLOWER + f]
    row[L_GOBLINS] = v[at + GOBLIN]
    row[L_OGRES] = v[at + OGRE]
    for card in range(N_CARD_TYPES):
        if is_special(card):
            row[L_FAIRIES] += v[at + card]


@nb.njit(cache=True)
def log_auction_end(v, row, winner, mask, value, before):
    """Complete the log row ``row``: the winner, the fairies it played (``mask``, worth
    ``value``) and what the cards it took added to its score, applause left out (it moves with
    the fairies paid, the price): its :func:`.policies.seat_score` now less ``before``, the
    same taken just before the cards joined it (only its own collection changed)."""
    row[L_WINNER] = winner
    row[L_PRICE] = value
    row[L_FAIRIES_PAID] = popcount(mask)
    collected = v[V_COLLECTED : V_COLLECTED + N_COLLECTED]
    row[L_PRIZE] = seat_score(as_policy_sees(v), collected, winner) - before


@nb.njit(cache=True, inline="always")
def explore(t, seat, c, n_players, seats, error):
    """Explore clearing ``c``: an auction from the explorer's left, the explorer bidding last
    (L5, L14); the winner pays and takes the clearing (a Warrior in the payment discards its
    goblins and ogres first); nobody bids: it is discarded. An empty clearing: nothing (L16)."""
    v = t.public
    if v[V_CLEARING_SIZE + c] == 0:
        return
    logged = t.counters[AUCTIONS]
    t.counters[AUCTIONS] += 1
    if t.counters[LOGGING]:
        log_auction_start(v, t.auction_log[logged], seat, c)
    explore_values(  # typed as the policies' call (fairysim.sim.view.as_policy_sees)
        as_policy_sees(v[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES]),
        v[V_CLEARING + c * N_CARD_TYPES : V_CLEARING + (c + 1) * N_CARD_TYPES],
        t.values,
    )
    v[V_AUCTION_CLEARING] = c
    v[V_HIGH_BID] = 0
    v[V_HIGH_BIDDER] = NO_SEAT
    high = 0
    winner = NO_SEAT
    for s in range(n_players):  # every purse is public (PL2); value-bidder reads them all
        t.purses[s] = mask_value(v[V_HAND + s], t.values) + v[V_BID_BONUS + s]
    bidder = seat
    for _ in range(n_players):  # from the explorer's left round to the explorer
        bidder = bidder + 1 if bidder + 1 < n_players else 0  # a compare: `%` divides
        can_pay = t.purses[bidder]
        if can_pay <= high:  # only a pass: not asked (PL1)
            continue
        policy_id = seats.policy_ids[bidder]
        if policy_id == GREEDY:  # the lowest bid or a pass (shortcuts/greedy.py)
            bid = high + 1 if bid_answer(v, c, bidder, high, seats.weights[bidder]) else PASS
        elif policy_id == VALUE_BIDDER:  # the value-bidder shortcut (shortcuts/value_bidder.py)
            bid, t.counters[KNOWN] = value_bidder.bid_answer(
                v, c, bidder, t.purses, seats.weights[bidder], t.worth, t.relief, t.counters[KNOWN]
            )
        else:
            n = bid_choices(high, can_pay, t.choices)
            bid = t.choices[ask(t, seats, error, bidder, BID, n), C_BID]
        if bid != PASS:
            high = bid
            winner = bidder
            v[V_HIGH_BID] = high
            v[V_HIGH_BIDDER] = winner
    if winner == NO_SEAT:
        t.counters[UNBID] += 1
        discard_clearing(t, c)
        v[V_AUCTION_CLEARING] = NO_CLEARING
        if t.counters[LOGGING]:
            t.auction_log[logged, L_WINNER] = NO_SEAT
        return
    # The winner plays fairies worth at least the bid, the bonus counting (L14).
    hand = v[V_HAND + winner]
    bonus = v[V_BID_BONUS + winner]
    if seats.policy_ids[winner] == GREEDY:  # the greedy shortcut (shortcuts/greedy.py)
        face_value = v[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES]
        mask, value = payment_answer(hand, t.values, face_value, bonus, high)
    elif seats.policy_ids[winner] == VALUE_BIDDER:  # the value-bidder shortcut
        mask, value = value_bidder.payment_answer(
            v,
            c,
            winner,
            hand,
            t.values,
            bonus,
            high,
            seats.weights[winner],
            t.worth,
            t.relief,
            t.counters[KNOWN],
        )
    else:
        n = payment_choices(hand, t.values, bonus, high, t.choices)
        k = ask(t, seats, error, winner, PAYMENT, n)
        mask = t.choices[k, C_MASK]
        value = t.choices[k, C_VALUE]
    v[V_AUCTION_CLEARING] = NO_CLEARING
    v[V_HIGH_BID] = 0
    v[V_HIGH_BIDDER] = NO_SEAT
    play_fairies(t, winner, mask, value)
    t.stats[winner, AUCTIONS_WON] += 1
    for card in range(N_CARD_TYPES):
        t.taken[card] = 0
    empty_clearing(v, c, t.taken)
    if (mask >> WARRIOR) & 1:  # the Warrior chases goblins and ogres away (L5, L15)
        t.counters[BOX] += t.taken[GOBLIN] + t.taken[OGRE]
        t.taken[GOBLIN] = 0
        t.taken[OGRE] = 0
    before = 0
    if t.counters[LOGGING]:
        collected = v[V_COLLECTED : V_COLLECTED + N_COLLECTED]
        before = seat_score(as_policy_sees(v), collected, winner)
    take_cards(t, winner, seats, error)
    if t.counters[LOGGING]:
        log_auction_end(v, t.auction_log[logged], winner, mask, value, before)


@nb.njit(cache=True, inline="always")
def visit(t, seat, deck, bottom_slot, left_slot, fairies, pick, seats, error):
    """The Queen or the Druids (L7): play 1 or more fairies of value V, look at
    ``min(V + bonus - 1, deck)`` cards from the top of ``deck`` (a ring), keep one; the others go
    to the bottom in the order seen (L18). Returns the kept card or item (NO_CARD: none seen)."""
    v = t.public
    left = v[left_slot]
    bonus = v[V_VISIT_BONUS + seat]
    visit_values(v[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES], t.values)
    n = visit_choices(v[V_HAND + seat], t.values, bonus, left, t.choices)
    k = ask(t, seats, error, seat, fairies, n)
    mask = t.choices[k, C_MASK]
    look = t.choices[k, C_LOOK]
    play_fairies(t, seat, mask, t.choices[k, C_VALUE])
    bottom = t.counters[bottom_slot]
    for j in range(look):
        left -= 1
        t.seen[j] = deck[(bottom + left) & RING_MASK]
    v[left_slot] = left
    if look == 0:
        return NO_CARD
    n = pick_choices(t.seen, look, t.choices)
    kept = t.choices[ask(t, seats, error, seat, pick, n), C_CARD]
    skipped = False
    for j in range(look):
        card = t.seen[j]
        if card == kept and not skipped:  # the first seen of its kind is kept
            skipped = True
            continue
        bottom = (bottom - 1) & RING_MASK
        deck[bottom] = card
        left += 1
    t.counters[bottom_slot] = bottom
    v[left_slot] = left
    return kept


@nb.njit(cache=True, inline="always")
def gain_item(v, seat, item):
    """``seat`` takes court item ``item`` face up; a permanent item acts from now on (L13)."""
    v[V_ITEMS_HELD + seat] |= 1 << item
    v[V_ITEM_STATE + item] = seat
    primitive = item_field(v, item, IT_PRIMITIVE)
    if primitive == BID_BONUS:
        v[V_BID_BONUS + seat] += item_field(v, item, IT_AMOUNT)
    elif primitive == VISIT_BONUS:
        v[V_VISIT_BONUS + seat] += item_field(v, item, IT_AMOUNT)
    elif primitive == OGRE_WARD:
        v[V_OGRE_WARD + seat] = 1


@nb.njit(cache=True, inline="always")
def use_item(t, seat, item, seats, error):
    """Use a usable item; it leaves the game first (L13, L18)."""
    v = t.public
    bit = 1 << item
    v[V_ITEMS_HELD + seat] &= ~bit
    v[V_ITEM_STATE + item] = ITEM_USED
    t.stats[seat, ITEMS_USED] |= bit
    primitive = item_field(v, item, IT_PRIMITIVE)
    amount = item_field(v, item, IT_AMOUNT)
    if primitive == NET:  # take 1 card of your choice from any clearing, as if explored
        n = net_choices(v[V_CLEARING : V_CLEARING + CLEARINGS * N_CARD_TYPES], t.choices)
        k = ask(t, seats, error, seat, NET_TAKE, n)
        c = t.choices[k, C_CLEARING]
        card = t.choices[k, C_CARD_NET]
        v[V_CLEARING + c * N_CARD_TYPES + card] -= 1
        v[V_CLEARING_SIZE + c] -= 1
        gain_card(t, seat, card, seats, error)
    elif primitive == BROOM:  # discard all cards of one non-empty clearing
        n = broom_choices(v[V_CLEARING_SIZE : V_CLEARING_SIZE + CLEARINGS], t.choices)
        discard_clearing(t, t.choices[ask(t, seats, error, seat, BROOM_SWEEP, n), C_CLEARING])
    elif primitive == GOBLIN_TRAP:  # discard up to `amount` goblins held
        row = V_COLLECTED + seat * N_CARD_TYPES + GOBLIN
        caught = min(amount, v[row])
        v[row] -= caught
        t.counters[BOX] += caught
    elif primitive == HORN_OF_RECALL:  # return 1 to `amount` played fairies to the hand
        n = horn_choices(v[V_PLAYED + seat], amount, t.choices)
        mask = t.choices[ask(t, seats, error, seat, HORN_RECALL, n), C_MASK]
        v[V_PLAYED + seat] &= ~mask
        v[V_HAND + seat] |= mask
    elif primitive == DRUIDS_KEY:  # the top Druid card, as a Druid card
        left = v[V_DRUIDS_LEFT] - 1
        v[V_DRUIDS_LEFT] = left
        card = t.druids[(t.counters[DRUID_BOTTOM] + left) & RING_MASK]
        gain_card(t, seat, card, seats, error)


@nb.njit(cache=True, inline="always")
def day_choice(t, seat, n_players, seats, error, scratch, search):
    """The row of the action ``seat`` takes among explore clearing 0, 1, 2 (always), the Queen,
    the Druids, the Crest, each usable item held whose effect changes something (L4, L16). A
    searching seat's action is searched (``search``, :func:`searched_choice`)."""
    v = t.public
    sizes = v[V_CLEARING_SIZE] + v[V_CLEARING_SIZE + 1] + v[V_CLEARING_SIZE + 2]
    n = day_choices(
        v[V_HAND + seat],
        v[V_PLAYED + seat],
        v[V_CRESTS + seat],
        v[V_ITEMS_HELD + seat],
        v[V_ITEM_TABLE : V_ITEM_TABLE + MAX_COURT_ITEMS * ITEM_FIELDS],
        sizes > 0,
        v[V_COLLECTED + seat * N_CARD_TYPES + GOBLIN],
        v[V_COURT_LEFT],
        v[V_DRUIDS_LEFT],
        t.choices,
    )
    if seats.policy_ids[seat] == GREEDY:  # the greedy shortcut (shortcuts/greedy.py)
        k = day_answer(v, t.choices, n, seat, seats.weights[seat])
    elif seats.policy_ids[seat] == VALUE_BIDDER:  # the value-bidder shortcut
        weights = seats.weights[seat]
        known = t.counters[KNOWN]
        k = value_bidder.day_answer(v, t.choices, n, seat, weights, t.worth, t.relief, known)
        t.counters[KNOWN] = known | value_bidder.known_bits(seat)
    else:
        k = ask(t, seats, error, seat, DAY, n)
    if search is not None:
        k = searched_choice(t, scratch, seat, DAY, n, k, seats.policies, search)
    return k


@nb.njit(cache=True, inline="always")
def day_act(t, seat, k, n_players, seats, error):
    """Take the action of Day choice row ``k``."""
    v = t.public
    action = t.choices[k, C_ACTION]
    arg = t.choices[k, C_ARG]
    if action == ACT_EXPLORE:
        explore(t, seat, arg, n_players, seats, error)
    elif action == ACT_QUEEN:  # keep one item face up (L7, L13)
        t.stats[seat, QUEEN_VISITS] += 1
        item = visit(
            t, seat, t.court, COURT_BOTTOM, V_COURT_LEFT, QUEEN_FAIRIES, QUEEN_PICK, seats, error
        )
        if item != NO_CARD:
            gain_item(v, seat, item)
    elif action == ACT_DRUIDS:  # keep one card, taken as if explored (L7, L17)
        t.stats[seat, DRUID_VISITS] += 1
        card = visit(
            t, seat, t.druids, DRUID_BOTTOM, V_DRUIDS_LEFT, DRUID_FAIRIES, DRUID_PICK, seats, error
        )
        if card != NO_CARD:
            gain_card(t, seat, card, seats, error)
    elif action == ACT_CREST:  # every played fairy returns to the hand (L8)
        v[V_CRESTS + seat] -= 1
        t.stats[seat, CRESTS_USED] += 1
        v[V_HAND + seat] |= v[V_PLAYED + seat]
        v[V_PLAYED + seat] = 0
    else:
        use_item(t, seat, arg, seats, error)


# --- A whole game ---------------------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def sunset(t):
    """Every clearing holding 6 cards or more is emptied into the box (L9)."""
    for c in range(CLEARINGS):
        if t.public[V_CLEARING_SIZE + c] >= OVERCROWDED:
            discard_clearing(t, c)


@nb.njit(cache=True, inline="always")
def final_scoring(t, n_players):
    """Score every seat in half points (L11, L13) and rank them (L12) into the table."""
    v = t.public
    face_value = v[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES]
    for s in range(n_players):
        t.hand_value[s] = mask_value(v[V_HAND + s], face_value)
        t.last_turn[s] = t.stats[s, LAST_TURN]
    score_parts(
        v[V_COLLECTED : V_COLLECTED + MAX_SEATS * N_CARD_TYPES],
        t.hand_value,
        v[V_ITEMS_HELD : V_ITEMS_HELD + MAX_SEATS],
        n_players,
        v[V_MAJORITY : V_MAJORITY + N_ANIMALS],
        v[V_ITEM_TABLE : V_ITEM_TABLE + MAX_COURT_ITEMS * ITEM_FIELDS],
        t.parts,
    )
    for s in range(n_players):
        total = 0
        for p in range(N_PARTS):
            total += t.parts[s, p]
        t.score[s] = total
    rank_seats(t.score, t.hand_value, t.last_turn, n_players, t.rank)


@nb.njit(cache=True, inline="always")
def write_outcome(t, n_players, out, row):
    """Write game row ``row`` of ``out`` (see :data:`OUTCOME_COLUMNS`); points are half points
    halved."""
    v = t.public
    start = v[V_START_SEAT]
    court_held = 0
    for s in range(n_players):
        out.score[row, s] = 0.5 * t.score[s]
        for p in range(N_PARTS):
            out.parts[row, s, p] = 0.5 * t.parts[s, p]
        out.rank[row, s] = t.rank[s]
        out.win_share[row, s] = 1.0 if t.rank[s] == 1 else 0.0
        out.turn_position[row, s] = (s - start + n_players) % n_players
        out.hand_value[row, s] = t.hand_value[s]
        hand = v[V_HAND + s]
        played = v[V_PLAYED + s]
        out.hand_mask[row, s] = hand
        out.played_mask[row, s] = played
        for i in range(N_CARD_TYPES - FIRST_FOREST_TYPE):
            card = FIRST_FOREST_TYPE + i
            count = v[V_COLLECTED + s * N_CARD_TYPES + card]
            if ((hand | played) >> card) & 1:  # a special fairy the seat owns
                count += 1
            out.collected[row, s, i] = count
        held = v[V_ITEMS_HELD + s]
        used = t.stats[s, ITEMS_USED]
        out.items_held_mask[row, s] = held
        out.items_used_mask[row, s] = used
        out.items_held[row, s] = popcount(held)
        out.items_used[row, s] = popcount(used)
        court_held += popcount(held) + popcount(used)
        out.auctions_won[row, s] = t.stats[s, AUCTIONS_WON]
        out.fairies_paid[row, s] = t.stats[s, FAIRIES_PAID]
        out.value_paid[row, s] = t.stats[s, VALUE_PAID]
        out.queen_visits[row, s] = t.stats[s, QUEEN_VISITS]
        out.druid_visits[row, s] = t.stats[s, DRUID_VISITS]
        out.crests_used[row, s] = t.stats[s, CRESTS_USED]
        out.ogres_gained[row, s] = t.stats[s, OGRES_GAINED]
    out.start_seat[row] = start
    out.turns[row] = v[V_TURN]
    out.auctions[row] = t.counters[AUCTIONS]
    out.unbid_clearings[row] = t.counters[UNBID]
    out.court_items[row] = t.counters[COURT_ITEMS]
    clearing_cards = v[V_CLEARING_SIZE] + v[V_CLEARING_SIZE + 1] + v[V_CLEARING_SIZE + 2]
    owned = 0
    for s in range(n_players):
        for i in range(N_CARD_TYPES - FIRST_FOREST_TYPE):
            owned += out.collected[row, s, i]
    out.forest_left[row] = v[V_FOREST_LEFT]
    out.druids_left[row] = v[V_DRUIDS_LEFT]
    out.clearing_cards[row] = clearing_cards
    out.box[row] = t.counters[BOX]
    out.forest_accounted[row] = (
        v[V_FOREST_LEFT] + v[V_DRUIDS_LEFT] + clearing_cards + t.counters[BOX] + owned
    )
    out.court_left[row] = v[V_COURT_LEFT]
    out.court_accounted[row] = v[V_COURT_LEFT] + court_held


@nb.njit(cache=True, inline="always")
def end_turn(t, seat, n_players):
    """Sunset and the next seat's turn; True when the game is over: it ends with the turn whose
    Dawn drew the last forest card (L10)."""
    v = t.public
    sunset(t)
    v[V_TURN] += 1
    if v[V_FOREST_LEFT] == 0:
        return True
    v[V_ACTIVE] = seat + 1 if seat + 1 < n_players else 0
    return False


@nb.njit(cache=True, _nrt=False)
def play_turns(t, n_players, seats, error, scratch, search):
    """Play the game on to its end (not scored) from the active seat's turn: from its Dawn, or,
    on a table a search plays out (:func:`play_out`), from the choice
    ``counters[RESUME]`` says is made (``counters[RESUME_CHOICE]``)."""
    v = t.public
    while True:
        seat = v[V_ACTIVE]
        resume = t.counters[RESUME]
        t.counters[RESUME] = TURN_START
        if resume == TURN_START:
            t.stats[seat, LAST_TURN] = v[V_TURN]
            k = dawn_choice(t, seat, seats, error, scratch, search)
        else:
            k = t.counters[RESUME_CHOICE]
        if resume != DAY_CHOSEN:
            dawn_place(t, k)
            k = day_choice(t, seat, n_players, seats, error, scratch, search)
        day_act(t, seat, k, n_players, seats, error)
        over = end_turn(t, seat, n_players)
        # A round ends when every seat has had a turn from the starting seat; the game's last
        # turn ends the last round, whole or not (ruling PL11). A play-out never traces.
        if t.counters[TRACING] and (over or v[V_TURN] % n_players == 0):
            record_standing(t, n_players)
        if over:
            return


@nb.njit(cache=True)
def record_standing(t, n_players):
    """Ruling PL11: every seat's standing after the round just ended into ``t.standing`` (half
    points), the score :func:`final_scoring` gives it if the game ended now. The scoring arrays
    (``t.parts``, ``t.score``, ``t.hand_value``, ``t.last_turn``, ``t.rank``) are scratch until
    the game's own final scoring; nothing the game reads changes. (Not inlined: a trace's cost
    stays out of the turn loop's code.)"""
    final_scoring(t, n_players)
    r = (t.public[V_TURN] - 1) // n_players
    for s in range(n_players):
        t.standing[s, r] = t.score[s]


@nb.njit(cache=True, inline="always")
def write_trace(t, n_players, trace, row):
    """Copy the standings of the finished game on ``t`` into row ``row`` of ``trace`` (its
    ``trace.shape[2]`` rounds, the most a game of the run can have); rounds past a shorter
    game's last repeat its final score (ruling PL11)."""
    last = (t.public[V_TURN] - 1) // n_players
    for s in range(n_players):
        for r in range(trace.shape[2]):
            trace[row, s, r] = t.standing[s, min(r, last)]


@nb.njit(cache=True, inline="always")
def play_game(
    t, seed, game, n_players, crests, force, seats, error, logging, tracing, scratch, search
):
    """Play game ``game`` into the table, its auctions logged in ``t.auction_log`` when
    ``logging`` and each seat's standing after each round recorded in ``t.standing`` when
    ``tracing`` (ruling PL11), under the card-effect intervention ``force`` (none when
    ``force[0] == 0``); True unless a policy answered illegally."""
    setup_game(t, seed, game, n_players, crests, force)
    t.counters[LOGGING] = logging
    t.counters[TRACING] = tracing
    play_turns(t, n_players, seats, error, scratch, search)
    final_scoring(t, n_players)
    return t.counters[FAILED] == 0


# Called, not inlined into the worker: inlined, the game loop ran under the worker's reference
# counting, a random-seat game 17% slower, for ~4 s less of a cold compile.
@nb.njit(cache=True, _nrt=False)
def play_block(
    t,
    seed,
    first_game,
    lo,
    hi,
    n_players,
    crests,
    force,
    seats,
    out,
    log,
    trace,
    forced,
    error,
    scratch,
    search,
):
    """Play games ``first_game + lo .. first_game + hi - 1`` into rows ``lo .. hi - 1``, their
    auctions into ``log[lo .. hi - 1]`` unless ``log`` has no rows, and each seat's standing
    after each round into ``trace[lo .. hi - 1]`` unless ``trace`` has no rows (ruling PL11);
    under a card-effect intervention (``force``) row ``row`` of ``forced`` gets the game's
    ``(held, done)`` (:func:`force_card`). A game whose policy answers illegally stops the
    block, its record saying where and why."""
    logging = log.shape[0] > 0
    tracing = trace.shape[0] > 0
    forcing = force[FORCE_CARD] > 0
    for row in range(lo, hi):
        game = first_game + row
        if not play_game(
            t, seed, game, n_players, crests, force, seats, error[1:], logging, tracing,
            scratch, search,
        ):  # fmt: skip
            error[ERROR_ROW] = row
            return
        write_outcome(t, n_players, out, row)
        if tracing:
            write_trace(t, n_players, trace, row)
        if forcing:
            forced[row, 0] = t.counters[FORCED_HELD]
            forced[row, 1] = t.counters[FORCED_DONE]
        if logging:
            for i in range(t.counters[AUCTIONS]):
                for k in range(N_LOG_FIELDS):
                    log[row, i, k] = t.auction_log[i, k]


@nb.njit(cache=True, nogil=True)
def play_games(
    seed,
    first_game,
    n_players,
    policy_ids,
    policies,
    reads_view,
    weights,
    forest_counts,
    face_value,
    majority,
    crests,
    item_table,
    force,
    out,
    auction_log,
    trace,
    forced,
    errors,
    queue,
    search,
):
    """One worker's share of games ``first_game .. first_game + len(out.score) - 1``.

    Every worker thread of :func:`fairysim.sim.blocks.run_workers` calls this with the same
    arrays and ``queue``; each plays on a table of its own the blocks of
    :data:`.blocks.GAMES_PER_BLOCK` games it claims as it comes free. ``errors`` holds one
    record per block (:func:`fairysim.sim.batch.new_error_records`). Results depend only on
    (seed, game).

    Parameters
    ----------
    forest_counts : int64[N_CARD_TYPES]
        The card file's forest (copies of each type).
    face_value : int64[N_FAIRY_TYPES]
    majority : int64[N_ANIMALS]
    crests : int
        Fairy Crests per seat at this table.
    item_table : int64[court items, ITEM_FIELDS]
        The court the game's 9 items are drawn from.
    force : int64[FORCE_SIZE]
        A card-effect intervention (ruling PL10): ``force[FORCE_CARD]`` the card (0: none),
        ``force[FORCE_SEAT]`` the seat.; ``force[FORCE_REMOVED]`` a forest card type taken out of
        every game's shuffled forest (ruling PL12; 0: none).
    auction_log : int64[games, most_auctions(forest cards), N_LOG_FIELDS] or int64[0, 1, ...]
        Each game's auctions in order (``out.auctions`` rows of them), or nothing logged when
        it has no rows.
    trace : int64[games, seats, most_rounds(forest cards, players)] or int64[0, 1, 1]
        Each seat's standing after each round of turns, half points (ruling PL11), or nothing
        recorded when it has no rows.
    forced : int8[games, 2] or int8[1, 2]
        Under an intervention, each game's ``(held, done)`` (:func:`force_card`); else unused.
    search : .search.SearchContext or None
        The searching seats and their play-outs (:mod:`.rollout`); None when no seat searches.
    """
    n_games = out.score.shape[0]
    n_blocks = block_count(n_games, GAMES_PER_BLOCK)
    # The game loop works on borrowed views (fairysim.sim.borrow); the worker's table (``owner``)
    # and the caller's arrays outlive them (``keep_alive``).
    owner = new_table(forest_counts, item_table, face_value, majority)
    det = new_table(forest_counts, item_table, face_value, majority)
    work = new_table(forest_counts, item_table, face_value, majority)
    totals = np.zeros(MAX_CHOICES, np.float64)
    scratch = Scratch(borrowed_fields(det), borrowed_fields(work), borrowed(totals))
    seats = SeatPolicies(borrowed(policy_ids), policies, borrowed(reads_view), borrowed(weights))
    t, block_out = borrowed_fields(owner), borrowed_fields(out)
    block_errors = borrowed(errors)
    block_log = borrowed(auction_log)
    block_trace = borrowed(trace)
    block_force = borrowed(force)
    block_forced = borrowed(forced)
    block = claim_block(queue)
    while block < n_blocks:
        lo, hi = block_rows(block, GAMES_PER_BLOCK, n_games)
        play_block(
            t,
            seed,
            first_game,
            lo,
            hi,
            n_players,
            crests,
            block_force,
            seats,
            block_out,
            block_log,
            block_trace,
            block_forced,
            block_errors[block],
            scratch,
            search,
        )
        block = claim_block(queue)
    keep_alive(owner)
    keep_alive(det)
    keep_alive(work)
    keep_alive(totals)


N_FOREST_TYPES = N_CARD_TYPES - FIRST_FOREST_TYPE

OUTCOME_COLUMNS = {
    # name: (dtype, per-seat shape); None: per game, shape (games,). Points are exact halves.
    "score": (np.float32, ()),  # points
    "parts": (np.float32, (N_PARTS,)),  # points of each of rules.PART_NAMES
    "rank": (np.int8, ()),  # 1 = winner (L12: no ties)
    "win_share": (np.float64, ()),
    "turn_position": (np.int8, ()),  # 0 = the starting player (L18)
    "hand_value": (np.int16, ()),  # fairies in hand at face value (applause, tie-break)
    "collected": (np.int16, (N_FOREST_TYPES,)),  # forest cards owned by type (specials too)
    "items_held": (np.int8, ()),  # court items held at the end (permanent, end-game, unused)
    "items_used": (np.int8, ()),  # usable items used
    "items_held_mask": (np.uint32, ()),  # bit i = court item i of the court file
    "items_used_mask": (np.uint32, ()),
    "auctions_won": (np.int16, ()),
    "fairies_paid": (np.int16, ()),  # fairy cards played (auctions, Queen, Druids)
    "value_paid": (np.int16, ()),  # the values they were played for
    "queen_visits": (np.int16, ()),
    "druid_visits": (np.int16, ()),
    "crests_used": (np.int8, ()),
    "ogres_gained": (np.int8, ()),  # ogres taken (a Warrior's are never taken, L5)
    "hand_mask": (np.int16, ()),  # bookkeeping: fairy bitmasks at the end
    "played_mask": (np.int16, ()),
    "start_seat": (np.int8, None),
    "turns": (np.int16, None),
    "auctions": (np.int16, None),  # auctions held (clearings with cards explored)
    "unbid_clearings": (np.int16, None),  # auctions nobody bid in
    "court_items": (np.uint32, None),  # bitmask of the game's 9 court items
    "forest_left": (np.int16, None),  # bookkeeping from here: where every card ended
    "druids_left": (np.int16, None),
    "clearing_cards": (np.int16, None),
    "box": (np.int16, None),
    "forest_accounted": (np.int16, None),  # every forest card found somewhere
    "court_left": (np.int16, None),
    "court_accounted": (np.int16, None),  # the game's court items found somewhere
}
"""Outcome arrays: dtype, and the shape after ``(games, seats)`` (None: per game)."""

Outcome = namedtuple("Outcome", list(OUTCOME_COLUMNS))


def new_outcome(games: int, seats: int) -> Outcome:
    """Allocate the outcome arrays of a chunk of ``games`` games at a table of ``seats``
    (uninitialised: :func:`write_outcome` writes every value of a game's row)."""
    return Outcome(
        **{
            name: np.empty((games,) if tail is None else (games, seats, *tail), dtype)
            for name, (dtype, tail) in OUTCOME_COLUMNS.items()
        }
    )


# --- The search (:mod:`fairysim.sim.search`): the play-out resumes the loop above ---------------

PlayoutContext = namedtuple("PlayoutContext", ["search", "functions"])
"""The context the search contract's functions get: the run's :data:`SearchContext` and its
seats' function tuple (entry ``s``: searching seat ``s``'s play-out policy)."""

assert MAX_SEATS == 4  # play_out seats a play-out policy's function as a 4-tuple


@nb.njit(cache=True)
def play_out(t, seat, choice, context):
    """The search contract's play-out: ``choice`` at the pending decision, then the rest of the
    game with every seat playing ``seat``'s play-out policy."""
    t.counters[LOGGING] = 0
    t.counters[TRACING] = 0  # the standings are the real game's (ruling PL11)
    t.counters[KNOWN] = 0  # value-bidder's values were the pending choice's default
    t.counters[RESUME] = DAWN_CHOSEN if t.counters[PENDING] == DAWN else DAY_CHOSEN
    t.counters[RESUME_CHOICE] = choice
    search = context.search
    f = context.functions[seat]
    seats = SeatPolicies(
        search.playout_ids[seat],
        (f, f, f, f),
        search.playout_reads[seat],
        search.playout_weights[seat],
    )
    # play_turns as the ordinary game compiles it: no search, a scratch of its type never read
    n_players = search.players
    play_turns(t, n_players, seats, search.error[1:], Scratch(t, t, t.gains), None)
    final_scoring(t, n_players)
    return 1.0 if t.rank[seat] == 1 else 0.0


rollout_search = make_rollout_search(copy_table, redraw_hidden, play_out)


def compile_play_out(table, search: SearchContext, functions: tuple) -> None:
    """Compile :func:`play_out` for a run's types (``table`` a table of the run's worker type)
    before the kernel that searches is compiled.

    Compiled from inside that kernel, while :func:`play_turns` is being compiled for
    the search, numba would take its call of ``play_turns`` (without search) for recursion and
    leave the symbol to be resolved in the process: the kernel ran where it was compiled and
    crashed when a new process loaded it from the cache. Compiled first, it is linked in."""
    context = PlayoutContext(search, functions)
    play_out.compile((nb.typeof(table), nb.types.int64, nb.types.int64, nb.typeof(context)))


@nb.njit(cache=True)
def searched_choice(t, scratch, seat, pending, n, default, functions, search):
    """The choice ``seat`` makes at its pending Dawn or Day (``pending``) of ``n`` rows, its
    play-out policy having answered ``default``: the search's, where the seat searches.
    ``functions`` is the run's function tuple."""
    rollouts = search.rollouts[seat]
    if rollouts <= 0 or n <= 1:
        return default
    t.counters[PENDING] = pending
    t.counters[PENDING_N] = n
    return rollout_search(
        t,
        scratch.det,
        scratch.work,
        seat,
        n,
        default,
        rollouts,
        t.policy_rng[seat],
        scratch.totals,
        PlayoutContext(search, functions),
    )
