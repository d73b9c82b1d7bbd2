"""``run_sweep``: check a grid, play the cells still to play on Dask, write the summary."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from fairysim.runtime.files import AtomicParquetWriter
from fairysim.sim.batch import (
    Progress,
    SeatAggregate,
    check_games,
    chunk_ranges,
)
from fairysim.sim.game import GameSpec
from fairysim.sweep.cells import PLAYERS, CellSpec, plan_cells
from fairysim.sweep.cluster import check_cluster_options, completed, connect
from fairysim.sweep.store import (
    SHARES_NAME,
    SUMMARY_NAME,
    cell_frame,
    check_manifest,
    check_out_dir,
    make_out_dir,
    new_manifest,
    read_cell,
    reported_rows,
    shares_frame,
    write_cell,
    write_manifest,
)
from fairysim.sweep.tasks import DEFAULT_TASK_GAMES, Piece, TaskResult, run_task, task_pieces

Log = Callable[[str], None]

GAMES = 10_000
"""Games of each cell of a sweep given neither ``games`` nor ``precision``."""

PRECISION_MAX_GAMES = 1_000_000
"""Games a cell played to ``precision`` may play without ``max_games``."""


def run_sweep(
    game: str | GameSpec,
    *,
    players: Any = None,
    lineups: str | Sequence[str] = ("greedy",),
    games: int | None = None,
    seed: int = 0,
    out_dir: str | Path,
    cards: Any = None,
    scheduler: str | None = None,
    workers: int | None = None,
    task_games: int | None = None,
    progress: Progress | None = None,
    log: Log | None = None,
    precision: float | None = None,
    max_games: int | None = None,
    **axes: Any,
) -> pd.DataFrame:
    """Play a grid of setups x lineups on Dask, one file per finished cell; resume if stopped.

    A cell's numbers are those of ``simulate_summary`` for its setup (``make_setup`` with the
    cell's players, lineup, axis values, the sweep's seed and cards), whatever ``task_games``,
    the number of workers or the machines.

    Parameters
    ----------
    game : str or GameSpec
        A registered game (:func:`fairysim.sim.game.games`).
    players : str, int or sequence, optional
        Player counts: ``"2,3,4"``, ``[2, 4]``, ``4`` or ``"all"``. Default: the game's.
    lineups : str or sequence of str
        Policy specs as ``--policy`` takes them: one name for every seat, or a comma-separated
        policy per seat (then the seat count must match every player count of the sweep).
    games : int, optional
        Games per cell (default :data:`GAMES`); give it or ``precision``, not both. A cell
        whose lineup mixes policies is played on every rotation of its seats on the same
        deals (as ``simulate`` plays it, :mod:`fairysim.sim.rotation`): there ``games`` (and
        ``max_games``) count deals, each played once per rotation.
    seed : int
        Seed of every cell: cells share their deals (game ``i`` has the same deal in every cell
        with the same setup).
    out_dir : path
        Folder of the sweep: manifest, one file per finished cell, ``summary.parquet``.
    cards : path or card set, optional
        The game's card file or loaded card set, the same for every cell (default: the shipped
        one); its data is pinned in the manifest.
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://host:8786``); its workers need fairysim
        installed (and any ``module:function`` policy importable). Default: a local cluster.
    workers : int, optional
        Worker processes of the local cluster (default 1, with all numba threads; N workers
        share the cores). Not allowed with ``scheduler``.
    task_games : int, optional
        Games per task (default :data:`~fairysim.sweep.tasks.DEFAULT_TASK_GAMES`; a mixed
        lineup's task is one chunk of 65,536 deals on every rotation, whatever
        ``task_games``); it never changes a number. Tasks are cut into
        ``simulate_summary``'s chunks of 65,536 games and their sums folded in game order, so the
        results are bit for bit those of ``simulate_summary``. (Only with a task size that is not a
        multiple of 65,536 could a sum of win shares differ in its last bit, and only after a three-
        or five-way tied win: every other per-seat value is a whole number, a half or a quarter,
        summed exactly in any order.)
    progress : callable, optional
        ``progress(games_done, games_total)`` over the cells still to play.
    log : callable, optional
        Receives one line per event worth telling (cells skipped on resume, cells written).
    precision : float, optional
        Instead of ``games``: play each cell in doubling looks (1,000 games, 2,000, ... and last
        ``max_games``, the 5 % error rate split over the looks planned,
        :class:`~fairysim.stats.precision.StoppingRule`) until every win share it reports (by
        turn position where one policy plays every seat of a game that draws its starter, by lineup
        entry where the lineup mixes policies, else by seat) has an interval, Holm-corrected over
        the cell's rows at the look's error rate, of half-width at most ``precision``. A cell's
        looks are games ``0 .. n - 1`` of its seed, so its numbers are those of a fixed cell of the
        games it stopped at, whatever the task size or the workers; a stopped sweep resumes from its
        finished cells.
    max_games : int, optional
        Cap on the games of a cell played to ``precision`` (default 1,000,000).
    **axes
        The game's setup axes by :attr:`~fairysim.sim.game.SetupAxis.sweep_keyword_name`:
        each a comma-separated string, a sequence, ``"all"`` (every allowed value, read from
        ``cards`` where the card data lists them) or, where the axis is drawn per game by
        default, ``"random"``. A missing axis takes its default.

    Returns
    -------
    pandas.DataFrame
        One row per cell and lineup seat (a mixed lineup's entry, with ``label``, ``se`` clustered
        by deal and ``seat_games``; ``games`` its deals): ``game``, ``cell``, ``players`` and the
        setup axes' result columns, ``lineup``, ``seat``, ``policy``, ``games``, ``wins`` (sum of
        win shares), ``win_share`` with its interval ``low``/``high`` Holm-corrected over the cell's
        seats and its verdict ``significant`` against ``fair``, ``<column>_mean`` and
        ``<column>_std`` of every seat column (:func:`~fairysim.sweep.store.cell_frame`).
        ``attrs["fairysim"]`` holds the manifest, the ``computed`` and ``skipped`` cell ids of this
        run, the setups' ``preamble`` and ``footnotes`` lines (each once) and ``shares``, the rows
        each cell reports (by turn position where one policy plays every seat of a game that draws
        its starter, by lineup entry pooled over the rotations of a mixed lineup, else by seat) with
        their intervals Holm-corrected over the cell's rows
        (:func:`~fairysim.sweep.store.shares_frame`, also ``shares.parquet``); with ``precision``
        they are also ``attrs["fairysim"]["precision"]``, with what each cell's stopping rule
        reached (None otherwise).

    Raises
    ------
    fairysim.runtime.errors.ParameterError
        Naming the parameter at fault (``players``, ``lineups``, ``games``, ``precision``,
        ``max_games``, ``seed``, ``cards``, ``out_dir``, ``scheduler``, ``workers``,
        ``task_games``; an axis by its sweep option), which ``fairysim sweep``
        words as its flag.

    Examples
    --------
    >>> df = run_sweep(game, players="2,4", lineups=["greedy", "random"],
    ...                games=10_000, seed=1, out_dir="results/sweep-demo")  # doctest: +SKIP
    """
    say = log or (lambda line: None)
    # Every check runs before the cluster starts, so a typo costs no worker start-up.
    from fairysim.stats.precision import StoppingRule, check_counts

    check_counts(games, precision, max_games)
    if games is None and precision is None:
        games = GAMES
    rule = None
    if precision is not None:
        rule = StoppingRule(precision, PRECISION_MAX_GAMES if max_games is None else max_games)
        target = {
            "precision": rule.precision,
            "max_games": rule.max_games,
            "first_look": rule.first_look,
            "alpha": rule.alpha,
        }
    else:
        target = {"games": games}
    task_games = check_games(DEFAULT_TASK_GAMES if task_games is None else task_games, "task_games")
    check_cluster_options(scheduler, workers)
    out = check_out_dir(out_dir)
    plan = plan_cells(game, {PLAYERS: players, **axes}, lineups, seed, cards)
    cells = plan.cells
    config = {
        "game": plan.spec.name,
        **plan.axis_values,
        "lineups": plan.lineups,
        **target,
        "seed": cells[0].key["seed"],
        **plan.fingerprint(),
    }
    manifest = new_manifest(config, cells)
    has_manifest = check_manifest(out, manifest)

    records: dict[str, dict[str, Any]] = {}
    todo: list[CellSpec] = []
    for cell in cells:
        record = read_cell(out, cell, target)
        if record is not None:
            records[cell.cell_id] = record
        else:
            todo.append(cell)
    skipped = [cell.cell_id for cell in cells if cell.cell_id in records]
    if skipped:
        say(f"Resuming: {len(skipped)} of {len(cells)} cells already finished in {out}, skipped")
    if todo:
        with ExitStack() as stack:
            client, threads = connect(stack, scheduler, workers)
            # Made once the cluster is reached, so that a wrong --scheduler leaves no folder
            # and no manifest behind to tie the folder to a sweep that never ran.
            make_out_dir(out)
            if not has_manifest:
                write_manifest(out, manifest)
            play = CellPlay(plan.spec, target, rule, task_games, out, records)
            play_cells(client, threads, play, todo, progress, say)
    elif not has_manifest:
        write_manifest(out, manifest)

    summary = pd.concat(
        [cell_frame(plan.spec.name, cell, records[cell.cell_id]) for cell in cells],
        ignore_index=True,
    )
    with AtomicParquetWriter(out / SUMMARY_NAME, manifest, "out_dir") as writer:
        writer.write(summary)
    shares = pd.concat(
        [shares_frame(plan.spec.name, cell, records[cell.cell_id]) for cell in cells],
        ignore_index=True,
    )
    with AtomicParquetWriter(out / SHARES_NAME, manifest, "out_dir") as writer:
        writer.write(shares)
    summary.attrs["fairysim"] = {
        **manifest,
        "computed": [cell.cell_id for cell in todo],
        "skipped": skipped,
        "preamble": _once([cell.preamble for cell in cells]),
        "footnotes": _once([cell.footnotes for cell in cells]),
        "shares": shares,
        "precision": shares if rule is not None else None,
    }
    return summary


def _once(lists: list[tuple[str, ...]]) -> list[str]:
    """The cells' lines, each once: every cell's first lines, then their second lines..., so
    that lines saying the same thing of different cells stand together."""
    depth = max(map(len, lists), default=0)
    return list(dict.fromkeys(lines[i] for i in range(depth) for lines in lists if i < len(lines)))


def watches_turns(spec: GameSpec, cell: CellSpec) -> bool:
    """Whether a cell reports (and a precision watches) its win shares by turn position: one
    policy at every seat of a game that draws its starter, as ``simulate`` does; a game whose
    seat index is its turn order reports its seats, a mixed lineup its entries."""
    return spec.turn_order.drawn and len(set(cell.policies)) == 1 and not cell.rotated


def row_kind(spec: GameSpec, cell: CellSpec) -> str:
    """What a cell reports (:data:`~fairysim.sweep.store.ROW_KINDS`): ``"entry"`` for a mixed
    lineup played on every rotation of its seats, ``"turn"`` by :func:`watches_turns`, else
    ``"seat"``."""
    if cell.rotated:
        return "entry"
    return "turn" if watches_turns(spec, cell) else "seat"


@dataclass
class CellPlay:
    """How the cells of a sweep are played: to ``target``'s games, or look by look to
    ``rule``'s precision; finished cells go to ``out`` and into ``records``."""

    spec: GameSpec
    target: dict[str, Any]
    rule: Any
    task_games: int
    out: Path
    records: dict[str, dict[str, Any]]

    def first_look(self) -> int:
        """Games of every cell's first look (all its games for a fixed sweep)."""
        return self.target["games"] if self.rule is None else self.rule.looks[0]

    def most(self) -> int:
        """The most games a cell may play."""
        return self.target["games"] if self.rule is None else self.rule.max_games

    def look(self, cell: CellSpec, pieces: list[Piece]) -> int | None:
        """Fold a cell's pieces after a look: write the cell and return None where it is
        finished, else return the games of its next look."""
        from fairysim.stats.precision import ALPHA, corrected_shares

        rows = row_kind(self.spec, cell)
        games = sum(piece[1] for piece in pieces)
        aggregate, turns = fold_pieces(self.spec, cell, games, pieces)
        if self.rule is None:
            self.records[cell.cell_id] = write_cell(
                self.out, cell, self.target, aggregate, turns, rows, ALPHA
            )
            return None

        watched = reported_rows(aggregate, turns, rows, cell.policies)
        shares = corrected_shares(watched, self.rule.look_alpha)
        widest = float(shares["half_width"].max())
        looks = [look for look in self.rule.looks if look <= games]
        following = self.rule.next_look(games)
        if not self.rule.reached(widest) and following is not None:
            return following
        precision = {
            "asked": self.rule.precision,
            "reached": self.rule.reached(widest),
            "half_width": widest,
            "level": self.rule.level,
            "looks": looks,
            "planned": self.rule.looks,
        }
        self.records[cell.cell_id] = write_cell(
            self.out, cell, self.target, aggregate, turns, rows, self.rule.look_alpha, precision
        )
        return None


