"""Every worked example of the Fantastique rulebook, in both engines.

The examples follow Suki, Kiano, Emilie and Samir (seats 0, 1, 2, 3, clockwise) through one
round: the reveal, the fans they play, the medals and the stacks they take; then the Grande
Finale examples of the fans I, III, IV, V and VI.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from fairysim.sim.fantastique import engine
from fairysim.sim.fantastique import reference as ref
from fairysim.sim.fantastique.rules import (
    PLAY_FAN,
    TAKE_STACK,
    fan_index,
    finale_count,
    finale_count_of_counts,
    finale_medal_points,
)

from . import (
    CARDS,
    ScriptedPolicy,
    engine_display,
    engine_hand,
    engine_legal_fans,
    engine_play_round,
    engine_stack_choices,
    make_state,
    script_weights,
    set_played,
    table_from_state,
    wanted_policy,
)

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")

SUKI, KIANO, EMILIE, SAMIR = range(4)

# "They reveal a 2 ... Then a 5 ... another 2 ... Then a 4, another 5, then an 8, another 5, and
# as the last card a 7." Two more cards lie below; they must stay in the draw pile.
REVEALED = [2, 5, 2, 4, 5, 8, 5, 7]
DRAW_PILE = [3, 6, *reversed(REVEALED)]  # bottom first: the top card is the last
DISPLAY = [(2, 2), (5, 3), (4, 1), (8, 1), (7, 1)]

# "Suki starts and plays two 4s ... [Kiano] decides on three 4s. Emilie plays a single 8, and
# Samir plays two 1s." Each hand holds a little more, so that there is a choice to make.
HANDS = [[4, 4, 6], [2, 4, 4, 4], [3, 3, 8], [1, 1, 5]]
FANS = [(4, 2), (4, 3), (8, 1), (1, 2)]
# "Emilie ... takes the stack of three 5s ... [Kiano] decides on the two 2s. Suki then takes the
# single 8. Samir goes last and takes the single 7."
STACKS = [(8, 1), (2, 2), (5, 3), (7, 1)]


def example_state() -> ref.GameState:
    policies = [ScriptedPolicy([fan], [stack]) for fan, stack in zip(FANS, STACKS, strict=True)]
    return make_state(HANDS, policies=policies, draw_pile=DRAW_PILE, start_seat=SUKI)


# --- 1. Reveal fan cards -------------------------------------------------------------------------


def test_reveal_example_reference():
    state = example_state()
    ref.reveal_fan_cards(state)
    assert [(s.value, s.size) for s in state.display] == DISPLAY
    assert state.draw_pile == [3, 6], "revealing stops once the fifth stack is started"


def test_reveal_example_engine():
    t = table_from_state(example_state())
    engine.reveal_display(t)
    assert engine_display(t) == DISPLAY
    assert t.counters[engine.N_STACKS] == 5
    assert list(t.pile[: t.counters[engine.PILE_LEN]]) == [3, 6]


# --- 2. Play fans --------------------------------------------------------------------------------


def test_play_example_reference_offers_and_plays():
    state = example_state()
    ref.reveal_fan_cards(state)
    ref.play_fans(state)
    assert [(p.fan.value, p.fan.count) for p in state.players] == FANS
    # Suki, first, may play any fan of her hand.
    suki_offer = state.players[SUKI].policy.offered(PLAY_FAN)[0]
    assert suki_offer == [(4, 1), (4, 2), (6, 1)]
    # "He may play any combination except exactly two 4s."
    kiano_offer = state.players[KIANO].policy.offered(PLAY_FAN)[0]
    assert kiano_offer == [(2, 1), (4, 1), (4, 3)]
    assert state.players[SUKI].hand == Counter({6: 1, 4: 0})
    assert +state.players[KIANO].hand == Counter({2: 1})


def test_kiano_may_not_play_two_fours():
    state = example_state()
    state.players[SUKI].fan = ref.Fan(4, 2)
    played = [p.fan for p in state.players if p.fan is not None]
    assert ref.Fan(4, 2) not in ref.legal_fans(state.players[KIANO].hand, played)
    assert ref.Fan(4, 3) in ref.legal_fans(state.players[KIANO].hand, played)
    t = table_from_state(state)
    set_played(t, SUKI, 4, 2)
    assert engine_legal_fans(t, KIANO, 4) == [(2, 1), (4, 1), (4, 3)]


# --- 3. Distribute medals ------------------------------------------------------------------------


def fans_played_state() -> ref.GameState:
    state = example_state()
    ref.reveal_fan_cards(state)
    ref.play_fans(state)
    return state


def test_medal_example_reference():
    state = fans_played_state()
    gold_winner = ref.distribute_medals(state)
    # Kiano Gold (6), Suki Silver (3; her 4s beat Samir's 1s), Samir Bronze (1), Emilie nothing.
    assert gold_winner is state.players[KIANO]
    assert [p.medals for p in state.players] == [[3], [6], [], [1]]


def test_medal_example_engine():
    state = fans_played_state()
    t = table_from_state(state)
    assert engine.order_for_medals(t, 4, state.start_seat) == 4  # everyone played
    assert list(t.order[:4]) == [KIANO, SUKI, SAMIR, EMILIE]
    engine.award_medals(t, 4, CARDS.medal_values, 4)
    assert list(t.medal_points[:4]) == [3, 6, 0, 1]
    assert list(t.n_medals[:4]) == [1, 1, 0, 1]


# --- 4. Take new fan cards -----------------------------------------------------------------------


def test_stack_taking_example_reference():
    state = fans_played_state()
    gold_winner = ref.distribute_medals(state)
    order = ref.stack_choosing_order(state)
    assert [p.seat for p in order] == [EMILIE, KIANO, SUKI, SAMIR]
    ref.take_new_fan_cards(state)
    assert state.players[EMILIE].policy.offered(TAKE_STACK) == [DISPLAY]
    assert state.players[SAMIR].policy.offered(TAKE_STACK) == [[(4, 1), (7, 1)]]
    assert +state.players[EMILIE].hand == Counter({3: 2, 5: 3})
    assert +state.players[KIANO].hand == Counter({2: 3})
    assert +state.players[SUKI].hand == Counter({6: 1, 8: 1})
    assert +state.players[SAMIR].hand == Counter({5: 1, 7: 1})
    ref.end_round(state, gold_winner)
    # Played fans and the untaken single 4 go to the discard pile; Kiano (Gold) starts next.
    assert Counter(state.discard_pile) == Counter({4: 6, 8: 1, 1: 2})
    assert state.start_seat == KIANO


def test_stack_taking_order_engine():
    state = fans_played_state()
    t = table_from_state(state)
    engine.order_for_stacks(t, 4, state.start_seat)
    assert list(t.order[:4]) == [EMILIE, KIANO, SUKI, SAMIR]
    assert engine_stack_choices(t) == DISPLAY
    t.stack_size[1] = 0  # Emilie took the three 5s, Kiano the two 2s, Suki the single 8
    t.stack_size[0] = 0
    t.stack_size[3] = 0
    assert engine_stack_choices(t) == [(4, 1), (7, 1)]


def test_whole_example_round_in_both_engines():
    """The four phases of the example as one round of each engine give the same table."""
    state = example_state()
    t = table_from_state(state)
    ref.play_round(state)
    error = engine_play_round(t, state, [wanted_policy] * 4, script_weights(FANS, STACKS))
    assert list(error) == [-1, -1, -1, -1]
    for player in state.players:
        assert engine_hand(t, player.seat) == +player.hand
        assert list(t.medals[player.seat, : t.n_medals[player.seat]]) == player.medals
    assert [p.medals for p in state.players] == [[3], [6], [], [1]]
    assert t.counters[engine.START_SEAT] == state.start_seat == KIANO
    assert {v: int(t.discard[v]) for v in range(1, 9) if t.discard[v]} == Counter(
        state.discard_pile
    )
    assert list(t.pile[: t.counters[engine.PILE_LEN]]) == state.draw_pile == [3, 6]


# --- End of the game: Grande Finale --------------------------------------------------------------

FAN_I_HANDS = [[1, 2], [2, 2, 2], [1, 1, 1], [2, 2, 3, 3, 3]]


def test_grande_finale_fan_one_example_reference():
    counts = [ref.grande_finale_count("I", Counter(hand)) for hand in FAN_I_HANDS]
    assert counts == [2, 3, 3, 5]
    # Samir Gold; Kiano and Emilie tie for second, both Silver; Suki nothing.
    assert ref.grande_finale_medals(counts, 20, 10) == [0, 10, 10, 20]


def test_grande_finale_fan_one_example_engine():
    counts = np.array([finale_count("I", hand) for hand in FAN_I_HANDS], dtype=np.int64)
    assert list(counts) == [2, 3, 3, 5]
    points = np.zeros(4, dtype=np.int64)
    finale_medal_points(counts, 4, CARDS.finale_medals, points)
    assert list(points) == [0, 10, 10, 20]


def test_grande_finale_fan_one_example_whole_scoring():
    state = make_state(FAN_I_HANDS, fan="I")
    outcome = ref.grande_finale(state)
    assert list(outcome["finale_points"]) == [0, 10, 10, 20]
    assert list(outcome["rank"]) == [4, 2, 2, 1]
    assert list(outcome["win_share"]) == [0.0, 0.0, 0.0, 1.0]


@pytest.mark.parametrize(
    ("fan", "hand", "expected"),
    [
        ("III", [1, 2, 3, 3, 8, 8], 4),  # 3, 3, 8 and 8
        ("IV", [1, 4, 4, 4, 6, 7], 3),  # 1, 6 and 7
        ("V", [2, 3, 3, 4, 8, 8], 3),  # 2, 8 and 8
        ("VI", [4, 4, 5, 6, 8], 4),  # 4, 4, 5 and 6
    ],
)
def test_grande_finale_fan_examples(fan, hand, expected):
    assert ref.grande_finale_count(fan, Counter(hand)) == expected
    assert finale_count(fan, hand) == expected
    counts = np.bincount(hand, minlength=9).astype(np.int64)
    assert finale_count_of_counts(fan_index(fan), counts) == expected
