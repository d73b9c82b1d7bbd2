"""`fairysim sweep fantastique|concerto` end to end, resume, one-line errors.

The first Fantastique and Concerto sweeps start the default local cluster, as a user's command
does; the others are played on the module's cluster (``--scheduler``, the ``scheduler`` fixture),
which starts its worker processes once, not once a sweep."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from rich.console import Console
from typer.testing import CliRunner

from fairysim import sweep
from fairysim.analysis.wording import wording_of
from fairysim.cli import app
from fairysim.cli import sweep as sweep_cli
from fairysim.sim import concerto
from fairysim.sim.concerto.cards import DEFAULT_CARDS as CONCERTO_CARDS
from fairysim.sim.fantastique import make_setup, simulate_summary
from fairysim.sim.game import get_game
from fairysim.sweep import read_sweep

runner = CliRunner(env={"COLUMNS": "1000"})  # wide enough that rich never folds a name

COMMON = ["--fan", "I,II", "--players", "2,3", "--policy", "greedy", "--policy", "random"]


def printed_share(share: float, low: float, high: float) -> str:
    """A pattern of a share and its interval as the table prints them (percent, one
    decimal)."""
    shown = [f"{100 * value:.1f}%" for value in (share, low, high)]
    return re.escape(shown[0]) + r" +" + re.escape(f"[{shown[1]}, {shown[2]}]")


def run(*args: str):
    """Invoke `fairysim sweep fantastique ARGS` in-process."""
    return runner.invoke(app, ["sweep", "fantastique", *args])


def assert_one_line_error(result, option: str) -> None:
    """Exit 2, and the whole output is one line naming ``option``, with no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {option}: "), lines[0]
    assert "Traceback" not in result.output


def assert_printed_rows_are_the_files(out, output: str, rows: int) -> None:
    """Every printed row is shares.parquet's: its win share, corrected interval and verdict,
    which agree (the verdict is "-" exactly where the interval holds the fair share); and
    summary.parquet's lineup seats carry their corrected intervals too."""
    from fairysim.cli.simulate import verdict
    from fairysim.stats.corrections import interval_agrees

    shares = pd.read_parquet(out / "shares.parquet")
    assert len(shares) == rows
    assert interval_agrees(shares).all()
    for row in shares.to_dict("records"):
        printed = printed_share(row["win_share"], row["low"], row["high"])
        assert re.search(printed + rf" +{re.escape(verdict(row))} ", output), printed
        assert (verdict(row) == "-") == (row["low"] <= row["fair"] <= row["high"])
    summary, _ = read_sweep(out)
    assert {"low", "high", "significant", "fair"} <= set(summary.columns)
    assert interval_agrees(summary).all()
    assert "win_low" not in summary.columns


def test_sweep_prints_table_writes_files_and_resumes(tmp_path):
    out = tmp_path / "sweep"
    args = [*COMMON, "--games", "300", "--seed", "2", "--out-dir", str(out)]
    # The default local cluster: one worker process.
    result = run(*args, "--workers", "1", "--task-games", "100")
    assert result.exit_code == 0, result.output
    assert (
        "Fantastique sweep: players 2,3 x fan I,II x 2 lineups = 8 cells, 300 games each, "
        "seed 2; 8 played, 0 resumed"
    ) in result.output
    # one policy at every seat: rows by turn position, one corrected family a cell (as simulate)
    assert (
        "Per cell and turn position: win share (ties split), interval Holm-corrected over the "
        "cell's rows (95% family-wise) against the fair share"
    ) in result.output
    assert "95% CI" not in result.output and "Wilson" not in result.output
    summary, meta = read_sweep(out)
    assert meta["config"]["lineups"] == ["greedy", "random"]
    assert len(list((out / "cells").glob("*.json"))) == 8
    assert_printed_rows_are_the_files(out, result.output, 2 * 2 * (2 + 3))
    # and the file's numbers are simulate_summary's
    cell = summary[(summary.fan == "II") & (summary.players == 3) & (summary.lineup == "random")]
    expected = simulate_summary(make_setup(players=3, fan="II", policies="random", seed=2), 300)
    pd.testing.assert_frame_equal(
        cell[list(expected.columns)].reset_index(drop=True), expected, check_exact=True
    )

    # Same command again: nothing to play, same table.
    again = run(*args)
    assert again.exit_code == 0, again.output
    assert "Resuming: 8 of 8 cells already finished" in again.output
    assert "0 played, 8 resumed" in again.output
    table = result.output[result.output.index("Per cell and") :]
    assert again.output[again.output.index("Per cell and") :] == table

    # A changed configuration for the same folder is refused.
    changed = run(*COMMON, "--games", "400", "--seed", "2", "--out-dir", str(out))
    assert_one_line_error(changed, "--out-dir")
    assert re.search(r"games 300 there, 400 now", changed.output)


