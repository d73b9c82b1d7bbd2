"""Greedy tables played in lanes: a batch of solo or 3-4 player games side by side.

One module past 600 lines: the lane state, the draft step and the solo keep share one row
layout; apart, each would need the others to be read.

When every seat of a 3-4 player table plays ``greedy`` (the benchmark's table, and the baseline of
the balance report), or the solo player does, every decision is the same arithmetic for every
game. This engine plays ``LANES`` games at once and works out a seat's token pick (or the solo
player's keep) for all of them in loops over the games whose bodies have no branch on the data,
which LLVM turns into vector instructions. The one-game engine (:mod:`.engine`) spends most of a
game in the same decisions one at a time, a long chain of small dependent steps with a
mispredicted branch wherever the tokens surprise the predictor (docs/architecture.md, "Lanes").

Each game is the same game as the one-game engine plays, draw for draw: tests compare the two
engines game by game, and the one-game engine is compared with :mod:`.reference`. The picks of a
step are worked out from the lane state, a flat ``int64`` array with a row (``LANES`` values)
per field (:data:`ORCHESTRA`, :data:`HANDS`, the needs of the held score cards ...), indexed
``field * LANES + lane``: a row stride LLVM knows, so it can tell rows apart.

What is rare or per game stays one game at a time, on the one-game engine's own functions over
each game's :class:`.engine.Table` (:func:`lane_table`): the setup, the setup score card each
seat keeps on the first pick, the composers' score cards (C4), Pahha's face-down cards (C8) and
the final scoring.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numba as nb
import numpy as np

from fairysim.sim.blocks import block_count, block_rows, claim_block, worker_count
from fairysim.sim.borrow import borrowed, borrowed_fields, keep_alive
from fairysim.sim.concerto.engine import (
    HARPIST,
    PIANIST,
    POPULARITY,
    SOLOIST,
    Table,
    draw_card,
    draw_token,
    final_scoring,
    gain_card,
    greedy_card_on_table,
    keep_drawn_card,
    new_table,
    offer_cards,
    record_standing,
    reveal_dealt_card,
    seats_of,
    setup_game,
    write_outcome,
)
from fairysim.sim.concerto.rules import (
    COMPOSER,
    CONDUCTOR_POINTS,
    DEALT_SCORE_CARDS,
    DRAFT_ROUNDS,
    ECCENTRIC_POINTS,
    HAND_SIZE,
    MAX_SEATS,
    MULTITALENTED,
    MULTITALENTED_POINTS,
    N_KINDS,
    N_SCORE_CARDS,
    PAHHA,
    POINTS_PER_SCORE_CARD,
    POINTS_PER_SET,
    POPULAR,
    POPULAR_POINTS,
    SOLO_DRAW,
    SOLO_KEEP,
    SOLO_ROUNDS,
    TRUSTWORTHY,
    TRUSTWORTHY_POINTS,
)
from fairysim.sim.concerto.shortcuts.greedy import (
    COUNT_MASK,
    DEFICIT_CAP,
    KEEP_KINDS,
    KEEP_PACKED,
    KEEP_SLOTS,
    KIND_MASK,
    MAX_KEEP,
    NO_LIMIT,
    SLOT_BITS,
    SLOT_MASK,
    both_set_counts,
    covers,
    distinct_present_counts,
    fewest_missing_card,
    fewest_present,
    largest_present_group,
    packed_set_count,
    present_histogram,
)
from fairysim.sim.lane_ops import lane_mask, pick
from fairysim.sim.rng import RNG_STATE_SIZE
from fairysim.sim.scratch import stack_int64

LANES = 60
"""Games a worker plays side by side. A row is 480 bytes, so two rows fall a multiple of 4 KiB
apart only 128 rows apart (rows 4 KiB apart make the processor take a store to one for a store
to the other, "4K aliasing"; see the Fantastique lanes)."""

GAMES_PER_LANE_BLOCK = 4 * LANES
"""Games in one block a worker takes (:mod:`fairysim.sim.blocks`): whole sets of lanes, about
the one-game engine's block size."""

