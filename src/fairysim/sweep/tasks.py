"""What a worker runs: a range of games of one cell, sent back as per-seat sums.

A task of millions of games returns a few hundred bytes: per chunk, the sums and sums of squares
of every seat column of the game (:class:`fairysim.sim.batch.SeatAggregate`). Its games are cut
at the same indices as ``simulate_summary``'s chunks, so the client can fold the pieces in game
order into exactly the floats of a single-machine run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numba as nb
import numpy as np

from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.sim.batch import DEFAULT_CHUNK_GAMES, SeatAggregate, numba_threads
from fairysim.sweep.cells import CellSetup

DEFAULT_TASK_GAMES = 4 * DEFAULT_CHUNK_GAMES
"""Games per task: a few seconds of one core, and whole chunks (see :func:`task_pieces`)."""

Piece = tuple[int, int, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]
"""``(first_game, games, sums, squares, turn_sums, turn_squares)`` of one chunk, sums of shape
``(columns, seats)``; the turn sums are by turn position (column ``p`` the seat at turn
position ``p`` of each game), None unless the task was asked for them."""


@dataclass
class TaskResult:
    """What a task sends back: per-chunk sums, or the one-line error that stopped it.

    Attributes
    ----------
    pieces : list of Piece
        One per chunk the task's games touch, in game order.
    error : (str, str) or None
        ``(where, message)`` of a :class:`FairysimError` (sent as text: its constructor's
        arguments do not survive pickling).
    """

    pieces: list[Piece] = field(default_factory=list)
    error: FairysimError | None = None


def task_pieces(
    first: int, n: int, chunk_games: int = DEFAULT_CHUNK_GAMES
) -> list[tuple[int, int]]:
    """Split games ``first .. first + n - 1`` at the multiples of ``chunk_games``.

    A task is cut at the same game indices as ``simulate_summary``'s chunks, so each piece's
    sums are those of a chunk (or of part of one, where a task boundary falls inside a chunk).

    Examples
    --------
    >>> task_pieces(100, 250, chunk_games=128)
    [(100, 28), (128, 128), (256, 94)]
    """
    pieces = []
    game = first
    end = first + n
    while game < end:
        stop = min(end, (game // chunk_games + 1) * chunk_games)
        pieces.append((game, stop - game))
        game = stop
    return pieces


# Setups built once per worker: a worker plays many tasks of a cell, and building a setup
# resolves (and may compile) its policies.
_SETUP_CACHE: dict[tuple, Any] = {}


def worker_setup(task: CellSetup, threads: int | None, run: str) -> tuple[Any, Any, int | None]:
    """A task's game, its setup (built once per worker) and its numba threads (capped at what
    the worker has); refuses a worker whose engine is not the client's (``run`` names what
    needs it: ``"sweep"``, ``"tournament"``)."""
    spec = task.spec()
    if spec.engine_version != task.engine_version:
        raise ParameterError(
            "scheduler",
            f"a worker runs {spec.title} engine version {spec.engine_version}, the {run} "
            f"needs {task.engine_version}; install the same fairysim on every worker",
        )
    if task.key not in _SETUP_CACHE:
        _SETUP_CACHE[task.key] = task.build()
    if threads is not None:
        threads = min(threads, nb.config.NUMBA_NUM_THREADS)
    return spec, _SETUP_CACHE[task.key], threads


def rotated_of(task: CellSetup, setup: Any) -> list[Any]:
    """The setup of every rotation of a cell's lineup, built once per worker."""
    from fairysim.sim.rotation import rotated_setups

    key = (*task.key, "rotated")
    if key not in _SETUP_CACHE:
        _SETUP_CACHE[key] = rotated_setups(setup)
    return _SETUP_CACHE[key]


def run_task(
    task: CellSetup,
    first: int,
    n: int,
    threads: int | None,
    by_turn: bool = False,
    rotated: bool = False,
) -> TaskResult:
    """Play games ``first .. first + n - 1`` of one cell; return per-chunk sums.

    Parameters
    ----------
    task : CellSetup
        The cell's :attr:`~fairysim.sweep.cells.CellSpec.task`.
    first, n : int
        First game index and number of games.
    threads : int or None
        Numba threads for this task (None: all the worker has); capped at what the worker has.
    by_turn : bool
        Also sum every seat column by turn position (what a cell played to a precision
        watches where one policy plays every seat).
    rotated : bool
        Play the games (deals) on every rotation of the lineup's seats and sum each entry's
        per-deal mean over the rotations instead (a mixed lineup,
        :func:`fairysim.sim.rotation.entry_piece`).

    Returns
    -------
    TaskResult
        The sums, or the error (a bad policy answer, a worker with another engine).
    """
    from fairysim.sim.rotation import entry_piece

    result = TaskResult()
    try:
        spec, setup, threads = worker_setup(task, threads, "sweep")
        with numba_threads(threads):
            for start, count in task_pieces(first, n):
                if rotated:
                    piece = entry_piece(spec, rotated_of(task, setup), start, count)
                    result.pieces.append(
                        (start, piece.games, piece.sums, piece.squares, None, None)
                    )
                    continue
                # One chunk per piece: the sums a single-machine run makes for it.
                ((_, arrays),) = spec.play_chunks(setup, count, first_game=start, chunk_games=count)
                piece = SeatAggregate(spec.seat_columns, setup.seats)
                piece.add(arrays)
                turns = SeatAggregate(spec.seat_columns, setup.seats)
                if by_turn:
                    turns.add_by_turn(arrays, spec.turn_order)
                result.pieces.append(
                    (start, piece.games, piece.sums, piece.squares)
                    + ((turns.sums, turns.squares) if by_turn else (None, None))
                )
    except FairysimError as error:
        result.error = error
    return result


__all__ = [
    "DEFAULT_TASK_GAMES",
    "Piece",
    "TaskResult",
    "run_task",
    "task_pieces",
    "worker_setup",
]
