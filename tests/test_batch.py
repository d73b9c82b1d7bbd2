"""The game-agnostic batch helpers: error records of a kernel call, joining chunks, a chunk's
tidy rows."""

import numpy as np
import pandas as pd
import pytest

from fairysim.runtime.errors import IllegalChoiceError
from fairysim.sim.batch import (
    ERROR_RECORD,
    ERROR_ROW,
    join_chunks,
    new_error_records,
    raise_first_illegal_choice,
    tidy_frame,
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


def test_join_chunks_into_the_run_s_length_gives_what_concatenation_gives():
    rng = np.random.default_rng(2)
    chunks = [
        (first, {"score": rng.integers(0, 9, (n, 3)).astype(np.int16), "start": np.arange(n)})
        for first, n in ((10, 4), (14, 4), (18, 1))
    ]
    joined = join_chunks(chunks, games=9)
    for name, values in join_chunks(chunks).items():
        assert joined[name].dtype == values.dtype
        assert np.array_equal(joined[name], values)
    whole = chunks[0][1]
    assert join_chunks(chunks[:1], games=4) is whole  # one chunk: nothing copied
    with pytest.raises(ValueError, match="no chunks"):
        join_chunks([], games=3)


def test_tidy_frame_rows_and_categories_are_those_of_the_repeated_values():
    chunk = {
        "score": np.array([[3, 1, 2], [0, 2, 5]], np.int16),
        "start_seat": np.array([2, 0], np.int8),
        "trace": np.arange(12, dtype=np.int16).reshape(2, 3, 2),
    }
    policies = ["random", "greedy", "random"]
    frame = tidy_frame(7, chunk, 3, policies, {"fan": "II", "players": 3})
    assert list(frame.columns) == [
        "game", "seat", "policy", "score", "start_seat", "trace_1", "trace_2", "fan", "players"
    ]  # fmt: skip
    assert frame["game"].tolist() == [7, 7, 7, 8, 8, 8]
    assert frame["seat"].tolist() == [0, 1, 2] * 2
    assert frame["score"].tolist() == [3, 1, 2, 0, 2, 5]
    assert frame["start_seat"].tolist() == [2, 2, 2, 0, 0, 0]
    assert frame["trace_2"].tolist() == [1, 3, 5, 7, 9, 11]
    assert frame["score"].dtype == np.int16 and frame["players"].dtype == np.int64
    pd.testing.assert_series_equal(
        frame["policy"], pd.Series(pd.Categorical(policies * 2), name="policy")
    )
    pd.testing.assert_series_equal(frame["fan"], pd.Series(pd.Categorical(["II"] * 6), name="fan"))
    assert list(frame["policy"].cat.categories) == ["greedy", "random"]
