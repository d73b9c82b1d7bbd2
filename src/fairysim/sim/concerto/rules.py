"""Fairy Concerto rules: structural constants and the pure scoring functions.

Card *facts* (the 26 score cards, the 3 pianist and 3 harpist cards and the token mix) live in
``data/cards.toml`` (ruling C9); what is here is the shape of the game the engine's arrays are
sized by. A token kind is an index into :data:`KINDS`; an orchestra is an ``int64[N_KINDS]`` of
counts by kind (composers on score cards included, ruling C5).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from fairysim.sim.concerto.facts import KINDS as KINDS
from fairysim.sim.concerto.facts import MAX_PLAYERS as MAX_PLAYERS

# The game's shape is declared in its spec (imported by the command line without numba);
# these names are re-exported for the engine modules.
from fairysim.sim.concerto.facts import MIN_PLAYERS as MIN_PLAYERS
from fairysim.sim.concerto.facts import PART_NAMES as PART_NAMES
from fairysim.sim.concerto.facts import SOLOISTS as SOLOISTS
from fairysim.sim.view import view_offsets

N_KINDS = len(KINDS)
TRUMPETER, DRUMMER, VIOLINIST, HORN, COMPOSER = range(N_KINDS)
KIND_ALIASES = {"horn player": HORN, "horn_player": HORN, "horn-player": HORN}

SOLOIST_NAMES = {"A": "Trustworthy", "B": "Popular", "C": "Multitalented", "D": "Eccentric"}

MAX_SEATS = 4
"""Rows of every per-seat array (solo uses seat 0 for you and seat 1 for Pahha)."""
PAHHA = 1
"""Pahha's seat in solo games."""

N_SCORE_CARDS = 26
N_PIANISTS = 3
N_HARPISTS = 3
DEALT_SCORE_CARDS = 2
"""Score cards dealt to each player at setup (keep 1 on the first pick)."""
COMPOSER_DRAW = 2
"""Score cards a composer draws (keep 1, ruling C4)."""

HAND_SIZE = 6
DRAFT_ROUNDS = 2
"""3-4 players: two rounds of six picks."""
TWO_PLAYER_ROUNDS = 4
TWO_PLAYER_PICKS = 3
"""2 players: four rounds of three picks, each keeping one token and removing one (C7)."""
SOLO_DRAW = (2, 3, 4, 5, 6, 4, 2)
SOLO_KEEP = (1, 1, 2, 2, 3, 2, 1)
"""Solo round table (ruling C8): tokens drawn and tokens you keep; Pahha takes the rest."""
SOLO_ROUNDS = len(SOLO_DRAW)
MAX_ROUNDS = max(DRAFT_ROUNDS, TWO_PLAYER_ROUNDS, SOLO_ROUNDS)
"""The most rounds of any form: the width of a table's per-round standings (ruling PC6)."""
ORCHESTRA_SIZE = 12
MIN_TOKENS = 1 + 4 * 12
"""The bag must hold the popularity token and 12 tokens for each of 4 players."""

CONDUCTOR_POINTS = 2
"""Conductor card: points per token of the most numerous kind (C5)."""
TRUSTWORTHY, POPULAR, MULTITALENTED, ECCENTRIC = range(len(SOLOISTS))
"""Soloist methods A..D by their Korean names; a soloist card is passed to kernels as this id."""
TRUSTWORTHY_POINTS = 4
"""A: points per token of the least numerous kind present (C5)."""
POPULAR_POINTS = 3
"""B: points per token between the most and the least numerous kinds present (C5)."""
MULTITALENTED_POINTS = 3
"""C: points per kind in the largest group of kinds sharing one nonzero count (C5)."""
ECCENTRIC_POINTS = 3
"""D: points per distinct nonzero count (C5)."""
POINTS_PER_SET = 3
POINTS_PER_SCORE_CARD = 5
PAHHA_POINTS_PER_CARD = 3
HONOR_POINTS = 2
CONTESTS = ("conductor", "soloist", "pianist", "harpist")
"""The four cards that award honor tokens (ruling C6)."""
N_CONTESTS = len(CONTESTS)

