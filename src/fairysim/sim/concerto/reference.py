"""A plain-Python Fairy Concerto engine that reads like the rulebook (the spec in code).

One module past 600 lines: it is the rulebook in code, setup to final scoring in the order a
player reads them (the three forms share the setup, the composers and the scoring); split, a
reader checking one rule against the engine would follow it across files.

It makes the same random draws in the same order as the jitted engine (see the docstring of
:mod:`.engine`), offers the same decisions with the same choices, and asks the same policy
functions, so both engines must agree game by game. It is also the speed baseline.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import product

import numpy as np

from fairysim.runtime.errors import IllegalChoiceError, ParameterError
from fairysim.sim.concerto.policies import ROLLOUT
from fairysim.sim.concerto.rules import (
    CARD_DISCARDED,
    CARD_OFFERED,
    CARD_UNSEEN,
    CHOICE_WIDTH,
    COMPOSER,
    COMPOSER_DRAW,
    CONDUCTOR_POINTS,
    DECISIONS,
    DRAFT_ROUNDS,
    ECCENTRIC_POINTS,
    HAND_SIZE,
    HONOR_POINTS,
    KEEP_DEALT_CARD,
    KEEP_DRAWN_CARD,
    MAX_CHOICES,
    MAX_SEATS,
    MULTITALENTED,
    MULTITALENTED_POINTS,
    N_KINDS,
    N_SCORE_CARDS,
    PAHHA,
    PAHHA_POINTS_PER_CARD,
    PART_NAMES,
    PICK_PAIR,
    PICK_TOKEN,
    POINTS_PER_SCORE_CARD,
    POINTS_PER_SET,
    POPULAR,
    POPULAR_POINTS,
    SOLO_DRAW,
    SOLO_KEEP,
    SOLO_KEEP_TOKENS,
    TRUSTWORTHY,
    TRUSTWORTHY_POINTS,
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
)
from fairysim.sim.policy import MAX_WEIGHTS
from fairysim.sim.rng import DEAL_STREAM, FIRST_POLICY_STREAM, new_stream, randint, shuffle_prefix


@dataclass
class Player:
    """One orchestra at the table (Pahha too, with no policy)."""

    seat: int
    policy: object = None
    weights: np.ndarray | None = None
    rng: np.ndarray | None = None
    hand: Counter = field(default_factory=Counter)
    orchestra: Counter = field(default_factory=Counter)
    score_cards: list[int] = field(default_factory=list)  # in the order gained
    dealt: list[int] = field(default_factory=list)  # setup cards not chosen yet
    kept: int | None = None  # setup card chosen this step, not yet revealed


@dataclass
class GameState:
    """The whole table of one game."""

    game: int
    players_count: int
    players: list[Player]
    bag: list[int]  # top token = last element
    pile: list[int]  # top score card = last element
    discard: list[int]
    public: list[int]  # what everyone sees of each score card
    popularity: int
    soloist: int
    pianist: np.ndarray
    harpist: np.ndarray
    tokens: np.ndarray
    need: np.ndarray
    deal_rng: np.ndarray
    removed: Counter = field(default_factory=Counter)
    pianist_card: int = 0
    harpist_card: int = 0
    log: list | None = field(default=None, repr=False)  # event records for a replay, or None
    forced: tuple[int, int] | None = None  # card effects (PC5): exchange_forced_card's answer
    standings: list | None = field(default=None, repr=False)  # PC6: scores after each round


def shuffled(rng: np.ndarray, items: list[int]) -> list[int]:
    """``items`` shuffled with the engines' Fisher-Yates."""
    array = np.array(items, dtype=np.int64)
    shuffle_prefix(rng, array, len(array))
    return [int(x) for x in array]


