"""The jitted rules (fairy values, scoring, ranking) agree with the reference engine's
plain-Python reading of the rulebook on many random tables."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from fairysim.sim.fairyland import reference as ref
from fairysim.sim.fairyland.rules import (
    ANIMALS,
    FIRST_FOREST_TYPE,
    FLOWERS,
    GOBLIN,
    LOST_HALF,
    MAX_SEATS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    N_PARTS,
    PART_NAMES,
    collection_halves,
    explore_values,
    mask_value,
    rank_seats,
    score_parts,
    visit_values,
)

from . import CARDS, COURT, make_state

COLLECTABLE = (*ANIMALS, *FLOWERS, GOBLIN, LOST_HALF)


def random_table(rng: np.random.Generator, players: int):
    collected = []
    for _ in range(players):
        c = Counter()
        for t in COLLECTABLE:
            n = int(rng.integers(0, 4)) if rng.random() < 0.6 else 0
            if n:
                c[t] = min(n, int(CARDS.forest[t]))
        collected.append(c)
    hands = [{t for t in range(N_FAIRY_TYPES) if rng.random() < 0.4} for _ in range(players)]
    state = make_state(players, hands=hands, collected=collected)
    for player in state.players:
        player.items = [int(i) for i in rng.choice(COURT.n_items, rng.integers(0, 4), False)]
        player.last_turn = 0
    for seat, turn in enumerate(rng.permutation(players)):
        state.players[seat].last_turn = int(turn)
    return state


def kernel_inputs(state):
    collected = np.zeros(MAX_SEATS * N_CARD_TYPES, dtype=np.int64)
    held = np.zeros(MAX_SEATS, dtype=np.int64)
    hand_values = np.zeros(MAX_SEATS, dtype=np.int64)
    for p in state.players:
        for t, n in p.collected.items():
            collected[p.seat * N_CARD_TYPES + t] = n
        held[p.seat] = sum(1 << i for i in p.items)
        hand_values[p.seat] = ref.hand_value(state, p)
    return collected, held, hand_values


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scoring_kernel_matches_the_reference_scoring(players):
    rng = np.random.default_rng(players)
    table = COURT.table.reshape(-1)
    for _ in range(300):
        state = random_table(rng, players)
        collected, held, hand_values = kernel_inputs(state)
        parts = np.zeros((MAX_SEATS, N_PARTS), dtype=np.int64)
        score_parts(collected, hand_values, held, players, CARDS.majority, table, parts)
        expected = ref.final_scoring(state)
        for seat in range(players):
            assert list(parts[seat]) == [expected[seat][name] for name in PART_NAMES]
            without_applause = sum(expected[seat].values()) - expected[seat]["applause"]
            assert (
                collection_halves(collected, players, seat, CARDS.majority, held[seat], table)
                == without_applause
            )
        score = parts.sum(axis=1)
        rank = np.zeros(MAX_SEATS, dtype=np.int64)
        last = np.array([p.last_turn for p in state.players] + [0] * (4 - players))
        rank_seats(score, hand_values, last, players, rank)
        assert list(rank[:players]) == ref.ranking(state, [int(x) for x in score[:players]])


def test_fairy_value_kernels_match_the_reference():
    rng = np.random.default_rng(7)
    state = make_state(2)
    values = np.zeros(N_FAIRY_TYPES, dtype=np.int64)
    for _ in range(200):
        clearing = np.zeros(N_CARD_TYPES, dtype=np.int64)
        for t in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
            if rng.random() < 0.2:
                clearing[t] = rng.integers(1, 3)
        pile = Counter({t: int(n) for t, n in enumerate(clearing) if n})
        explore_values(CARDS.face_value, clearing, values)
        assert list(values) == [ref.explore_value(state, t, pile) for t in range(N_FAIRY_TYPES)]
        mask = int(rng.integers(0, 1 << N_FAIRY_TYPES))
        assert mask_value(mask, values) == sum(values[t] for t in ref.cards_of(mask))
    visit_values(CARDS.face_value, values)
    assert list(values) == [ref.visit_value(state, t) for t in range(N_FAIRY_TYPES)]