PLAYER_COUNTS = (1, 3, 4)
"""The forms the lanes play: solo (C8) and the draft (3-4 players); the two-player rules, whose
picks keep one token and remove another (C7), are played one game at a time."""

MAX_HELD = 1 + DRAFT_ROUNDS * HAND_SIZE
"""Most score cards a seat can hold: its setup card, and one a composer it picks (C4) or, in
solo, keeps (C8: 12 tokens kept in all)."""
assert sum(SOLO_KEEP) < MAX_HELD

KIND_BITS = 3
"""A pick's key is ``score << KIND_BITS | (KIND_MASK - kind)``: the largest key is the best
score, the lowest kind on ties (greedy's first best choice, kinds ascending)."""
assert KIND_MASK == (1 << KIND_BITS) - 1

# Field rows of the lane state (each LANES long).
ORCHESTRA = 0  # MAX_SEATS * N_KINDS rows: seat s's tokens of kind k at ORCHESTRA + s * N_KINDS + k
HANDS = ORCHESTRA + MAX_SEATS * N_KINDS  # DRAFT_ROUNDS * MAX_SEATS * N_KINDS rows, see hand_row
NEEDS = HANDS + DRAFT_ROUNDS * MAX_SEATS * N_KINDS  # MAX_SEATS * MAX_HELD * N_KINDS rows
PICK = NEEDS + MAX_SEATS * MAX_HELD * N_KINDS  # MAX_SEATS rows: each seat's kind this step
POPULARITY_KIND = PICK + MAX_SEATS
SOLOIST_METHOD = POPULARITY_KIND + 1
PIANIST_WORDS = SOLOIST_METHOD + 1  # N_KINDS rows: greedy.set_quota_words of the game's card
HARPIST_WORDS = PIANIST_WORDS + N_KINDS  # N_KINDS rows
COMPLETE = HARPIST_WORDS + N_KINDS  # the deciding seat's score cards complete now
GAIN = COMPLETE + 1  # N_KINDS rows: ... and those one more token of kind k completes
BEST = GAIN + N_KINDS  # the best choice's key so far (see KIND_BITS, greedy.SLOT_BITS)
DEFICITS = BEST + 1  # MAX_HELD rows, solo: each held card's missing tokens, a nibble a kind
DONE = DEFICITS + MAX_HELD  # solo: score cards the multiset being scored completes
KEPT = DONE + 1  # solo: the tokens greedy keeps this round, a nibble a kind (KEEP_NIBBLE)
N_FIELDS = KEPT + 1
assert SOLO_ROUNDS * N_KINDS <= DRAFT_ROUNDS * MAX_SEATS * N_KINDS  # solo hands fit HANDS
SEAT_MASK = MAX_SEATS - 1
"""Covers every seat; a seat number is masked where it makes a row, as in :func:`at`."""
assert MAX_SEATS & SEAT_MASK == 0
ROW_MASK = 511
"""Covers every row (see :func:`at`)."""
assert N_FIELDS <= ROW_MASK + 1

KEEP_NIBBLE = 4
"""Bits a kind of a packed keep (:data:`.shortcuts.greedy.KEEP_PACKED`); a count is read with
:data:`.shortcuts.greedy.COUNT_MASK`."""

MULTISETS = np.array(
    [math.comb(keep + N_KINDS - 1, N_KINDS - 1) for keep in range(MAX_KEEP + 1)], np.int64
)
"""Multisets of each keep size: the first slots of :data:`.shortcuts.greedy.KEEP_KINDS`, without the
padding the one-game keep adds for its vector loop (copies of the first, which never win)."""
assert (MULTISETS <= KEEP_SLOTS).all()

NO_CARD_NEED = NO_LIMIT
"""The need of kind 0 written into a seat's empty card slots: such a slot lacks far more than
one token, so it is neither complete nor one token short."""

LaneStore = namedtuple(
    "LaneStore",
    ["bag", "pile", "discard", "public", "dealt", "held", "n_held", "kept", "deal_rng", "counters"],
)
"""Each game's own arrays of :class:`.engine.Table`, a leading axis of ``LANES`` games."""