def play_cells(
    client: Any,
    threads: int | None,
    play: CellPlay,
    todo: list[CellSpec],
    progress: Progress | None = None,
    say: Log = lambda line: None,
) -> None:
    """Submit every task of the cells still to play; write each cell as soon as it is whole.

    A cell played to a precision is submitted one look at a time: when its look's tasks are
    all in, :meth:`CellPlay.look` either writes it or gives the next look, whose games (those
    after the last look's) are submitted then."""
    from distributed import as_completed

    # Progress counts games: a mixed lineup's deal is played once per rotation.
    total = play.most() * sum(cell.rotations for cell in todo)
    done = 0
    owner: dict[Any, tuple[int, CellSpec]] = {}
    pieces: dict[str, list[Piece]] = {}
    left: dict[str, int] = {}
    running = as_completed(loop=client.loop)

    def submit(index: int, cell: CellSpec, first: int, n: int) -> None:
        by_turn = watches_turns(play.spec, cell)
        # A mixed lineup's task is one chunk of its deals (on every rotation): its per-deal
        # means are not whole numbers, so its pieces are cut where simulate's chunks are,
        # whatever --task-games, for the same sums in the same order.
        ranges = (
            [(start - first, count) for start, count in task_pieces(first, n)]
            if cell.rotated
            else chunk_ranges(n, play.task_games)
        )
        for start, count in ranges:
            # Earlier cells first, so that cells finish (and are saved) one after another
            # rather than all at the very end.
            future = client.submit(
                run_task,
                cell.task,
                first + start,
                count,
                threads,
                by_turn,
                cell.rotated,
                pure=False,
                priority=-index,
            )
            owner[future] = (index, cell)
            left[cell.cell_id] += 1
            running.add(future)

    for index, cell in enumerate(todo):
        pieces[cell.cell_id] = []
        left[cell.cell_id] = 0
        submit(index, cell, 0, play.first_look())
    try:
        # set_as_default=False leaves no global client: as_completed needs its loop.
        for future in completed(running):
            index, cell = owner.pop(future)
            result: TaskResult = future.result()
            if result.error is not None:
                raise result.error
            pieces[cell.cell_id] += result.pieces
            done += sum(piece[1] for piece in result.pieces) * cell.rotations
            left[cell.cell_id] -= 1
            if left[cell.cell_id] == 0:
                played = sum(piece[1] for piece in pieces[cell.cell_id])
                following = play.look(cell, pieces[cell.cell_id])
                if following is None:
                    total -= (play.most() - played) * cell.rotations
                    del pieces[cell.cell_id]
                    say(f"Finished cell {cell.cell_id}")
                else:
                    submit(index, cell, played, following - played)
            if progress is not None:
                progress(done, total)
    finally:
        # Stopped (error or Ctrl-C): drop the queued tasks; finished cells are on disk.
        client.cancel(list(owner))


