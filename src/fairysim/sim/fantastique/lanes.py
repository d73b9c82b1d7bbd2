"""Greedy tables played in lanes: a batch of games side by side, one step of all of them at a time.

When every seat plays ``greedy`` (the benchmark's table, and the baseline of most studies), no
decision needs a policy call, and every step of a round is the same arithmetic for every game.
This engine keeps the state of ``LANES`` games in one flat ``int64`` array, field by field (row
``F`` holds field ``F`` of every game), and plays each step of a round as one loop over the
games whose body has no branch on the data. LLVM turns such a loop into vector instructions, four
games an instruction on this project's machines, so no card of any game costs a mispredicted
branch, where the one-game engine (:mod:`.engine`) pays one whenever the cards surprise the
branch predictor.

Each game is the same game as the one-game engine plays, draw for draw (tests compare the two
engines game by game, and the one-game engine is compared with :mod:`.reference`). Small counts
are packed into one integer per game, a byte or a nibble a value (``HAND``: cards of value ``v``
in byte ``v - 1``), so a seat's hand or the display is one word, and taking a stack is one add.
The bytes hold any hand (at most ``HAND_SIZE + ROUNDS * STACK_LIMIT`` cards) but not the discard
pile of a deck with more than 255 cards of one value: such a card file goes to the one-game engine
(:func:`fits_lanes`).

The steps that are rare or per game stay one game at a time: the shuffle and deal, the reshuffle
of the discard pile when a reveal runs out of cards (F3), and the final scoring (shared with the
one-game engine, :func:`.engine.score_game`).
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros

from fairysim.sim.blocks import block_count, block_rows, claim_block, worker_count
from fairysim.sim.borrow import borrowed, borrowed_fields, keep_alive
from fairysim.sim.fantastique.engine import (
    DEAL_COUNT_BITS,
    DEAL_COUNT_MASK,
    PILE_LEN,
    SORT_SEAT_BITS,
    deal_hand_packed,
    new_table,
    score_game,
    shuffle_deck,
    sort_five_descending,
    unpack_counts,
)
from fairysim.sim.fantastique.policies import GREEDY_KEY_RADIX
from fairysim.sim.fantastique.rules import (
    BRONZE_MIN_PLAYERS,
    DISPLAY_STACKS,
    HAND_SIZE,
    MAX_MEDAL_POINTS,
    MAX_PLAYERS,
    MEDAL_ROWS,
    N_VALUES,
    ROUNDS,
    STACK_LIMIT,
)
from fairysim.sim.lane_ops import lane_mask, pick
from fairysim.sim.rng import (
    DEAL_STREAM,
    RNG_STATE_SIZE,
    lay_out_counts,
    randint,
    seed_stream,
    shuffle_prefix,
)

LANES = 252
"""Games a worker plays side by side. A field's row is 2,016 bytes long, so two rows fall a
multiple of 4 KiB apart only 128 rows apart: rows 4 KiB apart make the processor take a store to
one for a store to the other ("4K aliasing"), which made 512 lanes three times slower."""

GAMES_PER_LANE_BLOCK = 2 * LANES
"""Games in one block a worker takes (:mod:`fairysim.sim.blocks`): whole sets of lanes, so only
a chunk's last block plays lanes left empty."""

NIBBLE = 4
NIBBLE_MASK = (1 << NIBBLE) - 1
"""The display is packed a nibble a slot: the stack a value joins (stack number + 1, 0 = none),
and each stack's value and size."""
assert N_VALUES * NIBBLE <= 64 and DISPLAY_STACKS * NIBBLE <= 64
assert DISPLAY_STACKS < NIBBLE_MASK and N_VALUES <= NIBBLE_MASK and STACK_LIMIT <= NIBBLE_MASK

REVEAL_MAX = (DISPLAY_STACKS - 1) * STACK_LIMIT + 1
"""Most cards a reveal can take (F2): four full stacks, then the card that starts the fifth."""