@nb.njit(cache=True)
def new_lane_store(n_tokens, n_counters):
    """Allocate the per-game table arrays of ``LANES`` games (once per worker thread)."""
    return LaneStore(
        np.zeros((LANES, n_tokens), np.int64),
        np.zeros((LANES, N_SCORE_CARDS), np.int64),
        np.zeros((LANES, N_SCORE_CARDS), np.int64),
        np.zeros((LANES, N_SCORE_CARDS), np.int64),
        np.zeros((LANES, MAX_SEATS, DEALT_SCORE_CARDS), np.int64),
        np.zeros((LANES, MAX_SEATS, N_SCORE_CARDS), np.int64),
        np.zeros((LANES, MAX_SEATS), np.int64),
        np.zeros((LANES, MAX_SEATS), np.int64),
        np.zeros((LANES, RNG_STATE_SIZE), np.uint64),
        np.zeros((LANES, n_counters), np.int64),
    )


@nb.njit(cache=True, inline="always")
def lane_table(store, t, lane):
    """The :class:`.engine.Table` of game ``lane``: its own arrays from ``store``, the rest
    (static tables, and scratch every game resets before use) shared from ``t``. The hands and
    orchestras live in the lane state during the draft; ``t``'s are written before scoring."""
    return Table(
        store.bag[lane],
        t.sorted_bag,
        store.pile[lane],
        store.discard[lane],
        store.public[lane],
        store.dealt[lane],
        store.held[lane],
        store.n_held[lane],
        t.hands,
        t.orchestra,
        t.removed,
        t.pick,
        t.remove,
        store.kept[lane],
        t.keep,
        t.parts,
        t.scratch,
        t.seat_view,
        t.choices,
        store.deal_rng[lane],
        t.policy_rng,
        t.pianist_quotas,
        t.harpist_quotas,
        t.pianist_words,
        t.harpist_words,
        store.counters[lane],
        t.playout_error,
        t.standing,
    )


@nb.njit(cache=True, inline="always")
def at(field, lane):
    """Index of ``field`` (a row number above) of game ``lane`` in the flat lane state.

    The row is masked with :data:`ROW_MASK`, which changes no row: a row worked out from a seat
    or a hand number is then known not to be negative, so numba's negative-index wraparound
    folds away, and without it LLVM vectorizes the loop over the games (it did not)."""
    return (field & ROW_MASK) * LANES + lane


@nb.njit(cache=True, inline="always")
def hand_row(round_, hand):
    """First row of the hand ``hand`` of round ``round_``: the hand dealt to seat ``hand``, which
    seat ``(hand + step) % players`` holds at step ``step`` (hands pass left, to seat + 1)."""
    return HANDS + (round_ * MAX_SEATS + hand) * N_KINDS


@nb.njit(cache=True, inline="always")
def solo_hand_row(round_):
    """First row of the solo player's hand of round ``round_`` (C8)."""
    return HANDS + round_ * N_KINDS


@nb.njit(cache=True, inline="always")
def need_row(seat, slot):
    """First row of the needs of the score card in ``seat``'s card slot ``slot``."""
    return NEEDS + (seat * MAX_HELD + slot) * N_KINDS


@nb.njit(cache=True, inline="always")
def write_card_need(S, lane, seat, slot, need, card):
    """Put score card ``card``'s need into ``seat``'s card slot ``slot`` of game ``lane``."""
    for k in range(N_KINDS):
        S[at(need_row(seat, slot) + k, lane)] = need[card, k]


@nb.njit(cache=True, inline="always")
def orchestra_of(S, lane, seat, c):
    """Copy ``seat``'s orchestra in game ``lane`` into ``c`` (counts by kind)."""
    for k in range(N_KINDS):
        c[k] = S[at(ORCHESTRA + seat * N_KINDS + k, lane)]


@nb.njit(cache=True, inline="always")
def clear_card_slots(S, n_players, slots):
    """Empty the card slots used so far (``slots[s]`` of seat ``s``) in every game."""
    for s in range(n_players):
        for j in range(slots[s]):
            for k in range(N_KINDS):
                for lane in range(LANES):
                    S[at(need_row(s, j) + k, lane)] = NO_CARD_NEED if k == 0 else 0
        slots[s] = 0


