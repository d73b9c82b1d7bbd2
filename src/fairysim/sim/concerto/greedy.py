"""The greedy policy played on the engine's own arrays: its answers, without a view, fast.

The engine answers greedy seats here instead of filling a view for
:func:`.policies.greedy_policy` and asking it: filling the view and rescoring whole orchestras
with divisions and data-dependent branches was most of a greedy game's work. Every answer must
be greedy_policy's; the reference engine asks greedy_policy itself, so the engine equivalence
tests check the two against each other.

The scoring here is :func:`.rules.base_score` rearranged for speed: set counts come from
per-card lookup tables (:func:`set_quotas`) instead of divisions, the soloist methods C and D
count equal token counts with bit tricks instead of nested loops, and for a single token the
score cards are worked out once per decision (:func:`card_outlook`), not once per choice.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from fairysim.sim.concerto.policies import stack_int64
from fairysim.sim.concerto.rules import (
    COMPOSER,
    N_KINDS,
    PICK_PAIR,
    POINTS_PER_SCORE_CARD,
    POINTS_PER_SET,
    SOLO_KEEP_TOKENS,
)

QUOTA_SIZE = 16
"""Token counts the lookup tables cover. An orchestra holds at most 12 tokens (Pahha's 14), so
every count scored here is below 16; indices are masked with :data:`COUNT_MASK` so that no count
can read outside a table, and the nibble histogram of :func:`contest_part_points` relies on the
same bound."""
COUNT_MASK = QUOTA_SIZE - 1
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


@nb.njit(cache=True, inline="always")
def count_bits(x):
    """Set bits of ``x`` (below 2**16)."""
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


@nb.njit(cache=True, inline="always")
def contest_part_points(c, pop, soloist, pianist_quota, harpist_quota):
    """Popularity, conductor, soloist, pianist and harpist points of counts ``c`` (each below
    :data:`QUOTA_SIZE`), as :func:`.rules.contest_parts` writes them."""
    most = 0
    fewest = NO_LIMIT  # fewest tokens of a kind present
    pianist_sets = NO_LIMIT
    harpist_sets = NO_LIMIT
    histogram = 0  # nibble v: kinds with v tokens
    for k in range(N_KINDS):
        x = c[k] & COUNT_MASK
        most = max(most, x)
        fewest = min(fewest, x if x > 0 else NO_LIMIT)
        pianist_sets = min(pianist_sets, pianist_quota[k, x])
        harpist_sets = min(harpist_sets, harpist_quota[k, x])
        histogram += 1 << (4 * x)
    if fewest == NO_LIMIT:
        fewest = 0
    if pianist_sets == NO_LIMIT:
        pianist_sets = 0
    if harpist_sets == NO_LIMIT:
        harpist_sets = 0
    if soloist == 0:  # A: the fewest tokens of a present kind
        solo = 4 * fewest
    elif soloist == 1:  # B: most minus fewest present
        solo = 3 * (most - fewest)
    elif soloist == 2:  # C: the most present kinds sharing one count
        same = 0
        for k in range(N_KINDS):
            x = c[k] & COUNT_MASK
            kinds = (histogram >> (4 * x)) & 0xF
            same = max(same, kinds if x > 0 else 0)
        solo = 3 * same
    else:  # D: distinct counts of present kinds
        counts = 0
        for k in range(N_KINDS):
            counts |= 1 << (c[k] & COUNT_MASK)
        solo = 3 * count_bits(counts >> 1)
    return (
        c[pop],
        2 * most,
        solo,
        POINTS_PER_SET * pianist_sets,
        POINTS_PER_SET * harpist_sets,
    )


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
    for k in range(N_KINDS):
        ok &= c[k] >= need[card, k]
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
        missing = 0
        short_kind = 0
        for k in range(N_KINDS):
            d = max(0, need[cards[i], k] - c[k])
            missing += d
            short_kind = k if d > 0 else short_kind
        done += missing == 0
        gain[short_kind] += missing == 1
    return done


@nb.njit(cache=True, inline="always")
def score_plus_one(c, kind, done, gain, pop, soloist, pq, hq):
    """Score of counts ``c`` with one more token of ``kind``, given :func:`card_outlook`'s
    ``done`` and ``gain`` for ``c``."""
    c[kind] += 1
    contest = contest_points(c, pop, soloist, pq, hq)
    c[kind] -= 1
    return contest + POINTS_PER_SCORE_CARD * (done + gain[kind])


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
        card = choices[i, 0]
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
def best_token(c, cards, n_cards, need, pop, soloist, pq, hq, choices, n_choices):
    """PICK_TOKEN: the kind ``choices[i, 0]`` whose token raises the score most (first on ties)."""
    gain = stack_int64(N_KINDS)
    done = card_outlook(c, need, cards, n_cards, gain)
    best = 0
    best_score = -NO_LIMIT
    for i in range(n_choices):
        s = score_plus_one(c, choices[i, 0], done, gain, pop, soloist, pq, hq)
        if s > best_score:
            best_score = s
            best = i
    return best


@nb.njit(cache=True, inline="always")
def best_pair(c, cards, n_cards, o, o_cards, n_o_cards, need, pop, soloist, pq, hq, choices, n):
    """PICK_PAIR: among the pairs keeping the kind that raises the own score most, the one
    removing the kind that would raise the opponent's (``o``, ``o_cards``) most; first on ties.

    Both scores are worked out once per kind, not once per pair."""
    gain = stack_int64(N_KINDS)
    done = card_outlook(c, need, cards, n_cards, gain)
    own = stack_int64(N_KINDS)
    for k in range(N_KINDS):
        own[k] = score_plus_one(c, k, done, gain, pop, soloist, pq, hq)
    done = card_outlook(o, need, o_cards, n_o_cards, gain)
    theirs = stack_int64(N_KINDS)
    for k in range(N_KINDS):
        theirs[k] = score_plus_one(o, k, done, gain, pop, soloist, pq, hq)
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


@nb.njit(cache=True, inline="always")
def greedy_answer(
    decision, c, cards, n_cards, o, o_cards, n_o_cards, need, pop, soloist, pq, hq, choices, n
):
    """Greedy's answer to a token decision over ``choices[:n]``.

    ``c``: the deciding seat's orchestra (changed and restored), ``cards[:n_cards]`` its face-up
    score cards; ``o``, ``o_cards[:n_o_cards]``: the opponent's (read for PICK_PAIR only);
    ``pop``, ``soloist``: the contest cards; ``pq``, ``hq``: the pianist's and harpist's
    :func:`set_quotas` tables.
    """
    if decision == SOLO_KEEP_TOKENS:
        return best_multiset(c, cards, n_cards, need, pop, soloist, pq, hq, choices, n)
    if decision == PICK_PAIR:
        return best_pair(
            c, cards, n_cards, o, o_cards, n_o_cards, need, pop, soloist, pq, hq, choices, n
        )
    return best_token(c, cards, n_cards, need, pop, soloist, pq, hq, choices, n)
