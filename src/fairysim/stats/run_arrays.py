"""One run's tidy rows as per-game arrays, for the studies of every game.

A study gets a run as tidy rows (one per game and seat, :func:`fairysim.sim.run.simulate`) and
computes per game: :func:`seat_arrays` reshapes the rows into ``(games, seats)`` arrays and
:func:`run_players` checks that the rows are of one player count.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd


def seat_arrays(
    df: pd.DataFrame, columns: Sequence[str]
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Reshape one run's tidy rows into ``(games, seats)`` arrays.

    Unlike :func:`fairysim.stats.estimates.game_blocks` this counts seats from the rows, so it
    also fits runs with more seats than players (a solo game's automated opponent).

    Parameters
    ----------
    df : pandas.DataFrame
        Rows of a single run (one player count), every game with seats ``0 .. seats - 1``.
    columns : sequence of str
        Per-seat columns to gather; categorical columns come back as their integer codes.

    Returns
    -------
    games : numpy.ndarray
        Game indices, ascending.
    arrays : dict of str to numpy.ndarray
        One ``(games, seats)`` array per column, in its own dtype.
    """
    if df.empty:
        raise ValueError("no rows to analyse")
    seats = int(df["seat"].max()) + 1
    frame = df
    game = frame["game"].to_numpy()
    seat = frame["seat"].to_numpy()
    tiled = len(frame) % seats == 0 and np.array_equal(
        seat.reshape(-1, seats), np.broadcast_to(np.arange(seats), (len(frame) // seats, seats))
    )
    # simulate() returns rows sorted by (game, seat): sort only frames that were reordered.
    if not (tiled and np.all(np.diff(game) >= 0)):
        frame = frame.sort_values(["game", "seat"], kind="stable")
        seat = frame["seat"].to_numpy()
        if len(frame) % seats or not np.array_equal(
            seat.reshape(-1, seats),
            np.broadcast_to(np.arange(seats), (len(frame) // seats, seats)),
        ):
            raise ValueError(f"every game needs exactly one row per seat 0..{seats - 1}")
    arrays = {}
    for name in columns:
        column = frame[name]
        values = (
            column.cat.codes.to_numpy() if isinstance(column.dtype, pd.CategoricalDtype) else column
        )
        arrays[name] = np.asarray(values).reshape(-1, seats)
    return frame["game"].to_numpy()[::seats], arrays


def run_players(df: pd.DataFrame) -> int:
    """The player count of a single run (``players`` column), or an error if it mixes several."""
    values = df["players"].unique()
    if len(values) != 1:
        raise ValueError(f"give the rows of one player count at a time, got {sorted(values)}")
    return int(values[0])