@nb.njit(cache=True, inline="always")
def start_games(S, store, t, seed, first_game, n_players, fixed_setup, need, row0, nl, slots):
    """Set up a batch of games (:func:`.engine.setup_game`), draw every round's hands, and let
    every seat keep one of its setup score cards (greedy's first decision, C3).

    Lanes past ``nl`` (a part-filled last batch) replay the batch's first game, unrecorded.
    Drawing later rounds' hands before the first is played takes the same tokens: nothing else
    is drawn from the bag in a draft or a solo game."""
    clear_card_slots(S, n_players, slots)
    for lane in range(LANES):
        game = first_game + row0 + (lane if lane < nl else 0)
        lt = lane_table(store, t, lane)
        setup_game(lt, seed, game, n_players, fixed_setup)
        for row in range(NEEDS - ORCHESTRA):  # orchestras and hands
            S[at(ORCHESTRA + row, lane)] = 0
        if n_players == 1:
            for round_ in range(SOLO_ROUNDS):
                for _ in range(SOLO_DRAW[round_]):
                    kind = draw_token(lt.bag, lt.counters)
                    S[at(solo_hand_row(round_) + kind, lane)] += 1
        else:
            for round_ in range(DRAFT_ROUNDS):
                for s in range(n_players):
                    for _ in range(HAND_SIZE):
                        kind = draw_token(lt.bag, lt.counters)
                        S[at(hand_row(round_, s) + kind, lane)] += 1
        S[at(POPULARITY_KIND, lane)] = lt.counters[POPULARITY]
        S[at(SOLOIST_METHOD, lane)] = lt.counters[SOLOIST]
        for k in range(N_KINDS):
            S[at(PIANIST_WORDS + k, lane)] = t.pianist_words[lt.counters[PIANIST], k]
            S[at(HARPIST_WORDS + k, lane)] = t.harpist_words[lt.counters[HARPIST], k]
        for s in range(n_players):
            n = offer_cards(lt.choices, need, lt.dealt[s, 0], lt.dealt[s, 1])
            # The table's orchestras are still the empty ones setup_game left, as at a first pick.
            c = 0 if n == 1 else greedy_card_on_table(lt, s, n, need)
            lt.kept[s] = lt.choices[c, 0]
            # The kept card is face up to its seat from this pick on, and is its first held card.
            write_card_need(S, lane, s, 0, need, lt.kept[s])
    for s in range(n_players):
        slots[s] = 1


@nb.njit(cache=True, inline="always")
def score_card_outlook(S, seat, n_slots):
    """Into :data:`COMPLETE` and :data:`GAIN`: how many of ``seat``'s score cards its orchestra
    completes, and how many more one token of each kind would complete
    (:func:`.shortcuts.greedy.card_outlook`, every game at once)."""
    for lane in range(LANES):
        S[at(COMPLETE, lane)] = 0
        for k in range(N_KINDS):
            S[at(GAIN + k, lane)] = 0
    for j in range(n_slots):
        row = need_row(seat, j)
        for lane in range(LANES):
            missing = 0
            short_kind = 0
            for k in range(N_KINDS):
                d = max(0, S[at(row + k, lane)] - S[at(ORCHESTRA + seat * N_KINDS + k, lane)])
                missing += d
                short_kind = pick(lane_mask(d > 0), k, short_kind)
            S[at(COMPLETE, lane)] += missing == 0
            one_short = missing == 1
            for k in range(N_KINDS):
                S[at(GAIN + k, lane)] += one_short & (short_kind == k)


@nb.njit(cache=True, inline="always")
def lane_set_count(S, lane, words, n0, n1, n2, n3, n4):
    """The complete sets of game ``lane``'s set card whose packed quotas are the rows from
    ``words`` (:data:`PIANIST_WORDS` or :data:`HARPIST_WORDS`), for counts ``n0 .. n4``."""
    return packed_set_count(
        S[at(words, lane)],
        S[at(words + 1, lane)],
        S[at(words + 2, lane)],
        S[at(words + 3, lane)],
        S[at(words + 4, lane)],
        n0,
        n1,
        n2,
        n3,
        n4,
    )


