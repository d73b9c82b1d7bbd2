"""The same seed gives the same games: runs saved by the code before the game contract (commit
0290ce4, tests/data/saved_runs, 400 games each at seed 11) are replayed and compared column by
column, for every form of both games, mixed lineups with ``random`` and all-greedy tables that
play in lanes. ``fantastique_5p`` seats a ``balancer``, whose play changed on purpose when its
medal estimate began to weigh the seats still to play (Fantastique engine version 3): it was
saved again then, from the same deals (every game's ``first_seat`` is unchanged)."""

from pathlib import Path

import pandas as pd
import pytest

from fairysim.sim.run import simulate

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
    assert list(now.columns) == list(saved.columns)
    for column in saved.columns:
        pd.testing.assert_series_equal(
            now[column].astype(str) if saved[column].dtype == "category" else now[column],
            saved[column].astype(str) if saved[column].dtype == "category" else saved[column],
            check_dtype=False,
            obj=f"{name}.{column}",
        )
