"""Rulings F1-F10 (RULINGS.md), each on a constructed case, in both engines where they apply."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from fairysim.sim.fantastique import engine, make_setup, play_chunks
from fairysim.sim.fantastique import reference as ref
from fairysim.sim.fantastique.rules import (
    FANS,
    MAX_PLAYERS,
    PLAY_FAN,
    ROUNDS,
    TAKE_STACK,
    fan_index,
    finale_count,
    finale_count_of_counts,
    finale_medal_points,
    rank_players,
)
from fairysim.sim.rng import shuffle_prefix

from . import (
    CARDS,
    ScriptedPolicy,
    engine_display,
    engine_hand,
    engine_legal_fans,
    engine_play_round,
    make_state,
    script_weights,
    set_played,
    table_from_state,
    wanted_policy,
)

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")


def chi_square(counts: np.ndarray) -> float:
    expected = counts.sum() / len(counts)
    return float(((counts - expected) ** 2 / expected).sum())


def chi_square_bound(categories: int) -> float:
    """A generous bound (about 7 standard deviations above the mean) for a fixed-seed test."""
    df = categories - 1
    return df + 7 * np.sqrt(2 * df)


def assert_same_round_outcome(state: ref.GameState, t) -> None:
    """The reference's table after a round equals the jitted engine's table."""
    for player in state.players:
        assert engine_hand(t, player.seat) == +player.hand, f"hand of seat {player.seat}"
        assert list(t.medals[player.seat, : t.n_medals[player.seat]]) == player.medals
    assert t.counters[engine.START_SEAT] == state.start_seat
    assert list(t.pile[: t.counters[engine.PILE_LEN]]) == state.draw_pile
    discard = Counter({v: int(t.discard[v]) for v in range(1, 9) if t.discard[v]})
    assert discard == Counter(state.discard_pile)


# --- F1: the first start seat --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_f1_first_start_seat_is_uniform(players):
    setup = make_setup(players=players, fan="I", policies="greedy", seed=2024)
    ((_, arrays),) = list(play_chunks(setup, 20_000))
    counts = np.bincount(arrays["start_seat"], minlength=players)
    assert len(counts) == players
    assert chi_square(counts) < chi_square_bound(players), counts


def test_f1_reference_draws_the_same_start_seat():
    setup = make_setup(players=4, fan="I", policies="greedy", seed=99)
    ((_, arrays),) = list(play_chunks(setup, 300))
    seats = [ref.new_game(setup, game).start_seat for game in range(300)]
    assert seats == list(arrays["start_seat"])
    assert chi_square(np.bincount(seats, minlength=4)) < chi_square_bound(4)


# --- F2: revealing -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("revealed", "display", "left"),
    [
        # A fourth 6 starts a new stack, a seventh a third one; the fifth stack ends the reveal.
        ([6, 6, 6, 6, 6, 6, 6, 2, 2, 7, 8], [(6, 3), (6, 3), (6, 1), (2, 2), (7, 1)], [8]),
        # The fifth stack never holds more than one card: the second 5 stays in the pile.
        ([1, 2, 3, 4, 5, 5], [(1, 1), (2, 1), (3, 1), (4, 1), (5, 1)], [5]),
        # A card joins the open stack of its value even when other stacks came between.
        ([3, 1, 3, 2, 1, 3, 3, 4, 3, 8], [(3, 3), (1, 2), (2, 1), (3, 1), (4, 1)], [8, 3]),
    ],
)
def test_f2_reveal(revealed, display, left):
    state = make_state([[], []], draw_pile=list(reversed(revealed)))
    t = table_from_state(state)
    ref.reveal_fan_cards(state)
    assert [(s.value, s.size) for s in state.display] == display
    assert state.draw_pile == left
    engine.reveal_display(t)
    assert engine_display(t) == display
    assert list(t.pile[: t.counters[engine.PILE_LEN]]) == left


# --- F3: running out of cards --------------------------------------------------------------------


def test_f3_empty_draw_pile_reshuffles_the_discard_pile():
    discard = [7, 3, 3, 8, 5, 4, 4, 6, 1]
    state = make_state([[], []], draw_pile=[2, 1], discard_pile=discard, seed=5)
    t = table_from_state(state)
    # The new draw pile: the discard pile laid out by value, shuffled with the deal stream.
    new_pile = np.array(sorted(discard), dtype=np.int64)
    shuffle_prefix(state.deal_rng.copy(), new_pile, len(new_pile))
    ref.reveal_fan_cards(state)
    assert state.discard_pile == []
    assert [(s.value, s.size) for s in state.display][:2] == [(1, 1), (2, 1)]
    revealed = list(new_pile[len(state.draw_pile) :][::-1])
    assert state.draw_pile == list(new_pile[: len(state.draw_pile)])
    assert sum(s.size for s in state.display) == 2 + len(revealed)
    assert Counter(revealed) + Counter([1, 2]) == Counter(
        card for s in state.display for card in [s.value] * s.size
    )
    engine.reveal_display(t)
    assert engine_display(t) == [(s.value, s.size) for s in state.display]
    assert list(t.pile[: t.counters[engine.PILE_LEN]]) == state.draw_pile
    assert not t.discard.any()
    assert list(t.deal_rng) == list(state.deal_rng)


def test_f3_both_piles_empty_leaves_a_short_display():
    # Three players, two cards left anywhere: two stacks, and the last chooser takes nothing.
    hands = [[8], [6], [4]]
    fans = [(8, 1), (6, 1), (4, 1)]
    stacks = [(2, 1), (3, 1), None]
    policies = [ScriptedPolicy([f], [s] if s else []) for f, s in zip(fans, stacks, strict=True)]
    state = make_state(hands, policies=policies, draw_pile=[3, 2])
    t = table_from_state(state)
    ref.play_round(state)
    assert policies[2].offered(TAKE_STACK) == []
    assert +state.players[0].hand == Counter({2: 1})
    assert +state.players[1].hand == Counter({3: 1})
    assert +state.players[2].hand == Counter()
    error = engine_play_round(t, state, [wanted_policy] * 3, script_weights(fans, stacks))
    assert list(error) == [-1] * 4
    assert_same_round_outcome(state, t)
    # Next round: both piles hold the three played cards only, so the display has three stacks.
    ref.reveal_fan_cards(state)
    assert sorted(s.value for s in state.display) == [4, 6, 8]


# --- F4: no legal fan ----------------------------------------------------------------------------


def f4_case():
    # Start seat 1. Seat 1 plays the single 5; seat 2 has an empty hand; seat 3 plays a 2;
    # seat 0 holds only a 5, which is taken: seats 2 and 0 pass.
    hands = [[5], [5, 3], [], [2]]
    fans = [None, (5, 1), None, (2, 1)]
    stacks = [(4, 1), (1, 1), (3, 1), (2, 1)]
    policies = [ScriptedPolicy([f] if f else [], [s]) for f, s in zip(fans, stacks, strict=True)]
    state = make_state(hands, policies=policies, draw_pile=[6, 4, 3, 2, 1], start_seat=1)
    return state, fans, stacks


def test_f4_player_without_legal_fan_passes_reference():
    state, _, _ = f4_case()
    ref.reveal_fan_cards(state)
    ref.play_fans(state)
    assert [p.fan for p in state.players] == [None, ref.Fan(5, 1), None, ref.Fan(2, 1)]
    assert state.players[0].policy.offered(PLAY_FAN) == []  # never asked
    assert state.players[2].policy.offered(PLAY_FAN) == []
    gold = ref.distribute_medals(state)
    assert gold is state.players[1]
    assert [p.medals for p in state.players] == [[], [6], [], [3]]
    # Passers choose after every player who played, in turn order from the start seat.
    assert [p.seat for p in ref.stack_choosing_order(state)] == [1, 3, 2, 0]
    ref.take_new_fan_cards(state)
    assert +state.players[2].hand == Counter({3: 1})
    assert +state.players[0].hand == Counter({5: 1, 4: 1})


def test_f4_player_without_legal_fan_passes_engine():
    state, fans, _ = f4_case()
    t = table_from_state(state)
    set_played(t, 1, 5, 1)
    assert engine_legal_fans(t, 0, 4) == []
    assert engine_legal_fans(t, 2, 4) == []
    # Stacks in display order: 1, 2, 3, 4, 6. Every seat takes the first one left, so the
    # stack a seat ends up with shows its place in the choosing order (1, 3, then 2, 0).
    state, fans, _ = f4_case()
    t = table_from_state(state)
    error = engine_play_round(t, state, [wanted_policy] * 4, script_weights(fans, [None] * 4))
    assert list(error) == [-1] * 4
    assert engine_hand(t, 1) == Counter({3: 1, 1: 1})
    assert engine_hand(t, 3) == Counter({2: 1})
    assert engine_hand(t, 2) == Counter({3: 1})
    assert engine_hand(t, 0) == Counter({5: 1, 4: 1})
    assert list(t.n_medals[:4]) == [0, 1, 0, 1]
    assert t.counters[engine.START_SEAT] == 1


def test_f4_round_agrees_in_both_engines():
    state, fans, stacks = f4_case()
    t = table_from_state(state)
    ref.play_round(state)
    error = engine_play_round(t, state, [wanted_policy] * 4, script_weights(fans, stacks))
    assert list(error) == [-1] * 4
    assert_same_round_outcome(state, t)


# --- F5: medals ----------------------------------------------------------------------------------


def set_fans(state: ref.GameState, fans) -> None:
    for player, fan in zip(state.players, fans, strict=True):
        player.fan = ref.Fan(*fan) if fan else None


def engine_award(t, state: ref.GameState) -> None:
    """Rank the seats who played (by count, then value) and award, as the engine."""
    for p in state.players:
        t.played_value[p.seat] = p.fan.value if p.fan else 0
        t.played_count[p.seat] = p.fan.count if p.fan else 0
    n_played = engine.order_for_medals(t, len(state.players), state.start_seat)
    assert n_played == sum(p.fan is not None for p in state.players)
    engine.award_medals(t, len(state.players), CARDS.medal_values, n_played)


def test_f5_ranking_by_count_then_value():
    state = make_state([[]] * 4)
    set_fans(state, [(8, 1), (1, 2), (5, 2), (3, 3)])
    assert [p.seat for p in ref.medal_ranking(state)] == [3, 2, 1, 0]
    ref.distribute_medals(state)
    assert [p.medals for p in state.players] == [[], [1], [3], [6]]
    t = table_from_state(make_state([[]] * 4))
    engine_award(t, state)
    assert list(t.medal_points[:4]) == [0, 1, 3, 6]


def test_f5_medals_rise_and_an_unawarded_medal_stays():
    rounds = [
        [(1, 1), (2, 1), (3, 1), (4, 1)],  # all four play: Gold 6, Silver 3, Bronze 1
        [(1, 2), None, None, (4, 1)],  # two play: Gold 8, Silver 4; Bronze 2 stays
        [None, (2, 3), (3, 1), (6, 1)],  # three play: Gold 10, Silver 5, Bronze 2
    ]
    expected = [[6, 3, 1], [8, 4], [10, 5, 2]]
    state = make_state([[]] * 4)
    t = table_from_state(state)
    for fans, medals in zip(rounds, expected, strict=True):
        set_fans(state, fans)
        ranking = ref.medal_ranking(state)
        before = [list(p.medals) for p in state.players]
        ref.distribute_medals(state)
        won = [state.players[p.seat].medals[len(before[p.seat]) :] for p in ranking]
        assert [m for w in won for m in w] == medals
        engine_award(t, state)
        assert [int(x) for x in t.medal_points[:4]] == [p.medal_points for p in state.players]
    assert [row.handed_out for row in state.medal_rows] == [3, 3, 2]
    assert list(t.medal_next) == [3, 3, 2]


@pytest.mark.parametrize("players", [2, 3])
def test_f5_no_bronze_with_two_or_three_players(players):
    state = make_state([[]] * players)
    set_fans(state, [(1, 1), (2, 1), (3, 1)][:players])
    ref.distribute_medals(state)
    assert sorted(len(p.medals) for p in state.players) == [0] * (players - 2) + [1, 1]
    t = table_from_state(make_state([[]] * players))
    engine_award(t, state)
    assert sorted(t.n_medals[:players]) == [0] * (players - 2) + [1, 1]
    assert t.medal_next[2] == 0


# --- F6: who chooses a stack when ----------------------------------------------------------------


def test_f6_stack_order_value_then_count_then_passers():
    state = make_state([[]] * 5, start_seat=3)
    set_fans(state, [(3, 2), (6, 1), (3, 1), None, (6, 3)])
    # Value, then count, both descending; then passers clockwise from the start seat (3).
    assert [p.seat for p in ref.stack_choosing_order(state)] == [4, 1, 0, 2, 3]
    t = table_from_state(state)
    engine.order_for_stacks(t, 5, state.start_seat)
    assert list(t.order[:5]) == [4, 1, 0, 2, 3]


def test_f6_passers_choose_in_turn_order_from_the_start_seat():
    state = make_state([[]] * 5, start_seat=2)
    set_fans(state, [None, (6, 1), None, None, (2, 2)])
    # Seats 1 and 4 played; the passers follow clockwise from seat 2: 2, 3, then 0.
    assert [p.seat for p in ref.stack_choosing_order(state)] == [1, 4, 2, 3, 0]
    t = table_from_state(state)
    engine.order_for_stacks(t, 5, state.start_seat)
    assert list(t.order[:5]) == [1, 4, 2, 3, 0]


def test_f6_full_round_each_takes_one_whole_stack():
    # Start seat 0. Fans (3,2), (6,1), (3,1), (6,3); seat 4 holds only a 6 and passes.
    hands = [[3, 3], [6], [3], [6, 6, 6], [6]]
    fans = [(3, 2), (6, 1), (3, 1), (6, 3), None]
    revealed = [1, 1, 2, 4, 5, 7]
    state = make_state(hands, draw_pile=list(reversed(revealed)))
    t = table_from_state(state)
    # Every seat takes the first stack left: the stacks, in display order, go to the seats in
    # choosing order 3, 1, 0, 2, 4.
    error = engine_play_round(t, state, [wanted_policy] * 5, script_weights(fans, [None] * 5))
    assert list(error) == [-1] * 4
    assert [engine_hand(t, seat) for seat in (3, 1, 0, 2, 4)] == [
        Counter({1: 2}),
        Counter({2: 1}),
        Counter({4: 1}),
        Counter({5: 1}),
        Counter({6: 1, 7: 1}),
    ]
    stacks = [(4, 1), (2, 1), (5, 1), (1, 2), (7, 1)]
    policies = [ScriptedPolicy([f] if f else [], [s]) for f, s in zip(fans, stacks, strict=True)]
    state = make_state(hands, policies=policies, draw_pile=list(reversed(revealed)))
    ref.play_round(state)
    assert [+state.players[seat].hand for seat in (3, 1, 0, 2, 4)] == [
        Counter({1: 2}),
        Counter({2: 1}),
        Counter({4: 1}),
        Counter({5: 1}),
        Counter({6: 1, 7: 1}),
    ]
    # The stack offers shrink as stacks are taken (display order, taken ones gone).
    assert policies[4].offered(TAKE_STACK) == [[(7, 1)]]
    assert policies[3].offered(TAKE_STACK) == [[(1, 2), (2, 1), (4, 1), (5, 1), (7, 1)]]
    # Played fans go to the discard pile; every stack was taken.
    assert Counter(state.discard_pile) == Counter({3: 3, 6: 4})


def test_f6_identical_stacks_are_one_choice():
    state = make_state([[]] * 2, display=[(4, 3), (4, 3), (4, 1), (2, 1), (4, 3)])
    assert ref.stack_choices(state.display) == [(4, 3), (4, 1), (2, 1)]
    t = table_from_state(state)
    n = engine.stack_choices(t)
    assert [tuple(t.choices[i]) for i in range(n)] == [(4, 3), (4, 1), (2, 1)]


# --- F7: who starts the next round ---------------------------------------------------------------


def test_f7_gold_winner_starts_next_round():
    # The Gold winner (most cards) is neither the start seat nor the first to choose a stack.
    hands = [[8], [2, 2, 2], [5, 5]]
    fans = [(8, 1), (2, 3), (5, 2)]
    state = make_state(hands, draw_pile=[1, 2, 3, 4, 6], start_seat=2)
    t = table_from_state(state)
    error = engine_play_round(t, state, [wanted_policy] * 3, script_weights(fans, [None] * 3))
    assert list(error) == [-1] * 4
    assert t.counters[engine.START_SEAT] == 1
    policies = [ScriptedPolicy([f], [(6, 1)]) for f in fans]
    policies[1].script[TAKE_STACK] = [(3, 1)]
    policies[2].script[TAKE_STACK] = [(4, 1)]
    state = make_state(hands, policies=policies, draw_pile=[1, 2, 3, 4, 6], start_seat=2)
    ref.play_round(state)
    assert state.start_seat == 1


def test_f7_without_gold_the_start_seat_stays():
    state = make_state([[], [], []], draw_pile=[1, 2, 3, 4, 6], start_seat=2)
    t = table_from_state(state)
    error = engine_play_round(t, state, [wanted_policy] * 3, script_weights([None] * 3, [None] * 3))
    assert list(error) == [-1] * 4
    assert t.counters[engine.START_SEAT] == 2
    assert list(t.n_medals[:3]) == [0, 0, 0]
    # Nobody played: everyone chooses as a passer, clockwise from the start seat (2, 0, 1).
    assert [engine_hand(t, seat) for seat in (2, 0, 1)] == [
        Counter({6: 1}),
        Counter({4: 1}),
        Counter({3: 1}),
    ]
    policies = [ScriptedPolicy([], [stack]) for stack in [(4, 1), (3, 1), (6, 1)]]
    state = make_state([[], [], []], policies=policies, draw_pile=[1, 2, 3, 4, 6], start_seat=2)
    ref.play_round(state)
    assert state.start_seat == 2
    assert all(p.medals == [] for p in state.players)
    assert_same_round_outcome(state, t)


# --- F8: Grande Finale counts --------------------------------------------------------------------

F8_CASES = [
    # fan, hand, count
    *[(fan, [], 0) for fan in FANS],  # an empty hand scores nothing on any fan
    ("I", [1, 1, 2, 3, 4, 8], 4),
    ("I", [4, 5, 6], 0),
    ("II", [5, 6, 7, 7, 8], 4),
    ("III", [4, 4], 2),  # fewer than two values held
    ("III", [1, 1, 2, 2, 3, 3], 4),  # ties among the largest counts
    ("III", [1, 5, 5, 5, 7, 7, 8], 5),
    ("IV", [4, 4], 0),
    ("IV", [1, 1, 2, 2, 3], 3),  # tied largest counts: one of them is subtracted
    ("V", [5, 5, 5], 3),  # highest and lowest are the same value: counted once
    ("V", [1, 8], 2),
    ("V", [1, 1, 4, 4, 4, 8], 3),
    ("VI", [1, 2, 2, 2, 5, 6], 4),  # two runs of two values: the one with more cards
    ("VI", [1, 1, 1, 1, 3, 4, 5], 3),  # more values beats more cards
    ("VI", [1, 2, 4, 5, 5, 7, 8], 3),
    ("VI", [7], 1),
    ("VI", [1, 2, 3, 4, 5, 6, 7, 8, 8], 9),
    ("VI", [2, 2, 4, 4, 6, 6, 8], 2),  # no run longer than one value: the most cards
]


@pytest.mark.parametrize(("fan", "hand", "expected"), F8_CASES)
def test_f8_grande_finale_counts(fan, hand, expected):
    assert ref.grande_finale_count(fan, Counter(hand)) == expected
    assert finale_count(fan, hand) == expected


def test_f8_reference_and_jitted_counts_agree_on_random_hands():
    rng = np.random.default_rng(8)
    for _ in range(3000):
        counts = np.zeros(9, dtype=np.int64)
        counts[1:] = rng.integers(0, 4, size=8) * (rng.random(8) < 0.6)
        hand = Counter({v: int(counts[v]) for v in range(1, 9)})
        for fan in FANS:
            assert ref.grande_finale_count(fan, hand) == finale_count_of_counts(
                fan_index(fan), counts
            ), (
                fan,
                counts,
            )


# --- F9: Grande Finale medals --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        ([5, 5, 3, 3, 0], [20, 20, 10, 10, 0]),  # ties for Gold and for Silver
        ([6, 3, 1], [20, 10, 0]),
        ([2, 2], [20, 20]),  # everybody tied for Gold: no Silver
        ([4, 0, 0], [20, 0, 0]),  # a count of 0 earns no Silver
        ([0, 0, 0, 0], [0, 0, 0, 0]),  # nor Gold
        ([1, 3, 3, 2, 1], [0, 20, 20, 10, 0]),  # Silver goes below Gold even after a tie
    ],
)
def test_f9_grande_finale_medals(counts, points):
    assert ref.grande_finale_medals(counts, 20, 10) == points
    out = np.full(len(counts), -1, dtype=np.int64)
    finale_medal_points(np.array(counts, dtype=np.int64), len(counts), CARDS.finale_medals, out)
    assert list(out) == points


# --- F10: the winner -----------------------------------------------------------------------------

F10_CASES = [
    # totals, medals per seat, ranks, win shares
    ([20, 20, 15], [[10, 6, 4], [12, 8], [15]], [2, 1, 3], [0, 1, 0]),  # highest medal decides
    ([20, 20], [[10, 6, 4], [10, 8, 2]], [2, 1], [0, 1]),  # then the next highest
    ([10, 10], [[6, 4], [6]], [1, 2], [1, 0]),  # who runs out of medals first is behind
    ([16, 16, 3], [[10, 6], [10, 6], [3]], [1, 1, 3], [0.5, 0.5, 0]),  # shared win
    ([9, 9, 9], [[9], [9], [9]], [1, 1, 1], [1 / 3, 1 / 3, 1 / 3]),
    ([30, 12, 12, 5], [[18], [6, 4, 2], [8, 4], [5]], [1, 3, 2, 4], [1, 0, 0, 0]),
    ([0, 0], [[], []], [1, 1], [0.5, 0.5]),
]


@pytest.mark.parametrize(("totals", "medals", "ranks", "shares"), F10_CASES)
def test_f10_ranks_and_win_shares(totals, medals, ranks, shares):
    got_ranks, got_shares = ref.rank_with_tiebreak(totals, medals)
    assert got_ranks == ranks
    assert got_shares == pytest.approx(shares)
    n = len(totals)
    table = np.zeros((MAX_PLAYERS, ROUNDS), dtype=np.int64)
    for seat, won in enumerate(medals):
        table[seat, : len(won)] = sorted(won, reverse=True)
    rank_out = np.zeros(n, dtype=np.int64)
    share_out = np.zeros(n, dtype=np.float64)
    n_medals = np.array([len(m) for m in medals] + [0] * (MAX_PLAYERS - n), dtype=np.int64)
    rank_players(np.array(totals, dtype=np.int64), table, n_medals, n, rank_out, share_out)
    assert list(rank_out) == ranks
    assert list(share_out) == pytest.approx(shares)


def test_f10_in_the_grande_finale_finale_medals_do_not_break_ties():
    # Seat 0: medals 10 + 6 = 16 and no finale medal; seat 1: medal 6 and the Silver finale
    # medal (10) = 16. Tied on 16: the round medals decide (10 beats 6), not the finale medal.
    state = make_state([[4, 5], [1, 2, 3]], fan="I", medals=[[10, 6], [6]])
    outcome = ref.grande_finale(state)
    assert list(outcome["finale_points"]) == [0, 20]
    state = make_state([[4, 5, 1], [1, 2, 3]], fan="I", medals=[[10, 6], [6]])
    outcome = ref.grande_finale(state)
    assert list(outcome["finale_points"]) == [10, 20]
    assert list(outcome["score"]) == [26, 26]
    assert list(outcome["rank"]) == [1, 2]
    assert list(outcome["win_share"]) == [1.0, 0.0]
    assert list(outcome["pre_finale_rank"]) == [1, 2]