@nb.njit(cache=True, inline="always")
def lane_contest_points(S, lane, n0, n1, n2, n3, n4):
    """Popularity, conductor, soloist, pianist and harpist points, summed, of an orchestra with
    counts ``n0 .. n4`` (each below 15, at least one above 0) in game ``lane``: the solo keep's
    scoring (:func:`.shortcuts.greedy.best_slot`), with the game's soloist method chosen by mask."""
    method = S[at(SOLOIST_METHOD, lane)]
    pop = S[at(POPULARITY_KIND, lane)]
    popularity = (
        (n0 & lane_mask(pop == 0))
        + (n1 & lane_mask(pop == 1))
        + (n2 & lane_mask(pop == 2))
        + (n3 & lane_mask(pop == 3))
        + (n4 & lane_mask(pop == 4))
    )
    most = max(max(max(n0, n1), max(n2, n3)), n4)
    fewest = fewest_present(n0, n1, n2, n3, n4)
    present = present_histogram(n0, n1, n2, n3, n4)
    solo = pick(
        lane_mask(method == TRUSTWORTHY),
        TRUSTWORTHY_POINTS * fewest,
        pick(
            lane_mask(method == POPULAR),
            POPULAR_POINTS * (most - fewest),
            pick(
                lane_mask(method == MULTITALENTED),
                MULTITALENTED_POINTS * largest_present_group(present),
                ECCENTRIC_POINTS * distinct_present_counts(present),
            ),
        ),
    )
    sets = both_set_counts(
        lane_set_count(S, lane, PIANIST_WORDS, n0, n1, n2, n3, n4),
        lane_set_count(S, lane, HARPIST_WORDS, n0, n1, n2, n3, n4),
    )
    return popularity + CONDUCTOR_POINTS * most + solo + POINTS_PER_SET * sets


@nb.njit(cache=True, inline="always")
def pick_greedy_tokens(S, seat, hand, n_slots):
    """Greedy's token for ``seat`` from hand rows ``hand`` in every game, into its
    :data:`PICK` row: the kind in hand whose token raises its score most, the lowest kind on
    ties (:func:`.shortcuts.greedy.best_token`). Each kind's score is the whole orchestra's with one
    more token of it, worked out as the solo keep scores a multiset
    (:func:`.shortcuts.greedy.best_slot`); the soloist method is chosen by mask, per game.

    One loop over the games per kind, the best key so far kept in :data:`BEST`: with the five
    kinds inside one loop, LLVM did not unroll them and left the loop over the games scalar."""
    score_card_outlook(S, seat, n_slots)
    base = ORCHESTRA + (seat & SEAT_MASK) * N_KINDS
    for lane in range(LANES):
        S[at(BEST, lane)] = -1
    for k in range(N_KINDS):
        for lane in range(LANES):
            score = lane_contest_points(
                S,
                lane,
                S[at(base, lane)] + (k == 0),
                S[at(base + 1, lane)] + (k == 1),
                S[at(base + 2, lane)] + (k == 2),
                S[at(base + 3, lane)] + (k == 3),
                S[at(base + 4, lane)] + (k == 4),
            )
            score += POINTS_PER_SCORE_CARD * (S[at(COMPLETE, lane)] + S[at(GAIN + k, lane)])
            in_hand = lane_mask(S[at(hand + k, lane)] > 0)
            key = (score << KIND_BITS) | (KIND_MASK - k)
            S[at(BEST, lane)] = max(S[at(BEST, lane)], (key & in_hand) | ~in_hand)
    for lane in range(LANES):
        S[at(PICK + (seat & SEAT_MASK), lane)] = KIND_MASK - (S[at(BEST, lane)] & KIND_MASK)


