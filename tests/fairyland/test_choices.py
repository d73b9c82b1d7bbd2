"""The jitted choice enumerators (choices.py) write the very rows the reference engine offers, on
every decision of sampled games (RULINGS "Random policy" order)."""

from __future__ import annotations

import numpy as np
import pytest

from fairysim.sim.fairyland import choices as ch
from fairysim.sim.fairyland.policies import POLICIES
from fairysim.sim.fairyland.reference import play_games
from fairysim.sim.fairyland.rules import (
    BID,
    BROOM_SWEEP,
    CHOICE_WIDTH,
    CLEARINGS,
    DAWN,
    DAY,
    DECISIONS,
    DRUID_FAIRIES,
    DRUID_PICK,
    GOBLIN,
    HORN_OF_RECALL,
    HORN_RECALL,
    IT_AMOUNT,
    IT_PRIMITIVE,
    ITEM_FIELDS,
    ITEM_USED,
    MAX_CHOICES,
    MAX_COURT_ITEMS,
    MAX_SEATS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    NET_TAKE,
    OGRE,
    OGRE_VICTIMS,
    PAYMENT,
    QUEEN_FAIRIES,
    QUEEN_PICK,
    V_AUCTION_CLEARING,
    V_BID_BONUS,
    V_CLEARING,
    V_CLEARING_SIZE,
    V_COLLECTED,
    V_COURT_LEFT,
    V_CRESTS,
    V_DAWN_CARDS,
    V_DRUIDS_LEFT,
    V_FACE_VALUE,
    V_HAND,
    V_HIGH_BID,
    V_ITEM_STATE,
    V_ITEM_TABLE,
    V_ITEMS_HELD,
    V_PLAYED,
    V_SEAT,
    V_VISIT_BONUS,
    explore_values,
    mask_value,
    visit_values,
)
from fairysim.sim.fairyland.setup import make_setup
from fairysim.sim.policy import Policy

from . import types


def expected_rows(decision: int, view: np.ndarray, out: np.ndarray) -> int | None:
    """The rows choices.py writes for this offer, read from the view alone; None for the picks
    (the cards seen are not in the view)."""
    seat = int(view[V_SEAT])
    hand, played = int(view[V_HAND + seat]), int(view[V_PLAYED + seat])
    face = view[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES]
    clearings = view[V_CLEARING : V_CLEARING + CLEARINGS * N_CARD_TYPES]
    collected = view[V_COLLECTED : V_COLLECTED + MAX_SEATS * N_CARD_TYPES]
    table = view[V_ITEM_TABLE : V_ITEM_TABLE + MAX_COURT_ITEMS * ITEM_FIELDS]
    values = np.zeros(N_FAIRY_TYPES, dtype=np.int64)
    if decision == DAWN:
        evil = np.array(
            [
                clearings[c * N_CARD_TYPES + GOBLIN] + clearings[c * N_CARD_TYPES + OGRE]
                for c in range(3)
            ]
        )
        return ch.dawn_choices(evil, view[V_DAWN_CARDS], view[V_DAWN_CARDS + 1], out)
    if decision == DAY:
        return ch.day_choices(
            hand,
            played,
            view[V_CRESTS + seat],
            view[V_ITEMS_HELD + seat],
            table,
            bool(view[V_CLEARING_SIZE : V_CLEARING_SIZE + CLEARINGS].sum() > 0),
            collected[seat * N_CARD_TYPES + GOBLIN],
            view[V_COURT_LEFT],
            view[V_DRUIDS_LEFT],
            out,
        )
    if decision in (BID, PAYMENT):
        c = int(view[V_AUCTION_CLEARING])
        explore_values(face, clearings[c * N_CARD_TYPES : (c + 1) * N_CARD_TYPES], values)
        bonus = view[V_BID_BONUS + seat]
        if decision == BID:
            return ch.bid_choices(view[V_HIGH_BID], mask_value(hand, values) + bonus, out)
        return ch.payment_choices(hand, values, bonus, view[V_HIGH_BID], out)
    if decision in (QUEEN_FAIRIES, DRUID_FAIRIES):
        visit_values(face, values)
        left = view[V_COURT_LEFT] if decision == QUEEN_FAIRIES else view[V_DRUIDS_LEFT]
        return ch.visit_choices(hand, values, view[V_VISIT_BONUS + seat], left, out)
    if decision == OGRE_VICTIMS:
        return ch.ogre_choices(collected, seat, out)
    if decision == NET_TAKE:
        return ch.net_choices(clearings, out)
    if decision == BROOM_SWEEP:
        return ch.broom_choices(view[V_CLEARING_SIZE : V_CLEARING_SIZE + CLEARINGS], out)
    if decision == HORN_RECALL:
        horns = [
            i
            for i in range(MAX_COURT_ITEMS)
            if table[i * ITEM_FIELDS + IT_PRIMITIVE] == HORN_OF_RECALL
            and view[V_ITEM_STATE + i] == ITEM_USED
        ]
        return ch.horn_choices(played, table[horns[0] * ITEM_FIELDS + IT_AMOUNT], out)
    assert decision in (QUEEN_PICK, DRUID_PICK)
    return None


