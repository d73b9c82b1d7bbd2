"""The jitted Fairy Concerto game loop: 3-4 players, 2 players (C7) and solo against Pahha (C8).

One module past 600 lines: the three forms (draft, two players, solo) share the table, the
composers and the scoring; split across modules they would read as less. Each form is a kernel
of its own (:func:`play_draft_games`, :func:`play_two_player_games`, :func:`play_solo_games`), so
that a run compiles only its own form. The search's play-out (:func:`play_out`, :func:`play_rest`)
is here too, since it resumes the three forms' loops at the counters a searched decision leaves;
what a search needs that the loops do not (copying a table, the determinization, a finished
play-out's win share) is in :mod:`.search`, the split Fantastique's engine and search make.

One :class:`Table` (a named tuple of small arrays) is allocated per worker thread and reset for
every game, so the per-game loop allocates nothing. :mod:`.reference` plays the same games in
plain Python and must agree game by game.

Order of rule draws (all from the game's ``DEAL_STREAM``)
--------------------------------------------------------
1. Shuffle the score cards: ids ``0 .. 25`` in file order, ``shuffle_prefix`` over all 26; the
   draw pile's top card is the last element.
2. Draw the contest cards, always all three whether or not they are fixed by the run (so a fixed
   setup never changes the deal): soloist ``randint(4)``, pianist ``randint(3)``, harpist
   ``randint(3)``; a fixed card replaces the drawn one.
3. Shuffle the bag: the tokens laid out sorted by kind (all trumpeters, then drummers, ...),
   ``shuffle_prefix`` over all of them; every token drawn later is taken from the top (the last
   element). Bag and random cards are one distribution (ruling C1).
4. The popularity token is the first token drawn (ruling C2).
5. Setup score cards from the top of the pile: 2 to each seat in seat order, first card first;
   solo: 2 to you, then 1 face down to Pahha (C8). Under a card-effect intervention (ruling PC5)
   one card of the pile changes places first, drawing nothing.
6. During play tokens are drawn from the top of the bag: at the start of each round every seat
   draws its hand in seat order (6 each; solo: the round table's count), and score cards are drawn
   from the top of the pile when composers resolve (C4), in seat order from seat 0, 2 per
   composer (Pahha 1, after yours, C8). When the pile is empty while drawing, the discard pile,
   sorted by card id, is shuffled with ``shuffle_prefix`` into a new pile (C4).

No other rule draw happens. Each seat's policy draws only from its own stream
(``FIRST_POLICY_STREAM + seat``). A decision with a single distinct legal choice is not offered to
the policy (it takes no random number); every other decision is.

Decisions of one draft step are simultaneous (C3): every seat decides against the same table
before anything is revealed. On the first pick a seat first keeps one of its two setup score cards
(:data:`.rules.KEEP_DEALT_CARD`), then picks its token knowing that card.

Search (the ``rollout`` built-in, :mod:`fairysim.sim.search`)
-------------------------------------------------------------
Every kernel takes ``search``: None in ordinary runs, which prunes every branch of the search
from the compiled loops, or the play-out lineup of a run that seats ``rollout``. At a decision
of a ``rollout`` seat with more than one choice, :func:`search_decision` asks the play-out
policy (``chaser`` unless the seat's ``default`` weight names another) with the seat's view and
stream, then tries every choice on ``rollouts`` determinizations
(:func:`.search.redraw_hidden`: what the seat cannot see redrawn, every stream reseeded) played
to the end by the play-out policy at every seat (:func:`play_out`), and takes the best mean win
share. Every decision of every form is searched: the keep of a setup card, the pick (two
players: the kept and removed pair; solo: the tokens kept) and a composer's card. A pick is
simultaneous (C3): the seat searches before the other seats of its step have revealed, and in a
play-out their picks of that step are made again, by the play-out policy on the redrawn hands.
The loops resume where the table's counters point (ROUND, STEP, PHASE, SEAT, FIXED), all 0 at
the start of an ordinary game. ``rollout``
at 0 rollouts, or at a decision of one choice, plays exactly as its play-out policy.

In solo, ``lookahead`` (:mod:`.policies`) stays a policy of its own: a view-only Monte Carlo of
the solo rounds, far cheaper per decision than a play-out of the game. ``rollout`` plays solo
by the same search as the other forms (play-outs by ``chaser``, cards and Pahha included).
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np
from numba.core import types
from numba.extending import overload

from fairysim.sim.apart import apart
from fairysim.sim.blocks import (
    ERROR_ROW,
    GAMES_PER_BLOCK,
    block_count,
    block_rows,
    claim_block,
    worker_count,
)
from fairysim.sim.borrow import borrowed, borrowed_fields, keep_alive
from fairysim.sim.concerto.policies import CHASER, GREEDY, ROLLOUT, ask_policy
from fairysim.sim.concerto.rules import (
    CARD_DISCARDED,
    CARD_OFFERED,
    CARD_UNSEEN,
    CHOICE_WIDTH,
    COMPOSER,
    DEALT_SCORE_CARDS,
    DRAFT_ROUNDS,
    HAND_SIZE,
    KEEP_DEALT_CARD,
    KEEP_DRAWN_CARD,
    MAX_CHOICES,
    MAX_ROUNDS,
    MAX_SEATS,
    N_KINDS,
    N_PARTS,
    N_SCORE_CARDS,
    P_CONDUCTOR,
    P_HARPIST,
    P_PIANIST,
    P_POPULARITY,
    P_SCORE_CARDS,
    P_SOLOIST,
    PAHHA,
    PAHHA_POINTS_PER_CARD,
    PICK_PAIR,
    PICK_TOKEN,
    POINTS_PER_SCORE_CARD,
    SOLO_DRAW,
    SOLO_KEEP,
    SOLO_KEEP_TOKENS,
    SOLO_ROUNDS,
    TWO_PLAYER_PICKS,
    TWO_PLAYER_ROUNDS,
    V_CARD_STATE,
    V_HAND,
    V_HARPIST,
    V_HELD,
    V_KEEP,
    V_NEED,
    V_ORCHESTRA,
    V_PIANIST,
    V_PILE,
    V_PLAYERS,
    V_POPULARITY,
    V_ROUND,
    V_SEAT,
    V_SOLOIST,
    V_STEP,
    V_UNSEEN,
    VIEW_SIZE,
    award_honors,
    multiset_choices,
)
from fairysim.sim.concerto.search import (
    BAG_LEN,
    PILE_LEN,
    copy_table,
    redraw_hidden,
    win_share_of,
)
from fairysim.sim.concerto.shortcuts.greedy import (
    best_chased_token,
    best_keep,
    best_pair,
    best_token,
    card_complete,
    contest_part_points,
    fewest_missing_card,
    set_quota_words,
    set_quotas,
)
from fairysim.sim.rng import (
    RNG_STATE_SIZE,
    lay_out_counts,
    randint,
    seed_game_streams,
    shuffle_prefix,
)
from fairysim.sim.scratch import stack_int64
from fairysim.sim.search import ROLLOUTS, make_rollout_search

SeatPolicies = namedtuple("SeatPolicies", ["policy_ids", "policies", "reads_view", "weights"])
"""Who decides for each seat, passed through the game loop as one value: each seat's built-in
policy id (-1 for a user policy), policy function, whether it reads the view, and weights (the
arrays of :func:`fairysim.sim.policy.seat_policy_ids` and its siblings)."""

CardRules = namedtuple("CardRules", ["need", "tokens", "psets", "hsets"])
"""The card file as the game loop reads it: score-card ``need`` (int64[cards, kinds]), token
counts by kind, and the pianist and harpist sets."""

Table = namedtuple(
    "Table",
    [
        "bag",  # int64[tokens]: shuffled bag, top token at bag[counters[BAG_LEN] - 1]
        "sorted_bag",  # int64[tokens]: the bag before shuffling, sorted by kind (static)
        "pile",  # int64[N_SCORE_CARDS]: score-card draw pile, top at pile[counters[PILE_LEN] - 1]
        "discard",  # int64[N_SCORE_CARDS]: score-card discard pile (ids, in order discarded)
        "public",  # int64[N_SCORE_CARDS]: public state: seat or CARD_UNSEEN/_DISCARDED
        "dealt",  # int64[MAX_SEATS, 2]: setup score cards not yet chosen (-1 = none)
        "held",  # int64[MAX_SEATS, N_SCORE_CARDS]: score cards held, in order gained
        "n_held",  # int64[MAX_SEATS]
        "hands",  # int64[MAX_SEATS, N_KINDS]: tokens in hand by kind
        "orchestra",  # int64[MAX_SEATS, N_KINDS]: orchestra by kind (composers included)
        "removed",  # int64[N_KINDS]: tokens removed from the game (2 players, C7)
        "pick",  # int64[MAX_SEATS]: kind picked this step
        "remove",  # int64[MAX_SEATS]: kind removed this step (2 players)
        "kept",  # int64[MAX_SEATS]: setup card kept this step (-1 = none)
        "keep",  # int64[N_KINDS]: solo: tokens you keep this round
        "parts",  # int64[MAX_SEATS, N_PARTS]: final score parts
        "scratch",  # int64[N_KINDS]
        "seat_view",  # int64[VIEW_SIZE]: what the deciding seat sees
        "choices",  # int64[MAX_CHOICES, CHOICE_WIDTH]
        "deal_rng",  # uint64[2]
        "policy_rng",  # uint64[MAX_SEATS, 2]
        "pianist_quotas",  # int64[N_PIANISTS, N_KINDS, QUOTA_SIZE]: greedy.set_quotas (static)
        "harpist_quotas",  # int64[N_HARPISTS, N_KINDS, QUOTA_SIZE]
        "pianist_words",  # int64[N_PIANISTS, N_KINDS]: greedy.set_quota_words (static)
        "harpist_words",  # int64[N_HARPISTS, N_KINDS]
        "counters",  # int64[N_COUNTERS], slots below
        "playout_error",  # int64[4]: the error record of a search's play-outs
        "standing",  # int64[MAX_SEATS, MAX_ROUNDS]: each seat's score after each round (PC6)
    ],
)
# Slots 0 and 1, BAG_LEN and PILE_LEN, are defined in .search, whose determinization reads them.
DISCARD_LEN = 2
POPULARITY = 3
SOLOIST = 4
PIANIST = 5
HARPIST = 6
FORCED_HELD = 7  # card effects (PC5): 1 if the forced seat was dealt the forced card anyway
FORCED_DONE = 8  # 1 if the forced card was exchanged into the seat's setup cards
# Where a game loop starts (all 0: the beginning). The search (:func:`search_decision`) writes
# the point of the decision it searches, and its play-outs resume the same loop there.
ROUND = 9
STEP = 10
PHASE = 11  # PHASE_START, PHASE_PICK, PHASE_APPLY (solo) or PHASE_COMPOSE
SEAT = 12  # PHASE_COMPOSE: the first seat whose composers are still to resolve
FIXED = 13  # 1 + the seat whose pick of this step is already made (0: none)
DECISION = 14  # the searched decision
DRAWN_A = 15  # KEEP_DRAWN_CARD: the two cards the composer drew (-1: none)
DRAWN_B = 16
COMPOSERS_DONE = 17  # solo: your composers of this round already resolved
PAHHA_COMPOSERS = 18  # solo: the composers Pahha takes this round
N_COUNTERS = 19

PHASE_START = 0  # the round's hands are still to draw
PHASE_PICK = 1  # the step's picks (solo: the round's card and keep decisions)
PHASE_APPLY = 2  # solo: the kept tokens are chosen, not yet placed
PHASE_COMPOSE = 3  # the step's composers resolve from seat ``counters[SEAT]``

FIXED_SETUP_SIZE = 5
"""A run's ``fixed_setup``: soloist, pianist, harpist (-1 = drawn), then the card-effect
intervention: the forced score card's index (-1 = none) and the seat it goes to."""
FORCED_CARD = 3
FORCED_SEAT = 4


