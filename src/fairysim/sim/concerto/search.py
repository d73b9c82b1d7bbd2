"""Fairy Concerto's side of the search contract (:mod:`fairysim.sim.search`): copy a table,
redraw what a seat cannot see, and read a finished play-out's win share.

What a seat sees is its view (:data:`.rules.VIEW_FIELDS`, ruling C3): its own hand, setup
cards and chosen card, every orchestra, the removed tokens (C7), the face-up and discarded score
cards, and how many cards each pile and Pahha (C8) hold. What it cannot see is the other hands,
the bag, the draw pile, the other players' setup cards and Pahha's face-down cards; a
determinization (:func:`redraw_hidden`) deals them back at random, each place keeping its size.
A seat is taken to remember nothing its view does not show (which hand it passed, say): a
``rollout`` seat searches the same information its play-out policy decides on.

The split follows Fantastique's (:mod:`fairysim.sim.fantastique.search`): what a search needs
that the game loops do not is here; the play-out (``play_out``, ``play_rest``), which resumes
the three forms' loops at the counters a searched decision leaves, and the search itself
(``search_decision``, ``concerto_search``) stay in :mod:`.engine`.
"""

from __future__ import annotations

import numba as nb

from fairysim.sim.concerto.rules import (
    DEALT_SCORE_CARDS,
    MAX_SEATS,
    N_KINDS,
    N_PARTS,
    N_SCORE_CARDS,
    PAHHA,
)
from fairysim.sim.rng import seed_game_streams, shuffle_prefix
from fairysim.sim.scratch import stack_int64
from fairysim.sim.search import copy_1d, copy_2d

BAG_LEN = 0
"""Slot of the bag's length in a table's counters (as :mod:`.engine` lays them out)."""
PILE_LEN = 1
"""Slot of the score-card draw pile's length in a table's counters."""


@nb.njit(cache=True)
def copy_table(src, dst):
    """``dst`` becomes a copy of the game state on ``src`` (the static arrays, written once by
    :func:`.engine.new_table`, and the view, filled before every question, are left)."""
    copy_1d(src.bag, dst.bag)
    copy_1d(src.pile, dst.pile)
    copy_1d(src.discard, dst.discard)
    copy_1d(src.public, dst.public)
    copy_2d(src.dealt, dst.dealt)
    copy_2d(src.held, dst.held)
    copy_1d(src.n_held, dst.n_held)
    copy_2d(src.hands, dst.hands)
    copy_2d(src.orchestra, dst.orchestra)
    copy_1d(src.removed, dst.removed)
    copy_1d(src.pick, dst.pick)
    copy_1d(src.remove, dst.remove)
    copy_1d(src.kept, dst.kept)
    copy_1d(src.keep, dst.keep)
    copy_2d(src.choices, dst.choices)
    copy_1d(src.deal_rng, dst.deal_rng)
    copy_2d(src.policy_rng, dst.policy_rng)
    copy_1d(src.counters, dst.counters)


@nb.njit(cache=True)
def redraw_hidden(t, seat, key, context):
    """Redraw on ``t`` what ``seat`` cannot see, consistently with its view (C3, C8), and reseed
    the deal stream and every seat's policy stream from ``key``.

    The seat is assumed to know its view and nothing more (it remembers no hand it passed):
    its own hand, setup cards and chosen card, every orchestra, the removed tokens, the face-up
    and discarded score cards, and how many cards each pile and Pahha hold. Hidden, and redrawn:
    the other players' hands and the bag (one pool of tokens, dealt back into hands of the same
    sizes, the rest the bag), and the draw pile, the other players' setup cards and Pahha's
    face-down cards (one pool of score cards, dealt back into the same places). The other
    players' choices of the pending step are hidden too (C3): their picks are made again in the
    play-out, and a setup card they chose is forgotten (it is among the redrawn cards).
    """
    n_players = context[0]
    seed_game_streams(t.deal_rng, t.policy_rng, key, 0, MAX_SEATS)
    bag_len = t.counters[BAG_LEN]
    m = bag_len  # the bag's drawn part holds the other hands' tokens while they are shuffled
    for s in range(n_players):
        if s != seat:
            for k in range(N_KINDS):
                for _ in range(t.hands[s, k]):
                    t.bag[m] = k
                    m += 1
    shuffle_prefix(t.deal_rng, t.bag, m)
    m = bag_len
    for s in range(n_players):
        if s != seat:
            size = 0
            for k in range(N_KINDS):
                size += t.hands[s, k]
                t.hands[s, k] = 0
            for _ in range(size):
                t.hands[s, t.bag[m]] += 1
                m += 1
    pool = stack_int64(N_SCORE_CARDS)
    m = 0
    for i in range(t.counters[PILE_LEN]):
        pool[m] = t.pile[i]
        m += 1
    for s in range(n_players):
        if s != seat:
            t.kept[s] = -1
            for i in range(DEALT_SCORE_CARDS):
                if t.dealt[s, i] >= 0:
                    pool[m] = t.dealt[s, i]
                    m += 1
    if n_players == 1:  # C8: Pahha's cards are face down
        for i in range(t.n_held[PAHHA]):
            pool[m] = t.held[PAHHA, i]
            m += 1
    shuffle_prefix(t.deal_rng, pool, m)
    m = 0
    for i in range(t.counters[PILE_LEN]):
        t.pile[i] = pool[m]
        m += 1
    for s in range(n_players):
        if s != seat:
            for i in range(DEALT_SCORE_CARDS):
                if t.dealt[s, i] >= 0:
                    t.dealt[s, i] = pool[m]
                    m += 1
    if n_players == 1:
        for i in range(t.n_held[PAHHA]):
            t.held[PAHHA, i] = pool[m]
            m += 1


@nb.njit(cache=True, inline="always")
def win_share_of(parts, n_players, seat):
    """``seat``'s win share of a finished game with score parts ``parts`` (ties split; in solo
    a tie is Pahha's, C8), as :func:`.engine.write_outcome` records it."""
    n_seats = 2 if n_players == 1 else n_players  # solo: you and Pahha (C8)
    best = -(1 << 60)
    mine = 0
    winners = 0
    for s in range(n_seats):
        total = 0
        for p in range(N_PARTS):
            total += parts[s, p]
        if s == seat:
            mine = total
        if total > best:
            best = total
            winners = 1
        elif total == best:
            winners += 1
    if n_players == 1:
        return 1.0 if mine == best and winners == 1 else 0.0
    return 1.0 / winners if mine == best else 0.0


__all__ = ["BAG_LEN", "PILE_LEN", "copy_table", "redraw_hidden", "win_share_of"]
