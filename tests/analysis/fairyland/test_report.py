"""The Fairy Land report: content, PROVISIONAL labels, words after correction, files written
atomically, and the command line."""

from __future__ import annotations

import base64
import re
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import fairysim
from fairysim.analysis.fairyland import report as fr
from fairysim.analysis.fairyland.figures import COURT_FIGURE_MEASURES
from fairysim.cli import app
from fairysim.runtime import files
from fairysim.runtime.errors import FairysimError

from ..concerto.tidy import text_of
from .conftest import AUCTION_GAMES, GAMES, SEED

TABLES = (
    "cards_pooled",
    "cards",
    "auction_prices",
    "auction_summary",
    "auctions",
    "court_effects",
    "court_levels",
    "length",
    "auction_counts",
    "balance",
    "turn_order",
)
FIGURES = (
    "card_balance",
    "card_collect",
    "auctions",
    *(f"courts_{m}" for m in COURT_FIGURE_MEASURES),
    "length",
    "turn_order",
)
runner = CliRunner(env={"COLUMNS": "1000"})


@pytest.fixture(scope="module")
def written(tmp_path_factory, study):
    return fr.build_report(study).write(tmp_path_factory.mktemp("report"))


def test_page_states_the_run_and_labels_the_court(written):
    html = written.read_text(encoding="utf-8")
    text = text_of(html)
    assert written.name == "fairyland-report.html"
    assert f"{GAMES:,} games per court" in text and f"seed {SEED}" in text
    assert f"fairysim {fairysim.__version__}" in text
    command = f"fairysim report fairyland --games {GAMES} --seed {SEED} --auction-games"
    assert f"{command} {AUCTION_GAMES}" in text
    assert text.count("PROVISIONAL") >= 8  # meta, every section that shows items
    for heading in ("Card balance", "auctions cost", "Queen's Court changes", "Game length",
                    "turn position"):  # fmt: skip
        assert heading in text, heading
    assert "Holm" in text
    # the balance card's comebacks, from the standings after each round of turns (PL11)
    assert "Comeback: the share of games" in text and "ruling PL11" in text
    assert "records no standings" not in text
    # figures whose intervals are plain say so in their captions (no verdict drawn there)
    assert (
        text.count(
            "plain 95% intervals, each estimate's own, not corrected; the figure draws no verdict"
        )
        == 2
    )
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', html)
    assert len(images) == len(FIGURES)
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)
    assert 'src="http' not in html and "<script" not in html


def test_tables_and_figures_are_files(written, study):
    folder = written.parent
    for name in TABLES:
        assert (folder / f"fairyland-{name}.csv").exists(), name
    for name in FIGURES:
        assert (folder / f"fairyland-{name}.png").read_bytes().startswith(b"\x89PNG"), name
        assert b"<svg" in (folder / f"fairyland-{name}.svg").read_bytes()[:500], name
    assert (folder / "fairyland-metadata.json").exists()
    pooled = pd.read_csv(folder / "fairyland-cards_pooled.csv")
    assert pooled["card"].tolist() == study.cards_pooled["card"].tolist()
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []


@pytest.mark.usefixtures("figures_unrendered")
def test_no_strongest_card_and_not_significant_when_the_tests_say_so(study):
    pooled = study.cards_pooled.copy()
    pooled["low"], pooled["high"] = pooled["lift"] - 0.5, pooled["lift"] + 0.5
    pooled["p_adjusted"], pooled["significant"] = 0.9, False
    text = text_of(fr.build_report(replace(study, cards_pooled=pooled)).html())
    assert "so no card's lift is named first" in text
    assert "moves the win share most" not in text
    assert f"0 go with a significantly higher win share, 0 with a significantly lower one, and " \
           f"{len(pooled)} are not told apart" in text  # fmt: skip
    assert text.count("not significant") >= len(pooled)


@pytest.mark.usefixtures("figures_unrendered")
def test_a_court_effect_that_fails_holm_is_not_significant(study):
    effects = study.court_effects.copy()
    effects["p_adjusted"], effects["significant"] = 0.5, False
    reach = effects["difference"].abs() + 1.0
    effects["low"], effects["high"] = -reach, reach  # the corrected intervals then cover 0
    text = text_of(fr.build_report(replace(study, court_effects=effects)).html())
    assert "random court against none, 3 players: no measure differs significantly." in text
    effects["low"] = effects["difference"] - 1e-9  # intervals that exclude 0 beside
    effects["high"] = effects["difference"] + 1e-9  # "not significant" are refused
    with pytest.raises(ValueError, match="court_effects"):
        fr.build_report(replace(study, court_effects=effects))