@nb.njit(cache=True)
def new_table(tokens, need, psets, hsets):
    """Allocate the arrays of one table (once per worker thread); the static arrays (the sorted
    bag, the score-card table of the view and greedy's set tables) are written here once."""
    sorted_bag = lay_out_counts(tokens)
    t = Table(
        np.zeros(len(sorted_bag), np.int64),
        sorted_bag,
        np.zeros(N_SCORE_CARDS, np.int64),
        np.zeros(N_SCORE_CARDS, np.int64),
        np.zeros(N_SCORE_CARDS, np.int64),
        np.zeros((MAX_SEATS, DEALT_SCORE_CARDS), np.int64),
        np.zeros((MAX_SEATS, N_SCORE_CARDS), np.int64),
        np.zeros(MAX_SEATS, np.int64),
        np.zeros((MAX_SEATS, N_KINDS), np.int64),
        np.zeros((MAX_SEATS, N_KINDS), np.int64),
        np.zeros(N_KINDS, np.int64),
        np.zeros(MAX_SEATS, np.int64),
        np.zeros(MAX_SEATS, np.int64),
        np.zeros(MAX_SEATS, np.int64),
        np.zeros(N_KINDS, np.int64),
        np.zeros((MAX_SEATS, N_PARTS), np.int64),
        np.zeros(N_KINDS, np.int64),
        np.zeros(VIEW_SIZE, np.int64),
        np.zeros((MAX_CHOICES, CHOICE_WIDTH), np.int64),
        np.zeros(RNG_STATE_SIZE, np.uint64),
        np.zeros((MAX_SEATS, RNG_STATE_SIZE), np.uint64),
        set_quotas(psets),
        set_quotas(hsets),
        set_quota_words(psets),
        set_quota_words(hsets),
        np.zeros(N_COUNTERS, np.int64),
        np.zeros(4, np.int64),
        np.zeros((MAX_SEATS, MAX_ROUNDS), np.int64),
    )
    for i in range(N_SCORE_CARDS):
        for k in range(N_KINDS):
            t.seat_view[V_NEED + i * N_KINDS + k] = need[i, k]
    return t


@nb.njit(cache=True, inline="always")
def seats_of(n_players):
    """Orchestras at the table: the players, plus Pahha in solo."""
    return 2 if n_players == 1 else n_players


# The small helpers called for every token and decision take the arrays they use rather than the
# table: handing the table to a helper copies it, and numba then emits a reference-count call for
# each of its 21 arrays on the way in and out (a call even for borrowed arrays, which it skips).
@nb.njit(cache=True, inline="always")
def draw_token(bag, counters):
    """Take the top token of the bag (the bag never runs out: 49 of 56 tokens at most)."""
    counters[BAG_LEN] -= 1
    return bag[counters[BAG_LEN]]


@nb.njit(cache=True)
def refill_pile(t):
    """C4: the discard pile, sorted by card id, is shuffled into a new draw pile. Returns the new
    pile size (0 when the discard pile was empty too)."""
    n = 0
    for card in range(N_SCORE_CARDS):  # ascending ids: the discard pile sorted
        if t.public[card] == CARD_DISCARDED:
            t.pile[n] = card
            t.public[card] = CARD_UNSEEN
            n += 1
    shuffle_prefix(t.deal_rng, t.pile, np.int64(n))
    t.counters[DISCARD_LEN] = 0
    t.counters[PILE_LEN] = n
    return n


@nb.njit(cache=True, inline="always")
def draw_card(t):
    """Top score card of the pile; an empty pile is refilled from the discard pile (C4).
    -1 when both are empty."""
    if t.counters[PILE_LEN] == 0 and refill_pile(t) == 0:
        return -1
    t.counters[PILE_LEN] -= 1
    return t.pile[t.counters[PILE_LEN]]


@nb.njit(cache=True, inline="always")
def discard_card(t, card):
    """Put ``card`` face up on the discard pile."""
    t.discard[t.counters[DISCARD_LEN]] = card
    t.counters[DISCARD_LEN] += 1
    t.public[card] = CARD_DISCARDED


@nb.njit(cache=True, inline="always")
def gain_card(t, seat, card, face_up):
    """``seat`` keeps score card ``card`` (Pahha's are face down, C8)."""
    t.held[seat, t.n_held[seat]] = card
    t.n_held[seat] += 1
    if face_up:
        t.public[card] = seat


@nb.njit(cache=True, inline="always")
def exchange_forced_card(pile, n_players, card, seat):
    """Card effects (ruling PC5): put score card ``card`` among ``seat``'s two setup cards.

    ``pile`` is the shuffled score-card pile, its top last; the setup deal gives seat ``k``
    ``pile[-1 - 2k]`` then ``pile[-2 - 2k]`` (solo: Pahha ``pile[-3]`` next). Where ``card`` is
    in the part of the pile the deal does not reach, it changes places with the seat's first
    setup card. Returns ``(held, done)``: 1 if the seat was dealt ``card`` anyway, and 1 if the
    exchange was made (0 also where another seat, or Pahha, is dealt it).
    """
    top = len(pile) - 1
    first = top - 2 * seat
    reach = 2 * n_players + (1 if n_players == 1 else 0)
    where = -1
    for i in range(len(pile)):
        if pile[i] == card:
            where = i
    if where == first or where == first - 1:
        return 1, 0
    if where < 0 or where > top - reach:
        return 0, 0
    pile[where] = pile[first]
    pile[first] = card
    return 0, 1


