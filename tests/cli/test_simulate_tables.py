"""The ``simulate`` tables as a user reads them (issue 25): headers of whole words at 80 and 120
columns, a legend line for every column whose name is not plain, Pahha's row in what Pahha
scores (C8), a title that agrees with the footnotes on ties, and rows by turn order where one
policy plays every seat (F1, L18; Concerto's seat order is its resolution order, C4)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fairysim.cli import app
from fairysim.sim.game import get_game

GAMES = "300"


def simulate(game: str, *args: str, width: int = 80) -> str:
    result = CliRunner(env={"COLUMNS": str(width)}).invoke(
        app, ["simulate", game, "--games", GAMES, "--threads", "1", *args]
    )
    assert result.exit_code == 0, result.output
    return result.output


def header_lines(output: str) -> list[str]:
    """The table's header lines: those between the title line and the rule under the header."""
    lines = output.splitlines()
    rule = next(i for i, line in enumerate(lines) if set(line.strip()) == {"─"})
    title = max(i for i in range(rule) if lines[i].startswith("Per "))
    return lines[title + 1 : rule]


def allowed_words(game: str, first: str) -> set[str]:
    spec = get_game(game, "game")
    names = [first, "policy", "win share", "corrected CI"]
    names += [c.header for c in spec.summary]
    return {word for name in names for word in name.split()}


CASES = [
    ("fantastique", ["--players", "4"], "turn"),
    ("fairyland", ["--players", "4"], "turn"),
    ("concerto", ["--players", "4"], "seat"),
    ("concerto", ["--players", "1"], "seat"),
    ("fantastique", ["--players", "3", "--policy", "greedy,random,greedy"], "seat"),
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
    spec = get_game(game, "game")
    legends = [c.legend for c in spec.summary if c.legend]
    assert legends
    for legend in legends:
        assert legend in output.splitlines(), legend
    plain = {"score", "items"}
    for column in spec.summary:
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


def test_a_mixed_lineup_keeps_its_seats_and_says_so():
    output = simulate("fantastique", "--players", "3", "--policy", "greedy,random,greedy")
    assert "Per seat:" in output
    assert any(line.startswith("seat: lineup seat") for line in output.splitlines())
    assert "random" in output


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
    position = (rows["seat"].astype(int) - rows["first_seat"].astype(int)) % 3  # F1
    expected = rows.groupby(position)[["win_share", "score"]].mean()
    assert list(turns["turn"]) == [0, 1, 2]
    assert list(turns["wins"] / turns["games"]) == pytest.approx(list(expected["win_share"]))
    assert list(turns["score_mean"]) == pytest.approx(list(expected["score"]))


def test_report_help_states_every_default_as_a_number():
    runner = CliRunner(env={"COLUMNS": "250"})
    for name, needles in {
        "fantastique": ["(default: 0.015)", "48,000", "default: 1)"],
        "concerto": ["(default: 0.005)", "480,000"],
        "concerto-solo": ["100,000", "20,000"],
        "fairyland": ["(default: 0.01)", "120,000", "1,000"],
    }.items():
        result = runner.invoke(app, ["report", name, "--help"])
        assert result.exit_code == 0, result.output
        assert "the report's" not in result.output
        for needle in needles:
            assert needle in result.output, (name, needle)