def setup_game(setup, game: int) -> GameState:
    """Setup (rulebook "Setup", rulings C1, C2, C8), in the engine's order of draws."""
    cards = setup.cards
    deal_rng = new_stream(setup.seed, game, DEAL_STREAM)
    seats = 2 if setup.players == 1 else setup.players
    players = []
    for seat in range(seats):
        if seat < setup.players:
            policy = setup.policies[seat]
            weights = np.zeros(MAX_WEIGHTS, dtype=np.float64)
            weights[: len(policy.weights)] = policy.weights
            rng = new_stream(setup.seed, game, FIRST_POLICY_STREAM + seat)
            players.append(Player(seat, policy.function, weights, rng))
        else:
            players.append(Player(seat))  # Pahha
    # 2. shuffle the score cards
    pile = shuffled(deal_rng, list(range(N_SCORE_CARDS)))
    # 5. contest cards: one soloist, pianist and harpist at random (always drawn)
    fixed = setup.fixed_setup()
    drawn = [int(randint(deal_rng, 4)), int(randint(deal_rng, 3)), int(randint(deal_rng, 3))]
    soloist, pianist, harpist = (
        d if f < 0 else int(f) for d, f in zip(drawn, fixed[:3], strict=True)
    )
    # 7. all fairy tokens into the bag
    bag = shuffled(deal_rng, [k for k in range(N_KINDS) for _ in range(int(cards.tokens[k]))])
    # 8. the popularity token is drawn first (C2)
    popularity = bag.pop()
    state = GameState(
        game,
        setup.players,
        players,
        bag,
        pile,
        [],
        [CARD_UNSEEN] * N_SCORE_CARDS,
        popularity,
        soloist,
        cards.pianist_sets[pianist],
        cards.harpist_sets[harpist],
        cards.tokens,
        cards.score_need,
        deal_rng,
        Counter(),
        pianist,
        harpist,
    )
    if setup.forced_card:
        state.forced = exchange_forced_card(
            pile, setup.players, setup.forced_card - 1, setup.forced_seat
        )
    # deal 2 score cards to each player; solo: Pahha 1 face down
    for player in players[: setup.players]:
        player.dealt = [draw_card(state), draw_card(state)]
    if setup.players == 1:
        players[PAHHA].score_cards.append(draw_card(state))
    return state


def exchange_forced_card(pile: list[int], players: int, card: int, seat: int) -> tuple[int, int]:
    """A card-effect intervention (ruling PC5): put score card ``card`` in ``seat``'s reach.

    Before the setup deal, if ``card`` lies where the deal does not reach it (not among the two
    cards of any player, nor Pahha's face-down card in solo), it changes places with the first
    setup card ``seat`` is to be dealt. Nothing else of the pile moves.

    Parameters
    ----------
    pile : list of int
        The shuffled score-card pile, top card last; changed in place.
    players : int
        Players dealt two cards each from the top, seat 0 first (solo: 1, then Pahha one).
    card, seat : int
        The score card's index, and the seat it goes to.

    Returns
    -------
    tuple of int
        1 if the seat is dealt ``card`` anyway; 1 if the exchange was made.
    """
    top = len(pile) - 1
    first = top - 2 * seat
    dealt = 2 * players + (1 if players == 1 else 0)
    where = pile.index(card)
    if where in (first, first - 1):
        return 1, 0
    if where > top - dealt:
        return 0, 0
    pile[where], pile[first] = pile[first], card
    return 0, 1


def draw_card(state: GameState) -> int | None:
    """Top of the score-card pile; an empty pile takes the discard pile sorted and shuffled (C4)."""
    if not state.pile:
        if not state.discard:
            return None
        state.pile = shuffled(state.deal_rng, sorted(state.discard))
        for card in state.pile:
            state.public[card] = CARD_UNSEEN
        state.discard = []
    return state.pile.pop()


def discard(state: GameState, card: int) -> None:
    """A score card goes face up on the discard pile."""
    state.discard.append(card)
    state.public[card] = CARD_DISCARDED


def gain(state: GameState, player: Player, card: int, face_up: bool = True) -> None:
    """``player`` places ``card`` beside its orchestra."""
    player.score_cards.append(card)
    if face_up:
        state.public[card] = player.seat


