"""Built-in Fairy Concerto policies.

One module past 600 lines: six policies over shared view helpers; a module per policy would
repeat the helpers' imports and hide how the policies differ.

Each is compiled once with :data:`fairysim.sim.policy.POLICY_SIGNATURE` and sees only its seat's
view (:data:`.rules.VIEW_FIELDS`, ruling C3). Weights are floats passed per call, so tuning never
recompiles. "Score" below is a seat's current score before honors: the five contest/popularity
cards plus its completed face-up score cards (:func:`.rules.base_score`).

==========  ==========================================================================
random      uniform over the distinct legal choices (the statistical reference)
greedy      the choice that raises its own current score most (first on ties)
chaser      chases its held score cards: values progress towards them and composers
maestro     plays to the contest cards: values the honors it would lead or share
denier      drafts to deny its left neighbour (solo: Pahha) the tokens it needs most
lookahead   solo only: Monte Carlo rollouts of the remaining rounds for every choice
rollout     determinized Monte Carlo search of the whole game, every form
            (:mod:`fairysim.sim.search`; the engine searches for it)
==========  ==========================================================================
"""

from __future__ import annotations

import numba as nb
import numpy as np

from fairysim.runtime.errors import UNKNOWN_BUILTIN
from fairysim.sim.concerto.rules import (
    COMPOSER,
    HONOR_POINTS,
    KEEP_DEALT_CARD,
    KEEP_DRAWN_CARD,
    N_CONTESTS,
    N_KINDS,
    N_SCORE_CARDS,
    PAHHA,
    PAHHA_POINTS_PER_CARD,
    PICK_PAIR,
    POINTS_PER_SCORE_CARD,
    POINTS_PER_SET,
    SOLO_DRAW,
    SOLO_KEEP,
    SOLO_KEEP_TOKENS,
    SOLO_ROUNDS,
    V_CARD_STATE,
    V_HAND,
    V_HARPIST,
    V_HELD,
    V_NEED,
    V_ORCHESTRA,
    V_PIANIST,
    V_PILE,
    V_PLAYERS,
    V_POPULARITY,
    V_ROUND,
    V_SEAT,
    V_SOLOIST,
    V_UNSEEN,
    conductor_points,
    set_count,
    soloist_points,
)
from fairysim.sim.dispatch import builtin_table, seat_asker
from fairysim.sim.policy import MAX_WEIGHT, builtin, policy, weight
from fairysim.sim.rng import randint
from fairysim.sim.scratch import stack_int64
from fairysim.sim.search import rollout_builtin

MAX_ROLLOUTS = 1000
"""Most rollouts ``lookahead`` may play per choice. The rollouts are most of its work, so its time
per game grows in proportion: 1000 takes about 40 times as long as the default 24."""

SOLO_DRAW_ARRAY = np.array(SOLO_DRAW, dtype=np.int64)
SOLO_KEEP_ARRAY = np.array(SOLO_KEEP, dtype=np.int64)


# --- Helpers reading the view (read only: policies work on local copies) ----------------------


@nb.njit(cache=True, inline="always")
def orch(view, seat, k):
    """Tokens of kind ``k`` in ``seat``'s orchestra."""
    return view[V_ORCHESTRA + seat * N_KINDS + k]


@nb.njit(cache=True, inline="always")
def copy_orchestra(view, seat, c):
    """Copy ``seat``'s orchestra counts into ``c`` (a private copy the policy may change)."""
    for k in range(N_KINDS):
        c[k] = view[V_ORCHESTRA + seat * N_KINDS + k]


@nb.njit(cache=True, inline="always")
def card_done(view, card, c):
    """True when counts ``c`` meet score card ``card``'s need."""
    for k in range(N_KINDS):  # noqa: SIM110 (numba)
        if c[k] < view[V_NEED + card * N_KINDS + k]:
            return False
    return True


