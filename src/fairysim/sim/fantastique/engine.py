"""The jitted Fantastique game loop.

One module past 600 lines: the table, the round and the block loop share the table's
arrays and inline into each other; split across modules they would read as less. The search's
play-out (``play_out``, ``continue_game``) is here too, since it resumes the round loop; what a
search needs that the loop does not (copying a table, the determinization) is in :mod:`.search`.

One :class:`Table` (a named tuple of small arrays) is allocated per worker thread and reset for
every game, so the per-game loop allocates nothing. Every draw the rules make comes from the
game's ``DEAL_STREAM`` in the same order as :mod:`.reference`, and each seat's policy draws from
its own stream, so both engines agree game by game.

Order of rule draws in a game: shuffle the deck (Fisher-Yates over the deck sorted by value),
deal 10 cards to each seat in seat order from the top, draw the first start seat (F1); then each
reshuffle of the discard pile (F3) shuffles it sorted by value.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from fairysim.sim.apart import apart
from fairysim.sim.blocks import (
    ERROR_ROW,
    GAMES_PER_BLOCK,
    block_count,
    block_rows,
    claim_block,
    worker_count,
)
from fairysim.sim.borrow import borrowed, borrowed_fields, keep_alive
from fairysim.sim.fantastique import search as table_search
from fairysim.sim.fantastique.policies import (
    GREEDY,
    GREEDY_KEY_RADIX,
    ROLLOUT,
    ask_policy,
)
from fairysim.sim.fantastique.rules import (
    BRONZE_MIN_PLAYERS,
    DISPLAY_STACKS,
    HAND_SIZE,
    MAX_CHOICES,
    MAX_PLAYERS,
    MEDAL_ROWS,
    N_VALUES,
    PLAY_FAN,
    ROUNDS,
    STACK_LIMIT,
    TAKE_STACK,
    V_DISCARD,
    V_DRAW_PILE,
    V_FAN,
    V_HAND,
    V_HAND_SIZE,
    V_MEDAL_POINTS,
    V_NEXT_MEDAL,
    V_PLAYED_COUNT,
    V_PLAYED_VALUE,
    V_PLAYERS,
    V_ROUND,
    V_SEAT,
    V_STACK_SIZE,
    V_STACK_VALUE,
    V_START_SEAT,
    VIEW_SIZE,
    finale_count_of_counts,
    finale_medal_points,
    rank_players,
)
from fairysim.sim.fantastique.search import copy_table, redraw_hidden
from fairysim.sim.fantastique.shortcuts.greedy import greedy_fan_key, greedy_stack
from fairysim.sim.policy import MAX_WEIGHTS
from fairysim.sim.rng import (
    RNG_STATE_SIZE,
    lay_out_counts,
    randint,
    seed_game_streams,
    shuffle_prefix,
)
from fairysim.sim.scratch import stack_float64, stack_int64
from fairysim.sim.search import ROLLOUTS, make_rollout_search

SeatPolicies = namedtuple("SeatPolicies", ["policy_ids", "policies", "reads_view", "weights"])
"""Who decides for each seat, passed through the game loop as one value: each seat's built-in
policy id (-1 for a user policy), policy function, whether it reads the view, and weights (the
arrays of :func:`fairysim.sim.policy.seat_policies`, in its order)."""

Table = namedtuple(
    "Table",
    [
        "hands",  # int64[MAX_PLAYERS, N_VALUES + 1]: count by value
        "pile",  # int64[total cards]: draw pile, top card at pile[pile_len - 1]
        "discard",  # int64[N_VALUES + 1]: discard pile, count by value
        "stack_value",  # int64[DISPLAY_STACKS]
        "stack_size",  # int64[DISPLAY_STACKS]; 0 = taken or never dealt
        "open_stack",  # int64[N_VALUES + 1]: stack a card of value v joins (F2), -1 = none
        "played_value",  # int64[MAX_PLAYERS]: this round's fan; count 0 = no fan
        "played_count",  # int64[MAX_PLAYERS]
        "taken_fans",  # int64[N_VALUES + 1]: bit k of [v] set once a fan (v, k) is played (F4)
        "hand_size",  # int64[MAX_PLAYERS]: cards in each hand, kept in step with hands
        "medal_next",  # int64[3]: next unawarded medal of each row
        "medals",  # int64[MAX_PLAYERS, ROUNDS]: medal points won, in order won
        "n_medals",  # int64[MAX_PLAYERS]
        "medal_points",  # int64[MAX_PLAYERS]
        "order",  # int64[MAX_PLAYERS]: scratch for rankings and turn orders
        "order_keys",  # int64[MAX_PLAYERS]: scratch, the key each seat is ordered by
        "seat_view",  # int64[VIEW_SIZE]: what the deciding seat sees
        "choices",  # int64[MAX_CHOICES, 2]
        "deal_rng",  # uint64[2]
        "policy_rng",  # uint64[MAX_PLAYERS, 2]
        "counters",  # int64[N_COUNTERS], slots below
    ],
)
PILE_LEN = 0
N_STACKS = 1
START_SEAT = 2
FORCED_HELD = 3  # cards of the forced value the forced seat was dealt (card effects)
FORCED_DONE = 4  # 1 if the forced card was exchanged into the seat's hand, else 0
GOLD_SEAT = 5  # this round's Gold winner, or its start seat if nobody played: next round's start
ROUND = 6  # resume point of a searched decision (rollout): the round,
PHASE = 7  # FANS_PHASE or STACKS_PHASE,
INDEX = 8  # and the turn (fans) or the place in the choosing order (stacks) deciding
N_COUNTERS = 9
assert table_search.PILE_LEN == PILE_LEN

FANS_PHASE = 0
"""Phase 2 of a round: fans in turn order (F4)."""
STACKS_PHASE = 1
"""Phase 4 of a round: stacks in the choosing order (F6)."""

FORCE_CARD = 0
"""Slot of the forced card's value in a kernel's ``force`` array; 0 = no intervention."""
FORCE_SEAT = 1
"""Slot of the seat the forced card goes to."""
FORCE_SIZE = 2

KEY_SHIFT = 32
"""Seats are ordered by ``primary << KEY_SHIFT | secondary``: counts and values stay far below."""


DEAL_COUNT_BITS = 8
"""The deal counts a hand's values in 8-bit fields of one integer (value v in field v - 1)."""
DEAL_COUNT_MASK = (1 << DEAL_COUNT_BITS) - 1
assert N_VALUES * DEAL_COUNT_BITS <= 64 and HAND_SIZE <= DEAL_COUNT_MASK


