"""Sweeps on Dask: same numbers as simulate_summary, resume, refusals, errors naming options.

One local cluster with two worker *processes* serves the whole module (starting one costs a few
seconds); it is reached through ``scheduler=``, the path a multi-machine sweep takes.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import fairysim
from fairysim import sweep
from fairysim.runtime.errors import FairysimError
from fairysim.sim import concerto
from fairysim.sim.concerto.cards import DEFAULT_CARDS as CONCERTO_CARDS
from fairysim.sim.fairyland.cards import DEFAULT_COURT as FAIRYLAND_COURT
from fairysim.sim.fantastique import make_setup, simulate_summary
from fairysim.sim.fantastique.cards import DEFAULT_CARDS as FANTASTIQUE_CARDS
from fairysim.sim.game import get_game
from fairysim.sweep import read_sweep, run_sweep, run_task, task_pieces

GRID = {"fans": "I,III", "players": "2,5", "lineups": ["greedy", "random"], "seed": 4}
GAMES = 700


@pytest.fixture(scope="module")
def finished(scheduler, tmp_path_factory):
    """A finished sweep of GRID (8 cells, tasks of 128 games): its folder and summary."""
    out = tmp_path_factory.mktemp("sweep") / "finished"
    summary = run_sweep(
        "fantastique", **GRID, games=GAMES, out_dir=out, scheduler=scheduler, task_games=128
    )
    return out, summary


def copy_of(finished, tmp_path) -> Path:
    out = tmp_path / "copy"
    shutil.copytree(finished[0], out)
    return out


def cell_files(out: Path) -> dict[str, int]:
    """Cell file name -> modification time (ns)."""
    return {p.name: p.stat().st_mtime_ns for p in (out / "cells").iterdir()}


def test_task_pieces_cut_at_chunk_boundaries():
    assert task_pieces(0, 10, chunk_games=4) == [(0, 4), (4, 4), (8, 2)]
    assert task_pieces(6, 3, chunk_games=4) == [(6, 2), (8, 1)]
    assert task_pieces(8, 4, chunk_games=4) == [(8, 4)]


def test_cells_equal_simulate_summary_whatever_task_size_and_workers(finished, scheduler, tmp_path):
    _, summary = finished
    assert len(summary) == 2 * (2 + 5) * 2
    summary_columns = simulate_summary(make_setup(players=2, seed=4), 10).columns
    for (fan, players, lineup), cell in summary.groupby(["fan", "players", "lineup"], sort=False):
        setup = make_setup(players=players, fan=fan, policies=lineup, seed=GRID["seed"])
        expected = simulate_summary(setup, GAMES)
        got = cell[list(summary_columns)].reset_index(drop=True)
        pd.testing.assert_frame_equal(got, expected, check_exact=True)
    # one task per cell instead of six: the very same numbers
    again = run_sweep(
        "fantastique",
        **GRID,
        games=GAMES,
        out_dir=tmp_path / "one-task",
        scheduler=scheduler,
        task_games=GAMES,
    )
    pd.testing.assert_frame_equal(again, summary, check_exact=True)
    # win shares of a cell sum to 1 and carry their interval, Holm-corrected over the cell's
    # seats, whose verdict agrees with it
    shares = summary.groupby("cell", sort=False)["win_share"].sum()
    np.testing.assert_allclose(shares, 1.0)
    assert (summary["low"] <= summary["win_share"]).all()
    assert (summary["win_share"] <= summary["high"]).all()
    assert interval_agrees(summary).all()


def test_a_fixed_sweep_reports_turn_positions_corrected_as_simulate_does(finished):
    """One policy at every seat: the cell's rows are its turn positions (Fantastique draws its
    starter, F1), the numbers of simulate_summary by turn, one Holm family at 95% a cell, as
    simulate's table; the mixed lineup of
    test_a_mixed_lineup_cell_is_played_on_every_rotation_of_its_seats is rotated."""
    from fairysim.stats.precision import corrected_shares

    out, summary = finished
    shares = summary.attrs["fairysim"]["shares"]
    assert summary.attrs["fairysim"]["precision"] is None
    assert set(shares["row"]) == {"turn"}
    pd.testing.assert_frame_equal(pd.read_parquet(out / "shares.parquet"), shares)
    for (fan, players, lineup), cell in shares.groupby(["fan", "players", "lineup"], sort=False):
        setup = make_setup(players=players, fan=fan, policies=lineup, seed=GRID["seed"])
        expected = corrected_shares(simulate_summary(setup, GAMES, by_turn=True).attrs["by_turn"])
        assert cell["index"].tolist() == list(range(players))
        for column in ("wins", "win_share", "low", "high", "significant", "p_adjusted"):
            np.testing.assert_allclose(
                cell[column].to_numpy(np.float64), expected[column].to_numpy(np.float64)
            )
    assert interval_agrees(shares).all()


def rotated_expected(players, lineup, games, seed, **axes):
    """The toy game's rotated lineup as simulate plays it (every rotation of its seats on deals
    0 .. games - 1), with its rows corrected as simulate's table corrects them."""
    from fairysim.sim.rotation import rotated_summary
    from fairysim.stats.precision import corrected_shares

    spec = get_game("highcard")
    setup = spec.make_setup(players=players, policies=lineup, seed=seed, **axes)
    return corrected_shares(rotated_summary(setup, games))