@nb.njit(cache=True, inline="always")
def contest_score(view, c):
    """Popularity + conductor + soloist + pianist + harpist points of counts ``c``."""
    return (
        c[view[V_POPULARITY]]
        + conductor_points(c)
        + soloist_points(view[V_SOLOIST], c)
        + POINTS_PER_SET
        * (
            set_count(view[V_PIANIST : V_PIANIST + N_KINDS], c)
            + set_count(view[V_HARPIST : V_HARPIST + N_KINDS], c)
        )
    )


@nb.njit(cache=True)
def seat_score(view, c, seat):
    """Score before honors of counts ``c`` with ``seat``'s face-up score cards."""
    total = contest_score(view, c)
    for i in range(N_SCORE_CARDS):
        if view[V_CARD_STATE + i] == seat and card_done(view, i, c):
            total += POINTS_PER_SCORE_CARD
    return total


@nb.njit(cache=True)
def score_with(view, c, seat, kind, n):
    """``seat``'s score with ``n`` more tokens of ``kind`` added to counts ``c`` (restored)."""
    c[kind] += n
    s = seat_score(view, c, seat)
    c[kind] -= n
    return s


@nb.njit(cache=True, inline="always")
def face_up_cards(view, seat, cards):
    """Write the ids of ``seat``'s face-up score cards into ``cards``; return how many.

    A policy scoring many choices lists them once per decision instead of scanning all the card
    states for every choice (:func:`listed_score`).
    """
    n = 0
    for i in range(N_SCORE_CARDS):
        if view[V_CARD_STATE + i] == seat:
            cards[n] = i
            n += 1
    return n


@nb.njit(cache=True, inline="always")
def listed_score(view, c, cards, n_cards):
    """:func:`seat_score` of counts ``c`` with the face-up cards listed by :func:`face_up_cards`."""
    total = contest_score(view, c)
    for i in range(n_cards):
        if card_done(view, cards[i], c):
            total += POINTS_PER_SCORE_CARD
    return total


@nb.njit(cache=True, inline="always")
def listed_score_plus_one(view, c, cards, n_cards, kind):
    """:func:`listed_score` with one more token of ``kind`` in counts ``c`` (restored after)."""
    c[kind] += 1
    s = listed_score(view, c, cards, n_cards)
    c[kind] -= 1
    return s


@nb.njit(cache=True)
def deficit_total(view, c, seat):
    """Tokens counts ``c`` lack over all of ``seat``'s face-up score cards."""
    total = 0
    for i in range(N_SCORE_CARDS):
        if view[V_CARD_STATE + i] == seat:
            for k in range(N_KINDS):
                d = view[V_NEED + i * N_KINDS + k] - c[k]
                if d > 0:
                    total += d
    return total


@nb.njit(cache=True, inline="always")
def add_multiset(c, choice, sign):
    """Add (sign 1) or take back (sign -1) the tokens of a solo choice row."""
    for k in range(N_KINDS):
        c[k] += sign * choice[k]


@nb.njit(cache=True, inline="always")
def add_rest(view, p, choice, sign):
    """Add (or take back) to Pahha's counts ``p`` the tokens you leave when keeping ``choice``."""
    for k in range(N_KINDS):
        p[k] += sign * (view[V_HAND + k] - choice[k])


@nb.njit(cache=True)
def pick_card_by_deficit(view, choices, n_choices, seat, hand_weight):
    """Keep the offered score card that is complete now or lacks the fewest tokens; tokens in
    hand count ``hand_weight`` towards it; ties go to fewer composers asked, then the first."""
    best = 0
    best_score = -1e300
    for i in range(n_choices):
        card = choices[i, 0]
        missing = 0.0
        for k in range(N_KINDS):
            d = view[V_NEED + card * N_KINDS + k] - orch(view, seat, k)
            if d > 0:
                missing += d - min(d, view[V_HAND + k]) * hand_weight
        score = -missing - 0.01 * view[V_NEED + card * N_KINDS + COMPOSER]
        if score > best_score:
            best_score = score
            best = i
    return best


# --- Policies -----------------------------------------------------------------------------------


@policy
def random_policy(decision, view, choices, n_choices, weights, rng):
    """Uniform over the legal choices (which the engine already lists once each)."""
    return randint(rng, n_choices)