KEY_BITS = 4
"""Greedy's fan and stack keys are ``size << KEY_BITS | value`` (``GREEDY_KEY_RADIX``)."""
assert 1 << KEY_BITS == GREEDY_KEY_RADIX

FAN_COUNT_BITS = 5
"""A fan's count fits 5 bits (a hand holds at most 31 cards), so seats ordered by value, then
count use the key ``value << FAN_COUNT_BITS | count``."""
assert HAND_SIZE + ROUNDS * STACK_LIMIT < 1 << FAN_COUNT_BITS

LANE_COUNT_LIMIT = DEAL_COUNT_MASK
"""Most cards of one value a deck may have for the lanes: hands and the discard pile count a
value in one byte."""
assert HAND_SIZE + ROUNDS * STACK_LIMIT <= DEAL_COUNT_MASK  # any hand fits its bytes

TAKEN_BITS = 32
TAKEN_ROWS = N_VALUES * TAKEN_BITS // 64
"""The fans taken this round, a bit per size in 32 bits a value, two values a row: bit ``k`` of
value ``v``'s field is set once the fan (v, k) is played (F4)."""
assert HAND_SIZE + ROUNDS * STACK_LIMIT < TAKEN_BITS and N_VALUES % 2 == 0

MEDAL_BITS = 10
MEDALS_PER_WORD = 6
"""A medal row's values are packed 10 bits each, six in one word and the rest in a second."""
assert MAX_MEDAL_POINTS < 1 << MEDAL_BITS and ROUNDS <= 2 * MEDALS_PER_WORD
assert MEDAL_BITS * MEDALS_PER_WORD <= 63

# Field rows of the lane state (each LANES long).
HAND = 0  # MAX_PLAYERS rows: each seat's hand, packed a byte a value
DISCARD = HAND + MAX_PLAYERS  # packed a byte a value
DRAW_PILE = DISCARD + 1  # cards left in the draw pile
START = DRAW_PILE + 1  # this round's start seat
TAKEN = START + 1  # TAKEN_ROWS rows: fans played this round, see TAKEN_BITS
PLAYED = (
    TAKEN + TAKEN_ROWS
)  # MAX_PLAYERS rows: each seat's fan this round as greedy's key, 0 = none
TURN_SEAT = PLAYED + MAX_PLAYERS  # the seat whose turn it is
TURN_KEY = TURN_SEAT + 1  # its hand, then its fan's key
OPEN_STACK = TURN_KEY + 1  # display, packed a nibble a slot (see NIBBLE)
STACK_VALUE = OPEN_STACK + 1
STACK_SIZE = STACK_VALUE + 1
N_STACKS = STACK_SIZE + 1
MEDAL_POINTS = N_STACKS + 1  # MAX_PLAYERS rows
MEDAL_NEXT = MEDAL_POINTS + MAX_PLAYERS  # a row per medal row: next unawarded medal
SORT_WORDS = MEDAL_NEXT + len(MEDAL_ROWS)  # MAX_PLAYERS rows: seat order (engine's sort words)
GOLD_SEAT = SORT_WORDS + MAX_PLAYERS
CARDS = GOLD_SEAT + 1  # REVEAL_MAX rows: the top cards of the draw pile, top first
MEDAL_WINNER = CARDS + REVEAL_MAX  # ROUNDS * 3 rows: seat that won (round, row); -1 = none
N_FIELDS = MEDAL_WINNER + ROUNDS * len(MEDAL_ROWS)


def fits_lanes(deck_counts: np.ndarray) -> bool:
    """Whether a deck (cards by value) can be played in lanes (at most 255 cards of a value)."""
    return int(np.max(deck_counts)) <= LANE_COUNT_LIMIT


@nb.njit(cache=True, inline="always")
def at(field, lane):
    """Index of ``field`` (a row number above) of game ``lane`` in the flat lane state."""
    return field * LANES + lane


@nb.njit(cache=True, inline="always")
def byte_shift(value):
    """Bit offset of value ``value``'s byte in a packed hand (masked: value 0 shifts harmlessly)."""
    return (DEAL_COUNT_BITS * (value - 1)) & 63