@nb.njit(cache=True, inline="always")
def reveal_picks(S, n_players, round_, step):
    """Every seat's picked token leaves the hand it holds for its orchestra (C3)."""
    for s in range(n_players):
        hand = hand_row(round_, (s - step) % n_players)
        for lane in range(LANES):
            kind = S[at(PICK + s, lane)]
            for k in range(N_KINDS):
                taken = kind == k
                S[at(hand + k, lane)] -= taken
                S[at(ORCHESTRA + s * N_KINDS + k, lane)] += taken


@nb.njit(cache=True, inline="always")
def resolve_greedy_composer(S, lt, lane, seat, need, c, slots):
    """C4 for one composer of ``seat`` in game ``lane`` (table ``lt``): draw 2 score cards and
    keep greedy's (the one lacking the fewest tokens of its orchestra, :func:`.shortcuts.greedy.
    fewest_missing_card`); its need goes into the seat's next card slot."""
    a = draw_card(lt)
    if a < 0:
        return
    b = draw_card(lt)
    n = offer_cards(lt.choices, need, a, b)
    choice = 0
    if n > 1:
        orchestra_of(S, lane, seat, c)
        choice = fewest_missing_card(c, need, lt.choices, n)
    keep = lt.choices[choice, 0]
    keep_drawn_card(lt, seat, a, b, keep)
    slot = lt.n_held[seat] - 1
    write_card_need(S, lane, seat, slot, need, keep)
    slots[seat] = max(slots[seat], slot + 1)


@nb.njit(cache=True, inline="always")
def resolve_composers(S, store, t, n_players, need, slots):
    """C4 in every game, one game at a time: each seat that picked a composer, in seat order from
    seat 0, resolves it (:func:`resolve_greedy_composer`)."""
    c = stack_int64(N_KINDS)
    for lane in range(LANES):
        lt = lane_table(store, t, lane)
        for s in range(n_players):
            if S[at(PICK + s, lane)] == COMPOSER:
                resolve_greedy_composer(S, lt, lane, s, need, c, slots)


@nb.njit(cache=True, inline="always")
def keep_greedy_tokens(S, round_, n_slots):
    """Solo (C8): greedy's keep of ``SOLO_KEEP[round_]`` tokens from the round's hand in every
    game, into :data:`KEPT`: of every multiset of that size the hand holds, the one that raises
    the score most, the first in :func:`.rules.multiset_choices` order on ties
    (:func:`.shortcuts.greedy.best_keep`, whose tables of multisets and packed card deficits this
    reuses).

    Per multiset, one loop over the games counts the cards it completes and one scores it; the
    best key so far is kept in :data:`BEST`."""
    keep = SOLO_KEEP[round_]
    hand = solo_hand_row(round_)
    for j in range(n_slots):
        row = need_row(0, j)
        for lane in range(LANES):
            packed = 0
            for k in range(N_KINDS):
                missing = min(
                    max(0, S[at(row + k, lane)] - S[at(ORCHESTRA + k, lane)]), DEFICIT_CAP
                )
                packed |= missing << (KEEP_NIBBLE * k)
            S[at(DEFICITS + j, lane)] = packed
    for lane in range(LANES):
        S[at(BEST, lane)] = -1
    for m in range(MULTISETS[keep]):
        kept = KEEP_PACKED[keep, m]
        a0, a1, a2 = KEEP_KINDS[keep, 0, m], KEEP_KINDS[keep, 1, m], KEEP_KINDS[keep, 2, m]
        a3, a4 = KEEP_KINDS[keep, 3, m], KEEP_KINDS[keep, 4, m]
        # Slot 0 always holds a card (the setup card kept in round 1); an empty slot lacks more
        # than any keep adds.
        for lane in range(LANES):
            S[at(DONE, lane)] = covers(kept, S[at(DEFICITS, lane)])
        for j in range(1, n_slots):
            for lane in range(LANES):
                S[at(DONE, lane)] += covers(kept, S[at(DEFICITS + j, lane)])
        for lane in range(LANES):
            held = (
                (a0 <= S[at(hand, lane)])
                & (a1 <= S[at(hand + 1, lane)])
                & (a2 <= S[at(hand + 2, lane)])
                & (a3 <= S[at(hand + 3, lane)])
                & (a4 <= S[at(hand + 4, lane)])
            )
            score = lane_contest_points(
                S,
                lane,
                S[at(ORCHESTRA, lane)] + a0,
                S[at(ORCHESTRA + 1, lane)] + a1,
                S[at(ORCHESTRA + 2, lane)] + a2,
                S[at(ORCHESTRA + 3, lane)] + a3,
                S[at(ORCHESTRA + 4, lane)] + a4,
            )
            score += POINTS_PER_SCORE_CARD * S[at(DONE, lane)]
            in_hand = lane_mask(held)
            key = (score << SLOT_BITS) | (SLOT_MASK - m)
            S[at(BEST, lane)] = max(S[at(BEST, lane)], (key & in_hand) | ~in_hand)
    for lane in range(LANES):
        S[at(KEPT, lane)] = 0
    for m in range(MULTISETS[keep]):
        kept = KEEP_PACKED[keep, m]
        for lane in range(LANES):
            chosen = SLOT_MASK - (S[at(BEST, lane)] & SLOT_MASK)
            S[at(KEPT, lane)] |= kept & lane_mask(chosen == m)