@nb.njit(cache=True, inline="always")
def setup_game(t, seed, game, n_players, fixed_setup):
    """Reset the table and make the setup draws 1-5 of the module docstring."""
    n_seats = seats_of(n_players)
    # loops of fixed length, not ``a[:] = v`` (a memset call each)
    for s in range(MAX_SEATS):
        for k in range(N_KINDS):
            t.hands[s, k] = 0
            t.orchestra[s, k] = 0
        t.n_held[s] = 0
        for i in range(DEALT_SCORE_CARDS):
            t.dealt[s, i] = -1
        t.kept[s] = -1
    for k in range(N_KINDS):
        t.removed[k] = 0
    for i in range(N_COUNTERS):
        t.counters[i] = 0
    seed_game_streams(t.deal_rng, t.policy_rng, seed, game, n_players)
    # 1. score cards
    for i in range(N_SCORE_CARDS):
        t.pile[i] = i
        t.public[i] = CARD_UNSEEN
    shuffle_prefix(t.deal_rng, t.pile, np.int64(N_SCORE_CARDS))
    t.counters[PILE_LEN] = N_SCORE_CARDS
    # 2. contest cards, always drawn
    soloist = randint(t.deal_rng, np.int64(4))
    pianist = randint(t.deal_rng, np.int64(3))
    harpist = randint(t.deal_rng, np.int64(3))
    t.counters[SOLOIST] = soloist if fixed_setup[0] < 0 else fixed_setup[0]
    t.counters[PIANIST] = pianist if fixed_setup[1] < 0 else fixed_setup[1]
    t.counters[HARPIST] = harpist if fixed_setup[2] < 0 else fixed_setup[2]
    # 3. bag (C1)
    n = len(t.bag)
    for i in range(n):
        t.bag[i] = t.sorted_bag[i]
    shuffle_prefix(t.deal_rng, t.bag, n)
    t.counters[BAG_LEN] = n
    # 4. popularity token (C2)
    t.counters[POPULARITY] = draw_token(t.bag, t.counters)
    # 5. setup score cards
    if fixed_setup[FORCED_CARD] >= 0:
        held, done = exchange_forced_card(
            t.pile, n_players, fixed_setup[FORCED_CARD], fixed_setup[FORCED_SEAT]
        )
        t.counters[FORCED_HELD] = held
        t.counters[FORCED_DONE] = done
    for s in range(n_players):
        for i in range(DEALT_SCORE_CARDS):
            t.dealt[s, i] = draw_card(t)
    if n_players == 1:
        gain_card(t, PAHHA, draw_card(t), False)  # C8: Pahha's one face-down card
    return n_seats


@nb.njit(cache=True, inline="always")
def fill_view(t, seat, n_players, round_, step, keep, tokens, pianist_sets, harpist_sets):
    """Write what ``seat`` may see into ``t.seat_view`` (ruling C3; names in rules.VIEW_FIELDS)."""
    v = t.seat_view
    n_seats = seats_of(n_players)
    v[V_PLAYERS] = n_players
    v[V_SEAT] = seat
    v[V_ROUND] = round_
    v[V_STEP] = step
    v[V_KEEP] = keep
    pop = t.counters[POPULARITY]
    v[V_POPULARITY] = pop
    v[V_SOLOIST] = t.counters[SOLOIST]
    for k in range(N_KINDS):
        v[V_PIANIST + k] = pianist_sets[t.counters[PIANIST], k]
        v[V_HARPIST + k] = harpist_sets[t.counters[HARPIST], k]
        v[V_HAND + k] = t.hands[seat, k]
        unseen = tokens[k] - t.hands[seat, k] - t.removed[k]
        if k == pop:
            unseen -= 1
        for s in range(MAX_SEATS):
            x = t.orchestra[s, k] if s < n_seats else 0
            v[V_ORCHESTRA + s * N_KINDS + k] = x
            unseen -= x
        v[V_UNSEEN + k] = unseen
    for s in range(MAX_SEATS):
        v[V_HELD + s] = t.n_held[s] if s < n_seats else 0
    v[V_PILE] = t.counters[PILE_LEN]
    for i in range(N_SCORE_CARDS):
        v[V_CARD_STATE + i] = t.public[i]
    for i in range(DEALT_SCORE_CARDS):
        card = t.dealt[seat, i]
        if card >= 0:
            v[V_CARD_STATE + card] = CARD_OFFERED
    if t.kept[seat] >= 0:  # the setup card this seat just chose (its own, not yet revealed)
        v[V_CARD_STATE + t.kept[seat]] = seat


@nb.njit(cache=True, inline="always")
def same_need(need, a, b):
    """True when score cards ``a`` and ``b`` ask for the same tokens (one choice, RULINGS)."""
    for k in range(N_KINDS):  # noqa: SIM110 (numba)
        if need[a, k] != need[b, k]:
            return False
    return True


@nb.njit(cache=True, inline="always")
def offer_cards(choices, need, a, b):
    """List score card ``a`` and, unless it is -1 (none drawn) or asks for the same tokens as ``a``
    (one choice, RULINGS), ``b`` as the choices of a card decision; returns how many."""
    choices[0, 0] = a
    n = 1
    if b >= 0 and not same_need(need, a, b):
        choices[1, 0] = b
        n = 2
    return n


@nb.njit(cache=True, inline="always")
def keep_drawn_card(t, seat, a, b, keep):
    """C4: ``seat`` keeps ``keep`` of the drawn cards ``a`` and ``b`` (-1: none) face up; the other
    goes to the discard pile."""
    gain_card(t, seat, keep, True)
    if b >= 0:
        discard_card(t, b if keep == a else a)


@nb.njit(cache=True, inline="always")
def decide(
    t,
    seat,
    n_players,
    decision,
    n,
    round_,
    step,
    keep,
    seats,
    cards,
    error,
    search,
    scratch,
):
    """``seat``'s answer to ``decision`` over ``t.choices[:n]``; -1 (and the error record) if its
    policy answers outside the legal choices. A ``rollout`` seat (``search`` not None) searches
    (:func:`search_decision`).

    A single choice is taken without asking; otherwise the policy is asked with the seat's view,
    filled only for policies that read it. Greedy seats with a choice to make are answered from
    the table at each call site instead, by greedy's rule for that one decision
    (:func:`greedy_card_on_table`, :func:`greedy_token_on_table`, :func:`greedy_pair_on_table`,
    :func:`greedy_keep_on_table`): with every rule inlined into every decision the engine took
    3.5 to 6 times as long to compile (docs/architecture.md, "The compile cache").
    Chaser's token picks are answered from the table too (:func:`chaser_token_on_table`):
    they are most of a search's play-outs.
    """
    if n == 1:
        return 0
    if search is not None:  # noqa: SIM102 (numba prunes a test of ``search`` of its own)
        if seats.policy_ids[seat] == ROLLOUT:
            # plain int64s, not the call sites' constants: numba types a constant as its
            # literal value and would compile a copy of the callee per value
            return search_decision(
                t, np.int64(seat), np.int64(n_players), np.int64(decision), np.int64(n),
                np.int64(round_), np.int64(step), np.int64(keep), seats, cards, error, search,
                scratch,
            )  # fmt: skip
    return ask_seat(t, seat, n_players, decision, n, round_, step, keep, seats, cards, error)


@nb.njit(cache=True, inline="always")
def ask_seat(t, seat, n_players, decision, n, round_, step, keep, seats, cards, error):
    """:func:`decide` for a seat whose policy answers (``seats``'s policy at ``seat``)."""
    if seats.reads_view[seat]:
        fill_view(t, seat, n_players, round_, step, keep, cards.tokens, cards.psets, cards.hsets)
        if decision == KEEP_DRAWN_CARD:  # the cards the composer drew
            for i in range(n):
                t.seat_view[V_CARD_STATE + t.choices[i, 0]] = CARD_OFFERED
    rng = t.policy_rng[seat]
    c = ask_policy_apart(  # int64s, not constants, as in decide
        seats.policy_ids,
        seats.policies,
        np.int64(seat),
        np.int64(decision),
        t.seat_view,
        t.choices,
        np.int64(n),
        seats.weights[seat],
        rng,
    )
    if c < 0 or c >= n:
        error[0] = seat
        error[1] = decision
        error[2] = c
        error[3] = n
        return -1
    return c


@nb.njit(cache=True, _nrt=False)
def ask_policy_apart(policy_ids, policies, seat, decision, view, choices, n, weights, rng):
    """``ask_policy`` compiled once and called from every decision site of a kernel (three or
    four), not inlined into each: the chain of built-in policies and the user policies' call are
    then compiled once (docs/performance-log.md, "Compile time (2026-12-04, night)"). Greedy's
    decisions never come here (they are answered at the sites); the call costs a random seat a
    few per cent, the slower policies less."""
    return ask_policy(policy_ids, policies, seat, decision, view, choices, n, weights, rng)


@nb.njit(cache=True)
def search_decision(
    t, seat, n_players, decision, n, round_, step, keep, seats, cards, error, search, scratch
):
    """A ``rollout`` seat's answer (:mod:`fairysim.sim.search`): the play-out policy's choice,
    asked with the seat's view and stream, then the search over the legal choices from the
    decision's point in the game loop, written into ``t.counters`` for the play-outs to resume
    at (the counters are read only where a loop starts, so the real game goes on unchanged)."""
    playout = search[2]
    c = ask_seat(t, seat, n_players, decision, n, round_, step, keep, playout, cards, error)
    if c < 0:
        return c
    t.counters[ROUND] = round_
    t.counters[STEP] = step
    t.counters[DECISION] = decision
    t.counters[PHASE] = PHASE_COMPOSE if decision == KEEP_DRAWN_CARD else PHASE_PICK
    t.counters[SEAT] = seat
    t.counters[FIXED] = 0
    det, work, totals = scratch
    rollouts = int(seats.weights[seat, ROLLOUTS])
    return concerto_search(t, det, work, seat, n, c, rollouts, t.policy_rng[seat], totals, search)


@nb.njit(cache=True, inline="always")
def face_up_cards_of(held, n_held, seat, kept, cards):
    """Write ``seat``'s face-up score cards into ``cards`` (those held, and ``kept``, the setup card
    it just chose, unless -1); return how many."""
    n = n_held[seat]
    for i in range(n):
        cards[i] = held[seat, i]
    if kept >= 0:
        cards[n] = kept
        n += 1
    return n