@nb.njit(cache=True, inline="always")
def reveal_card(open_stack, stack_value, stack_size, n_stacks, card):
    """F2 for one revealed card on the packed display: the card joins the open stack of its
    value, else starts a stack; a stack is closed at ``STACK_LIMIT`` cards, so a fourth card of
    a value starts a new one. Returns the new ``(open_stack, stack_value, stack_size,
    n_stacks)``."""
    value_shift = (NIBBLE * (card - 1)) & 63
    joins = (open_stack >> value_shift) & NIBBLE_MASK
    starts = lane_mask(joins == 0)
    s = pick(starts, n_stacks, joins - 1)
    stack_shift = (NIBBLE * s) & 63
    size = ((stack_size >> stack_shift) & NIBBLE_MASK) + 1
    stack_size += 1 << stack_shift
    stack_value = (stack_value & ~(NIBBLE_MASK << stack_shift)) | (card << stack_shift)
    still_open = (s + 1) & lane_mask(size < STACK_LIMIT)
    open_stack = (open_stack & ~(NIBBLE_MASK << value_shift)) | (still_open << value_shift)
    return open_stack, stack_value, stack_size, n_stacks + (1 & starts)


@nb.njit(cache=True, inline="always")
def medal_word(values, first):
    """Medals ``first .. first + MEDALS_PER_WORD - 1`` of a row, packed ``MEDAL_BITS`` each."""
    word = 0
    for i in range(first, min(first + MEDALS_PER_WORD, ROUNDS)):
        word |= values[i] << (MEDAL_BITS * (i - first))
    return word


@nb.njit(cache=True, inline="always")
def medal_of(low, high, index):
    """Medal ``index`` of a row packed into ``low`` (the first six) and ``high`` (the rest)."""
    in_low = lane_mask(index < MEDALS_PER_WORD)
    word = pick(in_low, low, high)
    shift = (MEDAL_BITS * (index - (MEDALS_PER_WORD & ~in_low))) & 63
    return (word >> shift) & ((1 << MEDAL_BITS) - 1)


@nb.njit(cache=True, inline="always")
def start_games(S, piles, rngs, seed, first_game, n_players, deck, out, row0, nl):
    """Shuffle, deal and draw the first start seat (F1) of games ``row0 .. row0 + LANES - 1``;
    only the first ``nl`` are recorded in ``out``.

    One game at a time: the draws and order are :func:`.engine.setup_game`'s, with only the
    deal stream seeded (greedy seats draw nothing).
    """
    for lane in range(LANES):
        row = row0 + lane
        rng = rngs[lane]
        seed_stream(rng, seed, first_game + row, DEAL_STREAM)
        pile = piles[lane]
        n = shuffle_deck(rng, pile, deck)
        for s in range(MAX_PLAYERS):
            hand = 0
            if s < n_players:
                hand = deal_hand_packed(pile, n)
                n -= HAND_SIZE
            S[at(HAND + s, lane)] = hand
            S[at(MEDAL_POINTS + s, lane)] = 0
        S[at(DRAW_PILE, lane)] = n
        start = randint(rng, n_players)
        S[at(START, lane)] = start
        if lane < nl:
            out.first_seat[row] = start
        S[at(DISCARD, lane)] = 0
        for r in range(len(MEDAL_ROWS)):
            S[at(MEDAL_NEXT + r, lane)] = 0
        for i in range(ROUNDS * len(MEDAL_ROWS)):
            S[at(MEDAL_WINNER + i, lane)] = -1


@nb.njit(cache=True, inline="always")
def reshuffle_lane(S, lane, pile, rng):
    """F3 for one game: its discard pile, laid out by value, shuffled into a new draw pile.

    Returns the new draw pile's size, 0 if the discard pile was empty too.
    """
    discard = S[at(DISCARD, lane)]
    n = 0
    for value in range(1, N_VALUES + 1):
        for _ in range((discard >> byte_shift(value)) & DEAL_COUNT_MASK):
            pile[n] = value
            n += 1
    if n > 0:
        shuffle_prefix(rng, pile, n)
        S[at(DISCARD, lane)] = 0
    return n


