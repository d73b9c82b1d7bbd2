"""Fantastique rules: the structural constants of the rulebook and the pure scoring functions.

Card *facts* (how many cards of each value, medal values) live in ``data/cards.toml``; what is
here is the shape of the game that the engine's arrays are sized by. Values are the printed card
values 1..8, and every per-value count array is indexed by value (slot 0 unused).
"""

from __future__ import annotations

from collections.abc import Iterable

import numba as nb
import numpy as np

from fairysim.sim.fantastique.facts import FANS as FANS
from fairysim.sim.fantastique.facts import MAX_PLAYERS as MAX_PLAYERS

# The game's shape is declared in its spec (imported by the command line without numba);
# these names are re-exported for the engine modules.
from fairysim.sim.fantastique.facts import MIN_PLAYERS as MIN_PLAYERS
from fairysim.sim.view import view_offsets

MAX_MEDAL_POINTS = 1000
"""Most points one medal may be worth in a card file. A seat wins at most one medal a round and
one Grande Finale medal, so every score stays far inside the 16-bit outcome columns."""

ROUNDS = 7
HAND_SIZE = 10
N_VALUES = 8
DISPLAY_STACKS = 5
STACK_LIMIT = 3
MEDAL_ROWS = ("gold", "silver", "bronze")
BRONZE_MIN_PLAYERS = 4
"""The bronze row is used with 4 or 5 players."""


FAN_DESCRIPTIONS = {
    "I": "cards of value 1, 2, 3",
    "II": "cards of value 6, 7, 8",
    "III": "cards in the two most-held values",
    "IV": "all cards minus the most-held value",
    "V": "cards of the highest and the lowest held value",
    "VI": "cards in the longest run of consecutive values",
}


def fan_index(fan: str) -> int:
    """Index of Grande Finale fan ``fan`` (``"I"`` .. ``"VI"``), or ``ValueError``."""
    try:
        return FANS.index(str(fan).upper())
    except ValueError:
        raise ValueError(
            f"unknown Grande Finale fan {fan!r}; choose one of {', '.join(FANS)}"
        ) from None


@nb.njit(cache=True, inline="always")
def held(counts, value, changed_value, delta):
    """Cards of ``value`` in ``counts``, with ``delta`` added when ``value == changed_value``."""
    return counts[value] + (delta if value == changed_value else 0)


@nb.njit(cache=True, inline="always")
def finale_count_of_counts(fan, counts, changed_value=0, delta=0):
    """Cards that Grande Finale fan ``fan`` (index 0..5) counts in a hand (ruling F8).

    ``counts[v]`` is the number of cards of value ``v`` held, ``v`` in 1..8. Policies ask "what
    if": the count is of the hand with ``delta`` cards of ``changed_value`` added (``delta`` may
    be negative), without writing into ``counts``.
    """
    if fan == 0:
        return (
            held(counts, 1, changed_value, delta)
            + held(counts, 2, changed_value, delta)
            + held(counts, 3, changed_value, delta)
        )
    if fan == 1:
        return (
            held(counts, 6, changed_value, delta)
            + held(counts, 7, changed_value, delta)
            + held(counts, 8, changed_value, delta)
        )
    if fan == 2 or fan == 3:
        first = 0
        second = 0
        total = 0
        # max/min rather than ifs: which value is most held is a coin flip to the branch
        # predictor, and policies count the finale for every choice they weigh.
        for v in range(1, N_VALUES + 1):
            c = held(counts, v, changed_value, delta)
            total += c
            second = max(second, min(first, c))
            first = max(first, c)
        return first + second if fan == 2 else total - first
    if fan == 4:
        low = 0
        high = 0
        for v in range(1, N_VALUES + 1):
            is_held = held(counts, v, changed_value, delta) > 0
            low = v if is_held and low == 0 else low
            high = v if is_held else high
        if low == 0:
            return 0
        if low == high:
            return held(counts, low, changed_value, delta)
        return held(counts, low, changed_value, delta) + held(counts, high, changed_value, delta)
    # fan VI: longest run of consecutive held values, ties broken by more cards (ruling F8)
    best_len = 0
    best_cards = 0
    run_len = 0
    run_cards = 0
    for v in range(1, N_VALUES + 1):
        c = held(counts, v, changed_value, delta)
        run_len = run_len + 1 if c > 0 else 0
        run_cards = run_cards + c if c > 0 else 0
        better = run_len > best_len or (run_len == best_len and run_cards > best_cards)
        best_len = run_len if better else best_len
        best_cards = run_cards if better else best_cards
    return best_cards


def hand_counts(hand: Iterable[int]) -> np.ndarray:
    """Per-value counts (int64[9], indexed by value) of a hand given as card values 1..8."""
    counts = np.zeros(N_VALUES + 1, dtype=np.int64)
    for value in hand:
        if isinstance(value, bool) or int(value) != value or not 1 <= value <= N_VALUES:
            raise ValueError(f"card values are integers 1..{N_VALUES}, got {value!r}")
        counts[int(value)] += 1
    return counts


def finale_count(fan: str, hand: Iterable[int]) -> int:
    """Cards that Grande Finale fan ``fan`` counts in ``hand``, a list of card values 1..8.

    >>> finale_count("III", [1, 2, 3, 3, 8, 8])
    4
    """
    return int(finale_count_of_counts(fan_index(fan), hand_counts(hand)))


