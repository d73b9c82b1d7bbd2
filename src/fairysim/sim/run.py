"""``simulate`` and ``simulate_summary``, written once over the game contract.

Every game supplies ``make_setup``, ``play_chunks`` and ``chunk_frame`` (:mod:`fairysim.sim.game`);
these functions turn them into the two ways a user reads a run: a tidy frame of every (game, seat)
row, or a per-seat summary aggregated on the fly (memory independent of the number of games),
optionally streaming every row to Parquet.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from fairysim.sim.batch import (
    DEFAULT_CHUNK_GAMES,
    AtomicParquetWriter,
    Progress,
    SeatAggregate,
    check_games,
    run_metadata,
)
from fairysim.sim.game import GameSpec, get_game


def _spec(game: str | GameSpec) -> GameSpec:
    return game if isinstance(game, GameSpec) else get_game(game, "game")


def simulate(
    game: str | GameSpec,
    *,
    games: int = 10_000,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    **options: Any,
) -> pd.DataFrame:
    """Play ``games`` games of ``game`` and return one row per (game, seat).

    Parameters
    ----------
    game : str or GameSpec
        A registered game (``"fantastique"``, ``"concerto"``).
    games : int
        Number of games; game ``i`` is fully determined by ``(seed, i)``.
    chunk_games, threads : int, optional
        Games per chunk and numba threads; they never change the results.
    progress : callable, optional
        Called as ``progress(games_done, games_total)`` after every chunk.
    **options
        The game's ``make_setup`` keywords (``players``, ``policies``, ``seed``, ``cards`` and
        its setup axes) and ``play_chunks`` flags (Fantastique's ``trace``).

    Returns
    -------
    pandas.DataFrame
        ``game, seat, policy``, the game's seat columns and its setup columns; the run's
        configuration is in ``attrs["fairysim"]``.
    """
    spec = _spec(game)
    games = check_games(games, "games")
    flags = {flag.name: options.pop(flag.name) for flag in spec.flags if flag.name in options}
    setup = spec.make_setup(**options)
    chunk_frame = spec.entry("chunk_frame")
    frames = [
        chunk_frame(setup, first, arrays)
        for first, arrays in spec.play_chunks(
            setup, games, chunk_games=chunk_games, threads=threads, progress=progress, **flags
        )
    ]
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    frame.attrs["fairysim"] = run_metadata(spec.name, {**setup.config(), "games": games})
    return frame


def simulate_summary(
    setup: Any,
    games: int,
    *,
    out: str | Path | None = None,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    **flags: Any,
) -> pd.DataFrame:
    """Play a run in bounded memory: aggregate per seat on the fly, optionally stream every
    (game, seat) row to Parquet at ``out`` (written atomically: an interrupted run leaves no
    file, and a file already there untouched).

    Parameters
    ----------
    setup : a game's setup
        From the game's ``make_setup``; its ``game`` attribute names the game.
    games : int
        Number of games.
    out : path, optional
        Parquet file for every (game, seat) row.
    chunk_games, threads, progress
        As for :func:`simulate`.
    **flags
        The game's ``play_chunks`` flags (Fantastique's ``trace``).

    Returns
    -------
    pandas.DataFrame
        One row per seat: games, wins, and the mean and standard deviation of every seat column
        (see :class:`fairysim.sim.batch.SeatAggregate`).
    """
    spec = get_game(setup.game, "setup")
    games = check_games(games, "games")
    aggregate = SeatAggregate(spec.seat_columns, setup.seats)
    meta = run_metadata(spec.name, {**setup.config(), "games": games})
    chunks = spec.play_chunks(
        setup, games, chunk_games=chunk_games, threads=threads, progress=progress, **flags
    )
    if out is None:
        for _, arrays in chunks:
            aggregate.add(arrays)
    else:
        chunk_frame = spec.entry("chunk_frame")
        # A failed write (a full disk) is a FairysimError naming --out; the old file stays.
        with AtomicParquetWriter(out, meta, "--out") as writer:
            for first, arrays in chunks:
                aggregate.add(arrays)
                writer.write(chunk_frame(setup, first, arrays))
    summary = aggregate.frame(setup.policy_names)
    summary.attrs["fairysim"] = meta
    return summary


def bind(game: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` with its first argument fixed to ``game``: a game package's ``simulate``."""

    def bound(**options: Any) -> Any:
        return function(game, **options)

    bound.__name__ = function.__name__
    bound.__qualname__ = function.__name__
    bound.__doc__ = function.__doc__
    return bound


__all__ = ["bind", "simulate", "simulate_summary"]
