"""The value-bidder shortcut (shortcuts/value_bidder.py) answers as value_bidder_policy does: on
every Dawn, Day, bid and payment of sampled reference games (default and changed weights, several
courts), with the clearing values it keeps worked out afresh or read back from the Dawn and the
Day."""

from __future__ import annotations

import dataclasses

import numba as nb
import numpy as np
import pytest
from numba import types

from fairysim.sim.batch import join_chunks
from fairysim.sim.fairyland import make_setup, play_chunks, reference
from fairysim.sim.fairyland.judgement.bidding import cheapest_payment, cheapest_payment_walk
from fairysim.sim.fairyland.judgement.style_play import dawn_by_style, plain_day
from fairysim.sim.fairyland.judgement.valuation import taken_parts
from fairysim.sim.fairyland.policies import POLICIES, value_bidder_policy
from fairysim.sim.fairyland.rules import (
    ACT_EXPLORE,
    BID,
    C_ACTION,
    C_ARG,
    C_BID,
    C_FIRST,
    C_MASK,
    C_SECOND,
    C_VALUE,
    CHOICE_WIDTH,
    CLEARINGS,
    DAWN,
    DAY,
    MAX_SEATS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    NO_CARD,
    PASS,
    PAYMENT,
    V_ACTIVE,
    V_AUCTION_CLEARING,
    V_BID_BONUS,
    V_CLEARING,
    V_CLEARING_SIZE,
    V_DAWN_CARDS,
    V_FACE_VALUE,
    V_HAND,
    V_HIGH_BID,
    V_PLAYERS,
    V_SEAT,
    explore_values,
    mask_value,
)
from fairysim.sim.fairyland.shortcuts import value_bidder as shortcut

VALUE_BIDDER = POLICIES["value-bidder"]
EAGER = VALUE_BIDDER.with_weights(bid_per_point=4.0, share=1.0, spread=6.0, special=8.0, ogre=-1.0)
CAREFUL = VALUE_BIDDER.with_weights(bid_per_point=0.5, share=0.4, spread=0.0, crest_below=12.0)


def sampled_decisions(players, lineup, court, games, seed):
    """Every Dawn, Day, bid and payment a value-bidder seat was offered in ``games`` reference
    games: ``(decision, view, choices, n_choices, weights)``."""
    samples = []

    def recording(policy):
        def ask(decision, view, choices, n_choices, weights, rng):
            if decision in (DAWN, DAY, BID, PAYMENT):
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
    shortcut.day_answer(view, choices, CLEARINGS, seat, weights, worth, relief, 0)
    return worth, relief


def auction_values(view):
    """Each fairy type's value in the auction under way."""
    c = view[V_AUCTION_CLEARING]
    values = np.zeros(N_FAIRY_TYPES, np.int64)
    face_value = view[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES]
    explore_values(face_value, view[V_CLEARING + c * N_CARD_TYPES :], values)
    return values


def purses(view):
    """What each seat can pay in the auction under way (its hand's values and its bonus)."""
    values = auction_values(view)
    return np.array(
        [
            mask_value(view[V_HAND + s], values) + view[V_BID_BONUS + s]
            for s in range(view[V_PLAYERS])
        ],
        np.int64,
    )


def bid_amount(view, choices, n, seat, weights):
    """The shortcut's bid, with the seat's clearing values worked out afresh and, for the
    active seat, read back from its Day: both must agree."""
    c = view[V_AUCTION_CLEARING]
    purse = purses(view)
    assert purse[seat] == choices[n - 1, C_BID]  # the most the rows offer
    worth = np.zeros((MAX_SEATS, CLEARINGS))
    relief = np.zeros((MAX_SEATS, CLEARINGS))
    bid, known = shortcut.bid_answer(view, c, seat, purse, weights, worth, relief, 0)
    assert known == 1 << (seat * CLEARINGS + c)
    if seat == view[V_ACTIVE]:
        worth, relief = day_values(view, seat, weights)
        known = int(shortcut.known_bits(seat))
        again, _ = shortcut.bid_answer(view, c, seat, purse, weights, worth, relief, known)
        assert again == bid
    return bid


def dawn_row(view, choices, n, seat, weights):
    """The shortcut's Dawn row; the values it leaves of a clearing no card joins are those the
    Day works out once the cards are placed."""
    worth = np.zeros((MAX_SEATS, CLEARINGS))
    relief = np.zeros((MAX_SEATS, CLEARINGS))
    row = shortcut.dawn_answer(view, choices, n, seat, weights, worth, relief)
    placed = view.copy()
    joined = set()
    for column, card in ((C_FIRST, view[V_DAWN_CARDS]), (C_SECOND, view[V_DAWN_CARDS + 1])):
        if card != NO_CARD:
            c = choices[row, column]
            placed[V_CLEARING + c * N_CARD_TYPES + card] += 1
            placed[V_CLEARING_SIZE + c] += 1
            joined.add(c)
    placed[V_DAWN_CARDS : V_DAWN_CARDS + 2] = NO_CARD
    day_worth, day_relief = day_values(placed, seat, weights)
    assert len(joined) < CLEARINGS
    for c in range(CLEARINGS):
        if c not in joined:
            assert day_worth[seat, c] == worth[seat, c]
            assert day_relief[seat, c] == relief[seat, c]
    return row


