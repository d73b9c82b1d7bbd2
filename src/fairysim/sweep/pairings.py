"""Tournaments on Dask: every (mix, rotation) of a tournament played as tasks of consecutive
games on the workers of a sweep's cluster (:mod:`.cluster`).

A task rebuilds its pairing's setup from a :class:`~fairysim.sweep.cells.CellSetup` (the lineup
as text, the card set, the setup axes), plays games ``first .. first + n - 1`` of the seed, and
sends back what a tournament keeps of each game: every seat's win share, rank and turn
position. Game ``i`` depends only on ``(seed, i)`` (docs/architecture.md, "Random numbers"), and
:class:`DaskPairings` joins the tasks' games in game order, so a tournament played on any number
of workers, in tasks of any size, holds exactly the games of one played in process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import chunk_ranges, numba_threads
from fairysim.sweep.cells import CellSetup
from fairysim.sweep.cluster import completed
from fairysim.sweep.tasks import worker_setup

FIELDS = ("win_share", "rank", "position")
"""What a tournament keeps of each game, per seat."""


@dataclass
class PairingPiece:
    """A task's games: ``first`` and the per-seat arrays of :data:`FIELDS` (games x seats), or
    the ``(where, message)`` of the error that stopped it (sent as text: a
    :class:`FairysimError` does not survive pickling)."""

    first: int
    arrays: dict[str, np.ndarray] = field(default_factory=dict)
    error: FairysimError | None = None


def run_pairing_task(
    task: CellSetup, first: int, n: int, chunk_games: int, threads: int | None
) -> PairingPiece:
    """Play games ``first .. first + n - 1`` of one (mix, rotation) on a worker.

    Parameters
    ----------
    task : CellSetup
        What rebuilds the pairing's setup.
    first, n : int
        First game index and number of games.
    chunk_games : int
        Games per engine call (never changes the games).
    threads : int or None
        Numba threads (None: all the worker has); capped at what the worker has.
    """
    from fairysim.stats.turn_order import positions_of_arrays

    piece = PairingPiece(first)
    try:
        spec, setup, threads = worker_setup(task, threads, "tournament")
        parts: dict[str, list[np.ndarray]] = {name: [] for name in FIELDS}
        with numba_threads(threads):
            for _, arrays in spec.play_chunks(setup, n, first_game=first, chunk_games=chunk_games):
                parts["win_share"].append(np.asarray(arrays["win_share"], np.float64))
                parts["rank"].append(np.asarray(arrays["rank"], np.int64))
                parts["position"].append(positions_of_arrays(arrays, spec.turn_order, setup.seats))
        piece.arrays = {name: np.concatenate(values) for name, values in parts.items()}
    except FairysimError as error:
        piece.error = error
    return piece


class DaskPairings:
    """Every (mix, rotation) of a tournament extended game range by game range on Dask: the
    interface of the in-process pairings of :mod:`fairysim.analysis.tournament.play`.

    Parameters
    ----------
    tasks : list of CellSetup
        One per (mix, rotation), in the tournament's order.
    client : distributed.Client
    threads : int or None
        Numba threads per task (:func:`fairysim.sweep.cluster.connect`).
    chunk_games, task_games : int
        Games per engine call and per task; neither changes a game.
    """

    def __init__(
        self,
        tasks: list[CellSetup],
        client: Any,
        threads: int | None,
        chunk_games: int,
        task_games: int,
    ):
        self.tasks, self.client, self.threads = tasks, client, threads
        self.chunk_games, self.task_games = chunk_games, task_games
        self.games = 0
        self.parts: list[dict[int, dict[str, np.ndarray]]] = [{} for _ in tasks]

    def extend(self, games: int, progress: Callable[[int], None] | None) -> None:
        """Play games ``self.games .. games - 1`` of every (mix, rotation)."""
        from distributed import as_completed

        first = self.games
        owner: dict[Any, int] = {}
        for index, task in enumerate(self.tasks):
            for start, count in chunk_ranges(games - first, self.task_games):
                future = self.client.submit(
                    run_pairing_task,
                    task,
                    first + start,
                    count,
                    self.chunk_games,
                    self.threads,
                    pure=False,
                )
                owner[future] = index
        try:
            for future in completed(as_completed(list(owner), loop=self.client.loop)):
                index = owner.pop(future)
                piece: PairingPiece = future.result()
                if piece.error is not None:
                    raise piece.error
                self.parts[index][piece.first] = piece.arrays
                if progress is not None:
                    progress(len(piece.arrays["win_share"]))
        finally:
            # Stopped (an error or Ctrl-C): drop the tasks still queued.
            self.client.cancel(list(owner))
        self.games = games

    def played(self, index: int) -> dict[str, np.ndarray]:
        """Games ``0 .. self.games - 1`` of (mix, rotation) ``index``, in game order."""
        pieces = [self.parts[index][first] for first in sorted(self.parts[index])]
        return {name: np.concatenate([p[name] for p in pieces]) for name in FIELDS}


__all__ = ["FIELDS", "DaskPairings", "PairingPiece", "run_pairing_task"]
