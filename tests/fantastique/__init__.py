"""Fantastique tests, and the small helpers they share.

The helpers build a table by hand, for the reference engine (:class:`GameState`) and for the
jitted engine (its ``Table`` of arrays), so each rule can be checked on a constructed case in
both engines. Policies of the reference engine may be plain Python callables; the jitted engine
needs compiled ones (see :func:`first_choice_policy` and :func:`last_choice_policy`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from fairysim.sim.fantastique import engine
from fairysim.sim.fantastique.cards import load_cards
from fairysim.sim.fantastique.reference import GameState, MedalRow, Player, Stack
from fairysim.sim.fantastique.rules import (
    BRONZE_MIN_PLAYERS,
    MAX_CHOICES,
    MAX_PLAYERS,
    MEDAL_ROWS,
    N_VALUES,
    PLAY_FAN,
    TAKE_STACK,
    fan_index,
)
from fairysim.sim.policy import MAX_WEIGHTS, policy
from fairysim.sim.rng import FIRST_POLICY_STREAM, new_stream

CARDS = load_cards()
TOTAL_CARDS = CARDS.total_cards


class ScriptedPolicy:
    """A Python policy for the reference engine that plays a script and records its offers.

    ``fans`` and ``stacks`` are the (value, count) / (value, size) answers to give, in order. An
    answer that is not among the offered choices fails the test.
    """

    def __init__(
        self, fans: Sequence[tuple[int, int]] = (), stacks: Sequence[tuple[int, int]] = ()
    ):
        self.script = {PLAY_FAN: list(fans), TAKE_STACK: list(stacks)}
        self.offers: list[tuple[int, list[tuple[int, int]]]] = []
        self.views: list[np.ndarray] = []

    def offered(self, decision: int) -> list[list[tuple[int, int]]]:
        """The choice lists offered so far for one kind of decision."""
        return [choices for kind, choices in self.offers if kind == decision]

    def __call__(self, decision, view, choices, n_choices, weights, rng) -> int:
        offer = [(int(choices[i, 0]), int(choices[i, 1])) for i in range(n_choices)]
        self.offers.append((decision, offer))
        self.views.append(view.copy())
        assert self.script[decision], f"unscripted decision {decision}, offered {offer}"
        wanted = tuple(self.script[decision].pop(0))
        assert wanted in offer, f"{wanted} is not among the offered choices {offer}"
        return offer.index(wanted)


def make_state(
    hands: Sequence[Iterable[int]],
    *,
    policies: Sequence | None = None,
    draw_pile: Sequence[int] = (),
    discard_pile: Sequence[int] = (),
    display: Sequence[tuple[int, int]] = (),
    start_seat: int = 0,
    fan: str = "I",
    medals: Sequence[Sequence[int]] | None = None,
    seed: int = 0,
    game: int = 0,
) -> GameState:
    """A reference :class:`GameState` built by hand.

    ``hands`` are lists of card values, one per seat; ``draw_pile`` lists its cards bottom first
    (the top card is the last); ``display`` is (value, size) per stack.
    """
    players = []
    for seat, hand in enumerate(hands):
        seat_policy = policies[seat] if policies is not None else ScriptedPolicy()
        players.append(
            Player(
                seat,
                seat_policy,
                np.zeros(MAX_WEIGHTS),
                new_stream(seed, game, FIRST_POLICY_STREAM + seat),
                Counter(hand),
                list(medals[seat]) if medals is not None else [],
            )
        )
    rows = len(MEDAL_ROWS) if len(hands) >= BRONZE_MIN_PLAYERS else len(MEDAL_ROWS) - 1
    return GameState(
        game=game,
        fan=fan,
        players=players,
        deal_rng=new_stream(seed, game, 0),
        draw_pile=list(draw_pile),
        discard_pile=list(discard_pile),
        medal_rows=[
            MedalRow(name, [int(v) for v in CARDS.medal_values[row]])
            for row, name in enumerate(MEDAL_ROWS[:rows])
        ],
        finale_medals=(int(CARDS.finale_medals[0]), int(CARDS.finale_medals[1])),
        start_seat=start_seat,
        display=[Stack(value, size) for value, size in display],
    )


def table_from_state(state: GameState):
    """The jitted engine's ``Table`` holding the same position as a reference ``GameState``."""
    t = engine.new_table(TOTAL_CARDS)
    for player in state.players:
        for value in range(1, N_VALUES + 1):
            t.hands[player.seat, value] = player.hand[value]
        if hasattr(t, "hand_size"):
            t.hand_size[player.seat] = player.hand_size
        t.n_medals[player.seat] = len(player.medals)
        t.medals[player.seat, : len(player.medals)] = player.medals
        t.medal_points[player.seat] = player.medal_points
        if player.fan is not None:
            set_played(t, player.seat, player.fan.value, player.fan.count)
    t.pile[: len(state.draw_pile)] = state.draw_pile
    t.counters[engine.PILE_LEN] = len(state.draw_pile)
    for card in state.discard_pile:
        t.discard[card] += 1
    for i, stack in enumerate(state.display):
        t.stack_value[i] = stack.value
        t.stack_size[i] = 0 if stack.taken else stack.size
    t.counters[engine.N_STACKS] = len(state.display)
    t.counters[engine.START_SEAT] = state.start_seat
    for row, medal_row in enumerate(state.medal_rows):
        t.medal_next[row] = medal_row.handed_out
    t.deal_rng[:] = state.deal_rng
    return t