@policy
def greedy_policy(decision, view, choices, n_choices, weights, rng):
    """The choice that raises its own current score most; the first on ties.

    Cards: the one complete now, else the one lacking the fewest tokens. Two players: among the
    pairs with the best token kept, remove the token worth most to the opponent.
    """
    seat = view[V_SEAT]
    if decision == KEEP_DEALT_CARD or decision == KEEP_DRAWN_CARD:  # noqa: SIM109 (numba)
        return pick_card_by_deficit(view, choices, n_choices, seat, 0.0)
    c = stack_int64(N_KINDS)
    copy_orchestra(view, seat, c)
    cards = stack_int64(N_SCORE_CARDS)
    n_cards = face_up_cards(view, seat, cards)
    best = 0
    best_score = -1 << 60
    if decision == SOLO_KEEP_TOKENS:
        for i in range(n_choices):
            add_multiset(c, choices[i], 1)
            s = listed_score(view, c, cards, n_cards)
            add_multiset(c, choices[i], -1)
            if s > best_score:
                best_score = s
                best = i
        return best
    if decision == PICK_PAIR:
        other = 1 - seat
        o_counts = stack_int64(N_KINDS)
        copy_orchestra(view, other, o_counts)
        o_cards = stack_int64(N_SCORE_CARDS)
        n_o_cards = face_up_cards(view, other, o_cards)
        best_other = -1 << 60
        for i in range(n_choices):
            s = listed_score_plus_one(view, c, cards, n_cards, choices[i, 0])
            o = listed_score_plus_one(view, o_counts, o_cards, n_o_cards, choices[i, 1])
            if s > best_score or (s == best_score and o > best_other):
                best_score = s
                best_other = o
                best = i
        return best
    for i in range(n_choices):
        s = listed_score_plus_one(view, c, cards, n_cards, choices[i, 0])
        if s > best_score:
            best_score = s
            best = i
    return best


@policy
def chaser_policy(decision, view, choices, n_choices, weights, rng):
    """Chases its held score cards: score gain plus ``progress`` per missing token supplied and
    ``composer`` per composer taken (each draws score cards).

    weights: progress, composer, hand (how much a token in hand counts when choosing a card).
    """
    progress_w = weights[0]
    composer_w = weights[1]
    hand_w = weights[2]
    seat = view[V_SEAT]
    if decision == KEEP_DEALT_CARD or decision == KEEP_DRAWN_CARD:  # noqa: SIM109 (numba)
        return pick_card_by_deficit(view, choices, n_choices, seat, hand_w)
    c = stack_int64(N_KINDS)
    copy_orchestra(view, seat, c)
    base = seat_score(view, c, seat)
    missing = deficit_total(view, c, seat)
    other = 1 - seat
    o_counts = stack_int64(N_KINDS)
    copy_orchestra(view, other if decision == PICK_PAIR else seat, o_counts)
    o_now = seat_score(view, o_counts, other) if decision == PICK_PAIR else 0
    best = 0
    best_value = -1e300
    for i in range(n_choices):
        if decision == SOLO_KEEP_TOKENS:
            add_multiset(c, choices[i], 1)
            composers = choices[i, COMPOSER]
        else:
            c[choices[i, 0]] += 1
            composers = 1 if choices[i, 0] == COMPOSER else 0
        value = (
            seat_score(view, c, seat)
            - base
            + progress_w * (missing - deficit_total(view, c, seat))
            + composer_w * composers
        )
        if decision == SOLO_KEEP_TOKENS:
            add_multiset(c, choices[i], -1)
        else:
            c[choices[i, 0]] -= 1
        if decision == PICK_PAIR:  # remove what the opponent would gain most from
            value += 0.001 * (score_with(view, o_counts, other, choices[i, 1], 1) - o_now)
        if value > best_value:
            best_value = value
            best = i
    return best


