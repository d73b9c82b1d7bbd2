"""Tournament entries with weights (issue 43): ``NAME@FILE``, Policy objects and a tournament-wide
weights file seat the weights they carry, so a response and its policy's defaults are two
entries; ``compare`` setups take ``weights_file=``."""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from fairysim.analysis.tournament import play as tm
from fairysim.cli import app
from fairysim.runtime.errors import FairysimError
from fairysim.sim.game import get_game


@pytest.fixture
def high_threshold(tmp_path):
    """redraw-low redrawing below 8 (its default is 5): nearer the sound threshold of 7."""
    path = tmp_path / "weights.toml"
    path.write_text('["redraw-low"]\nbelow = 8.0\n')
    return path


def test_an_entry_with_a_weights_file_plays_its_weights_apart_from_the_defaults(high_threshold):
    entry = f"redraw-low@{high_threshold}"
    result = tm.play_tournament(
        "highcard", policies=["redraw-low", entry, "stand"], players=2, games=400, seed=3
    )
    assert result.entries == ("redraw-low", entry, "stand")
    assert result.policies == ("redraw-low", "redraw-low", "stand")
    assert result.meta["config"]["entry_weights"][1] == {"below": 8.0}
    rating = tm.ratings(result).set_index("entry")
    # the two thresholds play different games: the higher one redraws more and rates apart
    assert rating.loc[entry, "low"] > rating.loc["redraw-low", "high"], rating


def test_a_policy_object_is_an_entry_with_its_weights(high_threshold):
    spec = get_game("highcard")
    weighted = spec.policies["redraw-low"].with_weights(below=8)
    by_object = tm.play_tournament(
        "highcard", policies=["redraw-low", weighted, "stand"], players=2, games=200, seed=3
    )
    by_file = tm.play_tournament(
        "highcard",
        policies=["redraw-low", f"redraw-low@{high_threshold}", "stand"],
        players=2,
        games=200,
        seed=3,
    )
    assert by_object.entries == ("redraw-low", "redraw-low#2", "stand")
    pd.testing.assert_frame_equal(by_object.rows, by_file.rows)


def test_a_tournament_wide_weights_file_sets_every_entry_of_its_policy(high_threshold):
    wide = tm.play_tournament(
        "highcard",
        policies="redraw-low,stand",
        players=2,
        games=200,
        seed=3,
        weights_file=high_threshold,
    )
    entry = tm.play_tournament(
        "highcard",
        policies=f"redraw-low@{high_threshold},stand",
        players=2,
        games=200,
        seed=3,
    )
    pd.testing.assert_frame_equal(wide.rows, entry.rows)


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("stand@{file}", "has no [stand] table"),
        ("redraw-low@{missing}", "cannot read"),
        ("redraw-low@", "POLICY@WEIGHTS_FILE"),
        ("nosuch@{file}", "unknown policy"),
    ],
)
def test_a_bad_entry_names_the_option(high_threshold, entry, words):
    entry = entry.format(file=high_threshold, missing=high_threshold.with_name("none.toml"))
    with pytest.raises(FairysimError) as error:
        tm.play_tournament("highcard", policies=["coin", entry], players=2, games=10)
    assert error.value.where == "policies" and words in error.value.message


def test_a_weight_outside_its_range_in_an_entry_file_is_refused(tmp_path):
    path = tmp_path / "w.toml"
    path.write_text('["redraw-low"]\nbelow = 99.0\n')
    with pytest.raises(FairysimError) as error:
        tm.play_tournament("highcard", policies=f"coin,redraw-low@{path}", players=2, games=10)
    assert error.value.where == "policies" and str(path) in error.value.message


def test_the_command_takes_weighted_entries_and_a_weights_file(high_threshold, tmp_path):
    runner = CliRunner()
    base = ["tournament", "highcard", "--players", "2", "--games", "100"]
    result = runner.invoke(
        app, [*base, "--policies", f"redraw-low,redraw-low@{high_threshold},stand"]
    )
    assert result.exit_code == 0, result.output
    assert f"redraw-low@{high_threshold}" in result.output.replace("\n", "")
    result = runner.invoke(
        app, [*base, "--policies", "redraw-low,stand", "--weights-file", str(tmp_path / "no")]
    )
    assert result.exit_code == 2, result.output
    assert "weights-file" in result.output


def test_compare_setups_take_a_weights_file(high_threshold):
    from fairysim.analysis.studies.variants import build_arm

    spec = get_game("highcard")
    arm = build_arm(
        spec,
        {"policies": "redraw-low,stand", "weights_file": str(high_threshold)},
        players=2,
        seed=0,
        option="--variant",
        label="variant",
    )
    assert [p.weights for p in arm.setup.policies] == [(8.0,), ()]


def test_compare_takes_a_weights_file_for_every_setup_without_its_own(high_threshold, tmp_path):
    from fairysim.analysis.studies.what_if import compare

    variant = {"policies": "stand,redraw-low"}
    played = compare("highcard", variants=[variant], players=2, games=200, seed=0)
    weighted = compare(
        "highcard",
        variants=[variant],
        weights_file=high_threshold,
        players=2,
        games=200,
        seed=0,
    )
    with pytest.raises(FairysimError, match="missing.toml"):  # a setup's own file wins
        compare(
            "highcard",
            baseline="policy=redraw-low,stand",
            variants=[{**variant, "weights_file": str(tmp_path / "missing.toml")}],
            weights_file=high_threshold,
            players=2,
            games=200,
            seed=0,
        )
    with pytest.raises(FairysimError, match="which no setup seats"):
        compare(
            "highcard",
            baseline="policy=stand",
            variants=["policy=stand,stand;label=both"],
            weights_file=high_threshold,
            players=2,
            games=200,
            seed=0,
        )
    assert not played.differences.equals(weighted.differences)
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "compare",
            "highcard",
            "--players",
            "2",
            "--games",
            "200",
            "--variant",
            "policy=stand,redraw-low",
            "--weights-file",
            str(tmp_path / "no.toml"),
            "--out-dir",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 2, result.output
    assert "--weights-file" in result.output