@nb.njit(cache=True, inline="always")
def contest_cards_of(t):
    """The game's contest cards as greedy scores them: the popularity kind, the soloist method
    and the pianist's and harpist's :func:`.shortcuts.greedy.set_quotas` tables."""
    return (
        t.counters[POPULARITY],
        t.counters[SOLOIST],
        t.pianist_quotas[t.counters[PIANIST]],
        t.harpist_quotas[t.counters[HARPIST]],
    )


@nb.njit(cache=True, inline="always")
def seat_outlook(t, seat, kept, c, cards):
    """Copy ``seat``'s orchestra into ``c`` and its face-up score cards into ``cards`` (``kept``:
    its chosen setup card, or -1); return how many cards. What greedy scores a choice by."""
    for k in range(N_KINDS):
        c[k] = t.orchestra[seat, k]
    return face_up_cards_of(t.held, t.n_held, seat, kept, cards)


# Greedy seats need no view: each rule below reads the table (filling the view was most of a
# greedy game's work) and answers what :func:`.policies.greedy_policy` would.


@nb.njit(cache=True, inline="always")
def greedy_card_on_table(t, seat, n, need):
    """KEEP_DEALT_CARD and KEEP_DRAWN_CARD: the offered card lacking the fewest tokens."""
    c = stack_int64(N_KINDS)
    for k in range(N_KINDS):
        c[k] = t.orchestra[seat, k]
    return fewest_missing_card(c, need, t.choices, n)


@nb.njit(cache=True, inline="always")
def greedy_token_on_table(t, seat, n, need):
    """PICK_TOKEN: the kind whose token raises the score most
    (:func:`.shortcuts.greedy.best_token`)."""
    c = stack_int64(N_KINDS)
    cards = stack_int64(N_SCORE_CARDS)
    n_cards = seat_outlook(t, seat, t.kept[seat], c, cards)
    pop, soloist, pq, hq = contest_cards_of(t)
    return best_token(c, cards, n_cards, need, pop, soloist, pq, hq, t.choices, n)


@nb.njit(cache=True, inline="always")
def chaser_token_on_table(t, seat, n, need, weights):
    """PICK_TOKEN of a chaser seat: :func:`.policies.chaser_policy`'s answer from the table
    (:func:`.shortcuts.greedy.best_chased_token`), without filling the view: most of a search's
    play-outs is chaser's picks."""
    c = stack_int64(N_KINDS)
    cards = stack_int64(N_SCORE_CARDS)
    n_cards = seat_outlook(t, seat, t.kept[seat], c, cards)
    pop, soloist, pq, hq = contest_cards_of(t)
    return best_chased_token(
        c, cards, n_cards, need, pop, soloist, pq, hq, t.choices, n, weights[0], weights[1]
    )


@nb.njit(cache=True, inline="always")
def greedy_pair_on_table(t, seat, n, need):
    """PICK_PAIR (two players): the kept and removed token (:func:`.shortcuts.greedy.best_pair`)."""
    c = stack_int64(N_KINDS)
    cards = stack_int64(N_SCORE_CARDS)
    n_cards = seat_outlook(t, seat, t.kept[seat], c, cards)
    o = stack_int64(N_KINDS)
    o_cards = stack_int64(N_SCORE_CARDS)
    n_o_cards = seat_outlook(t, 1 - seat, -1, o, o_cards)  # the opponent's kept card is secret
    pop, soloist, pq, hq = contest_cards_of(t)
    return best_pair(
        c, cards, n_cards, o, o_cards, n_o_cards, need, pop, soloist, pq, hq, t.choices, n
    )


@nb.njit(cache=True, inline="always")
def choose_dealt_card(
    t,
    seat,
    n_players,
    keep,
    seats,
    cards,
    error,
    search,
    scratch,
):
    """First pick: ``seat`` keeps one of its 2 setup score cards (into ``t.kept``). False on an
    illegal answer."""
    n = offer_cards(t.choices, cards.need, t.dealt[seat, 0], t.dealt[seat, 1])
    if n > 1 and seats.policy_ids[seat] == GREEDY:
        c = greedy_card_on_table(t, seat, n, cards.need)
    else:
        c = decide(
            t, seat, n_players, KEEP_DEALT_CARD, n, 0, 0, keep, seats, cards, error, search,
            scratch,
        )  # fmt: skip
    if c < 0:
        return False
    t.kept[seat] = t.choices[c, 0]
    return True


@nb.njit(cache=True, inline="always")
def reveal_dealt_card(t, seat):
    """Reveal the kept setup card; the other goes face up to the discard pile."""
    keep = t.kept[seat]
    gain_card(t, seat, keep, True)
    other = t.dealt[seat, 1] if t.dealt[seat, 0] == keep else t.dealt[seat, 0]
    discard_card(t, other)
    t.dealt[seat, 0] = -1
    t.dealt[seat, 1] = -1
    t.kept[seat] = -1


@nb.njit(cache=True, inline="always")
def resolve_composer(
    t,
    seat,
    n_players,
    round_,
    step,
    seats,
    cards,
    error,
    search,
    scratch,
):
    """C4: draw 2 score cards (fewer if both piles run dry), keep 1, discard the other."""
    a = draw_card(t)
    if a < 0:
        return True
    b = draw_card(t)
    n = offer_cards(t.choices, cards.need, a, b)
    if n > 1 and seats.policy_ids[seat] == GREEDY:
        c = greedy_card_on_table(t, seat, n, cards.need)
    else:
        if search is not None:  # the drawn cards, for a search's play-outs to resume with
            t.counters[DRAWN_A] = a
            t.counters[DRAWN_B] = b
        c = decide(
            t, seat, n_players, KEEP_DRAWN_CARD, n, round_, step, 1, seats, cards, error, search,
            scratch,
        )  # fmt: skip
    if c < 0:
        return False
    keep_drawn_card(t, seat, a, b, t.choices[c, 0])
    return True


@nb.njit(cache=True, inline="always")
def token_choices(hand, choices):
    """Distinct kinds in ``hand`` (counts by kind), ascending; returns how many."""
    n = 0
    for k in range(N_KINDS):  # branch-free: whether a kind is in hand is unpredictable
        choices[n, 0] = k
        n += hand[k] > 0
    return n


@nb.njit(cache=True, inline="always")
def pair_choices(hand, choices):
    """C7: distinct (keep kind, remove kind) pairs from ``hand``, ascending."""
    n = 0
    for a in range(N_KINDS):
        if hand[a] == 0:
            continue
        for b in range(N_KINDS):
            if hand[b] > (1 if a == b else 0):
                choices[n, 0] = a
                choices[n, 1] = b
                n += 1
    return n


@nb.njit(cache=True, inline="always")
def greedy_keep_on_table(t, keep, need):
    """Solo (C8): greedy's ``keep`` tokens from the hand into ``t.keep``
    (:func:`.shortcuts.greedy.best_keep`)."""
    c = stack_int64(N_KINDS)
    cards = stack_int64(N_SCORE_CARDS)
    n_cards = seat_outlook(t, 0, t.kept[0], c, cards)
    pw = t.pianist_words[t.counters[PIANIST]]
    hw = t.harpist_words[t.counters[HARPIST]]
    pop, soloist = t.counters[POPULARITY], t.counters[SOLOIST]
    best_keep(c, t.hands[0], keep, cards, n_cards, need, pop, soloist, pw, hw, t.keep)


@nb.njit(cache=True, inline="always")
def ask_keep(t, keep, round_, seats, cards, error, search, scratch):
    """Solo (C8): the seat's policy picks ``keep`` tokens among the listed multisets, into
    ``t.keep``. False on an illegal answer."""
    n = multiset_choices(t.hands[0], keep, t.choices)
    c = decide(t, 0, 1, SOLO_KEEP_TOKENS, n, round_, 0, keep, seats, cards, error, search, scratch)
    if c < 0:
        return False
    for k in range(N_KINDS):
        t.keep[k] = t.choices[c, k]
    return True


@nb.njit(cache=True, inline="always")
def pass_left(hands, n_players):
    """Every hand goes to the seat on the left (seat + 1)."""
    for k in range(N_KINDS):
        last = hands[n_players - 1, k]
        for s in range(n_players - 1, 0, -1):
            hands[s, k] = hands[s - 1, k]
        hands[0, k] = last


# The per-game functions are compiled without numba's runtime (``_nrt=False``), as in the
# Fantastique engine: no reference-count calls in the game loop, and an allocation there fails
# to compile (docs/architecture.md, "Engine state").
#
# Each loop starts at the point ``t.counters`` holds (ROUND, STEP, PHASE, SEAT, FIXED): all 0 is
# the beginning of the game; a search's play-out resumes the loop just after the searched
# decision (:func:`play_out`). ``search`` is None in ordinary runs, which prunes every branch
# of the search (and its types) from the compiled loop.
@nb.njit(cache=True, _nrt=False)
def play_draft(t, n_players, seats, cards, error, search, scratch, record):
    """3-4 players: two rounds of six simultaneous picks passing left (C3, C4); with
    ``record``, each seat's standing after each round into ``t.standing`` (PC6)."""
    return draft_loop(t, n_players, seats, cards, error, search, scratch, record)


