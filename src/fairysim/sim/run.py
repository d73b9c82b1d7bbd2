"""``simulate`` and ``simulate_summary``, written once over the game contract.

Every game supplies ``make_setup``, ``play_chunks`` and ``chunk_frame`` (:mod:`fairysim.sim.game`);
these functions turn them into the two ways a user reads a run: a tidy frame of every (game, seat)
row, or a per-seat summary aggregated on the fly (memory independent of the number of games),
optionally streaming every row to Parquet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fairysim.sim.batch import (
    DEFAULT_CHUNK_GAMES,
    AtomicParquetWriter,
    Progress,
    SeatAggregate,
    check_games,
    chunk_folder,
    join_chunks,
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
    # The run's arrays joined, then its rows built once: the rows of each chunk concatenated
    # cost a copy of every row more.
    arrays = join_chunks(
        spec.play_chunks(
            setup, games, chunk_games=chunk_games, threads=threads, progress=progress, **flags
        ),
        games,
    )
    frame = spec.entry("chunk_frame")(setup, 0, arrays)
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
    by_turn: bool = False,
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
    by_turn : bool
        Also aggregate by turn position (the game's :class:`~fairysim.sim.game.TurnOrder`):
        the summary's ``attrs["by_turn"]`` is then a frame like the summary with one row per
        turn position (``turn``, 0 = the starter) in place of ``seat``, and ``policy`` the
        lineup's policy (``mixed`` where seats play different ones). Seat advantage is by turn
        order, which a lineup seat is not where the starter is drawn per game.
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
    turns = SeatAggregate(spec.seat_columns, setup.seats) if by_turn else None
    # Where the seat index is the turn order, the sums by turn position are the sums by seat.
    by_position = turns if turns is not None and spec.turn_order.drawn else None
    with chunk_folder(aggregate, by_position, spec.turn_order, threads) as fold:
        if out is None:
            for _, arrays in chunks:
                fold(arrays)
        else:
            chunk_frame = spec.entry("chunk_frame")
            # A failed write (a full disk) is a FairysimError naming --out; the old file stays.
            with AtomicParquetWriter(out, meta, "out") as writer:
                for first, arrays in chunks:
                    fold(arrays)
                    writer.write(chunk_frame(setup, first, arrays))
    if turns is not None and by_position is None:
        turns = aggregate
    summary = aggregate.frame(setup.policy_names)
    summary.attrs["fairysim"] = meta
    if turns is not None:
        names = set(setup.policy_names)
        lineup = setup.policy_names[0] if len(names) == 1 else "mixed"
        summary.attrs["by_turn"] = turns.frame([lineup] * setup.seats, row="turn")
    return summary


def by_turn_order(spec: GameSpec, arrays: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """A chunk's per-seat columns reordered so that column ``p`` is the seat at turn position
    ``p`` of each game (0 = the starter), as the game's ``turn_order`` declares it."""
    order = spec.turn_order
    columns = {name: arrays[name] for name in spec.seat_columns}
    if not order.drawn:
        return columns
    seats = columns[spec.seat_columns[0]].shape[1]
    if order.column is not None:  # each seat's turn position
        seat_at = np.argsort(arrays[order.column], axis=1, kind="stable")
    else:  # the seat that starts
        start = arrays[order.start_seat].astype(np.int64)
        seat_at = (start[:, None] + np.arange(seats)[None, :]) % seats
    return {name: np.take_along_axis(values, seat_at, axis=1) for name, values in columns.items()}


def bind(game: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` with its first argument fixed to ``game``: a game package's ``simulate``."""

    def bound(**options: Any) -> Any:
        return function(game, **options)

    bound.__name__ = function.__name__
    bound.__qualname__ = function.__name__
    bound.__doc__ = function.__doc__
    return bound


__all__ = ["bind", "simulate", "simulate_summary"]
