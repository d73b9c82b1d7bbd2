"""Properties every Fantastique game must have, whichever engine plays it.

Common random numbers, card conservation, the consistency of the outcome columns, and illegal
policy answers (what every game keeps, thread count and chunk size included, is in
``tests/test_game_contract.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
from numba.core.errors import TypingError

from fairysim.runtime.errors import POLICY_RAISED, CardFileError, FairysimError, IllegalChoiceError
from fairysim.sim.batch import join_chunks
from fairysim.sim.fantastique import make_setup, play_chunks
from fairysim.sim.fantastique import reference as ref
from fairysim.sim.fantastique.cards import FantastiqueCards
from fairysim.sim.fantastique.rules import (
    BRONZE_MIN_PLAYERS,
    PLAY_FAN,
    ROUNDS,
    TAKE_STACK,
    V_HAND,
    V_ROUND,
)
from fairysim.sim.fantastique.spec import SEAT_COLUMNS
from fairysim.sim.policy import Policy, policy
from fairysim.sim.rng import randint

from . import CARDS

MIXED = ["balancer", "random", "hoarder", "greedy", "random"]


def run(setup, games: int, **options) -> dict[str, np.ndarray]:
    return join_chunks(play_chunks(setup, games, **options))


# --- Common random numbers (thread count, chunks and seeds: tests/test_game_contract.py) -------


def test_deal_does_not_depend_on_the_policies():
    """Common random numbers: game g is dealt the same whatever the lineup."""
    seats = [
        run(make_setup(players=4, fan="I", policies=lineup, seed=15), 400)["start_seat"]
        for lineup in ("greedy", "random", MIXED[:4])
    ]
    np.testing.assert_array_equal(seats[0], seats[1])
    np.testing.assert_array_equal(seats[0], seats[2])
    a = ref.new_game(make_setup(players=4, fan="I", policies="greedy", seed=15), 3)
    b = ref.new_game(make_setup(players=4, fan="I", policies=MIXED[:4], seed=15), 3)
    assert [p.hand for p in a.players] == [p.hand for p in b.players]
    assert a.draw_pile == b.draw_pile


# --- Card conservation ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_cards_are_conserved_jitted(players):
    for fan, lineup in (("I", "greedy"), ("III", "random"), ("V", MIXED[:players])):
        arrays = run(make_setup(players=players, fan=fan, policies=lineup, seed=16), 1500)
        total = arrays["hand_size"].sum(axis=1) + arrays["cards_outside_hands"]
        assert (total == CARDS.total_cards).all()
        assert (arrays["hand_size"] >= 0).all()


def test_cards_are_conserved_jitted_with_a_deck_that_runs_dry():
    cards = FantastiqueCards(
        np.array([0, 12, 12, 12, 12, 2, 0, 0, 0]), CARDS.medal_values, CARDS.finale_medals
    )
    arrays = run(make_setup(players=5, fan="II", policies="random", seed=17, cards=cards), 500)
    assert (arrays["hand_size"].sum(axis=1) + arrays["cards_outside_hands"] == 50).all()


@pytest.mark.parametrize("players", [2, 5])
def test_cards_are_conserved_reference(players):
    setup = make_setup(players=players, fan="VI", policies=MIXED[:players], seed=18)
    for game in range(5):
        state = ref.new_game(setup, game)
        assert state.total_cards == CARDS.total_cards
        for round_ in range(ROUNDS):
            state.round = round_
            ref.reveal_fan_cards(state)
            assert state.total_cards == CARDS.total_cards
            ref.play_fans(state)
            assert state.total_cards == CARDS.total_cards
            gold = ref.distribute_medals(state)
            ref.take_new_fan_cards(state)
            assert state.total_cards == CARDS.total_cards
            ref.end_round(state, gold)
            assert state.total_cards == CARDS.total_cards
        final = ref.play_game_state(setup, game)
        in_hands = sum(p.hand_size for p in final.players)
        assert in_hands + len(final.draw_pile) + len(final.discard_pile) == CARDS.total_cards
        assert final.display == []
        assert all(p.fan is None for p in final.players)
        assert [p.hand for p in final.players] == [p.hand for p in state.players]
        assert min(min(p.hand.values(), default=0) for p in final.players) >= 0


# --- The outcome columns -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_outcome_columns_are_consistent(players):
    arrays = run(
        make_setup(players=players, fan="III", policies=MIXED[:players], seed=19), 2000, trace=True
    )
    for name in SEAT_COLUMNS:
        assert arrays[name].shape == (2000, players)
    score, rank, share = arrays["score"], arrays["rank"], arrays["win_share"]
    np.testing.assert_allclose(share.sum(axis=1), 1.0)
    np.testing.assert_allclose(arrays["pre_finale_win_share"].sum(axis=1), 1.0)
    winners = (rank == 1).sum(axis=1)
    np.testing.assert_allclose(share, np.where(rank == 1, 1.0 / winners[:, None], 0.0))
    np.testing.assert_array_equal(score, arrays["medal_points"] + arrays["finale_points"])
    # A higher score never ranks lower; the winners hold the highest score.
    for a in range(players):
        for b in range(players):
            assert not ((score[:, a] > score[:, b]) & (rank[:, a] >= rank[:, b])).any()
    assert (score[rank == 1] == np.repeat(score.max(axis=1), winners)).all()
    pre = arrays["pre_finale_rank"]
    medal_points = arrays["medal_points"]
    for a in range(players):
        for b in range(players):
            assert not ((medal_points[:, a] > medal_points[:, b]) & (pre[:, a] >= pre[:, b])).any()
    # Grande Finale medals (F9): Gold for the highest positive count, Silver only below it.
    finale, count = arrays["finale_points"], arrays["finale_count"]
    assert set(np.unique(finale)) <= {0, 10, 20}
    best = count.max(axis=1, keepdims=True)
    np.testing.assert_array_equal(finale == 20, (count == best) & (count > 0))
    assert ((finale == 10) <= (count < best)).all()
    # Medals: at most one a round per seat, and at most one per row and round in all.
    rows = 3 if players >= BRONZE_MIN_PLAYERS else 2
    assert (arrays["medals"] <= ROUNDS).all()
    assert (arrays["medals"].sum(axis=1) <= rows * ROUNDS).all()
    assert (medal_points.sum(axis=1) <= CARDS.medal_values[:rows].sum()).all()
    # The per-round trace rises and ends at the medal points.
    trace = arrays["medal_points_round"]
    assert trace.shape == (2000, players, ROUNDS)
    assert (np.diff(trace, axis=2) >= 0).all()
    np.testing.assert_array_equal(trace[:, :, -1], medal_points)


# --- Illegal policy answers ----------------------------------------------------------------------


@policy
def illegal_fan_policy(decision, view, choices, n_choices, weights, rng):
    """Answers one past the last fan."""
    return n_choices if decision == PLAY_FAN else 0


@policy
def illegal_stack_policy(decision, view, choices, n_choices, weights, rng):
    """Plays the first fan; answers -1 when choosing a stack."""
    return -1 if decision == TAKE_STACK else 0


@policy
def late_illegal_policy(decision, view, choices, n_choices, weights, rng):
    """Random, except an illegal answer in round 7 by a seat holding three 8s or more: the error
    falls in some later game, at a seat and decision only the game decides."""
    if view[V_ROUND] == ROUNDS - 1 and view[V_HAND + 8] >= 3:
        return n_choices + 2
    return randint(rng, n_choices)


def first_reference_error(setup, games: int) -> IllegalChoiceError:
    for game in range(games):
        try:
            ref.play_game(setup, game)
        except IllegalChoiceError as error:
            return error
    raise AssertionError("the reference met no illegal answer")


@pytest.mark.parametrize(
    ("function", "decision"),
    [
        (illegal_fan_policy, "play_fan"),
        (illegal_stack_policy, "take_stack"),
        (late_illegal_policy, None),
    ],
)
def test_illegal_answer_raises_in_both_engines(function, decision):
    bad = Policy("bad", function)
    setup = make_setup(players=4, fan="I", policies=["greedy", bad, "random", bad], seed=20)
    expected = first_reference_error(setup, 300)
    assert expected.seat in (1, 3)
    if decision is not None:
        assert expected.decision == decision
    with pytest.raises(IllegalChoiceError) as raised:
        run(setup, 300)
    got = raised.value
    assert (got.game, got.seat, got.decision, got.choice) == (
        expected.game,
        expected.seat,
        expected.decision,
        expected.choice,
    )
    assert str(got) == str(expected)
    assert f"game {expected.game}, seat {expected.seat}, decision {expected.decision}" in str(got)


LATE_RAISING_POLICY = """
import numpy as np