@nb.njit(cache=True)
def contest_part(view, c, part):
    """Points of counts ``c`` on contest card ``part`` (0 conductor, 1 soloist, 2 pianist,
    3 harpist)."""
    if part == 0:
        return conductor_points(c)
    if part == 1:
        return soloist_points(view[V_SOLOIST], c)
    if part == 2:
        return POINTS_PER_SET * set_count(view[V_PIANIST : V_PIANIST + N_KINDS], c)
    return POINTS_PER_SET * set_count(view[V_HARPIST : V_HARPIST + N_KINDS], c)


@nb.njit(cache=True)
def honor_outlook(view, c, seat, n_seats, lead_w, pahha):
    """Honor points counts ``c`` (``seat``'s) would take if the game ended now (C6), plus
    ``lead_w`` per point of margin over the best other seat on each contest card (capped at 3).
    ``pahha`` replaces seat 1's counts in solo."""
    value = 0.0
    for part in range(N_CONTESTS):
        mine = contest_part(view, c, part)
        best_other = 0
        for s in range(n_seats):
            if s != seat:
                if n_seats == 2 and view[V_PLAYERS] == 1:
                    theirs = contest_part(view, pahha, part)
                else:
                    theirs = contest_part(
                        view,
                        view[V_ORCHESTRA + s * N_KINDS : V_ORCHESTRA + (s + 1) * N_KINDS],
                        part,
                    )
                best_other = max(best_other, theirs)
        if mine > 0 and mine >= best_other:
            value += HONOR_POINTS
        value += lead_w * max(-3, min(3, mine - best_other))
    return value


@policy
def maestro_policy(decision, view, choices, n_choices, weights, rng):
    """Plays to the contest cards: score gain plus ``honor`` x the honors it would take now
    against the visible orchestras (solo: Pahha with the tokens you leave), plus ``lead`` per
    point of margin on each contest.

    weights: honor, lead, cards (weight of score-card points in the score gain).
    """
    honor_w = weights[0]
    lead_w = weights[1]
    cards_w = weights[2]
    seat = view[V_SEAT]
    if decision == KEEP_DEALT_CARD or decision == KEEP_DRAWN_CARD:  # noqa: SIM109 (numba)
        return pick_card_by_deficit(view, choices, n_choices, seat, 0.5)
    players = view[V_PLAYERS]
    n_seats = 2 if players == 1 else players
    c = stack_int64(N_KINDS)
    copy_orchestra(view, seat, c)
    p = stack_int64(N_KINDS)
    copy_orchestra(view, PAHHA, p)
    best = 0
    best_value = -1e300
    for i in range(n_choices):
        if decision == SOLO_KEEP_TOKENS:
            add_multiset(c, choices[i], 1)
            add_rest(view, p, choices[i], 1)
        else:
            c[choices[i, 0]] += 1
        contest = contest_score(view, c)
        cards = seat_score(view, c, seat) - contest
        value = (
            contest + cards_w * cards + honor_w * honor_outlook(view, c, seat, n_seats, lead_w, p)
        )
        if decision == SOLO_KEEP_TOKENS:
            add_multiset(c, choices[i], -1)
            add_rest(view, p, choices[i], -1)
        else:
            c[choices[i, 0]] -= 1
        if decision == PICK_PAIR:
            # the removed token: deny the opponent the contest card it would gain most on
            other = 1 - seat
            o = stack_int64(N_KINDS)
            copy_orchestra(view, other, o)
            o[choices[i, 1]] += 1
            value -= 0.01 * honor_outlook(view, o, other, 2, lead_w, o)
        if value > best_value:
            best_value = value
            best = i
    return best


