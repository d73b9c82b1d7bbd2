"""Built-in policies on constructed decisions: greedy takes the clearing worth most to it now and
pays as little as it can; random answers within the choices."""

from __future__ import annotations

import numpy as np

from fairysim.sim.fairyland import reference as ref
from fairysim.sim.fairyland.policies import POLICIES
from fairysim.sim.fairyland.rules import (
    ACT_CREST,
    ACT_EXPLORE,
    ACT_QUEEN,
    BID,
    CHOICE_WIDTH,
    DAY,
    EXPLORER,
    FAIRY_1,
    FAIRY_2,
    FAIRY_3,
    FAIRY_5,
    FAIRY_7,
    MAX_CHOICES,
    NO_ARG,
    OGRE_VICTIMS,
    PASS,
    PAYMENT,
)
from fairysim.sim.policy import MAX_WEIGHTS
from fairysim.sim.rng import new_stream

from . import counter, make_state, types

GREEDY = POLICIES["greedy"]
SQUIRREL, FOX, YELLOW, UNICORN = types("squirrel", "fox", "yellow", "unicorn")


def ask(policy, state, seat, decision, rows):
    table = np.zeros((MAX_CHOICES, CHOICE_WIDTH), dtype=np.int64)
    for i, row in enumerate(rows):
        table[i, : len(row)] = row
    weights = np.zeros(MAX_WEIGHTS)
    weights[: len(policy.weights)] = policy.weights
    view = ref.seat_view(state, state.players[seat])
    return int(policy.function(decision, view, table, len(rows), weights, new_stream(1, 0, 1)))


def mask(*fairies):
    return sum(1 << f for f in fairies)


def test_greedy_explores_the_clearing_worth_most():
    state = make_state(
        3,
        clearings=[counter(goblin=2), counter(squirrel=2, yellow=1), counter(unicorn=1)],
        collected=[counter(squirrel=1), counter(squirrel=2), counter()],
    )
    rows = [(ACT_EXPLORE, c) for c in range(3)] + [(ACT_QUEEN, NO_ARG)]
    assert ask(GREEDY, state, 0, DAY, rows) == 1  # the squirrel majority and a flower


def test_greedy_uses_the_crest_when_its_hand_is_low():
    state = make_state(2, hands=[{FAIRY_1, FAIRY_2}, set()], clearings=[counter(fox=2)])
    state.players[0].played = {FAIRY_3, FAIRY_5, FAIRY_7}
    rows = [(ACT_EXPLORE, c) for c in range(3)] + [(ACT_CREST, NO_ARG)]
    assert ask(GREEDY, state, 0, DAY, rows) == 3


def test_greedy_bids_the_lowest_bid_when_the_clearing_is_worth_it_else_passes():
    state = make_state(2, clearings=[counter(squirrel=3)])
    state.auction = (0, 2, 1)
    rows = [(PASS,), *((b,) for b in range(3, 29))]
    assert ask(GREEDY, state, 0, BID, rows) == 1  # bids 3 for 10 points
    state.clearings[0] = counter(goblin=3)
    assert ask(GREEDY, state, 0, BID, rows) == 0


def test_greedy_pays_the_least_face_value_then_the_fewest_cards():
    clearing = counter(fox=2, goblin=2)  # the Explorer is worth 4 here
    state = make_state(2, hands=[{FAIRY_1, FAIRY_2, FAIRY_3, FAIRY_5, EXPLORER}, set()])
    state.clearings[0] = clearing
    hand = state.players[0].hand
    rows = []
    for m in ref.subsets(hand):
        value = sum(ref.explore_value(state, t, clearing) for t in ref.cards_of(m))
        if value >= 5:
            rows.append((m, value))
    answer = rows[ask(GREEDY, state, 0, PAYMENT, rows)][0]
    assert answer == mask(EXPLORER, FAIRY_1)  # face value 2 for a bid of 5


def test_greedy_gives_the_ogre_what_costs_it_least():
    state = make_state(
        2, collected=[counter(squirrel=3, fox=1, yellow=2), counter(squirrel=2, fox=1)]
    )
    rows = [(SQUIRREL, SQUIRREL), (SQUIRREL, FOX), (SQUIRREL, YELLOW), (FOX, YELLOW)]
    rows += [(YELLOW, YELLOW)]
    chosen = rows[ask(GREEDY, state, 0, OGRE_VICTIMS, rows)]
    costs = {}
    for pair in rows:
        for t in pair:
            state.players[0].collected[t] -= 1
        costs[pair] = -sum(ref.final_scoring(state)[0].values())
        for t in pair:
            state.players[0].collected[t] += 1
    assert costs[chosen] == min(costs.values())


def test_random_answers_within_the_choices():
    state = make_state(2)
    rows = [(b,) for b in range(7)]
    assert 0 <= ask(POLICIES["random"], state, 0, BID, rows) < 7