@nb.njit(cache=True)
def new_table(total_cards):
    """Allocate the arrays of one table (once per worker thread)."""
    return Table(
        np.zeros((MAX_PLAYERS, N_VALUES + 1), np.int64),
        np.zeros(total_cards, np.int64),
        np.zeros(N_VALUES + 1, np.int64),
        np.zeros(DISPLAY_STACKS, np.int64),
        np.zeros(DISPLAY_STACKS, np.int64),
        np.zeros(N_VALUES + 1, np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(N_VALUES + 1, np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(len(MEDAL_ROWS), np.int64),
        np.zeros((MAX_PLAYERS, ROUNDS), np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros(VIEW_SIZE, np.int64),
        np.zeros((MAX_CHOICES, 2), np.int64),
        np.zeros(RNG_STATE_SIZE, np.uint64),
        np.zeros((MAX_PLAYERS, RNG_STATE_SIZE), np.uint64),
        np.zeros(N_COUNTERS, np.int64),
    )


@nb.njit(cache=True, inline="always")
def fill(a, n, value):
    """Set ``a[:n]`` to ``value``.

    Every reset in the game loop goes through here with ``n`` a rulebook constant, so LLVM sees a
    fixed length and writes a few vector stores; ``a[:] = value`` on an array of unknown length
    was a call to ``memset`` (some 50 a game).
    """
    for i in range(n):
        a[i] = value


@nb.njit(cache=True, inline="always")
def fill_pile_sorted(t, counts):
    """Lay the cards counted in ``counts`` into the pile in ascending value; return how many."""
    n = 0
    for v in range(1, N_VALUES + 1):
        for _ in range(counts[v]):
            t.pile[n] = v
            n += 1
    return n


@nb.njit(cache=True, inline="always")
def shuffle_deck(deal_rng, pile, deck):
    """Lay ``deck`` (sorted by value) into ``pile`` and shuffle it; return the number of cards.

    The deck sorted by value is copied, not rebuilt value by value: a loop whose length changes
    with each value costs a mispredicted branch per value.
    """
    n = len(deck)
    for i in range(n):
        pile[i] = deck[i]
    shuffle_prefix(deal_rng, pile, n)
    return n


@nb.njit(cache=True, inline="always")
def deal_hand_packed(pile, n):
    """Deal a hand off the top of ``pile[:n]``: its counts by value in the bytes of one integer.

    Value ``v`` is counted in byte ``v - 1`` (see :data:`DEAL_COUNT_BITS`). Counted in a register,
    not in memory: an increment of the count just incremented waits on its store, and a ten-card
    hand repeats values.
    """
    packed = 0
    for i in range(HAND_SIZE):
        packed += 1 << (DEAL_COUNT_BITS * (pile[n - 1 - i] - 1))
    return packed


@nb.njit(cache=True, inline="always")
def unpack_counts(packed, counts):
    """Write the counts packed a byte a value (as :func:`deal_hand_packed` gives them) into
    ``counts[1 .. N_VALUES]`` (``counts[0]`` set to 0); return their sum."""
    counts[0] = 0
    total = 0
    for value in range(1, N_VALUES + 1):
        count = (packed >> (DEAL_COUNT_BITS * (value - 1))) & DEAL_COUNT_MASK
        counts[value] = count
        total += count
    return total


@nb.njit(cache=True, inline="always")
def exchange_forced_card(pile, n, n_players, card, seat):
    """Card effects (ruling PF5, docs/rulings.md): before the deal, swap the first card ``seat``
    is to be dealt of another value than ``card`` with the top card of value ``card`` left in
    the draw pile.

    ``pile[:n]`` is the shuffled deck, its top last; seat ``k`` is dealt ``pile[n - 1 - 10k]``
    down to ``pile[n - 10 - 10k]``. Every other hand, and the draw pile but for the one card,
    stay as shuffled. Returns ``(held, done)``: how many cards of ``card`` the seat was dealt
    without the exchange, and 1 if the exchange was made (0 when the seat was dealt only that
    value, or none is left in the draw pile).
    """
    first = n - 1 - HAND_SIZE * seat
    held = 0
    given = -1
    for i in range(HAND_SIZE):
        if pile[first - i] == card:
            held += 1
        elif given < 0:
            given = first - i
    taken = -1
    for i in range(n - HAND_SIZE * n_players - 1, -1, -1):
        if pile[i] == card:
            taken = i
            break
    if given < 0 or taken < 0:
        return held, 0
    pile[taken] = pile[given]
    pile[given] = card
    return held, 1


@nb.njit(cache=True, inline="always")
def setup_game(t, seed, game, n_players, deck, force):
    """Reset the table, shuffle, deal and draw the first start seat (F1).

    With ``force[FORCE_CARD] > 0`` the deal first gives that card to seat ``force[FORCE_SEAT]``
    (:func:`exchange_forced_card`); no random draw changes.
    """
    for s in range(MAX_PLAYERS):
        fill(t.hands[s], N_VALUES + 1, 0)
        fill(t.medals[s], ROUNDS, 0)
    fill(t.discard, N_VALUES + 1, 0)
    fill(t.medal_next, len(MEDAL_ROWS), 0)
    fill(t.n_medals, MAX_PLAYERS, 0)
    fill(t.medal_points, MAX_PLAYERS, 0)
    seed_game_streams(t.deal_rng, t.policy_rng, seed, game, n_players)
    n = shuffle_deck(t.deal_rng, t.pile, deck)
    if force[FORCE_CARD] > 0:
        held, done = exchange_forced_card(
            t.pile, n, n_players, force[FORCE_CARD], force[FORCE_SEAT]
        )
        t.counters[FORCED_HELD] = held
        t.counters[FORCED_DONE] = done
    for s in range(n_players):
        t.hand_size[s] = unpack_counts(deal_hand_packed(t.pile, n), t.hands[s])
        n -= HAND_SIZE
    t.counters[PILE_LEN] = n
    t.counters[START_SEAT] = randint(t.deal_rng, n_players)


@nb.njit(cache=True, inline="always")
def reshuffle_discard(t):
    """F3: the discard pile becomes the new draw pile; False if it was empty too."""
    n = fill_pile_sorted(t, t.discard)
    if n == 0:
        return False
    shuffle_prefix(t.deal_rng, t.pile, n)
    fill(t.discard, N_VALUES + 1, 0)
    t.counters[PILE_LEN] = n
    return True


@nb.njit(cache=True, inline="always")
def reveal_display(t):
    """Phase 1 (F2, F3): reveal until a fifth stack is started or no card is left."""
    n_stacks = 0
    fill(t.stack_size, DISPLAY_STACKS, 0)
    fill(t.stack_value, DISPLAY_STACKS, 0)
    fill(t.open_stack, N_VALUES + 1, -1)
    pile_len = t.counters[PILE_LEN]  # a local: the counter in its array would go through memory
    while n_stacks < DISPLAY_STACKS:
        if pile_len == 0:
            if not reshuffle_discard(t):
                break
            pile_len = t.counters[PILE_LEN]
        pile_len -= 1
        card = t.pile[pile_len]
        s = t.open_stack[card]
        # Selects rather than an if: whether a card starts a stack is a coin flip to the
        # branch predictor. Rewriting an open stack's value with the same card is harmless.
        starts_stack = s < 0
        s = n_stacks if starts_stack else s
        t.stack_value[s] = card
        n_stacks += starts_stack
        t.stack_size[s] += 1
        # A full stack takes no more cards: a fourth card of the value starts a new one (F2).
        t.open_stack[card] = s if t.stack_size[s] < STACK_LIMIT else -1
    t.counters[PILE_LEN] = pile_len
    t.counters[N_STACKS] = n_stacks


@nb.njit(cache=True, inline="always")
def fill_view(t, round_, fan, n_players, seat):
    """Write what ``seat`` may see into ``t.seat_view`` (names in rules.VIEW_FIELDS)."""
    v = t.seat_view
    v[V_ROUND] = round_
    v[V_FAN] = fan
    v[V_PLAYERS] = n_players
    v[V_SEAT] = seat
    v[V_START_SEAT] = t.counters[START_SEAT]
    for value in range(N_VALUES + 1):
        v[V_HAND + value] = t.hands[seat, value]
        v[V_DISCARD + value] = t.discard[value]
    for s in range(DISPLAY_STACKS):
        v[V_STACK_VALUE + s] = t.stack_value[s] if t.stack_size[s] > 0 else 0
        v[V_STACK_SIZE + s] = t.stack_size[s]
    for s in range(MAX_PLAYERS):
        if s < n_players:
            v[V_PLAYED_VALUE + s] = t.played_value[s]
            v[V_PLAYED_COUNT + s] = t.played_count[s]
            v[V_MEDAL_POINTS + s] = t.medal_points[s]
            v[V_HAND_SIZE + s] = t.hand_size[s]
        else:
            v[V_PLAYED_VALUE + s] = 0
            v[V_PLAYED_COUNT + s] = 0
            v[V_MEDAL_POINTS + s] = 0
            v[V_HAND_SIZE + s] = 0
    v[V_DRAW_PILE] = t.counters[PILE_LEN]


@nb.njit(cache=True, inline="always")
def fill_next_medals(t, n_players, medal_values):
    """The next medal of each row, 0 for a row not used at this player count or used up."""
    rows = len(MEDAL_ROWS) if n_players >= BRONZE_MIN_PLAYERS else len(MEDAL_ROWS) - 1
    for row in range(len(MEDAL_ROWS)):
        in_play = row < rows and t.medal_next[row] < ROUNDS  # a row is used up after round 7
        t.seat_view[V_NEXT_MEDAL + row] = medal_values[row, t.medal_next[row]] if in_play else 0


@nb.njit(cache=True, inline="always")
def legal_fans(t, seat):
    """F4: write the legal (value, count) fans of ``seat`` into ``t.choices``; return how many."""
    n = 0
    for value in range(1, N_VALUES + 1):
        taken = t.taken_fans[value]
        for count in range(1, t.hands[seat, value] + 1):
            # Write every candidate and keep it only if the fan is still free: no branch on the
            # data, which the branch predictor cannot learn. (Row n stays within the hand size.)
            t.choices[n, 0] = value
            t.choices[n, 1] = count
            n += 1 - ((taken >> count) & 1)
    return n


@nb.njit(cache=True, inline="always")
def stack_choices(t):
    """The distinct (value, size) of the stacks still on the table, in display order."""
    n = 0
    for s in range(t.counters[N_STACKS]):
        if t.stack_size[s] == 0:
            continue
        duplicate = False
        for i in range(n):
            if t.choices[i, 0] == t.stack_value[s] and t.choices[i, 1] == t.stack_size[s]:
                duplicate = True
                break
        if not duplicate:
            t.choices[n, 0] = t.stack_value[s]
            t.choices[n, 1] = t.stack_size[s]
            n += 1
    return n


SORT_SEAT_BITS = 3
"""A sort word holds the seat in its low bits, then the turn's rank, then the key."""
assert MAX_PLAYERS == 5  # order_seats_by_key's sorting network has five inputs
assert MAX_PLAYERS <= 1 << SORT_SEAT_BITS


@nb.njit(cache=True, inline="always")
def seat_sort_word(keys, s, n_players, start):
    """The word seat ``s`` is sorted by: key, then earlier turn, then the seat; -1 past the table.

    Keys of seats that played are distinct (no two fans alike, F4), so only passers (key 0) are
    ordered by turn.
    """
    if s >= n_players:
        return -1
    turn = s - start + (n_players if s < start else 0)
    turn_rank = MAX_PLAYERS - 1 - turn  # the earlier turn, the bigger
    return (keys[s] << 2 * SORT_SEAT_BITS) | (turn_rank << SORT_SEAT_BITS) | s


@nb.njit(cache=True, inline="always")
def descending(a, b):
    """One comparator of a sorting network: the pair, larger first."""
    return max(a, b), min(a, b)


@nb.njit(cache=True, inline="always")
def sort_five_descending(w0, w1, w2, w3, w4):
    """The five words, largest first, through a fixed sorting network.

    Nine comparators, each a max and a min (checked on every 0-1 input by the tests): no branch
    on the data, which an insertion sort mispredicts, and no memory round trip.
    """
    w0, w1 = descending(w0, w1)
    w3, w4 = descending(w3, w4)
    w2, w4 = descending(w2, w4)
    w2, w3 = descending(w2, w3)
    w1, w4 = descending(w1, w4)
    w0, w3 = descending(w0, w3)
    w0, w2 = descending(w0, w2)
    w1, w3 = descending(w1, w3)
    w1, w2 = descending(w1, w2)
    return w0, w1, w2, w3, w4


@nb.njit(cache=True, inline="always")
def order_seats_by_key(order, keys, n_players, start):
    """Write the seats into ``order`` by ``keys`` descending, ties in turn order from ``start``.

    Returns how many seats have a key above 0. The five seat words go through
    :func:`sort_five_descending`.
    """
    n_played = 0
    for s in range(n_players):
        n_played += keys[s] > 0
    w0, w1, w2, w3, w4 = sort_five_descending(
        seat_sort_word(keys, 0, n_players, start),
        seat_sort_word(keys, 1, n_players, start),
        seat_sort_word(keys, 2, n_players, start),
        seat_sort_word(keys, 3, n_players, start),
        seat_sort_word(keys, 4, n_players, start),
    )
    seat_mask = (1 << SORT_SEAT_BITS) - 1
    order[0] = w0 & seat_mask
    order[1] = w1 & seat_mask
    order[2] = w2 & seat_mask
    order[3] = w3 & seat_mask
    order[4] = w4 & seat_mask
    return n_played


@nb.njit(cache=True, inline="always")
def order_for_medals(t, n_players, start):
    """F5: the seats that played into ``t.order`` by count, then value; return how many."""
    for seat in range(n_players):
        t.order_keys[seat] = (t.played_count[seat] << KEY_SHIFT) | t.played_value[seat]
    return order_seats_by_key(t.order, t.order_keys, n_players, start)


@nb.njit(cache=True, inline="always")
def order_for_stacks(t, n_players, start):
    """F6: every seat into ``t.order``: by value, then count, then passers in turn order."""
    for seat in range(n_players):
        t.order_keys[seat] = (t.played_value[seat] << KEY_SHIFT) | t.played_count[seat]
    order_seats_by_key(t.order, t.order_keys, n_players, start)


@nb.njit(cache=True, inline="always")
def turn_seat(start, turn, n_players):
    """The seat ``turn`` places after ``start`` in turn order (``0 <= turn < n_players``).

    A compare and subtract rather than ``%``: an integer division on every turn of every round
    was a measurable share of a game.
    """
    seat = start + turn
    return seat - n_players if seat >= n_players else seat


@nb.njit(cache=True, inline="always")
def play_fan(t, seat, value, count):
    """``seat`` plays ``count`` cards of ``value`` (F4)."""
    t.hands[seat, value] -= count
    t.hand_size[seat] -= count
    t.played_value[seat] = value
    t.played_count[seat] = count
    t.taken_fans[value] |= 1 << count


@nb.njit(cache=True, inline="always")
def take_stack(t, seat, s):
    """``seat`` takes display stack ``s`` into its hand (F6)."""
    t.hands[seat, t.stack_value[s]] += t.stack_size[s]
    t.hand_size[seat] += t.stack_size[s]
    t.stack_size[s] = 0


@nb.njit(cache=True, inline="always")
def award_medals(t, n_players, medal_values, n_played):
    """F5: medals to the ``n_played`` seats in ``t.order`` (already ranked by count, value)."""
    rows = len(MEDAL_ROWS) if n_players >= BRONZE_MIN_PLAYERS else len(MEDAL_ROWS) - 1
    for place in range(min(rows, n_played)):
        seat = t.order[place]
        points = medal_values[place, t.medal_next[place]]
        t.medal_next[place] += 1
        t.medals[seat, t.n_medals[seat]] = points
        t.n_medals[seat] += 1
        t.medal_points[seat] += points


@nb.njit(cache=True, inline="always")
def take_chosen_stack(t, seat, c):
    """``seat`` takes the first display stack of the (value, size) in ``t.choices[c]`` (F6)."""
    for s in range(t.counters[N_STACKS]):
        size = t.stack_size[s]
        if size > 0 and t.stack_value[s] == t.choices[c, 0] and size == t.choices[c, 1]:
            take_stack(t, seat, s)
            return


@nb.njit(cache=True, inline="always")
def decide(t, seats, seat, decision, n, round_, phase, index, search):
    """The choice of ``seat`` among the ``n`` in ``t.choices``: its policy's answer, or, for a
    ``rollout`` seat of a searching run, the search's (:func:`search_decision`), which resumes
    its play-outs at (``round_``, ``phase``, ``index``).

    ``search`` is None in a run without search: numba then drops the branch, so such a run
    compiles without the search (and the play-outs, which pass None, never search).
    """
    # Two ifs, not one "and": numba drops a branch only on a test of the argument alone.
    if search is not None:  # noqa: SIM102
        if seats.policy_ids[seat] == ROLLOUT:
            t.counters[ROUND] = round_
            t.counters[PHASE] = phase
            t.counters[INDEX] = index
            return search_decision(t, seat, decision, n, seats.weights[seat], search)
    return ask_policy(
        seats.policy_ids,
        seats.policies,
        seat,
        decision,
        t.seat_view,
        t.choices,
        n,
        seats.weights[seat],
        t.policy_rng[seat],
    )


@nb.njit(cache=True, inline="always")
def play_round(
    t,
    round_,
    fan,
    n_players,
    seats,
    medal_values,
    error,
    search,
):
    """One round: reveal, play fans, medals, take stacks. False if a policy answered illegally."""
    reveal_display(t)
    fill(t.played_count, MAX_PLAYERS, 0)
    fill(t.played_value, MAX_PLAYERS, 0)
    fill(t.taken_fans, N_VALUES + 1, 0)
    return finish_round(
        t,
        round_,
        fan,
        n_players,
        FANS_PHASE,
        0,
        seats,
        medal_values,
        error,
        search,
    )


@nb.njit(cache=True, inline="always")
def finish_round(
    t,
    round_,
    fan,
    n_players,
    phase,
    first,
    seats,
    medal_values,
    error,
    search,
):
    """The round on ``t`` from turn ``first`` of ``phase`` on (a whole round from the display
    revealed: ``FANS_PHASE``, 0). False if a policy answered illegally.

    A searched decision's play-outs resume here after the searching seat's choice.
    """
    start = t.counters[START_SEAT]
    if phase == FANS_PHASE:
        # Phase 2: fans in turn order (F4)
        for turn in range(first, n_players):
            seat = turn_seat(start, turn, n_players)
            if seats.policy_ids[seat] == GREEDY:
                # Greedy's choice read straight off the hand, equal to asking it (tested).
                key = greedy_fan_key(t.hands[seat], t.taken_fans)
                if key >= GREEDY_KEY_RADIX:
                    play_fan(t, seat, key % GREEDY_KEY_RADIX, key // GREEDY_KEY_RADIX)
                continue
            n = legal_fans(t, seat)
            if n == 0:
                continue
            if seats.reads_view[seat]:
                fill_view(t, round_, fan, n_players, seat)
                fill_next_medals(t, n_players, medal_values)
            c = decide(t, seats, seat, PLAY_FAN, n, round_, FANS_PHASE, turn, search)
            if c < 0 or c >= n:
                error[0] = seat
                error[1] = PLAY_FAN
                error[2] = c
                error[3] = n
                return False
            play_fan(t, seat, t.choices[c, 0], t.choices[c, 1])
        # Phase 3: medals by count, then value (F5)
        n_played = order_for_medals(t, n_players, start)
        award_medals(t, n_players, medal_values, n_played)
        t.counters[GOLD_SEAT] = t.order[0] if n_played > 0 else start
        # Phase 4: stacks by value, then count, then passers in turn order (F6)
        order_for_stacks(t, n_players, start)
        first = 0
    for i in range(first, n_players):
        seat = t.order[i]
        if seats.policy_ids[seat] == GREEDY:
            s = greedy_stack(t.stack_value, t.stack_size)
            if s < 0:
                break  # F3: fewer stacks than players when both piles ran dry
            take_stack(t, seat, s)
            continue
        n = stack_choices(t)
        if n == 0:
            break  # F3: fewer stacks than players when both piles ran dry
        if seats.reads_view[seat]:
            fill_view(t, round_, fan, n_players, seat)
            fill_next_medals(t, n_players, medal_values)
        c = decide(t, seats, seat, TAKE_STACK, n, round_, STACKS_PHASE, i, search)
        if c < 0 or c >= n:
            error[0] = seat
            error[1] = TAKE_STACK
            error[2] = c
            error[3] = n
            return False
        take_chosen_stack(t, seat, c)
    # End of round: fans and untaken stacks to the discard pile; Gold winner starts (F7)
    for seat in range(n_players):
        t.discard[t.played_value[seat]] += t.played_count[seat]
    for s in range(t.counters[N_STACKS]):
        t.discard[t.stack_value[s]] += t.stack_size[s]
        t.stack_size[s] = 0
    t.counters[START_SEAT] = t.counters[GOLD_SEAT]
    return True


@nb.njit(cache=True, inline="always")
def sort_medals_desc(medals, n):
    """Sort ``medals[:n]`` in place, highest first."""
    for i in range(1, n):
        x = medals[i]
        j = i - 1
        while j >= 0 and medals[j] < x:
            medals[j + 1] = medals[j]
            j -= 1
        medals[j + 1] = x


@nb.njit(cache=True, inline="always")
def sort_medals_of_tied_seats(t, scores, n_players):
    """Sort the medals, highest first, of each seat tied with another on score or medal points.

    Only a tie reads the medals (F10), and sorting every seat's medals was a string of
    mispredicted branches in every game.
    """
    for s in range(n_players):
        tied = False
        for o in range(n_players):
            tied |= (o != s) & ((scores[o] == scores[s]) | (t.medal_points[o] == t.medal_points[s]))
        if tied:
            sort_medals_desc(t.medals[s], t.n_medals[s])


@nb.njit(cache=True, inline="always")
def play_game(
    t,
    seed,
    game,
    n_players,
    fan,
    seats,
    deck,
    medal_values,
    finale_medals,
    force,
    out,
    row,
    trace,
    record_trace,
    forced,
    error,
    search,
):
    """Play game ``game`` on table ``t`` and write its outcome into row ``row`` of ``out``.

    Under a card-effect intervention (``force``) row ``row`` of ``forced`` gets what
    :func:`exchange_forced_card` returned. ``search`` is a worker's :class:`Searcher` in a run
    that seats ``rollout``, else None.
    """
    setup_game(t, seed, game, n_players, deck, force)
    out.first_seat[row] = t.counters[START_SEAT]
    if force[FORCE_CARD] > 0:
        forced[row, 0] = t.counters[FORCED_HELD]
        forced[row, 1] = t.counters[FORCED_DONE]
    for round_ in range(ROUNDS):
        if not play_round(t, round_, fan, n_players, seats, medal_values, error, search):
            return False
        if record_trace:
            for s in range(n_players):
                trace[row, s, round_] = t.medal_points[s]
    score_game(t, n_players, fan, finale_medals, out, row)
    return True


@nb.njit(cache=True, inline="always")
def final_scores(t, n_players, fan, finale_medals, finale_points, scores):
    """The Grande Finale (F8, F9) of the game on ``t``: each seat's finale medal points into
    ``finale_points`` and total into ``scores``; the cards each finale fan counts stay in
    ``t.order``. The medals of seats tied on a score are sorted for the tie-break (F10)."""
    finale_counts = t.order  # reuse scratch: counts per seat
    for s in range(n_players):
        finale_counts[s] = finale_count_of_counts(fan, t.hands[s])
    finale_medal_points(finale_counts, n_players, finale_medals, finale_points)
    for s in range(n_players):
        scores[s] = t.medal_points[s] + finale_points[s]
    sort_medals_of_tied_seats(t, scores, n_players)


@nb.njit(cache=True, inline="always")
def score_game(t, n_players, fan, finale_medals, out, row):
    """The Grande Finale and the final ranking (F8-F10) of the game on ``t``, into row ``row``.

    Reads the hands, medals won (``medals``, ``n_medals``, ``medal_points``), discard pile and
    draw pile length of ``t``; writes every outcome column of the row but ``first_seat``.
    """
    final_scores(t, n_players, fan, finale_medals, out.finale_points[row], out.score[row])
    for s in range(n_players):
        out.finale_count[row, s] = t.order[s]
        out.medal_points[row, s] = t.medal_points[s]
        out.medals[row, s] = t.n_medals[s]
        out.hand_size[row, s] = t.hand_size[s]
    rank_players(out.score[row], t.medals, t.n_medals, n_players, out.rank[row], out.win_share[row])
    rank_players(
        t.medal_points,
        t.medals,
        t.n_medals,
        n_players,
        out.pre_finale_rank[row],
        out.pre_finale_win_share[row],
    )
    pile_and_discard = t.counters[PILE_LEN]
    for value in range(1, N_VALUES + 1):
        pile_and_discard += t.discard[value]
    out.cards_outside_hands[row] = pile_and_discard


# --- Search (rollout): the engine's side of the search contract (fairysim.sim.search) ----------

SearchContext = namedtuple(
    "SearchContext",
    [
        "playout_ids",  # int64[MAX_PLAYERS]: the built-in id each seat's rollout plays out with
        "playout_weights",  # float64[MAX_PLAYERS, MAX_WEIGHTS]: that built-in's weights
        "reads_view",  # bool[MAX_PLAYERS], all True: the play-outs fill every view
        "n_players",
        "fan",
        "medal_values",
        "finale_medals",
    ],
)
"""What every worker's search reads: the run's play-out policies and rule tables."""

Searcher = namedtuple(
    "Searcher",
    [
        "context",  # the run's SearchContext
        "policies",  # the run's function tuple (the play-outs ask built-ins only)
        "det",  # Table: the real table with the hidden cards redrawn
        "work",  # Table: one play-out
        "totals",  # float64[MAX_CHOICES]: each choice's summed win share
        "ids",  # int64[MAX_PLAYERS]: the play-out's policy ids (the searching seat's default)
        "weights",  # float64[MAX_PLAYERS, MAX_WEIGHTS]: the play-out's weights
        "error",  # int64[4]: a play-out's illegal answer (a built-in gives none)
    ],
)
"""One worker's search: the shared context and its own scratch tables."""


@nb.njit(cache=True)
def new_search_scratch():
    """The scratch arrays of one worker's :class:`Searcher` (one allocation per worker)."""
    return (
        np.zeros(MAX_CHOICES, np.float64),
        np.zeros(MAX_PLAYERS, np.int64),
        np.zeros((MAX_PLAYERS, MAX_WEIGHTS), np.float64),
        np.zeros(4, np.int64),
    )


@nb.njit(cache=True)
def worker_searcher(search, policies, det, work, scratch):
    """A worker's :class:`Searcher` over ``search`` (a :class:`SearchContext`), or None in a run
    without search. (Not inlined: the parallel loop's array analysis cannot follow a branch
    numba drops.)"""
    if search is None:
        return None
    return Searcher(
        search,
        policies,
        det,
        work,
        borrowed(scratch[0]),
        borrowed(scratch[1]),
        borrowed(scratch[2]),
        borrowed(scratch[3]),
    )


@nb.njit(cache=True)
def continue_game(
    t,
    round_,
    phase,
    first,
    fan,
    n_players,
    seats,
    medal_values,
    error,
    search,
):
    """Play the game on ``t`` to its end from turn ``first`` of ``phase`` in round ``round_``;
    False if a policy answered illegally. The play-outs call it with ``search`` None."""
    if not finish_round(
        t, round_, fan, n_players, phase, first, seats, medal_values, error, search
    ):
        return False
    for r in range(round_ + 1, ROUNDS):
        if not play_round(t, r, fan, n_players, seats, medal_values, error, search):
            return False
    return True


@nb.njit(cache=True)
def seat_win_share(t, n_players, fan, finale_medals, seat):
    """``seat``'s win share (ties split, F10) of the finished game on ``t``."""
    finale_points = stack_int64(MAX_PLAYERS)
    scores = stack_int64(MAX_PLAYERS)
    rank = stack_int64(MAX_PLAYERS)
    share = stack_float64(MAX_PLAYERS)
    final_scores(t, n_players, fan, finale_medals, finale_points, scores)
    rank_players(scores, t.medals, t.n_medals, n_players, rank, share)
    return share[seat]


@nb.njit(cache=True)
def play_out(t, seat, choice, searcher):
    """The search contract's play-out: ``seat`` makes choice ``choice`` at the decision pending
    on ``t`` (its resume point in ``t.counters``), every seat plays the rest of the game by the
    searching seat's play-out policy; ``seat``'s win share. (:func:`continue_game` stays linked,
    not compiled apart: a Fantastique play-out is a few microseconds, and a call through a
    pointer, which passes the table by value, cost the search player 30% of its rate.)"""
    context = searcher.context
    round_ = t.counters[ROUND]
    phase = t.counters[PHASE]
    if phase == FANS_PHASE:
        play_fan(t, seat, t.choices[choice, 0], t.choices[choice, 1])
    else:
        take_chosen_stack(t, seat, choice)
    if not continue_game(
        t,
        round_,
        phase,
        t.counters[INDEX] + 1,
        context.fan,
        context.n_players,
        SeatPolicies(searcher.ids, searcher.policies, context.reads_view, searcher.weights),
        context.medal_values,
        searcher.error,
        None,
    ):
        return 0.0
    return seat_win_share(t, context.n_players, context.fan, context.finale_medals, seat)


rollout_search = make_rollout_search(copy_table, redraw_hidden, play_out)
"""Fantastique's rollout search (:func:`fairysim.sim.search.make_rollout_search`)."""


@nb.njit(cache=True)
def search_decision(t, seat, decision, n, own_weights, searcher):
    """The choice a ``rollout`` seat makes among the ``n`` in ``t.choices``: its play-out
    policy's choice (asked as that policy would be), unless :data:`rollout_search` finds a
    better one. ``own_weights`` are the seat's rollout weights."""
    context = searcher.context
    for s in range(MAX_PLAYERS):
        searcher.ids[s] = context.playout_ids[seat]
        for w in range(MAX_WEIGHTS):
            searcher.weights[s, w] = context.playout_weights[seat, w]
    default_choice = ask_policy(
        searcher.ids,
        searcher.policies,
        seat,
        decision,
        t.seat_view,
        t.choices,
        n,
        searcher.weights[seat],
        t.policy_rng[seat],
    )
    if default_choice < 0 or default_choice >= n:
        return default_choice
    return rollout_search(
        t,
        searcher.det,
        searcher.work,
        seat,
        n,
        default_choice,
        int(own_weights[ROLLOUTS]),
        t.policy_rng[seat],
        searcher.totals,
        searcher,
    )


# ``_nrt=False`` compiles a block of games (and every helper inlined into it) without numba's
# runtime: no reference counting at all, so no incref/decref call (atomic or not) wherever a
# helper copies a table field or takes a row view. Borrowing alone made those calls cheap, but
# each one still cost a call and kept LLVM from reusing loaded values across it (~30% of a greedy
# game). It also makes "the game loop allocates nothing" a compile-time guarantee: an allocation
# here fails to compile. The arrays are owned by ``play_games``, which outlives every call, and
# it calls this through a pointer (kernel_levels), so its parallel loop does not compile it again.
@nb.njit(cache=True, _nrt=False)
def play_block(
    t,
    seed,
    first_game,
    lo,
    hi,
    n_players,
    fan,
    seats,
    deck,
    medal_values,
    finale_medals,
    force,
    out,
    trace,
    record_trace,
    forced,
    error,
    search,
):
    """Play games ``first_game + lo .. first_game + hi - 1`` into rows ``lo .. hi - 1``.

    One call per block, not per game: a call passes the table and outcome arrays by value,
    some 2 kB of stack copied every game.
    """
    for row in range(lo, hi):
        # A game whose policy answers illegally stops the block; the record says where and why.
        if not play_game(
            t,
            seed,
            first_game + row,
            n_players,
            fan,
            seats,
            deck,
            medal_values,
            finale_medals,
            force,
            out,
            row,
            trace,
            record_trace,
            forced,
            error[1:],
            search,
        ):
            error[ERROR_ROW] = row
            return


@nb.njit(cache=True, parallel=True)
def play_games(
    seed,
    first_game,
    n_players,
    fan,
    policy_ids,
    policies,
    reads_view,
    weights,
    deck_counts,
    medal_values,
    finale_medals,
    force,
    out,
    trace,
    record_trace,
    forced,
    errors,
    search,
    n_threads,
    blocks,
):
    """Play games ``first_game .. first_game + len(out.score) - 1`` across numba threads.

    ``n_threads`` workers, one table each, take blocks of :data:`.blocks.GAMES_PER_BLOCK`
    games as they come free (:mod:`fairysim.sim.blocks`); ``errors`` holds one record per block
    (:func:`fairysim.sim.batch.new_error_records`). Results depend only on (seed, game), never on
    the thread that plays a game. (The thread count is passed in: calling
    ``numba.get_num_threads`` here would make the kernel uncacheable.)

    ``force`` (int64[:data:`FORCE_SIZE`]) is a card-effect intervention, ``force[0] = 0`` for
    none; under one, ``forced`` (int8[games, 2]) gets each game's ``(held, done)``
    (:func:`exchange_forced_card`), else it may be any (1, 2) array.

    ``search`` is the :class:`SearchContext` of a run that seats ``rollout``, else None (the
    kernel then compiles without the search). ``blocks`` holds :func:`play_block` compiled apart
    for the run's types (:func:`kernel_levels`).
    """
    n_games = out.score.shape[0]
    n_blocks = block_count(n_games, GAMES_PER_BLOCK)
    queue = np.zeros(1, np.int64)
    deck = lay_out_counts(deck_counts)  # slot 0 counts no card
    total_cards = len(deck)
    # Arrays owned by the caller (Python) or by ``owner`` below are borrowed for the game loop,
    # so the loop does no atomic reference counting (see fairysim.sim.borrow).
    for _ in nb.prange(worker_count(n_threads, n_blocks)):
        owner = new_table(total_cards)
        t = borrowed_fields(owner)
        det_owner = new_table(total_cards)
        work_owner = new_table(total_cards)
        scratch = new_search_scratch()
        searcher = worker_searcher(
            search, policies, borrowed_fields(det_owner), borrowed_fields(work_owner), scratch
        )
        block_out = borrowed_fields(out)
        block_errors = borrowed(errors)
        block_trace = borrowed(trace)
        # Every array the game loop reads is borrowed: the helpers play_game still calls
        # (scoring, random streams) count references, atomically for an owned array.
        seats = SeatPolicies(
            borrowed(policy_ids), policies, borrowed(reads_view), borrowed(weights)
        )
        block_deck = borrowed(deck)
        block_medal_values = borrowed(medal_values)
        block_finale_medals = borrowed(finale_medals)
        block_force = borrowed(force)
        block_forced = borrowed(forced)
        block = claim_block(queue)
        while block < n_blocks:
            lo, hi = block_rows(block, GAMES_PER_BLOCK, n_games)
            blocks[0](
                t,
                seed,
                first_game,
                lo,
                hi,
                n_players,
                fan,
                seats,
                block_deck,
                block_medal_values,
                block_finale_medals,
                block_force,
                block_out,
                block_trace,
                record_trace,
                block_forced,
                block_errors[block],
                searcher,
            )
            block = claim_block(queue)
        keep_alive(owner)
        keep_alive(det_owner)
        keep_alive(work_owner)
        keep_alive(scratch)
    keep_alive(deck)


def kernel_levels(
    policies, deck_counts, medal_values, finale_medals, force, out, trace, forced, errors, search
) -> tuple:
    """:func:`play_block` compiled apart (:mod:`fairysim.sim.apart`) for the types
    :func:`play_games` calls it with, given the run's arguments to it (``policies`` the seats'
    :class:`fairysim.sim.policy.SeatPolicies`): ``(blocks,)``, what :func:`play_games` takes
    last. Apart, a block compiles once, not again in the parallel loop."""
    int64 = nb.types.int64
    deck = lay_out_counts(deck_counts)
    table = new_table(len(deck))
    searcher = None
    if search is not None:
        searcher = Searcher(search, policies.functions, table, table, *new_search_scratch())
    seats = SeatPolicies(*policies)
    arrays = (seats, deck, medal_values, finale_medals, force, out, trace)
    blocks = apart(
        play_block,
        (
            nb.typeof(table),
            *[int64] * 6,  # seed, first_game, lo, hi, n_players, fan
            *[nb.typeof(a) for a in arrays],
            nb.types.boolean,  # record_trace
            nb.typeof(forced),
            nb.typeof(errors[0]),
            nb.typeof(searcher),
        ),
    )
    return (blocks,)


OUTCOME_COLUMNS = {
    # name: (dtype, per seat?). Narrow types: a chunk's outcome is written into fresh memory, and
    # every page of it costs a page fault; at int64 throughout that was ~10 % of a greedy game.
    "score": (np.int16, True),  # total points
    "medal_points": (np.int16, True),
    "finale_count": (np.int8, True),  # cards the Grande Finale fan counts
    "finale_points": (np.int16, True),  # Grande Finale medal points
    "medals": (np.int8, True),  # medals won in rounds 1-7
    "hand_size": (np.int8, True),  # cards in hand at the end
    "rank": (np.int8, True),  # 1 = winner
    "win_share": (np.float64, True),
    "pre_finale_rank": (np.int8, True),  # rank on medal points alone
    "pre_finale_win_share": (np.float64, True),
    "first_seat": (np.int8, False),  # start seat of round 1 (F1)
    "cards_outside_hands": (np.int16, False),  # draw pile + discard pile at the end
}
"""Outcome arrays: dtype, and whether shaped ``(games, players)`` (else ``(games,)``)."""

Outcome = namedtuple("Outcome", list(OUTCOME_COLUMNS))


def new_outcome(games: int, players: int) -> Outcome:
    """Allocate the outcome arrays of a chunk of ``games`` games (see :data:`OUTCOME_COLUMNS`).

    Uninitialised: ``play_game`` writes every value of a game's row.
    """
    return Outcome(
        **{
            name: np.empty((games, players) if per_seat else games, dtype)
            for name, (dtype, per_seat) in OUTCOME_COLUMNS.items()
        }
    )