def call_engine(function, **values):
    """Call a jitted engine function, passing each of its parameters by name from ``values``.

    The engine's internals change as it is tuned (a parameter added or dropped); the tests name
    what they know and this fits it to the signature in use.
    """
    code = function.py_func.__code__
    names = code.co_varnames[: code.co_argcount]
    missing = [name for name in names if name not in values]
    if missing:
        raise TypeError(
            f"{function.py_func.__name__} takes {missing}, which the test does not know"
        )
    return function(*(values[name] for name in names))


def set_played(t, seat: int, value: int, count: int) -> None:
    """Record in table ``t`` that ``seat`` played the fan (value, count) this round."""
    t.played_value[seat] = value
    t.played_count[seat] = count
    if hasattr(t, "taken_fans"):  # the engine may keep a bitset of the fans played (F4)
        t.taken_fans[value] |= 1 << count


def engine_legal_fans(t, seat: int, n_players: int) -> list[tuple[int, int]]:
    """``engine.legal_fans`` as a list of (value, count), whichever of its signatures is in use."""
    n = call_engine(engine.legal_fans, t=t, seat=seat, n_players=n_players)
    return [(int(t.choices[i, 0]), int(t.choices[i, 1])) for i in range(n)]


def engine_stack_choices(t) -> list[tuple[int, int]]:
    """``engine.stack_choices`` as a list of (value, size)."""
    n = engine.stack_choices(t)
    return [(int(t.choices[i, 0]), int(t.choices[i, 1])) for i in range(n)]


def engine_display(t) -> list[tuple[int, int]]:
    """The stacks on the engine's table as (value, size), taken ones left out."""
    return [
        (int(t.stack_value[s]), int(t.stack_size[s]))
        for s in range(t.counters[engine.N_STACKS])
        if t.stack_size[s] > 0
    ]


def engine_hand(t, seat: int) -> Counter:
    """The engine's hand of ``seat`` as a Counter (zero counts dropped)."""
    return Counter({v: int(t.hands[seat, v]) for v in range(1, N_VALUES + 1) if t.hands[seat, v]})


def engine_view(t, state: GameState, seat: int) -> np.ndarray:
    """What the jitted engine shows ``seat`` for the position in ``t`` (fill_view + next medals)."""
    values = {
        "t": t,
        "round_": state.round,
        "fan": fan_index(state.fan),
        "n_players": len(state.players),
        "seat": seat,
        "deck_counts": CARDS.deck_counts,
        "medal_values": CARDS.medal_values,
    }
    call_engine(engine.fill_view, **values)
    call_engine(engine.fill_next_medals, **values)
    return t.seat_view.copy()


def empty_choices() -> np.ndarray:
    """A choices array as policies receive it."""
    return np.zeros((MAX_CHOICES, 2), dtype=np.int64)


@policy
def first_choice_policy(decision, view, choices, n_choices, weights, rng):
    """Always the first legal choice: the lowest single card, the first stack on display."""
    return 0


@policy
def last_choice_policy(decision, view, choices, n_choices, weights, rng):
    """Always the last legal choice: all cards of the highest value, the last stack listed."""
    return n_choices - 1


@policy
def wanted_policy(decision, view, choices, n_choices, weights, rng):
    """The choice ``(weights[2 * decision], weights[2 * decision + 1])``; the first choice when
    that is ``(0, 0)``; ``n_choices`` (an illegal answer) when it is not offered.

    Lets a test script one round of the jitted engine through the seats' weights (see
    :func:`script_weights`).
    """
    a = np.int64(weights[2 * decision])
    b = np.int64(weights[2 * decision + 1])
    if a == 0 and b == 0:
        return 0
    for i in range(n_choices):
        if choices[i, 0] == a and choices[i, 1] == b:
            return i
    return n_choices


def script_weights(
    fans: Sequence[tuple[int, int] | None], stacks: Sequence[tuple[int, int] | None]
) -> np.ndarray:
    """Per-seat weights that make :func:`wanted_policy` play ``fans[s]`` and take ``stacks[s]``
    (None: the first choice)."""
    weights = np.zeros((MAX_PLAYERS, MAX_WEIGHTS), dtype=np.float64)
    for seat, fan in enumerate(fans):
        if fan is not None:
            weights[seat, 2 * PLAY_FAN : 2 * PLAY_FAN + 2] = fan
    for seat, stack in enumerate(stacks):
        if stack is not None:
            weights[seat, 2 * TAKE_STACK : 2 * TAKE_STACK + 2] = stack
    return weights


def engine_play_round(t, state: GameState, functions: Sequence, weights: np.ndarray) -> np.ndarray:
    """Run the jitted ``engine.play_round`` on table ``t`` for ``state``'s round and setup.

    Returns the error record: all -1 when every answer was legal, else (seat, decision,
    choice, n_choices).
    """
    padded = tuple(functions) + (functions[0],) * (MAX_PLAYERS - len(functions))
    error = np.full(4, -1, dtype=np.int64)
    call_engine(
        engine.play_round,
        t=t,
        round_=state.round,
        fan=fan_index(state.fan),
        n_players=len(state.players),
        seats=engine.SeatPolicies(
            np.full(MAX_PLAYERS, -1, dtype=np.int64),  # -1: not a built-in, call it
            padded,
            np.ones(MAX_PLAYERS, dtype=np.bool_),  # every seat is shown its view
            weights,
        ),
        medal_values=CARDS.medal_values,
        deck_counts=CARDS.deck_counts,
        error=error,
        search=None,  # no seat searches
    )
    return error
