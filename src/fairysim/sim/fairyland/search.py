"""Fairy Land's side of the ``rollout`` search (:mod:`fairysim.sim.search`): copy a table, redraw
what a seat cannot see, and the context a run that seats ``rollout`` passes.

The split follows Fantastique's (:mod:`fairysim.sim.fantastique.search`): what a search needs
that the game loop does not is here, importing nothing of the engine; the play-out
(:func:`.engine.play_out`), which resumes the engine's turn loop, and the search itself
(:func:`.engine.searched_choice`, :data:`.engine.rollout_search`) are in :mod:`.engine`.

What is searched
----------------
A searching seat searches its **Dawn** (where the two cards drawn go, L3) and its **Day** (which
action it takes, L4, L16): a turn's two choices of what to do, about 6 to 9 rows each. Every
other decision of the seat (its bids and payments, the fairies it plays at the Queen or the
Druids and what it keeps there, its ogre victims, the items' choices) is made by its play-out
policy, as are all decisions of the play-outs. A game offers some 190 decisions with about 23
choices each, most of them bids (up to a purse's worth of rows) and payments (every subset of
the hand that pays), and a flat search of them all would cost hours per 100,000 games; the Dawn
and the Day are about a fifth of the decisions and decide what the auctions are about, and the
bids and payments are what value-bidder (the default play-out policy, Fairy Land's best
heuristic) was written for.

At a searched decision the seat is first answered by its play-out policy (the engine's own
shortcut for greedy and value-bidder, the same answers the policy gives), then
:func:`.engine.searched_choice` runs the search with ``rollouts`` (K) determinizations, every legal
choice played out on each. K = 0, or a decision with one legal choice, plays exactly as the
play-out policy, draw for draw.

What a seat knows (the determinization)
---------------------------------------
A seat knows its view (:data:`.rules.VIEW_FIELDS`, ruling PL2) and remembers nothing the view
does not show. Every hand is public (PL2), so the hidden cards are: the forest deck's order and
contents, the Druid deck's, and the box's (cards discarded at Sunset, by the Broom, unbid
auctions, ogres and their victims, goblins trapped), all drawn from the forest; and which court
items are in the Queen's Court deck, in which order (an item not held or used may be in the
deck or out of the game, L2, L13: the court is PROVISIONAL, and the search reads it like any
court file). Cards seen at a Queen or Druid visit and not kept are not remembered.
:func:`redraw_hidden` therefore pools the forest cards the view does not place (the card file's
forest less the clearings, the collections, the special fairies in hands or played and the
Dawn's cards in hand) and deals them back as the forest deck and the Druid deck, of their
sizes, the rest being the box; and pools the court items in no seat's hands and not used, and
deals the court deck's size of them back. So every determinization agrees with the view.

The play-outs
-------------
:func:`.engine.play_out` makes the choice on a copy of the table and plays the game to its end
with :func:`.engine.play_turns`, the ordinary loop compiled with no search, every seat playing the
searching seat's play-out policy; it returns the seat's win share (ties are broken by L12, so
it is 1 or 0). A play-out logs no auction and records no standing.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Sequence

import numba as nb
import numpy as np

from fairysim.sim.blocks import ERROR_RECORD
from fairysim.sim.fairyland.policies import POLICIES
from fairysim.sim.fairyland.rules import (
    CHOICE_WIDTH,
    CLEARINGS,
    DAWN_DRAW,
    FIRST_FOREST_TYPE,
    ITEM_UNSEEN,
    MAX_SEATS,
    N_CARD_TYPES,
    NO_CARD,
    V_CLEARING,
    V_COLLECTED,
    V_COURT_LEFT,
    V_DAWN_CARDS,
    V_DRUIDS_LEFT,
    V_FOREST_LEFT,
    V_HAND,
    V_ITEM_STATE,
    V_ITEM_TABLE,
    V_PLAYED,
    is_special,
)
from fairysim.sim.policy import MAX_WEIGHTS, Policy, seat_policies
from fairysim.sim.rng import (
    DEAL_STREAM,
    FIRST_POLICY_STREAM,
    RNG_COUNTER,
    RNG_KEY,
    key_of_stream,
    shuffle_prefix,
)
from fairysim.sim.search import ROLLOUTS, copy_1d, playout_policy

ROLLOUT = POLICIES["rollout"].builtin_id

RING = 16
"""Slots of the Druid and court deck rings (``Table.druids``, ``Table.court``): a power of two
above the 9 cards of a deck (L2)."""
RING_MASK = RING - 1

# Table.counters slots that the copy and the determinization read (:mod:`.engine` lays out the
# rest around them).
DRUID_BOTTOM = 4  # ring slot of the Druid deck's bottom card
COURT_BOTTOM = 5  # ring slot of the court deck's bottom item
PENDING_N = 12  # a search's pending choice rows (the rows of Table.choices a copy needs)

SearchContext = namedtuple(
    "SearchContext",
    [
        "players",  # int: seats at the table
        "rollouts",  # int64[MAX_SEATS]: K of each searching seat, 0 for a seat that does not
        "playout_ids",  # int64[MAX_SEATS, MAX_SEATS]: row s, the ids seat s plays out with
        "playout_reads",  # bool[MAX_SEATS, MAX_SEATS]
        "playout_weights",  # float64[MAX_SEATS, MAX_SEATS, MAX_WEIGHTS]
        "forest_counts",  # int64[N_CARD_TYPES]: the card file's forest (the determinizations)
        "error",  # int64[ERROR_RECORD]: the play-outs' error record (built-ins never fill it)
    ],
)
"""The search context of a run that seats ``rollout`` (:func:`search_context`): row ``s`` of
the play-out arrays seats the play-out policy of searching seat ``s`` at every seat. Arrays only:
the play-outs' functions are the run's own function tuple (a searching seat is seated as its
play-out policy), joined to the context at the decision (:data:`.engine.PlayoutContext`)."""


# --- The search contract ---------------------------------------------------------------------


@nb.njit(cache=True, inline="always")
def copy_array(src, dst, n):
    for i in range(n):
        dst[i] = src[i]


@nb.njit(cache=True)
def copy_table(src, dst):
    """``dst`` becomes ``src`` as far as the rest of the game reads it: the view's dynamic part,
    the pending decision's choice rows, the decks, the policies' per-turn values, the counters,
    the stats and the random streams. The static parts (the view's tail, the sorted forest) are
    the same on every table of a worker; the auction log and the scoring arrays are not copied
    (a play-out logs nothing and scores afresh)."""
    copy_array(src.public, dst.public, V_ITEM_TABLE)
    for r in range(src.counters[PENDING_N]):
        for c in range(CHOICE_WIDTH):
            dst.choices[r, c] = src.choices[r, c]
    copy_array(src.forest, dst.forest, src.public[V_FOREST_LEFT])
    copy_1d(src.druids, dst.druids)
    copy_1d(src.court, dst.court)
    copy_array(src.gains, dst.gains, len(src.gains))
    for s in range(MAX_SEATS):
        for c in range(CLEARINGS):
            dst.worth[s, c] = src.worth[s, c]
            dst.relief[s, c] = src.relief[s, c]
        for k in range(src.stats.shape[1]):
            dst.stats[s, k] = src.stats[s, k]
        dst.policy_rng[s, RNG_KEY] = src.policy_rng[s, RNG_KEY]
        dst.policy_rng[s, RNG_COUNTER] = src.policy_rng[s, RNG_COUNTER]
    copy_1d(src.counters, dst.counters)
    dst.deal_rng[RNG_KEY] = src.deal_rng[RNG_KEY]
    dst.deal_rng[RNG_COUNTER] = src.deal_rng[RNG_COUNTER]


@nb.njit(cache=True)
def redraw_hidden(t, seat, key, context):
    """Redraw what no seat sees (module docstring), consistent with the view, and reseed the
    deal stream and every seat's policy stream from ``key``. ``seat`` is not read: every seat
    sees the same table (PL2)."""
    v = t.public
    t.deal_rng[RNG_KEY] = key_of_stream(key, DEAL_STREAM)
    t.deal_rng[RNG_COUNTER] = np.uint64(0)
    for s in range(MAX_SEATS):
        t.policy_rng[s, RNG_KEY] = key_of_stream(key, FIRST_POLICY_STREAM + s)
        t.policy_rng[s, RNG_COUNTER] = np.uint64(0)
    # The forest cards the view does not place: the forest deck, the Druid deck and the box.
    unseen = t.taken  # scratch of the table's auctions
    for card in range(N_CARD_TYPES):
        unseen[card] = context.search.forest_counts[card]
    for c in range(CLEARINGS):
        for card in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
            unseen[card] -= v[V_CLEARING + c * N_CARD_TYPES + card]
    for s in range(context.search.players):
        owned = v[V_HAND + s] | v[V_PLAYED + s]
        for card in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
            unseen[card] -= v[V_COLLECTED + s * N_CARD_TYPES + card]
            if is_special(card) and (owned >> card) & 1:
                unseen[card] -= 1
    for i in range(DAWN_DRAW):
        if v[V_DAWN_CARDS + i] != NO_CARD:
            unseen[v[V_DAWN_CARDS + i]] -= 1
    pool = t.forest
    m = 0
    for card in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
        for _ in range(unseen[card]):
            pool[m] = card
            m += 1
    shuffle_prefix(t.deal_rng, pool, m)
    # pool[:forest_left] is the forest deck (top last); the Druid deck takes the next cards.
    forest_left = v[V_FOREST_LEFT]
    bottom = t.counters[DRUID_BOTTOM]
    for j in range(v[V_DRUIDS_LEFT]):
        t.druids[(bottom + j) & RING_MASK] = pool[forest_left + j]
    # The court items in no seat's hands and not used: the court deck and those out of the game.
    items = t.court_all  # read only at setup
    m = 0
    for i in range(len(items)):
        if v[V_ITEM_STATE + i] == ITEM_UNSEEN:
            items[m] = i
            m += 1
    shuffle_prefix(t.deal_rng, items, m)
    bottom = t.counters[COURT_BOTTOM]
    for j in range(v[V_COURT_LEFT]):
        t.court[(bottom + j) & RING_MASK] = items[j]


# --- A run's context ----------------------------------------------------------------------------


def is_rollout(policy: Policy) -> bool:
    """Whether ``policy`` is the ``rollout`` built-in."""
    return policy.builtin_id == ROLLOUT


def search_context(
    policies: Sequence[Policy], players: int, forest_counts: np.ndarray
) -> tuple[tuple[Policy, ...], SearchContext | None]:
    """The lineup the engine seats and the search context of a run of ``policies``: a
    ``rollout`` seat is seated as its play-out policy (at its default weights), which answers
    every decision the search leaves to it; None for the context where no seat searches."""
    if not any(is_rollout(p) for p in policies):
        return tuple(policies), None
    seated = tuple(playout_policy(POLICIES, p) if is_rollout(p) else p for p in policies)
    rollouts = np.zeros(MAX_SEATS, np.int64)
    ids = np.zeros((MAX_SEATS, MAX_SEATS), np.int64)
    reads = np.zeros((MAX_SEATS, MAX_SEATS), np.bool_)
    weights = np.zeros((MAX_SEATS, MAX_SEATS, MAX_WEIGHTS), np.float64)
    for seat in range(MAX_SEATS):
        p = policies[seat] if seat < len(policies) else policies[0]
        playout = playout_policy(POLICIES, p) if is_rollout(p) else seated[seat % len(seated)]
        if is_rollout(p):
            rollouts[seat] = int(p.weights[ROLLOUTS])
        row = seat_policies([playout] * players, MAX_SEATS)
        ids[seat], reads[seat], weights[seat] = row.ids, row.reads_view, row.weights
    context = SearchContext(
        players,
        rollouts,
        ids,
        reads,
        weights,
        np.ascontiguousarray(forest_counts, dtype=np.int64),
        np.full(ERROR_RECORD, -1, np.int64),
    )
    return seated, context


__all__ = [
    "COURT_BOTTOM",
    "DRUID_BOTTOM",
    "PENDING_N",
    "RING",
    "RING_MASK",
    "ROLLOUT",
    "SearchContext",
    "copy_table",
    "is_rollout",
    "redraw_hidden",
    "search_context",
]
