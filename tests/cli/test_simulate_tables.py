"""The ``simulate`` tables as a user reads them (issue 25): headers of whole words at 80 and 120
columns, a legend line for every column whose name is not plain, Pahha's row in what Pahha
scores (C8), a title that agrees with the footnotes on ties, and rows by turn order where one
policy plays every seat (F1, L18; Concerto's seat order is its resolution order, C4)."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from fairysim.analysis.wording import wording_of
from fairysim.cli import app
from fairysim.sim.game import get_game

GAMES = "300"


def simulate(game: str, *args: str, width: int = 1000) -> str:
    result = CliRunner(env={"COLUMNS": str(width)}).invoke(
        app, ["simulate", game, "--games", GAMES, "--threads", "1", *args]
    )
    assert result.exit_code == 0, result.output
    return result.output


def header_lines(output: str) -> list[str]:
    """The table's header lines: those between the title (from its line starting "Per " to
    the line ending its last words, "mean points", wrapped at the width) and the rule under
    the header."""
    lines = output.splitlines()
    rule = next(i for i, line in enumerate(lines) if set(line.strip()) == {"─"})
    title = max(i for i in range(rule) if lines[i].startswith("Per "))
    end = next(i for i in range(title, rule) if lines[i].rstrip().endswith("mean points"))
    return lines[end + 1 : rule]


def allowed_words(game: str, first: str) -> set[str]:
    spec = get_game(game, "game")
    names = [first, "policy", "win share", "corrected CI"]
    names += [c.header for c in wording_of(spec).summary]
    return {word for name in names for word in name.split()}


CASES = [
    ("fantastique", ["--players", "4"], "turn"),
    ("fairyland", ["--players", "4"], "turn"),
    ("concerto", ["--players", "4"], "seat"),
    ("concerto", ["--players", "1"], "seat"),
    ("fantastique", ["--players", "3", "--policy", "greedy,random,greedy"], "entry"),
]


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize(("game", "args", "first"), CASES)
def test_no_header_word_is_broken_or_cut(game, args, first, width):
    output = simulate(game, *args, width=width)
    words = allowed_words(game, first)
    tokens = [token for line in header_lines(output) for token in line.split()]
    assert tokens, output
    assert set(tokens) <= words, f"fragments {set(tokens) - words} in\n{output}"
    assert all(len(line) <= width for line in output.splitlines() if "─" in line)


@pytest.mark.parametrize(("game", "args", "first"), CASES[:4])
def test_every_column_not_plainly_named_is_explained_under_the_table(game, args, first):
    output = simulate(game, *args)
    columns = wording_of(get_game(game, "game")).summary
    legends = [c.legend for c in columns if c.legend]
    assert legends
    for legend in legends:
        assert legend in output.splitlines(), legend
    plain = {"score", "items"}
    for column in columns:
        if column.header not in plain:
            assert column.legend, f"{game}: {column.header!r} has no legend"


def test_pahha_row_shows_its_face_down_cards():
    output = simulate("concerto", "--players", "1")
    row = next(line for line in output.splitlines() if " Pahha " in line or " pahha " in line)
    assert "face-down" in row, row
    # Its cell is the mean face-down count (1 setup card + the composers'), never a done/held pair.
    cell = row.split()[-2]
    assert "/" not in cell and float(cell) >= 1.0, row
    assert "3 points each" in output  # the legend says what a face-down card is worth (C8)


def test_fairyland_title_and_footnote_agree_on_ties():
    output = simulate("fairyland", "--players", "3")
    assert "ties split" not in output
    assert "ties broken by L12" in output
    assert "no shared wins" in output


def test_ties_split_where_the_game_shares_wins():
    assert "win share (ties split)" in simulate("fantastique", "--players", "3")


@pytest.mark.parametrize(("game", "note"), [("fantastique", "(F1)"), ("fairyland", "(L18)")])
def test_one_policy_at_every_seat_shows_turn_positions(game, note):
    output = simulate(game, "--players", "3")
    assert "Per turn position:" in output
    assert header_lines(output)[-1].split()[0] == "turn"
    turn_note = next(line for line in output.splitlines() if line.startswith("turn: "))
    assert note in turn_note and "every seat plays greedy" in turn_note


def test_a_mixed_lineup_is_played_on_every_rotation_and_says_so():
    output = simulate("fantastique", "--players", "3", "--policy", "greedy,random,greedy")
    assert "Per lineup entry:" in output
    assert "300 deals x 3 seat rotations = 900 games" in output
    assert header_lines(output)[-1].split()[0] == "entry"
    note = next(line for line in output.splitlines() if line.startswith("entry: "))
    assert "pooled over the 3 rotations" in note and "(F1)" in note and "clustered by deal" in note
    rows = [line.split() for line in output.splitlines() if re.match(r"\s+\d \S+\s+\d+\.\d%", line)]
    assert [row[:2] for row in rows] == [["0", "greedy"], ["1", "random"], ["2", "greedy#2"]]
    assert not any(line.startswith("seat: lineup seat") for line in output.splitlines())


def test_concerto_seats_are_its_resolution_order():
    output = simulate("concerto", "--players", "3")
    assert "Per seat:" in output
    note = next(line for line in output.splitlines() if line.startswith("seat: "))
    assert "(C4)" in note


def test_turn_order_rows_are_the_rows_grouped_by_turn_position():
    from fairysim.sim.run import simulate, simulate_summary

    spec = get_game("fantastique", "game")
    setup = spec.make_setup(players=3, policies="greedy", seed=3)
    turns = simulate_summary(setup, 400, by_turn=True, threads=1).attrs["by_turn"]
    rows = simulate("fantastique", players=3, policies="greedy", games=400, seed=3, threads=1)
    position = (rows["seat"].astype(int) - rows["start_seat"].astype(int)) % 3  # F1
    expected = rows.groupby(position)[["win_share", "score"]].mean()
    assert list(turns["turn"]) == [0, 1, 2]
    assert list(turns["wins"] / turns["games"]) == pytest.approx(list(expected["win_share"]))
    assert list(turns["score_mean"]) == pytest.approx(list(expected["score"]))


def test_report_help_states_every_default_as_a_number():
    runner = CliRunner(env={"COLUMNS": "1000"})
    for name, needles in {
        "fantastique": ["(default: 0.015)", "48,000", "default: 0)"],
        "concerto": ["(default: 0.005)", "480,000"],
        "concerto-solo": ["100,000", "20,000"],
        "fairyland": ["(default: 0.01)", "120,000", "1,000"],
    }.items():
        result = runner.invoke(app, ["report", name, "--help"])
        assert result.exit_code == 0, result.output
        assert "the report's" not in result.output
        for needle in needles:
            assert needle in result.output, (name, needle)


# --------------------------------------------------------------------------------------------
# A mixed lineup on every rotation of its seats, on identical deals (the toy game, tests/highcard)


def highcard(*args: str) -> str:
    result = CliRunner(env={"COLUMNS": "1000"}).invoke(
        app, ["simulate", "highcard", "--deck", "short", "--threads", "1", *args]
    )
    assert result.exit_code == 0, result.output
    return result.output


def entry_rows(output: str) -> dict[str, tuple[float, float, float]]:
    """Each entry's label and (share, low, high) from the table (printed in percent)."""
    rows = re.findall(r"^\s*\d+ (\S+)\s+([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]", output, flags=re.M)
    return {label: tuple(float(n) / 100 for n in numbers) for label, *numbers in rows}


