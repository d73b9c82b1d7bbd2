"""Rounds of best responses (issue 43, ``--rounds K``): each round's field holds the responses
before it, the pool is rated by a tournament, and a run stopped mid-round gives, resumed, what
an uninterrupted run gives. Tiny budgets on the toy game of tests/highcard."""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from fairysim.analysis.strategy.arena import Arena
from fairysim.analysis.strategy.best_response import best_response
from fairysim.analysis.strategy.journal import JOURNAL_NAME
from fairysim.cli import app
from fairysim.runtime.errors import FairysimError
from fairysim.sim.weights import load_weights_file

EVALUATIONS = 8


def _rounds(folder=None, **kw):
    options = dict(
        evaluations=EVALUATIONS, games=150, validation_games=300, seed=4, rounds=2, pool_games=150
    )
    options.update(kw)
    return best_response("highcard", "redraw-low", "stand,coin", 3, out_dir=folder, **options)


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    folder = tmp_path_factory.mktemp("whole")
    return folder, _rounds(folder)


def test_each_round_plays_against_the_responses_before_it(whole):
    _, result = whole
    first, second = result.pool.responses
    assert first.field == ("stand", "coin")
    assert second.field == ("stand", "coin", "redraw-low")
    responded = second.config["field_weights"][-1]
    assert responded == [first.weights["below"]]
    assert result.weights == first.weights


def test_the_pool_is_rated_with_intervals_and_written(whole):
    folder, result = whole
    ratings = pd.read_csv(folder / "pool_ratings.csv")
    assert list(ratings["entry"]) == list(result.pool.ratings["entry"])
    assert set(ratings["entry"]) == {
        "redraw-low",
        "stand",
        "coin",
        "redraw-low@round_1",
        "redraw-low@round_2",
    }
    assert ratings["rating"].is_monotonic_decreasing
    assert (ratings["low"] <= ratings["rating"]).all() and (
        ratings["rating"] <= ratings["high"]
    ).all()
    # the sound threshold (redrawing below 7 or so) rates above standing pat
    by_entry = ratings.set_index("entry")
    assert by_entry.loc["redraw-low@round_1", "low"] > by_entry.loc["stand", "high"]
    for k in (1, 2):
        kept = load_weights_file(folder / "rounds" / f"round_{k}" / "weights.toml")
        below = result.pool.responses[k - 1].weights["below"]
        assert kept == f"redraw-low:below={below!r}"
    page = (folder / "best_response.html").read_text()
    assert "The pool, rated" in page and "<svg" in page and "redraw-low@round_2" in page


def test_a_run_stopped_mid_round_resumes_to_the_uninterrupted_result(whole, tmp_path, monkeypatch):
    folder_whole, result_whole = whole

    def stop_in_round_two(done: int, total: int) -> None:
        if done >= EVALUATIONS + 4:
            raise KeyboardInterrupt

    folder = tmp_path / "stopped"
    with pytest.raises(KeyboardInterrupt):
        _rounds(folder, progress=stop_in_round_two)
    assert (folder / "rounds" / "round_2" / JOURNAL_NAME).exists()
    assert not (folder / "pool_ratings.csv").exists()
    played = []
    play = Arena.play

    def counted(self, weights, first_game, deals):
        played.append((first_game, len(self.field)))
        return play(self, weights, first_game, deals)

    monkeypatch.setattr(Arena, "play", counted)
    resumed = _rounds(folder, resume=True)
    # round 1 (a field of 2) is read from its journal: only its start and validation replay;
    # round 2 (a field of 3) plays the 4 candidates its journal lacks
    assert played.count((0, 2)) == 1
    assert played.count((0, 3)) == 4 + 1
    assert [r.weights for r in resumed.pool.responses] == [
        r.weights for r in result_whole.pool.responses
    ]
    pd.testing.assert_frame_equal(resumed.pool.ratings, result_whole.pool.ratings)
    assert (folder / "pool_ratings.csv").read_bytes() == (
        folder_whole / "pool_ratings.csv"
    ).read_bytes()


@pytest.mark.parametrize(
    ("options", "where"),
    [
        ({"rounds": 0}, "--rounds"),
        ({"pool_games": 0}, "--pool-games"),
        ({"resume": True}, "--resume"),
    ],
)
def test_bad_rounds_input_names_the_option_and_writes_nothing(tmp_path, options, where):
    folder = tmp_path / "out"
    with pytest.raises(FairysimError) as error:
        _rounds(folder, **options)
    assert error.value.where == where
    assert not folder.exists()


def test_the_command_prints_the_pool(tmp_path):
    result = CliRunner().invoke(
        app,
        ["best-response", "highcard", "--policy", "redraw-low", "--field", "stand,coin",
         "--players", "3", "--evaluations", "4", "--games", "100", "--validation-games", "100",
         "--rounds", "2", "--pool-games", "100", "--out-dir", str(tmp_path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Pool ratings" in result.output and "redraw-low@round_2" in result.output
    assert "--rounds 2" in result.output


@pytest.mark.slow
def test_rounds_on_two_workers_give_what_one_process_gives(whole):
    _, alone = whole
    on_dask = _rounds(workers=2)
    for one, other in zip(alone.pool.responses, on_dask.pool.responses, strict=True):
        pd.testing.assert_frame_equal(one.candidates, other.candidates)
        assert one.weights == other.weights
    pd.testing.assert_frame_equal(alone.pool.ratings, on_dask.pool.ratings)
