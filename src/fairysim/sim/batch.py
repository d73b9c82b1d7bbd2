"""Run many games in chunks, stream the chunks, aggregate on the fly, write Parquet.

A game module supplies ``play_chunk(first_game, n_games) -> dict[str, np.ndarray]`` (columns of
shape ``(n_games, players)`` for per-seat values, ``(n_games,)`` for per-game values); everything
here is game-agnostic. Chunks run one after another, each spread over numba's threads by the
game's kernel, and results depend only on (seed, game index), so the chunk size and the thread
count never change a number.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from fairysim.runtime.environment import raise_environment_error
from fairysim.runtime.errors import FairysimError, IllegalChoiceError, ParameterError
from fairysim.runtime.files import PARQUET_METADATA_KEY, AtomicParquetWriter
from fairysim.runtime.files import check_out_file as check_out_path
from fairysim.runtime.stops import check as check_stop
from fairysim.sim.blocks import ERROR_RECORD, ERROR_ROW, GAMES_PER_BLOCK, block_count

DEFAULT_CHUNK_GAMES = 1 << 16
"""Games per chunk: big enough to keep both threads busy, small enough to report progress often."""

SCHEMA_VERSION = 1
"""Version of the tidy result layout (one row per game and seat); bumped on any column change."""

MAX_CHUNK_GAMES = 1 << 22
"""The most games one chunk holds (``--chunk-games``): a chunk's arrays live in memory at once,
a few hundred bytes a game, so about 4 million games is a gigabyte or two."""


Chunk = dict[str, np.ndarray]
PlayChunk = Callable[[int, int], Chunk]
Progress = Callable[[int, int], None]
"""Progress callback: ``(games_done, games_total)``."""


MAX_GAMES = 10**13
"""The most games one run or sweep cell plays: some years of a 2-core machine at a million games
a second, and far from the 2**63 game indices the random streams can key."""


def check_games(games: int, option: str = "games") -> int:
    """Return ``games`` if it is a whole number from 1 to :data:`MAX_GAMES`, else raise naming
    ``option``."""
    if isinstance(games, bool) or not isinstance(games, int | np.integer) or games <= 0:
        raise ParameterError(option, f"must be a positive whole number of games, got {games!r}")
    if games > MAX_GAMES:
        raise ParameterError(option, f"must be at most {MAX_GAMES:,} games, got {games:,}")
    return int(games)


def check_chunk_games(chunk_games: int | None, option: str = "chunk_games") -> int:
    """``chunk_games`` (None: :data:`DEFAULT_CHUNK_GAMES`) if between 1 and
    :data:`MAX_CHUNK_GAMES`, else raise naming ``option``."""
    if chunk_games is None:
        return DEFAULT_CHUNK_GAMES
    if not 1 <= chunk_games <= MAX_CHUNK_GAMES:
        raise ParameterError(
            option, f"must be between 1 and {MAX_CHUNK_GAMES:,} games, got {chunk_games:,}"
        )
    return chunk_games


def check_threads(threads: int | None, option: str = "threads") -> int | None:
    """``threads`` (None: all of numba's) if numba can run that many threads, else raise
    naming ``option``: checked before any folder or file is made."""
    if threads is not None and threads < 1:
        raise ParameterError(option, f"must be a positive whole number, got {threads}")
    if threads is not None and threads > nb.config.NUMBA_NUM_THREADS:
        raise ParameterError(
            option, f"must be between 1 and {nb.config.NUMBA_NUM_THREADS}, got {threads}"
        )
    return threads


def chunk_ranges(games: int, chunk_games: int = DEFAULT_CHUNK_GAMES) -> Iterator[tuple[int, int]]:
    """Split games ``0 .. games - 1`` into ``(first_game, n_games)`` chunks, made one at a time
    (memory does not depend on ``games``)."""
    if isinstance(chunk_games, bool) or not isinstance(chunk_games, int | np.integer):
        raise FairysimError("chunk_games", f"must be a positive whole number, got {chunk_games!r}")
    if chunk_games <= 0:
        raise FairysimError("chunk_games", f"must be positive, got {chunk_games}")
    return ((first, min(chunk_games, games - first)) for first in range(0, games, chunk_games))


@contextmanager
def numba_threads(threads: int | None) -> Iterator[None]:
    """Run the block with ``threads`` numba threads (all of them when None), then restore;
    refuse a bad ``NUMBA_NUM_THREADS`` (:mod:`fairysim.runtime.environment`)."""
    raise_environment_error()
    if threads is None:
        yield
        return
    if threads < 1 or threads > nb.config.NUMBA_NUM_THREADS:
        raise ParameterError(
            "threads", f"must be between 1 and {nb.config.NUMBA_NUM_THREADS}, got {threads}"
        )
    before = nb.get_num_threads()
    nb.set_num_threads(threads)
    try:
        yield
    finally:
        nb.set_num_threads(before)


def new_error_records(games: int) -> np.ndarray:
    """One empty error record (see :data:`ERROR_RECORD`) per block of a kernel call playing
    ``games`` games (:data:`.blocks.GAMES_PER_BLOCK` games a block).

    A block stops at its first failing game, and blocks are contiguous runs of games, so the
    records hold the chunk's first failure without a per-game array to fill and scan
    (:mod:`.blocks` says why this holds when threads take blocks as they come free).
    """
    return np.full((block_count(max(games, 1), GAMES_PER_BLOCK), ERROR_RECORD), -1, np.int64)


def raise_first_illegal_choice(
    errors: np.ndarray, first_game: int, decisions: Sequence[str]
) -> None:
    """Raise :class:`IllegalChoiceError` for the earliest failed game in ``errors``, if any.

    Parameters
    ----------
    errors : numpy.ndarray
        The records of :func:`new_error_records` after the kernel ran.
    first_game : int
        Game index of the chunk's row 0.
    decisions : sequence of str
        The game's decision names, indexed by the decision code in a record.
    """
    failed = errors[errors[:, ERROR_ROW] >= 0]
    if len(failed) == 0:
        return
    row, seat, decision, choice, n_choices = (int(x) for x in failed[failed[:, ERROR_ROW].argmin()])
    raise IllegalChoiceError(first_game + row, seat, decisions[decision], choice, n_choices)


def run_chunks(
    play_chunk: PlayChunk,
    games: int,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    progress: Progress | None = None,
    threads: int | None = None,
    first_game: int = 0,
) -> Iterator[tuple[int, Chunk]]:
    """Yield ``(first_game, chunk)`` for every chunk of games ``first_game .. first_game +
    games - 1``, in game order (a sweep hands game ranges of one run to different workers).

    Before each chunk, a Ctrl-C or SIGTERM that Python dropped is raised again
    (:func:`fairysim.runtime.stops.check`)."""
    games = check_games(games)
    done = 0
    with numba_threads(threads):
        for offset, n in chunk_ranges(games, chunk_games):
            check_stop()
            first = first_game + offset
            chunk = play_chunk(first, n)
            done += n
            if progress is not None:
                progress(done, games)
            yield first, chunk


def join_chunks(chunks: Iterable[tuple[int, Chunk]], games: int | None = None) -> Chunk:
    """Join the ``(first_game, arrays)`` chunks of a game's ``play_chunks`` into one array per
    column, in game order: a run as plain arrays, without building the tidy frame.

    Memory grows with the number of games (use ``simulate_summary`` for runs of any size).
    Given the run's ``games``, each chunk is copied into arrays of the run's length as it
    comes, so the chunks are not all held until the end; a single chunk is returned as it is.

    Examples
    --------
    >>> chunks = [(0, {"score": np.array([[3, 1]])}), (1, {"score": np.array([[0, 2]])})]
    >>> join_chunks(chunks)["score"].tolist()
    [[3, 1], [0, 2]]
    >>> join_chunks(chunks, games=2)["score"].tolist()
    [[3, 1], [0, 2]]
    """
    if games is None:
        parts = [arrays for _, arrays in chunks]
        if not parts:
            raise ValueError("no chunks to join: a run plays at least one game")
        return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}
    joined: Chunk | None = None
    start = 0
    for first, arrays in chunks:
        if joined is None:
            start = first
            if len(next(iter(arrays.values()))) == games:  # the whole run: nothing to copy
                joined = arrays
                continue
            joined = {
                name: np.empty((games, *values.shape[1:]), values.dtype)
                for name, values in arrays.items()
            }
        for name, values in arrays.items():
            joined[name][first - start : first - start + len(values)] = values
    if joined is None:
        raise ValueError("no chunks to join: a run plays at least one game")
    return joined


@dataclass
class SeatAggregate:
    """Running count, sum and sum of squares of every per-seat column, per seat.

    Memory does not grow with the number of games, so a run of 10**8 games can be summarised.
    """

    columns: tuple[str, ...]
    players: int

    def __post_init__(self) -> None:
        self.games = 0
        self.sums = np.zeros((len(self.columns), self.players))
        self.squares = np.zeros((len(self.columns), self.players))

    def add(self, chunk: Mapping[str, np.ndarray]) -> None:
        """Fold one chunk's per-seat columns in (one jitted pass a column:
        :func:`fairysim.sim.aggregate.seat_sums`)."""
        self.add_columns(chunk, range(len(self.columns)))
        self.games += len(chunk[self.columns[0]])

    def add_columns(self, chunk: Mapping[str, np.ndarray], indices: Iterable[int]) -> None:
        """Add the sums of the columns at ``indices`` (of :attr:`columns`) of one chunk, the
        games not counted: :meth:`add` in parts, one part a thread."""
        from fairysim.sim.aggregate import seat_sums

        for i in indices:
            seat_sums(chunk[self.columns[i]], self.sums[i], self.squares[i])

    def add_by_turn(self, chunk: Mapping[str, np.ndarray], order: Any) -> None:
        """Fold one chunk's per-seat columns in by turn position (row ``p`` the seat at turn
        position ``p`` of each game, 0 = the starter), as the game's
        :class:`~fairysim.sim.game.TurnOrder` ``order`` declares it: the seat at each position
        found once a chunk, then the reordering and the sums in one jitted pass a column
        (:func:`fairysim.sim.aggregate.turn_sums`)."""
        from fairysim.sim.aggregate import seats_at_order, seats_at_start, turn_sums

        if not order.drawn:
            self.add(chunk)
            return
        if order.column is not None:
            seat_at = seats_at_order(np.ascontiguousarray(chunk[order.column]))
        else:
            seat_at = seats_at_start(chunk[order.start_seat], self.players)
        for i, name in enumerate(self.columns):
            turn_sums(chunk[name], seat_at, self.sums[i], self.squares[i])
        self.games += len(chunk[self.columns[0]])

    def frame(self, policies: Sequence[str], row: str = "seat") -> pd.DataFrame:
        """One row per seat (per turn position with ``row="turn"``, the rows' first column):
        games, and mean and standard deviation of every column."""
        n = max(self.games, 1)
        rows: dict[str, Any] = {
            row: np.arange(self.players),
            "policy": list(policies),
            "games": np.full(self.players, self.games),
        }
        for i, name in enumerate(self.columns):
            mean = self.sums[i] / n
            var = np.maximum(self.squares[i] / n - mean**2, 0.0) * (n / max(n - 1, 1))
            rows[f"{name}_mean"] = mean
            rows[f"{name}_std"] = np.sqrt(var)
        rows["wins"] = (
            self.sums[self.columns.index("win_share")] if "win_share" in self.columns else np.nan
        )
        return pd.DataFrame(rows)


@contextmanager
def chunk_folder(
    by_seat: SeatAggregate, by_turn: SeatAggregate | None, order: Any, threads: int | None
) -> Iterator[Callable[[Chunk], None]]:
    """A function that folds a chunk into ``by_seat`` (:meth:`SeatAggregate.add`) and, unless
    None, into ``by_turn`` (:meth:`SeatAggregate.add_by_turn` by the game's ``order``).

    With two threads or more (``threads``, None: numba's), a chunk is folded while the engine
    plays the next one (the kernels release the GIL; every game's ``play_chunks`` yields fresh
    arrays per chunk, which ``tests/test_game_contract.py`` checks), so the fold fills the
    engine's pauses instead of following each chunk; the fold itself runs on two threads, the
    sums by seat beside those by turn position (without ``by_turn``, half the columns on
    each). One worker takes the chunks in order and a chunk waits for the fold before it, so
    at most one chunk is held beyond the engine's; each sum is made by one kernel call a chunk,
    as with one thread: no number depends on it.
    """

    def fold(chunk: Chunk) -> None:
        by_seat.add(chunk)
        if by_turn is not None:
            by_turn.add_by_turn(chunk, order)

    if (threads or nb.get_num_threads()) < 2:
        yield fold
        return
    half = len(by_seat.columns) // 2
    with (
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="fairysim-fold") as side,
        ThreadPoolExecutor(max_workers=1, thread_name_prefix="fairysim-fold-2") as second,
    ):
        pending: list[Any] = []

        def fold_on_two(chunk: Chunk) -> None:
            if by_turn is not None:
                seats = second.submit(by_seat.add, chunk)
                by_turn.add_by_turn(chunk, order)
            else:
                seats = second.submit(by_seat.add_columns, chunk, range(half))
                by_seat.add_columns(chunk, range(half, len(by_seat.columns)))
                by_seat.games += len(chunk[by_seat.columns[0]])
            seats.result()

        def fold_beside(chunk: Chunk) -> None:
            if pending:
                pending.pop().result()
            pending.append(side.submit(fold_on_two, chunk))

        yield fold_beside
        if pending:
            pending.pop().result()


def turn_columns(
    order: Any, arrays: Mapping[str, np.ndarray], players: int, seats: int | None = None
) -> dict[str, np.ndarray]:
    """Every game's ``start_seat`` (the seat that acts first) and every seat's ``turn_position``
    (1 = the first to act), as every game's results rows carry them, from the game's
    :class:`~fairysim.sim.game.TurnOrder` and a chunk's arrays.

    The engines count a turn position from 0 (an index, ``order.column``) or give the start
    seat (``order.start_seat``); without either the seat index is the turn order, seat 0
    first. ``seats`` counts the rows of a game (a solo game's opponent after the players),
    numbered on after the players.
    """
    seats = players if seats is None else seats
    games = len(next(iter(arrays.values())))
    index = np.broadcast_to(np.arange(seats, dtype=np.int64), (games, seats))
    if order.column is not None:
        position = np.asarray(arrays[order.column], np.int64)[:, :seats]
        start = np.argmin(position, axis=1)
    elif order.start_seat is not None:
        start = np.asarray(arrays[order.start_seat], np.int64)
        position = (index - start[:, None]) % players
    else:
        start = np.zeros(games, np.int64)
        position = index
    return {"start_seat": start.astype(np.int8), "turn_position": (position + 1).astype(np.int8)}


def tidy_frame(
    first_game: int,
    chunk: Mapping[str, np.ndarray],
    players: int,
    policies: Sequence[str],
    setup: Mapping[str, Any],
) -> pd.DataFrame:
    """One row per (game, seat) from a chunk of per-seat and per-game arrays.

    Per-seat arrays have shape ``(n, players)``; per-game arrays ``(n,)`` are repeated for each
    seat; arrays of shape ``(n, players, k)`` become ``k`` columns ``name_1 .. name_k``.

    The frame is built once from whole columns, without copying them again: a categorical
    column (``policy``, a text setup value) is its codes repeated, never a category looked up
    row by row, which took most of a chunk's frame.
    """
    n = None
    columns: dict[str, Any] = {}
    for name, values in chunk.items():
        n = values.shape[0]
        if values.ndim == 1:
            columns[name] = np.repeat(values, players)
        elif values.ndim == 2:
            columns[name] = values.reshape(-1)
        else:
            for k in range(values.shape[2]):
                columns[f"{name}_{k + 1}"] = values[:, :, k].reshape(-1)
    assert n is not None, "a chunk needs at least one column"
    rows = n * players
    # Each column keeps the dtype the engine declares for it (its outcome arrays), never one
    # inferred from a chunk's values: every chunk of a Parquet file then has the same schema.
    frame = {
        "game": np.repeat(np.arange(first_game, first_game + n, dtype=np.int64), players),
        "seat": np.tile(np.arange(players, dtype=np.int8), n),
        "policy": repeated_categorical(list(policies), n),
        **columns,
    }
    for name, value in setup.items():
        if isinstance(value, str):
            frame[name] = repeated_categorical([value], rows)
        else:
            frame[name] = np.full(rows, value)
    return pd.DataFrame(frame, copy=False)


def repeated_categorical(values: list[Any], times: int) -> pd.Categorical:
    """``values`` repeated ``times`` times as a categorical, exactly as ``pd.Categorical`` of
    the repeated values reads it (the categories sorted), from the codes of one copy.

    Examples
    --------
    >>> repeated_categorical(["greedy", "random"], 2).tolist()
    ['greedy', 'random', 'greedy', 'random']
    """
    one = pd.Categorical(np.asarray(values, dtype=object))
    return pd.Categorical.from_codes(np.tile(one.codes, times), dtype=one.dtype)


def run_metadata(game: str, config: Mapping[str, Any]) -> dict[str, Any]:
    """The metadata every saved result carries: game, configuration, versions."""
    from fairysim import __version__

    return {
        "game": game,
        "config": dict(config),
        "package_version": __version__,
        "schema_version": SCHEMA_VERSION,
    }


def read_results(path: str | Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Load a saved run: its tidy frame and the metadata it was written with."""
    table = pq.read_table(path)
    raw = (table.schema.metadata or {}).get(PARQUET_METADATA_KEY)
    meta = json.loads(raw) if raw else {}
    return table.to_pandas(), meta


__all__ = [
    "DEFAULT_CHUNK_GAMES",
    "ERROR_RECORD",
    "ERROR_ROW",
    "MAX_CHUNK_GAMES",
    "SCHEMA_VERSION",
    "AtomicParquetWriter",
    "SeatAggregate",
    "check_chunk_games",
    "check_games",
    "check_out_path",
    "chunk_folder",
    "chunk_ranges",
    "join_chunks",
    "new_error_records",
    "raise_first_illegal_choice",
    "read_results",
    "run_chunks",
    "run_metadata",
    "tidy_frame",
    "turn_columns",
]