def seat_view(state: GameState, player: Player, round_: int, step: int, keep: int) -> np.ndarray:
    """What ``player`` may see (ruling C3), laid out as rules.VIEW_FIELDS."""
    view = np.zeros(VIEW_SIZE, dtype=np.int64)
    view[V_PLAYERS] = state.players_count
    view[V_SEAT] = player.seat
    view[V_ROUND] = round_
    view[V_STEP] = step
    view[V_KEEP] = keep
    view[V_POPULARITY] = state.popularity
    view[V_SOLOIST] = state.soloist
    view[V_PIANIST : V_PIANIST + N_KINDS] = state.pianist
    view[V_HARPIST : V_HARPIST + N_KINDS] = state.harpist
    for k in range(N_KINDS):
        view[V_HAND + k] = player.hand[k]
        seen = player.hand[k] + state.removed[k] + (1 if state.popularity == k else 0)
        for other in state.players:
            view[V_ORCHESTRA + other.seat * N_KINDS + k] = other.orchestra[k]
            seen += other.orchestra[k]
        view[V_UNSEEN + k] = int(state.tokens[k]) - seen
    for other in state.players:
        view[V_HELD + other.seat] = len(other.score_cards)
    view[V_PILE] = len(state.pile)
    view[V_CARD_STATE : V_CARD_STATE + N_SCORE_CARDS] = state.public
    for card in player.dealt:
        view[V_CARD_STATE + card] = CARD_OFFERED
    if player.kept is not None:
        view[V_CARD_STATE + player.kept] = player.seat
    view[V_NEED : V_NEED + N_SCORE_CARDS * N_KINDS] = state.need.reshape(-1)
    return view


def record(state: GameState, event: str, **fields: object) -> None:
    """Append the event record ``{"event": event, **fields}`` to ``state.log`` when recording."""
    if state.log is not None:
        state.log.append({"event": event, **fields})


def ask(state, player, decision, choices, view) -> int:
    """Offer the distinct ``choices`` to ``player``'s policy; a single choice is taken unasked."""
    answer = ask_policy(state, player, decision, choices, view)
    record(
        state,
        "decision",
        seat=player.seat,
        decision=DECISIONS[decision],
        choices=[tuple(int(x) for x in c) for c in choices],
        chosen=answer,
        asked=len(choices) > 1,
    )
    return answer


def ask_policy(state, player, decision, choices, view) -> int:
    """The policy's answer (index into ``choices``); a single choice is taken unasked."""
    if len(choices) == 1:
        return 0
    table = np.zeros((MAX_CHOICES, CHOICE_WIDTH), dtype=np.int64)
    for i, choice in enumerate(choices):
        table[i, : len(choice)] = choice
    answer = int(player.policy(decision, view, table, len(choices), player.weights, player.rng))
    if not 0 <= answer < len(choices):
        raise IllegalChoiceError(state.game, player.seat, DECISIONS[decision], answer, len(choices))
    return answer


def distinct_cards(state: GameState, cards: list[int]) -> list[int]:
    """One card per distinct requirement, first one first (RULINGS "Random policy")."""
    out: list[int] = []
    for card in cards:
        if not any((state.need[card] == state.need[c]).all() for c in out):
            out.append(card)
    return out


def choose_setup_card(state: GameState, player: Player, keep: int) -> None:
    """First draft: secretly choose 1 of the 2 setup score cards."""
    choices = distinct_cards(state, player.dealt)
    view = seat_view(state, player, 0, 0, keep) if len(choices) > 1 else None
    player.kept = choices[ask(state, player, KEEP_DEALT_CARD, [(c,) for c in choices], view)]


def reveal_setup_card(state: GameState, player: Player) -> None:
    """The chosen card goes face up beside the orchestra, the other face up on the discard pile."""
    kept = player.kept
    gain(state, player, kept)
    discard(state, player.dealt[1] if player.dealt[0] == kept else player.dealt[0])
    player.dealt = []
    player.kept = None


