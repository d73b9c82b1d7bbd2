"""The engine's fast greedy scoring against the plain rules functions it rearranges."""

import numpy as np

from fairysim.sim.concerto import load_cards
from fairysim.sim.concerto.rules import N_KINDS, N_PARTS, P_SCORE_CARDS, contest_parts
from fairysim.sim.concerto.shortcuts.greedy import (
    QUOTA_SIZE,
    card_outlook,
    cards_complete,
    contest_part_points,
    contest_points_plus_one,
    count_histogram,
    quota_mins_without,
    set_quotas,
)


def orchestras(rng, n):
    """Random counts by kind, up to the 14 tokens of Pahha's orchestra."""
    out = np.zeros((n, N_KINDS), np.int64)
    for row in out:
        for _ in range(rng.integers(0, 15)):
            row[rng.integers(0, N_KINDS)] += 1
    return out


def test_contest_part_points_equal_contest_parts():
    cards = load_cards()
    sets = np.array([[1, 0, 2, 0, 3], [0, 0, 0, 4, 0], [2, 2, 2, 2, 2]], np.int64)
    quotas = set_quotas(sets)
    assert quotas.shape == (3, N_KINDS, QUOTA_SIZE)
    rng = np.random.default_rng(5)
    parts = np.zeros(N_PARTS, np.int64)
    for c in orchestras(rng, 3000):
        pop, soloist = int(rng.integers(0, N_KINDS)), int(rng.integers(0, 4))
        for pianist, harpist in ((0, 1), (2, 0), (1, 2)):
            contest_parts(c, pop, soloist, sets[pianist], sets[harpist], parts)
            fast = contest_part_points(c, pop, soloist, quotas[pianist], quotas[harpist])
            assert list(fast) == list(parts[:P_SCORE_CARDS]), (c, pop, soloist)
    # the shipped cards too
    pq, hq = set_quotas(cards.pianist_sets), set_quotas(cards.harpist_sets)
    for c in orchestras(rng, 500):
        contest_parts(c, 0, 3, cards.pianist_sets[1], cards.harpist_sets[2], parts)
        assert list(contest_part_points(c, 0, 3, pq[1], hq[2])) == list(parts[:P_SCORE_CARDS])


def test_card_outlook_counts_cards_one_token_completes():
    need = load_cards().score_need
    rng = np.random.default_rng(6)
    gain = np.zeros(N_KINDS, np.int64)
    for c in orchestras(rng, 1000):
        held = rng.choice(len(need), size=rng.integers(0, 6), replace=False).astype(np.int64)
        done = card_outlook(c, need, held, len(held), gain)
        assert done == cards_complete(c, need, held, len(held))
        for k in range(N_KINDS):
            more = c.copy()
            more[k] += 1
            assert done + gain[k] == cards_complete(more, need, held, len(held))


def test_contest_points_plus_one_equal_contest_parts_of_the_orchestra_with_the_token():
    sets = np.array([[1, 0, 2, 0, 3], [0, 0, 0, 4, 0], [2, 2, 2, 2, 2], [0, 1, 0, 0, 0]], np.int64)
    quotas = set_quotas(sets)
    rng = np.random.default_rng(7)
    parts = np.zeros(N_PARTS, np.int64)
    p_without = np.zeros(N_KINDS, np.int64)
    h_without = np.zeros(N_KINDS, np.int64)
    for c in orchestras(rng, 3000):
        pop, soloist = int(rng.integers(0, N_KINDS)), int(rng.integers(0, 4))
        pianist, harpist = rng.choice(len(sets), size=2, replace=False)
        pq, hq = quotas[pianist], quotas[harpist]
        histogram, most = count_histogram(c)
        quota_mins_without(pq, c, p_without)
        quota_mins_without(hq, c, h_without)
        for kind in range(N_KINDS):
            more = c.copy()
            more[kind] += 1
            contest_parts(more, pop, soloist, sets[pianist], sets[harpist], parts)
            fast = contest_points_plus_one(
                c, kind, histogram, most, pop, soloist, pq, hq, p_without, h_without
            )
            assert fast == parts[:P_SCORE_CARDS].sum(), (c, kind, pop, soloist)