class Checker:
    """Wraps a policy: at every offer, the enumerator's rows must equal the offered rows."""

    def __init__(self, inner):
        self.inner = inner
        self.checked = set()
        self.out = np.zeros((MAX_CHOICES, CHOICE_WIDTH), dtype=np.int64)

    def __call__(self, decision, view, choices, n_choices, weights, rng):
        n = expected_rows(decision, view, self.out)
        if n is None:
            rows = [int(x) for x in choices[:n_choices, 0]]
            assert rows == sorted(set(rows))
        else:
            assert n == n_choices, (decision, n, n_choices)
            assert (self.out[:n] == choices[:n_choices]).all(), decision
        self.checked.add(int(decision))
        return self.inner(decision, view, choices, n_choices, weights, rng)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_enumerators_match_every_offer_of_sampled_games(players, policy):
    checkers = [Checker(POLICIES[policy].function) for _ in range(players)]
    seated = [
        Policy(policy, c, POLICIES[policy].weights, POLICIES[policy].weight_names) for c in checkers
    ]
    for court in (None, "starred"):
        play_games(make_setup(players=players, policies=seated, seed=31, court=court), 6)
    checked = set().union(*(c.checked for c in checkers))
    assert {DAWN, DAY, BID} <= checked


def test_pick_choices_are_the_distinct_cards_seen_ascending():
    out = np.zeros((8, CHOICE_WIDTH), dtype=np.int64)
    seen = np.array(types("fox", "deer", "fox", "goblin", "warrior"), dtype=np.int64)
    n = ch.pick_choices(seen, len(seen), out)
    assert list(out[:n, 0]) == sorted(set(seen.tolist()))


def test_payment_with_a_bonus_covering_the_bid_lists_every_subset():
    out = np.zeros((MAX_CHOICES, CHOICE_WIDTH), dtype=np.int64)
    values = np.ones(N_FAIRY_TYPES, dtype=np.int64)
    full = (1 << N_FAIRY_TYPES) - 1
    assert ch.payment_choices(full, values, 3, 2, out) == MAX_CHOICES
    assert list(out[:4, 0]) == [0, 1, 2, 3]


def test_enumerators_match_every_kind_of_decision():
    checkers = [Checker(POLICIES["random"].function) for _ in range(4)]
    seated = [Policy("random", c) for c in checkers]
    setup = make_setup(players=4, policies=seated, seed=0)
    checked = set()
    for game in range(200):
        play_games(setup, 1, first_game=game)
        checked = set().union(*(c.checked for c in checkers))
        if len(checked) == len(DECISIONS):
            break
    assert checked == set(range(len(DECISIONS)))