# Parts of a score, in the rulebook's order of final scoring.
P_POPULARITY, P_CONDUCTOR, P_SOLOIST, P_PIANIST, P_HARPIST, P_SCORE_CARDS, P_HONORS = range(
    len(PART_NAMES)
)
N_PARTS = len(PART_NAMES)


def kind_index(name: str) -> int:
    """Index of token kind ``name`` (``"trumpeter"`` .. ``"composer"``), or ``ValueError``."""
    key = str(name).strip().lower()
    if key in KINDS:
        return KINDS.index(key)
    if key in KIND_ALIASES:
        return KIND_ALIASES[key]
    raise ValueError(f"unknown kind {name!r}; kinds are {', '.join(KINDS)}")


def form_rounds(players: int) -> int:
    """Rounds of the form ``players`` plays: solo 7 (C8), two players 4 (C7), 3-4 players 2; a
    trace records each seat's standing after each of them (ruling PC6)."""
    return {1: SOLO_ROUNDS, 2: TWO_PLAYER_ROUNDS}.get(players, DRAFT_ROUNDS)


def soloist_index(letter: str) -> int:
    """Index 0..3 of soloist card ``letter`` (``"A"`` .. ``"D"``), or ``ValueError``."""
    key = str(letter).strip().upper()
    if key not in SOLOISTS:
        raise ValueError(f"unknown soloist {letter!r}; choose one of {', '.join(SOLOISTS)}")
    return SOLOISTS.index(key)


# --- Scoring (ruling C5) ------------------------------------------------------------------------
# The small scoring functions are inlined (inline="always") into the policies that call them for
# every choice: numba can then drop the reference counting of the view slices they are given.


@nb.njit(cache=True, inline="always")
def conductor_points(c):
    """Conductor card: 2 points per token of the most numerous kind (C5)."""
    most = 0
    for k in range(N_KINDS):
        most = max(most, c[k])
    return CONDUCTOR_POINTS * most


@nb.njit(cache=True)
def soloist_points(soloist, c):
    """Soloist card ``soloist`` (0..3 = methods A..D) on orchestra counts ``c`` (ruling C5).

    A: 4 x the fewest tokens of a present kind. B: 3 x (most - fewest present). C: 3 x the largest
    number of kinds sharing one nonzero count. D: 3 x the number of distinct nonzero counts.
    An empty orchestra scores 0 on every method.
    """
    most = 0
    fewest = 0
    for k in range(N_KINDS):
        x = c[k]
        if x > 0:
            most = max(most, x)
            fewest = x if fewest == 0 else min(fewest, x)
    if soloist == TRUSTWORTHY:
        return TRUSTWORTHY_POINTS * fewest
    if soloist == POPULAR:
        return POPULAR_POINTS * (most - fewest)
    if soloist == MULTITALENTED:
        best = 0
        for k in range(N_KINDS):
            if c[k] > 0:
                same = 0
                for j in range(N_KINDS):
                    if c[j] == c[k]:
                        same += 1
                best = max(best, same)
        return MULTITALENTED_POINTS * best
    distinct = 0
    for k in range(N_KINDS):
        if c[k] > 0:
            first = True
            for j in range(k):
                if c[j] == c[k]:
                    first = False
                    break
            if first:
                distinct += 1
    return ECCENTRIC_POINTS * distinct