@pytest.mark.usefixtures("figures_unrendered")
def test_write_report_end_to_end(tmp_path):
    calls = []
    out = tmp_path / "new" / "folder"
    html = fr.write_report(
        out, games=40, seed=2, players=(2,), auction_games=5, card_games=60, ladder_games=300,
        search_games=0, heuristic_games=50, best_heuristic_games=0,
        progress=lambda done, total: calls.append((done, total)),
    )  # fmt: skip
    assert html == out / "fairyland-report.html" and html.exists()
    assert calls[-1][0] == calls[-1][1] == 40 * 3 + 5
    page = html.read_text()
    # Every option off its default, so the command writes this page again (and its reruns).
    options = ("--ladder-games {} --search-games 0 --card-games {} --heuristic-games 50 "
               "--best-heuristic-games 0 --auction-games 5")  # fmt: skip
    command = "fairysim report fairyland --games 40 --seed 2 " + options
    assert command.format(300, 60) in page
    # The card-effect section (ruling PL10): 20 forest types (no ogre) and 19 court items.
    text = text_of(page)
    assert "Card strength as an effect" in text
    assert "another scale than the card balance section's lift" in text
    assert command.format(300, 600) in text and command.format(3000, 60) in text
    effects = pd.read_csv(out / "fairyland-card_effects.csv")
    assert effects["players"].tolist() == [2] * 39 and effects["games"].max() <= 60
    assert "Ogre (taken)" not in set(effects["label"])
    assert (out / "fairyland-card_effects.png").exists()
    # Ogres and goblins removed from the forest (ruling PL12), by turn position.
    assert "A card type removed from the forest, by turn position" in text
    removals = pd.read_csv(out / "fairyland-card_removals.csv")
    assert set(removals["label"]) == {"Ogres", "Goblins"}
    positions = removals[removals["group"] == "turn position"]
    assert sorted(set(positions["index"])) == [0, 1] and removals["games"].eq(60).all()
    tested = removals["effect_low"].notna()
    excludes = (removals["effect_low"] > 0) | (removals["effect_high"] < 0)
    assert (excludes[tested] == removals.loc[tested, "effect_significant"]).all()
    length = removals[removals["metric"] == "game_length"].set_index("label")
    assert (length["difference"] < 0).all()  # a shorter forest, a shorter game
    # The skill ladder, with its rerun line.
    ladder = pd.read_csv(out / "fairyland-ladder.csv")
    assert ladder["policy"].tolist() == ["random", "greedy", "value-bidder"]  # no search rung
    # The court comparisons checked under value-bidder at the one player count played.
    check = pd.read_csv(out / "fairyland-court_check.csv")
    assert len(check) == 27 and set(check["court"]) == {"random", "starred"}
    assert (
        "under the best heuristic, value-bidder, at every seat, beside greedy at every seat: "
        "2 players, 50 games a court under each policy, seed 2"
    ) in text
    changed = int(check["changed"].sum())
    if changed:
        assert f"Warning: {changed} of the 27 court comparisons" in text
    else:
        assert "Every one of the 27 court comparisons" in text
    # Who wins the 2-player auctions under each policy, and why (L5).
    contest = pd.read_csv(out / "fairyland-auction_contest.csv")
    assert contest["policy"].tolist() == ["greedy", "value-bidder", "random"]
    assert (contest["games"] == 5).all()
    assert "the explorer last (ruling L5)" in text
    greedy = contest.iloc[0]
    assert f"greedy: the explorer wins {100 * greedy['explorer_share']:.2f}%" in text


@pytest.mark.usefixtures("figures_unrendered")
def test_failure_mid_way_leaves_nothing(tmp_path, monkeypatch):
    def broken(_study, *_measure):
        raise RuntimeError("figure failed")

    monkeypatch.setattr(fr, "court_figure", broken)
    with pytest.raises(RuntimeError, match="figure failed"):
        fr.write_report(
            tmp_path,
            games=20,
            seed=1,
            players=(2,),
            auction_games=1,
            card_games=10,
            ladder_games=100,
            search_games=0,
            heuristic_games=10,
            best_heuristic_games=0,
        )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.usefixtures("figures_unrendered")
