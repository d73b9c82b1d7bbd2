"""The greedy shortcut (shortcuts/greedy.py) answers as greedy_policy does: on every Dawn, Day, bid
and payment of sampled reference games (default and changed weights, several courts), and its exact
score change equals the difference of two full scorings on random collections."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from fairysim.sim.batch import join_chunks
from fairysim.sim.fairyland import make_setup, play_chunks, reference
from fairysim.sim.fairyland.cards import load_cards, load_court
from fairysim.sim.fairyland.policies import POLICIES, greedy_policy
from fairysim.sim.fairyland.rules import (
    BID,
    C_MASK,
    C_VALUE,
    CLEARINGS,
    DAWN,
    DAY,
    FIRST_FOREST_TYPE,
    GOBLIN,
    ITEM_FIELDS,
    LOST_HALF,
    MAX_COURT_ITEMS,
    MAX_SEATS,
    N_ANIMALS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    OGRE,
    PAYMENT,
    V_AUCTION_CLEARING,
    V_BID_BONUS,
    V_CLEARING,
    V_COLLECTED,
    V_FACE_VALUE,
    V_HAND,
    V_HIGH_BID,
    V_ITEM_TABLE,
    V_ITEMS_HELD,
    V_MAJORITY,
    V_PLAYERS,
    V_SEAT,
    VIEW_SIZE,
    collection_halves,
    explore_values,
    is_special,
)
from fairysim.sim.fairyland.shortcuts.greedy import (
    DAWN_STATES,
    bid_answer,
    dawn_answer,
    day_answer,
    payment_answer,
    score_change,
)

GREEDY = POLICIES["greedy"]
BOLD = GREEDY.with_weights(bid_per_point=2.5, special=9.0, ogre=-0.5, visit=8.0, crest_below=12.0)
SHY = GREEDY.with_weights(bid_per_point=0.2, special=-1.0, ogre=-12.0, visit=0.5, crest_below=0.0)


def sampled_decisions(players, lineup, court, games, seed):
    """Every Dawn, Day and bid a greedy seat was offered in ``games`` reference games:
    ``(decision, view, choices, n_choices, weights)``."""
    samples = []

    def recording(policy):
        def ask(decision, view, choices, n_choices, weights, rng):
            if decision in (DAWN, DAY, BID, PAYMENT):
                samples.append((decision, view.copy(), choices.copy(), n_choices, weights.copy()))
            return policy.function(decision, view, choices, n_choices, weights, rng)

        return dataclasses.replace(policy, function=ask)

    setup = make_setup(players=players, policies=lineup, seed=seed, court=court)
    seated = tuple(recording(p) if p.name == "greedy" else p for p in setup.policies)
    reference.play_games(dataclasses.replace(setup, policies=seated), games)
    return samples


@pytest.mark.parametrize(
    ("players", "lineup", "court"),
    [
        (4, [GREEDY], "random"),
        (3, [BOLD, "random", SHY], "starred"),
        (2, [SHY, BOLD], "random"),
        (4, [BOLD, GREEDY, "random", SHY], "none"),
    ],
)
def test_the_shortcut_answers_as_greedy_policy(players, lineup, court):
    samples = sampled_decisions(players, lineup, court, games=12, seed=players)
    assert {d for d, *_ in samples} == {DAWN, DAY, BID, PAYMENT}
    gains = np.zeros(CLEARINGS * DAWN_STATES)
    rng = np.zeros(2, np.uint64)
    for decision, view, choices, n, weights in samples:
        expected = greedy_policy(decision, view, choices, n, weights, rng)
        seat = view[V_SEAT]
        before = view.copy()
        if decision == DAWN:
            answer = dawn_answer(view, choices, n, seat, weights, gains)
        elif decision == DAY:
            answer = day_answer(view, choices, n, seat, weights)
        elif decision == PAYMENT:
            answer = payment_row(view, choices, n, seat)
        else:
            c, high = view[V_AUCTION_CLEARING], view[V_HIGH_BID]
            answer = int(bid_answer(view, c, seat, high, weights))
        assert answer == expected, (decision, seat)
        assert (view == before).all()  # the view is restored


def payment_row(view, choices, n, seat):
    """The row of the payment the shortcut chooses (its value checked against the row's)."""
    c = view[V_AUCTION_CLEARING]
    face_value = view[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES]
    values = np.zeros(N_FAIRY_TYPES, np.int64)
    explore_values(face_value, view[V_CLEARING + c * N_CARD_TYPES :], values)
    bonus, bid = view[V_BID_BONUS + seat], view[V_HIGH_BID]
    mask, value = payment_answer(view[V_HAND + seat], values, face_value, bonus, bid)
    (row,) = np.flatnonzero(choices[:n, C_MASK] == mask)
    assert choices[row, C_VALUE] == value
    return row


def random_view(rng, players):
    """A view with random collections and held court items of the shipped court."""
    view = np.zeros(VIEW_SIZE, np.int64)
    view[V_PLAYERS] = players
    view[V_MAJORITY : V_MAJORITY + N_ANIMALS] = load_cards().majority
    table = load_court().table
    view[V_ITEM_TABLE : V_ITEM_TABLE + table.size] = table.reshape(-1)
    for s in range(players):
        row = V_COLLECTED + s * N_CARD_TYPES
        for card in range(FIRST_FOREST_TYPE, N_CARD_TYPES):  # what a collection can hold
            if card != OGRE and not is_special(card):
                view[row + card] = rng.integers(0, 2 if card == LOST_HALF else 5)
        view[V_ITEMS_HELD + s] = int(rng.integers(0, 1 << len(table))) if rng.random() < 0.5 else 0
    return view


def full_score(view, seat):
    return collection_halves(
        view[V_COLLECTED : V_COLLECTED + MAX_SEATS * N_CARD_TYPES],
        view[V_PLAYERS],
        seat,
        view[V_MAJORITY : V_MAJORITY + N_ANIMALS],
        view[V_ITEMS_HELD + seat],
        view[V_ITEM_TABLE : V_ITEM_TABLE + MAX_COURT_ITEMS * ITEM_FIELDS],
    )


def test_the_score_change_is_the_difference_of_two_full_scorings():
    rng = np.random.default_rng(18)
    for trial in range(3000):
        players = 2 + trial % 3
        view = random_view(rng, players)
        seat = int(rng.integers(0, players))
        counts = np.zeros(N_CARD_TYPES, np.int64)
        counts[FIRST_FOREST_TYPE:] = rng.integers(0, 3, N_CARD_TYPES - FIRST_FOREST_TYPE)
        counts[GOBLIN] = rng.integers(-view[V_COLLECTED + seat * N_CARD_TYPES + GOBLIN], 3)
        before = full_score(view, seat)
        change = score_change(view, seat, counts)
        after = view.copy()
        row = V_COLLECTED + seat * N_CARD_TYPES
        for card in range(FIRST_FOREST_TYPE, N_CARD_TYPES):
            if card != OGRE and not is_special(card):
                after[row + card] += counts[card]
        assert change == full_score(after, seat) - before, trial


def test_the_engine_plays_greedy_seats_through_the_shortcut():
    """A greedy seat and a user policy that calls greedy_policy play the same games: the engine
    answers the first from the table and asks the second."""
    as_user = dataclasses.replace(GREEDY, name="greedy-as-user", builtin_id=-1)

    runs = [
        join_chunks(play_chunks(make_setup(players=3, policies=lineup, seed=6), 300))
        for lineup in ([GREEDY, "random", BOLD], [as_user, "random", BOLD])
    ]
    for name in ("score", "auctions_won", "value_paid", "turns", "auctions"):
        assert (runs[0][name] == runs[1][name]).all(), name
