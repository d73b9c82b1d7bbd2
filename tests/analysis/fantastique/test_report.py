"""The Fantastique report: a small end-to-end report, its files, figures and atomic writing."""

from __future__ import annotations

import base64
import re

import pandas as pd
import pytest

import fairysim
from fairysim.analysis.fantastique import report as fr
from fairysim.analysis.fantastique.study import fan_strength
from fairysim.analysis.report import verdict_marks
from fairysim.runtime import files
from fairysim.runtime.errors import FairysimError
from fairysim.sim.fantastique import FANS

GAMES = 60
SEED = 4
PLAYERS = (2, 3)
TABLES = (
    "ranking",
    "fan_differences",
    "cells",
    "finale_counts",
    "gains",
    "fan_gains",
    "balance",
    "turn_order",
    "seat_finale",
)
FIGURES = ("strength", "decides", "gain", "turn_order")


@pytest.fixture(scope="module")
def strength():
    return fan_strength(GAMES, SEED, players=PLAYERS)


@pytest.fixture(scope="module")
def written(tmp_path_factory, strength):
    out = tmp_path_factory.mktemp("report")
    return fr.build_report(strength).write(out)


def test_html_is_self_contained_and_complete(written):
    assert written.name == "fantastique-report.html"
    text = written.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', text)
    assert len(images) == len(FIGURES)
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    for fan in FANS:
        assert f"<td>{fan}</td>" in text, fan
    assert f"{GAMES:,} games per cell" in text
    assert f"seed {SEED}" in text
    assert f"fairysim {fairysim.__version__}" in text
    assert f"fairysim report fantastique --games {GAMES} --seed {SEED}" in text
    assert "significant" in text
    assert 'src="http' not in text and "<script" not in text  # nothing fetched from outside


