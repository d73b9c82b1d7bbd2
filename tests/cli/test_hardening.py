"""Bad input, stops and failed writes, as a careful or a hostile user meets them: every case ends
in one line with its exit code, and nothing already on disk is lost or left behind (issue 17)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fairysim.cli import app
from fairysim.cli.by_game import axis_flag
from fairysim.sim.batch import read_results
from fairysim.sim.concerto.cards import DEFAULT_CARDS, MAX_TOKENS_PER_KIND
from fairysim.sim.game import games, get_game

runner = CliRunner(env={"COLUMNS": "1000"})


def one_line_error(result, option: str | None = None) -> str:
    """Exit 2 and one line of output, with no traceback; the line, for further checks."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    if option is not None:
        assert lines[0].startswith(f"Error: {option}"), lines[0]
    return lines[0]


def files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


# --- Options refused before anything is played or written -------------------------------------


@pytest.mark.parametrize("game", ["fantastique", "concerto", "fairyland", "highcard"])
@pytest.mark.parametrize(
    "args, option",
    [
        (["--games", "99999999999999999999999"], "--games"),
        (["--games", "0"], "--games"),
        (["--threads", "99"], "--threads"),
        (["--chunk-games", "0"], "--chunk-games"),
        (["--out", "{tmp}/afile/x.parquet"], "--out"),
        (["--out", "{tmp}/x.csv"], "--out"),
        (["--out", "{tmp}/x"], "--out"),
        (["--policy", "nosuchpolicy"], "--policy"),
        (["--players", "9"], "--players"),
    ],
)
def test_a_bad_option_is_one_line_and_writes_nothing(tmp_path, game, args, option):
    (tmp_path / "afile").write_text("a file, not a folder")
    before = files_under(tmp_path)
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    one_line_error(runner.invoke(app, ["simulate", game, *args]), option)
    assert files_under(tmp_path) == before


@pytest.mark.parametrize(
    "report, args, option",
    [
        ("fantastique", ["--threads", "99"], "--threads"),
        ("concerto", ["--policy", "nosuchpolicy"], "--policy"),
        ("concerto", ["--cards", "{tmp}/missing.toml"], "--cards"),
        ("concerto-solo", ["--lookahead-games", "0"], "--lookahead-games"),
    ],
)
def test_a_report_with_a_bad_option_creates_no_folder(tmp_path, report, args, option):
    out_dir = tmp_path / "report"
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    one_line_error(runner.invoke(app, ["report", report, "--out-dir", str(out_dir), *args]), option)
    assert not out_dir.exists()


def test_chunks_are_made_one_at_a_time_whatever_the_games():
    # A trillion games: the first chunk comes back at once, with no list of chunks built first.
    spec = get_game("highcard")
    setup = spec.make_setup(players=2, seed=1)
    start = time.perf_counter()
    first, arrays = next(iter(spec.play_chunks(setup, 10**12, chunk_games=100)))
    assert first == 0 and arrays["score"].shape == (100, 2)
    assert time.perf_counter() - start < 30


def test_integer_columns_keep_their_width_across_chunks(tmp_path):
    # A bag past 127 tokens: the per-game `bag_left` needs 16 bits in every chunk, whatever the
    # first chunk held, so the Parquet file is written at any chunk size.
    text = DEFAULT_CARDS.read_text().replace(
        "composer = 8\n", f"composer = {MAX_TOKENS_PER_KIND}\n", 1
    )
    cards = tmp_path / "big-bag.toml"
    cards.write_text(text)
    runs = {}
    for chunk in ("1", "7", "1000"):
        out = tmp_path / f"run-{chunk}.parquet"
        common = ["--players", "3", "--games", "40", "--seed", "3", "--cards", str(cards)]
        result = runner.invoke(
            app, ["simulate", "concerto", *common, "--chunk-games", chunk, "--out", str(out)]
        )
        assert result.exit_code == 0, result.output
        runs[chunk], _ = read_results(out)
    pd.testing.assert_frame_equal(runs["1"], runs["1000"])
    pd.testing.assert_frame_equal(runs["7"], runs["1000"])


