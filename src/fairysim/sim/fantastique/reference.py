"""Fantastique as the rulebook tells it: the plain-Python reference engine.

One module past 600 lines: the whole rulebook in one place, in its order, so that it reads
as the specification it is.

This module is the specification in code. It follows ``rules/fantastique.txt`` phase by phase
(Setup; then 7 rounds of *Reveal fan cards*, *Play fans*, *Distribute medals*, *Take new fan
cards*; then the *Grande Finale*) and cites the rulings of ``RULINGS.md`` (``# ruling F4``)
wherever the rulebook needed one. There is no numba in its own code: it is meant to be read.

It is also the oracle of the jitted engine (:mod:`.engine`). Both engines draw every random
number from the same counter-based streams (:mod:`fairysim.sim.rng`, whose jitted functions are
called here from Python), in the same order, offer every decision to the same policy functions
with the same view and the same list of choices in the same order, so for the same seed and
policies they must produce identical results game by game:

- the deal stream of game ``g`` is stream ``DEAL_STREAM``; the deck is laid out in ascending
  value order and shuffled with ``shuffle_prefix``; the top of the draw pile is its *last*
  card; seat 0 is dealt 10 cards from the top, then seat 1, and so on; then the start seat of
  round 1 is drawn with ``randint(deal, players)`` (ruling F1);
- a reshuffle (ruling F3) lays the discard pile out in ascending value order and shuffles it
  with the same deal stream;
- seat ``s`` asks its policy with its own stream ``FIRST_POLICY_STREAM + s``;
- fans are offered in ascending value, then ascending count; stacks are offered as the distinct
  ``(value, size)`` pairs of the stacks still on the table, in display order, and choosing one
  takes the first such stack.

Public entry points: :func:`play_game`, :func:`play_games` and :func:`play_game_state`.
The phase functions (:func:`reveal_fan_cards`, :func:`play_fans`, :func:`distribute_medals`,
:func:`take_new_fan_cards`, :func:`end_round`, :func:`grande_finale`) work on a
:class:`GameState` that tests may also build by hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from fairysim.runtime.errors import CardFileError, IllegalChoiceError
from fairysim.sim.batch import check_games
from fairysim.sim.fantastique.rules import (
    BRONZE_MIN_PLAYERS,
    DECISIONS,
    DISPLAY_STACKS,
    FANS,
    HAND_SIZE,
    MAX_CHOICES,
    MEDAL_ROWS,
    N_VALUES,
    PLAY_FAN,
    ROUNDS,
    STACK_LIMIT,
    TAKE_STACK,
    V_DISCARD,
    V_DRAW_PILE,
    V_FAN,
    V_HAND,
    V_HAND_SIZE,
    V_MEDAL_POINTS,
    V_NEXT_MEDAL,
    V_PLAYED_COUNT,
    V_PLAYED_VALUE,
    V_PLAYERS,
    V_ROUND,
    V_SEAT,
    V_STACK_SIZE,
    V_STACK_VALUE,
    V_START_SEAT,
    VIEW_SIZE,
    fan_index,
)
from fairysim.sim.fantastique.setup import FORCED_COLUMNS, FantastiqueSetup
from fairysim.sim.fantastique.spec import SEAT_COLUMNS
from fairysim.sim.policy import MAX_WEIGHTS
from fairysim.sim.rng import (
    DEAL_STREAM,
    FIRST_POLICY_STREAM,
    new_stream,
    randint,
    shuffle_prefix,
)
from fairysim.sim.search import refuse_unsearched

VALUES = range(1, N_VALUES + 1)
"""The printed fan-card values, 1..8."""

PolicyFunction = Callable[[int, np.ndarray, np.ndarray, int, np.ndarray, np.ndarray], int]
"""``policy(decision, view, choices, n_choices, weights, rng) -> index`` (see
:mod:`fairysim.sim.policy`); a compiled policy or, in tests, any Python function."""


# --- The components on the table ----------------------------------------------------------------


@dataclass(frozen=True)
class Fan:
    """A fan: ``count`` cards of the same ``value`` (ruling F4)."""

    value: int
    count: int


@dataclass
class Stack:
    """An open stack of the display: ``size`` cards of one ``value`` (ruling F2)."""

    value: int
    size: int = 1
    taken: bool = False


@dataclass
class MedalRow:
    """One row of medals (gold, silver or bronze), handed out from its lowest value upward.

    Attributes
    ----------
    name : str
        ``"gold"``, ``"silver"`` or ``"bronze"``.
    values : list of int
        The row's medals in the order they are handed out (ruling F5).
    handed_out : int
        How many of them have been awarded so far.
    """

    name: str
    values: list[int]
    handed_out: int = 0

    @property
    def next_medal(self) -> int:
        """Points of the medal this row awards next; 0 once all its medals are handed out."""
        return self.values[self.handed_out] if self.handed_out < len(self.values) else 0

    def award(self) -> int:
        """Hand out the lowest remaining medal of the row and return its points (ruling F5)."""
        points = self.values[self.handed_out]
        self.handed_out += 1
        return points


@dataclass
class Player:
    """One seat at the table.

    Attributes
    ----------
    seat : int
        0..players-1; clockwise is seat + 1.
    policy : callable
        Decides for this seat: ``policy(decision, view, choices, n_choices, weights, rng)``.
    weights : float64[MAX_WEIGHTS]
        The policy's tunable weights.
    rng : uint64[2]
        The seat's own random stream (``FIRST_POLICY_STREAM + seat``).
    hand : Counter
        Cards in hand, count by value.
    medals : list of int
        Points of the medals won, in the order won (the last one is on top).
    fan : Fan or None
        The fan played this round; None before playing or when the player had no legal fan.
    """

    seat: int
    policy: PolicyFunction
    weights: np.ndarray
    rng: np.ndarray
    hand: Counter = field(default_factory=Counter)
    medals: list[int] = field(default_factory=list)
    fan: Fan | None = None

    @property
    def medal_points(self) -> int:
        """Points of the medals won so far (Grande Finale medals excluded)."""
        return sum(self.medals)

    @property
    def hand_size(self) -> int:
        """Number of cards in hand."""
        return sum(self.hand.values())


@dataclass
class GameState:
    """Everything on the table during one game.

    Attributes
    ----------
    game : int
        The game's index in its run (named by errors).
    fan : str
        The Grande Finale fan side in play, ``"I"`` .. ``"VI"``.
    players : list of Player
        Indexed by seat.
    deal_rng : uint64[2]
        The game's rule stream (``DEAL_STREAM``): shuffles and the first start seat.
    draw_pile : list of int
        Face-down card values; the top card is the last element.
    discard_pile : list of int
        Discarded card values (order irrelevant: a reshuffle sorts them first).
    medal_rows : list of MedalRow
        The rows in play: gold and silver, plus bronze with 4 or 5 players.
    finale_medals : tuple of int
        Points of the Gold and the Silver Grande Finale medal.
    start_seat : int
        Who plays the first fan this round.
    first_seat : int
        Who started round 1 (ruling F1).
    round : int
        0-based number of the round being played.
    display : list of Stack
        This round's open stacks, in the order they were started.
    medal_points_after_round : list of list of int
        Each seat's medal points after each finished round.
    forced : tuple of int, optional
        Under a card-effect intervention, what :func:`exchange_forced_card` returned.
    log : list or None
        Where the phases append plain event records (dicts) for a replay; None records nothing
        (see :func:`record`). Recording changes no draw and no decision.
    """

    game: int
    fan: str
    players: list[Player]
    deal_rng: np.ndarray
    draw_pile: list[int]
    discard_pile: list[int]
    medal_rows: list[MedalRow]
    finale_medals: tuple[int, int]
    start_seat: int = 0
    first_seat: int = 0
    round: int = 0
    display: list[Stack] = field(default_factory=list)
    medal_points_after_round: list[list[int]] = field(default_factory=list)
    log: list | None = field(default=None, repr=False)
    forced: tuple[int, int] | None = None

    @property
    def total_cards(self) -> int:
        """Fan cards anywhere: hands, draw pile, discard pile and display."""
        return (
            sum(p.hand_size for p in self.players)
            + len(self.draw_pile)
            + len(self.discard_pile)
            + sum(s.size for s in self.display if not s.taken)
            + sum(p.fan.count for p in self.players if p.fan is not None)
        )


# --- Setup --------------------------------------------------------------------------------------


def shuffled(cards: Iterable[int], rng: np.ndarray) -> list[int]:
    """The cards laid out in ascending value order, then shuffled with the stream ``rng``.

    Parameters
    ----------
    cards : iterable of int
        Card values, in any order.
    rng : uint64[2]
        The stream to draw from (advanced in place).

    Returns
    -------
    list of int
        The shuffled pile; its top card is the last element.
    """
    pile = np.array(sorted(cards), dtype=np.int64)
    shuffle_prefix(rng, pile, len(pile))
    return [int(card) for card in pile]


def new_game(setup: FantastiqueSetup, game: int) -> GameState:
    """Setup: medal rows, shuffle, deal 10 cards to each seat, draw who starts (ruling F1).

    Parameters
    ----------
    setup : FantastiqueSetup
        Players, fan, policies, seed and card data.
    game : int
        Index of the game; with the seed it fixes every random draw.

    Returns
    -------
    GameState
        The table ready for round 1.

    Raises
    ------
    CardFileError
        If the deck holds too few cards to deal every hand.
    FairysimError
        Naming ``--policy`` for a lineup that seats ``rollout`` (the fast engine's search).
    """
    refuse_unsearched(setup.policies)
    cards = setup.cards
    deal_rng = new_stream(setup.seed, game, DEAL_STREAM)
    players = []
    for seat, seat_policy in enumerate(setup.policies):
        weights = np.zeros(MAX_WEIGHTS, dtype=np.float64)
        weights[: len(seat_policy.weights)] = seat_policy.weights
        rng = new_stream(setup.seed, game, FIRST_POLICY_STREAM + seat)
        players.append(Player(seat, seat_policy.function, weights, rng))
    # Lay out gold and silver; bronze only with 4 or 5 players.
    rows_in_play = len(MEDAL_ROWS) if setup.players >= BRONZE_MIN_PLAYERS else len(MEDAL_ROWS) - 1
    medal_rows = [
        MedalRow(name, [int(v) for v in cards.medal_values[row]])
        for row, name in enumerate(MEDAL_ROWS[:rows_in_play])
    ]
    # Shuffle all fan cards and deal 10 hand cards to each player, seat 0 first.
    deck = [value for value in VALUES for _ in range(int(cards.deck_counts[value]))]
    if len(deck) < HAND_SIZE * setup.players:
        raise CardFileError(
            cards.source,
            f"{len(deck)} fan cards cannot deal {HAND_SIZE} to each of {setup.players} players",
        )
    draw_pile = shuffled(deck, deal_rng)
    forced = None
    if setup.forced_card:
        forced = exchange_forced_card(
            draw_pile, setup.players, setup.forced_card, setup.forced_seat
        )
    for player in players:
        for _ in range(HAND_SIZE):
            player.hand[draw_pile.pop()] += 1
    # ruling F1: round 1 is started by a seat drawn uniformly at random.
    start_seat = int(randint(deal_rng, setup.players))
    return GameState(
        game=game,
        fan=setup.fan,
        players=players,
        deal_rng=deal_rng,
        draw_pile=draw_pile,
        discard_pile=[],
        medal_rows=medal_rows,
        finale_medals=(int(cards.finale_medals[0]), int(cards.finale_medals[1])),
        start_seat=start_seat,
        first_seat=start_seat,
        forced=forced,
    )


def exchange_forced_card(
    draw_pile: list[int], players: int, card: int, seat: int
) -> tuple[int, int]:
    """A card-effect intervention (ruling PF5): give ``seat`` one more card of value ``card``.

    Before the deal, the first card ``seat`` is to be dealt that is not ``card`` changes places
    with the topmost card of value ``card`` among those that stay in the draw pile. Nothing else
    of the deal moves.

    Parameters
    ----------
    draw_pile : list of int
        The shuffled deck, top card last; changed in place.
    players : int
        Seats dealt, 10 cards each from the top, seat 0 first.
    card, seat : int
        The value forced, and the seat it goes to.

    Returns
    -------
    tuple of int
        How many cards of ``card`` the seat's hand held as shuffled, and 1 if the exchange was
        made (0 if the hand held nothing else, or no such card stays in the draw pile).
    """
    top = len(draw_pile) - 1
    hand_positions = [top - HAND_SIZE * seat - i for i in range(HAND_SIZE)]
    held = sum(draw_pile[i] == card for i in hand_positions)
    given = next((i for i in hand_positions if draw_pile[i] != card), None)
    staying = range(len(draw_pile) - HAND_SIZE * players)
    taken = next((i for i in reversed(staying) if draw_pile[i] == card), None)
    if given is None or taken is None:
        return held, 0
    draw_pile[given], draw_pile[taken] = draw_pile[taken], draw_pile[given]
    return held, 1


# --- What a seat sees, and how it decides --------------------------------------------------------


def seat_view(state: GameState, player: Player) -> np.ndarray:
    """What ``player`` may see, laid out in the named slots of ``rules.VIEW_FIELDS``.

    Parameters
    ----------
    state : GameState
        The table.
    player : Player
        The deciding seat: its own hand is shown, other hands only by their size.

    Returns
    -------
    int64[VIEW_SIZE]
        The view handed to the policy.
    """
    view = np.zeros(VIEW_SIZE, dtype=np.int64)
    view[V_ROUND] = state.round
    view[V_FAN] = fan_index(state.fan)
    view[V_PLAYERS] = len(state.players)
    view[V_SEAT] = player.seat
    view[V_START_SEAT] = state.start_seat
    for value in VALUES:
        view[V_HAND + value] = player.hand[value]
    for i, stack in enumerate(state.display):
        if not stack.taken:  # a taken stack shows as value 0, size 0
            view[V_STACK_VALUE + i] = stack.value
            view[V_STACK_SIZE + i] = stack.size
    for other in state.players:
        if other.fan is not None:
            view[V_PLAYED_VALUE + other.seat] = other.fan.value
            view[V_PLAYED_COUNT + other.seat] = other.fan.count
        view[V_MEDAL_POINTS + other.seat] = other.medal_points
        view[V_HAND_SIZE + other.seat] = other.hand_size
    # A row not in play (bronze with 2-3 players) shows 0, and so does a row whose medals are all
    # handed out (gold during the stack choice of round 7).
    for row, medal_row in enumerate(state.medal_rows):
        view[V_NEXT_MEDAL + row] = medal_row.next_medal
    view[V_DRAW_PILE] = len(state.draw_pile)
    for value, count in Counter(state.discard_pile).items():
        view[V_DISCARD + value] = count
    return view


def ask(state: GameState, player: Player, decision: int, choices: Sequence[tuple[int, int]]) -> int:
    """Offer ``choices`` to the player's policy and return the index it picks.

    Parameters
    ----------
    state : GameState
        The table (for the view, and the game index that errors name).
    player : Player
        The deciding seat.
    decision : int
        ``rules.PLAY_FAN`` or ``rules.TAKE_STACK``.
    choices : sequence of (int, int)
        The legal choices, at least one, in the order the rules offer them.

    Returns
    -------
    int
        An index into ``choices``.

    Raises
    ------
    IllegalChoiceError
        If the policy answers an index outside ``0 .. len(choices) - 1``.
    """
    table = np.zeros((MAX_CHOICES, 2), dtype=np.int64)
    table[: len(choices)] = choices
    answer = int(
        player.policy(
            decision, seat_view(state, player), table, len(choices), player.weights, player.rng
        )
    )
    if not 0 <= answer < len(choices):
        raise IllegalChoiceError(state.game, player.seat, DECISIONS[decision], answer, len(choices))
    record(
        state,
        "decision",
        seat=player.seat,
        decision=DECISIONS[decision],
        choices=[tuple(int(x) for x in c) for c in choices],
        chosen=answer,
        asked=True,
    )
    return answer


def record(state: GameState, event: str, **fields: object) -> None:
    """Append the event record ``{"event": event, **fields}`` to ``state.log`` when recording."""
    if state.log is not None:
        state.log.append({"event": event, "round": state.round, **fields})


def turn_order(state: GameState) -> list[Player]:
    """The players clockwise from this round's start seat.

    Parameters
    ----------
    state : GameState
        The table.

    Returns
    -------
    list of Player
        Start seat first.
    """
    n = len(state.players)
    return [state.players[(state.start_seat + turn) % n] for turn in range(n)]


# --- 1. Reveal fan cards -------------------------------------------------------------------------


def reshuffle_discard_pile(state: GameState) -> bool:
    """Shuffle the discard pile into a new face-down stack (ruling F3).

    Returns
    -------
    bool
        False if the discard pile was empty too (nothing to shuffle).
    """
    if not state.discard_pile:
        return False
    state.draw_pile = shuffled(state.discard_pile, state.deal_rng)
    state.discard_pile = []
    return True


def reveal_fan_cards(state: GameState) -> None:
    """Phase 1: reveal cards one after another until the fifth stack is started.

    A card joins a stack of its value holding fewer than 3 cards, else it starts a new stack, so
    two stacks of one value can exist; revealing stops the moment a fifth stack is started
    (ruling F2). An empty draw pile is replaced by the shuffled discard pile; if both are
    empty, the display keeps the stacks it has (ruling F3).

    Parameters
    ----------
    state : GameState
        The table; changed in place.
    """
    state.display = []
    while len(state.display) < DISPLAY_STACKS:
        if not state.draw_pile and not reshuffle_discard_pile(state):
            break  # ruling F3: both piles are empty
        card = state.draw_pile.pop()
        open_stack = next(
            (s for s in state.display if s.value == card and s.size < STACK_LIMIT), None
        )
        if open_stack is not None:
            open_stack.size += 1
        else:
            state.display.append(Stack(card))
    record(state, "display", stacks=[(s.value, s.size) for s in state.display])


# --- 2. Play fans --------------------------------------------------------------------------------


def legal_fans(hand: Counter, played: Iterable[Fan]) -> list[Fan]:
    """The fans a hand may play (ruling F4), by ascending value, then ascending count.

    Parameters
    ----------
    hand : Counter
        Cards in hand, count by value.
    played : iterable of Fan
        The fans other players already played this round.

    Returns
    -------
    list of Fan
        Every ``(value, count)`` with ``1 <= count <= hand[value]`` that nobody has played yet.
    """
    taken = set(played)
    return [
        Fan(value, count)
        for value in VALUES
        for count in range(1, hand[value] + 1)
        if Fan(value, count) not in taken
    ]


def play_fans(state: GameState) -> None:
    """Phase 2: clockwise from the start seat, each player lays out a fan from their hand.

    Nobody may repeat a (value, count) already played this round; a player with no legal fan
    plays nothing (ruling F4).

    Parameters
    ----------
    state : GameState
        The table; changed in place.

    Raises
    ------
    IllegalChoiceError
        If a policy answers outside its legal choices.
    """
    for player in state.players:
        player.fan = None
    for player in turn_order(state):
        played = [p.fan for p in state.players if p.fan is not None]
        fans = legal_fans(player.hand, played)
        if not fans:
            record(state, "no_fan", seat=player.seat)
            continue  # ruling F4: no legal fan, no medal, chooses a stack late
        fan = fans[ask(state, player, PLAY_FAN, [(f.value, f.count) for f in fans])]
        player.hand[fan.value] -= fan.count
        player.fan = fan


# --- 3. Distribute medals ------------------------------------------------------------------------


def medal_ranking(state: GameState) -> list[Player]:
    """Players who played a fan, by count, then value, both descending (ruling F5).

    (value, count) pairs are unique within a round, so the ranking is strict.

    Parameters
    ----------
    state : GameState
        The table.

    Returns
    -------
    list of Player
        Gold first; players without a fan are left out.
    """
    played = [p for p in turn_order(state) if p.fan is not None]
    return sorted(played, key=lambda p: (p.fan.count, p.fan.value), reverse=True)


def distribute_medals(state: GameState) -> Player | None:
    """Phase 3: Gold to the most cards played, then Silver, then Bronze (4-5 players).

    Each row hands out its lowest remaining medal; a medal nobody earns stays in its row
    (ruling F5).

    Parameters
    ----------
    state : GameState
        The table; the winners' medals are added in place.

    Returns
    -------
    Player or None
        The Gold winner, who starts the next round (ruling F7); None if nobody played.
    """
    ranking = medal_ranking(state)
    for medal_row, player in zip(state.medal_rows, ranking, strict=False):
        player.medals.append(medal_row.award())
        record(state, "medal", seat=player.seat, row=medal_row.name, points=player.medals[-1])
    return ranking[0] if ranking else None


# --- 4. Take new fan cards -----------------------------------------------------------------------


def stack_choosing_order(state: GameState) -> list[Player]:
    """Who chooses a stack when (ruling F6).

    Players who played, by value, then count, both descending; then the players without a fan,
    clockwise from the start seat (ruling F4).

    Parameters
    ----------
    state : GameState
        The table.

    Returns
    -------
    list of Player
        Every player once, first chooser first.
    """
    players = turn_order(state)
    played = sorted(
        (p for p in players if p.fan is not None),
        key=lambda p: (p.fan.value, p.fan.count),
        reverse=True,
    )
    return played + [p for p in players if p.fan is None]


def stack_choices(display: Sequence[Stack]) -> list[tuple[int, int]]:
    """The distinct ``(value, size)`` of the stacks still on the table, in display order.

    Two stacks of the same value and size are one choice (see "Random policy" in RULINGS.md).

    Parameters
    ----------
    display : sequence of Stack
        This round's stacks, in the order they were started.

    Returns
    -------
    list of (int, int)
        The choices offered to the next chooser; empty when no stack is left.
    """
    choices: list[tuple[int, int]] = []
    for stack in display:
        if not stack.taken and (stack.value, stack.size) not in choices:
            choices.append((stack.value, stack.size))
    return choices


def take_new_fan_cards(state: GameState) -> None:
    """Phase 4: in stack-choosing order, each player takes one whole stack into hand (F6).

    When both piles ran dry the display may hold fewer stacks than players; the last players
    then take nothing (ruling F3).

    Parameters
    ----------
    state : GameState
        The table; changed in place.

    Raises
    ------
    IllegalChoiceError
        If a policy answers outside its legal choices.
    """
    for player in stack_choosing_order(state):
        choices = stack_choices(state.display)
        if not choices:
            break  # ruling F3: no stack left
        value, size = choices[ask(state, player, TAKE_STACK, choices)]
        stack = next(s for s in state.display if not s.taken and (s.value, s.size) == (value, size))
        stack.taken = True
        player.hand[value] += size


def end_round(state: GameState, gold_winner: Player | None) -> None:
    """Played fans and untaken stacks go to the discard pile; the Gold winner starts next.

    If nobody won Gold, the start seat stays (ruling F7). Each seat's medal points are
    recorded for the per-round trace.

    Parameters
    ----------
    state : GameState
        The table; changed in place.
    gold_winner : Player or None
        What :func:`distribute_medals` returned.
    """
    for player in state.players:
        if player.fan is not None:
            state.discard_pile.extend([player.fan.value] * player.fan.count)
            player.fan = None
    for stack in state.display:
        if not stack.taken:
            state.discard_pile.extend([stack.value] * stack.size)
    state.display = []
    if gold_winner is not None:
        state.start_seat = gold_winner.seat  # ruling F7
    state.medal_points_after_round.append([p.medal_points for p in state.players])
    record(state, "round_end", scores=state.medal_points_after_round[-1], start=state.start_seat)


def play_round(state: GameState) -> None:
    """One round: the four phases of the rulebook, then the end-of-round clean-up.

    Parameters
    ----------
    state : GameState
        The table; changed in place.
    """
    reveal_fan_cards(state)
    play_fans(state)
    gold_winner = distribute_medals(state)
    take_new_fan_cards(state)
    end_round(state, gold_winner)


# --- End of the game: the Grande Finale ----------------------------------------------------------


def grande_finale_count(fan: str, hand: Counter) -> int:
    """Cards of ``hand`` that the Grande Finale fan ``fan`` counts (ruling F8).

    Parameters
    ----------
    fan : str
        ``"I"`` .. ``"VI"``.
    hand : Counter
        Cards in hand, count by value.

    Returns
    -------
    int
        The number of cards slid up.
    """
    held = {value: hand[value] for value in VALUES if hand[value] > 0}
    if fan == "I":  # all 1s, 2s and 3s
        return sum(held.get(value, 0) for value in (1, 2, 3))
    if fan == "II":  # all 6s, 7s and 8s
        return sum(held.get(value, 0) for value in (6, 7, 8))
    if fan == "III":  # the two values held most (fewer if fewer values are held)
        return sum(sorted(held.values(), reverse=True)[:2])
    if fan == "IV":  # all cards minus the value held most
        return sum(held.values()) - max(held.values(), default=0)
    if fan == "V":  # highest and lowest held value, once if they are the same
        if not held:
            return 0
        extremes = {min(held), max(held)}
        return sum(held[value] for value in extremes)
    if fan == "VI":  # the run of consecutive values with the most values, then the most cards
        runs: list[list[int]] = []
        for value in sorted(held):
            if runs and runs[-1][-1] == value - 1:
                runs[-1].append(value)
            else:
                runs.append([value])
        best = max(runs, key=lambda run: (len(run), sum(held[v] for v in run)), default=[])
        return sum(held[value] for value in best)
    raise ValueError(f"unknown Grande Finale fan {fan!r}; choose one of {', '.join(FANS)}")


def grande_finale_medals(counts: Sequence[int], gold: int, silver: int) -> list[int]:
    """Grande Finale medal points of each seat (ruling F9).

    Every seat with the highest count gets Gold, every seat with the next-highest count below
    it gets Silver (also when several tie for Gold); a count of 0 never earns a medal.

    Parameters
    ----------
    counts : sequence of int
        Each seat's Grande Finale count.
    gold, silver : int
        Points of the Gold and the Silver Grande Finale medal.

    Returns
    -------
    list of int
        Points per seat.
    """
    highest = max(counts)
    below = [c for c in counts if c < highest]
    second = max(below) if below else None
    points = []
    for count in counts:
        if count == 0:
            points.append(0)
        elif count == highest:
            points.append(gold)
        elif count == second:
            points.append(silver)
        else:
            points.append(0)
    return points


def rank_with_tiebreak(
    totals: Sequence[int], medals: Sequence[Sequence[int]]
) -> tuple[list[int], list[float]]:
    """Ranks (1 = winner) and win shares under ruling F10.

    Highest total first; tied totals compare their medals highest first, then the next highest,
    and so on (a player who runs out of medals first is behind); players still tied share the
    rank, and ``k`` tied winners get a win share of ``1/k`` each.

    Parameters
    ----------
    totals : sequence of int
        Each seat's points.
    medals : sequence of sequence of int
        Each seat's round medals (Grande Finale medals excluded), in any order.

    Returns
    -------
    ranks : list of int
        Competition ranks: 1 + the number of seats strictly ahead.
    win_shares : list of float
    """
    keys = [(total, sorted(won, reverse=True)) for total, won in zip(totals, medals, strict=True)]
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    winners = ranks.count(1)
    return ranks, [1.0 / winners if rank == 1 else 0.0 for rank in ranks]


def grande_finale(state: GameState) -> dict[str, np.ndarray]:
    """End of the game: Grande Finale counts and medals, totals, ranks and win shares.

    Parameters
    ----------
    state : GameState
        The table after round 7.

    Returns
    -------
    dict of str to ndarray
        Every column of ``simulate.SEAT_COLUMNS``, shape ``(players,)``.
    """
    players = state.players
    counts = [grande_finale_count(state.fan, p.hand) for p in players]
    finale_points = grande_finale_medals(counts, *state.finale_medals)
    medal_points = [p.medal_points for p in players]
    totals = [m + f for m, f in zip(medal_points, finale_points, strict=True)]
    medals = [p.medals for p in players]
    rank, win_share = rank_with_tiebreak(totals, medals)
    pre_rank, pre_win_share = rank_with_tiebreak(medal_points, medals)
    columns = {
        "score": totals,
        "rank": rank,
        "win_share": win_share,
        "medal_points": medal_points,
        "finale_count": counts,
        "finale_points": finale_points,
        "medals": [len(m) for m in medals],
        "hand_size": [p.hand_size for p in players],
        "pre_finale_rank": pre_rank,
        "pre_finale_win_share": pre_win_share,
    }
    return {
        name: np.array(columns[name], dtype=np.float64 if "win_share" in name else np.int64)
        for name in SEAT_COLUMNS
    }


# --- Whole games ---------------------------------------------------------------------------------


def play_game_state(setup: FantastiqueSetup, game: int, log: list | None = None) -> GameState:
    """Play the 7 rounds of game ``game`` and return the table as it ends.

    Parameters
    ----------
    setup : FantastiqueSetup
        From :func:`fairysim.sim.fantastique.make_setup`.
    game : int
        Index of the game in the run.
    log : list, optional
        Receives the game's event records (the deal, each round's display, decisions and
        medals, the medal points after each round), for :mod:`.narrate`.

    Returns
    -------
    GameState
        Final hands, draw pile, discard pile, medals and the per-round medal points; score it
        with :func:`grande_finale`.

    Raises
    ------
    IllegalChoiceError
        If a policy answers outside its legal choices.
    """
    state = new_game(setup, game)
    state.log = log
    record(
        state,
        "deal",
        hands=[sorted(p.hand.elements()) for p in state.players],
        start=state.start_seat,
        fan=state.fan,
        medal_rows=[(row.name, list(row.values)) for row in state.medal_rows],
        draw_pile=len(state.draw_pile),
    )
    for round_ in range(ROUNDS):
        state.round = round_
        record(state, "round_start", start=state.start_seat)
        play_round(state)
    return state


def play_game(
    setup: FantastiqueSetup, game: int, trace: bool = False, log: list | None = None
) -> dict[str, np.ndarray]:
    """Play game ``game`` of a run and return its outcome, as one game of ``play_chunks``.

    Parameters
    ----------
    setup : FantastiqueSetup
        From :func:`fairysim.sim.fantastique.make_setup`.
    game : int
        Index of the game in the run; with ``setup.seed`` it fixes every draw.
    trace : bool
        Also return ``medal_points_round``: each seat's medal points after each round.
    log : list, optional
        Receives the game's event records, ending with the final scoring (``"final"``).

    Returns
    -------
    dict of str to ndarray
        Each of ``SEAT_COLUMNS`` with shape ``(players,)``; ``start_seat`` (round 1's) and
        ``cards_outside_hands`` (draw pile + discard pile at the end) as ints; with ``trace``,
        ``medal_points_round`` of shape ``(players, 7)``.

    Raises
    ------
    IllegalChoiceError
        If a policy answers outside its legal choices.

    Examples
    --------
    >>> from fairysim.sim.fantastique import make_setup
    >>> outcome = play_game(make_setup(players=3, fan="II", policies="greedy", seed=7), game=0)
    >>> float(outcome["win_share"].sum())
    1.0
    """
    state = play_game_state(setup, game, log)
    outcome: dict = grande_finale(state)
    record(
        state,
        "final",
        hands=[sorted(p.hand.elements()) for p in state.players],
        parts={
            name: [int(x) for x in outcome[name]]
            for name in ("medal_points", "finale_count", "finale_points")
        },
        score=[int(x) for x in outcome["score"]],
        rank=[int(x) for x in outcome["rank"]],
        win_share=[float(x) for x in outcome["win_share"]],
    )
    outcome["start_seat"] = state.first_seat
    outcome["cards_outside_hands"] = len(state.draw_pile) + len(state.discard_pile)
    if state.forced is not None:
        outcome["forced_held"], outcome["forced_exchanged"] = state.forced
    if trace:
        outcome["medal_points_round"] = np.array(
            state.medal_points_after_round, dtype=np.int64
        ).T.copy()
    return outcome


def play_games(
    setup: FantastiqueSetup, games: int, first_game: int = 0, trace: bool = False
) -> dict[str, np.ndarray]:
    """Play games ``first_game .. first_game + games - 1`` one by one, in chunk layout.

    Parameters
    ----------
    setup : FantastiqueSetup
        From :func:`fairysim.sim.fantastique.make_setup`.
    games : int
        Number of games.
    first_game : int
        Index of the first game.
    trace : bool
        Also return ``medal_points_round`` of shape ``(games, players, 7)``.

    Returns
    -------
    dict of str to ndarray
        The arrays one chunk of ``simulate.play_chunks`` yields: ``SEAT_COLUMNS`` of shape
        ``(games, players)``, ``start_seat`` and ``cards_outside_hands`` of shape ``(games,)``.
    """
    games = check_games(games, "games")
    outcomes = [play_game(setup, first_game + i, trace) for i in range(games)]
    names = [*SEAT_COLUMNS, "start_seat", "cards_outside_hands"] + (
        ["medal_points_round"] if trace else []
    )
    if setup.forced_card:
        names += list(FORCED_COLUMNS)
    return {name: np.stack([np.asarray(o[name]) for o in outcomes]) for name in names}