@nb.njit(cache=True, inline="always")
def take_solo_tokens(S, round_):
    """Solo (C8): the kept tokens join your orchestra, the rest of the hand Pahha's."""
    hand = solo_hand_row(round_)
    for lane in range(LANES):
        kept = S[at(KEPT, lane)]
        for k in range(N_KINDS):
            x = (kept >> (KEEP_NIBBLE * k)) & COUNT_MASK
            S[at(ORCHESTRA + k, lane)] += x
            S[at(ORCHESTRA + PAHHA * N_KINDS + k, lane)] += S[at(hand + k, lane)] - x


@nb.njit(cache=True, inline="always")
def resolve_solo_composers(S, store, t, round_, need, slots):
    """Solo (C8), one game at a time: your kept composers one at a time (C4), then one face-down
    score card for each composer Pahha got."""
    c = stack_int64(N_KINDS)
    for lane in range(LANES):
        lt = lane_table(store, t, lane)
        yours = (S[at(KEPT, lane)] >> (KEEP_NIBBLE * COMPOSER)) & COUNT_MASK
        for _ in range(yours):
            resolve_greedy_composer(S, lt, lane, 0, need, c, slots)
        for _ in range(S[at(solo_hand_row(round_) + COMPOSER, lane)] - yours):
            card = draw_card(lt)
            if card >= 0:
                gain_card(lt, PAHHA, card, False)


@nb.njit(cache=True, inline="always")
def reveal_dealt_cards(store, t, n_players):
    """Every seat reveals the setup card it kept; the other is discarded (first pick)."""
    for lane in range(LANES):
        lt = lane_table(store, t, lane)
        for s in range(n_players):
            reveal_dealt_card(lt, s)


@nb.njit(cache=True, inline="always")
def lane_orchestras(S, lt, lane, n_seats):
    """Write game ``lane``'s orchestras from the lane state onto its table ``lt``, which scoring
    reads."""
    for s in range(n_seats):
        orchestra_of(S, lane, s, lt.orchestra[s])


@nb.njit(cache=True, inline="always")
def finish_games(S, store, t, n_players, need, out, row0, nl):
    """Score each of the first ``nl`` games on its table (:func:`.engine.final_scoring`) and
    write it into ``out`` (:func:`.engine.write_outcome`)."""
    n_seats = seats_of(n_players)
    for lane in range(nl):
        lt = lane_table(store, t, lane)
        lane_orchestras(S, lt, lane, n_seats)
        final_scoring(lt, n_players, need)
        write_outcome(lt, n_players, n_seats, need, out, row0 + lane)