def test_tables_and_figures_are_files(written, strength):
    folder = written.parent
    for name in TABLES:
        path = folder / f"fantastique-{name}.csv"
        assert path.exists(), name
    for name in FIGURES:
        assert (folder / f"fantastique-{name}.png").read_bytes().startswith(b"\x89PNG"), name
        assert b"<svg" in (folder / f"fantastique-{name}.svg").read_bytes()[:500], name
    assert (folder / "fantastique-metadata.json").exists()
    ranking = pd.read_csv(folder / "fantastique-ranking.csv")
    assert ranking["fan"].tolist() == strength.ranking["fan"].tolist()
    assert ranking["strength"].tolist() == pytest.approx(strength.ranking["strength"].tolist())
    leftovers = [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


@pytest.mark.usefixtures("figures_unrendered")
def test_not_significant_is_said_plainly(strength):
    fake = strength.fan_differences.copy()
    fake["low"], fake["high"], fake["significant"] = -0.01, 0.01, False
    strength = type(strength)(**{**strength.__dict__, "fan_differences": fake})
    html = fr.build_report(strength).html()
    assert html.count("not significant") >= len(fake)


def test_a_verdict_that_disagrees_with_its_interval_is_refused(strength):
    fake = strength.fan_differences.copy()
    fake["low"], fake["high"], fake["significant"] = -0.01, 0.01, True
    strength = type(strength)(**{**strength.__dict__, "fan_differences": fake})
    with pytest.raises(ValueError, match="fan_differences"):
        fr.build_report(strength)


def _ranking_with(strength, strengths, separated):
    """A ranking of fans II, I, III with ``strengths`` and its corrected pairs, ``separated``
    naming the pairs the correction separates."""
    r = strength.ranking.iloc[: len(strengths)].copy()
    r["fan"], r["strength"] = ["II", "I", "III"][: len(r)], strengths
    fans = list(r["fan"])
    pairs = [(a, b) for i, a in enumerate(fans) for b in fans[i + 1 :]]
    d = pd.DataFrame({"stronger": [a for a, _ in pairs], "weaker": [b for _, b in pairs]})
    d["significant"] = [p in separated for p in pairs]
    d["difference"] = 0.05
    return r, d


@pytest.mark.usefixtures("figures_unrendered")
def test_a_single_leader_only_when_the_correction_separates_it(strength):
    plain = verdict_marks.plain
    tied = plain(
        fr._ranking_sentence(
            *_ranking_with(strength, [0.3, 0.29, 0.1], {("II", "III"), ("I", "III")}), "d.csv"
        )
    )
    assert "not separated from fan II, the top of the ranking: I" in tied
    assert "most often:" not in tied and "least often: III" in tied
    assert "strongest" not in tied  # the measure is how often the finale changes the winner
    alone = plain(
        fr._ranking_sentence(
            *_ranking_with(strength, [0.3, 0.2, 0.1], {("II", "I"), ("II", "III")}), "d.csv"
        )
    )
    # III is not separated from I, so the bottom names I beside it, not "least often"
    assert "most often: II" in alone and "least often" not in alone
    assert "the bottom of the ranking: I" in alone
    none = plain(fr._ranking_sentence(*_ranking_with(strength, [0.3, 0.29, 0.28], set()), "d.csv"))
    assert "no fan is separated" in none


@pytest.mark.usefixtures("figures_unrendered")
def test_the_ranking_shows_letters_from_the_corrected_pairs(strength):
    letters = fr._letters(strength)
    d = strength.fan_differences
    by_fan = dict(zip(strength.ranking["fan"], letters, strict=True))
    for row in d.itertuples(index=False):
        shared = bool(set(by_fan[row.stronger]) & set(by_fan[row.weaker]))
        assert shared != bool(row.significant), (row.stronger, row.weaker)


def test_write_report_end_to_end(tmp_path):
    calls = []
    out = tmp_path / "new" / "folder"
    html = fr.write_report(
        out,
        games=30,
        seed=2,
        players=(2,),
        progress=lambda d, t: calls.append((d, t)),
        card_games=400,
        ladder_games=400,
        search_games=20,
        heuristic_games=300,
        best_heuristic_games=20,
    )
    assert html == out / "fantastique-report.html" and html.exists()
    assert calls[-1][0] == calls[-1][1] == 30 * len(FANS) * 4
    text = html.read_text(encoding="utf-8")
    assert "fairysim report fantastique --games 30 --seed 2" in text
    assert "2 players only" in text
    # The card-effect section: 8 values at 2 players, with its table and figure.
    assert "Card strength as an effect" in text
    effects = pd.read_csv(out / "fantastique-card_effects.csv")
    assert effects["players"].tolist() == [2] * 8 and effects["games"].max() <= 400
    assert (out / "fantastique-card_effects.png").exists()
    ladder = pd.read_csv(out / "fantastique-ladder.csv")
    assert ladder["policy"].tolist() == ["random", "greedy", "balancer", "rollout"]
    assert "The skill ladder" in text and "--ladder-games 4000" in text
    search = pd.read_csv(out / "fantastique-ladder_search.csv")
    # At 2 players the rung plays the K its spec declares there (search_weights).
    label = "rollout (rollouts=16)"
    assert search["games"].tolist() == [40] and search["search"].tolist() == [label]
    assert f"one {label} seat among balancer wins" in text
    # Fan strength checked under balancer at the one player count played.
    check = pd.read_csv(out / "fantastique-fan_check.csv")
    assert len(check) == 15 and set(check["changed"]) <= {True, False}
    assert (
        "under the best heuristic, balancer, at every seat, beside greedy at every seat: 2 "
        "players, 300 games a fan under each policy, seed 2"
    ) in text
    changed = int(check["changed"].sum())
    if changed:
        assert f"Warning: {changed} of the 15 fan comparisons change verdict under balancer" in text
        assert "not a tested difference between the two policies" in text
    else:
        assert "Every one of the 15 fan comparisons keeps its verdict under balancer" in text


@pytest.mark.usefixtures("figures_unrendered")
def test_failure_mid_way_leaves_no_partial_report(tmp_path, monkeypatch):
    def broken(_strength):
        raise RuntimeError("figure failed")

    monkeypatch.setattr(fr, "gain_figure", broken)
    with pytest.raises(RuntimeError, match="figure failed"):
        fr.write_report(
            tmp_path,
            games=20,
            seed=1,
            players=(2,),
            card_games=50,
            ladder_games=100,
            search_games=0,
            heuristic_games=50,
            best_heuristic_games=0,
        )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.usefixtures("figures_unrendered")
def test_failure_while_writing_keeps_the_old_report(tmp_path, monkeypatch, strength):
    old = tmp_path / "fantastique-report.html"
    old.write_text("old report")
    (tmp_path / "fantastique-ranking.csv").write_text("old table")
    real_stage = files.stage_bytes

    def stage(path, data):
        if path.name.endswith(".html"):
            raise OSError("disk full")
        return real_stage(path, data)

    monkeypatch.setattr(files, "stage_bytes", stage)
    with pytest.raises(FairysimError, match="disk full"):
        fr.build_report(strength).write(tmp_path)
    assert old.read_text() == "old report"
    assert (tmp_path / "fantastique-ranking.csv").read_text() == "old table"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "fantastique-ranking.csv",
        "fantastique-report.html",
    ]