def test_a_stronger_policy_gets_its_known_pooled_share():
    # Short deck (1-6), two players: stand keeps a uniform card; redraw-low redraws below 5, so
    # it ends on 5 or 6 with 10/36 each and on 1-4 with 4/36 each. Its win share (ties split)
    # against stand is P(higher) + P(equal)/2 = 114/216 + 36/216/2 = 11/18.
    args = ["--policy", "stand,redraw-low", "--games", "20000", "--seed", "2"]
    output = highcard("--players", "2", *args)
    rows = entry_rows(output)
    for label, truth in {"redraw-low": 11 / 18, "stand": 7 / 18}.items():
        _, low, high = rows[label]
        assert low <= truth <= high, (label, rows[label])
    assert "vs fair: entry 0 below, entry 1 above" in output
    assert "20,000 deals x 2 seat rotations = 40,000 games" in output


def test_two_copies_of_one_policy_get_equal_shares_within_their_intervals():
    output = highcard("--players", "3", "--policy", "stand,redraw-low,stand", "--games", "3000")
    rows = entry_rows(output)
    assert set(rows) == {"stand", "redraw-low", "stand#2"}
    (first, low1, high1), (second, low2, high2) = rows["stand"], rows["stand#2"]
    assert low1 <= second <= high1 and low2 <= first <= high2
    assert rows["redraw-low"][1] > max(high1, high2)


