"""Fairy Concerto on the command line: simulate, report, report-solo, policies and bench."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from fairysim.cli import app
from fairysim.sim.batch import read_results
from fairysim.sim.concerto.cards import DEFAULT_CARDS
from fairysim.sim.game import games

runner = CliRunner(env={"COLUMNS": "1000"})  # wide enough that rich never folds a name
README = Path(__file__).resolve().parents[2] / "README.md"
REPORT_MODULES = {
    "balance": "fairysim.analysis.concerto.report",
    "solo": "fairysim.analysis.concerto.solo_report",
}


def simulate(*args: str):
    """Invoke `fairysim simulate concerto ARGS` in-process."""
    return runner.invoke(app, ["simulate", "concerto", *args])


def assert_one_line_error(result, option: str) -> None:
    """Exit 2, and the whole output is one line naming ``option``, with no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {option}: "), lines[0]
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


def card_file(folder: Path, name: str, old: str, new: str) -> Path:
    """A copy of the shipped card file with one edit."""
    text = DEFAULT_CARDS.read_text()
    assert old in text, old
    path = folder / name
    path.write_text(text.replace(old, new, 1))
    return path


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


# --------------------------------------------------------------------------------------------
# simulate concerto


def test_four_players_write_parquet_and_print_summary(tmp_path):
    out = tmp_path / "run.parquet"
    result = simulate(
        "--players", "4", "--policy", "greedy,maestro,chaser,denier", "--games", "300",
        "--seed", "1", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    frame, meta = read_results(out)
    # A mixed lineup: 300 deals, each played once per rotation of the 4 seats (C4: a seat is
    # a place in the resolution order, which no entry keeps).
    assert len(frame) == 300 * 4 * 4
    assert meta["config"]["policies"] == ["greedy", "maestro", "chaser", "denier"]
    assert meta["config"]["cards_provisional"] is True
    assert meta["config"]["deals"] == 300 and meta["config"]["seed"] == 1
    assert "PROVISIONAL" in result.output and "corrected" in result.output
    for share in frame.groupby("entry")["win_share"].mean():
        assert f"{100 * share:.1f}%" in result.output
    assert f"Wrote 4,800 rows to {out}" in result.output.replace("\n", "")


def test_solo_has_a_pahha_row_and_fixed_setup(tmp_path):
    out = tmp_path / "solo.parquet"
    result = simulate(
        "--players", "1", "--policy", "greedy", "--games", "200", "--soloist", "c",
        "--pianist", "p2", "--harpist", "H3", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    frame, meta = read_results(out)
    assert sorted(frame["policy"].unique()) == ["greedy", "pahha"]
    assert set(frame["soloist_card"]) == {"C"} and set(frame["pianist_card"]) == {"P2"}
    assert set(frame["harpist_card"]) == {"H3"}
    assert (meta["config"]["soloist"], meta["config"]["pianist"]) == ("C", "P2")
    assert "Pahha" in result.output and "tie with Pahha is a loss" in result.output
    assert "soloist C, pianist P2, harpist H3" in result.output


@pytest.mark.parametrize(("players", "rounds"), [(4, 2), (2, 4), (1, 7)])
def test_trace_adds_each_seats_standing_per_round(tmp_path, players, rounds):
    """--trace writes score_round_1 .. _N, the standing after each round of the form (ruling
    PC6), the last the score; in solo Pahha's row too."""
    out = tmp_path / "trace.parquet"
    result = simulate("--players", str(players), "--games", "60", "--trace", "--out", str(out))
    assert result.exit_code == 0, result.output
    frame, _ = read_results(out)
    columns = [c for c in frame.columns if c.startswith("score_round_")]
    assert columns == [f"score_round_{r}" for r in range(1, rounds + 1)]
    assert (frame[f"score_round_{rounds}"] == frame["score"]).all()
    assert frame[columns].notna().all().all()


def test_two_players_same_seed_same_file_whatever_threads_and_chunks(tmp_path):
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    common = ["--players", "2", "--policy", "random", "--games", "300", "--seed", "7"]
    assert simulate(*common, "--out", str(a)).exit_code == 0
    assert (
        simulate(*common, "--out", str(b), "--threads", "1", "--chunk-games", "64").exit_code == 0
    )
    pd.testing.assert_frame_equal(read_results(a)[0], read_results(b)[0])


def test_cards_option_plays_another_file(tmp_path):
    final = card_file(tmp_path, "final.toml", "provisional = true", "provisional = false")
    out = tmp_path / "run.parquet"
    result = simulate("--players", "3", "--games", "50", "--cards", str(final), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "PROVISIONAL" not in result.output
    assert read_results(out)[1]["config"]["cards"] == str(final)


def test_weights_reach_the_run(tmp_path):
    out = tmp_path / "w.parquet"
    result = simulate(
        "--players", "3", "--policy", "chaser,greedy,greedy", "--games", "50",
        "--weights", "chaser:composer=3", "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "chaser (composer=3)" in result.output
    assert read_results(out)[1]["config"]["weights"][0][1] == 3.0


CARD_ERRORS = {
    "negative.toml": (
        ("need = { trumpeter = 3 }", "need = { trumpeter = -1 }"),
        "score card S01: negative need -1 for trumpeter",
    ),
    "kind.toml": (
        ("need = { drummer = 3 }", "need = { tuba = 3 }"),
        "score card S02: unknown kind 'tuba'",
    ),
    "duplicate.toml": (('id = "S02"', 'id = "S01"'), "S01: duplicate id 'S01'"),
    "count.toml": (
        ('[[score_card]]\nid = "S26"', '[[not_a_card]]\nid = "S26"'),
        "has 25 [[score_card]] cards; the game has exactly 26",
    ),
    "harpist.toml": (
        ('kinds = ["drummer", "drummer"]', 'kinds = ["drummer", "tuba"]'),
        "harpist card H1: unknown kind 'tuba'",
    ),
    "syntax.toml": (("provisional = true", "provisional = = true"), ""),
}

BAD_INPUTS = [
    (["--policy", "nosuchpolicy"], "--policy"),
    (["--policy", "greedy,random,greedy"], "--policy"),  # 3 policies for 4 players
    (["--policy", "no_such_module_xyz:f"], "--policy"),
    (["--players", "0"], "--players"),
    (["--players", "5"], "--players"),
    (["--games", "0"], "--games"),
    (["--games", "-3"], "--games"),
    (["--seed", "-1"], "--seed"),
    (["--threads", "0"], "--threads"),
    (["--chunk-games", "0"], "--chunk-games"),
    (["--soloist", "E"], "--soloist"),
    (["--pianist", "P9"], "--pianist"),
    (["--harpist", "P1"], "--harpist"),
    (["--weights", "composer"], "--weights"),
    (["--weights", "nope=1"], "--weights"),  # greedy has no weights
    (["--cards", "{tmp}/missing.toml"], "--cards"),
    *[(["--cards", f"{{tmp}}/{name}"], "--cards") for name in CARD_ERRORS],
]


@pytest.mark.parametrize("existing", [False, True], ids=["no-file", "existing-file"])
@pytest.mark.parametrize(
    ("args", "option"), BAD_INPUTS, ids=lambda v: " ".join(v) if isinstance(v, list) else v
)
def test_bad_input_is_one_line_exit_2_and_no_file(tmp_path, args, option, existing):
    cards = tmp_path / "cards"
    cards.mkdir()
    for name, ((old, new), _) in CARD_ERRORS.items():
        card_file(cards, name, old, new)
    out = tmp_path / "run.parquet"
    if existing:
        out.write_bytes(b"an earlier run")
    args = [a.replace("{tmp}", str(cards)) for a in args]
    result = simulate("--games", "20", *args, "--out", str(out))
    assert_one_line_error(result, option)
    if args[0] == "--cards" and Path(args[1]).name in CARD_ERRORS:
        # the message names the file, the card and the problem
        assert args[1] in result.output
        assert CARD_ERRORS[Path(args[1]).name][1] in result.output
    if existing:
        assert out.read_bytes() == b"an earlier run"
    else:
        assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["cards"] + (["run.parquet"] if existing else [])
    )


def test_out_folder_missing_or_a_directory(tmp_path):
    missing = tmp_path / "no" / "such" / "run.parquet"
    assert_one_line_error(simulate("--games", "20", "--out", str(missing)), "--out")
    assert not (tmp_path / "no").exists()
    assert_one_line_error(simulate("--games", "20", "--out", str(tmp_path)), "--out")


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root may write anywhere")
def test_out_folder_not_writable(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        result = simulate("--games", "20", "--out", str(locked / "run.parquet"))
        assert_one_line_error(result, "--out")
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o700)


def test_user_policy_module_that_fails_to_import_is_refused(tmp_path, on_path):
    (on_path / "broken_concerto_policy.py").write_text("import not_a_real_module_abc\n")
    out = tmp_path / "run.parquet"
    result = simulate("--policy", "broken_concerto_policy:pick", "--games", "20", "--out", str(out))
    assert_one_line_error(result, "--policy")
    assert "not_a_real_module_abc" in result.output
    assert not out.exists()


def test_user_policy_plays(tmp_path, on_path):
    source = "def first(decision, view, choices, n_choices, weights, rng):\n    return 0\n"
    (on_path / "first_concerto_policy.py").write_text(source)
    out = tmp_path / "run.parquet"
    result = simulate(
        "--players", "1", "--policy", "first_concerto_policy:first", "--games", "50",
        "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    frame, _ = read_results(out)
    assert set(frame["policy"]) == {"first_concerto_policy:first", "pahha"}


def test_entry_point_one_line_error(tmp_path):
    script = Path(sys.executable).parent / "fairysim"
    out = tmp_path / "run.parquet"
    bad = subprocess.run(
        [str(script), "simulate", "concerto", "--players", "5", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [
        "Error: --players: Fairy Concerto is for 1 to 4 players, got 5"
    ]
    assert not out.exists()


# --------------------------------------------------------------------------------------------
# policies concerto, help text


def test_policies_lists_every_builtin():
    result = runner.invoke(app, ["policies", "concerto"])
    assert result.exit_code == 0, result.output
    for name in ("random", "greedy", "chaser", "maestro", "denier", "lookahead"):
        assert name in result.output
    assert "rollouts=24" in result.output


def test_help_names_every_game():
    result = runner.invoke(app, ["--help"])
    text = " ".join(result.output.split())
    for spec in games().values():
        assert spec.title in text


def test_lookahead_is_refused_outside_solo():
    result = simulate("--players", "3", "--policy", "lookahead", "--games", "10")
    assert_one_line_error(result, "--policy")
    assert "solo" in result.output


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_lookahead_is_refused_outside_solo_by_its_module_path_too(players):
    # A path to the built-in's own function is the built-in: refused like its name, not
    # accepted to play as greedy (its draft decisions fall back to greedy's).
    path = "fairysim.sim.concerto.policies:lookahead_policy"
    result = simulate("--players", players, "--policy", path, "--games", "10")
    assert_one_line_error(result, "--policy")
    assert "lookahead is for solo" in result.output
    mixed = ",".join(["greedy"] * (int(players) - 1) + [path])
    result = simulate("--players", players, "--policy", mixed, "--games", "10")
    assert_one_line_error(result, "--policy")


LOOKAHEAD_PATH = "fairysim.sim.concerto.policies:lookahead_policy"
"""lookahead by its module path: the built-in itself (refused outside solo by every command)."""


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["tournament", "concerto", "--policy", f"greedy,{LOOKAHEAD_PATH}", "--players", "3"],
         "--policy"),
        (["sweep", "concerto", "--players", "2", "--policy", LOOKAHEAD_PATH, "--games", "10"],
         "--policy"),
        (["metrics", "concerto", "--players", "4", "--policy", LOOKAHEAD_PATH], "--policy"),
        (["replay", "concerto", "--players", "2", "--policy", LOOKAHEAD_PATH], "--policy"),
        (["compare", "concerto", "--players", "3", "--variant", f"policies={LOOKAHEAD_PATH}"],
         "--variant"),
        (["report", "concerto", "--policy", LOOKAHEAD_PATH], "--policy"),
        (["simulate", "concerto", "--players", "3", "--policy", "rollout",
          "--weights", "rollout:default=lookahead"], "--policy"),
    ],
    ids=["tournament", "sweep", "metrics", "replay", "compare", "report", "rollout-default"],
)  # fmt: skip
def test_lookahead_is_refused_at_two_to_four_players_by_every_command(args, option, tmp_path):
    if args[0] in ("sweep", "report", "compare"):
        args = [*args, "--out-dir", str(tmp_path / "out")]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert "lookahead is for solo" in result.output, result.output
    assert lines[0].startswith(f"Error: {option}: "), lines[0]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


# --------------------------------------------------------------------------------------------
# report concerto / concerto-solo


@pytest.fixture
def fake_writers(monkeypatch):
    """Stand in for the report writers: record their arguments, write a stub page."""
    calls = []

    def writer(kind):
        def write(out_dir, cards=None, threads=None, progress=None, **options):
            calls.append({"kind": kind, "out_dir": out_dir, "threads": threads, **options})
            calls[-1]["cards"] = None if cards is None else cards.source
            progress(1, 1)
            html = Path(out_dir) / f"{kind}.html"
            html.write_text("<html></html>")
            return html

        return write

    for kind, name in REPORT_MODULES.items():
        module = types.ModuleType(name)
        module.write_report = writer(kind)
        monkeypatch.setitem(sys.modules, name, module)
    return calls


def test_report_passes_only_given_options(tmp_path, fake_writers):
    out_dir = tmp_path / "new" / "report"
    result = runner.invoke(
        app,
        ["report", "concerto", "--games", "123", "--seed", "9", "--policy", "maestro",
         "--out-dir", str(out_dir), "--threads", "1"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert fake_writers == [
        {
            "kind": "balance",
            "out_dir": out_dir,
            "threads": 1,
            "games": 123,
            "seed": 9,
            "policy": "maestro",
            "cards": str(DEFAULT_CARDS),
        }
    ]
    assert f"Report written to {out_dir / 'balance.html'}" in result.output


def test_report_solo_defaults(tmp_path, monkeypatch, fake_writers):
    monkeypatch.chdir(tmp_path)
    final = card_file(tmp_path, "final.toml", "provisional = true", "provisional = false")
    result = runner.invoke(
        app, ["report", "concerto-solo", "--lookahead-games", "7", "--cards", str(final)]
    )
    assert result.exit_code == 0, result.output
    assert fake_writers == [
        {
            "kind": "solo",
            "out_dir": Path("results/concerto-solo"),
            "threads": None,
            "lookahead_games": 7,
            "cards": str(final),
        }
    ]
    assert (tmp_path / "results" / "concerto-solo" / "solo.html").exists()


@pytest.mark.parametrize("command", ["concerto", "concerto-solo"])
@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--games", "0"], "--games"),
        (["--seed", "-1"], "--seed"),
        (["--threads", "0"], "--threads"),
        (["--out-dir", "{file}"], "--out-dir"),
        (["--cards", "{bad}"], "--cards"),
        (["--cards", "{missing}"], "--cards"),
    ],
)
def test_report_bad_input_is_one_line_exit_2(tmp_path, fake_writers, command, args, option):
    a_file = tmp_path / "a_file"
    a_file.write_text("not a folder")
    bad = card_file(tmp_path, "bad.toml", "need = { trumpeter = 3 }", "need = { trumpeter = -2 }")
    subs = {"{file}": str(a_file), "{bad}": str(bad), "{missing}": str(tmp_path / "none.toml")}
    args = [subs.get(a, a) for a in args]
    result = runner.invoke(app, ["report", command, "--out-dir", str(tmp_path / "r"), *args])
    assert_one_line_error(result, option)
    assert fake_writers == []


@pytest.mark.parametrize(
    ("command", "args", "option"),
    [
        ("concerto", ["--policy", "nosuch"], "--policy"),
        ("concerto", ["--policy", "greedy,random"], "--policy"),
        ("concerto", ["--policy", "no_such_module_xyz:f"], "--policy"),
        ("concerto-solo", ["--lookahead-games", "0"], "--lookahead-games"),
        ("concerto-solo", ["--search-games", "-1"], "--search-games"),
    ],
)
def test_report_specific_bad_input(tmp_path, fake_writers, command, args, option):
    result = runner.invoke(app, ["report", command, "--out-dir", str(tmp_path / "r"), *args])
    assert_one_line_error(result, option)
    assert fake_writers == []


@pytest.mark.usefixtures("figures_unrendered")
def test_real_reports_end_to_end(tmp_path):
    solo = runner.invoke(
        app,
        ["report", "concerto-solo", "--games", "200", "--lookahead-games", "10",
         "--search-games", "0", "--card-games", "300", "--out-dir", str(tmp_path)],
    )  # fmt: skip
    assert solo.exit_code == 0, solo.output
    html = tmp_path / "concerto-solo-report.html"
    assert f"Report written to {html}" in solo.output.replace("\n", "")
    assert "PROVISIONAL" in html.read_text()
    assert "The search player, rollout, was not played" in html.read_text()
    # the report's default seed, 0, as every command's
    assert (
        "fairysim report concerto-solo --games 200 --seed 0 --lookahead-games 10 "
        "--search-games 0 --card-games 3000" in html.read_text()
    )
    solo_effects = pd.read_csv(tmp_path / "concerto-solo-card_effects.csv")
    assert len(solo_effects) == 26 and set(solo_effects["table"]) == {"solo against Pahha"}
    balance = runner.invoke(
        app,
        [
            "report",
            "concerto",
            "--games",
            "150",
            "--card-games",
            "300",
            "--ladder-games",
            "300",
            "--search-games",
            "0",
            "--best-heuristic-games",
            "10",
            "--out-dir",
            str(tmp_path),
        ],
    )
    assert balance.exit_code == 0, balance.output
    page = (tmp_path / "concerto-report.html").read_text()
    assert "fairysim report concerto --games 150 --seed 0" in page
    assert "Card strength as an effect: one more card, by score card" in page
    # the best heuristic from a tournament of greedy, chaser, maestro and denier at 4 players
    ratings = pd.read_csv(tmp_path / "concerto-best_heuristic_ratings.csv")
    assert sorted(ratings["policy"]) == ["chaser", "denier", "greedy", "maestro"]
    assert f"The best heuristic is {ratings['policy'].iloc[0]}, chosen by a tournament" in page
    effects = pd.read_csv(tmp_path / "concerto-card_effects.csv")
    assert effects.groupby("players").size().to_dict() == {2: 26, 3: 26, 4: 26}
    # Every file names a turn position one way, counted from 1 (docs/vocabulary.md).
    for path in tmp_path.glob("*.csv"):
        columns = set(pd.read_csv(path, nrows=1).columns)
        assert not columns & {"position", "first_seat"}, path.name
    turns = pd.read_csv(tmp_path / "concerto-turn_order.csv")
    assert turns["turn_position"].min() == 1
    meta = json.loads((tmp_path / "concerto-metadata.json").read_text())
    assert meta["games"] == 150 and meta["players"] == [2, 3, 4]


# --------------------------------------------------------------------------------------------
# bench, README


@pytest.mark.slow  # its rollout case compiles Concerto's searching kernel (minutes)
def test_bench_runs_the_concerto_cases_with_a_ratio(tmp_path):
    out = tmp_path / "bench.json"
    result = runner.invoke(
        app,
        ["bench", "--game", "concerto", "--games", "200", "--reference-games", "2",
         "--repeats", "1", "--threads", "1", "--json", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    cases = {r["case"]: r for r in json.loads(out.read_text())["results"]}
    assert set(cases) == {
        "4 players, greedy",
        "4 players, greedy, one game at a time",
        "3 players, greedy",
        "2 players, greedy",
        "solo, greedy",
        "solo, greedy, one game at a time",
        "4 players, rollout against chaser",
    }
    for r in cases.values():
        assert r["game"] == "concerto"
        if "rollout" in r["case"]:  # the reference engine cannot play the search player
            assert r["reference_games_per_s"] is None and r["ratio"] is None
            continue
        assert r["ratio"] == r["fast_games_per_s"] / r["reference_games_per_s"]


def test_readme_documents_the_concerto_commands():
    text = README.read_text()
    for snippet in (
        "fairysim simulate concerto",
        "fairysim report concerto-solo",
        "fairysim report concerto",
        "--cards",
        "docs/concerto-cards.md",
    ):
        assert snippet in text, snippet
