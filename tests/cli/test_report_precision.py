"""``fairysim report NAME --precision H``: a study played until its balance card is precise."""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from fairysim.analysis.report.pipeline import play_study
from fairysim.analysis.report.registry import PRECISION_CAP, get_report
from fairysim.cli import app
from fairysim.stats.precision import look_schedule, study_to_precision

RUNNER = CliRunner()


class FakeStudy:
    """A study whose corrected half-width shrinks as 1/sqrt(games)."""

    def __init__(self, games: int, alpha: float) -> None:
        self.games, self.alpha = games, alpha
        self.meta: dict = {}
        self.balance = self  # play_study reads study.balance.half_width()

    def half_width(self) -> float:
        return 1.0 / self.games**0.5


def test_the_study_stops_at_the_first_look_precise_enough_with_the_error_rate_split():
    seen = []

    def run(games, alpha):
        seen.append((games, alpha))
        return FakeStudy(games, alpha)

    study, reached = study_to_precision(run, FakeStudy.half_width, 0.02, 16_000)
    looks = look_schedule(1000, 16_000)  # 1,000 .. 16,000: five looks planned
    assert [g for g, _ in seen] == [1000, 2000, 4000]  # 1/sqrt(4000) < 0.02 < 1/sqrt(2000)
    assert all(a == pytest.approx(0.05 / len(looks)) for _, a in seen)
    assert reached.reached and reached.games == study.games == 4000
    assert reached.level == pytest.approx(1 - 0.05 / len(looks))
    capped, missed = study_to_precision(run, FakeStudy.half_width, 0.001, 3000)
    assert not missed.reached and capped.games == 3000
    assert "--max-games 3,000 reached before --precision 0.001" in missed.message()


def test_a_report_without_games_plays_to_its_own_precision_and_a_fixed_count_when_asked():
    seen = []

    def run(games, alpha):
        seen.append(games)
        return FakeStudy(games, alpha)

    study = play_study(run, None, 6000, default_precision=0.02)
    assert seen == [1000, 2000, 4000] and study.meta["precision"] == 0.02
    assert study.meta["max_games"] == PRECISION_CAP * 6000
    seen.clear()
    assert play_study(run, 500, 6000, default_precision=0.02).games == 500 and seen == [500]
    seen.clear()
    capped = play_study(run, None, 6000, max_games=2000, default_precision=0.02)
    assert seen == [1000, 2000] and capped.meta["max_games"] == 2000
    seen.clear()
    assert play_study(run, None, 6000).games == 6000 and seen == [6000]  # no precision declared


@pytest.mark.parametrize("name", ["fantastique", "concerto", "fairyland"])
def test_report_help_states_the_default_precision_and_cap_as_numbers(name):
    report = get_report(name)
    result = RUNNER.invoke(app, ["report", name, "--help"], env={"COLUMNS": "400"})
    text = " ".join(result.output.replace("│", " ").split())
    assert report.precision_default is not None
    assert f"(default: {report.precision_default:g})" in text
    assert f"played to --precision {report.precision_default:g}" in text
    assert f"(default: {PRECISION_CAP * report.games_default:,})" in text


@pytest.mark.usefixtures("figures_unrendered")
def test_a_report_played_to_a_precision_says_what_it_reached(tmp_path):
    result = RUNNER.invoke(
        app,
        ["report", "concerto", "--precision", "0.2", "--max-games", "2000", "--seed", "3",
         "--card-games", "200", "--ladder-games", "200", "--search-games", "0",
         "--heuristic-games", "200", "--best-heuristic-games", "0",
         "--out-dir", str(tmp_path)],
        catch_exceptions=False,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    page = (tmp_path / "concerto-report.html").read_text(encoding="utf-8")
    assert "Played to a precision: precision reached" in page
    assert "fairysim report concerto --precision 0.2 --max-games 2000 --seed 3" in page
    # Fairy Concerto's score cards checked under chaser, at the one player count it checks.
    check = pd.read_csv(tmp_path / "concerto-score_card_check.csv")
    assert len(check) == 26 and set(check["changed"]) <= {True, False}
    assert "under the best heuristic, chaser, at every seat, beside greedy at every seat: 4" in page


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["concerto", "--precision", "0.7"], "--precision"),
        (["concerto", "--precision", "0.01", "--games", "100"], "--precision"),
        (["concerto", "--games", "100", "--max-games", "100"], "--max-games"),
        (["concerto-solo", "--max-games", "100"], "--max-games"),
        (["concerto", "--precision", "0.01", "--max-games", "0"], "--max-games"),
        (["concerto-solo", "--precision", "0.01", "--games", "100"], "--precision"),
    ],
)
def test_bad_precision_options_are_one_line(args, option, tmp_path):
    result = RUNNER.invoke(
        app, ["report", *args, "--out-dir", str(tmp_path / "out")], catch_exceptions=False
    )
    assert result.exit_code == 2, result.output
    assert option in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