def test_a_mixed_lineup_cell_is_played_on_every_rotation_of_its_seats(scheduler, tmp_path):
    """A mixed lineup's cell is simulate's rotated lineup: every entry at every seat on the same
    deals, rows the entries pooled over the rotations, intervals clustered by deal in one Holm
    family; redraw-low's share against stand is its known 11/18 (tests/cli/
    test_simulate_tables.py says why), and the numbers are the same whatever the task size or
    the workers, bit for bit, with three entries too (per-deal means of thirds)."""
    grid = {"players": "2,3", "deck": "short", "seed": 2}
    lineups = ["stand,redraw-low", "stand,redraw-low,stand"]
    by_lineup = {}
    for lineup in lineups:
        players = len(lineup.split(","))
        by_lineup[lineup] = run_sweep(
            "highcard", **{**grid, "players": players}, lineups=[lineup], games=3000,
            out_dir=tmp_path / f"mixed{players}", scheduler=scheduler, task_games=700,
        )  # fmt: skip
    for lineup, summary in by_lineup.items():
        players = len(lineup.split(","))
        expected = rotated_expected(players, lineup, 3000, 2, deck="short")
        shares = summary.attrs["fairysim"]["shares"]
        assert set(shares["row"]) == {"entry"}
        assert list(shares["label"]) == list(expected["label"])
        for column in ("games", "wins", "win_share", "se", "low", "high", "p_adjusted"):
            np.testing.assert_array_equal(shares[column], expected[column], err_msg=column)
            np.testing.assert_array_equal(summary[column], expected[column], err_msg=column)
        assert list(summary["seat_games"]) == [3000 * players] * players
        assert [r["rotations"] for r in sweep.iter_cells(tmp_path / f"mixed{players}")] == [players]
    two = by_lineup["stand,redraw-low"].attrs["fairysim"]["shares"].set_index("label")
    for label, truth in {"redraw-low": 11 / 18, "stand": 7 / 18}.items():
        assert two.loc[label, "low"] <= truth <= two.loc[label, "high"]
        assert two.loc[label, "significant"]  # 3,000 deals tell 11/18 from 1/2
    three = by_lineup["stand,redraw-low,stand"].attrs["fairysim"]["shares"]
    assert list(three["label"]) == ["stand", "redraw-low", "stand#2"]
    # A cell's tasks are chunks of 65,536 deals, folded in deal order: two tasks on the two
    # workers give simulate's numbers too.
    long = run_sweep(
        "highcard", **{**grid, "players": 2}, lineups=[lineups[0]], games=65_536 + 300,
        out_dir=tmp_path / "two-chunks", scheduler=scheduler, task_games=1000,
    )  # fmt: skip
    expected = rotated_expected(2, lineups[0], 65_536 + 300, 2, deck="short")
    for column in ("games", "wins", "win_share", "se", "low", "high"):
        np.testing.assert_array_equal(long[column], expected[column], err_msg=column)
    # one task a cell on the default local cluster (one worker): the very same numbers
    again = run_sweep(
        "highcard", **{**grid, "players": 3}, lineups=[lineups[1]], games=3000,
        out_dir=tmp_path / "again", workers=1, task_games=3000,
    )  # fmt: skip
    pd.testing.assert_frame_equal(again, by_lineup[lineups[1]], check_exact=True)
    pd.testing.assert_frame_equal(again.attrs["fairysim"]["shares"], three, check_exact=True)


def test_a_cell_file_of_another_schema_is_played_again(scheduler, tmp_path):
    """A cell written by the previous layout (a mixed lineup unrotated) is not resumed."""
    out = tmp_path / "old"
    args = {"players": 2, "lineups": ["stand,coin"], "games": 200, "seed": 1}
    first = run_sweep("highcard", **args, out_dir=out, scheduler=scheduler)
    (path,) = (out / "cells").iterdir()
    record = json.loads(path.read_text())
    record["schema_version"] = sweep.SWEEP_SCHEMA_VERSION - 1
    path.write_text(json.dumps(record))
    again = run_sweep("highcard", **args, out_dir=out, scheduler=scheduler)
    assert again.attrs["fairysim"]["computed"] == [path.stem]
    assert json.loads(path.read_text())["schema_version"] == sweep.SWEEP_SCHEMA_VERSION
    pd.testing.assert_frame_equal(again, first, check_exact=True)