def test_a_mixed_lineup_is_played_on_every_rotation_and_says_so(tmp_path, scheduler):
    """Turn positions where one policy plays every seat, the lineup's entries pooled over the
    rotations of its seats where the lineup mixes policies (said under the table, as simulate
    says it); each cell one corrected family."""
    out = tmp_path / "sweep"
    lineups = ["--policy", "hoarder,greedy", "--policy", "greedy"]
    args = ["--players", "2", "--fan", "I", *lineups, "--games", "300", "--out-dir", str(out)]
    result = run(*args, "--scheduler", scheduler)
    assert result.exit_code == 0, result.output
    assert "Per cell and turn position (lineup entry where the lineup mixes policies)" in (
        result.output
    )
    assert "300 games each (deals, each played once per seat rotation, for a mixed lineup)" in (
        result.output
    )
    assert "turn: " in result.output
    note = next(line for line in result.output.splitlines() if line.startswith("entry: "))
    assert "pooled over the rotations of the seats" in note and "clustered by deal" in note
    assert "seat: lineup seat" not in result.output
    assert_printed_rows_are_the_files(out, result.output, 2 + 2)
    shares = pd.read_parquet(out / "shares.parquet")
    assert shares.groupby("lineup")["row"].first().to_dict() == {
        "greedy": "turn",
        "hoarder,greedy": "entry",
    }


