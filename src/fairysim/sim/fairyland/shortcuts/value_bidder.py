"""value-bidder's answers read off the engine's table: the value-bidder shortcut
(docs/architecture.md, "Policy dispatch"), the benchmark's policy (issue 18).

:func:`.policies.value_bidder_policy` is the definition, and the reference engine asks it. The
engine asks a value-bidder seat's Dawn, Day, bids and payments here instead, with the same
functions on the same numbers, so the answers are the same; what it saves is work the policy
cannot avoid because it keeps nothing between calls:

- a clearing's value to a seat (:func:`.judgement.valuation.taken_parts`, the bulk of a game's
  time) does not change within a turn but where cards join it (no collection, hand or deck
  moves from the Dawn's choice to the payment), so the Dawn's value of the clearing no card
  joined is the Day's, the active seat's bid and payment read the Day's values, and every other
  seat values the clearing once, at its bid;
- what each seat can pay is worked out once an auction, not again by every seat before it;
- a bid is answered as an amount, without the rows of every bid up to the seat's purse;
- a payment is chosen while the subsets of the hand are enumerated, without writing them as
  rows (:func:`.judgement.bidding.cheapest_payment`).

The values live in the engine's table: ``worth`` and ``relief`` (float64[MAX_SEATS,
CLEARINGS]), each seat's value of each clearing and the Warrior's relief in it, and ``known``,
a bitmask of the entries that hold this turn's values (bit ``seat * CLEARINGS + c``), which the
engine sets anew at every Dawn. tests/fairyland/test_value_bidder_shortcut.py compares these
answers with ``value_bidder_policy``'s on sampled decisions; the engines' equivalence tests
play value-bidder seats against the reference engine.
"""

from __future__ import annotations

import numba as nb

from fairysim.sim.fairyland.judgement.bidding import bid_over, cheapest_payment
from fairysim.sim.fairyland.judgement.style_play import dawn_by_style, out_of_share, plain_day
from fairysim.sim.fairyland.judgement.valuation import copy_clearing, taken_parts
from fairysim.sim.fairyland.policies import (
    VB_BID_PER_POINT,
    VB_CREST_BELOW,
    VB_LOOK,
    VB_SHARE,
    VB_VISIT,
    value_bidder_style,
)
from fairysim.sim.fairyland.rules import (
    CLEARINGS,
    HALF,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    PASS,
    V_ACTIVE,
    V_FACE_VALUE,
    V_HIGH_BID,
    V_PLAYERS,
    WARRIOR,
)
from fairysim.sim.scratch import stack_int64
from fairysim.sim.view import as_policy_sees


@nb.njit(cache=True)
def dawn_answer(v, choices, n, seat, weights, worth, relief):
    """value-bidder's Dawn (``style_play.dawn_by_style``): its row, each clearing's value before
    the cards join it left in ``worth[seat]`` and ``relief[seat]`` (the engine then marks the
    clearing no card joined known)."""
    counts = stack_int64(N_CARD_TYPES)
    view = as_policy_sees(v)
    style = value_bidder_style(view, weights)
    rows = as_policy_sees(choices)
    return dawn_by_style(view, rows, n, seat, style, counts, worth[seat], relief[seat])


@nb.njit(cache=True)
def day_answer(v, choices, n, seat, weights, worth, relief, known):
    """value-bidder's Day (``style_play.plain_day``): its row, each clearing's value read from
    ``worth[seat]`` and ``relief[seat]`` when ``known``, else worked out and left there (the
    engine then marks the seat's clearings known)."""
    view = as_policy_sees(v)
    return plain_day(
        view,
        as_policy_sees(choices),
        n,
        seat,
        value_bidder_style(view, weights),
        weights[VB_BID_PER_POINT],
        weights[VB_CREST_BELOW],
        weights[VB_VISIT],
        int(weights[VB_LOOK]),
        worth[seat],
        relief[seat],
        (known >> (seat * CLEARINGS)) & ((1 << CLEARINGS) - 1),
    )


@nb.njit(cache=True, inline="always")
def known_bits(seat):
    """The bits of ``known`` of ``seat``'s three clearings."""
    return ((1 << CLEARINGS) - 1) << (seat * CLEARINGS)


@nb.njit(cache=True)
def clearing_value(v, c, seat, weights, worth, relief, known):
    """``seat``'s value of clearing ``c``, from the table when known this turn, else worked out
    and kept. Returns the value and the new ``known``."""
    bit = 1 << (seat * CLEARINGS + c)
    if not known & bit:
        counts = stack_int64(N_CARD_TYPES)
        copy_clearing(v, c, counts)
        view = as_policy_sees(v)
        worth[seat, c], relief[seat, c] = taken_parts(
            view, seat, counts, value_bidder_style(view, weights)
        )
        known |= bit
    return worth[seat, c], known


@nb.njit(cache=True)
def bid_answer(v, c, seat, purses, weights, worth, relief, known):
    """value-bidder's bid on clearing ``c`` (``style_play.bid_by_style``): the amount, or PASS.
    ``purses[s]`` is the most seat ``s`` can pay for the clearing (``auction.bid_power``: what
    ``auction.later_purse`` reads). Returns the bid and the new ``known``."""
    value, known = clearing_value(v, c, seat, weights, worth, relief, known)
    per_point = weights[VB_BID_PER_POINT]
    share = weights[VB_SHARE]
    if out_of_share(v, seat, value, per_point, share):
        return PASS, known
    later = -1
    active = v[V_ACTIVE]
    if seat != active:  # auction.later_purse
        later = 0
        rival = seat
        n = v[V_PLAYERS]
        while rival != active:
            rival = rival + 1 if rival + 1 < n else 0
            later = max(later, purses[rival])
    high = v[V_HIGH_BID]
    row = bid_over(purses[seat], high, value, per_point, share, later)
    if row == 0:
        return PASS, known
    return high + row, known


@nb.njit(cache=True)
def payment_answer(v, c, seat, hand, values, bonus, bid, weights, worth, relief, known):
    """value-bidder's payment (``style_play.decide_by_style``): the cheapest fairies, the
    Warrior cheaper by the relief of the goblins and ogres she chases. Returns ``(mask,
    value)`` of the row it would answer."""
    warrior_relief = 0.0
    if (hand >> WARRIOR) & 1:  # else the relief is never read
        clearing_value(v, c, seat, weights, worth, relief, known)
        warrior_relief = relief[seat, c] / HALF * weights[VB_BID_PER_POINT]
    face_value = v[V_FACE_VALUE : V_FACE_VALUE + N_FAIRY_TYPES]
    return cheapest_payment(hand, values, face_value, bonus, bid, hand, warrior_relief, 0.0)