def test_files_manifest_and_summary(finished):
    out, summary = finished
    manifest = json.loads((out / "sweep.json").read_text())
    assert manifest["package_version"] == fairysim.__version__
    assert manifest["config"]["fan"] == ["I", "III"]
    assert manifest["config"]["players"] == [2, 5]
    assert manifest["config"]["games"] == GAMES
    assert len(manifest["cells"]) == 8
    cells = list(sweep.iter_cells(out))
    assert sorted(c["cell"] for c in cells) == sorted(manifest["cells"])
    assert all(c["package_version"] == fairysim.__version__ for c in cells)
    assert all(c["key"]["games"] == GAMES and c["key"]["seed"] == 4 for c in cells)
    assert not [p for p in (out / "cells").iterdir() if p.suffix != ".json"]  # no temp files
    saved, meta = read_sweep(out)
    pd.testing.assert_frame_equal(saved, summary, check_exact=True)
    assert meta["config"] == manifest["config"]


def test_resume_plays_only_the_missing_cell(finished, tmp_path):
    out = copy_of(finished, tmp_path)
    before = cell_files(out)
    lost = sorted(before)[3]
    (out / "cells" / lost).unlink()
    lines = []
    # No scheduler given: the local cluster starts (in worker processes) for the one cell.
    summary = run_sweep(
        "fantastique", **GRID, games=GAMES, out_dir=out, task_games=256, log=lines.append
    )
    meta = summary.attrs["fairysim"]
    assert meta["computed"] == [lost.removesuffix(".json")]
    assert len(meta["skipped"]) == 7
    assert any(line.startswith("Resuming: 7 of 8 cells") for line in lines)
    after = cell_files(out)
    assert after.keys() == before.keys()
    assert {k: v for k, v in after.items() if k != lost} == {
        k: v for k, v in before.items() if k != lost
    }
    pd.testing.assert_frame_equal(summary, finished[1], check_exact=True)


class StopError(Exception):
    """Stands in for Ctrl-C in the middle of a sweep."""


def test_a_stopped_sweep_resumes_where_it_stopped(finished, scheduler, tmp_path):
    out = tmp_path / "stopped"

    def stop_after_two_cells(done, total):
        if len(list((out / "cells").glob("*.json"))) >= 2:
            raise StopError

    with pytest.raises(StopError):
        run_sweep(
            "fantastique",
            **GRID,
            games=GAMES,
            out_dir=out,
            scheduler=scheduler,
            task_games=128,
            progress=stop_after_two_cells,
        )
    saved = cell_files(out)
    assert 2 <= len(saved) < 8
    assert not (out / "summary.parquet").exists()
    summary = run_sweep(
        "fantastique", **GRID, games=GAMES, out_dir=out, scheduler=scheduler, task_games=128
    )
    assert len(summary.attrs["fairysim"]["skipped"]) == len(saved)
    assert len(summary.attrs["fairysim"]["computed"]) == 8 - len(saved)
    pd.testing.assert_frame_equal(summary, finished[1], check_exact=True)


def test_finished_sweep_needs_no_cluster(finished, tmp_path):
    out = copy_of(finished, tmp_path)
    # An address nothing listens on: never contacted, since every cell is already done.
    summary = run_sweep(
        "fantastique", **GRID, games=GAMES, out_dir=out, scheduler="tcp://127.0.0.1:1"
    )
    assert summary.attrs["fairysim"]["computed"] == []
    pd.testing.assert_frame_equal(summary, finished[1], check_exact=True)


@pytest.mark.parametrize(
    "change",
    [{"games": GAMES + 1}, {"seed": 5}, {"lineups": ["greedy"]}, {"fans": "I,II"}],
    ids=["games", "seed", "lineups", "fans"],
)
def test_changed_configuration_is_refused(finished, tmp_path, change):
    out = copy_of(finished, tmp_path)
    before = cell_files(out)
    args = {**GRID, "games": GAMES, **change}
    with pytest.raises(FairysimError) as error:
        run_sweep("fantastique", **args, out_dir=out, scheduler="tcp://127.0.0.1:1")
    assert error.value.where == "out_dir"
    assert "another configuration" in error.value.message
    assert cell_files(out) == before


def test_a_folder_with_other_cells_is_refused(finished, tmp_path):
    # The same options but other cell files (another fairysim's names, or changed policy
    # defaults): resuming would mix them, so the folder is refused.
    out = copy_of(finished, tmp_path)
    manifest = json.loads((out / "sweep.json").read_text())
    manifest["cells"][0] = "players2_fanI_greedy_0000000000"
    (out / "sweep.json").write_text(json.dumps(manifest))
    with pytest.raises(FairysimError) as error:
        run_sweep("fantastique", **GRID, games=GAMES, out_dir=out, scheduler="tcp://127.0.0.1:1")
    assert error.value.where == "out_dir"
    assert "other cells" in error.value.message


def test_a_card_file_is_played_in_every_cell_and_pinned(scheduler, tmp_path):
    cards = tmp_path / "cards.toml"
    cards.write_text(FANTASTIQUE_CARDS.read_text().replace("gold = 20", "gold = 40", 1))
    args = {"fans": "II", "players": 3, "lineups": ["greedy"], "games": 300, "seed": 6}
    out = tmp_path / "sweep"
    summary = run_sweep("fantastique", **args, cards=cards, out_dir=out, scheduler=scheduler)
    setup = make_setup(players=3, fan="II", seed=6, cards=cards)
    expected = simulate_summary(setup, 300)
    pd.testing.assert_frame_equal(
        summary[list(expected.columns)].reset_index(drop=True), expected, check_exact=True
    )
    shipped = simulate_summary(make_setup(players=3, fan="II", seed=6), 300)
    assert not np.array_equal(expected["finale_points_mean"], shipped["finale_points_mean"])
    # The shipped cards are another configuration for the same folder.
    with pytest.raises(FairysimError) as error:
        run_sweep("fantastique", **args, out_dir=out)
    assert "cards_sha256" in error.value.message