def payment_row(view, choices, n, seat, weights):
    """The row of the payment the shortcut chooses (its value checked against the row's)."""
    c = view[V_AUCTION_CLEARING]
    values = auction_values(view)
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
    assert {d for d, *_ in samples} == {DAWN, DAY, BID, PAYMENT}
    rng = np.zeros(2, np.uint64)
    bids = set()
    for decision, view, choices, n, weights in samples:
        expected = value_bidder_policy(decision, view, choices, n, weights, rng)
        seat = view[V_SEAT]
        before = view.copy()
        if decision == DAWN:
            answer = dawn_row(view, choices, n, seat, weights)
        elif decision == DAY:
            worth = np.zeros((MAX_SEATS, CLEARINGS))
            relief = np.zeros((MAX_SEATS, CLEARINGS))
            answer = shortcut.day_answer(view, choices, n, seat, weights, worth, relief, 0)
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


@pytest.mark.parametrize("wind_face", [1, 3])
def test_cheapest_payment_search_finds_the_enumerations_row(wind_face):
    """The depth-first payment search answers what walking every subset of the hand answers,
    on random hands, values, bids and costs: the Warrior's relief above her face, the Herald's
    extra, the Wind's return, fairies worth 0, and (Wind face 3) the walk as the fallback."""
    rng = np.random.default_rng(18)
    special_bits = (1 << N_FAIRY_TYPES) - (1 << 7)
    for _ in range(3000):
        face_value = np.concatenate([np.arange(1, 8), rng.integers(1, 3, 6)]).astype(np.int64)
        face_value[-1] = wind_face
        values = face_value.copy()
        values[7:] = rng.integers(0, 4, 6)
        hand = int(rng.integers(1, 1 << 7)) | (int(rng.integers(0, 1 << 13)) & special_bits)
        purse = mask_value(hand, values)
        bonus = int(rng.integers(0, 3))
        bid = int(rng.integers(1, purse + bonus + 1))
        wind_hand = hand if rng.random() < 0.7 else 0
        relief = float(rng.choice([0.0, 0.5, 2.5, 6.0]))
        herald_extra = float(rng.choice([0.0, 1.5]))
        args = (hand, values, face_value, bonus, bid, wind_hand, relief, herald_extra)
        assert cheapest_payment(*args) == cheapest_payment_walk(*args), args


INT_1D = types.Array(types.int64, 1, "C")
INT_2D = types.Array(types.int64, 2, "C")
FLOAT_1D = types.Array(types.float64, 1, "C")
FLOAT_2D = types.Array(types.float64, 2, "C")


@pytest.mark.parametrize(
    ("answer", "judge", "arguments"),
    [
        (
            shortcut.dawn_answer,
            dawn_by_style,
            (INT_1D, INT_2D, types.int64, types.int64, FLOAT_1D, FLOAT_2D, FLOAT_2D),
        ),
        (
            shortcut.day_answer,
            plain_day,
            (INT_1D, INT_2D, types.int64, types.int64, FLOAT_1D, FLOAT_2D, FLOAT_2D, types.int64),
        ),
        (
            shortcut.clearing_value,
            taken_parts,
            (INT_1D, types.int64, types.int64, FLOAT_1D, FLOAT_2D, FLOAT_2D, types.int64),
        ),
    ],
)
def test_the_shortcut_hands_the_judging_functions_a_read_only_view(answer, judge, arguments):
    """The engine's table is writable and a policy's view read-only (POLICY_SIGNATURE): the
    shortcut passes the table as the policy sees it (``view.as_policy_sees``), so each judging
    function compiles once for the engine and the policy, not once per array type."""
    fresh = nb.njit(answer.py_func)  # no cache: typed here, whatever the cache holds
    fresh.compile(arguments)
    annotation = fresh.overloads[arguments].type_annotation
    calls = [
        signature
        for expr, signature in annotation.calltypes.items()
        if getattr(expr, "op", None) == "call"
        and getattr(annotation.typemap[expr.func.name], "dispatcher", None) is judge
    ]
    assert calls
    for signature in calls:
        view, *rest = signature.args
        choices = [a for a in rest if isinstance(a, types.Array) and a.ndim == 2]
        assert not view.mutable, signature
        assert all(not a.mutable for a in choices), signature
