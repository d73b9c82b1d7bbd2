"""The value-bidder shortcut (value_bidder.py) answers as value_bidder_policy does: on every Day,
bid and payment of sampled reference games (default and changed weights, several courts), with
the clearing values it keeps computed afresh or read back from the Day."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from fairysim.sim.batch import join_chunks
from fairysim.sim.fairyland import make_setup, play_chunks, reference
from fairysim.sim.fairyland import value_bidder as shortcut
from fairysim.sim.fairyland.policies import POLICIES, value_bidder_policy
from fairysim.sim.fairyland.rules import (
    ACT_EXPLORE,
    BID,
    C_ACTION,
    C_ARG,
    C_BID,
    C_MASK,
    C_VALUE,
    CHOICE_WIDTH,
    CLEARINGS,
    DAY,
    MAX_SEATS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    PASS,
    PAYMENT,
    V_ACTIVE,
    V_AUCTION_CLEARING,
    V_BID_BONUS,
    V_CLEARING,
    V_FACE_VALUE,
    V_HAND,
    V_HIGH_BID,
    V_SEAT,
    explore_values,
)

VALUE_BIDDER = POLICIES["value-bidder"]
EAGER = VALUE_BIDDER.with_weights(bid_per_point=4.0, share=1.0, spread=6.0, special=8.0, ogre=-1.0)
CAREFUL = VALUE_BIDDER.with_weights(bid_per_point=0.5, share=0.4, spread=0.0, crest_below=12.0)


def sampled_decisions(players, lineup, court, games, seed):
    """Every Day, bid and payment a value-bidder seat was offered in ``games`` reference games:
    ``(decision, view, choices, n_choices, weights)``."""
    samples = []

    def recording(policy):
        def ask(decision, view, choices, n_choices, weights, rng):
            if decision in (DAY, BID, PAYMENT):
                samples.append((decision, view.copy(), choices.copy(), n_choices, weights.copy()))
            return policy.function(decision, view, choices, n_choices, weights, rng)

        return dataclasses.replace(policy, function=ask)

    setup = make_setup(players=players, policies=lineup, seed=seed, court=court)
    seated = tuple(recording(p) if p.name == "value-bidder" else p for p in setup.policies)
    reference.play_games(dataclasses.replace(setup, policies=seated), games)
    return samples


def day_values(view, seat, weights):
    """The clearing values the shortcut's Day leaves for ``seat``: ``(worth, relief)``."""
    worth = np.zeros((MAX_SEATS, CLEARINGS))
    relief = np.zeros((MAX_SEATS, CLEARINGS))
    choices = np.zeros((CLEARINGS, CHOICE_WIDTH), np.int64)
    choices[:, C_ACTION] = ACT_EXPLORE
    choices[:, C_ARG] = np.arange(CLEARINGS)
    shortcut.day_answer(view, choices, CLEARINGS, seat, weights, worth, relief)
    return worth, relief


def bid_amount(view, choices, n, seat, weights):
    """The shortcut's bid, with the seat's clearing values worked out afresh and, for the
    active seat, read back from its Day: both must agree."""
    c = view[V_AUCTION_CLEARING]
    can_pay = choices[n - 1, C_BID]
    worth = np.zeros((MAX_SEATS, CLEARINGS))
    relief = np.zeros((MAX_SEATS, CLEARINGS))
    bid, known = shortcut.bid_answer(view, c, seat, can_pay, weights, worth, relief, 0)
    assert known == 1 << (seat * CLEARINGS + c)
    if seat == view[V_ACTIVE]:
        worth, relief = day_values(view, seat, weights)
        known = int(shortcut.known_bits(seat))
        again, _ = shortcut.bid_answer(view, c, seat, can_pay, weights, worth, relief, known)
        assert again == bid
    return bid


def payment_row(view, choices, n, seat, weights):
    """The row of the payment the shortcut chooses (its value checked against the row's)."""
    c = view[V_AUCTION_CLEARING]
    values = np.zeros(N_FAIRY_TYPES, np.int64)
    face_value = view[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES]
    explore_values(face_value, view[V_CLEARING + c * N_CARD_TYPES :], values)
    hand, bonus, bid = view[V_HAND + seat], view[V_BID_BONUS + seat], view[V_HIGH_BID]
    worth = np.zeros((MAX_SEATS, CLEARINGS))
    relief = np.zeros((MAX_SEATS, CLEARINGS))
    mask, value = shortcut.payment_answer(
        view, c, seat, hand, values, bonus, bid, weights, worth, relief, 0
    )
    (row,) = np.flatnonzero(choices[:n, C_MASK] == mask)
    assert choices[row, C_VALUE] == value
    return row


@pytest.mark.parametrize(
    ("players", "lineup", "court"),
    [
        (4, [VALUE_BIDDER], "random"),
        (3, [EAGER, "random", CAREFUL], "starred"),
        (2, [CAREFUL, EAGER], "random"),
        (4, [EAGER, VALUE_BIDDER, "greedy", CAREFUL], "none"),
    ],
)
def test_the_shortcut_answers_as_value_bidder_policy(players, lineup, court):
    samples = sampled_decisions(players, lineup, court, games=12, seed=players)
    assert {d for d, *_ in samples} == {DAY, BID, PAYMENT}
    rng = np.zeros(2, np.uint64)
    bids = set()
    for decision, view, choices, n, weights in samples:
        expected = value_bidder_policy(decision, view, choices, n, weights, rng)
        seat = view[V_SEAT]
        before = view.copy()
        if decision == DAY:
            worth = np.zeros((MAX_SEATS, CLEARINGS))
            relief = np.zeros((MAX_SEATS, CLEARINGS))
            answer = shortcut.day_answer(view, choices, n, seat, weights, worth, relief)
        elif decision == PAYMENT:
            answer = payment_row(view, choices, n, seat, weights)
        else:
            bid = bid_amount(view, choices, n, seat, weights)
            answer = 0 if bid == PASS else int(np.flatnonzero(choices[:n, C_BID] == bid)[0])
            bids.add(answer > 0)
        assert answer == expected, (decision, seat)
        assert (view == before).all()  # the view is restored
    assert bids == {False, True}  # passes and bids were both compared


def test_the_engine_plays_value_bidder_seats_through_the_shortcut():
    """A value-bidder seat and a user policy that calls value_bidder_policy play the same games:
    the engine answers the first from the table and asks the second."""
    as_user = dataclasses.replace(VALUE_BIDDER, name="value-bidder-as-user", builtin_id=-1)
    runs = [
        join_chunks(play_chunks(make_setup(players=4, policies=lineup, seed=8), 300))
        for lineup in (
            [VALUE_BIDDER, "random", EAGER, VALUE_BIDDER],
            [as_user, "random", EAGER, as_user],
        )
    ]
    for name in ("score", "auctions_won", "value_paid", "fairies_paid", "turns", "auctions"):
        assert (runs[0][name] == runs[1][name]).all(), name
