"""The game-agnostic batch helpers: error records of a kernel call, joining chunks."""

import numpy as np
import pytest

from fairysim.runtime.errors import IllegalChoiceError
from fairysim.sim.batch import (
    ERROR_RECORD,
    ERROR_ROW,
    join_chunks,
    new_error_records,
    raise_first_illegal_choice,
)
from fairysim.sim.blocks import GAMES_PER_BLOCK

DECISIONS = ("play_fan", "take_stack")


def test_no_failed_block_raises_nothing():
    errors = new_error_records(3 * GAMES_PER_BLOCK)
    assert errors.shape == (3, ERROR_RECORD)
    assert (errors[:, ERROR_ROW] == -1).all()
    raise_first_illegal_choice(errors, 100, DECISIONS)


def test_one_record_per_block_a_short_last_block_included():
    assert new_error_records(GAMES_PER_BLOCK).shape == (1, ERROR_RECORD)
    assert new_error_records(2 * GAMES_PER_BLOCK + 1).shape == (3, ERROR_RECORD)


def test_the_earliest_failed_game_of_any_block_is_reported():
    errors = new_error_records(3 * GAMES_PER_BLOCK)
    errors[1] = (37, 2, 1, 9, 4)  # block 1 failed at chunk row 37
    errors[2] = (5, 0, 0, -1, 3)  # block 2's row 5 comes first (blocks need not be in order)
    with pytest.raises(IllegalChoiceError) as raised:
        raise_first_illegal_choice(errors, 1000, DECISIONS)
    got = raised.value
    assert (got.game, got.seat, got.decision, got.choice) == (1005, 0, "play_fan", -1)
    assert "3 legal choices" in str(got)


def test_at_least_one_record_even_for_zero_games():
    assert new_error_records(0).shape == (1, ERROR_RECORD)


def test_join_chunks_keeps_game_order_and_every_column():
    chunks = [
        (0, {"score": np.array([[1, 2], [3, 4]]), "start_seat": np.array([0, 1])}),
        (2, {"score": np.array([[5, 6]]), "start_seat": np.array([1])}),
    ]
    joined = join_chunks(chunks)
    assert joined["score"].tolist() == [[1, 2], [3, 4], [5, 6]]
    assert joined["start_seat"].tolist() == [0, 1, 1]
    with pytest.raises(ValueError, match="no chunks"):
        join_chunks([])