def test_failure_while_writing_keeps_the_old_report(tmp_path, monkeypatch, study):
    old = tmp_path / "fairyland-report.html"
    old.write_text("old report")
    (tmp_path / "fairyland-cards.csv").write_text("old table")
    real_stage = files.stage_bytes

    def stage(path, data):
        if path.name.endswith(".html"):
            raise OSError("disk full")
        return real_stage(path, data)

    monkeypatch.setattr(files, "stage_bytes", stage)
    with pytest.raises(FairysimError, match="disk full"):
        fr.build_report(study).write(tmp_path)
    assert old.read_text() == "old report"
    assert (tmp_path / "fairyland-cards.csv").read_text() == "old table"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "fairyland-cards.csv",
        "fairyland-report.html",
    ]


@pytest.mark.usefixtures("figures_unrendered")
def test_the_command_line_writes_the_report(tmp_path):
    result = runner.invoke(
        app,
        ["report", "fairyland", "--games", "30", "--seed", "4", "--auction-games", "2",
         "--card-games", "20", "--ladder-games", "200", "--policy", "random",
         "--heuristic-games", "20", "--search-games", "0", "--best-heuristic-games", "0",
         "--out-dir", str(tmp_path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    html = Path(result.output.split("Report written to ", 1)[1].strip())
    assert html == tmp_path / "fairyland-report.html"
    page_text = text_of(html.read_text())
    assert "every seat plays random" in page_text
    assert (
        "fairysim report fairyland --games 30 --seed 4 --policy random --ladder-games 200 "
        "--search-games 0 --card-games 20 --heuristic-games 20 --best-heuristic-games 0 "
        "--auction-games 2" in page_text
    )
    assert "--search-games 0 --card-games 200 --heuristic-games 20" in page_text  # its rerun
    assert "value-bidder, at every seat, beside random at every seat" in page_text
    assert "random: the explorer wins" in page_text and "greedy: the explorer wins" in page_text


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--auction-games", "0"], "--auction-games"),
        (["--policy", "greedy,random"], "--policy"),
        (["--policy", "nobody"], "--policy"),
        (["--games", "0"], "--games"),
        (["--card-games", "0"], "--card-games"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, args, option):
    result = runner.invoke(app, ["report", "fairyland", "--out-dir", str(tmp_path / "r"), *args])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {option}"), result.output
    assert not (tmp_path / "r" / "fairyland-report.html").exists()


@pytest.mark.usefixtures("figures_unrendered")
def test_a_card_type_without_lift_is_ranked_last_and_never_named(study):
    # a variant card file without unicorns: nobody collects one, so it has no lift
    pooled = study.cards_pooled.copy()
    first = pooled.index[0]
    pooled.loc[first, ["lift", "se", "low", "high", "p_value", "p_adjusted"]] = float("nan")
    pooled.loc[first, "significant"] = False
    pooled = pd.concat([pooled.drop(index=first), pooled.loc[[first]]], ignore_index=True)
    text = text_of(fr.build_report(replace(study, cards_pooled=pooled)).html())
    assert "Lowest estimated lift: " + pooled["label"].iloc[0] not in text
    assert f"Lowest estimated lift: {pooled['label'].iloc[-2]}" in text
    assert " nan" not in text


@pytest.mark.usefixtures("figures_unrendered")
def test_the_lift_table_carries_each_cards_forced_effect_and_words_the_lift_as_association(
    study,
):
    """Every card's forced-card effect stands beside its lift, and a card whose lift is
    significantly low while forcing it helps is named as such (the issue's Moonlit Crown)."""
    from fairysim.analysis.studies.card_effects import CardEffectStudy

    pooled = study.cards_pooled.copy()
    pooled["lift"], pooled["low"], pooled["high"] = -0.154, -0.2, -0.1
    pooled["significant"] = True
    labels = pooled["label"].tolist()
    effects = pd.DataFrame(
        {
            "players": 2,
            "card": range(len(labels)),
            "label": labels,
            "effect": [0.04] + [0.001] * (len(labels) - 1),
            "effect_se": 0.009,
            "association": 0.0,
            "association_se": 0.01,
        }
    )
    study_effects = CardEffectStudy(effects, pd.DataFrame(), {}, [], {"games": 500})
    page = fr.Report("t", "t.html", "fairyland-")
    fr._card_section(page, replace(study, cards_pooled=pooled), study_effects)
    text = text_of(page.html())
    assert "forced-card effect" in text and "effect's corrected interval" in text
    assert f"For example {labels[0]}: lift -15.4 pp, forced-card effect +4.0 pp [" in text
    assert f"of the {len(labels)} with a significantly negative lift, 1 raise" in text
    assert "worth" not in text and "moves the win share" not in text
    csv = next(a for a in page.assets if a.name == "fairyland-cards_pooled.csv").data.decode()
    assert "forced_effect_low" in csv.splitlines()[0]