@policy
def denier_policy(decision, view, choices, n_choices, weights, rng):
    """Drafts to deny its left neighbour: own score gain plus ``deny`` x what the token would be
    worth to the neighbour who receives this hand next (shared by the copies left in the hand).
    Two players: the removed token is the one worth most to the opponent. Solo: the neighbour is
    Pahha, who takes every token you leave.

    weights: deny.
    """
    deny_w = weights[0]
    seat = view[V_SEAT]
    if decision == KEEP_DEALT_CARD or decision == KEEP_DRAWN_CARD:  # noqa: SIM109 (numba)
        return pick_card_by_deficit(view, choices, n_choices, seat, 0.0)
    players = view[V_PLAYERS]
    c = stack_int64(N_KINDS)
    copy_orchestra(view, seat, c)
    best = 0
    best_value = -1e300
    if decision == SOLO_KEEP_TOKENS:
        p = stack_int64(N_KINDS)
        copy_orchestra(view, PAHHA, p)
        pahha_now = contest_score(view, p)
        for i in range(n_choices):
            add_multiset(c, choices[i], 1)
            add_rest(view, p, choices[i], 1)
            value = seat_score(view, c, seat) - deny_w * (contest_score(view, p) - pahha_now)
            add_multiset(c, choices[i], -1)
            add_rest(view, p, choices[i], -1)
            if value > best_value:
                best_value = value
                best = i
        return best
    left = (seat + 1) % players
    lc = stack_int64(N_KINDS)
    copy_orchestra(view, left, lc)
    left_now = seat_score(view, lc, left)
    for i in range(n_choices):
        k = choices[i, 0]
        value = float(score_with(view, c, seat, k, 1))
        if decision == PICK_PAIR:
            value += deny_w * (score_with(view, lc, left, choices[i, 1], 1) - left_now)
        else:
            value += deny_w * (score_with(view, lc, left, k, 1) - left_now) / view[V_HAND + k]
        if value > best_value:
            best_value = value
            best = i
    return best


# --- Solo lookahead -----------------------------------------------------------------------------


@nb.njit(cache=True)
def draw_from_counts(rng, counts, total):
    """Draw one token uniformly from ``counts`` (``total`` tokens), removing it."""
    r = randint(rng, total)
    for k in range(N_KINDS):
        if r < counts[k]:
            counts[k] -= 1
            return k
        r -= counts[k]
    return N_KINDS - 1


@nb.njit(cache=True)
def rollout_score(view, you, pahha, pahha_cards, composer_w):
    """Final (yours - Pahha's) margin of a rolled-out position, honors included (C6, C8).

    Your face-up cards are scored on ``you``; each composer you gained in the rollout beyond those
    in the view is worth ``composer_w``; Pahha scores 3 per face-down card.
    """
    pop = view[V_POPULARITY]
    solo = view[V_SOLOIST]
    pian = view[V_PIANIST : V_PIANIST + N_KINDS]
    harp = view[V_HARPIST : V_HARPIST + N_KINDS]
    y = stack_int64(N_CONTESTS)
    p = stack_int64(N_CONTESTS)
    y[0] = conductor_points(you)
    p[0] = conductor_points(pahha)
    y[1] = soloist_points(solo, you)
    p[1] = soloist_points(solo, pahha)
    y[2] = POINTS_PER_SET * set_count(pian, you)
    p[2] = POINTS_PER_SET * set_count(pian, pahha)
    y[3] = POINTS_PER_SET * set_count(harp, you)
    p[3] = POINTS_PER_SET * set_count(harp, pahha)
    mine = float(you[pop])
    theirs = float(pahha[pop] + PAHHA_POINTS_PER_CARD * pahha_cards)
    for i in range(N_CONTESTS):
        mine += y[i]
        theirs += p[i]
        top = max(y[i], p[i])
        if top > 0:
            if y[i] == top:
                mine += HONOR_POINTS
            if p[i] == top:
                theirs += HONOR_POINTS
    for i in range(N_SCORE_CARDS):
        if view[V_CARD_STATE + i] == 0:
            done = True
            for k in range(N_KINDS):
                if you[k] < view[V_NEED + i * N_KINDS + k]:
                    done = False
                    break
            if done:
                mine += POINTS_PER_SCORE_CARD
    mine += composer_w * (you[COMPOSER] - view[V_ORCHESTRA + COMPOSER])
    return mine - theirs


