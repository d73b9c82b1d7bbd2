"""``fairysim compare``: bad input is one line, exit 2, nothing written; a run writes its tables
with the run's metadata and its figure (issue 27)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from fairysim.cli import app
from fairysim.sim.batch import read_results

runner = CliRunner(env={"COLUMNS": "200"})


def one_line_error(result, option: str) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    assert lines[0].startswith(f"Error: {option}"), lines[0]
    return lines[0]


def run(out: Path, *args: str):
    return runner.invoke(
        app,
        ["compare", "fantastique", "--players", "4", "--games", "200", "--seed", "1",
         "--out-dir", str(out), *args],
    )  # fmt: skip


@pytest.mark.parametrize(
    ("args", "option", "words"),
    [
        (["--variant", "colour=red"], "--variant", "unknown option 'colour'"),
        (["--variant", "fan=II", "--variant", "fan"], "--variant", "is not key=value"),
        (["--variant", ""], "--variant", "baseline's setup"),
        (["--baseline", "fan=II", "--variant", "fan=ii"], "--variant", "baseline's setup"),
        (["--variant", "players=3"], "--variant", "changes the player count"),
        (["--variant", "seed=4"], "--variant", "both are played on --seed"),
        (
            ["--variant", "fan=IX"],
            "--variant",
            "--variant: fan: ",
        ),  # the setup key, not simulate's flag
        (["--variant", "policy=greedy,random"], "--variant", "--variant: policy: gave 2"),
        (["--variant", "policies=greedy,random"], "--variant", "gave 2 policies"),
        (["--variant", "fan=II;fan=III"], "--variant", "given twice"),
        (["--variant", "policies=hoarder;weights=9:finale=2"], "--variant", "there is no seat 9"),
        (
            ["--baseline", "policies=hoarder", "--variant", "policies=hoarder;weights=finale=1"],
            "--variant",
            "baseline's setup",
        ),
        (["--baseline", "court=x.toml", "--variant", "fan=II"], "--baseline", "unknown option"),
        (["--variant", "fan=II", "--rank-by", "colour"], "--rank-by", "must be one of"),
        (["--variant", "fan=II", "--rank-position", "0"], "--rank-position", "are 1..4"),
        (
            ["--variant", "fan=II", "--variant", "fan=III", "--label", "two"],
            "--label",
            "gave 1 label for 2 variants (one per --variant",
        ),
        (["--variant", "fan=II;label=a;b"], "--variant", "is not key=value"),
    ],
)
def test_bad_setups_are_one_line_and_write_nothing(tmp_path, args, option, words):
    out = tmp_path / "out"
    line = one_line_error(run(out, *args), option)
    assert words in line
    assert not out.exists()


def test_a_malformed_card_file_is_one_line_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[fan_cards\n1 = 3\n")
    out = tmp_path / "out"
    line = one_line_error(run(out, "--variant", f"cards={bad}"), "--variant")
    assert str(bad) in line
    assert not out.exists()


def test_a_missing_card_file_is_one_line(tmp_path):
    out = tmp_path / "out"
    line = one_line_error(run(out, "--variant", f"cards={tmp_path / 'nope.toml'}"), "--variant")
    assert "nope.toml" in line
    assert not out.exists()


def test_an_out_dir_that_is_a_file_is_refused_before_playing(tmp_path):
    out = tmp_path / "file"
    out.write_text("keep me")
    one_line_error(run(out, "--variant", "fan=II"), "--out-dir")
    assert out.read_text() == "keep me"


def test_an_unknown_game_is_one_line(tmp_path):
    result = runner.invoke(app, ["compare", "chess", "--variant", "x=1", "--out-dir", "o"])
    one_line_error(result, "GAME")


def test_a_run_writes_tables_with_metadata_and_the_figure(tmp_path):
    out = tmp_path / "out"
    result = run(out, "--variant", "fan=II", "--variant", "policies=random,greedy,greedy,greedy")
    assert result.exit_code == 0, result.output
    assert "Pairing narrowed the intervals" in result.output
    assert "Holm-corrected" in result.output
    names = {p.name for p in out.iterdir()}
    assert names == {
        "compare_differences.parquet",
        "compare_ranking.parquet",
        "compare_pairing.parquet",
        "compare_differences.png",
        "compare_differences.svg",
    }
    frame, meta = read_results(out / "compare_differences.parquet")
    assert meta["game"] == "fantastique"
    assert meta["config"]["games"] == 200 and meta["config"]["seed"] == 1
    assert [v["options"] for v in meta["config"]["variants"]] == [
        {"fan": "II"},
        {"policies": "random,greedy,greedy,greedy"},
    ]
    # Labels are short: what a variant changes, cut to 32 characters.
    assert set(frame["variant"]) == {"fan=II", "policies=random,greedy,greedy,g…"}
    ranking = pd.read_parquet(out / "compare_ranking.parquet")
    assert list(ranking["rank"]) == [1, 2]
    assert (out / "compare_differences.svg").read_text().lstrip().startswith("<?xml")


SHIPPED_CARDS = Path(__file__).parents[2] / "src/fairysim/sim/fantastique/data/cards.toml"


def test_a_folder_of_card_files_is_one_variant_per_file_labelled_by_its_name(tmp_path):
    shipped = SHIPPED_CARDS.read_text()
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "rich_gold.toml").write_text(shipped.replace("gold = 20", "gold = 40"))
    (folder / "no_finale_silver.toml").write_text(shipped.replace("silver = 10", "silver = 0"))
    (folder / "notes.txt").write_text("not a card file")
    out = tmp_path / "out"
    result = run(out, "--variant-cards", str(folder), "--variant", "fan=II", "--rank-by", "score")
    assert result.exit_code == 0, result.output
    _, meta = read_results(out / "compare_differences.parquet")
    variants = meta["config"]["variants"]
    assert [v["label"] for v in variants] == ["fan=II", "no_finale_silver", "rich_gold"]
    assert variants[2]["options"] == {"cards": str(folder / "rich_gold.toml")}
    ranking = pd.read_parquet(out / "compare_ranking.parquet")
    assert set(ranking["variant"]) == {"fan=II", "no_finale_silver", "rich_gold"}
    # A Grande Finale gold worth twice as much raises the mean score of the table.
    rich = ranking.set_index("variant").loc["rich_gold"]
    assert rich["difference"] > 0 and rich["low"] > 0


def test_the_folder_keeps_the_baselines_other_options(tmp_path):
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "rich_gold.toml").write_text(
        SHIPPED_CARDS.read_text().replace("gold = 20", "gold = 40")
    )
    out = tmp_path / "out"
    result = run(out, "--baseline", "fan=III", "--variant-cards", str(folder))
    assert result.exit_code == 0, result.output
    _, meta = read_results(out / "compare_differences.parquet")
    assert meta["config"]["variants"][0]["options"] == {
        "fan": "III",
        "cards": str(folder / "rich_gold.toml"),
    }


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda root: root / "missing", "is not a folder"),
        (lambda root: (root / "empty").mkdir() or root / "empty", "holds no .toml card file"),
    ],
)
def test_a_bad_card_folder_is_one_line_and_writes_nothing(tmp_path, make, words):
    folder = make(tmp_path)
    out = tmp_path / "out"
    line = one_line_error(run(out, "--variant-cards", str(folder)), "--variant-cards")
    assert words in line
    assert not out.exists()


def test_no_variant_at_all_is_one_line(tmp_path):
    line = one_line_error(run(tmp_path / "out"), "--variant")
    assert "--variant-cards" in line


@pytest.mark.parametrize(
    ("args", "option", "words"),
    [
        (["--games", "200", "--precision", "0.02"], "--precision", "not both"),
        (["--precision", "0.7"], "--precision", "at most 0.5"),
        (["--max-games", "5000"], "--max-games", "give --precision too"),
        (["--precision", "0.1", "--max-games", "0"], "--max-games", "positive whole number"),
    ],
)
def test_bad_game_counts_are_one_line_and_write_nothing(tmp_path, args, option, words):
    out = tmp_path / "out"
    result = runner.invoke(
        app, ["compare", "fantastique", "--variant", "fan=II", "--out-dir", str(out), *args]
    )
    line = one_line_error(result, option)
    assert words in line
    assert not out.exists()


def test_precision_plays_until_the_differences_are_narrow_enough(tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        ["compare", "fantastique", "--players", "3", "--seed", "1", "--variant", "fan=III",
         "--precision", "0.2", "--out-dir", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "precision reached: every win-share difference within" in result.output
    _, meta = read_results(out / "compare_differences.parquet")
    assert meta["config"]["games"] == 1000
    assert meta["config"]["precision"]["asked"] == 0.2
    assert meta["config"]["precision"]["reached"] is True


def test_compare_leads_with_who_wins_and_prints_every_column_whole(tmp_path):
    """A card file that adds Grande Finale points: the headline is the hoarder's seat's win
    share, not the score it added; labels as given; "vs next" names the next variant; the
    pairing note says the counts are equal."""
    shipped = SHIPPED_CARDS.read_text()
    cards = tmp_path / "finale_x3.toml"
    cards.write_text(
        shipped.replace("gold = 20", "gold = 60").replace("silver = 10", "silver = 30")
    )
    lineup = "policy=hoarder,greedy,greedy,greedy"
    out = tmp_path / "out"
    result = run(
        out, "--baseline", lineup, "--variant", f"{lineup};cards={cards}", "--label", "finale x3",
        "--variant", f"{lineup};fan=III", "--label", "fan three",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    text = result.output
    headline = text.index("What changes who wins:")
    assert headline < text.index("Variants ranked by their change in turn-order spread")
    assert "- finale x3: seat 0 (hoarder) wins " in text
    first = text[headline:].splitlines()[1]
    assert first.startswith("- finale x3: seat 0 (hoarder) wins") and "higher" in first
    assert "score" not in first  # the points it added support the headline, they are not it
    assert text.index("what changes who wins (win share") < text.index("supporting rows")
    ranking = pd.read_parquet(out / "compare_ranking.parquet")
    first, second = ranking["variant"]
    assert ranking["versus_next"].iloc[0] in (
        f"not separated from {second}",
        f"lower than {second}",
    )
    assert ranking["versus_next"].iloc[0] in text
    assert "Holm over the 1 pair of variants" in text
    assert "the card files differ only in values (finale medals)" in text
    assert "common random numbers" in text


def test_differences_print_in_pp_and_never_minus_zero():
    from fairysim.cli.compare_tables import shown

    assert shown("share", -0.00004, -0.0123, 0.034) == ("0.0 pp", "[-1.2, +3.4] pp")
    assert shown("share", 0.086, 0.051, 0.12) == ("+8.6 pp", "[+5.1, +12.0] pp")
    assert shown("points", -0.0, -0.0001, 2.5) == ("0.000", "[0.000, +2.500]")