@nb.njit(cache=True, inline="always")
def reveal_displays(S, piles, rngs):
    """Phase 1 of every game (F2, F3): reveal until a fifth stack starts or no card is left."""
    for lane in range(LANES):
        pile = piles[lane]
        left = S[at(DRAW_PILE, lane)]
        for k in range(REVEAL_MAX):
            S[at(CARDS + k, lane)] = pile[left - 1 - k] if k < left else 0
        S[at(OPEN_STACK, lane)] = 0
        S[at(STACK_VALUE, lane)] = 0
        S[at(STACK_SIZE, lane)] = 0
        S[at(N_STACKS, lane)] = 0
    for k in range(REVEAL_MAX):
        for lane in range(LANES):
            n_stacks = S[at(N_STACKS, lane)]
            card = S[at(CARDS + k, lane)]  # 0 past the bottom of the draw pile
            active = lane_mask((n_stacks < DISPLAY_STACKS) & (card > 0))
            open_stack, stack_value, stack_size, n_stacks = reveal_card(
                S[at(OPEN_STACK, lane)],
                S[at(STACK_VALUE, lane)],
                S[at(STACK_SIZE, lane)],
                n_stacks,
                card,
            )
            S[at(OPEN_STACK, lane)] = pick(active, open_stack, S[at(OPEN_STACK, lane)])
            S[at(STACK_VALUE, lane)] = pick(active, stack_value, S[at(STACK_VALUE, lane)])
            S[at(STACK_SIZE, lane)] = pick(active, stack_size, S[at(STACK_SIZE, lane)])
            S[at(N_STACKS, lane)] = pick(active, n_stacks, S[at(N_STACKS, lane)])
    for lane in range(LANES):
        # Every card revealed lies in a stack: the draw pile is down by the stacks' sizes.
        stack_size = S[at(STACK_SIZE, lane)]
        left = S[at(DRAW_PILE, lane)]
        for s in range(DISPLAY_STACKS):
            left -= (stack_size >> (NIBBLE * s)) & NIBBLE_MASK
        n_stacks = S[at(N_STACKS, lane)]
        if n_stacks < DISPLAY_STACKS:
            # The draw pile ran out before the fifth stack: go on one card at a time (F3).
            pile = piles[lane]
            open_stack = S[at(OPEN_STACK, lane)]
            stack_value = S[at(STACK_VALUE, lane)]
            stack_size = S[at(STACK_SIZE, lane)]
            while n_stacks < DISPLAY_STACKS:
                if left == 0:
                    left = reshuffle_lane(S, lane, pile, rngs[lane])
                    if left == 0:
                        break
                left -= 1
                open_stack, stack_value, stack_size, n_stacks = reveal_card(
                    open_stack, stack_value, stack_size, n_stacks, pile[left]
                )
            S[at(OPEN_STACK, lane)] = open_stack
            S[at(STACK_VALUE, lane)] = stack_value
            S[at(STACK_SIZE, lane)] = stack_size
            S[at(N_STACKS, lane)] = n_stacks
        S[at(DRAW_PILE, lane)] = left