from fairysim.sim.fantastique.rules import ROUNDS, V_HAND, V_ROUND
from fairysim.sim.rng import randint


def pick(decision, view, choices, n_choices, weights, rng):
    # late_illegal_policy's condition; a negative size makes numpy's allocation raise
    if view[V_ROUND] == ROUNDS - 1 and view[V_HAND + 8] >= 3:
        return np.empty(-n_choices, np.int64).shape[0]
    return randint(rng, n_choices)
"""


def test_a_policy_that_raises_mid_run_is_named_by_game_seat_and_decision(tmp_path, monkeypatch):
    """A library call that raises inside a user policy (no ``raise`` of its own, so it loads)
    stops both engines at the same game, seat and decision, from any worker thread (2 here)."""
    (tmp_path / "late_raising.py").write_text(LATE_RAISING_POLICY)
    monkeypatch.syspath_prepend(str(tmp_path))
    policies = ["greedy", "late_raising:pick", "random", "late_raising:pick"]
    setup = make_setup(players=4, fan="I", policies=policies, seed=20)
    expected = first_reference_error(setup, 300)
    assert expected.choice == POLICY_RAISED and expected.seat in (1, 3)
    with pytest.raises(IllegalChoiceError) as raised:
        run(setup, 300, threads=2, chunk_games=100)
    got = raised.value
    assert (got.game, got.seat, got.decision) == (expected.game, expected.seat, expected.decision)
    assert str(got) == str(expected)
    assert "the policy raised an exception" in str(got)


def test_illegal_answer_names_the_game_it_happened_in():
    bad = Policy("bad", illegal_fan_policy)
    setup = make_setup(players=2, fan="II", policies=[bad, bad], seed=21)
    with pytest.raises(IllegalChoiceError) as raised:
        ref.play_game(setup, 41)
    assert raised.value.game == 41
    assert raised.value.seat == ref.new_game(setup, 41).start_seat  # the first to play a fan
    assert raised.value.decision == "play_fan"
    n_fans = len(ref.legal_fans(ref.new_game(setup, 41).players[raised.value.seat].hand, []))
    assert raised.value.choice == n_fans
    assert f"{n_fans} legal choices" in str(raised.value)


def choice_rewriting_policy(decision, view, choices, n_choices, weights, rng):
    """Answers 0 after overwriting that row of its choices with a fan of 9 cards."""
    if decision == PLAY_FAN:
        choices[0, 1] = 9
    return 0


def test_a_policy_cannot_rewrite_its_choices(tmp_path, monkeypatch):
    """The choices (and view) are read-only in the policy signature, so a policy that writes
    into them is refused when it is compiled: it can never play a fan it was not offered (F4)."""
    rewriting = policy(choice_rewriting_policy)  # compiled on first use
    with pytest.raises(TypingError, match="readonly"):
        rewriting.compile_policy()
    (tmp_path / "rewriting.py").write_text(
        "def rewrite(decision, view, choices, n_choices, weights, rng):\n"
        "    choices[0, 1] = 9\n"
        "    return 0\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(FairysimError, match="does not compile as a policy"):
        make_setup(players=3, fan="I", policies="rewriting:rewrite", seed=22)


def test_reference_refuses_a_deck_too_small_to_deal():
    cards = FantastiqueCards(
        np.array([0, 5, 5, 5, 5, 5, 5, 0, 0]), CARDS.medal_values, CARDS.finale_medals
    )
    with pytest.raises(CardFileError, match="cannot deal 10 to each of 5 players"):
        ref.play_game(make_setup(players=5, fan="I", policies="greedy", seed=1, cards=cards), 0)
    ref.play_game(
        make_setup(players=3, fan="I", policies="greedy", seed=1, cards=cards), 0
    )  # 30 cards deal 3 hands


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_seat_order_is_keys_descending_then_turn_order(players):
    """The sorting network of ``order_seats_by_key`` against a plain sort (F5, F6), on keys with
    passers (key 0) and repeated keys, from every start seat."""
    from fairysim.sim.fantastique.engine import order_seats_by_key

    rng = np.random.default_rng(players)
    order = np.full(5, -1, np.int64)
    for _ in range(300):
        keys = np.zeros(5, np.int64)
        keys[:players] = rng.integers(0, 4, players) << 32 | rng.integers(0, 3, players)
        for start in range(players):
            turn = [(s - start) % players for s in range(players)]
            expected = sorted(range(players), key=lambda s: (-keys[s], turn[s]))
            n_played = order_seats_by_key(order, keys, players, start)
            assert list(order[:players]) == expected
            assert n_played == int(np.count_nonzero(keys[:players]))