def test_task_and_worker_options_are_not_configuration(finished, tmp_path):
    out = copy_of(finished, tmp_path)
    summary = run_sweep("fantastique", **GRID, games=GAMES, out_dir=out, task_games=5, workers=3)
    assert summary.attrs["fairysim"]["computed"] == []


BAD = [
    ({"fans": "VII"}, "fans"),
    ({"fans": "I,I"}, "fans"),
    ({"fans": ""}, "fans"),
    ({"fans": "random"}, "fans"),  # a fan is never drawn per game
    ({"players": "1"}, "players"),
    ({"players": "2,six"}, "players"),
    ({"players": [4, 9]}, "players"),
    ({"lineups": ["nosuchpolicy"]}, "lineups"),
    ({"lineups": ["greedy,random"]}, "lineups"),  # 2 seats, but the sweep has 4 players
    ({"lineups": ["greedy", "greedy"]}, "lineups"),
    ({"lineups": ["greedy,,random,random"]}, "lineups"),
    ({"lineups": ["no_such_module_xyz:f"]}, "lineups"),
    ({"lineups": []}, "lineups"),
    ({"games": 0}, "games"),
    ({"games": -5}, "games"),
    ({"task_games": 0}, "task_games"),
    ({"seed": -1}, "seed"),
    ({"workers": 0}, "workers"),
    ({"workers": 2, "scheduler": "tcp://127.0.0.1:1"}, "workers"),
    ({"scheduler": ""}, "scheduler"),
]


@pytest.mark.parametrize(("change", "option"), BAD, ids=[f"{o} {c}" for c, o in BAD])
def test_bad_input_names_the_option_and_writes_nothing(tmp_path, change, option):
    args = {"fans": "I", "players": "4", "lineups": ["greedy"], "games": 10, **change}
    with pytest.raises(FairysimError) as error:
        run_sweep("fantastique", **args, out_dir=tmp_path / "out")
    assert error.value.where == option, error.value
    assert list(tmp_path.iterdir()) == []


def test_unknown_game(tmp_path):
    with pytest.raises(FairysimError, match="no sweep for 'chess'"):
        run_sweep("chess", games=10, out_dir=tmp_path / "out")


@pytest.mark.parametrize("where", ["file", "under-file"])
def test_out_dir_that_cannot_be_a_folder(tmp_path, where):
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    out = blocker if where == "file" else blocker / "sweep"
    with pytest.raises(FairysimError) as error:
        run_sweep("fantastique", games=10, out_dir=out)
    assert error.value.where == "out_dir"
    assert blocker.read_text() == "not a folder"


def test_unreachable_scheduler(tmp_path, monkeypatch):
    monkeypatch.setattr(sweep.cluster, "CONNECT_TIMEOUT_S", 1.0)
    out = tmp_path / "out"
    with pytest.raises(FairysimError) as error:
        run_sweep("fantastique", games=10, out_dir=out, scheduler="tcp://127.0.0.1:1")
    assert error.value.where == "scheduler"
    assert "127.0.0.1:1" in error.value.message
    assert not out.exists()  # a sweep that never reached its cluster leaves no folder