@nb.njit(cache=True, inline="always")
def play_greedy_fans(S, n_players):
    """Phase 2 of every game (F4): each seat in turn plays greedy's fan (most cards, then
    highest value, among the fans still free), as :func:`.shortcuts.greedy.greedy_fan_key` reads
    it."""
    for r in range(TAKEN_ROWS):
        for lane in range(LANES):
            S[at(TAKEN + r, lane)] = 0
    for s in range(MAX_PLAYERS):
        for lane in range(LANES):
            S[at(PLAYED + s, lane)] = 0
    for turn in range(n_players):
        for lane in range(LANES):
            seat = S[at(START, lane)] + turn
            seat -= n_players & lane_mask(seat >= n_players)
            hand = 0
            for s in range(MAX_PLAYERS):
                hand |= S[at(HAND + s, lane)] & lane_mask(s == seat)
            S[at(TURN_SEAT, lane)] = seat
            S[at(TURN_KEY, lane)] = hand
        for lane in range(LANES):
            hand = S[at(TURN_KEY, lane)]
            best = 0
            for v in range(N_VALUES):
                count = (hand >> (DEAL_COUNT_BITS * v)) & DEAL_COUNT_MASK
                # The biggest size up to ``count`` not taken this round: the top bit of the free
                # sizes (bit 0, "no fan", is never taken), one vector leading-zero count.
                taken = S[at(TAKEN + v // 2, lane)] >> (TAKEN_BITS * (v % 2))
                free = ~taken & ((2 << count) - 1)
                best = max(best, ((63 - leading_zeros(free)) << KEY_BITS) | (v + 1))
            S[at(TURN_KEY, lane)] = best
        for lane in range(LANES):
            key = S[at(TURN_KEY, lane)]
            seat = S[at(TURN_SEAT, lane)]
            count = key >> KEY_BITS
            value = (key & NIBBLE_MASK) & lane_mask(count > 0)  # no free fan: the seat passes
            fan = count << byte_shift(value)
            # A pass (count 0) takes no fan; value 0 then falls in row 0's first field, bit 0.
            bit = ((1 << count) & -2) << (TAKEN_BITS * ((value - 1) & 1))
            for r in range(TAKEN_ROWS):
                S[at(TAKEN + r, lane)] |= bit & lane_mask((value - 1) >> 1 == r)
            played = (count << KEY_BITS) | value
            for s in range(MAX_PLAYERS):
                mine = lane_mask(s == seat)
                S[at(HAND + s, lane)] -= fan & mine
                S[at(PLAYED + s, lane)] = pick(mine, played, S[at(PLAYED + s, lane)])
            # Fans go to the discard pile at the end of the round; nothing reads it before.
            S[at(DISCARD, lane)] += fan


@nb.njit(cache=True, inline="always")
def order_seats(S, n_players, value_first):
    """Sort every game's seats into ``SORT_WORDS`` as :func:`.engine.order_seats_by_key` does:
    by their fan's count, then value (``value_first``: value, then count), descending; passers in
    turn order from the start seat. A word holds the key, the turn's rank and the seat."""
    for s in range(MAX_PLAYERS):
        for lane in range(LANES):
            turn = s - S[at(START, lane)]
            turn += n_players & lane_mask(turn < 0)
            key = S[at(PLAYED + s, lane)]  # count << KEY_BITS | value
            if value_first:
                key = ((key & NIBBLE_MASK) << FAN_COUNT_BITS) | (key >> KEY_BITS)
            word = (key << 2 * SORT_SEAT_BITS) | ((MAX_PLAYERS - 1 - turn) << SORT_SEAT_BITS) | s
            S[at(SORT_WORDS + s, lane)] = word if s < n_players else -1
    for lane in range(LANES):
        w0, w1, w2, w3, w4 = sort_five_descending(
            S[at(SORT_WORDS, lane)],
            S[at(SORT_WORDS + 1, lane)],
            S[at(SORT_WORDS + 2, lane)],
            S[at(SORT_WORDS + 3, lane)],
            S[at(SORT_WORDS + 4, lane)],
        )
        S[at(SORT_WORDS, lane)] = w0
        S[at(SORT_WORDS + 1, lane)] = w1
        S[at(SORT_WORDS + 2, lane)] = w2
        S[at(SORT_WORDS + 3, lane)] = w3
        S[at(SORT_WORDS + 4, lane)] = w4


@nb.njit(cache=True, inline="always")
def award_round_medals(S, round_, n_players, medal_words):
    """Phase 3 of every game (F5): medals by count, then value; the Gold winner starts next."""
    order_seats(S, n_players, False)
    rows = len(MEDAL_ROWS) if n_players >= BRONZE_MIN_PLAYERS else len(MEDAL_ROWS) - 1
    seat_mask = (1 << SORT_SEAT_BITS) - 1
    for place in range(rows):
        low = medal_words[place, 0]
        high = medal_words[place, 1]
        for lane in range(LANES):
            word = S[at(SORT_WORDS + place, lane)]
            played = lane_mask((word >> 2 * SORT_SEAT_BITS) > 0)
            seat = word & seat_mask
            index = S[at(MEDAL_NEXT + place, lane)]
            points = medal_of(low, high, index) & played
            S[at(MEDAL_NEXT + place, lane)] = index + (1 & played)
            for s in range(MAX_PLAYERS):
                S[at(MEDAL_POINTS + s, lane)] += points & lane_mask(s == seat)
            S[at(MEDAL_WINNER + round_ * len(MEDAL_ROWS) + place, lane)] = pick(played, seat, -1)
    for lane in range(LANES):
        word = S[at(SORT_WORDS, lane)]
        played = lane_mask((word >> 2 * SORT_SEAT_BITS) > 0)
        S[at(GOLD_SEAT, lane)] = pick(played, word & seat_mask, S[at(START, lane)])


@nb.njit(cache=True, inline="always")
def take_greedy_stacks(S, n_players):
    """Phase 4 of every game (F6): seats by value, then count, then passers in turn order, each
    taking greedy's stack (biggest, then highest value, first in display order); then the fans
    and the stacks left go to the discard pile and the Gold winner starts the next round (F7)."""
    order_seats(S, n_players, True)
    seat_mask = (1 << SORT_SEAT_BITS) - 1
    for i in range(n_players):
        for lane in range(LANES):
            seat = S[at(SORT_WORDS + i, lane)] & seat_mask
            stack_size = S[at(STACK_SIZE, lane)]
            stack_value = S[at(STACK_VALUE, lane)]
            best = GREEDY_KEY_RADIX - 1  # below every stack with a card
            best_stack = 0
            for s in range(DISPLAY_STACKS):
                size = (stack_size >> (NIBBLE * s)) & NIBBLE_MASK
                key = (size << KEY_BITS) | ((stack_value >> (NIBBLE * s)) & NIBBLE_MASK)
                better = lane_mask(key > best)
                best_stack = pick(better, s, best_stack)
                best = max(best, key)
            # With no stack left (F3: both piles ran dry) ``best`` has no card and stack 0 is
            # already empty, so the seat takes nothing.
            cards = (best >> KEY_BITS) << byte_shift(best & NIBBLE_MASK)
            for s in range(MAX_PLAYERS):
                S[at(HAND + s, lane)] += cards & lane_mask(s == seat)
            S[at(STACK_SIZE, lane)] = stack_size & ~(NIBBLE_MASK << (NIBBLE * best_stack))
    for lane in range(LANES):
        stack_size = S[at(STACK_SIZE, lane)]
        stack_value = S[at(STACK_VALUE, lane)]
        left_over = 0
        for s in range(DISPLAY_STACKS):
            size = (stack_size >> (NIBBLE * s)) & NIBBLE_MASK
            left_over += size << byte_shift((stack_value >> (NIBBLE * s)) & NIBBLE_MASK)
        S[at(DISCARD, lane)] += left_over
        S[at(START, lane)] = S[at(GOLD_SEAT, lane)]


@nb.njit(cache=True, inline="always")
def finish_games(S, t, n_players, fan, medal_values, finale_medals, out, row0, nl):
    """Unpack each of the first ``nl`` games onto the one-game table ``t`` and score it into
    ``out`` (:func:`.engine.score_game`)."""
    for lane in range(nl):
        for s in range(n_players):
            t.hand_size[s] = unpack_counts(S[at(HAND + s, lane)], t.hands[s])
            t.medal_points[s] = S[at(MEDAL_POINTS + s, lane)]
            t.n_medals[s] = 0
        # Medals in the order won, as the one-game engine records them: round by round, and a
        # row's medals in the order the row hands them out.
        for r in range(len(MEDAL_ROWS)):
            t.medal_next[r] = 0
        for round_ in range(ROUNDS):
            for r in range(len(MEDAL_ROWS)):
                seat = S[at(MEDAL_WINNER + round_ * len(MEDAL_ROWS) + r, lane)]
                if seat >= 0:
                    t.medals[seat, t.n_medals[seat]] = medal_values[r, t.medal_next[r]]
                    t.n_medals[seat] += 1
                    t.medal_next[r] += 1
        unpack_counts(S[at(DISCARD, lane)], t.discard)
        t.counters[PILE_LEN] = S[at(DRAW_PILE, lane)]
        score_game(t, n_players, fan, finale_medals, out, row0 + lane)


@nb.njit(cache=True, _nrt=False)
def play_lane_block(
    S,
    piles,
    rngs,
    t,
    seed,
    first_game,
    lo,
    hi,
    n_players,
    fan,
    deck,
    medal_values,
    medal_words,
    finale_medals,
    out,
    trace,
    record_trace,
):
    """Play games ``first_game + lo .. first_game + hi - 1`` into rows ``lo .. hi - 1``,
    ``LANES`` at a time (``_nrt=False`` as :func:`.engine.play_block`)."""
    for row0 in range(lo, hi, LANES):
        nl = min(LANES, hi - row0)
        start_games(S, piles, rngs, seed, first_game, n_players, deck, out, row0, nl)
        for round_ in range(ROUNDS):
            reveal_displays(S, piles, rngs)
            play_greedy_fans(S, n_players)
            award_round_medals(S, round_, n_players, medal_words)
            take_greedy_stacks(S, n_players)
            if record_trace:
                for lane in range(nl):
                    for s in range(n_players):
                        trace[row0 + lane, s, round_] = S[at(MEDAL_POINTS + s, lane)]
        finish_games(S, t, n_players, fan, medal_values, finale_medals, out, row0, nl)


@nb.njit(cache=True, parallel=True)
def play_greedy_games(
    seed,
    first_game,
    n_players,
    fan,
    deck_counts,
    medal_values,
    finale_medals,
    out,
    trace,
    record_trace,
    n_threads,
):
    """:func:`.engine.play_games` for a table where every seat plays greedy, in lanes.

    The same arguments but the policies (greedy's answers are built in) and the error records
    (greedy never answers illegally), and the same results, game by game. ``deck_counts`` must
    pass :func:`fits_lanes`.
    """
    n_games = out.score.shape[0]
    n_blocks = block_count(n_games, GAMES_PER_LANE_BLOCK)
    queue = np.zeros(1, np.int64)
    deck = lay_out_counts(deck_counts)
    total_cards = len(deck)
    medal_words = np.zeros((len(MEDAL_ROWS), 2), np.int64)
    for r in range(len(MEDAL_ROWS)):
        medal_words[r, 0] = medal_word(medal_values[r], 0)
        medal_words[r, 1] = medal_word(medal_values[r], MEDALS_PER_WORD)
    # Workers take blocks as they come free, as in .engine.play_games (fairysim.sim.blocks).
    for _ in nb.prange(worker_count(n_threads, n_blocks)):
        owner = new_table(total_cards)
        lane_state = np.zeros(N_FIELDS * LANES, np.int64)
        piles = np.zeros((LANES, total_cards), np.int64)
        rngs = np.zeros((LANES, RNG_STATE_SIZE), np.uint64)
        block = claim_block(queue)
        while block < n_blocks:
            lo, hi = block_rows(block, GAMES_PER_LANE_BLOCK, n_games)
            play_lane_block(
                borrowed(lane_state),
                borrowed(piles),
                borrowed(rngs),
                borrowed_fields(owner),
                seed,
                first_game,
                lo,
                hi,
                n_players,
                fan,
                borrowed(deck),
                borrowed(medal_values),
                borrowed(medal_words),
                borrowed(finale_medals),
                borrowed_fields(out),
                borrowed(trace),
                record_trace,
            )
            block = claim_block(queue)
        keep_alive(owner)
        keep_alive(lane_state)
        keep_alive(piles)
        keep_alive(rngs)
    keep_alive(deck)
    keep_alive(medal_words)