def composer_joins(state: GameState, player: Player, round_: int, step: int) -> None:
    """C4: draw 2 score cards, keep 1 face up, discard the other."""
    drawn = []
    for _ in range(COMPOSER_DRAW):
        card = draw_card(state)
        if card is None:
            break
        drawn.append(card)
    if not drawn:
        return
    choices = distinct_cards(state, drawn)
    view = None
    if len(choices) > 1:
        view = seat_view(state, player, round_, step, 1)
        for card in drawn:
            view[V_CARD_STATE + card] = CARD_OFFERED
    keep = choices[ask(state, player, KEEP_DRAWN_CARD, [(c,) for c in choices], view)]
    gain(state, player, keep)
    for card in drawn:
        if card != keep:
            discard(state, card)


def draw_hands(state: GameState, count: int) -> None:
    """Each player, in seat order, draws ``count`` tokens from the bag."""
    for player in state.players[: state.players_count]:
        for _ in range(count):
            player.hand[state.bag.pop()] += 1


def pass_left(state: GameState) -> None:
    """Every hand goes to the player on the left (seat + 1)."""
    players = state.players[: state.players_count]
    hands = [p.hand for p in players]
    for i, player in enumerate(players):
        player.hand = hands[i - 1]


def record_round(state: GameState, round_: int) -> None:
    """Each seat's standing at the end of a round (ruling PC6): the score it would have if the
    game ended now, appended to ``state.standings`` when tracing and recorded, with the
    orchestras, in the log when there is one."""
    if state.log is None and state.standings is None:
        return
    scores = [sum(parts.values()) for parts in final_scoring(state)]
    if state.standings is not None:
        state.standings.append(scores)
    record(
        state,
        "round_end",
        round=round_,
        orchestras=[[p.orchestra[k] for k in range(N_KINDS)] for p in state.players],
        scores=scores,
    )


def record_hands(state: GameState, round_: int) -> None:
    """Record the tokens each seat holds at the start of a round."""
    if state.log is not None:
        hands = [[p.hand[k] for k in range(N_KINDS)] for p in state.players[: state.players_count]]
        record(state, "round_start", round=round_, hands=hands)


def play_draft(state: GameState) -> None:
    """3-4 players: two rounds of six simultaneous picks (rulebook "Round Overview")."""
    players = state.players
    for round_ in range(DRAFT_ROUNDS):
        draw_hands(state, HAND_SIZE)
        record_hands(state, round_)
        for step in range(HAND_SIZE):
            first = round_ == 0 and step == 0
            picks = []
            for player in players:  # all choose in secret
                if first:
                    choose_setup_card(state, player, 1)
                kinds = sorted(k for k in player.hand if player.hand[k] > 0)
                view = seat_view(state, player, round_, step, 1) if len(kinds) > 1 else None
                picks.append(kinds[ask(state, player, PICK_TOKEN, [(k,) for k in kinds], view)])
            for player, kind in zip(players, picks, strict=True):  # reveal together
                player.hand[kind] -= 1
                player.orchestra[kind] += 1
                if first:
                    reveal_setup_card(state, player)
            for player, kind in zip(players, picks, strict=True):  # composers from seat 0 (C4)
                if kind == COMPOSER:
                    composer_joins(state, player, round_, step)
            pass_left(state)
        record_round(state, round_)


def play_two_player(state: GameState) -> None:
    """Two-player rules (C7): four rounds; each pick keeps 1 token and removes 1."""
    players = state.players
    for round_ in range(TWO_PLAYER_ROUNDS):
        draw_hands(state, HAND_SIZE)
        record_hands(state, round_)
        for step in range(TWO_PLAYER_PICKS):
            first = round_ == 0 and step == 0
            picks = []
            for player in players:
                if first:
                    choose_setup_card(state, player, 1)
                pairs = [
                    (a, b)
                    for a in range(N_KINDS)
                    for b in range(N_KINDS)
                    if player.hand[a] > 0 and player.hand[b] > (1 if a == b else 0)
                ]
                view = seat_view(state, player, round_, step, 1) if len(pairs) > 1 else None
                picks.append(pairs[ask(state, player, PICK_PAIR, pairs, view)])
            for player, (keep, remove) in zip(players, picks, strict=True):
                player.hand[keep] -= 1
                player.hand[remove] -= 1
                player.orchestra[keep] += 1
                state.removed[remove] += 1  # removed from the game: a composer gives nothing
                if first:
                    reveal_setup_card(state, player)
            for player, (keep, _) in zip(players, picks, strict=True):
                if keep == COMPOSER:
                    composer_joins(state, player, round_, step)
            pass_left(state)
        record_round(state, round_)