@nb.njit(cache=True)
def quick_score(view, c):
    """Contest points of counts ``c`` plus 5 per face-up own card it completes (rollout policy)."""
    total = (
        c[view[V_POPULARITY]]
        + conductor_points(c)
        + soloist_points(view[V_SOLOIST], c)
        + POINTS_PER_SET
        * (
            set_count(view[V_PIANIST : V_PIANIST + N_KINDS], c)
            + set_count(view[V_HARPIST : V_HARPIST + N_KINDS], c)
        )
    )
    for i in range(N_SCORE_CARDS):
        if view[V_CARD_STATE + i] == 0:
            done = True
            for k in range(N_KINDS):
                if c[k] < view[V_NEED + i * N_KINDS + k]:
                    done = False
                    break
            if done:
                total += POINTS_PER_SCORE_CARD
    return total


@policy
def lookahead_policy(decision, view, choices, n_choices, weights, rng):
    """Solo: evaluate each choice by ``rollouts`` Monte Carlo playouts of the remaining rounds.

    A playout draws the rest of each round from the unseen tokens (the bag, C8: you see every
    drawn token), keeps tokens one at a time by greedy score gain, gives the rest to Pahha (one
    face-down card per composer while the pile lasts) and scores both sides with honors. A choice
    is worth its win rate plus ``margin`` x its mean margin; common random numbers across choices.
    Other decisions (cards; draft forms) play like ``greedy``.

    weights: rollouts, margin, composer (points per composer you gain after this decision).
    """
    if decision != SOLO_KEEP_TOKENS:
        return greedy_policy(decision, view, choices, n_choices, weights, rng)
    rollouts = max(1, int(weights[0]))
    margin_w = weights[1]
    composer_w = weights[2]
    round_ = view[V_ROUND]
    you = stack_int64(N_KINDS)
    pahha = stack_int64(N_KINDS)
    bag = stack_int64(N_KINDS)
    hand = stack_int64(N_KINDS)
    # common random numbers: every choice sees the same playouts
    key0 = rng[0]
    counter0 = rng[1]
    last_counter = counter0
    best = 0
    best_value = -1e300
    for i in range(n_choices):
        rng[0] = key0
        rng[1] = counter0
        value = 0.0
        for _ in range(rollouts):
            bag_total = 0
            pahha_cards = view[V_HELD + PAHHA]
            pile = view[V_PILE]
            for k in range(N_KINDS):
                you[k] = orch(view, 0, k) + choices[i, k]
                pahha[k] = orch(view, PAHHA, k) + view[V_HAND + k] - choices[i, k]
                bag[k] = view[V_UNSEEN + k]
                bag_total += bag[k]
            # this round's composers draw cards: yours 2 (counted by composer_w), Pahha 1 each
            for _ in range(view[V_HAND + COMPOSER] - choices[i, COMPOSER]):
                if pile > 0:
                    pahha_cards += 1
                    pile -= 1
            for _ in range(choices[i, COMPOSER]):
                pile -= min(pile, 2)
            for r in range(round_ + 1, SOLO_ROUNDS):
                draw = SOLO_DRAW_ARRAY[r]
                keep = SOLO_KEEP_ARRAY[r]
                for k in range(N_KINDS):
                    hand[k] = 0
                for _ in range(draw):
                    hand[draw_from_counts(rng, bag, bag_total)] += 1
                    bag_total -= 1
                for _ in range(keep):
                    best_k = -1
                    best_s = -1 << 60
                    for k in range(N_KINDS):
                        if hand[k] > 0:
                            you[k] += 1
                            s = quick_score(view, you) + (1 if k == COMPOSER else 0)
                            you[k] -= 1
                            if s > best_s:
                                best_s = s
                                best_k = k
                    you[best_k] += 1
                    hand[best_k] -= 1
                    if best_k == COMPOSER:
                        pile -= min(pile, 2)
                for k in range(N_KINDS):
                    pahha[k] += hand[k]
                for _ in range(hand[COMPOSER]):
                    if pile > 0:
                        pahha_cards += 1
                        pile -= 1
            m = rollout_score(view, you, pahha, pahha_cards, composer_w)
            value += (1.0 if m > 0 else 0.0) + margin_w * m
        last_counter = max(last_counter, rng[1])
        if value > best_value:
            best_value = value
            best = i
    # leave the seat's stream past every number used, so later decisions get fresh ones
    rng[0] = key0
    rng[1] = last_counter
    return best