# The play-outs' entries to the loops are dispatchers of their own: a play-out reached while
# ``play_draft`` of a search compiles, calling ``play_draft`` itself, would be linked as a
# recursive call, whose symbol a later process loading it from the cache cannot resolve.
@nb.njit(cache=True, _nrt=False)
def play_draft_plain(t, n_players, seats, cards, error):
    """:func:`play_draft` without a search or standings, for the play-outs."""
    return draft_loop(t, n_players, seats, cards, error, None, None, False)


@nb.njit(cache=True, inline="always")
def draft_loop(t, n_players, seats, cards, error, search, scratch, record):
    """:func:`play_draft`'s loop."""
    phase = t.counters[PHASE]
    first_step = t.counters[STEP]
    fixed = t.counters[FIXED] - 1
    for round_ in range(t.counters[ROUND], DRAFT_ROUNDS):
        if phase == PHASE_START:
            for s in range(n_players):
                for _ in range(HAND_SIZE):
                    t.hands[s, draw_token(t.bag, t.counters)] += 1
            phase = PHASE_PICK
        for step in range(first_step, HAND_SIZE):
            first = round_ == 0 and step == 0
            first_composer = 0
            if phase == PHASE_PICK:
                for s in range(n_players):  # simultaneous: nothing is revealed until all decided
                    if (
                        first
                        and t.kept[s] < 0
                        and not choose_dealt_card(
                            t, s, n_players, 1, seats, cards, error, search, scratch
                        )
                    ):
                        return False
                    if s == fixed:  # a play-out's searched pick, already made
                        continue
                    n = token_choices(t.hands[s], t.choices)
                    if n > 1 and seats.policy_ids[s] == GREEDY:
                        c = greedy_token_on_table(t, s, n, cards.need)
                    elif n > 1 and seats.policy_ids[s] == CHASER:
                        c = chaser_token_on_table(t, s, n, cards.need, seats.weights[s])
                    else:
                        c = decide(
                            t, s, n_players, PICK_TOKEN, n, round_, step, 1, seats, cards, error,
                            search, scratch,
                        )  # fmt: skip
                    if c < 0:
                        return False
                    t.pick[s] = t.choices[c, 0]
                fixed = -1
                for s in range(n_players):  # reveal
                    t.hands[s, t.pick[s]] -= 1
                    t.orchestra[s, t.pick[s]] += 1
                    if first:
                        reveal_dealt_card(t, s)
            else:  # a play-out resuming after a searched composer's card
                first_composer = t.counters[SEAT]
                phase = PHASE_PICK
            for s in range(first_composer, n_players):  # composers in seat order (C4)
                if t.pick[s] == COMPOSER and not resolve_composer(
                    t, s, n_players, round_, step, seats, cards, error, search, scratch
                ):
                    return False
            pass_left(t.hands, n_players)
        if record:
            record_standing(t, n_players, cards.need, round_)
        phase = PHASE_START
        first_step = 0
    return True


@nb.njit(cache=True, _nrt=False)
def play_two_player(t, seats, cards, error, search, scratch, record):
    """2 players (C7): four rounds of 6 drawn tokens, 3 picks each keeping 1 and removing 1;
    ``record`` as in :func:`play_draft`."""
    return two_player_loop(t, seats, cards, error, search, scratch, record)


@nb.njit(cache=True, _nrt=False)
def play_two_player_plain(t, n_players, seats, cards, error):
    """:func:`play_two_player` without a search or standings, for the play-outs (``n_players``,
    always 2, makes the signature every form's play-outs share)."""
    return two_player_loop(t, seats, cards, error, None, None, False)


@nb.njit(cache=True, inline="always")
def two_player_loop(t, seats, cards, error, search, scratch, record):
    """:func:`play_two_player`'s loop."""
    phase = t.counters[PHASE]
    first_step = t.counters[STEP]
    fixed = t.counters[FIXED] - 1
    for round_ in range(t.counters[ROUND], TWO_PLAYER_ROUNDS):
        if phase == PHASE_START:
            for s in range(2):
                for _ in range(HAND_SIZE):
                    t.hands[s, draw_token(t.bag, t.counters)] += 1
            phase = PHASE_PICK
        for step in range(first_step, TWO_PLAYER_PICKS):
            first = round_ == 0 and step == 0
            first_composer = 0
            if phase == PHASE_PICK:
                for s in range(2):
                    if (
                        first
                        and t.kept[s] < 0
                        and not choose_dealt_card(t, s, 2, 1, seats, cards, error, search, scratch)
                    ):
                        return False
                    if s == fixed:  # a play-out's searched pick, already made
                        continue
                    n = pair_choices(t.hands[s], t.choices)
                    if n > 1 and seats.policy_ids[s] == GREEDY:
                        c = greedy_pair_on_table(t, s, n, cards.need)
                    else:
                        c = decide(
                            t, s, 2, PICK_PAIR, n, round_, step, 1, seats, cards, error, search,
                            scratch,
                        )  # fmt: skip
                    if c < 0:
                        return False
                    t.pick[s] = t.choices[c, 0]
                    t.remove[s] = t.choices[c, 1]
                fixed = -1
                for s in range(2):
                    t.hands[s, t.pick[s]] -= 1
                    t.hands[s, t.remove[s]] -= 1
                    t.orchestra[s, t.pick[s]] += 1
                    t.removed[t.remove[s]] += 1  # a removed composer gives nothing (C7)
                    if first:
                        reveal_dealt_card(t, s)
            else:  # a play-out resuming after a searched composer's card
                first_composer = t.counters[SEAT]
                phase = PHASE_PICK
            for s in range(first_composer, 2):
                if t.pick[s] == COMPOSER and not resolve_composer(
                    t, s, 2, round_, step, seats, cards, error, search, scratch
                ):
                    return False
            pass_left(t.hands, 2)
        if record:
            record_standing(t, 2, cards.need, round_)
        phase = PHASE_START
        first_step = 0
    return True


@nb.njit(cache=True, inline="always")
def play_solo(t, seats, cards, error, search, scratch, record):
    """Solo against Pahha (C8): seven rounds by the round table; ``record`` as in
    :func:`play_draft` (Pahha a seat of the standings)."""
    phase = t.counters[PHASE]
    for round_ in range(t.counters[ROUND], SOLO_ROUNDS):
        draw = SOLO_DRAW[round_]
        keep = SOLO_KEEP[round_]
        if phase == PHASE_START:
            for _ in range(draw):
                t.hands[0, draw_token(t.bag, t.counters)] += 1
            phase = PHASE_PICK
        if phase == PHASE_PICK:
            if (
                round_ == 0
                and t.kept[0] < 0
                and not choose_dealt_card(t, 0, 1, keep, seats, cards, error, search, scratch)
            ):
                return False
            if seats.policy_ids[0] == GREEDY:
                # Greedy's keep read straight off the hand, without listing the multisets (the
                # same answer, tested against best_multiset over the listed choices).
                greedy_keep_on_table(t, keep, cards.need)
            elif not ask_keep(t, keep, round_, seats, cards, error, search, scratch):
                return False
            phase = PHASE_APPLY
        if phase == PHASE_APPLY:
            for k in range(N_KINDS):
                t.orchestra[0, k] += t.keep[k]
                t.orchestra[PAHHA, k] += t.hands[0, k] - t.keep[k]
            if round_ == 0:
                reveal_dealt_card(t, 0)
            t.counters[PAHHA_COMPOSERS] = t.hands[0, COMPOSER] - t.keep[COMPOSER]
            t.counters[COMPOSERS_DONE] = 0
            for k in range(N_KINDS):
                t.hands[0, k] = 0
        for i in range(t.counters[COMPOSERS_DONE], t.keep[COMPOSER]):  # yours one at a time (C8)
            if search is not None:  # the search's resume point
                t.counters[COMPOSERS_DONE] = i
            if not resolve_composer(t, 0, 1, round_, 0, seats, cards, error, search, scratch):
                return False
        for _ in range(t.counters[PAHHA_COMPOSERS]):  # then Pahha's: one face-down card each
            card = draw_card(t)
            if card >= 0:
                gain_card(t, PAHHA, card, False)
        if record:
            record_standing(t, 1, cards.need, round_)
        phase = PHASE_START
    return True


@nb.njit(cache=True, _nrt=False)
def play_solo_plain(t, n_players, seats, cards, error):
    """:func:`play_solo` without a search or standings, for the play-outs (``n_players``, always
    1, makes the signature every form's play-outs share)."""
    return play_solo(t, seats, cards, error, None, None, False)