def test_an_illegal_policy_answer_comes_back_as_an_error(tmp_path, monkeypatch):
    # Tasks send their errors back pickled (FairysimError keeps its fields); checked here
    # in-process, since the cluster's workers cannot import a module made by this test.
    (tmp_path / "sweep_bad_policy.py").write_text(
        "def cheat(decision, view, choices, n_choices, weights, rng):\n    return n_choices\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    plan = sweep.plan_cells(
        "fantastique", {"fans": "I", "players": 2}, ["sweep_bad_policy:cheat"], 1
    )
    result = run_task(plan.cells[0].task, 5, 3, None)
    assert result.pieces == []
    error = pickle.loads(pickle.dumps(result.error))
    assert error.where == "policy"
    assert "game 5, seat 0" in error.message


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes anywhere")
def test_read_only_out_dir(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(FairysimError) as error:
            run_sweep("fantastique", games=10, out_dir=locked / "sweep")
        assert error.value.where == "out_dir"
    finally:
        locked.chmod(0o700)


# --------------------------------------------------------------------------------------------
# Fairy Concerto

CONCERTO_GRID = {
    "players": "1,3",
    "soloist_card": "a,random",
    "pianist_card": "P2",
    "lineups": ["greedy", "chaser"],
    "seed": 5,
}
CONCERTO_GAMES = 400


def concerto_summary(players, soloist, pianist, harpist, lineup, games, cards=None, **options):
    """The in-process run of one Concerto cell ("random" cards drawn per game)."""
    fixed = [None if card == "random" else card for card in (soloist, pianist, harpist)]
    setup = concerto.make_setup(
        players=players,
        policies=lineup,
        seed=CONCERTO_GRID["seed"],
        cards=cards,
        **dict(zip(("soloist", "pianist", "harpist"), fixed, strict=True)),
    )
    return concerto.simulate_summary(setup, games, **options)


def assert_cells_equal_in_process(summary, games, cards=None, **options):
    """Every cell of a Concerto sweep summary is the in-process run's, float for float."""
    axes = ["players", "soloist_card", "pianist_card", "harpist_card", "lineup"]
    for values, cell in summary.groupby(axes, sort=False):
        expected = concerto_summary(*values[:4], values[4], games, cards, **options)
        got = cell[list(expected.columns)].reset_index(drop=True)
        pd.testing.assert_frame_equal(got, expected, check_exact=True)


@pytest.fixture(scope="module")
def concerto_finished(scheduler, tmp_path_factory):
    """A finished Concerto sweep of CONCERTO_GRID (8 cells, tasks of 100 games)."""
    out = tmp_path_factory.mktemp("concerto") / "finished"
    summary = run_sweep(
        "concerto",
        **CONCERTO_GRID,
        games=CONCERTO_GAMES,
        out_dir=out,
        scheduler=scheduler,
        task_games=100,
    )
    return out, summary


def test_concerto_cells_equal_simulate_summary(concerto_finished, scheduler, tmp_path):
    _, summary = concerto_finished
    # solo cells have a seat for Pahha; 3-player cells three seats
    assert len(summary) == 2 * 2 * (2 + 3)
    assert list(summary.columns[:7]) == [
        "game",
        "cell",
        "players",
        "soloist_card",
        "pianist_card",
        "harpist_card",
        "lineup",
    ]
    assert set(summary["soloist_card"]) == {"A", "random"}
    assert set(summary["harpist_card"]) == {"random"}
    assert list(summary[summary.players == 1]["policy"].unique()) == ["greedy", "pahha", "chaser"]
    # Tasks of 100 games fold their sums as chunks of 100 do: the same floats.
    assert_cells_equal_in_process(summary, CONCERTO_GAMES, chunk_games=100)
    # One task a cell is one chunk, as simulate_summary plays it by default.
    one_task = run_sweep(
        "concerto",
        **CONCERTO_GRID,
        games=CONCERTO_GAMES,
        out_dir=tmp_path / "one-task",
        scheduler=scheduler,
        task_games=CONCERTO_GAMES,
    )
    assert_cells_equal_in_process(one_task, CONCERTO_GAMES)
    # A fixed soloist changes the games: its cells differ from the per-game-drawn ones.
    solo = summary[(summary.players == 1) & (summary.lineup == "greedy")]
    assert solo.groupby("soloist_card")["score_mean"].first().nunique() == 2


def test_concerto_manifest_records_the_grid_and_cards(concerto_finished):
    out, _ = concerto_finished
    config = json.loads((out / "sweep.json").read_text())["config"]
    assert config["game"] == "concerto"
    assert config["players"] == [1, 3]
    assert config["soloist_card"] == ["A", "random"]
    assert config["pianist_card"] == ["P2"]
    assert config["harpist_card"] == ["random"]
    assert config["lineups"] == ["greedy", "chaser"]
    assert config["cards_sha256"] and config["engine_version"] >= 1
    cells = list(sweep.iter_cells(out))
    assert len(cells) == 8
    assert {c["setup"]["pianist"] for c in cells} == {"P2"}
    assert {c["setup"]["soloist"] for c in cells} == {"A", None}


def test_concerto_resume_plays_only_the_missing_cell(concerto_finished, scheduler, tmp_path):
    out = copy_of(concerto_finished, tmp_path)
    before = cell_files(out)
    lost = sorted(before)[2]
    (out / "cells" / lost).unlink()
    lines = []
    summary = run_sweep(
        "concerto",
        **CONCERTO_GRID,
        games=CONCERTO_GAMES,
        out_dir=out,
        scheduler=scheduler,
        task_games=100,
        log=lines.append,
    )
    meta = summary.attrs["fairysim"]
    assert meta["computed"] == [lost.removesuffix(".json")]
    assert len(meta["skipped"]) == 7
    assert any(line.startswith("Resuming: 7 of 8 cells") for line in lines)
    after = cell_files(out)
    assert after.keys() == before.keys()
    assert {k: v for k, v in after.items() if k != lost} == {
        k: v for k, v in before.items() if k != lost
    }
    pd.testing.assert_frame_equal(summary, concerto_finished[1], check_exact=True)
    # Nothing left to play: the scheduler (here one nothing listens on) is never contacted.
    again = run_sweep(
        "concerto",
        **CONCERTO_GRID,
        games=CONCERTO_GAMES,
        out_dir=out,
        scheduler="tcp://127.0.0.1:1",
    )
    assert again.attrs["fairysim"]["computed"] == []
    pd.testing.assert_frame_equal(again, concerto_finished[1], check_exact=True)


def concerto_card_file(folder: Path, old: str, new: str) -> Path:
    """A copy of the shipped Concerto card file with one edit."""
    text = CONCERTO_CARDS.read_text()
    assert old in text, old
    path = folder / "cards.toml"
    path.write_text(text.replace(old, new, 1))
    return path


def test_concerto_cards_file_is_played_and_pinned(scheduler, tmp_path):
    cards = concerto_card_file(
        tmp_path,
        'id = "P1"\nname = "duo"\nkinds = ["trumpeter", "violinist"]',
        'id = "Duo"\nname = "duo"\nkinds = ["drummer", "composer"]',
    )
    args = {
        "players": 2,
        "pianist_card": "all",
        "lineups": ["greedy"],
        "seed": CONCERTO_GRID["seed"],
        "games": 200,
        "cards": cards,
    }
    out = tmp_path / "sweep"
    summary = run_sweep("concerto", **args, out_dir=out, scheduler=scheduler, task_games=200)
    # "all" is every pianist card of the sweep's file, not of the shipped one
    assert list(summary["pianist_card"].unique()) == ["Duo", "P2", "P3"]
    assert_cells_equal_in_process(summary, 200, concerto.load_cards(cards))
    # The same file resumes; an edited one is another configuration and is refused.
    assert run_sweep("concerto", **args, out_dir=out).attrs["fairysim"]["computed"] == []
    cards.write_text(cards.read_text().replace("horn = 12", "horn = 11", 1))
    with pytest.raises(FairysimError) as error:
        run_sweep("concerto", **args, out_dir=out)
    assert error.value.where == "out_dir"
    assert "cards_sha256" in error.value.message


CONCERTO_BAD = [
    ({"players": "5"}, "players"),
    ({"players": "0,1"}, "players"),
    ({"players": "1,one"}, "players"),
    ({"soloist_card": "E"}, "soloist_card"),
    ({"soloist_card": "A,a"}, "soloist_card"),
    ({"pianist_card": "P9"}, "pianist_card"),
    ({"pianist_card": "random,RANDOM"}, "pianist_card"),
    ({"harpist_card": "H1,"}, "harpist_card"),
    ({"lineups": ["greedy,greedy"]}, "lineups"),
    ({"lineups": ["nosuchpolicy"]}, "lineups"),
    ({"seed": -1}, "seed"),
    ({"fans": "I"}, "fans"),  # another game's axis
    ({"games": 0}, "games"),
]


@pytest.mark.parametrize(
    ("change", "option"), CONCERTO_BAD, ids=[f"{o} {c}" for c, o in CONCERTO_BAD]
)
def test_concerto_bad_input_names_the_option_and_writes_nothing(tmp_path, change, option):
    args = {"players": "4", "lineups": ["greedy"], "games": 10, **change}
    with pytest.raises(FairysimError) as error:
        run_sweep("concerto", **args, out_dir=tmp_path / "out")
    assert error.value.where == option, error.value
    assert list(tmp_path.iterdir()) == []


def test_a_card_file_that_is_not_the_games_is_refused(tmp_path):
    with pytest.raises(FairysimError) as error:
        run_sweep("fantastique", games=10, cards=CONCERTO_CARDS, out_dir=tmp_path / "out")
    assert error.value.where == "cards"
    assert str(CONCERTO_CARDS) in error.value.message
    with pytest.raises(FairysimError) as error:
        run_sweep("concerto", games=10, cards=tmp_path / "none.toml", out_dir=tmp_path / "out")
    assert "none.toml" in str(error.value)
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------------------------
# A game that fairysim does not ship: the toy game of tests/highcard, registered by conftest.py


def test_a_game_registered_outside_fairysim_is_swept_by_the_workers(scheduler, tmp_path):
    # The workers import the game's package to find it (tests/ is on their path, as on the
    # client's); its cells are its own simulate_summary's.
    summary = run_sweep(
        "highcard",
        players="2,4",
        deck="all",
        lineups=["stand", "redraw-low"],
        games=300,
        seed=3,
        out_dir=tmp_path / "toy",
        scheduler=scheduler,
        task_games=100,
    )
    assert list(summary.columns[:5]) == ["game", "cell", "players", "deck", "lineup"]
    assert summary.groupby(["players", "deck", "lineup"]).ngroups == 8
    spec = get_game("highcard")
    for (players, deck, lineup), cell in summary.groupby(["players", "deck", "lineup"]):
        setup = spec.make_setup(players=players, policies=lineup, seed=3, deck=deck)
        expected = simulate_summary(setup, 300, chunk_games=100)
        got = cell[list(expected.columns)].reset_index(drop=True)
        pd.testing.assert_frame_equal(got, expected, check_exact=True)
    assert summary.attrs["fairysim"]["config"]["deck"] == ["short", "long"]


TOY_BAD = [
    ({"deck": "tiny"}, "deck"),
    ({"deck": "random"}, "deck"),  # the deck has a default: it is never drawn per game
    ({"players": "5"}, "players"),
    ({"lineups": ["greedy"]}, "lineups"),  # another game's policy
    ({"cards": "cards.toml"}, "--cards"),  # the toy game's own error
]


@pytest.mark.parametrize(("change", "option"), TOY_BAD, ids=[f"{o} {c}" for c, o in TOY_BAD])
def test_the_toy_games_bad_input_names_the_option(tmp_path, change, option):
    args = {"lineups": ["stand"], "games": 10, **change}
    with pytest.raises(FairysimError) as error:
        run_sweep("highcard", **args, out_dir=tmp_path / "out")
    assert error.value.where == option, error.value
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------------------------
# An axis that takes any text: Fairy Land's --court, a court file among the named courts


def test_a_file_an_axis_names_is_pinned_by_its_contents(tmp_path):
    court = tmp_path / "my court.toml"
    court.write_text(FAIRYLAND_COURT.read_text())

    def plan():
        return sweep.plan_cells(
            "fairyland", {"players": 3, "court": f"starred,{court}"}, "random", 1
        )

    before = plan()
    ids = [cell.cell_id for cell in before.cells]
    assert not [cell_id for cell_id in ids if "/" in cell_id or " " in cell_id]
    digests = before.fingerprint()["court_sha256"]
    assert list(digests) == [str(court)]  # starred names no file
    court.write_text(court.read_text() + "# edited\n")
    after = plan()
    assert after.fingerprint()["court_sha256"] != digests
    assert after.cells[0].cell_id == ids[0]
    assert after.cells[1].cell_id != ids[1]  # the edited court's cell is another cell


# "all" is refused by the sweep's axis, which names its declared flag; an unknown court by the
# game's setup, which names its parameter: `fairysim sweep` says --court for both.
@pytest.mark.parametrize(("court", "where"), [("all", "court"), ("nosuchcourt", "court")])
def test_a_bad_court_names_the_option(tmp_path, court, where):
    with pytest.raises(FairysimError) as error:
        run_sweep("fairyland", players=3, court=court, games=10, out_dir=tmp_path / "out")
    assert error.value.where == where
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------------------------
# --precision: each cell played in doubling looks until its reported win shares are precise

PRECISION_GRID = {
    "fans": "I",
    "players": "2,5",
    "lineups": ["greedy", "hoarder,greedy"],
    "seed": 4,
}
"""Four cells, three of them watched by turn position (one policy at every seat) and the
2-player mixed lineup by entry, played on both rotations of its seats, its looks counting
deals; ``hoarder,greedy`` names two seats, so it is only a 2-player lineup: the 5-player cells
take greedy only."""

PRECISION = {"precision": 0.03, "max_games": 16_000}


def precision_run(out, scheduler=None, **options):
    grid = {**PRECISION_GRID, "players": "2", "lineups": ["greedy", "hoarder,greedy"]}
    return [
        run_sweep("fantastique", **grid, **PRECISION, out_dir=out / "two", scheduler=scheduler,
                  **options),
        run_sweep("fantastique", **{**PRECISION_GRID, "players": "5", "lineups": ["greedy"]},
                  **PRECISION, out_dir=out / "five", scheduler=scheduler, **options),
    ]  # fmt: skip


@pytest.fixture(scope="module")
def precise(scheduler, tmp_path_factory):
    """The precision sweeps of PRECISION_GRID, tasks of 300 games on the two-worker cluster."""
    out = tmp_path_factory.mktemp("precise")
    return out, precision_run(out, scheduler, task_games=300)


def watched_of(summaries) -> pd.DataFrame:
    return pd.concat([s.attrs["fairysim"]["precision"] for s in summaries], ignore_index=True)


def test_each_precision_cell_stops_at_its_own_first_look_precise_enough(precise):
    from fairysim.sim.rotation import rotated_summary
    from fairysim.sim.run import simulate_summary as summary_of
    from fairysim.stats.precision import StoppingRule, corrected_shares

    _, summaries = precise
    watched = watched_of(summaries)
    rule = StoppingRule(**PRECISION)
    cells = watched.drop_duplicates("cell").set_index(["players", "lineup"])
    assert set(cells["row"].items()) == {
        ((2, "greedy"), "turn"),
        ((2, "hoarder,greedy"), "entry"),
        ((5, "greedy"), "turn"),
    }
    # 5 rows at a share of 1/5 narrow faster than 2 at 1/2: the cells stop at other looks.
    assert cells.loc[(5, "greedy"), "games"] < cells.loc[(2, "greedy"), "games"]
    for (players, lineup), cell in cells.iterrows():
        games = int(cell["games"])
        assert games in rule.looks and bool(cell["reached"])
        assert cell["widest"] <= PRECISION["precision"] < rule.looks[-1]
        rows = watched[watched["cell"] == cell["cell"]]
        assert (rows["half_width"] <= PRECISION["precision"]).all()
        assert (rows["low"] <= rows["win_share"]).all() and (
            rows["win_share"] <= rows["high"]
        ).all()
        assert interval_agrees(rows).all()
        # The look before did not reach it: the cell stopped at its first look that did.
        setup = make_setup(players=players, fan="I", policies=lineup, seed=4)

        def fixed_run(n, kind=cell["row"], setup=setup):
            """The cell's rows after n games (deals where the lineup is rotated)."""
            if kind == "entry":
                return rotated_summary(setup, n)
            summary = summary_of(setup, n, by_turn=kind == "turn")
            return summary.attrs["by_turn"] if kind == "turn" else summary

        before = fixed_run(rule.looks[rule.looks.index(games) - 1])
        earlier = corrected_shares(before, rule.look_alpha)
        assert earlier["half_width"].max() > PRECISION["precision"]
        # Its figures are those of a fixed run of the games (deals) it stopped at.
        fixed = fixed_run(games)
        np.testing.assert_allclose(rows["win_share"], fixed["wins"] / games, rtol=1e-12)
        np.testing.assert_allclose(rows["score_mean"], fixed["score_mean"], rtol=1e-12)


def interval_agrees(rows):
    from fairysim.stats.corrections import interval_agrees as agrees

    return agrees(rows)


def test_precision_cells_are_recorded_with_their_games_and_reached_precision(precise):
    out, summaries = precise
    records = list(sweep.iter_cells(out / "two"))
    assert len(records) == 2
    for record in records:
        reached = record["precision"]
        assert record["key"]["precision"] == 0.03 and record["key"]["max_games"] == 16_000
        assert "games" not in record["key"]
        assert record["games"] == reached["looks"][-1]
        assert reached["reached"] and reached["half_width"] <= 0.03
        assert reached["planned"] == [1000, 2000, 4000, 8000, 16_000]
    manifest = json.loads((out / "two" / "sweep.json").read_text())
    assert manifest["config"]["precision"] == 0.03 and "games" not in manifest["config"]
    saved, _ = read_sweep(out / "two")
    assert set(saved["games"]) == {r["games"] for r in records}
    watched = pd.read_parquet(out / "two" / "shares.parquet")
    pd.testing.assert_frame_equal(watched, summaries[0].attrs["fairysim"]["precision"])


def test_precision_cells_are_the_same_whatever_workers_and_task_size(precise, tmp_path):
    _, summaries = precise
    # The default local cluster (one worker process), tasks of 10,000 games: the same cells.
    again = precision_run(tmp_path, task_games=10_000, workers=1)
    for a, b in zip(summaries, again, strict=True):
        pd.testing.assert_frame_equal(a, b, check_exact=True)
        pd.testing.assert_frame_equal(
            a.attrs["fairysim"]["precision"], b.attrs["fairysim"]["precision"], check_exact=True
        )


def test_a_stopped_precision_sweep_resumes_to_the_same_cells(precise, scheduler, tmp_path):
    out = tmp_path / "stopped"
    grid = {**PRECISION_GRID, "players": "2"}

    def stop_after_a_cell(done, total):
        if len(list((out / "cells").glob("*.json"))) >= 1:
            raise StopError

    with pytest.raises(StopError):
        run_sweep("fantastique", **grid, **PRECISION, out_dir=out, scheduler=scheduler,
                  task_games=300, progress=stop_after_a_cell)  # fmt: skip
    assert len(cell_files(out)) == 1 and not (out / "summary.parquet").exists()
    summary = run_sweep(
        "fantastique", **grid, **PRECISION, out_dir=out, scheduler=scheduler, task_games=300
    )
    assert len(summary.attrs["fairysim"]["skipped"]) == 1
    assert len(summary.attrs["fairysim"]["computed"]) == 1
    pd.testing.assert_frame_equal(summary, precise[1][0], check_exact=True)
    # Another precision is another configuration for the folder.
    with pytest.raises(FairysimError) as error:
        run_sweep("fantastique", **grid, precision=0.02, max_games=16_000, out_dir=out)
    assert error.value.where == "out_dir" and "precision 0.03 there, 0.02 now" in str(error.value)


def test_a_precision_the_cap_cannot_reach_is_recorded(scheduler, tmp_path):
    summary = run_sweep(
        "highcard", players=3, lineups=["coin"], precision=0.005, max_games=1500,
        out_dir=tmp_path / "capped", scheduler=scheduler, task_games=400,
    )  # fmt: skip
    watched = summary.attrs["fairysim"]["precision"]
    assert not watched["reached"].any() and set(watched["games"]) == {1500}
    assert (watched["widest"] > 0.005).all() and list(watched["row"]) == ["seat"] * 3


@pytest.mark.parametrize(
    ("change", "option"),
    [
        ({"games": 100, "precision": 0.05}, "precision"),
        ({"precision": 0.7}, "precision"),
        ({"precision": 0.0}, "precision"),
        ({"games": 100, "max_games": 1000}, "max_games"),
        ({"precision": 0.05, "max_games": 0}, "max_games"),
        ({"games": 0}, "games"),
    ],
)
def test_bad_precision_options_name_the_option_and_write_nothing(tmp_path, change, option):
    with pytest.raises(FairysimError) as error:
        run_sweep("highcard", lineups=["coin"], **change, out_dir=tmp_path / "out")
    assert error.value.where == option, error.value
    assert list(tmp_path.iterdir()) == []
