"""The summary path's jitted sums (fairysim.sim.aggregate) against NumPy's, for every way a
game declares its turn order: by seat, by the seat that starts, by each seat's position."""

from __future__ import annotations

import numpy as np
import pytest

from fairysim.sim.batch import SeatAggregate, chunk_folder
from fairysim.sim.game import TurnOrder
from fairysim.sim.run import by_turn_order

ORDERS = {
    "seat": TurnOrder(),
    "start": TurnOrder(start_seat="start"),
    "column": TurnOrder(column="position"),
}


def chunk(seats: int, games: int = 997, seed: int = 4) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    positions = np.argsort(rng.random((games, seats)), axis=1).astype(np.int8) + 1  # 1 = first
    return {
        "score": rng.integers(-5, 60, (games, seats)).astype(np.int16),
        "win_share": rng.choice([0.0, 1 / 3, 0.5, 1.0], (games, seats)),
        "points": rng.normal(10, 3, (games, seats)).astype(np.float32),
        "start": rng.integers(0, seats, games).astype(np.int8),
        "position": positions,
    }


class Spec:
    """The two fields of a game spec that ``by_turn_order`` reads."""

    seat_columns = ("score", "win_share", "points")

    def __init__(self, order: TurnOrder) -> None:
        self.turn_order = order


@pytest.mark.parametrize("seats", [1, 2, 4, 5])
@pytest.mark.parametrize("kind", list(ORDERS))
def test_jitted_sums_equal_numpys_by_seat_and_by_turn(seats, kind):
    arrays = chunk(seats)
    spec = Spec(ORDERS[kind])
    by_seat = SeatAggregate(spec.seat_columns, seats)
    by_turn = SeatAggregate(spec.seat_columns, seats)
    by_seat.add(arrays)
    by_turn.add_by_turn(arrays, spec.turn_order)
    reordered = by_turn_order(spec, arrays)
    for i, name in enumerate(spec.seat_columns):
        values = arrays[name].astype(np.float64)
        np.testing.assert_allclose(by_seat.sums[i], values.sum(axis=0), rtol=1e-12)
        np.testing.assert_allclose(by_seat.squares[i], (values**2).sum(axis=0), rtol=1e-12)
        turned = reordered[name].astype(np.float64)
        np.testing.assert_allclose(by_turn.sums[i], turned.sum(axis=0), rtol=1e-12)
        np.testing.assert_allclose(by_turn.squares[i], (turned**2).sum(axis=0), rtol=1e-12)
    assert by_seat.games == by_turn.games == 997
    if kind != "seat" and seats > 1:  # the reordering did move seats
        assert not np.allclose(by_turn.sums[0], by_seat.sums[0])


def test_the_sums_do_not_depend_on_the_run():
    arrays = chunk(4)
    first, again = SeatAggregate(("score",), 4), SeatAggregate(("score",), 4)
    first.add_by_turn(arrays, ORDERS["start"])
    again.add_by_turn({k: v.copy() for k, v in arrays.items()}, ORDERS["start"])
    assert np.array_equal(first.sums, again.sums)


@pytest.mark.parametrize("seats", [1, 3, 4, 5, 6])
@pytest.mark.parametrize("kind", ["start", "column"])
def test_the_sums_by_turn_position_add_in_game_order(seats, kind):
    arrays = chunk(seats, games=1500, seed=seats)
    spec = Spec(ORDERS[kind])
    by_turn = SeatAggregate(spec.seat_columns, seats)
    by_turn.add_by_turn(arrays, spec.turn_order)
    reordered = by_turn_order(spec, arrays)
    for i, name in enumerate(spec.seat_columns):
        turned = reordered[name].astype(np.float64)
        # cumsum adds left to right: the game-order sums, to the last bit
        assert np.array_equal(by_turn.sums[i], np.cumsum(turned, axis=0)[-1])
        assert np.array_equal(by_turn.squares[i], np.cumsum(turned**2, axis=0)[-1])


@pytest.mark.parametrize("by_turn", [False, True])
def test_folding_on_two_threads_gives_the_sums_of_one(by_turn):
    spec = Spec(ORDERS["start"])
    folded = {}
    for threads in (1, 2):
        by_seat = SeatAggregate(spec.seat_columns, 4)
        turns = SeatAggregate(spec.seat_columns, 4) if by_turn else None
        with chunk_folder(by_seat, turns, spec.turn_order, threads) as fold:
            for seed in range(3):
                fold(chunk(4, games=1000 + seed, seed=seed))
        folded[threads] = (by_seat, turns)
    one, two = folded[1], folded[2]
    assert one[0].games == two[0].games == 3003
    assert np.array_equal(one[0].sums, two[0].sums)
    assert np.array_equal(one[0].squares, two[0].squares)
    if by_turn:
        assert one[1].games == two[1].games == 3003
        assert np.array_equal(one[1].sums, two[1].sums)
        assert np.array_equal(one[1].squares, two[1].squares)