def play_solo(state: GameState) -> None:
    """Solo rules (C8): seven rounds by the round table; Pahha takes what you leave."""
    you, pahha = state.players
    for round_, (draw, keep) in enumerate(zip(SOLO_DRAW, SOLO_KEEP, strict=True)):
        for _ in range(draw):
            you.hand[state.bag.pop()] += 1
        record_hands(state, round_)
        if round_ == 0:
            choose_setup_card(state, you, keep)
        hand = [you.hand[k] for k in range(N_KINDS)]
        choices = [combo for combo in product(*(range(n + 1) for n in hand)) if sum(combo) == keep]
        view = seat_view(state, you, round_, 0, keep) if len(choices) > 1 else None
        kept = choices[ask(state, you, SOLO_KEEP_TOKENS, choices, view)]
        for k in range(N_KINDS):
            you.orchestra[k] += kept[k]
            pahha.orchestra[k] += hand[k] - kept[k]
        if round_ == 0:
            reveal_setup_card(state, you)
        you.hand = Counter()
        for _ in range(kept[COMPOSER]):  # yours one at a time
            composer_joins(state, you, round_, 0)
        for _ in range(hand[COMPOSER] - kept[COMPOSER]):  # then Pahha's, face down
            card = draw_card(state)
            if card is not None:
                gain(state, pahha, card, face_up=False)
                record(state, "pahha_card", card=card)
        record_round(state, round_)