@nb.njit(cache=True, inline="always")
def final_scoring(t, n_players, need):
    """Parts of every seat's score (C5, C6, C8) into ``t.parts``."""
    n_seats = seats_of(n_players)
    pop = t.counters[POPULARITY]
    soloist = t.counters[SOLOIST]
    pianist_quota = t.pianist_quotas[t.counters[PIANIST]]
    harpist_quota = t.harpist_quotas[t.counters[HARPIST]]
    for s in range(n_seats):
        c = t.orchestra[s]
        popularity, conductor, solo, pianist, harpist = contest_part_points(
            c, pop, soloist, pianist_quota, harpist_quota
        )
        t.parts[s, P_POPULARITY] = popularity
        t.parts[s, P_CONDUCTOR] = conductor
        t.parts[s, P_SOLOIST] = solo
        t.parts[s, P_PIANIST] = pianist
        t.parts[s, P_HARPIST] = harpist
        if n_players == 1 and s == PAHHA:
            t.parts[s, P_SCORE_CARDS] = PAHHA_POINTS_PER_CARD * t.n_held[s]  # C8
        else:
            done = 0
            for i in range(t.n_held[s]):
                done += card_complete(c, need, t.held[s, i])
            t.parts[s, P_SCORE_CARDS] = POINTS_PER_SCORE_CARD * done
    award_honors(t.parts, n_seats)  # C6 (in solo between you and Pahha, C8)


@nb.njit(cache=True)
def record_standing(t, n_players, need, round_):
    """Ruling PC6: every seat's standing after round ``round_`` into ``t.standing``, the score
    :func:`final_scoring` gives it if the game ended now (honors among the orchestras as they
    stand, Pahha's face-down cards at 3 each). ``t.parts`` is scratch until the game's own final
    scoring; nothing the game reads changes. (Not inlined: a trace's cost stays out of the
    ordinary loops' code.)"""
    final_scoring(t, n_players, need)
    for s in range(seats_of(n_players)):
        total = 0
        for p in range(N_PARTS):
            total += t.parts[s, p]
        t.standing[s, round_] = total


@nb.njit(cache=True, inline="always")
def play_game(
    t, seed, game, n_players, seats, cards, fixed_setup, out, row, trace, record_trace, error,
    search, scratch,
):  # fmt: skip
    """Play game ``game`` of 3-4 players on table ``t`` and write its outcome into row ``row``
    of ``out``, and with ``record_trace`` every seat's standing after each round into row ``row``
    of ``trace`` (ruling PC6). False when a policy answered illegally (``error`` says where)."""
    n_seats = setup_game(t, seed, game, n_players, fixed_setup)
    if not play_draft(t, n_players, seats, cards, error, search, scratch, record_trace):
        return False
    final_scoring(t, n_players, cards.need)
    write_outcome(t, n_players, n_seats, cards.need, out, row)
    if record_trace:
        write_trace(t, n_seats, trace, row)
    return True


@nb.njit(cache=True, inline="always")
def play_two_player_game(
    t, seed, game, seats, cards, fixed_setup, out, row, trace, record_trace, error, search,
    scratch,
):  # fmt: skip
    """:func:`play_game` for a game of 2 players (C7)."""
    n_seats = setup_game(t, seed, game, 2, fixed_setup)
    if not play_two_player(t, seats, cards, error, search, scratch, record_trace):
        return False
    final_scoring(t, 2, cards.need)
    write_outcome(t, 2, n_seats, cards.need, out, row)
    if record_trace:
        write_trace(t, n_seats, trace, row)
    return True


@nb.njit(cache=True, inline="always")
def play_solo_game(
    t, seed, game, seats, cards, fixed_setup, out, row, trace, record_trace, error, search,
    scratch,
):  # fmt: skip
    """:func:`play_game` for a solo game (C8): Pahha is the trace's second seat."""
    setup_game(t, seed, game, 1, fixed_setup)
    if not play_solo(t, seats, cards, error, search, scratch, record_trace):
        return False
    final_scoring(t, 1, cards.need)
    write_outcome(t, 1, seats_of(1), cards.need, out, row)
    if record_trace:
        write_trace(t, seats_of(1), trace, row)
    return True


@nb.njit(cache=True, inline="always")
def write_trace(t, n_seats, trace, row):
    """Copy the standings of the finished game on ``t`` (``trace.shape[2]`` rounds, its form's)
    into row ``row`` of ``trace`` (ruling PC6)."""
    for s in range(n_seats):
        for r in range(trace.shape[2]):
            trace[row, s, r] = t.standing[s, r]


@nb.njit(cache=True, inline="always")
def write_outcome(t, n_players, n_seats, need, out, row):
    """Copy the finished game on ``t`` into row ``row`` of ``out``: scores, parts, ranks, margins
    and win shares (C8: in solo a tie is Pahha's), cards, orchestras, setup and bookkeeping."""
    best = -1
    for s in range(n_seats):
        total = 0
        for p in range(N_PARTS):
            out.parts[row, s, p] = t.parts[s, p]
            total += t.parts[s, p]
        out.score[row, s] = total
        best = max(best, total)
        held_mask = 0
        done_mask = 0
        done = 0
        scores_cards = not (n_players == 1 and s == PAHHA)  # C8: Pahha's cards are not scored
        for i in range(t.n_held[s]):
            card = t.held[s, i]
            held_mask |= 1 << card
            # no branch on whether a card is complete: a coin flip to the branch predictor
            complete = scores_cards & card_complete(t.orchestra[s], need, card)
            done_mask |= np.int64(complete) << card
            done += complete
        out.cards_held[row, s] = t.n_held[s]
        out.cards_completed[row, s] = done
        out.held_mask[row, s] = held_mask
        out.completed_mask[row, s] = done_mask
        out.tokens[row, s] = 0
        for k in range(N_KINDS):
            out.orchestra[row, s, k] = t.orchestra[s, k]
            out.tokens[row, s] += t.orchestra[s, k]
    for s in range(n_seats):
        best_other = -(1 << 60)
        for o in range(n_seats):
            if o != s:
                best_other = max(best_other, out.score[row, o])
        out.margin[row, s] = out.score[row, s] - best_other
    if n_players == 1:
        # C8: you win only with a strictly higher total; a tie is Pahha's
        you_win = out.score[row, 0] > out.score[row, PAHHA]
        out.rank[row, 0] = 1 if you_win else 2
        out.rank[row, PAHHA] = 2 if you_win else 1
        out.win_share[row, 0] = 1.0 if you_win else 0.0
        out.win_share[row, PAHHA] = 0.0 if you_win else 1.0
    else:
        winners = 0
        for s in range(n_seats):
            if out.score[row, s] == best:
                winners += 1
        for s in range(n_seats):
            better = 0
            for o in range(n_seats):
                if out.score[row, o] > out.score[row, s]:
                    better += 1
            out.rank[row, s] = better + 1
            out.win_share[row, s] = 1.0 / winners if better == 0 else 0.0
    out.popularity_kind[row] = t.counters[POPULARITY]
    out.soloist_card[row] = t.counters[SOLOIST]
    out.pianist_card[row] = t.counters[PIANIST]
    out.harpist_card[row] = t.counters[HARPIST]
    out.bag_left[row] = t.counters[BAG_LEN]
    removed = 0
    for k in range(N_KINDS):
        removed += t.removed[k]
    out.tokens_removed[row] = removed
    out.pile_left[row] = t.counters[PILE_LEN]
    out.discarded[row] = t.counters[DISCARD_LEN]
    out.forced_held[row] = t.counters[FORCED_HELD]
    out.forced_exchanged[row] = t.counters[FORCED_DONE]


# --- The search contract (fairysim.sim.search): the play-out, which resumes the loops above
# (copying a table and the determinization are in .search). A ``rollout`` seat's search runs on
# two scratch tables of its worker.


@nb.njit(cache=True)
def play_out(t, seat, choice, context):
    """Make choice ``choice`` of the decision pending on ``t`` (where :func:`search_decision`
    left it) and play the game to its end with the play-out policies; ``seat``'s win share."""
    decision = t.counters[DECISION]
    c = t.choices[choice]
    if decision == KEEP_DEALT_CARD:
        t.kept[seat] = c[0]
    elif decision == KEEP_DRAWN_CARD:
        keep_drawn_card(t, seat, t.counters[DRAWN_A], t.counters[DRAWN_B], c[0])
        t.counters[SEAT] = seat + 1
        t.counters[COMPOSERS_DONE] += 1
    elif decision == SOLO_KEEP_TOKENS:
        for k in range(N_KINDS):
            t.keep[k] = c[k]
        t.counters[PHASE] = PHASE_APPLY
    else:  # PICK_TOKEN, PICK_PAIR: the other seats' picks of the step are still to make (C3)
        t.pick[seat] = c[0]
        t.remove[seat] = c[1]
        t.counters[FIXED] = seat + 1
    return play_rest(t, seat, context)


@nb.njit(cache=True)
def play_rest(t, seat, context):
    """Play the game on ``t`` from the point its counters hold to the end, every seat by the
    play-out policy of ``context``, through the form's ordinary loop (``search`` None, so no
    search is typed in it), compiled apart (:func:`kernel_levels`): no level of the search
    compiles the game again, nor another form's. ``seat``'s win share (0 if a play-out policy
    answers illegally)."""
    n_players, cards, seats, rest = context
    ok = rest[0](t, n_players, seats, cards, t.playout_error)
    if not ok:
        return 0.0
    final_scoring(t, n_players, cards.need)
    return win_share_of(t.parts, n_players, seat)


concerto_search = make_rollout_search(copy_table, redraw_hidden, play_out)
"""The ``rollout`` search of every form (:func:`fairysim.sim.search.make_rollout_search`)."""


