"""Fantastique's side of the search contract (:mod:`fairysim.sim.search`): copy a table, and
redraw what a seat cannot see.

What a seat sees is its view (:data:`.rules.VIEW_FIELDS`): its own hand, the display, this
round's fans, the discard pile by value, every hand's size and the draw pile's length. What it
cannot see is the other hands' cards and the draw pile's order; a determinization deals the
cards of both, pooled, back into the other hands (each keeping its size) and the draw pile at
random. A seat is taken to remember nothing its view does not show (which stacks another seat
took earlier, say): a ``rollout`` seat searches the same information its play-out policy
decides on. The play-out policy is the game's best heuristic (``balancer``, the top of the
spec's ladder below ``rollout``), and both of Fantastique's decisions (fans and stacks) are
searched.
"""

from __future__ import annotations

import numba as nb

from fairysim.sim.fantastique.rules import N_VALUES
from fairysim.sim.rng import seed_game_streams, shuffle_prefix
from fairysim.sim.scratch import stack_int64
from fairysim.sim.search import copy_1d, copy_2d

PILE_LEN = 0
"""Slot of the draw pile's length in a table's counters (as :mod:`.engine` lays them out)."""
COUNTS_SIZE = N_VALUES + 1
"""Length of a count-by-value array (slot 0 counts no card); a constant the compiler sees."""


@nb.njit(cache=True)
def copy_table(src, dst):
    """``dst`` becomes a copy of ``src``: every array of the table, element by element."""
    copy_2d(src.hands, dst.hands)
    copy_1d(src.pile, dst.pile)
    copy_1d(src.discard, dst.discard)
    copy_1d(src.stack_value, dst.stack_value)
    copy_1d(src.stack_size, dst.stack_size)
    copy_1d(src.open_stack, dst.open_stack)
    copy_1d(src.played_value, dst.played_value)
    copy_1d(src.played_count, dst.played_count)
    copy_1d(src.taken_fans, dst.taken_fans)
    copy_1d(src.hand_size, dst.hand_size)
    copy_1d(src.medal_next, dst.medal_next)
    copy_2d(src.medals, dst.medals)
    copy_1d(src.n_medals, dst.n_medals)
    copy_1d(src.medal_points, dst.medal_points)
    copy_1d(src.order, dst.order)
    copy_1d(src.order_keys, dst.order_keys)
    copy_1d(src.seat_view, dst.seat_view)
    copy_2d(src.choices, dst.choices)
    copy_1d(src.deal_rng, dst.deal_rng)
    copy_2d(src.policy_rng, dst.policy_rng)
    copy_1d(src.counters, dst.counters)


@nb.njit(cache=True)
def redraw_hidden(t, seat, key, searcher):
    """Deal the cards ``seat`` cannot see (the other hands and the draw pile) afresh, each hand
    keeping its size, and reseed every random stream of ``t`` from ``key``.

    The pooled cards are laid out by value and shuffled with the deal stream of ``(key, 0)``
    (as a game's deck is), then dealt from the top to the other seats in seat order; the rest
    is the draw pile. Later reshuffles (F3) and the play-out policies draw from streams of the
    same key, so every choice of a search meets the same continuation.
    """
    n_players = searcher.context.n_players
    counts = stack_int64(COUNTS_SIZE)
    for v in range(COUNTS_SIZE):
        counts[v] = 0
    pile_len = t.counters[PILE_LEN]
    for i in range(pile_len):
        counts[t.pile[i]] += 1
    for s in range(n_players):
        if s != seat:
            for v in range(1, N_VALUES + 1):
                counts[v] += t.hands[s, v]
                t.hands[s, v] = 0
    n = 0
    for v in range(1, N_VALUES + 1):
        for _ in range(counts[v]):
            t.pile[n] = v
            n += 1
    seed_game_streams(t.deal_rng, t.policy_rng, key, 0, n_players)
    shuffle_prefix(t.deal_rng, t.pile, n)
    for s in range(n_players):
        if s != seat:
            for _ in range(t.hand_size[s]):
                n -= 1
                t.hands[s, t.pile[n]] += 1
    # n is now the draw pile's length again: the cards left under the dealt ones.


__all__ = ["copy_table", "redraw_hidden"]
