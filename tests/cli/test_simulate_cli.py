"""`fairysim simulate fantastique` end to end, its one-line errors, and user policies."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

import fairysim
from fairysim.cli import app
from fairysim.sim.batch import read_results
from fairysim.sim.fantastique.policies import POLICIES

README = Path(__file__).resolve().parents[2] / "README.md"

runner = CliRunner(env={"COLUMNS": "1000"})  # wide enough that rich never folds a name


def simulate(*args: str):
    """Invoke `fairysim simulate fantastique ARGS` in-process."""
    return runner.invoke(app, ["simulate", "fantastique", *args])


def assert_one_line_error(result, option: str) -> None:
    """Exit 2, and the whole output is one line naming ``option``, with no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {option}: "), lines[0]
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


def write_module(folder: Path, name: str, source: str) -> str:
    (folder / f"{name}.py").write_text(source)
    return name


@pytest.fixture
def on_path(tmp_path, monkeypatch):
    """A folder on sys.path for user policy modules; their modules are forgotten afterwards."""
    folder = tmp_path / "modules"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    before = set(sys.modules)
    yield folder
    for name in set(sys.modules) - before:
        if (getattr(sys.modules[name], "__file__", None) or "").startswith(str(tmp_path)):
            del sys.modules[name]


def test_writes_parquet_with_metadata_and_prints_summary(tmp_path):
    out = tmp_path / "run.parquet"
    result = simulate(
        "--players",
        "3",
        "--fan",
        "II",
        "--policy",
        "greedy,random,hoarder",
        "--games",
        "300",
        "--seed",
        "1",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    frame, meta = read_results(out)
    # A mixed lineup: 300 deals, each played once per rotation of the 3 seats.
    assert len(frame) == 300 * 3 * 3
    assert set(frame["policy"]) == {"greedy", "random", "hoarder"}
    assert meta["package_version"] == fairysim.__version__
    assert meta["config"]["games"] == 900 and meta["config"]["deals"] == 300
    assert meta["config"]["rotations"] == 3
    assert meta["config"]["seed"] == 1
    assert meta["config"]["fan"] == "II"
    assert meta["config"]["policies"] == ["greedy", "random", "hoarder"]
    assert "corrected" in result.output and "Holm-corrected over the 3 rows" in result.output
    assert "hoarder" in result.output
    assert str(out) in result.output.replace("\n", "")
    # the printed win shares are the file's, per lineup entry (in percent)
    shares = frame.groupby("entry")["win_share"].mean()
    for share in shares:
        assert f"{100 * share:.1f}%" in result.output
    # every entry sat at every seat once per deal, on the same deals (the starter drawn from
    # the deal stream, F1, is each deal's whatever the rotation)
    games = frame.groupby(["entry", "seat"])["game"].apply(lambda g: sorted(g))
    assert len(games) == 9 and all(g == list(range(300)) for g in games)
    starters = frame.groupby("game")["start_seat"].nunique()
    assert (starters == 1).all() and frame["start_seat"].nunique() == 3


def test_same_seed_same_file_whatever_threads_and_chunks(tmp_path):
    a, b, c = tmp_path / "a.parquet", tmp_path / "b.parquet", tmp_path / "c.parquet"
    common = ["--players", "4", "--policy", "random", "--games", "500", "--seed", "7"]
    assert simulate(*common, "--out", str(a)).exit_code == 0
    assert (
        simulate(*common, "--out", str(b), "--threads", "1", "--chunk-games", "64").exit_code == 0
    )
    frame_a, meta_a = read_results(a)
    frame_b, meta_b = read_results(b)
    pd.testing.assert_frame_equal(frame_a, frame_b)
    assert meta_a == meta_b
    other = ["--players", "4", "--policy", "random", "--games", "500", "--seed", "8"]
    assert simulate(*other, "--out", str(c)).exit_code == 0
    assert not read_results(c)[0]["score"].equals(frame_a["score"])


def test_trace_adds_medal_points_per_round(tmp_path):
    out = tmp_path / "trace.parquet"
    assert simulate("--games", "50", "--trace", "--out", str(out)).exit_code == 0
    frame, _ = read_results(out)
    rounds = [c for c in frame.columns if c.startswith("medal_points_round_")]
    assert len(rounds) == 7
    assert (frame["medal_points_round_7"] == frame["medal_points"]).all()


def test_weights_reach_the_run(tmp_path):
    out = tmp_path / "w.parquet"
    result = simulate(
        "--players",
        "2",
        "--policy",
        "greedy,hoarder",
        "--games",
        "50",
        "--weights",
        "hoarder:finale=2, 1:value=0.25",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    _, meta = read_results(out)
    default_count = POLICIES["hoarder"].weights[POLICIES["hoarder"].weight_names.index("count")]
    assert meta["config"]["weights"][1][:3] == [2.0, default_count, 0.25]
    assert "hoarder (finale=2, value=0.25)" in result.output


def test_a_labelled_weight_is_given_and_shown_by_its_label(tmp_path):
    out = tmp_path / "r.parquet"
    result = simulate(
        "--players",
        "2",
        "--policy",
        "rollout,greedy",
        "--games",
        "20",
        "--weights",
        "rollout:default=greedy,rollouts=0",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    assert "rollout (rollouts=0, default=greedy)" in result.output
    _, meta = read_results(out)
    assert meta["config"]["weights"][0][:2] == [0.0, float(list(POLICIES).index("greedy"))]
    bad = simulate("--policy", "rollout", "--games", "5", "--weights", "default=best")
    assert_one_line_error(bad, "--weights")
    assert "'best' is not one of random, greedy, hoarder, balancer" in bad.output


def test_summary_only_without_out(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = simulate("--games", "50")
    assert result.exit_code == 0, result.output
    assert "Wrote" not in result.output
    assert list(tmp_path.iterdir()) == []


BAD_INPUTS = [
    (["--fan", "VII"], "--fan"),
    (["--policy", "nosuchpolicy"], "--policy"),
    (["--policy", "greedy,random,greedy"], "--policy"),
    (["--players", "1"], "--players"),
    (["--players", "6"], "--players"),
    (["--games", "0"], "--games"),
    (["--games", "-3"], "--games"),
    (["--seed", "-1"], "--seed"),
    (["--threads", "0"], "--threads"),
    (["--chunk-games", "0"], "--chunk-games"),
    (["--weights", "finale"], "--weights"),
    (["--weights", "finale=2"], "--weights"),  # greedy has no weights
    (["--policy", "hoarder", "--weights", "hoarder:nope=1"], "--weights"),
    (["--policy", "hoarder", "--weights", "finale=lots"], "--weights"),
    (["--cards", "{tmp}/missing.toml"], "--cards"),
    (["--cards", "{tmp}/bad.toml"], "--cards"),
    (["--cards", "{tmp}/short.toml"], "--cards"),
    (["--policy", "no_such_module_xyz:f"], "--policy"),
]


@pytest.mark.parametrize("existing", [False, True], ids=["no-file", "existing-file"])
@pytest.mark.parametrize(
    ("args", "option"), BAD_INPUTS, ids=lambda v: " ".join(v) if isinstance(v, list) else v
)
def test_bad_input_is_one_line_exit_2_and_no_file(tmp_path, args, option, existing):
    (tmp_path / "bad.toml").write_text("this is = = not toml\n")
    (tmp_path / "short.toml").write_text("[fan_cards]\n1 = 3\n[medals]\ngold = [1, 2]\n")
    out = tmp_path / "run.parquet"
    if existing:
        out.write_bytes(b"an earlier run")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = simulate("--games", "20", *args, "--out", str(out))
    assert_one_line_error(result, option)
    if existing:
        assert out.read_bytes() == b"an earlier run"
    else:
        assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["bad.toml", "short.toml"] + (["run.parquet"] if existing else [])
    )


def test_out_folder_missing(tmp_path):
    out = tmp_path / "no" / "such" / "run.parquet"
    assert_one_line_error(simulate("--games", "20", "--out", str(out)), "--out")
    assert not (tmp_path / "no").exists()


def test_out_is_a_directory(tmp_path):
    assert_one_line_error(simulate("--games", "20", "--out", str(tmp_path)), "--out")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
def test_out_folder_not_writable(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        assert_one_line_error(
            simulate("--games", "20", "--out", str(locked / "run.parquet")), "--out"
        )
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def readme_policy_source() -> str:
    """The `mypolicy.py` example of the README, so that the documented code is the tested code."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    sources = [b for b in blocks if b.startswith("# mypolicy.py")]
    assert len(sources) == 1, "README.md should hold one python block starting '# mypolicy.py'"
    return sources[0]


def test_readme_user_policy_runs(tmp_path, monkeypatch, on_path):
    # as the README says: mypolicy.py in the folder where fairysim runs
    (tmp_path / "mypolicy.py").write_text(readme_policy_source())
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "mine.parquet"
    result = simulate(
        "--players",
        "4",
        "--policy",
        "mypolicy:my_policy,greedy,greedy,greedy",
        "--games",
        "400",
        "--seed",
        "1",
        "--weights",
        "mypolicy:my_policy:w1=2",
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    frame, meta = read_results(out)
    mine = frame["entry"] == 0  # a mixed lineup rotates: the entry, not the seat, is the policy
    assert frame.loc[mine, "policy"].unique().tolist() == ["mypolicy:my_policy"]
    assert meta["config"]["weights"][0][1] == 2.0
    assert frame.loc[mine, "win_share"].sum() > 0  # it plays, and sometimes wins


def test_user_policy_wrong_signature_is_refused(tmp_path, on_path):
    name = write_module(
        on_path, "wrong_signature_policy", "def pick(view, choices):\n    return 0\n"
    )
    out = tmp_path / "run.parquet"
    assert_one_line_error(
        simulate("--policy", f"{name}:pick", "--games", "20", "--out", str(out)), "--policy"
    )
    assert not out.exists()


def test_user_policy_module_that_fails_to_import_is_refused(tmp_path, on_path):
    name = write_module(on_path, "broken_policy_module", "import not_a_real_module_abc\n")
    result = simulate("--policy", f"{name}:pick", "--games", "20")
    assert_one_line_error(result, "--policy")
    assert "not_a_real_module_abc" in result.output


def test_user_policy_missing_function_is_refused(on_path):
    name = write_module(on_path, "empty_policy_module", "X = 1\n")
    assert_one_line_error(simulate("--policy", f"{name}:pick", "--games", "20"), "--policy")


def test_illegal_choice_mid_run_leaves_existing_file_untouched(tmp_path, on_path):
    source = "def cheat(decision, view, choices, n_choices, weights, rng):\n    return n_choices\n"
    name = write_module(on_path, "cheating_policy", source)
    out = tmp_path / "run.parquet"
    out.write_bytes(b"an earlier run")
    result = simulate("--policy", f"{name}:cheat", "--games", "20", "--out", str(out))
    assert_one_line_error(result, "policy")
    assert "game 0, seat " in result.output
    assert out.read_bytes() == b"an earlier run"
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == ["run.parquet"]


def entry_point() -> str:
    script = Path(sys.executable).parent / "fairysim"
    assert script.exists(), f"no fairysim console script next to {sys.executable}: pip install -e ."
    return str(script)


def test_entry_point_version_and_one_line_error(tmp_path):
    version = subprocess.run(
        [entry_point(), "--version"], capture_output=True, text=True, check=False
    )
    assert version.returncode == 0
    assert version.stdout.strip() == f"fairysim {fairysim.__version__}"
    out = tmp_path / "run.parquet"
    bad = subprocess.run(
        [entry_point(), "simulate", "fantastique", "--fan", "VII", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "Error: --fan: must be one of I, II, III, IV, V, VI, got 'VII'"
    ]
    assert not out.exists()


PARSE_ERRORS = [
    (["simulate", "fantastique", "--out", "{out}", "--games", "1e6"], "'--games'"),
    (["simulate", "fantastique", "--out", "{out}", "--gmaes", "5"], "--gmaes"),
    (["simulate", "fantastique", "--out", "{out}", "--games"], "'--games'"),
    (["simulate", "concerto", "--out", "{out}", "--players", "four"], "'--players'"),
    (["simulate", "fantastic", "--out", "{out}"], "'fantastic'"),
    (["report", "fantastic"], "'fantastic'"),
]


@pytest.mark.parametrize(
    ("args", "names"), PARSE_ERRORS, ids=[" ".join(args[1:]) for args, _ in PARSE_ERRORS]
)
def test_errors_found_while_parsing_are_one_line_exit_2(tmp_path, args, names):
    # Typer draws click's own parse errors in a box of several lines; fairysim's group prints
    # them as one line like every other bad input.
    out = tmp_path / "run.parquet"
    result = runner.invoke(app, [a.replace("{out}", str(out)) for a in args])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: "), lines[0]
    assert names in lines[0]
    assert "Traceback" not in result.output
    assert not out.exists()


def test_entry_point_parse_error_is_one_line():
    bad = subprocess.run(
        [entry_point(), "simulate", "fantastique", "--games", "1e6"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    [line] = bad.stderr.strip().splitlines()
    assert line.startswith("Error: Invalid value for '--games'"), line


def test_python_dash_m_runs_the_same_command_line():
    version = subprocess.run(
        [sys.executable, "-m", "fairysim", "--version"], capture_output=True, text=True, check=False
    )
    assert version.returncode == 0
    assert version.stdout.strip() == f"fairysim {fairysim.__version__}"
    bad = subprocess.run(
        [sys.executable, "-m", "fairysim", "simulate", "fantastique", "--players", "6"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "Error: --players: Fantastique is for 2 to 5 players, got 6"
    ]
