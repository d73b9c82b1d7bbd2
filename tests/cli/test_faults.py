"""Hostile input and faults through the command line (issue 25): a full disk, stops at any moment,
malformed files and options. Each case ends in one line naming the option or file, a non-zero
exit and no traceback; nothing is left behind and an existing file is untouched."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import fairysim.runtime.files
from fairysim.cli import app
from fairysim.cli import bench as bench_cli
from fairysim.runtime.files import PARQUET_ROW_GROUP_ROWS
from fairysim.sim.batch import MAX_CHUNK_GAMES
from fairysim.sim.fairyland.cards import DEFAULT_COURT

runner = CliRunner(env={"COLUMNS": "1000"})

SRC = Path(fairysim.runtime.files.__file__).resolve().parents[1]


def one_line(text: str, start: str) -> str:
    """``text`` is one line starting with ``start``, with no traceback; the line."""
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    assert lines[0].startswith(start), lines[0]
    return lines[0]


def refused(result, option: str) -> str:
    """Exit 2 and one line on stderr naming ``option``; the line."""
    assert result.exit_code == 2, result.output
    return one_line(result.stderr, f"Error: {option}")


def files_under(folder: Path) -> dict[str, bytes | None]:
    """Every path under ``folder`` with its bytes (None for a folder or a special file)."""
    return {
        str(p.relative_to(folder)): p.read_bytes() if p.is_file() and not p.is_symlink() else None
        for p in sorted(folder.rglob("*"))
    }


def no_temp_files(folder: Path) -> None:
    left = [str(p) for p in folder.rglob("*") if p.name.endswith(".tmp") or "probe" in p.name]
    assert left == []


def full_disk_for(monkeypatch, name_part: str) -> None:
    """Make every sync of a staged file whose name holds ``name_part`` fail as on a full disk
    (the write of an atomic file syncs it before the rename: the last moment it can fail)."""
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if name_part in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(fairysim.runtime.files.os, "fsync", fsync)


def fairysim_process(*args: str, env: dict[str, str] | None = None, **kw) -> subprocess.Popen:
    """``python -m fairysim ARGS`` from this source tree, hearing SIGINT as from a terminal."""
    environment = {**os.environ, "PYTHONPATH": str(SRC), **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "fairysim", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        **kw,
    )


# --- A full disk --------------------------------------------------------------------------------


needs_proc = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")


@needs_proc
def test_a_full_disk_during_a_sweep_is_one_line_and_leaves_no_temp_file(tmp_path, monkeypatch):
    out = tmp_path / "sweep"
    full_disk_for(monkeypatch, "summary.parquet")
    args = ["--players", "2", "--deck", "short", "--policy", "stand", "--games", "40"]
    result = runner.invoke(app, ["sweep", "highcard", *args, "--out-dir", str(out)])
    line = refused(result, "--out-dir")
    assert f"cannot write {out / 'summary.parquet'} (No space left on device)" in line
    no_temp_files(tmp_path)
    assert not (out / "summary.parquet").exists()
    # The finished cells are kept: the same command, with room on the disk, resumes.
    monkeypatch.undo()
    again = runner.invoke(app, ["sweep", "highcard", *args, "--out-dir", str(out)])
    assert again.exit_code == 0, again.output
    assert "0 played, 1 resumed" in again.output


@needs_proc
def test_a_full_disk_during_a_report_keeps_the_old_report(tmp_path, monkeypatch):
    from fairysim.analysis.report.page import Report

    def write_report(
        out_dir, games=10, seed=1, players=(2,), threads=None, progress=None, **options
    ):
        page = Report("A report", "index.html")
        page.paragraph("text")
        page.file("meta.json", b"{}")
        return page.write(out_dir)

    module = types.ModuleType("fairysim.analysis.fantastique.report")
    module.write_report = write_report
    monkeypatch.setitem(sys.modules, "fairysim.analysis.fantastique.report", module)
    out = tmp_path / "report"
    out.mkdir()
    (out / "index.html").write_text("the earlier report")
    before = files_under(tmp_path)
    full_disk_for(monkeypatch, "index.html")
    result = runner.invoke(app, ["report", "fantastique", "--out-dir", str(out)])
    line = refused(result, "--out-dir")
    assert f"cannot write {out / 'index.html'} (No space left on device)" in line
    assert line.endswith(f"{out / 'index.html'} untouched")
    assert files_under(tmp_path) == before


@needs_proc
def test_a_full_disk_during_bench_json_keeps_the_old_file(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_cli, "run_bench", lambda *a, **k: [])
    out = tmp_path / "bench.json"
    out.write_text('{"earlier": true}\n')
    full_disk_for(monkeypatch, "bench.json")
    result = runner.invoke(app, ["bench", "--game", "fantastique", "--json", str(out)])
    line = refused(result, "--json")
    assert f"cannot write {out} (No space left on device); {out} untouched" in line
    assert files_under(tmp_path) == {"bench.json": b'{"earlier": true}\n'}


def test_bench_json_to_an_unwritable_place_is_refused_before_the_work(monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("the benchmark ran before --json was checked")

    monkeypatch.setattr(bench_cli, "run_bench", never)
    result = runner.invoke(app, ["bench", "--game", "fantastique", "--json", "/proc/x.json"])
    refused(result, "--json: cannot write to /proc")


# --- Outputs that are not plain files or folders ------------------------------------------------


@pytest.mark.parametrize("command", ["sweep", "report"])
def test_an_empty_out_dir_is_refused_not_the_current_folder(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    args = {"sweep": ["sweep", "highcard", "--games", "10"], "report": ["report", "fantastique"]}
    result = runner.invoke(app, [*args[command], "--out-dir", ""])
    refused(result, "--out-dir: is empty")
    assert files_under(tmp_path) == {}


def test_an_out_that_is_a_symlink_is_refused_and_kept(tmp_path):
    target = tmp_path / "real.parquet"
    target.write_bytes(b"an earlier run")
    link = tmp_path / "link.parquet"
    link.symlink_to(target)
    result = runner.invoke(app, ["simulate", "highcard", "--games", "10", "--out", str(link)])
    refused(result, f"--out: {link} is a symbolic link")
    assert link.is_symlink() and target.read_bytes() == b"an earlier run"
    assert sorted(files_under(tmp_path)) == ["link.parquet", "real.parquet"]


def test_an_out_that_is_not_a_regular_file_is_refused_and_kept(tmp_path):
    fifo = tmp_path / "pipe.parquet"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["simulate", "highcard", "--games", "10", "--out", str(fifo)])
    refused(result, f"--out: {fifo} is not a regular file")
    assert fifo.is_fifo() and sorted(files_under(tmp_path)) == ["pipe.parquet"]


@pytest.mark.parametrize(
    "game, option",
    [("fairyland", "--court"), ("fairyland", "--cards"), ("concerto", "--cards")],
)
def test_a_card_file_that_is_a_fifo_is_refused_not_waited_on(tmp_path, game, option):
    fifo = tmp_path / "cards.toml"
    os.mkfifo(fifo)
    # In a process of its own: a regression blocks in open() forever, the test only 300 s.
    process = fairysim_process("simulate", game, option, str(fifo), "--games", "10")
    try:
        _, stderr = process.communicate(timeout=300)
    finally:
        process.kill()
    assert process.returncode == 2, stderr
    one_line(stderr, f"Error: {option}: ")
    assert f"{fifo}: is not a regular file" in stderr


# --- Malformed files and options ---------------------------------------------------------------


def test_a_resumed_sweep_replays_a_cell_file_with_malformed_sums(tmp_path, scheduler):
    out = tmp_path / "sweep"
    args = ["sweep", "highcard", "--players", "2,3", "--deck", "short", "--policy", "stand"]
    args += ["--games", "40", "--out-dir", str(out), "--scheduler", scheduler]
    assert runner.invoke(app, args).exit_code == 0
    cells = sorted((out / "cells").glob("*.json"))
    good = cells[0].read_text()
    for broken in ([], [[1.0]], "x", None):
        record = json.loads(good)
        record["sums"] = broken
        cells[0].write_text(json.dumps(record))
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        assert f"1 played, {len(cells) - 1} resumed" in result.output
        assert cells[0].read_text() == good  # played again: the same numbers
    no_temp_files(tmp_path)


def test_a_policy_weight_past_a_floats_range_is_one_line(tmp_path, monkeypatch):
    (tmp_path / "huge.py").write_text(
        "def pick(decision, view, choices, n_choices, weights, rng):\n"
        "    return 0\n\n"
        "pick_weights = (10**400,)\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = runner.invoke(app, ["simulate", "highcard", "--policy", "huge:pick", "--games", "5"])
    line = refused(result, "--policy: pick_weights[0] must be a finite float")
    assert len(line) < 200


def test_a_policy_module_raising_keyboardinterrupt_is_a_policy_error(tmp_path, monkeypatch):
    (tmp_path / "interrupts.py").write_text("raise KeyboardInterrupt\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = runner.invoke(
        app, ["simulate", "highcard", "--policy", "interrupts:pick", "--games", "5"]
    )
    line = refused(result, "--policy: cannot import module 'interrupts'")
    assert "KeyboardInterrupt" in line


def test_a_keyboardinterrupt_inside_exec_leaves_the_exit_code_alone(tmp_path):
    # Under `python -m`, CPython ends the process by SIGINT once a KeyboardInterrupt has left
    # code run by exec() of a string (as a Ctrl-C landing in numba's generated code does), even
    # one caught since: fairysim's __main__ clears that, so the refusal exits 2.
    (tmp_path / "interrupts.py").write_text('exec("raise KeyboardInterrupt")\n')
    process = fairysim_process(
        "simulate", "fantastique", "--policy", "interrupts:pick", "--games", "5",
        env={"PYTHONPATH": os.pathsep.join([str(SRC), str(tmp_path)])},
    )  # fmt: skip
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 2, (stdout, stderr)
    one_line(stderr, "Error: --policy: cannot import module 'interrupts'")


def test_chunk_games_past_the_maximum_is_refused():
    for value in (str(MAX_CHUNK_GAMES + 1), "99999999999999999999"):
        result = runner.invoke(app, ["simulate", "highcard", "--chunk-games", value])
        refused(result, f"--chunk-games: must be between 1 and {MAX_CHUNK_GAMES:,}")
    help_text = runner.invoke(app, ["simulate", "highcard", "--help"]).output
    assert f"1 to {MAX_CHUNK_GAMES:,}" in help_text  # the maximum is documented


def test_a_court_item_listing_a_card_twice_is_refused(tmp_path):
    text = DEFAULT_COURT.read_text()
    court = tmp_path / "court.toml"
    # The first item that names its cards: name its first card twice.
    start = text.index("cards = ")
    end = text.index("\n", start)
    value = text[start + len("cards = ") : end].strip()
    first = json.loads(value)[0] if value.startswith("[") else json.loads(value)
    court.write_text(
        f"{text[:start]}cards = [{json.dumps(first)}, {json.dumps(first)}]{text[end:]}"
    )
    result = runner.invoke(app, ["simulate", "fairyland", "--court", str(court), "--games", "5"])
    line = refused(result, "--court: ")
    assert f"{court}: item " in line and "more than once" in line


def test_a_weight_given_twice_is_refused():
    result = runner.invoke(
        app, ["simulate", "fantastique", "--policy", "hoarder", "--weights", "finale=1,finale=2"]
    )
    refused(result, "--weights: 'finale=2' sets the same weight as 'finale=1'")


def test_tiny_chunks_cost_no_more_file_than_big_ones(tmp_path):
    # One row group per chunk made a file of 20,000 four-player games in chunks of 3 some 40 MB
    # (1.3 MB in big chunks), written more and more slowly: rows are gathered into row groups
    # of a fixed size whatever the chunk size.
    runs = {}
    for chunk in ("3", "100000"):
        out = tmp_path / f"run-{chunk}.parquet"
        args = ["--players", "4", "--policy", "stand", "--games", "3000", "--chunk-games", chunk]
        args += ["--out", str(out)]
        result = runner.invoke(app, ["simulate", "highcard", *args])
        assert result.exit_code == 0, result.output
        runs[chunk] = out
    tiny, big = (pq.ParquetFile(runs[c]) for c in ("3", "100000"))
    assert tiny.metadata.num_row_groups == big.metadata.num_row_groups == 1
    assert tiny.metadata.num_rows == 12_000 <= PARQUET_ROW_GROUP_ROWS
    assert runs["3"].stat().st_size <= 1.2 * runs["100000"].stat().st_size
    assert tiny.read().equals(big.read())


# --- Environment and scheduler ---------------------------------------------------------------


@pytest.mark.parametrize("value", ["0", "abc", "-2"])
def test_a_bad_numba_num_threads_is_one_line_before_numba_imports(value):
    process = fairysim_process("policies", "highcard", env={"NUMBA_NUM_THREADS": value})
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 2, stderr
    one_line(
        stderr,
        f"Error: NUMBA_NUM_THREADS: must be a positive whole number of threads, got '{value}'",
    )
    assert stdout == ""


def test_a_scheduler_that_is_no_address_is_one_line_and_nothing_later(tmp_path):
    out = tmp_path / "sweep"
    start = time.monotonic()
    process = fairysim_process(
        "sweep", "fantastique", "--out-dir", str(out), "--scheduler", "not a url"
    )
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 2
    # A Client made from a malformed address printed a traceback 20 s after the line.
    one_line(stderr, "Error: --scheduler: 'not a url' is not an address")
    assert time.monotonic() - start < 60
    assert not out.exists()


# --- Stops at any moment ---------------------------------------------------------------------


def wait_for_library(process: subprocess.Popen, name: str, deadline_s: float = 120) -> None:
    """Wait until ``process`` has loaded a shared library whose path holds ``name``."""
    deadline = time.monotonic() + deadline_s
    maps = Path(f"/proc/{process.pid}/maps")
    while name not in maps.read_text():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{name} never loaded"
        time.sleep(0.01)


@needs_proc
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_while_the_command_line_loads_is_one_line(signum):
    process = fairysim_process("policies", "fantastique")
    try:
        wait_for_library(process, "numpy")  # the engines' imports have begun
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, (stdout, stderr)
    one_line(stderr, "Stopped: nothing written")


def spawned_worker(process: subprocess.Popen, deadline_s: float = 120) -> int:
    """The pid of the first process ``process`` spawns through multiprocessing, as soon as it
    exists (its interpreter still starting)."""
    import psutil  # distributed's own dependency

    deadline = time.monotonic() + deadline_s
    parent = psutil.Process(process.pid)
    while True:
        for child in parent.children():
            with contextlib.suppress(psutil.Error):
                if any("spawn_main" in part for part in child.cmdline()):
                    return child.pid
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no worker process was spawned"
        time.sleep(0.005)


def ctrl_c_on_a_sweep(tmp_path: Path, wait: Callable[[subprocess.Popen, Path], None]) -> str:
    """Start a long sweep in a process group of its own, ``wait(process, out_dir)``, send
    SIGINT to the whole group as a terminal's Ctrl-C does; the sweep's stderr, checked to be one
    line with exit 130 and no temporary file left."""
    out = tmp_path / "sweep"
    args = ["sweep", "fantastique", "--players", "2", "--games", "100000000", "--workers", "1"]
    process = fairysim_process(*args, "--out-dir", str(out), start_new_session=True)
    try:
        wait(process, out)
        os.killpg(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        os.killpg(process.pid, signal.SIGKILL) if process.poll() is None else None
    assert process.returncode == 130, (stdout, stderr)
    no_temp_files(tmp_path)
    return one_line(stderr, "Stopped: ")


@needs_proc
def test_ctrl_c_while_a_sweep_worker_starts_is_one_line(tmp_path):
    # The worker is in a process group of its own from its first instruction: a terminal's
    # Ctrl-C, which reaches the sweep's group, never reaches its starting interpreter.
    def worker_starting(process: subprocess.Popen, out: Path) -> None:
        worker = spawned_worker(process)
        assert os.getpgid(worker) == worker != process.pid

    ctrl_c_on_a_sweep(tmp_path, worker_starting)


@pytest.mark.slow
@needs_proc
def test_ctrl_c_on_a_sweep_from_a_terminal_is_one_line(tmp_path):
    # A terminal's Ctrl-C reaches the whole process group: the sweep and its Dask workers.
    def cell_running(process: subprocess.Popen, out: Path) -> None:
        deadline = time.monotonic() + 600
        while not (out / "sweep.json").exists():  # the cluster is up and the cell submitted
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the sweep never started"
            time.sleep(0.2)
        time.sleep(3)

    line = ctrl_c_on_a_sweep(tmp_path, cell_running)
    assert line.startswith("Stopped: no cell finished")