def fold_pieces(
    spec: GameSpec, cell: CellSpec, games: int, pieces: list[Piece]
) -> tuple[SeatAggregate, SeatAggregate]:
    """Fold a cell's per-chunk sums in game order: the same additions, in the same order, as
    ``simulate_summary`` makes, so the floats come out the same. The second aggregate holds
    the sums by turn position where the tasks sent them (a cell that reports its turn
    positions, :func:`watches_turns`)."""
    aggregate = SeatAggregate(spec.seat_columns, cell.seats)
    turns = SeatAggregate(spec.seat_columns, cell.seats)
    for _first, n, sums, squares, turn_sums, turn_squares in sorted(
        pieces, key=lambda piece: piece[0]
    ):
        aggregate.games += n
        turns.games += n
        for i in range(len(spec.seat_columns)):
            aggregate.sums[i] += sums[i]
            aggregate.squares[i] += squares[i]
            if turn_sums is not None:
                turns.sums[i] += turn_sums[i]
                turns.squares[i] += turn_squares[i]
    assert aggregate.games == games, f"cell {cell.cell_id}: {aggregate.games} of {games} games"
    return aggregate, turns


__all__ = [
    "GAMES",
    "PRECISION_MAX_GAMES",
    "CellPlay",
    "fold_pieces",
    "play_cells",
    "row_kind",
    "run_sweep",
    "watches_turns",
]