@pytest.mark.usefixtures("figures_unrendered")
def test_another_card_file_is_in_the_command(strength):
    meta = {**strength.meta, "cards": "variant.toml"}
    variant = type(strength)(**{**strength.__dict__, "meta": meta})
    html = fr.build_report(variant).html()
    assert f"fairysim report fantastique --games {GAMES} --seed {SEED} --cards variant.toml" in html


@pytest.mark.usefixtures("figures_unrendered")
def test_the_replay_commands_on_the_page_replay_the_study_games(strength):
    import shlex

    from typer.testing import CliRunner

    from fairysim.cli import app

    html = fr.build_report(strength).html()
    commands = re.findall(r"<code>(fairysim replay [^<]+)</code>", html)
    examples = strength.balance.examples
    assert len(commands) == len(examples) == 2 * len(PLAYERS)  # typical and widest, per count
    result = CliRunner().invoke(app, shlex.split(commands[-1])[1:], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    widest = examples.iloc[-1]
    assert widest["kind"] == "widest margin" and f"--game {int(widest['game'])}" in commands[-1]


@pytest.mark.usefixtures("figures_unrendered")
def test_the_report_takes_a_baseline_policy_and_a_card_file_from_the_command_line(tmp_path):
    from typer.testing import CliRunner

    from fairysim.cli import app
    from fairysim.sim.fantastique.cards import DEFAULT_CARDS

    cards = tmp_path / "cards.toml"
    cards.write_text(DEFAULT_CARDS.read_text())
    args = ["report", "fantastique", "--games", "20", "--policy", "random", "--card-games", "200"]
    args += ["--ladder-games", "200", "--search-games", "10", "--heuristic-games", "100"]
    args += ["--best-heuristic-games", "0"]
    args += ["--cards", str(cards), "--out-dir", str(tmp_path / "out")]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    page = (tmp_path / "out" / "fantastique-report.html").read_text(encoding="utf-8")
    assert "all random (baseline): every seat plays random" in page
    assert "hoarder at seat 0: seat 0 plays hoarder, the others random" in page
    assert "--policy random" in page and f"--cards {cards}" in page
    # The card-effect section plays the report's policy and cards, and its rerun line says so.
    rerun = "--policy random --ladder-games 200 --search-games 10 --card-games 2000"
    assert f"{rerun} --heuristic-games 100 --best-heuristic-games 0 --cards {cards}" in page
    # Fan strength checked under balancer beside the report's policy, random.
    assert "under the best heuristic, balancer, at every seat, beside random at every seat" in page
    assert "fantastique-fan_check.csv" in page


@pytest.mark.usefixtures("figures_unrendered")
def test_a_fan_pair_the_other_policy_ranks_the_other_way_is_turned():
    from fairysim.analysis.fantastique.check import oriented

    like = pd.DataFrame({"stronger": ["I", "II"], "weaker": ["II", "III"]})
    other = pd.DataFrame(
        {
            "stronger": ["II", "II"],
            "weaker": ["I", "III"],
            "difference": [0.03, 0.01],
            "low": [0.01, -0.01],
            "high": [0.05, 0.03],
            "significant": [True, False],
        }
    )
    out = oriented(other, like)
    assert out[["stronger", "weaker"]].values.tolist() == [["I", "II"], ["II", "III"]]
    assert out["difference"].tolist() == pytest.approx([-0.03, 0.01])
    assert out["low"].tolist() == pytest.approx([-0.05, -0.01])
    assert out["high"].tolist() == pytest.approx([-0.01, 0.03])
    assert out["significant"].tolist() == [True, False]


@pytest.mark.usefixtures("figures_unrendered")
def test_the_fan_section_warns_where_balancer_changes_a_verdict(strength):
    from fairysim.analysis.studies.heuristic_check import HeuristicCheck, compare_verdicts

    base = strength.fan_differences.iloc[:2].copy()
    base["low"], base["high"], base["significant"] = 0.01, 0.05, True
    best = base.copy()
    best.loc[best.index[1], ["low", "high", "significant"]] = (-0.01, 0.05, False)
    meta = {"policy": "greedy", "best": "balancer", "players": 3, "games": 500, "arm": "a fan",
            "seed": SEED}  # fmt: skip
    check = HeuristicCheck(compare_verdicts(base, best, ["stronger", "weaker"], "difference"), meta)
    text = re.sub(r"</?span[^>]*>", "", fr.build_report(strength, check=check).html())
    pair = base.iloc[1]
    assert "Warning: 1 of the 2 fan comparisons change verdict under balancer at 3 players" in text
    assert f"fan {pair.stronger} against fan {pair.weaker}: not separated under balancer" in text
    assert "not a tested difference between the two policies" in text