def test_a_lineup_that_repeats_a_policy_labels_its_entries(tmp_path, scheduler):
    out = tmp_path / "sweep"
    args = ["--players", "3", "--deck", "short", "--policy", "stand,redraw-low,stand"]
    args += ["--scheduler", scheduler]
    result = runner.invoke(
        app, ["sweep", "highcard", *args, "--games", "2000", "--out-dir", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "Per cell and lineup entry:" in result.output
    rows = re.findall(r"\d\s+(\S+)\s+\d+\.\d% ", result.output)
    assert rows == ["stand", "redraw-low", "stand#2"]
    assert_printed_rows_are_the_files(out, result.output, 3)


BAD = [
    (["--fan", "VII"], "--fan"),
    (["--fan", "random"], "--fan"),
    (["--cards", "no-such-cards.toml"], "--cards"),
    (["--players", "1"], "--players"),
    (["--players", "2,x"], "--players"),
    (["--policy", "nosuchpolicy"], "--policy"),
    (["--policy", "greedy,random"], "--policy"),
    (["--games", "0"], "--games"),
    (["--task-games", "-1"], "--task-games"),
    (["--workers", "0"], "--workers"),
    (["--seed", "-1"], "--seed"),
]


@pytest.mark.parametrize(("args", "option"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_is_one_line_exit_2_and_no_folder(tmp_path, args, option):
    out = tmp_path / "sweep"
    assert_one_line_error(run("--games", "10", *args, "--out-dir", str(out)), option)
    assert not out.exists()


def test_out_dir_is_a_file(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    assert_one_line_error(run("--games", "10", "--out-dir", str(blocker)), "--out-dir")


def test_unreachable_scheduler(tmp_path, monkeypatch):
    monkeypatch.setattr(sweep.cluster, "CONNECT_TIMEOUT_S", 1.0)
    out = tmp_path / "sweep"
    result = run("--games", "10", "--out-dir", str(out), "--scheduler", "tcp://127.0.0.1:1")
    assert_one_line_error(result, "--scheduler")
    assert not out.exists()


def test_out_dir_is_required():
    result = run("--games", "10")
    assert result.exit_code == 2
    assert "--out-dir" in result.output


def test_help_default_task_games_is_the_engines():
    assert sweep_cli.DEFAULT_TASK_GAMES == sweep.DEFAULT_TASK_GAMES
    assert sweep_cli.RANDOM == sweep.RANDOM
    assert sweep_cli.PRECISION_MAX_GAMES == sweep.run.PRECISION_MAX_GAMES
    result = runner.invoke(app, ["sweep", "fantastique", "--help"])
    assert result.exit_code == 0
    options = ("--fan", "--players", "--policy", "--cards", "--scheduler", "--workers")
    for option in (*options, "--task-games", "--precision", "--max-games"):
        assert option in result.output


# --------------------------------------------------------------------------------------------
# fairysim sweep concerto


def run_concerto(*args: str):
    """Invoke `fairysim sweep concerto ARGS` in-process."""
    return runner.invoke(app, ["sweep", "concerto", *args])


def test_concerto_sweep_prints_table_writes_files_and_resumes(tmp_path):
    out = tmp_path / "sweep"
    cards = tmp_path / "my-cards.toml"
    cards.write_text(CONCERTO_CARDS.read_text())
    args = [
        *("--players", "1,2", "--soloist", "b", "--harpist", "H3,random"),
        *("--policy", "chaser", "--cards", str(cards)),
        *("--games", "200", "--seed", "3", "--out-dir", str(out)),
    ]
    result = run_concerto(*args, "--task-games", "100")
    assert result.exit_code == 0, result.output
    assert (
        "Fairy Concerto sweep: players 1,2 x soloist B x pianist random x harpist H3,random x "
        "1 lineups = 4 cells, 200 games each, seed 3; 4 played, 0 resumed"
    ) in result.output
    assert "Cards: my-cards.toml" in result.output
    assert "A tie with Pahha is a loss" in result.output  # a solo cell is in the grid
    summary, meta = read_sweep(out)
    assert meta["config"]["harpist_card"] == ["H3", "random"]
    assert len(list((out / "cells").glob("*.json"))) == 4
    # Concerto's seat index is its turn order (C4): rows by seat, Pahha's in solo
    assert "Per cell and seat:" in result.output
    assert "seat: seat index = turn order" in result.output
    assert_printed_rows_are_the_files(out, result.output, 4 * 2)
    # the file's numbers are those of the in-process run with the same options
    cell = summary[(summary.players == 1) & (summary.harpist_card == "H3")]
    setup = concerto.make_setup(
        players=1, policies="chaser", seed=3, soloist="B", harpist="H3", cards=cards
    )
    expected = concerto.simulate_summary(setup, 200, chunk_games=100)
    pd.testing.assert_frame_equal(
        cell[list(expected.columns)].reset_index(drop=True), expected, check_exact=True
    )

    # Same command again: nothing to play, same table.
    again = run_concerto(*args)
    assert again.exit_code == 0, again.output
    assert "Resuming: 4 of 4 cells already finished" in again.output
    assert "0 played, 4 resumed" in again.output
    table = result.output[result.output.index("Per cell and") :]
    assert again.output[again.output.index("Per cell and") :] == table


CONCERTO_BAD = [
    (["--players", "5"], "--players"),
    (["--players", "all,1"], "--players"),
    (["--soloist", "E"], "--soloist"),
    (["--pianist", "P9"], "--pianist"),
    (["--harpist", "H1,h1"], "--harpist"),
    (["--cards", "no-such-cards.toml"], "--cards"),
    (["--policy", "greedy,greedy"], "--policy"),
    (["--policy", "nosuchpolicy"], "--policy"),
    (["--games", "0"], "--games"),
    (["--seed", "-1"], "--seed"),
    (["--workers", "0"], "--workers"),
]


@pytest.mark.parametrize(
    ("args", "option"), CONCERTO_BAD, ids=[" ".join(a) for a, _ in CONCERTO_BAD]
)
def test_concerto_bad_input_is_one_line_exit_2_and_no_folder(tmp_path, args, option):
    out = tmp_path / "sweep"
    assert_one_line_error(run_concerto("--games", "10", *args, "--out-dir", str(out)), option)
    assert not out.exists()


def test_concerto_help_spells_the_simulate_options():
    result = runner.invoke(app, ["sweep", "concerto", "--help"])
    assert result.exit_code == 0
    for option in ("--players", "--policy", "--soloist", "--pianist", "--harpist", "--cards"):
        assert option in result.output
    assert "fairysim simulate concerto" in result.output


# --------------------------------------------------------------------------------------------
# fairysim sweep highcard: the toy game of tests/highcard, which no line of src/ names


def test_the_toy_game_has_a_sweep_command(tmp_path, scheduler):
    out = tmp_path / "sweep"
    args = ["--scheduler", scheduler, "--players", "2,3", "--deck", "all"]
    args += ["--policy", "stand,coin,stand"]
    result = runner.invoke(
        app, ["sweep", "highcard", *args, "--games", "200", "--out-dir", str(out)]
    )
    assert result.exit_code == 2  # a 3-seat lineup in a sweep with 2-player cells
    assert result.output.startswith("Error: --policy: ")
    assert not out.exists()
    args[-1] = "redraw-low"
    result = runner.invoke(
        app, ["sweep", "highcard", *args, "--games", "200", "--out-dir", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert (
        "High card sweep: players 2,3 x deck short,long x 1 lineups = 4 cells, 200 games each"
    ) in result.output
    # the toy game's seat index is its turn order: rows by seat, said so
    assert "Per cell and seat:" in result.output
    assert "seat: the seat index is the turn order" in result.output
    assert_printed_rows_are_the_files(out, result.output, 2 * 2 + 2 * 3)
    help_text = runner.invoke(app, ["sweep", "highcard", "--help"]).output
    assert "--deck" in help_text and "fairysim simulate highcard" in help_text


def test_a_stopped_sweep_says_what_it_kept_and_resumes(tmp_path, monkeypatch):
    out = tmp_path / "sweep"
    args = ["--players", "2,3", "--deck", "all", "--policy", "stand", "--games", "200"]
    args += ["--out-dir", str(out)]

    class StopAfterACell(sweep_cli.ProgressBar):
        """Ctrl-C once a cell is on disk."""

        def __call__(self, done: int, total: int) -> None:
            if list((out / "cells").glob("*.json")):
                raise KeyboardInterrupt

    monkeypatch.setattr(sweep_cli, "ProgressBar", StopAfterACell)
    result = runner.invoke(app, ["sweep", "highcard", *args, "--task-games", "50"])
    assert result.exit_code == 130, result.output
    kept = len(list((out / "cells").glob("*.json")))
    assert result.output.strip().splitlines()[-1] == (
        f"Stopped: {kept} finished cells kept in {out}; run the same command to resume"
    )
    monkeypatch.undo()
    again = runner.invoke(app, ["sweep", "highcard", *args])
    assert again.exit_code == 0, again.output
    assert f"{4 - kept} played, {kept} resumed" in again.output


def test_the_table_leaves_out_the_last_means_that_do_not_fit_the_terminal():
    # A grid's axis columns come on top of simulate's table: at 80 columns the last of the
    # game's means goes (and is named) rather than being cut off at the terminal's edge.
    spec = get_game("concerto")
    columns = wording_of(spec).summary
    means = {f"{c}_mean": 12.345 for column in columns for c in column.columns}
    summary = pd.DataFrame(
        [
            {"cell": "c", "players": 1, "soloist_card": "A", "row": "seat", "index": seat}
            | {"policy": policy, "win_share": 0.5, "low": 0.49, "high": 0.51, **means}
            | {"significant": False, "fair": 0.5}
            for seat, policy in enumerate(["greedy", "pahha"])
        ]
    )
    axes = ["players", "soloist_card"]
    wide = Console(width=200, record=True)
    table, left_out = sweep_cli.fitting_table(wide, spec, summary, axes)
    assert left_out == []
    wide.print(table)
    assert "12.35/12.35" in wide.export_text()
    narrow = Console(width=80, record=True)
    table, left_out = sweep_cli.fitting_table(narrow, spec, summary, axes)
    # the columns left out are the last ones, in order, and the last is among them
    headers = [column.header for column in columns]
    assert left_out and left_out == headers[len(headers) - len(left_out) :]
    narrow.print(table)
    text = narrow.export_text()
    assert max(map(len, text.splitlines())) <= 80
    assert re.search(r"\[49\.0%, 51\.0%\] +- +12\.35", text) and "12.35/" not in text


# --------------------------------------------------------------------------------------------
# fairysim sweep GAME --precision H [--max-games N]

PRECISION_BAD = [
    (["--games", "100", "--precision", "0.05"], "--precision"),
    (["--precision", "0.7"], "--precision"),
    (["--precision", "0"], "--precision"),
    (["--max-games", "1000"], "--max-games"),
    (["--games", "100", "--max-games", "1000"], "--max-games"),
    (["--precision", "0.05", "--max-games", "0"], "--max-games"),
]


@pytest.mark.parametrize(
    ("args", "option"), PRECISION_BAD, ids=[" ".join(a) for a, _ in PRECISION_BAD]
)
def test_bad_precision_options_are_one_line_exit_2_and_no_folder(tmp_path, args, option):
    out = tmp_path / "sweep"
    result = runner.invoke(app, ["sweep", "highcard", *args, "--out-dir", str(out)])
    assert_one_line_error(result, option)
    assert not out.exists()


def test_a_precision_sweep_prints_the_watched_rows_and_what_each_cell_reached(tmp_path, scheduler):
    out = tmp_path / "sweep"
    args = ["--players", "2,3", "--policy", "coin", "--precision", "0.03", "--max-games", "8000"]
    args += ["--scheduler", scheduler]
    result = runner.invoke(app, ["sweep", "highcard", *args, "--out-dir", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 cells, each played to --precision 0.03 (at most 8,000 games)" in result.output
    assert (
        "interval Holm-corrected over the cell's rows (98.75% family-wise" in result.output
    )  # 4 looks
    watched = pd.read_parquet(out / "shares.parquet")
    for row in watched.itertuples():
        assert re.search(printed_share(row.win_share, row.low, row.high), result.output)
    for cell in watched.drop_duplicates("cell").itertuples():
        assert f"{cell.games:,}  {cell.widest:.4f}" in result.output
    last = [line for line in result.output.splitlines() if line.startswith("precision reached")]
    assert len(last) == 1 and last[0].startswith(
        f"precision reached in every cell: widest half-width {watched['widest'].max():.4f} "
        "(asked 0.0300) with "
    )
    assert f"{watched['games'].max():,} games a cell" in last[0]
    # The cap first: one line saying what was reached.
    capped = runner.invoke(
        app,
        ["sweep", "highcard", "--players", "3", "--policy", "coin", "--precision", "0.005",
         "--max-games", "1200", "--out-dir", str(tmp_path / "capped"), "--scheduler", scheduler],
    )  # fmt: skip
    assert capped.exit_code == 0, capped.output
    lines = [x for x in capped.output.splitlines() if x.startswith("--max-games")]
    assert len(lines) == 1
    assert re.fullmatch(
        r"--max-games 1,200 reached before --precision 0.005 in 1 of 1 cells: widest "
        r"half-width 0\.\d{4}",
        lines[0],
    )