@nb.njit(cache=True, inline="always")
def finale_medal_points(finale_counts, n_players, finale_medals, points_out):
    """Grande Finale medals (ruling F9) into ``points_out[seat]`` (points).

    Every seat with the highest count gets Gold, every seat with the next-highest count below it
    gets Silver; a count of 0 never earns a medal.
    """
    gold = 0
    for s in range(n_players):
        gold = max(gold, finale_counts[s])
    silver = 0
    for s in range(n_players):
        c = finale_counts[s]
        silver = max(silver, c if c < gold else 0)
    for s in range(n_players):
        # Selects rather than ifs: which seat holds the most is a coin flip to the predictor.
        c = finale_counts[s]
        points = finale_medals[1] if (c > 0) & (c == silver) else 0
        points_out[s] = finale_medals[0] if (c > 0) & (c == gold) else points


@nb.njit(cache=True, inline="always")
def beats_on_tiebreak(total_a, medals_a, n_a, total_b, medals_b, n_b):
    """+1 if player a ranks above b, -1 if below, 0 if still tied (ruling F10).

    Totals first; then the non-finale medals compared highest first, then next highest; a player
    who runs out of medals first ranks lower. ``medals_*`` must be sorted in descending order.
    """
    if total_a != total_b:
        return 1 if total_a > total_b else -1
    for i in range(max(n_a, n_b)):
        a = medals_a[i] if i < n_a else -1
        b = medals_b[i] if i < n_b else -1
        if a != b:
            return 1 if a > b else -1
    return 0


@nb.njit(cache=True, inline="always")
def rank_players(totals, medals, n_medals, n_players, rank_out, share_out):
    """Competition ranks (1 = winner) and win shares of every seat, with the F10 tie-break.

    ``medals[s, :n_medals[s]]`` must be sorted descending. Seats still tied after the tie-break
    share the rank; the ``k`` winners get a win share of ``1/k`` each.
    """
    winners = 0
    for s in range(n_players):
        # Totals first, counted without a branch (which total is higher is a coin flip to the
        # branch predictor); only a seat tied on its total reads the medals (F10).
        better = 0
        tied = False
        for o in range(n_players):
            better += totals[o] > totals[s]
            tied |= (o != s) & (totals[o] == totals[s])
        if tied:
            for o in range(n_players):
                if o != s and totals[o] == totals[s]:
                    better += (
                        beats_on_tiebreak(
                            totals[o], medals[o], n_medals[o], totals[s], medals[s], n_medals[s]
                        )
                        > 0
                    )
        rank_out[s] = better + 1
        winners += better == 0
    for s in range(n_players):
        share_out[s] = 1.0 / winners if rank_out[s] == 1 else 0.0


# --- What a policy sees -------------------------------------------------------------------------
# A decision is offered to a policy as (decision, view, choices, n_choices, weights, rng).
# ``view`` is an int64 array laid out by VIEW_FIELDS below; every slot has a name, and the
# offsets are derived here so that no engine or policy writes a bare number.

PLAY_FAN = 0
"""Decision: choose a fan; ``choices[i] = (value, count)``, ascending by value then count."""
TAKE_STACK = 1
"""Decision: choose a display stack; ``choices[i] = (value, size)``, distinct, in display order."""
DECISIONS = ("play_fan", "take_stack")

MAX_CHOICES = 100
"""Upper bound on legal choices of any decision (a fan (v, k) needs k cards of value v in hand)."""

VIEW_FIELDS = (
    ("round", 1),  # 0-based round number
    ("fan", 1),  # Grande Finale fan index 0..5
    ("players", 1),
    ("seat", 1),  # the deciding seat
    ("start_seat", 1),  # who played first this round
    ("hand", N_VALUES + 1),  # own hand, count by value
    ("stack_value", DISPLAY_STACKS),  # display stacks still on the table; 0 = taken or absent
    ("stack_size", DISPLAY_STACKS),
    ("played_value", MAX_PLAYERS),  # each seat's fan this round; 0 = not played (yet)
    ("played_count", MAX_PLAYERS),
    ("medal_points", MAX_PLAYERS),  # each seat's medal points so far
    ("next_medal", len(MEDAL_ROWS)),  # points of the next medal of each row; 0 = row unused
    ("hand_size", MAX_PLAYERS),  # each seat's number of cards in hand (public)
    ("draw_pile", 1),  # cards left in the draw pile
    ("discard", N_VALUES + 1),  # discard pile, count by value (all cards there were seen)
)


_VIEW_OFFSET, VIEW_SIZE = view_offsets(VIEW_FIELDS)
V_ROUND = _VIEW_OFFSET["round"]
V_FAN = _VIEW_OFFSET["fan"]
V_PLAYERS = _VIEW_OFFSET["players"]
V_SEAT = _VIEW_OFFSET["seat"]
V_START_SEAT = _VIEW_OFFSET["start_seat"]
V_HAND = _VIEW_OFFSET["hand"]
V_STACK_VALUE = _VIEW_OFFSET["stack_value"]
V_STACK_SIZE = _VIEW_OFFSET["stack_size"]
V_PLAYED_VALUE = _VIEW_OFFSET["played_value"]
V_PLAYED_COUNT = _VIEW_OFFSET["played_count"]
V_MEDAL_POINTS = _VIEW_OFFSET["medal_points"]
V_NEXT_MEDAL = _VIEW_OFFSET["next_medal"]
V_HAND_SIZE = _VIEW_OFFSET["hand_size"]
V_DRAW_PILE = _VIEW_OFFSET["draw_pile"]
V_DISCARD = _VIEW_OFFSET["discard"]
