"""The same seed gives the same games: runs saved by the code before the game contract (commit
0290ce4, tests/data/saved_runs, 400 games each at seed 11) are replayed and compared column by
column, for every form of both games, mixed lineups with ``random`` and all-greedy tables that
play in lanes. ``fantastique_5p`` seats a ``balancer``, whose play changed on purpose when its
medal estimate began to weigh the seats still to play (Fantastique engine version 3): it was
saved again then, from the same deals (every game's start seat is unchanged).

The files were saved before every game's rows carried ``start_seat`` and ``turn_position`` (1 =
the first to act) and before Fantastique's ``first_seat`` was named ``start_seat``: a saved
``first_seat`` is compared with ``start_seat``, and the two columns the rows gained are checked
against the saved start seat."""

from pathlib import Path

import pandas as pd
import pytest

from fairysim.sim.run import simulate

RENAMED = {"first_seat": "start_seat"}
"""Saved columns under their name now (docs/vocabulary.md)."""

SAVED = Path(__file__).parent / "data" / "saved_runs"

RUNS = {
    "fantastique_2p": ("fantastique", {"players": 2, "fan": "III", "policies": "random,hoarder"}),
    "fantastique_5p": (
        "fantastique",
        {"players": 5, "fan": "VI", "policies": "balancer,random,hoarder,greedy,random"},
    ),
    "fantastique_4p_greedy": ("fantastique", {"players": 4, "fan": "I", "policies": "greedy"}),
    "concerto_solo": ("concerto", {"players": 1, "policies": "random"}),
    "concerto_solo_greedy": ("concerto", {"players": 1, "policies": "greedy"}),
    "concerto_2p": ("concerto", {"players": 2, "policies": "maestro,denier"}),
    "concerto_4p": ("concerto", {"players": 4, "policies": "random,greedy,chaser,denier"}),
    "concerto_4p_greedy": ("concerto", {"players": 4, "policies": "greedy"}),
}


def test_every_saved_run_is_listed():
    assert {path.stem for path in SAVED.glob("*.parquet")} == set(RUNS)


@pytest.mark.parametrize("name", RUNS)
def test_a_saved_run_replays_column_by_column(name):
    game, options = RUNS[name]
    saved = pd.read_parquet(SAVED / f"{name}.parquet")
    now = simulate(game, **options, games=400, seed=11)
    saved = saved.rename(columns=RENAMED)
    gained = [column for column in now.columns if column not in saved.columns]
    assert [column for column in now.columns if column in saved.columns] == list(saved.columns)
    assert set(gained) <= {"start_seat", "turn_position"}
    players = options["players"]
    start = now["start_seat"].astype(int)
    first = now[now["turn_position"] == 1]
    assert (first["seat"].astype(int) == first["start_seat"].astype(int)).all()
    if "start_seat" in saved.columns:  # the seat that acts first, turn position 1
        expected = (now["seat"].astype(int) - start) % players + 1
    else:  # the seat index is the turn order (Fairy Concerto, C4)
        expected = now["seat"].astype(int) + 1
    assert (now["turn_position"].astype(int) == expected).all()
    for column in saved.columns:
        pd.testing.assert_series_equal(
            now[column].astype(str) if saved[column].dtype == "category" else now[column],
            saved[column].astype(str) if saved[column].dtype == "category" else saved[column],
            check_dtype=False,
            obj=f"{name}.{column}",
        )
