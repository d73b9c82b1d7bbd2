"""The greedy policy played on the engine's own arrays: its answers, without a view, fast.

One module past 600 lines: the greedy shortcut's packed tables and the loops that read them
belong together; each half is unreadable without the other.

The engine answers greedy seats here instead of filling a view for
:func:`.policies.greedy_policy` and asking it: filling the view and rescoring whole orchestras
with divisions and data-dependent branches was most of a greedy game's work. Every answer must
be greedy_policy's; the reference engine asks greedy_policy itself, so the engine equivalence
tests check the two against each other.

The scoring here is :func:`.rules.base_score` rearranged for speed: set counts come from
per-card lookup tables (:func:`set_quotas`) instead of divisions, the soloist methods C and D
count equal token counts with bit tricks instead of nested loops, and for a single token
everything the choices share is worked out once per decision (:func:`card_outlook` for the score
cards; the count histogram, the largest count and :func:`quota_mins_without` for the contest
cards), after which each choice is scored in O(1) (:func:`contest_points_plus_one`). A solo
keep scores every multiset of its size side by side instead (:func:`best_keep`), a loop LLVM
turns into vector instructions, with the set quotas packed into words (:func:`set_quota_words`).

``trailing_zeros`` (LLVM's ``cttz``) comes from ``numba.cpython.unsafe.numbers``, an internal
module of numba (pinned below 0.70 in ``pyproject.toml``); the tests compare its use with the
rules.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from fairysim.sim.concerto.rules import (
    CHOICE_WIDTH,
    COMPOSER,
    CONDUCTOR_POINTS,
    ECCENTRIC,
    ECCENTRIC_POINTS,
    MAX_CHOICES,
    MULTITALENTED,
    MULTITALENTED_POINTS,
    N_KINDS,
    N_SCORE_CARDS,
    POINTS_PER_SCORE_CARD,
    POINTS_PER_SET,
    POPULAR,
    POPULAR_POINTS,
    SOLO_KEEP,
    TRUSTWORTHY,
    TRUSTWORTHY_POINTS,
    multiset_choices,
)
from fairysim.sim.scratch import stack_int64

QUOTA_SIZE = 16
"""Token counts the lookup tables cover. An orchestra holds at most 12 tokens (Pahha's 14), so
every count scored here is below 16; indices are masked with :data:`COUNT_MASK` so that no count
can read outside a table, and the nibble histogram of :func:`contest_part_points` relies on the
same bound."""
COUNT_MASK = QUOTA_SIZE - 1
KIND_MASK = 7
"""Covers every kind (0..4). A kind or card id read from an array is masked before it indexes
one: the mask changes no valid value, but tells LLVM the index is not negative, so numba's
negative-index wraparound (three instructions an index) folds away; 0.95-0.97x the time of a
4-player game (docs/architecture.md, "Speed")."""
CARD_MASK = 31
"""Covers every score card id (0..25, C9); see :data:`KIND_MASK`."""
assert N_KINDS <= KIND_MASK + 1 and N_SCORE_CARDS <= CARD_MASK + 1
NO_LIMIT = 1 << 20
"""Quota of a kind a set card does not show (it limits nothing)."""


@nb.njit(cache=True)
def set_quotas(sets):
    """``int64[cards, N_KINDS, QUOTA_SIZE]``: the complete sets each kind allows on its own,
    ``x // times shown`` for ``x`` tokens of the kind (:data:`NO_LIMIT` for kinds not shown), for
    the cards ``sets`` (``int64[cards, N_KINDS]``, times each kind is shown).

    A card's set count is the smallest quota over the kinds (:func:`.rules.set_count`).
    """
    quotas = np.full((sets.shape[0], N_KINDS, QUOTA_SIZE), NO_LIMIT, np.int64)
    for card in range(sets.shape[0]):
        for k in range(N_KINDS):
            if sets[card, k] > 0:
                for x in range(QUOTA_SIZE):
                    quotas[card, k, x] = x // sets[card, k]
    return quotas


NIBBLE_ONES = np.uint64(0x1111111111111111)
NIBBLE_HIGHS = np.uint64(0x8888888888888888)
ABSENT_NIBBLE = ~np.uint64(0xF)
"""Clears nibble 0 of a count histogram (the kinds with no token)."""


@nb.njit(cache=True, inline="always")
def largest_nibble(h):
    """The largest nibble of ``h``, each at most :data:`N_KINDS` (kinds per count).

    Nibble by nibble, ``x + 8 - t`` reaches the nibble's top bit exactly when ``x >= t``, and
    never carries into the next nibble (``N_KINDS + 7 < 16``)."""
    largest = 0
    for t in range(1, N_KINDS + 1):
        largest += ((h + np.uint64(8 - t) * NIBBLE_ONES) & NIBBLE_HIGHS) != 0
    return largest


@nb.njit(cache=True, inline="always")
def nonzero_nibbles(h):
    """How many nibbles of ``h`` are not 0; each nibble at most 7, and nibble 0 always 0."""
    flags = (h | (h >> np.uint64(1)) | (h >> np.uint64(2))) & NIBBLE_ONES
    # The product adds every flag into the top nibble; with nibble 0 clear there are at most 15,
    # so no partial sum carries.
    return np.int64((flags * NIBBLE_ONES) >> np.uint64(60))


@nb.njit(cache=True, inline="always")
def soloist_points(soloist, present, most, fewest):
    """Points of soloist method ``soloist`` (0..3 = A..D) for an orchestra whose count histogram
    with nibble 0 cleared is ``present`` (nibble ``v``: kinds with ``v`` tokens), whose largest
    count is ``most`` and whose fewest tokens of a present kind are ``fewest`` (0 if none)."""
    if soloist == TRUSTWORTHY:  # A: the fewest tokens of a present kind
        return TRUSTWORTHY_POINTS * fewest
    if soloist == POPULAR:  # B: most minus fewest present
        return POPULAR_POINTS * (most - fewest)
    if soloist == MULTITALENTED:  # C: the most present kinds sharing one count
        return MULTITALENTED_POINTS * largest_nibble(present)
    return ECCENTRIC_POINTS * nonzero_nibbles(present)  # D: distinct counts of present kinds


@nb.njit(cache=True, inline="always")
def sets_or_zero(sets):
    """A set count, 0 when no kind limited it (a card showing no kind)."""
    return 0 if sets == NO_LIMIT else sets


@nb.njit(cache=True, inline="always")
def fold_kind(summary, k, x, pianist_quota, harpist_quota):
    """The contest summary ``(most, fewest, pianist_sets, harpist_sets, histogram)`` of an
    orchestra with kind ``k``'s count ``x`` (below :data:`QUOTA_SIZE`) folded in.

    Start from :data:`EMPTY_SUMMARY`; ``fewest`` counts only present kinds (:data:`NO_LIMIT`
    while none is), the histogram's nibble ``v`` counts the kinds with ``v`` tokens."""
    most, fewest, pianist_sets, harpist_sets, histogram = summary
    return (
        max(most, x),
        min(fewest, x if x > 0 else NO_LIMIT),
        min(pianist_sets, pianist_quota[k, x]),
        min(harpist_sets, harpist_quota[k, x]),
        histogram + (np.uint64(1) << np.uint64(4 * x)),
    )


EMPTY_SUMMARY = (0, NO_LIMIT, NO_LIMIT, NO_LIMIT, np.uint64(0))
"""The contest summary of no kind at all (see :func:`fold_kind`)."""


@nb.njit(cache=True, inline="always")
def summary_part_points(summary, soloist):
    """Conductor, soloist, pianist and harpist points of a complete contest summary."""
    most, fewest, pianist_sets, harpist_sets, histogram = summary
    if fewest == NO_LIMIT:
        fewest = 0
    solo = soloist_points(soloist, histogram & ABSENT_NIBBLE, most, fewest)
    return (
        CONDUCTOR_POINTS * most,
        solo,
        POINTS_PER_SET * sets_or_zero(pianist_sets),
        POINTS_PER_SET * sets_or_zero(harpist_sets),
    )


@nb.njit(cache=True, inline="always")
def contest_part_points(c, pop, soloist, pianist_quota, harpist_quota):
    """Popularity, conductor, soloist, pianist and harpist points of counts ``c`` (each below
    :data:`QUOTA_SIZE`), as :func:`.rules.contest_parts` writes them."""
    summary = EMPTY_SUMMARY
    for k in range(N_KINDS):
        summary = fold_kind(summary, k, c[k] & COUNT_MASK, pianist_quota, harpist_quota)
    conductor, solo, pianist, harpist = summary_part_points(summary, soloist)
    return c[pop], conductor, solo, pianist, harpist


@nb.njit(cache=True, inline="always")
def contest_points(c, pop, soloist, pianist_quota, harpist_quota):
    """The five contest parts of counts ``c`` summed (:func:`contest_part_points`)."""
    popularity, conductor, solo, pianist, harpist = contest_part_points(
        c, pop, soloist, pianist_quota, harpist_quota
    )
    return popularity + conductor + solo + pianist + harpist


@nb.njit(cache=True, inline="always")
def card_complete(c, need, card):
    """True when counts ``c`` meet score card ``card``'s need (without an early exit: which
    kind falls short is unpredictable, a branch on it costs more than the compares)."""
    ok = True
    known_card = card & CARD_MASK
    for k in range(N_KINDS):
        ok &= c[k] >= need[known_card, k]
    return ok


@nb.njit(cache=True, inline="always")
def cards_complete(c, need, cards, n_cards):
    """How many of ``cards[:n_cards]`` counts ``c`` complete."""
    done = 0
    for i in range(n_cards):
        done += card_complete(c, need, cards[i])
    return done


@nb.njit(cache=True, inline="always")
def card_outlook(c, need, cards, n_cards, gain):
    """How many of ``cards[:n_cards]`` counts ``c`` complete (returned) and, into ``gain[k]``, how
    many more one token of kind ``k`` would complete (those lacking exactly that token)."""
    for k in range(N_KINDS):
        gain[k] = 0
    done = 0
    for i in range(n_cards):
        card = cards[i] & CARD_MASK
        missing = 0
        short_kind = 0
        for k in range(N_KINDS):
            d = max(0, need[card, k] - c[k])
            missing += d
            short_kind = k if d > 0 else short_kind
        done += missing == 0
        gain[short_kind] += missing == 1
    return done


@nb.njit(cache=True, inline="always")
def quota_mins_without(quota, counts, without):
    """``without[k]``: the fewest sets ``quota`` allows over every kind but ``k``, for ``counts``.

    Prefix and suffix minimums: each entry is two short independent chains, where a running
    minimum with its runner-up is one long one."""
    running = NO_LIMIT
    for k in range(N_KINDS):
        without[k] = running
        running = min(running, quota[k, counts[k] & COUNT_MASK])
    running = NO_LIMIT
    for k in range(N_KINDS - 1, -1, -1):
        without[k] = min(without[k], running)
        running = min(running, quota[k, counts[k] & COUNT_MASK])


@nb.njit(cache=True, inline="always")
def contest_points_plus_one(c, kind, histogram, most, pop, soloist, pq, hq, p_without, h_without):
    """:func:`contest_points` of counts ``c`` with one more token of ``kind``, in O(1) from the
    counts' ``histogram`` (nibble ``v``: kinds with ``v`` tokens), largest count ``most`` and
    :func:`quota_mins_without` of the pianist's and harpist's quotas."""
    x = c[kind] & COUNT_MASK
    x_after = (x + 1) & COUNT_MASK
    # The kind moves from nibble x to nibble x + 1; nibble 0 (absent kinds) is dropped.
    present = (histogram + (np.uint64(15) << np.uint64(4 * x))) & ABSENT_NIBBLE
    most_after = max(most, x_after)
    fewest = np.int64(trailing_zeros(present)) >> 2  # never empty: ``kind`` is present now
    solo = soloist_points(soloist, present, most_after, fewest)
    pianist = sets_or_zero(min(p_without[kind], pq[kind, x_after]))
    harpist = sets_or_zero(min(h_without[kind], hq[kind, x_after]))
    return (
        c[pop]
        + (kind == pop)
        + CONDUCTOR_POINTS * most_after
        + solo
        + POINTS_PER_SET * (pianist + harpist)
    )


@nb.njit(cache=True, inline="always")
def lexically_greater(first, second, best_first, best_second):
    """True when ``(first, second)`` beats ``(best_first, best_second)``: a greater ``first``, or
    an equal one and a greater ``second`` (so the earliest choice wins a full tie)."""
    return first > best_first or (first == best_first and second > best_second)


@nb.njit(cache=True, inline="always")
def fewest_missing_card(c, need, choices, n_choices):
    """Greedy's card: the offered card lacking the fewest tokens of ``c``, then the one asking
    fewer composers, then the first (:func:`.policies.pick_card_by_deficit` with hand weight 0,
    whose float ``-missing - 0.01 * composers`` orders exactly like this pair of integers)."""
    best = 0
    best_fewer_missing = -NO_LIMIT  # negated, so that the best is the lexically greatest
    best_fewer_composers = -NO_LIMIT
    for i in range(n_choices):
        card = choices[i, 0] & CARD_MASK
        missing = 0
        for k in range(N_KINDS):
            missing += max(0, need[card, k] - c[k])
        fewer_missing = -missing
        fewer_composers = -need[card, COMPOSER]
        if lexically_greater(
            fewer_missing, fewer_composers, best_fewer_missing, best_fewer_composers
        ):
            best_fewer_missing = fewer_missing
            best_fewer_composers = fewer_composers
            best = i
    return best


@nb.njit(cache=True, inline="always")
def count_histogram(c):
    """``(histogram, most)`` of counts ``c``: nibble ``v`` of the histogram counts the kinds with
    ``v`` tokens; ``most`` is the largest count."""
    histogram = np.uint64(0)
    most = 0
    for k in range(N_KINDS):
        x = c[k] & COUNT_MASK
        histogram += np.uint64(1) << np.uint64(4 * x)
        most = max(most, x)
    return histogram, most


@nb.njit(cache=True, inline="always")
def plus_one_outlook(c, cards, n_cards, need, pq, hq, gain, p_without, h_without):
    """What scoring one more token of any kind shares, worked out once per decision.

    Fills ``gain`` (:func:`card_outlook`) and ``p_without``, ``h_without``
    (:func:`quota_mins_without` of the pianist's and harpist's quotas); returns ``(done,
    histogram, most)`` for :func:`contest_points_plus_one`.
    """
    done = card_outlook(c, need, cards, n_cards, gain)
    histogram, most = count_histogram(c)
    quota_mins_without(pq, c, p_without)
    quota_mins_without(hq, c, h_without)
    return done, histogram, most


@nb.njit(cache=True, inline="always")
def best_token(c, cards, n_cards, need, pop, soloist, pq, hq, choices, n_choices):
    """PICK_TOKEN: the kind ``choices[i, 0]`` whose token raises the score most (first on ties),
    each candidate scored in O(1) (:func:`plus_one_outlook`, :func:`contest_points_plus_one`)."""
    gain = stack_int64(N_KINDS)
    p_without = stack_int64(N_KINDS)
    h_without = stack_int64(N_KINDS)
    done, histogram, most = plus_one_outlook(
        c, cards, n_cards, need, pq, hq, gain, p_without, h_without
    )
    best = 0
    best_score = -NO_LIMIT
    for i in range(n_choices):
        kind = choices[i, 0] & KIND_MASK
        s = contest_points_plus_one(
            c, kind, histogram, most, pop, soloist, pq, hq, p_without, h_without
        )
        s += POINTS_PER_SCORE_CARD * (done + gain[kind])
        if s > best_score:
            best_score = s
            best = i
    return best


@nb.njit(cache=True, inline="always")
def best_chased_token(
    c, cards, n_cards, need, pop, soloist, pq, hq, choices, n_choices, progress_w, composer_w
):
    """PICK_TOKEN by chaser's rule (:func:`.policies.chaser_policy`): score gain plus
    ``progress_w`` per missing token of its face-up cards supplied and ``composer_w`` for a
    composer, first on ties; the same values in the same float order, from the table.

    One more token of ``kind`` supplies one missing token for every face-up card that needs
    more of ``kind`` than ``c`` holds.
    """
    gain = stack_int64(N_KINDS)
    p_without = stack_int64(N_KINDS)
    h_without = stack_int64(N_KINDS)
    done, histogram, most = plus_one_outlook(
        c, cards, n_cards, need, pq, hq, gain, p_without, h_without
    )
    base = contest_points(c, pop, soloist, pq, hq) + POINTS_PER_SCORE_CARD * done
    best = 0
    best_value = -1e300
    for i in range(n_choices):
        kind = choices[i, 0] & KIND_MASK
        s = contest_points_plus_one(
            c, kind, histogram, most, pop, soloist, pq, hq, p_without, h_without
        )
        s += POINTS_PER_SCORE_CARD * (done + gain[kind])
        supplied = 0
        for j in range(n_cards):
            supplied += need[cards[j], kind] > c[kind]
        composers = 1 if kind == COMPOSER else 0
        value = s - base + progress_w * supplied + composer_w * composers
        if value > best_value:
            best_value = value
            best = i
    return best


@nb.njit(cache=True, inline="always")
def scores_plus_one(c, cards, n_cards, need, pop, soloist, pq, hq, scores):
    """``scores[k]``: the score of counts ``c`` with one more token of kind ``k``, every kind."""
    gain = stack_int64(N_KINDS)
    p_without = stack_int64(N_KINDS)
    h_without = stack_int64(N_KINDS)
    done, histogram, most = plus_one_outlook(
        c, cards, n_cards, need, pq, hq, gain, p_without, h_without
    )
    for k in range(N_KINDS):
        scores[k] = contest_points_plus_one(
            c, k, histogram, most, pop, soloist, pq, hq, p_without, h_without
        )
        scores[k] += POINTS_PER_SCORE_CARD * (done + gain[k])


@nb.njit(cache=True, inline="always")
def best_pair(c, cards, n_cards, o, o_cards, n_o_cards, need, pop, soloist, pq, hq, choices, n):
    """PICK_PAIR: among the pairs keeping the kind that raises the own score most, the one
    removing the kind that would raise the opponent's (``o``, ``o_cards``) most; first on ties.

    Both scores are worked out once per kind, not once per pair."""
    own = stack_int64(N_KINDS)
    scores_plus_one(c, cards, n_cards, need, pop, soloist, pq, hq, own)
    theirs = stack_int64(N_KINDS)
    scores_plus_one(o, o_cards, n_o_cards, need, pop, soloist, pq, hq, theirs)
    best = 0
    best_score = -NO_LIMIT
    best_other = -NO_LIMIT
    for i in range(n):
        s = own[choices[i, 0]]
        other = theirs[choices[i, 1]]
        if lexically_greater(s, other, best_score, best_other):
            best_score = s
            best_other = other
            best = i
    return best


@nb.njit(cache=True, inline="always")
def best_multiset(c, cards, n_cards, need, pop, soloist, pq, hq, choices, n_choices):
    """SOLO_KEEP_TOKENS: the tokens ``choices[i]`` (counts by kind) that raise the score most."""
    best = 0
    best_score = -NO_LIMIT
    kept = stack_int64(N_KINDS)
    for i in range(n_choices):
        for k in range(N_KINDS):
            kept[k] = c[k] + choices[i, k]
        s = contest_points(kept, pop, soloist, pq, hq)
        s += POINTS_PER_SCORE_CARD * cards_complete(kept, need, cards, n_cards)
        if s > best_score:
            best_score = s
            best = i
    return best


DEFICIT_CAP = 8
"""A card's missing tokens of a kind, capped: a solo keep adds at most 3 of a kind, so a card
lacking 8 is as out of reach as one lacking more, and ``8 + x - d`` never leaves its nibble."""
KIND_NIBBLE_HIGHS = 0x88888
"""Top bit of each of the :data:`N_KINDS` nibbles of a packed count by kind."""
assert N_KINDS == 5


@nb.njit(cache=True, inline="always")
def card_deficits(c, need, cards, n_cards, hand, keep, deficits):
    """Split the cards ``cards[:n_cards]`` by what a solo keep of ``keep`` tokens from ``hand``
    can do to them.

    Returns ``(complete, n_open)``: how many counts ``c`` complete already, and how many a keep
    might still complete, whose missing tokens go into ``deficits[:n_open]``, packed a nibble a
    kind (nibble ``k``: missing tokens of kind ``k``, capped at :data:`DEFICIT_CAP`). A card
    lacking more of a kind than the hand holds or than is kept is left out: no keep completes it.
    """
    in_reach = 0  # nibble k: the most tokens of kind k a keep can add
    for k in range(N_KINDS):
        in_reach |= min(hand[k], keep) << (4 * k)
    complete = 0
    n_open = 0
    for i in range(n_cards):
        packed = 0
        for k in range(N_KINDS):
            missing = min(max(0, need[cards[i], k] - c[k]), DEFICIT_CAP)
            packed |= missing << (4 * k)
        # no branch on which cards are open: written always, kept by the count
        deficits[n_open] = packed
        complete += packed == 0
        n_open += (packed != 0) & covers(in_reach, packed)
    return complete, n_open


@nb.njit(cache=True, inline="always")
def covers(added, deficit):
    """True when the tokens ``added`` cover ``deficit`` (both packed a nibble a kind, each below
    8): nibble by nibble, ``8 + x - d`` keeps its top bit exactly when ``x >= d``."""
    return ((added | KIND_NIBBLE_HIGHS) - deficit) & KIND_NIBBLE_HIGHS == KIND_NIBBLE_HIGHS


# Solo keep: every multiset of the keep size scored side by side ------------------------------

NO_SETS = 15
"""A nibble of :func:`set_quota_words` meaning "this kind limits nothing". A real quota is at most
the count it comes from, and an orchestra's counts stay below 15 (Pahha's 14 at most)."""
QUOTA_NIBBLES = 0x0111111111111111
"""Ones in nibbles 0 .. 14 of an int64 (nibble 15 would be count 15, which never occurs)."""
QUOTA_HIGHS = 0x0888888888888888


@nb.njit(cache=True)
def set_quota_words(sets):
    """``int64[cards, N_KINDS]``: :func:`set_quotas` packed a nibble a count. Nibble ``x`` of word
    ``[card, k]`` is the sets kind ``k`` allows with ``x`` tokens, :data:`NO_SETS` where the card
    does not show ``k``; counts 0 .. 14 (nibble 15 stays 0). A quota is read with a shift, so a
    loop over many multisets reads it without a per-game table load (which LLVM cannot vectorize).
    """
    words = np.zeros((sets.shape[0], N_KINDS), np.int64)
    for card in range(sets.shape[0]):
        for k in range(N_KINDS):
            for x in range(QUOTA_SIZE - 1):
                q = NO_SETS if sets[card, k] == 0 else min(x // sets[card, k], NO_SETS)
                words[card, k] |= q << (4 * x)
    return words


MAX_KEEP = max(SOLO_KEEP)
KEEP_VECTOR = 4
"""Slots a vector instruction scores (AVX2: 4 int64); slot lists are padded to a multiple."""
SLOT_BITS = 6
SLOT_MASK = (1 << SLOT_BITS) - 1


def keep_slot_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The multisets a solo keep of each size chooses among, a slot each.

    Returns ``(kinds, packed, n_slots)``: slot ``m`` of keep size ``keep`` keeps
    ``kinds[keep, k, m]`` tokens of kind ``k`` (``packed[keep, m]``: the same, a nibble a kind);
    keep size ``keep`` has ``n_slots[keep]`` slots. They are every multiset of ``keep`` tokens in
    :func:`.rules.multiset_choices` order, padded to a multiple of :data:`KEEP_VECTOR` with
    copies of the first, which lose every tie to it, so padding never changes an answer.
    """
    choices = np.zeros((MAX_CHOICES, CHOICE_WIDTH), np.int64)
    lists = []
    for keep in range(MAX_KEEP + 1):
        # the engine's own list, from a hand that allows every multiset (plain Python: no compile)
        n = multiset_choices.py_func(np.full(N_KINDS, keep, np.int64), keep, choices)
        lists.append(choices[:n].tolist())
    n_slots = np.array([-(-len(rows) // KEEP_VECTOR) * KEEP_VECTOR for rows in lists], np.int64)
    kinds = np.zeros((MAX_KEEP + 1, N_KINDS, n_slots.max()), np.int64)
    packed = np.zeros((MAX_KEEP + 1, n_slots.max()), np.int64)
    for keep, rows in enumerate(lists):
        for m in range(n_slots.max()):
            row = rows[m] if m < len(rows) else rows[0]
            for k in range(N_KINDS):
                kinds[keep, k, m] = row[k]
                packed[keep, m] |= row[k] << (4 * k)
    return kinds, packed, n_slots


KEEP_KINDS, KEEP_PACKED, KEEP_SLOTS = keep_slot_tables()
MAX_SLOTS = int(KEEP_SLOTS.max())
assert MAX_SLOTS <= 1 << SLOT_BITS


@nb.njit(cache=True, inline="always")
def quota_of(word, count):
    """Nibble ``count`` of a :func:`set_quota_words` word."""
    return (word >> (4 * count)) & 15


@nb.njit(cache=True, inline="always")
def present_or_none(count):
    """A count as the fewest tokens of a present kind ranks it: :data:`NO_SETS` if absent."""
    return count + NO_SETS * (count == 0)


@nb.njit(cache=True, inline="always")
def fewest_present(n0, n1, n2, n3, n4):
    """The fewest tokens of a present kind among the five counts (:data:`NO_SETS` if none)."""
    return min(
        min(min(present_or_none(n0), present_or_none(n1)), present_or_none(n2)),
        min(present_or_none(n3), present_or_none(n4)),
    )


@nb.njit(cache=True, inline="always")
def present_histogram(n0, n1, n2, n3, n4):
    """The count histogram of the five counts (each below 15) with nibble 0 cleared: nibble
    ``v`` is how many kinds have ``v`` tokens, for present kinds only."""
    return (
        (1 << (4 * n0)) + (1 << (4 * n1)) + (1 << (4 * n2)) + (1 << (4 * n3)) + (1 << (4 * n4))
    ) & ~15


@nb.njit(cache=True, inline="always")
def largest_present_group(present):
    """Soloist C's count: the largest nibble of :func:`present_histogram`, as
    :func:`largest_nibble` (unrolled: an inner loop would keep a loop around it scalar)."""
    return (
        (((present + 7 * QUOTA_NIBBLES) & QUOTA_HIGHS) != 0)
        + (((present + 6 * QUOTA_NIBBLES) & QUOTA_HIGHS) != 0)
        + (((present + 5 * QUOTA_NIBBLES) & QUOTA_HIGHS) != 0)
        + (((present + 4 * QUOTA_NIBBLES) & QUOTA_HIGHS) != 0)
        + (((present + 3 * QUOTA_NIBBLES) & QUOTA_HIGHS) != 0)
    )


@nb.njit(cache=True, inline="always")
def distinct_present_counts(present):
    """Soloist D's count: the nonzero nibbles of :func:`present_histogram`, as
    :func:`nonzero_nibbles` (the product sums the flags into nibble 14)."""
    flags = (present | (present >> 1) | (present >> 2)) & QUOTA_NIBBLES
    return ((flags * QUOTA_NIBBLES) >> 56) & 15


@nb.njit(cache=True, inline="always")
def packed_set_count(w0, w1, w2, w3, w4, n0, n1, n2, n3, n4):
    """The complete sets of a set card whose :func:`set_quota_words` are ``w0 .. w4`` for the
    counts ``n0 .. n4``: the smallest quota, :data:`NO_SETS` when the card shows no kind."""
    return min(
        min(min(quota_of(w0, n0), quota_of(w1, n1)), quota_of(w2, n2)),
        min(quota_of(w3, n3), quota_of(w4, n4)),
    )


@nb.njit(cache=True, inline="always")
def both_set_counts(pianist_sets, harpist_sets):
    """The pianist's and harpist's sets summed, a :data:`NO_SETS` (no kind shown) counting 0."""
    return (
        pianist_sets
        + harpist_sets
        - NO_SETS * ((pianist_sets == NO_SETS) + (harpist_sets == NO_SETS))
    )


@nb.njit(cache=True, inline="always")
def best_slot(c, hand, keep, deficits, n_open, complete, pop, pw, hw, method):
    """The slot of :func:`keep_slot_tables` for ``keep`` whose multiset ``hand`` holds and whose
    score is highest, the first on ties.

    ``method`` is the soloist, a literal at each call site, so that each copy of the loop works
    out one method. The loop over slots is branch-free arithmetic on int64 (LLVM vectorizes it):
    a slot the hand cannot give is ranked -1 instead of skipped, and the key ``score << SLOT_BITS
    | (SLOT_MASK - m)`` makes the largest key the first best slot.
    """
    n_slots = KEEP_SLOTS[keep]
    done = stack_int64(MAX_SLOTS)  # score cards each slot completes
    for m in range(n_slots):
        done[m] = complete
    for i in range(n_open):
        d = deficits[i]
        for m in range(n_slots):
            done[m] += covers(KEEP_PACKED[keep, m], d)
    c0, c1, c2, c3, c4 = c[0], c[1], c[2], c[3], c[4]
    h0, h1, h2, h3, h4 = hand[0], hand[1], hand[2], hand[3], hand[4]
    p0, p1, p2, p3, p4 = pw[0], pw[1], pw[2], pw[3], pw[4]
    q0, q1, q2, q3, q4 = hw[0], hw[1], hw[2], hw[3], hw[4]
    pop_shift = 4 * pop
    best = -1
    for m in range(n_slots):
        a0, a1, a2 = KEEP_KINDS[keep, 0, m], KEEP_KINDS[keep, 1, m], KEEP_KINDS[keep, 2, m]
        a3, a4 = KEEP_KINDS[keep, 3, m], KEEP_KINDS[keep, 4, m]
        held = (a0 <= h0) & (a1 <= h1) & (a2 <= h2) & (a3 <= h3) & (a4 <= h4)
        n0, n1, n2, n3, n4 = c0 + a0, c1 + a1, c2 + a2, c3 + a3, c4 + a4
        most = max(max(max(n0, n1), max(n2, n3)), n4)
        if method <= POPULAR:  # A and B: the fewest tokens of a present kind
            fewest = fewest_present(n0, n1, n2, n3, n4)
            if method == TRUSTWORTHY:
                solo = TRUSTWORTHY_POINTS * fewest
            else:
                solo = POPULAR_POINTS * (most - fewest)
        else:  # C and D: the count histogram of present kinds, a nibble a count
            present = present_histogram(n0, n1, n2, n3, n4)
            if method == MULTITALENTED:
                solo = MULTITALENTED_POINTS * largest_present_group(present)
            else:
                solo = ECCENTRIC_POINTS * distinct_present_counts(present)
        sets = both_set_counts(
            packed_set_count(p0, p1, p2, p3, p4, n0, n1, n2, n3, n4),
            packed_set_count(q0, q1, q2, q3, q4, n0, n1, n2, n3, n4),
        )
        score = c[pop] + ((KEEP_PACKED[keep, m] >> pop_shift) & COUNT_MASK)
        score += CONDUCTOR_POINTS * most + solo
        score += POINTS_PER_SET * sets + POINTS_PER_SCORE_CARD * done[m]
        held_mask = -np.int64(held)  # a mask, not a select: LLVM kept selects as branches
        key = (((score << SLOT_BITS) | (SLOT_MASK - m)) & held_mask) | ~held_mask
        best = max(best, key)
    return SLOT_MASK - (best & SLOT_MASK)


@nb.njit(cache=True, inline="always")
def best_keep(c, hand, keep, cards, n_cards, need, pop, soloist, pw, hw, kept_out):
    """SOLO_KEEP_TOKENS read straight off the hand: writes into ``kept_out`` (counts by kind) the
    multiset :func:`best_multiset` picks from :func:`.rules.multiset_choices` ``(hand, keep)``.

    ``pw`` and ``hw`` are the pianist's and harpist's :func:`set_quota_words`. Every multiset of
    ``keep`` tokens is scored side by side (:func:`best_slot`), four to a vector instruction;
    the score cards are checked a nibble a kind (:func:`card_deficits`). Inlined: as a call it
    made a solo game about 10% slower (docs/performance-log.md), past what a shorter compile is
    worth.
    """
    deficits = stack_int64(N_SCORE_CARDS)
    complete, n_open = card_deficits(c, need, cards, n_cards, hand, keep, deficits)
    # one loop per soloist method, chosen once per decision
    if soloist == TRUSTWORTHY:
        m = best_slot(c, hand, keep, deficits, n_open, complete, pop, pw, hw, TRUSTWORTHY)
    elif soloist == POPULAR:
        m = best_slot(c, hand, keep, deficits, n_open, complete, pop, pw, hw, POPULAR)
    elif soloist == MULTITALENTED:
        m = best_slot(c, hand, keep, deficits, n_open, complete, pop, pw, hw, MULTITALENTED)
    else:
        m = best_slot(c, hand, keep, deficits, n_open, complete, pop, pw, hw, ECCENTRIC)
    for k in range(N_KINDS):
        kept_out[k] = KEEP_KINDS[keep, k, m]