def sets(card: np.ndarray, c: list[int]) -> int:
    """Complete sets of a pianist/harpist card (C5)."""
    return min(c[k] // int(card[k]) for k in range(N_KINDS) if card[k] > 0)


def soloist_points(method: int, c: list[int]) -> int:
    """The soloist card's method A-D (C5), as the rulebook words them."""
    present = [x for x in c if x > 0]
    if not present:
        return 0
    if method == TRUSTWORTHY:  # A: 4 per token of the least numerous kind present
        return TRUSTWORTHY_POINTS * min(present)
    if method == POPULAR:  # B: 3 per difference between the most and the fewest
        return POPULAR_POINTS * (max(present) - min(present))
    groups = Counter(present)  # group kinds by how many tokens they have
    if method == MULTITALENTED:  # C: 3 per kind in the group with the most kinds
        return MULTITALENTED_POINTS * max(groups.values())
    return ECCENTRIC_POINTS * len(groups)  # D: 3 per group


def final_scoring(state: GameState) -> list[dict[str, int]]:
    """Rulebook "Final Scoring" (C5, C6) with the solo exception (C8)."""
    scores = []
    for player in state.players:
        c = [player.orchestra[k] for k in range(N_KINDS)]
        parts = {
            "popularity": c[state.popularity],
            "conductor": CONDUCTOR_POINTS * max(c),
            "soloist": soloist_points(state.soloist, c),
            "pianist": POINTS_PER_SET * sets(state.pianist, c),
            "harpist": POINTS_PER_SET * sets(state.harpist, c),
        }
        if state.players_count == 1 and player.seat == PAHHA:
            parts["score_cards"] = PAHHA_POINTS_PER_CARD * len(player.score_cards)
        else:
            parts["score_cards"] = POINTS_PER_SCORE_CARD * sum(
                all(c[k] >= state.need[card][k] for k in range(N_KINDS))
                for card in player.score_cards
            )
        parts["honors"] = 0
        scores.append(parts)
    for contest in ("conductor", "soloist", "pianist", "harpist"):
        best = max(p[contest] for p in scores)
        if best > 0:
            for p in scores:
                if p[contest] == best:
                    p["honors"] += HONOR_POINTS
    return scores


def play_game(setup, game: int, log: list | None = None, trace: bool = False) -> dict:
    """Play game ``game`` of ``setup`` (a :class:`.simulate.ConcertoSetup`).

    ``log``, when given, receives the game's event records (the deal, each decision with its
    choices, each round's orchestras and scores, the final scoring), for :mod:`.narrate`;
    recording changes no draw and no decision. ``trace`` adds ``score_round``: each seat's
    standing after each round of its form (ruling PC6), the last the final score.

    Returns
    -------
    dict
        ``score``, ``parts`` (rows of rules.PART_NAMES), ``rank``, ``win_share``, ``cards_held``,
        ``cards_completed``, ``held_mask``, ``completed_mask``, ``orchestra`` per seat, and the
        setup and bookkeeping values of the game (names as in the engine's Outcome); with
        ``trace``, ``score_round`` (per seat, one score per round).
    """
    state = setup_game(setup, game)
    state.log = log
    state.standings = [] if trace else None
    record(
        state,
        "deal",
        dealt=[list(p.dealt) for p in state.players[: setup.players]],
        pahha_cards=len(state.players[PAHHA].score_cards) if setup.players == 1 else 0,
        popularity=state.popularity,
        soloist=state.soloist,
        pianist=state.pianist_card,
        harpist=state.harpist_card,
    )
    if setup.players == 1:
        play_solo(state)
    elif setup.players == 2:
        play_two_player(state)
    else:
        play_draft(state)
    parts = final_scoring(state)
    score = [sum(p.values()) for p in parts]
    if setup.players == 1:
        you_win = score[0] > score[PAHHA]  # C8: a tie is a loss
        rank = [1, 2] if you_win else [2, 1]
        share = [1.0, 0.0] if you_win else [0.0, 1.0]
    else:
        best = max(score)
        winners = score.count(best)
        rank = [1 + sum(o > s for o in score) for s in score]
        share = [1.0 / winners if s == best else 0.0 for s in score]
    record(
        state,
        "final",
        parts={name: [p[name] for p in parts] for name in PART_NAMES},
        score=score,
        rank=rank,
        win_share=share,
        score_cards=[list(p.score_cards) for p in state.players],
    )
    held, done, held_mask, done_mask, orchestra = [], [], [], [], []
    for player in state.players:
        c = [player.orchestra[k] for k in range(N_KINDS)]
        hm = dm = nd = 0
        for card in player.score_cards:
            hm |= 1 << card
            if not (setup.players == 1 and player.seat == PAHHA) and all(
                c[k] >= state.need[card][k] for k in range(N_KINDS)
            ):
                dm |= 1 << card
                nd += 1
        held.append(len(player.score_cards))
        done.append(nd)
        held_mask.append(hm)
        done_mask.append(dm)
        orchestra.append(c)
    return {
        "score": score,
        "parts": [[p[name] for name in PART_NAMES] for p in parts],
        "rank": rank,
        "win_share": share,
        "cards_held": held,
        "cards_completed": done,
        "held_mask": held_mask,
        "completed_mask": done_mask,
        "orchestra": orchestra,
        "popularity_kind": state.popularity,
        "soloist_card": state.soloist,
        "pianist_card": state.pianist_card,
        "harpist_card": state.harpist_card,
        "bag_left": len(state.bag),
        "tokens_removed": sum(state.removed.values()),
        "pile_left": len(state.pile),
        "discarded": len(state.discard),
        **(
            {"forced_held": state.forced[0], "forced_exchanged": state.forced[1]}
            if state.forced is not None
            else {}
        ),
        **(
            {"score_round": [list(seat) for seat in zip(*state.standings, strict=True)]}
            if trace
            else {}
        ),
    }


def play_games(setup, games: int, first_game: int = 0, trace: bool = False) -> list[dict]:
    """Play ``games`` games from ``first_game`` with the reference engine, which cannot seat
    ``rollout`` (its search runs in the jitted engine only); ``trace`` as in
    :func:`play_game`."""
    assert MAX_SEATS >= 2
    if any(p.builtin_id == ROLLOUT for p in setup.policies):
        raise ParameterError("policies", "the reference engine cannot play rollout")
    return [play_game(setup, g, trace=trace) for g in range(first_game, first_game + games)]