# One table of the built-ins (fairysim.sim.dispatch): a built-in's place in it is its dispatch
# id. Built-ins are called directly through ``call_builtin``, which LLVM can inline; user
# policies go through their first-class function (see fairysim.sim.policy). ``rollout`` comes
# last: its ``default`` weight names one of the built-ins before it.
HEURISTICS = builtin_table(
    builtin(
        "random",
        random_policy,
        "uniform over the distinct legal choices",
        reads_view=False,
    ),
    builtin(
        "greedy",
        greedy_policy,
        "the choice that raises its own current score most",
    ),
    builtin(
        "chaser",
        chaser_policy,
        "chases its held score cards and the composers that draw more",
        progress=weight(2.0, 0, MAX_WEIGHT),
        composer=weight(2.5, 0, MAX_WEIGHT),
        # how much of a missing token one in hand makes up: 1 counts it as held
        hand=weight(0.5, 0, 1),
    ),
    builtin(
        "maestro",
        maestro_policy,
        "plays to the contest cards and the honors they award",
        honor=weight(1.0, 0, MAX_WEIGHT),
        lead=weight(0.5, 0, MAX_WEIGHT),
        cards=weight(1.0, 0, MAX_WEIGHT),
    ),
    builtin(
        "denier",
        denier_policy,
        "denies its left neighbour (solo: Pahha) the tokens worth most to it",
        deny=weight(0.7, 0, MAX_WEIGHT),
    ),
    builtin(
        "lookahead",
        lookahead_policy,
        "solo: Monte Carlo rollouts of the remaining rounds for every choice",
        rollouts=weight(24, 1, MAX_ROLLOUTS, integer=True),
        margin=weight(0.02, 0, MAX_WEIGHT),
        composer=weight(2.0, 0, MAX_WEIGHT),
    ),
)
POLICIES = builtin_table(*HEURISTICS.values(), rollout_builtin(HEURISTICS, "chaser"))
"""Built-in policies by name; a built-in's place here is its id in :func:`call_builtin`.
``rollout`` plays out with ``chaser``, the best heuristic of every form at its default
weights (the ladder's top rung; in solo ``lookahead`` is stronger, but a play-out by it would
nest a Monte Carlo in every play-out)."""

CALLED_DIRECTLY = tuple(HEURISTICS)
"""The built-ins :func:`call_builtin` runs: all but ``rollout``, which the engine searches for
(:func:`.engine.search_decision`) and never asks."""

RANDOM, GREEDY, CHASER, MAESTRO, DENIER, LOOKAHEAD, ROLLOUT = (
    POLICIES[name].builtin_id
    for name in ("random", "greedy", "chaser", "maestro", "denier", "lookahead", "rollout")
)


@nb.njit(cache=True, inline="always")
def call_builtin(policy_id, decision, view, choices, n_choices, weights, rng):
    """Run the built-in of id ``policy_id`` (:data:`POLICIES`); :data:`UNKNOWN_BUILTIN`, an
    illegal answer, for an id the table does not hold."""
    if policy_id == GREEDY:
        return greedy_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == RANDOM:
        return random_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == CHASER:
        return chaser_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == MAESTRO:
        return maestro_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == DENIER:
        return denier_policy(decision, view, choices, n_choices, weights, rng)
    if policy_id == LOOKAHEAD:
        return lookahead_policy(decision, view, choices, n_choices, weights, rng)
    return UNKNOWN_BUILTIN  # rollout too: the engine searches for it, never asking


ask_policy = seat_asker(call_builtin)
"""Ask a seat's policy: built-ins through :func:`call_builtin`, user policies through their
function (:func:`fairysim.sim.dispatch.seat_asker`)."""

DRAFT_POLICIES = ("random", "greedy", "chaser", "maestro", "denier")
"""Policies of the 2-4 player forms (``make_setup`` refuses ``lookahead`` there)."""
SOLO_POLICIES = ("random", "greedy", "chaser", "maestro", "denier", "lookahead", "rollout")