def test_best_keep_equals_best_multiset_over_the_listed_multisets():
    """Solo greedy's keep read off the hand is the multiset best_multiset picks from the
    engine's list of choices, ties included (the first in lexicographic order), for every soloist
    and for set cards that repeat a kind or leave kinds out."""
    from fairysim.sim.concerto.rules import (
        CHOICE_WIDTH,
        MAX_CHOICES,
        SOLO_DRAW,
        SOLO_KEEP,
        multiset_choices,
    )
    from fairysim.sim.concerto.shortcuts.greedy import best_keep, best_multiset, set_quota_words

    cards = load_cards()
    sets = np.concatenate(
        [cards.pianist_sets, cards.harpist_sets, [[1, 0, 2, 0, 3], [0, 0, 0, 4, 0]]]
    ).astype(np.int64)
    quotas, words = set_quotas(sets), set_quota_words(sets)
    rng = np.random.default_rng(8)
    choices = np.zeros((MAX_CHOICES, CHOICE_WIDTH), np.int64)
    kept = np.zeros(N_KINDS, np.int64)
    past_first = 0
    by_soloist = np.zeros(4, np.int64)
    for c in orchestras(rng, 4000):
        c = np.minimum(c, 12 - 3)  # a player's orchestra before a keep: at most 12 with it
        draw, keep = rng.choice(list(zip(SOLO_DRAW, SOLO_KEEP, strict=True)))
        hand = np.bincount(rng.integers(0, N_KINDS, draw), minlength=N_KINDS).astype(np.int64)
        held = rng.choice(len(cards.score_need), size=rng.integers(0, 8), replace=False)
        held = held.astype(np.int64)
        pop, soloist = int(rng.integers(0, N_KINDS)), int(rng.integers(0, 4))
        pianist, harpist = rng.choice(len(sets), size=2)
        n = multiset_choices(hand, keep, choices)
        need = cards.score_need
        best = best_multiset(
            c, held, len(held), need, pop, soloist, quotas[pianist], quotas[harpist], choices, n
        )
        kept[:] = -1
        best_keep(
            c, hand, keep, held, len(held), need, pop, soloist, words[pianist], words[harpist], kept
        )
        assert list(kept) == list(choices[best]), (c, hand, keep, held, soloist)
        past_first += best > 0
        by_soloist[soloist] += best > 0
    assert past_first > 100  # the comparison reached choices past the first
    assert (by_soloist > 20).all()  # for every soloist method


def test_set_quota_words_pack_set_quotas():
    from fairysim.sim.concerto.shortcuts.greedy import NO_SETS, quota_of, set_quota_words

    sets = np.array([[1, 0, 2, 0, 3], [0, 0, 0, 4, 0], [2, 2, 2, 2, 2], [5, 1, 0, 0, 0]], np.int64)
    quotas, words = set_quotas(sets), set_quota_words(sets)
    for card in range(len(sets)):
        for k in range(N_KINDS):
            for x in range(QUOTA_SIZE - 1):
                expected = quotas[card, k, x] if sets[card, k] else NO_SETS
                assert quota_of(words[card, k], x) == expected, (card, k, x)


def test_keep_slots_list_every_multiset_in_the_engines_order_then_padding():
    from fairysim.sim.concerto.rules import CHOICE_WIDTH, MAX_CHOICES, multiset_choices
    from fairysim.sim.concerto.shortcuts.greedy import (
        KEEP_KINDS,
        KEEP_PACKED,
        KEEP_SLOTS,
        KEEP_VECTOR,
        MAX_KEEP,
    )

    choices = np.zeros((MAX_CHOICES, CHOICE_WIDTH), np.int64)
    for keep in range(1, MAX_KEEP + 1):
        n = multiset_choices(np.full(N_KINDS, keep, np.int64), keep, choices)
        slots = KEEP_KINDS[keep].T[: KEEP_SLOTS[keep]]
        assert KEEP_SLOTS[keep] % KEEP_VECTOR == 0 and n <= KEEP_SLOTS[keep] < n + KEEP_VECTOR
        assert slots[:n].tolist() == choices[:n, :N_KINDS].tolist()
        assert (slots[n:] == slots[0]).all()  # padding: copies of the first, which wins ties
        for m, row in enumerate(slots):
            assert KEEP_PACKED[keep, m] == sum(int(x) << (4 * k) for k, x in enumerate(row))