@nb.njit(cache=True, inline="always")
def set_count(mult, c):
    """Complete sets of a pianist/harpist card: min over its kinds of c[k] // times shown (C5)."""
    sets = 1 << 30
    for k in range(N_KINDS):
        if mult[k] > 0:
            sets = min(sets, c[k] // mult[k])
    return 0 if sets == 1 << 30 else sets


@nb.njit(cache=True, inline="always")
def card_complete(need, c):
    """True when orchestra ``c`` holds at least ``need[k]`` tokens of every kind (C5)."""
    for k in range(N_KINDS):  # noqa: SIM110 (numba)
        if c[k] < need[k]:
            return False
    return True


@nb.njit(cache=True)
def contest_parts(c, popularity, soloist, pianist, harpist, parts):
    """Write popularity, conductor, soloist, pianist and harpist points of ``c`` into ``parts``."""
    parts[P_POPULARITY] = c[popularity]
    parts[P_CONDUCTOR] = conductor_points(c)
    parts[P_SOLOIST] = soloist_points(soloist, c)
    parts[P_PIANIST] = POINTS_PER_SET * set_count(pianist, c)
    parts[P_HARPIST] = POINTS_PER_SET * set_count(harpist, c)


@nb.njit(cache=True)
def base_score(c, popularity, soloist, pianist, harpist, need, cards, n_cards):
    """Points of orchestra ``c`` before honors: the five cards plus the held score cards.

    ``need`` is the ``int64[N_SCORE_CARDS, N_KINDS]`` requirement table and ``cards[:n_cards]``
    the ids of the score cards held face up. This is the "current score" policies maximise.
    """
    most = 0
    fewest = 0
    for k in range(N_KINDS):
        x = c[k]
        if x > 0:
            most = max(most, x)
            fewest = x if fewest == 0 else min(fewest, x)
    total = c[popularity] + CONDUCTOR_POINTS * most
    if soloist == TRUSTWORTHY:
        total += TRUSTWORTHY_POINTS * fewest
    elif soloist == POPULAR:
        total += POPULAR_POINTS * (most - fewest)
    else:
        total += soloist_points(soloist, c)
    total += POINTS_PER_SET * (set_count(pianist, c) + set_count(harpist, c))
    for i in range(n_cards):
        if card_complete(need[cards[i]], c):
            total += POINTS_PER_SCORE_CARD
    return total


@nb.njit(cache=True)
def award_honors(parts, n_seats):
    """Ruling C6: on each contest card every seat with the highest score gets an honor token
    (2 points), provided that score is above 0. ``parts[s]`` rows hold each seat's part points;
    ``parts[s, P_HONORS]`` is overwritten with the honor points of seat ``s``."""
    for s in range(n_seats):
        parts[s, P_HONORS] = 0
    for part in range(P_CONDUCTOR, P_HARPIST + 1):
        best = 0
        for s in range(n_seats):
            best = max(best, parts[s, part])
        # no branch on who leads: a coin flip to the branch predictor; best 0 leads nothing
        for s in range(n_seats):
            parts[s, P_HONORS] += HONOR_POINTS * ((parts[s, part] == best) & (best > 0))


# --- What a policy sees -------------------------------------------------------------------------
# A decision is offered to a policy as (decision, view, choices, n_choices, weights, rng).
# ``view`` is an int64 array laid out by VIEW_FIELDS; offsets are derived here so that no engine
# or policy writes a bare number. Ruling C3: own hand, all orchestras, face-up cards, nothing else.

PICK_TOKEN = 0
"""3-4 players: add a token; ``choices[i, 0]`` = kind, distinct kinds in hand, ascending."""
KEEP_DEALT_CARD = 1
"""First pick: keep one of the 2 setup score cards; ``choices[i, 0]`` = card id (one choice per
distinct requirement; the first dealt card stands for identical ones)."""
KEEP_DRAWN_CARD = 2
"""A composer drew score cards (C4); ``choices[i, 0]`` = card id, as for KEEP_DEALT_CARD."""
PICK_PAIR = 3
"""2 players (C7): ``choices[i] = (keep kind, remove kind)``, distinct pairs, ascending."""
SOLO_KEEP_TOKENS = 4
"""Solo (C8): ``choices[i, k]`` = tokens of kind ``k`` to keep; distinct multisets of the size
to keep, in lexicographic order of (trumpeter, drummer, ..., composer) counts."""
DECISIONS = ("pick_token", "keep_dealt_card", "keep_drawn_card", "pick_pair", "solo_keep_tokens")

MAX_CHOICES = 40
"""Upper bound on the legal choices of any decision (solo: 3 of 6 tokens gives at most 35)."""
CHOICE_WIDTH = N_KINDS


@nb.njit(cache=True, inline="always")
def multiset_choices(hand, keep, choices):
    """C8: every multiset of ``keep`` tokens from ``hand`` (counts by kind), lexicographic."""
    n = 0
    for a in range(min(hand[0], keep) + 1):
        for b in range(min(hand[1], keep - a) + 1):
            for c in range(min(hand[2], keep - a - b) + 1):
                for d in range(min(hand[3], keep - a - b - c) + 1):
                    e = keep - a - b - c - d
                    if e <= hand[4]:
                        choices[n, 0] = a
                        choices[n, 1] = b
                        choices[n, 2] = c
                        choices[n, 3] = d
                        choices[n, 4] = e
                        n += 1
    return n


CARD_UNSEEN = -1
"""card_state: in the draw pile or face down (dealt to another player, Pahha's cards)."""
CARD_DISCARDED = -2
"""card_state: face up on the discard pile."""
CARD_OFFERED = -3
"""card_state: dealt to (or drawn by) the viewing seat and not yet chosen."""

VIEW_FIELDS = (
    ("players", 1),  # 1 = solo, 2, 3, 4
    ("seat", 1),  # the deciding seat
    ("round", 1),  # 0-based round
    ("step", 1),  # 0-based pick within the round
    ("keep", 1),  # tokens to keep in this decision (solo: SOLO_KEEP[round]; otherwise 1)
    ("popularity", 1),  # kind on the popularity card
    ("soloist", 1),  # 0..3 = method A..D
    ("pianist", N_KINDS),  # times each kind appears on the pianist card
    ("harpist", N_KINDS),
    ("hand", N_KINDS),  # own hand (solo: the tokens drawn this round)
    ("orchestra", MAX_SEATS * N_KINDS),  # every seat's orchestra, seat-major; solo seat 1 = Pahha
    ("held", MAX_SEATS),  # score cards each seat holds (face up or face down)
    ("unseen", N_KINDS),  # tokens the seat has not seen: bag plus other hands
    ("pile", 1),  # score cards in the draw pile
    (
        "card_state",
        N_SCORE_CARDS,
    ),  # seat holding it face up, or CARD_UNSEEN / _DISCARDED / _OFFERED
    ("need", N_SCORE_CARDS * N_KINDS),  # requirement table of the score cards (static)
)


VIEW_OFFSET, VIEW_SIZE = view_offsets(VIEW_FIELDS)
V_PLAYERS = VIEW_OFFSET["players"]
V_SEAT = VIEW_OFFSET["seat"]
V_ROUND = VIEW_OFFSET["round"]
V_STEP = VIEW_OFFSET["step"]
V_KEEP = VIEW_OFFSET["keep"]
V_POPULARITY = VIEW_OFFSET["popularity"]
V_SOLOIST = VIEW_OFFSET["soloist"]
V_PIANIST = VIEW_OFFSET["pianist"]
V_HARPIST = VIEW_OFFSET["harpist"]
V_HAND = VIEW_OFFSET["hand"]
V_ORCHESTRA = VIEW_OFFSET["orchestra"]
V_HELD = VIEW_OFFSET["held"]
V_UNSEEN = VIEW_OFFSET["unseen"]
V_PILE = VIEW_OFFSET["pile"]
V_CARD_STATE = VIEW_OFFSET["card_state"]
V_NEED = VIEW_OFFSET["need"]


def orchestra_counts(tokens) -> np.ndarray:
    """Counts by kind (``int64[N_KINDS]``) from a mapping ``{kind: count}``, a sequence of five
    counts, or an iterable of kind names."""
    c = np.zeros(N_KINDS, dtype=np.int64)
    if isinstance(tokens, dict):
        for name, n in tokens.items():
            c[kind_index(name)] += int(n)
    else:
        items = list(tokens)
        if len(items) == N_KINDS and all(isinstance(x, int | np.integer) for x in items):
            c[:] = items
        else:
            for name in items:
                c[kind_index(name)] += 1
    if (c < 0).any():
        raise ValueError(f"token counts must not be negative, got {c.tolist()}")
    return c