@nb.njit(cache=True)
def record_lane_standings(S, store, t, n_players, need, trace, row0, nl, round_):
    """Ruling PC6: each of the first ``nl`` games' standings after round ``round_`` into rows
    ``row0 ..`` of ``trace``, by :func:`.engine.record_standing` on the game's table (its
    ``standing`` is the worker's scratch, read at once). (Not inlined: a trace's cost stays out
    of the ordinary block's code.)"""
    n_seats = seats_of(n_players)
    for lane in range(nl):
        lt = lane_table(store, t, lane)
        lane_orchestras(S, lt, lane, n_seats)
        record_standing(lt, n_players, need, round_)
        for s in range(n_seats):
            trace[row0 + lane, s, round_] = lt.standing[s, round_]


@nb.njit(cache=True, _nrt=False)
def play_lane_block(
    S, store, t, seed, first_game, lo, hi, n_players, need, fixed_setup, out, trace,
    record_trace, slots,
):  # fmt: skip
    """Play games ``first_game + lo .. first_game + hi - 1`` into rows ``lo .. hi - 1``,
    ``LANES`` at a time (``_nrt=False`` as :func:`.engine.play_draft_block`), with
    ``record_trace`` every seat's standing after each round into ``trace`` (PC6)."""
    for row0 in range(lo, hi, LANES):
        nl = min(LANES, hi - row0)
        start_games(S, store, t, seed, first_game, n_players, fixed_setup, need, row0, nl, slots)
        if n_players == 1:
            for round_ in range(SOLO_ROUNDS):
                keep_greedy_tokens(S, round_, slots[0])
                take_solo_tokens(S, round_)
                if round_ == 0:
                    reveal_dealt_cards(store, t, 1)
                resolve_solo_composers(S, store, t, round_, need, slots)
                if record_trace:
                    record_lane_standings(S, store, t, 1, need, trace, row0, nl, round_)
        else:
            for round_ in range(DRAFT_ROUNDS):
                for step in range(HAND_SIZE):
                    # simultaneous: nothing is revealed until every seat has decided
                    for s in range(n_players):
                        hand = hand_row(round_, (s - step) % n_players)
                        pick_greedy_tokens(S, s, hand, slots[s])
                    reveal_picks(S, n_players, round_, step)
                    if round_ == 0 and step == 0:
                        reveal_dealt_cards(store, t, n_players)
                    resolve_composers(S, store, t, n_players, need, slots)
                if record_trace:
                    record_lane_standings(S, store, t, n_players, need, trace, row0, nl, round_)
        finish_games(S, store, t, n_players, need, out, row0, nl)


@nb.njit(cache=True, parallel=True)
def play_greedy_games(
    seed, first_game, n_players, need, tokens, psets, hsets, fixed_setup, out, trace,
    record_trace, n_threads,
):  # fmt: skip
    """:func:`.engine.play_games` for a table of :data:`PLAYER_COUNTS` players where every seat
    plays greedy, in lanes (``trace`` and ``record_trace`` as there, ruling PC6).

    The same arguments but the policies (greedy's answers are built in) and the error records
    (greedy never answers illegally), and the same results, game by game.
    """
    n_games = out.score.shape[0]
    n_blocks = block_count(n_games, GAMES_PER_LANE_BLOCK)
    queue = np.zeros(1, np.int64)
    # Workers take blocks as they come free, as in .engine.play_games (fairysim.sim.blocks).
    for _ in nb.prange(worker_count(n_threads, n_blocks)):
        owner = new_table(tokens, need, psets, hsets)
        store = new_lane_store(len(owner.bag), len(owner.counters))
        lane_state = np.zeros(N_FIELDS * LANES, np.int64)
        # every card slot is cleared before the first batch
        slots = np.full(MAX_SEATS, MAX_HELD, np.int64)
        block = claim_block(queue)
        while block < n_blocks:
            lo, hi = block_rows(block, GAMES_PER_LANE_BLOCK, n_games)
            play_lane_block(
                borrowed(lane_state),
                borrowed_fields(store),
                borrowed_fields(owner),
                seed,
                first_game,
                lo,
                hi,
                n_players,
                borrowed(need),
                borrowed(fixed_setup),
                borrowed_fields(out),
                borrowed(trace),
                record_trace,
                borrowed(slots),
            )
            block = claim_block(queue)
        keep_alive(owner)
        keep_alive(store)
        keep_alive(lane_state)
        keep_alive(slots)