# A parallel loop's body cannot take a tuple of arrays from outside it: a kernel's ``search``
# (None, or the play-out lineup's arrays) is unpacked before the loop and the context is built
# inside, as None where ``search`` is (every branch testing it then pruned, with its types). The
# three helpers choose by the argument's type (``overload``), so no result is an optional.
def search_flag(search):
    """None without a search, else 1."""


def playout_arrays(search, policy_ids, reads_view, weights):
    """The play-out lineup's ids, view flags and weights (``search``'s; without a search the
    run's own, never read)."""


def playout_rest(search):
    """The play-outs' game loop compiled apart (``search[3]``); None without a search."""


def search_context(flag, n_players, cards, playout, rest):
    """The context a search passes to :func:`redraw_hidden` and :func:`play_out`: the player
    count, the card rules, the play-out lineup and its game loop; None without a search."""


@overload(search_flag)
def _search_flag(search):
    if isinstance(search, types.NoneType):
        return lambda search: None
    return lambda search: 1


@overload(playout_arrays)
def _playout_arrays(search, policy_ids, reads_view, weights):
    if isinstance(search, types.NoneType):
        return lambda search, policy_ids, reads_view, weights: (policy_ids, reads_view, weights)
    return lambda search, policy_ids, reads_view, weights: (search[0], search[1], search[2])


@overload(playout_rest)
def _playout_rest(search):
    if isinstance(search, types.NoneType):
        return lambda search: None
    return lambda search: search[3]


@overload(search_context)
def _search_context(flag, n_players, cards, playout, rest):
    if isinstance(flag, types.NoneType):
        return lambda flag, n_players, cards, playout, rest: None
    # int64 even where the form passes its count as a constant: the type kernel_levels gives
    return lambda flag, n_players, cards, playout, rest: (np.int64(n_players), cards, playout, rest)


# One kernel per form (3-4 players, 2 players, solo): a run compiles only the form it plays
# (docs/performance-log.md, "Compile time (2026-12-04)"). The block loops and the kernels around
# them are written out once per form rather than shared: a kernel takes its block loop compiled
# apart (kernel_levels), a first-class function of the form's own signature, and a kernel shared
# by the forms would still compile every form's loop. What a game does is the same functions in
# every form.
@nb.njit(cache=True, _nrt=False)
def play_draft_block(
    t, seed, first_game, lo, hi, n_players, seats, cards, fixed_setup, out, trace, record_trace,
    error, search, scratch,
):  # fmt: skip
    """Play games ``first_game + lo .. first_game + hi - 1`` of 3-4 players into rows
    ``lo .. hi - 1``.

    One call per block, not per game: a call passes the table and outcome arrays by value (some
    50 arrays), which cost a solo game ~12 % of its time when ``play_game`` was called per game.
    """
    for row in range(lo, hi):
        game = first_game + row
        ok = play_game(
            t, seed, game, n_players, seats, cards, fixed_setup, out, row, trace, record_trace,
            error[1:], search, scratch,
        )  # fmt: skip
        # A game whose policy answers illegally stops the block; the record says where and why.
        if not ok:
            error[ERROR_ROW] = row
            return


@nb.njit(cache=True, _nrt=False)
def play_two_player_block(
    t, seed, first_game, lo, hi, seats, cards, fixed_setup, out, trace, record_trace, error,
    search, scratch,
):  # fmt: skip
    """:func:`play_draft_block` for games of 2 players (C7)."""
    for row in range(lo, hi):
        game = first_game + row
        ok = play_two_player_game(
            t, seed, game, seats, cards, fixed_setup, out, row, trace, record_trace, error[1:],
            search, scratch,
        )  # fmt: skip
        if not ok:
            error[ERROR_ROW] = row
            return


@nb.njit(cache=True, _nrt=False)
def play_solo_block(
    t, seed, first_game, lo, hi, seats, cards, fixed_setup, out, trace, record_trace, error,
    search, scratch,
):  # fmt: skip
    """:func:`play_draft_block` for solo games (C8): ``play_solo`` is inlined through
    :func:`play_solo_game`, since calling it cost a solo game ~9 % of its time."""
    for row in range(lo, hi):
        game = first_game + row
        ok = play_solo_game(
            t, seed, game, seats, cards, fixed_setup, out, row, trace, record_trace, error[1:],
            search, scratch,
        )  # fmt: skip
        if not ok:
            error[ERROR_ROW] = row
            return


@nb.njit(cache=True, parallel=True)
def play_draft_games(
    seed,
    first_game,
    n_players,
    policy_ids,
    policies,
    reads_view,
    weights,
    need,
    tokens,
    psets,
    hsets,
    fixed_setup,
    out,
    trace,
    record_trace,
    errors,
    n_threads,
    search,
    blocks,
):
    """Play games ``first_game .. first_game + len(out.score) - 1`` of 3-4 players across numba
    threads (:func:`play_games`, which picks the kernel of the form, says more). ``blocks`` holds
    the form's block loop compiled apart for the run's types (:func:`kernel_levels`)."""
    n_games = out.score.shape[0]
    n_blocks = block_count(n_games, GAMES_PER_BLOCK)
    queue = np.zeros(1, np.int64)
    flag = search_flag(search)
    playout_ids, playout_reads, playout_weights = playout_arrays(
        search, policy_ids, reads_view, weights
    )
    rest = playout_rest(search)
    # The game loop works on borrowed views of every array (see fairysim.sim.borrow): an owned
    # array costs an atomic increment and decrement wherever a helper takes it or a row of it,
    # which was over half of the run time. ``owner`` (the worker's table) and the caller's arrays
    # outlive the views: the table is released only after the loop (``keep_alive``).
    for _ in nb.prange(worker_count(n_threads, n_blocks)):
        owner = new_table(tokens, need, psets, hsets)
        det, work = new_table(tokens, need, psets, hsets), new_table(tokens, need, psets, hsets)
        totals = np.zeros(MAX_CHOICES, np.float64)
        scratch = (borrowed_fields(det), borrowed_fields(work), borrowed(totals))
        seats = SeatPolicies(
            borrowed(policy_ids), policies, borrowed(reads_view), borrowed(weights)
        )
        cards = CardRules(borrowed(need), borrowed(tokens), borrowed(psets), borrowed(hsets))
        playout = SeatPolicies(
            borrowed(playout_ids), policies, borrowed(playout_reads), borrowed(playout_weights)
        )
        context = search_context(flag, n_players, cards, playout, rest)
        t, block_out = borrowed_fields(owner), borrowed_fields(out)
        fixed, block_errors = borrowed(fixed_setup), borrowed(errors)
        block_trace = borrowed(trace)
        block = claim_block(queue)
        while block < n_blocks:
            lo, hi = block_rows(block, GAMES_PER_BLOCK, n_games)
            error = block_errors[block]
            blocks[0](
                t, seed, first_game, lo, hi, n_players, seats, cards, fixed, block_out,
                block_trace, record_trace, error, context, scratch,
            )  # fmt: skip
            block = claim_block(queue)
        keep_alive(owner)
        keep_alive(det)
        keep_alive(work)
        keep_alive(totals)


@nb.njit(cache=True, parallel=True)
def play_two_player_games(
    seed,
    first_game,
    policy_ids,
    policies,
    reads_view,
    weights,
    need,
    tokens,
    psets,
    hsets,
    fixed_setup,
    out,
    trace,
    record_trace,
    errors,
    n_threads,
    search,
    blocks,
):
    """:func:`play_draft_games` for games of 2 players (C7): the same arguments but the player
    count."""
    n_games = out.score.shape[0]
    n_blocks = block_count(n_games, GAMES_PER_BLOCK)
    queue = np.zeros(1, np.int64)
    flag = search_flag(search)
    playout_ids, playout_reads, playout_weights = playout_arrays(
        search, policy_ids, reads_view, weights
    )
    rest = playout_rest(search)
    for _ in nb.prange(worker_count(n_threads, n_blocks)):  # as in play_draft_games
        owner = new_table(tokens, need, psets, hsets)
        det, work = new_table(tokens, need, psets, hsets), new_table(tokens, need, psets, hsets)
        totals = np.zeros(MAX_CHOICES, np.float64)
        scratch = (borrowed_fields(det), borrowed_fields(work), borrowed(totals))
        seats = SeatPolicies(
            borrowed(policy_ids), policies, borrowed(reads_view), borrowed(weights)
        )
        cards = CardRules(borrowed(need), borrowed(tokens), borrowed(psets), borrowed(hsets))
        playout = SeatPolicies(
            borrowed(playout_ids), policies, borrowed(playout_reads), borrowed(playout_weights)
        )
        context = search_context(flag, 2, cards, playout, rest)
        t, block_out = borrowed_fields(owner), borrowed_fields(out)
        fixed, block_errors = borrowed(fixed_setup), borrowed(errors)
        block_trace = borrowed(trace)
        block = claim_block(queue)
        while block < n_blocks:
            lo, hi = block_rows(block, GAMES_PER_BLOCK, n_games)
            error = block_errors[block]
            blocks[0](
                t, seed, first_game, lo, hi, seats, cards, fixed, block_out, block_trace,
                record_trace, error, context, scratch,
            )  # fmt: skip
            block = claim_block(queue)
        keep_alive(owner)
        keep_alive(det)
        keep_alive(work)
        keep_alive(totals)