def test_every_entry_sits_at_every_seat_on_the_same_deals(tmp_path):
    from fairysim.sim.batch import read_results

    out = tmp_path / "rotated.parquet"
    highcard("--policy", "stand,stand,coin", "--games", "200", "--seed", "5", "--out", str(out))
    rows, meta = read_results(out)
    assert len(rows) == 200 * 3 * 3 and meta["config"]["deals"] == 200
    assert meta["config"]["entries"] == ["stand", "stand#2", "coin"]
    # each entry keeps its policy; each (deal, rotation) seats every entry once
    assert rows.groupby("entry")["policy"].unique().map(list).tolist() == [
        ["stand"],
        ["stand"],
        ["coin"],
    ]
    assert (rows.groupby(["game", "rotation"])["entry"].apply(sorted) == [[0, 1, 2]] * 600).all()
    # every entry at every seat once per deal, on deals 0 .. 199
    deals = rows.groupby(["entry", "seat"])["game"].apply(sorted)
    assert len(deals) == 9 and all(d == list(range(200)) for d in deals)
    assert (rows["seat"] == (rows["entry"] - rows["rotation"]) % 3).all()
    # identical deals: a seat that stands keeps the card dealt to it, the same in every rotation
    stood = rows[rows["policy"] == "stand"]
    assert (stood.groupby(["game", "seat"])["score"].nunique() == 1).all()
    assert stood.groupby(["game", "seat"]).size().eq(2).all()  # two rotations stand at each seat


@pytest.mark.parametrize(("game", "column"), [("fairyland", "turn_position")])
def test_the_drawn_turn_order_is_the_deals_in_every_rotation(tmp_path, game, column):
    from fairysim.sim.batch import read_results

    out = tmp_path / "rotated.parquet"
    args = ["--players", "3", "--policy", "greedy,random,greedy", "--out", str(out)]
    simulate(game, *args)
    rows, _ = read_results(out)
    # each (deal, seat) has one turn position whatever entry sits there (L18: drawn per deal)
    assert (rows.groupby(["game", "seat"])[column].nunique() == 1).all()
    assert rows[column].nunique() == 3


def test_the_interval_is_clustered_by_deal(tmp_path):
    import numpy as np
    import statsmodels.api as sm

    from fairysim.sim.batch import read_results
    from fairysim.sim.rotation import rotated_summary

    spec = get_game("highcard", "game")
    setup = spec.make_setup(players=3, policies="stand,redraw-low,coin", deck="short", seed=2)
    out = tmp_path / "rotated.parquet"
    summary = rotated_summary(setup, 1500, out=out, chunk_games=400, threads=1)
    rows, _ = read_results(out)
    for entry, group in rows.groupby("entry"):
        fit = sm.OLS(group["win_share"].to_numpy(), np.ones(len(group))).fit(
            cov_type="cluster", cov_kwds={"groups": group["game"].to_numpy()}
        )
        assert summary["win_share_mean"][entry] == pytest.approx(fit.params[0], rel=1e-12)
        assert summary["se"][entry] == pytest.approx(fit.bse[0], rel=1e-9)
    assert list(summary["games"]) == [1500] * 3 and list(summary["seat_games"]) == [4500] * 3


def test_a_rotated_file_is_the_same_whatever_chunks_and_threads(tmp_path):
    import pandas as pd

    from fairysim.sim.batch import read_results

    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    args = ["--policy", "stand,redraw-low,coin", "--games", "700", "--seed", "3"]
    highcard(*args, "--out", str(a))
    highcard(*args, "--out", str(b), "--chunk-games", "64")
    pd.testing.assert_frame_equal(read_results(a)[0], read_results(b)[0])
    assert read_results(a)[1] == read_results(b)[1]


def test_one_policy_at_every_seat_is_not_rotated():
    output = highcard("--players", "3", "--policy", "stand", "--games", "300")
    assert "Per seat:" in output and "rotation" not in output
    assert "300 games" in output


def test_bad_input_of_a_mixed_lineup_is_one_line():
    result = CliRunner().invoke(
        app, ["simulate", "highcard", "--players", "2", "--policy", "stand,redraw-low",
              "--weights", "2:below=3"],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines() == [
        "Error: --weights: '2:below=3': there is no seat 2 (seats are 0..1)"
    ]