# --- Stops and failed writes, in a process of their own ----------------------------------------


def start_run(out: Path, games: int = 10**9) -> subprocess.Popen:
    command = [sys.executable, "-m", "fairysim", "simulate", "fantastique", "--games", str(games)]
    command += ["--chunk-games", "2000", "--seed", "1", "--out", str(out)]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_hear_sigint,
    )


def _hear_sigint() -> None:
    """Let the run hear SIGINT as from a terminal's Ctrl-C even when pytest itself was started
    in the background by a shell, which sets SIGINT to be ignored by everything it starts."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_run_says_so_and_leaves_the_old_output_untouched(tmp_path, signum):
    out = tmp_path / "run.parquet"
    out.write_bytes(b"an earlier run's results")
    process = start_run(out)
    try:
        # Stop once the first chunk is in the temporary file (the engine is compiled, playing).
        deadline = time.monotonic() + 900
        while not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp") and p.stat().st_size]:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the run never started writing"
            time.sleep(0.2)
        time.sleep(1.0)
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        process.kill()  # a run that ignored the signal must not outlive the test
    assert process.returncode == 130, (stdout, stderr)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Stopped: stopped after "), stderr
    assert f"{out} untouched" in lines[0]
    assert out.read_bytes() == b"an earlier run's results"
    assert files_under(tmp_path) == {"run.parquet"}


@pytest.mark.skipif(sys.platform != "linux", reason="needs bash and ulimit")
def test_a_full_disk_is_one_line_and_leaves_nothing(tmp_path):
    # `ulimit -f` caps the size of any file the process writes: the write fails midway.
    out = tmp_path / "run.parquet"
    command = (
        f"ulimit -f 64; exec {sys.executable} -m fairysim simulate fantastique --games 200000 "
        f"--chunk-games 5000 --out {out}"
    )
    result = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=900)
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --out: cannot write"), result.stderr
    assert files_under(tmp_path) == set()


# --- Fuzz: any option values either run or are refused in one line ---------------------------

OPTIONS = (
    "--players",
    "--policy",
    "--games",
    "--seed",
    "--threads",
    "--chunk-games",
    "--weights",
    "--cards",
)
JUNK = st.sampled_from(["", "-1", "0", "1", "2", "3", "4", "7", "1e3", "x", "greedy", "random,x"])
FUZZ = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
"""The default suite: few examples, the same ones every run."""
FUZZ_MANY = settings(FUZZ, max_examples=400, derandomize=False)
"""``-m slow``: many more, new ones each run."""


@st.composite
def simulate_args(draw):
    game = draw(st.sampled_from(sorted(games())))
    spec = get_game(game)
    names = list(OPTIONS) + [axis_flag(axis) for axis in spec.axes]
    args = []
    for option in draw(st.lists(st.sampled_from(names), max_size=4)):
        value = draw(st.one_of(JUNK, st.text(max_size=6), st.integers(-3, 60).map(str)))
        args += [option, value]
    # Few games, so that a valid draw runs in moments.
    return game, [*args, "--games", str(draw(st.integers(-2, 30)))]


def runs_or_fails_in_one_line(folder: Path, game: str, args: list[str]) -> None:
    """``fairysim simulate`` either writes its output, or exits 2 in one line having written
    nothing."""
    out = folder / "fuzz.parquet"
    out.unlink(missing_ok=True)
    result = runner.invoke(app, ["simulate", game, *args, "--out", str(out)])
    assert "Traceback" not in result.output, result.output
    if result.exit_code == 0:
        assert out.exists()
    else:
        one_line_error(result)
        assert not out.exists()
    assert {p.name for p in folder.iterdir()} <= {"fuzz.parquet"}


@FUZZ
@given(case=simulate_args())
def test_fuzzed_options_run_or_fail_in_one_line(tmp_path, case):
    runs_or_fails_in_one_line(tmp_path, *case)


@pytest.mark.slow
@FUZZ_MANY
@given(case=simulate_args())
def test_fuzzed_options_run_or_fail_in_one_line_many_examples(tmp_path, case):
    runs_or_fails_in_one_line(tmp_path, *case)