@nb.njit(cache=True, parallel=True)
def play_solo_games(
    seed,
    first_game,
    policy_ids,
    policies,
    reads_view,
    weights,
    need,
    tokens,
    psets,
    hsets,
    fixed_setup,
    out,
    trace,
    record_trace,
    errors,
    n_threads,
    search,
):
    """:func:`play_draft_games` for solo games against Pahha (C8): the same arguments but the
    player count and ``blocks``. The solo block loop stays linked into the kernel, not compiled
    apart: apart, a solo game ran 7-10% slower (docs/performance-log.md, "Compile time: levels
    apart")."""
    n_games = out.score.shape[0]
    n_blocks = block_count(n_games, GAMES_PER_BLOCK)
    queue = np.zeros(1, np.int64)
    flag = search_flag(search)
    playout_ids, playout_reads, playout_weights = playout_arrays(
        search, policy_ids, reads_view, weights
    )
    rest = playout_rest(search)
    for _ in nb.prange(worker_count(n_threads, n_blocks)):  # as in play_draft_games
        owner = new_table(tokens, need, psets, hsets)
        det, work = new_table(tokens, need, psets, hsets), new_table(tokens, need, psets, hsets)
        totals = np.zeros(MAX_CHOICES, np.float64)
        scratch = (borrowed_fields(det), borrowed_fields(work), borrowed(totals))
        seats = SeatPolicies(
            borrowed(policy_ids), policies, borrowed(reads_view), borrowed(weights)
        )
        cards = CardRules(borrowed(need), borrowed(tokens), borrowed(psets), borrowed(hsets))
        playout = SeatPolicies(
            borrowed(playout_ids), policies, borrowed(playout_reads), borrowed(playout_weights)
        )
        context = search_context(flag, 1, cards, playout, rest)
        t, block_out = borrowed_fields(owner), borrowed_fields(out)
        fixed, block_errors = borrowed(fixed_setup), borrowed(errors)
        block_trace = borrowed(trace)
        block = claim_block(queue)
        while block < n_blocks:
            lo, hi = block_rows(block, GAMES_PER_BLOCK, n_games)
            error = block_errors[block]
            play_solo_block(
                t, seed, first_game, lo, hi, seats, cards, fixed, block_out, block_trace,
                record_trace, error, context, scratch,
            )  # fmt: skip
            block = claim_block(queue)
        keep_alive(owner)
        keep_alive(det)
        keep_alive(work)
        keep_alive(totals)


FORM_BLOCKS = {2: play_two_player_block}
"""The block loop compiled apart of each form by player count; 3-4 players play
:func:`play_draft_block` (and solo links :func:`play_solo_block`)."""

FORM_PLAIN_LOOPS = {1: play_solo_plain, 2: play_two_player_plain}
"""The play-outs' game loop of each form by player count; 3-4 players play
:func:`play_draft_plain`."""


def kernel_levels(
    n_players, policy_ids, policies, reads_view, weights, need, tokens, psets, hsets,
    fixed_setup, out, trace, errors, search,
) -> tuple:  # fmt: skip
    """The block loop of the form of ``n_players`` compiled apart (:mod:`fairysim.sim.apart`) for
    the types its kernel calls it with, given the run's arguments to :func:`play_games`, and
    ``search`` with the play-outs' game loop (the form's plain loop) compiled apart too:
    ``(search, levels)``, what the kernel takes as ``search`` and last (``levels`` is
    ``(blocks,)``, or empty for the solo kernel, which links its block loop). Apart, a block
    compiles once, not again in the kernel's parallel loop, and the game loop once, not again in
    every level of a search."""
    int64 = nb.types.int64
    table = new_table(tokens, need, psets, hsets)
    cards = CardRules(need, tokens, psets, hsets)
    seats = SeatPolicies(policy_ids, policies, reads_view, weights)
    context = None
    if search is not None:
        playout = SeatPolicies(search[0], policies, search[1], search[2])
        plain = FORM_PLAIN_LOOPS.get(n_players, play_draft_plain)
        arg_types = (cards, table.playout_error)
        rest = apart(
            plain,
            (nb.typeof(table), int64, nb.typeof(playout), *[nb.typeof(a) for a in arg_types]),
        )
        search = (*search[:3], rest)
        context = (n_players, cards, playout, rest)
    scratch = (table, table, np.zeros(MAX_CHOICES, np.float64))
    if n_players == 1:  # the solo kernel links its block loop (play_solo_games)
        return search, ()
    block = FORM_BLOCKS.get(n_players, play_draft_block)
    # t, seed, first_game, lo, hi, and the player count where the form has several
    counts = 5 if block is play_draft_block else 4
    arrays = (seats, cards, fixed_setup, out, trace)
    blocks = apart(
        block,
        (
            nb.typeof(table),
            *[int64] * counts,
            *[nb.typeof(a) for a in arrays],
            nb.types.boolean,  # record_trace
            nb.typeof(errors[0]),
            nb.typeof(context),
            nb.typeof(scratch),
        ),
    )
    return search, (blocks,)


FORM_KERNELS = {1: play_solo_games, 2: play_two_player_games}
"""The kernel of each form by player count; 3-4 players play :func:`play_draft_games`."""


def engine_kernel(n_players: int):
    """The jitted kernel that plays games of ``n_players`` (:func:`play_games`)."""
    return FORM_KERNELS.get(n_players, play_draft_games)


def play_games(
    seed,
    first_game,
    n_players,
    policy_ids,
    policies,
    reads_view,
    weights,
    need,
    tokens,
    psets,
    hsets,
    fixed_setup,
    out,
    trace,
    record_trace,
    errors,
    n_threads,
    search=None,
):
    """Play games ``first_game .. first_game + len(out.score) - 1`` across numba threads, on the
    kernel of the form (:func:`engine_kernel`: :func:`play_solo_games`,
    :func:`play_two_player_games` or :func:`play_draft_games`), so that a run compiles only the
    form it plays.

    ``n_threads`` workers, one table each, take blocks of :data:`.blocks.GAMES_PER_BLOCK`
    games as they come free (:mod:`fairysim.sim.blocks`); ``errors`` holds one record per block
    (:func:`fairysim.sim.batch.new_error_records`). Results depend only on (seed, game), never on
    the thread that plays a game.

    ``trace`` (int64[games, seats, rounds of the form]) gets every seat's standing after each
    round (ruling PC6) where ``record_trace`` is True; otherwise it may be any array of that
    type, and the kernel is the same one.
    """
    rest = (policy_ids, policies, reads_view, weights, need, tokens, psets, hsets)
    search, levels = kernel_levels(n_players, *rest, fixed_setup, out, trace, errors, search)
    rest += (fixed_setup, out, trace, record_trace, errors, n_threads, search, *levels)
    kernel = engine_kernel(n_players)
    if kernel is play_draft_games:
        kernel(seed, first_game, n_players, *rest)
    else:
        kernel(seed, first_game, *rest)


OUTCOME_COLUMNS = {
    # name: (dtype, per-seat shape). Narrow types: a chunk's outcome is written into fresh memory,
    # and every page of it costs a page fault (at int64 throughout, ~670 bytes a 4-player game).
    "score": (np.int16, ()),  # total points
    "parts": (np.int16, (N_PARTS,)),  # rules.PART_NAMES
    "rank": (np.int8, ()),  # 1 = winner
    "margin": (np.int16, ()),  # score minus the best other score of the game
    "win_share": (np.float64, ()),
    "cards_held": (np.int8, ()),  # score cards held at the end
    "cards_completed": (np.int8, ()),  # held score cards whose need is met
    "held_mask": (np.int32, ()),  # bit i = holds score card i (26 cards, C9)
    "completed_mask": (np.int32, ()),  # bit i = completed score card i
    "tokens": (np.int8, ()),  # orchestra size (12; Pahha 14)
    "orchestra": (np.int8, (N_KINDS,)),  # tokens of each kind
    "popularity_kind": (np.int8, None),
    "soloist_card": (np.int8, None),  # 0..3 = A..D
    "pianist_card": (np.int8, None),  # index into the card file's pianist cards
    "harpist_card": (np.int8, None),
    "bag_left": (np.int16, None),  # tokens never drawn (a card file's bag holds up to 200)
    "tokens_removed": (np.int8, None),  # removed from the game (2 players)
    "pile_left": (np.int8, None),  # score cards left in the draw pile
    "discarded": (np.int8, None),  # score cards on the discard pile
    "forced_held": (np.int8, None),  # card effects (PC5): the seat was dealt the card anyway
    "forced_exchanged": (np.int8, None),  # card effects: the exchange was made
}
"""Outcome arrays: dtype, and the shape after ``(games, seats)`` (None: per game, ``(games,)``)."""

Outcome = namedtuple("Outcome", list(OUTCOME_COLUMNS))


def new_outcome(games: int, seats: int) -> Outcome:
    """Allocate the outcome arrays of a chunk of ``games`` games with ``seats`` orchestras
    (see :data:`OUTCOME_COLUMNS`; uninitialised: :func:`write_outcome` writes every value of a
    game's row)."""
    return Outcome(
        **{
            name: np.empty((games,) if tail is None else (games, seats, *tail), dtype)
            for name, (dtype, tail) in OUTCOME_COLUMNS.items()
        }
    )
