"""Sweeps: a grid of setups x lineups, played on Dask distributed, one file per finished cell.

A *cell* is one point of the grid (for Fantastique: a fan, a player count and a lineup of seat
policies; for Fairy Concerto: a player count, the soloist, pianist and harpist cards, each fixed
or drawn per game, and a lineup) played for ``games`` games with the sweep's seed. Each cell's
games are split into tasks of ``task_games`` consecutive games; a task runs on a Dask worker and
sends back only per-seat sums and sums of squares (:class:`fairysim.sim.batch.SeatAggregate`),
so a task of millions of games returns a few hundred bytes. When the last task of a cell is in,
the cell is written atomically to ``OUT_DIR/cells/<cell>.json``; a stopped sweep run again with
the same arguments skips those cells and plays only the rest.

Game ``i`` of a cell depends only on ``(seed, i)``, and the sums are folded chunk by chunk in
game order exactly as the game's ``simulate_summary`` folds them, so a cell's numbers are those
of ``simulate_summary(make_setup(...), games)`` whatever ``task_games``, the number of workers or
the machines.

The engine is game-agnostic: each game registers a :class:`CellRunner` in :data:`CELL_RUNNERS`
that says what the grid axes are, how to validate a cell and how to play a range of games.
Fantastique and Fairy Concerto are registered here; another game plugs in with
:func:`register_cell_runner`.

Files under ``OUT_DIR``
-----------------------
``sweep.json``
    The manifest: the sweep's configuration (everything that decides a number) and the package
    version. A later run with a different configuration is refused.
``cells/<cell>.json``
    One finished cell: its configuration, the package version, and per-seat games, sums and sums
    of squares of every per-seat column (floats written exactly, so a resumed sweep gives the
    same numbers as an uninterrupted one).
``summary.parquet``
    One row per cell and seat: win share with its 95% Wilson interval, means and standard
    deviations of every per-seat column; the manifest is in its metadata.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np
import pandas as pd

from fairysim.errors import FairysimError
from fairysim.sim.batch import (
    DEFAULT_CHUNK_GAMES,
    AtomicParquetWriter,
    Progress,
    SeatAggregate,
    check_games,
    chunk_ranges,
    numba_threads,
)

SWEEP_SCHEMA_VERSION = 1
"""Version of the layout of ``sweep.json`` and the cell files; bumped on any change."""

DEFAULT_TASK_GAMES = 4 * DEFAULT_CHUNK_GAMES
"""Games per task: a few seconds of one core, and whole chunks (see :func:`task_pieces`)."""

CONNECT_TIMEOUT_S = 10.0
"""How long to try to reach a ``--scheduler`` before giving up."""

MANIFEST_NAME = "sweep.json"
CELLS_DIR = "cells"
SUMMARY_NAME = "summary.parquet"

Log = Callable[[str], None]


# --------------------------------------------------------------------------------------------
# What a game supplies


@dataclass(frozen=True)
class Axis:
    """One dimension of a game's grid besides the lineup.

    Attributes
    ----------
    name : str
        Column name in the results (``fan``, ``players``, ``soloist_card``) and keyword of
        :func:`run_sweep` (Fantastique's fans are ``fans`` there).
    option : str
        The command-line option that sets it, named in errors (``--fans``).
    parse : callable
        ``parse(text, context) -> value``: one item of the option, validated and normalised
        (``"iii"`` -> ``"III"``); raises :class:`FairysimError` naming ``option``. ``context``
        is what the runner's :attr:`CellRunner.prepare` returned (Concerto's card set, whose
        pianist and harpist ids an item must name).
    default : tuple
        The values when the caller gives none.
    everything : tuple or callable
        What ``all`` stands for (empty if ``all`` is not accepted), or ``everything(context)``
        where it depends on the sweep's settings (every pianist card of the card file).
    """

    name: str
    option: str
    parse: Callable[[str, Any], Any]
    default: tuple
    everything: tuple | Callable[[Any], tuple] = ()


@dataclass(frozen=True)
class CellSpec:
    """A validated cell, ready to be played by tasks.

    Attributes
    ----------
    values : dict
        The cell's axis values (``{"fan": "I", "players": 4}``).
    lineup : str
        The lineup as the user gave it, normalised (``"hoarder,greedy,greedy,greedy"``).
    policies : list of str
        Each seat's policy name.
    key : dict
        Everything that decides the cell's numbers (JSON-friendly); compared on resume.
    setup : dict
        The game's own description of the setup, saved for the record.
    task_args : object
        Picklable arguments that the runner's ``play_range`` takes on a worker.
    """

    values: dict[str, Any]
    lineup: str
    policies: list[str]
    key: dict[str, Any]
    setup: dict[str, Any]
    task_args: Any

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.policies)

    @property
    def cell_id(self) -> str:
        """File-name-safe and unique: readable axis values and lineup, then a digest of the key."""
        digest = hashlib.sha256(json.dumps(self.key, sort_keys=True).encode()).hexdigest()[:10]
        readable = "_".join(f"{name}{value}" for name, value in self.values.items())
        lineup = re.sub(r"[^A-Za-z0-9.-]+", "-", self.lineup)[:40]
        return f"{readable}_{lineup}_{digest}"


@dataclass(frozen=True)
class CellRunner:
    """How a sweep plays one game; register one per game in :data:`CELL_RUNNERS`.

    Attributes
    ----------
    game : str
        The game's name (``fantastique``), the first argument of :func:`run_sweep`.
    axes : tuple of Axis
        Grid dimensions besides the lineup, in the order cells are listed.
    seat_columns : tuple of str
        Per-seat result columns summed by the tasks; must include ``win_share``.
    points : tuple of (str, str)
        ``(header, column)`` of the mean points the printed table shows after the win share.
    make_cell : callable
        ``make_cell(values, lineup, seed, context) -> CellSpec`` on the client: validates one
        cell; errors name the sweep's options (``--lineup``, ``--fans``).
    play_range : callable
        ``play_range(task_args, first_game, n_games) -> dict`` on a worker: the per-seat arrays
        (shape ``(n_games, seats)``) of games ``first_game .. first_game + n_games - 1``.
    fingerprint : callable
        ``fingerprint(context) -> dict``: engine and data versions that decide the numbers,
        stored in the manifest (a changed engine or card file makes an old out-dir refuse to
        resume).
    settings : tuple of str
        Keywords of :func:`run_sweep` that apply to the whole sweep rather than span an axis
        (Concerto's ``cards``).
    prepare : callable
        ``prepare(settings) -> context``: validates the settings once, before any cell; the
        context goes to the axes' ``parse``, ``make_cell`` and ``fingerprint``.
    """

    game: str
    axes: tuple[Axis, ...]
    seat_columns: tuple[str, ...]
    points: tuple[tuple[str, str], ...]
    make_cell: Callable[[dict[str, Any], str, int, Any], CellSpec]
    play_range: Callable[[Any, int, int], Mapping[str, np.ndarray]]
    fingerprint: Callable[[Any], dict[str, Any]] = field(default=lambda context: {})
    settings: tuple[str, ...] = ()
    prepare: Callable[[Mapping[str, Any]], Any] = field(default=lambda settings: None)


CELL_RUNNERS: dict[str, CellRunner] = {}
"""Registered games, by name."""


def register_cell_runner(runner: CellRunner) -> CellRunner:
    """Make ``runner.game`` available to :func:`run_sweep` (and to workers, which import this
    module: register at import time of a module the workers import too)."""
    CELL_RUNNERS[runner.game] = runner
    return runner


# --------------------------------------------------------------------------------------------
# Shared by the games


def _parse_player_count(text: str, game: str, fewest: int, most: int) -> int:
    """One ``--players`` item as a whole number in ``fewest .. most``."""
    try:
        players = int(text)
    except ValueError:
        players = None
    if players is None or not fewest <= players <= most:
        raise FairysimError("--players", f"{game} is for {fewest} to {most} players, got {text!r}")
    return players


def _digest(arrays: Sequence[np.ndarray], labels: Sequence[str] = ()) -> str:
    """Digest of the card data an engine reads (not of the path: a moved checkout resumes)."""
    digest = hashlib.sha256()
    for array in arrays:
        digest.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
    for label in labels:
        digest.update(label.encode() + b"\0")
    return digest.hexdigest()[:16]


# Policies resolved once per game and lineup item: a `module:function` policy compiles on
# resolution, and a grid repeats every lineup for every cell (and every task on a worker).
_POLICY_CACHE: dict[tuple[str, str], Any] = {}


def _resolve_lineup(lineup: str, players: int, game: str, registry: Mapping[str, Any]) -> list:
    """One policy per player from a lineup of one item (every seat) or one item per seat."""
    from fairysim.sim.policy import resolve_policies

    items = [item.strip() for item in lineup.split(",")]
    if len(items) not in (1, players):
        raise FairysimError(
            "--lineup",
            f"{lineup!r} names {len(items)} seats but the sweep has {players}-player cells; give "
            f"one policy for every seat or exactly {players}",
        )
    seats = []
    for item in items * (players // len(items)):
        if (game, item) not in _POLICY_CACHE:
            (_POLICY_CACHE[game, item],) = resolve_policies(item, 1, registry, option="--lineup")
        seats.append(_POLICY_CACHE[game, item])
    return seats


def _setup_cell(
    game: str,
    values: dict[str, Any],
    lineup: str,
    setup: Any,
    engine_version: int,
    cards_sha256: str,
    task_args: Any,
) -> CellSpec:
    """The cell of a validated setup (a game's ``make_setup``): its key and what a task needs."""
    config = setup.config()
    key = {
        "game": game,
        **values,
        "lineup": lineup,
        "policies": config["policies"],
        "weights": config["weights"],
        "seed": setup.seed,
        "engine_version": engine_version,
        "cards_sha256": cards_sha256,
    }
    return CellSpec(dict(values), lineup, setup.policy_names, key, config, task_args)


def _check_engine_version(game: str, needed: int, running: int) -> None:
    """Refuse a worker whose engine would give other numbers than the client's."""
    if needed != running:
        raise FairysimError(
            "--scheduler",
            f"a worker runs {game} engine version {running}, the sweep needs {needed}; install "
            "the same fairysim on every worker",
        )


_SETUP_CACHE: dict[tuple, Any] = {}


def _play_setup_range(
    setup_key: tuple,
    make_setup: Callable[[], Any],
    play_chunks: Callable[..., Iterator[tuple[int, Mapping[str, np.ndarray]]]],
    columns: Sequence[str],
    first: int,
    n: int,
) -> dict[str, np.ndarray]:
    """Games ``first .. first + n - 1`` of a setup, as per-seat arrays of ``columns``.

    The setup is built once per worker and ``setup_key`` (a worker plays many tasks of a cell,
    and building one resolves and may compile its policies); the range is one chunk.
    """
    if setup_key not in _SETUP_CACHE:
        _SETUP_CACHE[setup_key] = make_setup()
    ((_, arrays),) = play_chunks(_SETUP_CACHE[setup_key], n, chunk_games=n, first_game=first)
    return {name: arrays[name] for name in columns}


# --------------------------------------------------------------------------------------------
# Fantastique


def _parse_fan(text: str, _context: Any = None) -> str:
    from fairysim.sim.fantastique.rules import fan_index

    try:
        return ("I", "II", "III", "IV", "V", "VI")[fan_index(text)]
    except ValueError as exc:
        raise FairysimError("--fans", str(exc)) from None


def _parse_players(text: str, _context: Any = None) -> int:
    from fairysim.sim.fantastique.rules import MAX_PLAYERS, MIN_PLAYERS

    return _parse_player_count(text, "Fantastique", MIN_PLAYERS, MAX_PLAYERS)


def _cards_digest(cards: Any) -> str:
    return _digest((cards.deck_counts, cards.medal_values, cards.finale_medals))


def _fantastique_fingerprint(_context: Any = None) -> dict[str, Any]:
    from fairysim.sim.fantastique.cards import load_cards
    from fairysim.sim.fantastique.engine import ENGINE_VERSION

    return {"engine_version": ENGINE_VERSION, "cards_sha256": _cards_digest(load_cards())}


def _fantastique_cell(
    values: dict[str, Any], lineup: str, seed: int, _context: Any = None
) -> CellSpec:
    from fairysim.sim.fantastique import POLICIES, load_cards, make_setup
    from fairysim.sim.fantastique.engine import ENGINE_VERSION

    seats = _resolve_lineup(lineup, values["players"], "fantastique", POLICIES)
    cards = load_cards()
    setup = make_setup(values["players"], values["fan"], seats, seed, cards)
    # The worker rebuilds the setup from names (a Policy holds a compiled function, which does
    # not travel), with the client's card data so that every worker plays the same deck.
    task_args = (setup.fan, setup.players, lineup, setup.seed, cards, ENGINE_VERSION)
    return _setup_cell(
        "fantastique", values, lineup, setup, ENGINE_VERSION, _cards_digest(cards), task_args
    )


def _fantastique_play_range(task_args: Any, first: int, n: int) -> dict[str, np.ndarray]:
    """Games ``first .. first + n - 1`` of a Fantastique cell, as per-seat arrays."""
    from fairysim.sim.fantastique import POLICIES, SEAT_COLUMNS, make_setup, play_chunks
    from fairysim.sim.fantastique.engine import ENGINE_VERSION

    fan, players, lineup, seed, cards, engine_version = task_args
    _check_engine_version("Fantastique", engine_version, ENGINE_VERSION)
    return _play_setup_range(
        ("fantastique", fan, players, lineup, seed, _cards_digest(cards)),
        lambda: make_setup(
            players, fan, _resolve_lineup(lineup, players, "fantastique", POLICIES), seed, cards
        ),
        play_chunks,
        SEAT_COLUMNS,
        first,
        n,
    )


def _fantastique_seat_columns() -> tuple[str, ...]:
    # Kept in step with simulate.SEAT_COLUMNS by a test; spelled out so that importing this
    # module (the CLI's --help, every worker) does not load the engine.
    return (
        "score",
        "rank",
        "win_share",
        "medal_points",
        "finale_count",
        "finale_points",
        "medals",
        "hand_size",
        "pre_finale_rank",
        "pre_finale_win_share",
    )


register_cell_runner(
    CellRunner(
        game="fantastique",
        axes=(
            Axis("fan", "--fans", _parse_fan, ("I",), ("I", "II", "III", "IV", "V", "VI")),
            Axis("players", "--players", _parse_players, (4,), (2, 3, 4, 5)),
        ),
        seat_columns=_fantastique_seat_columns(),
        points=(
            ("score", "score_mean"),
            ("medal\npoints", "medal_points_mean"),
            ("finale\npoints", "finale_points_mean"),
        ),
        make_cell=_fantastique_cell,
        play_range=_fantastique_play_range,
        fingerprint=_fantastique_fingerprint,
    )
)


# --------------------------------------------------------------------------------------------
# Fairy Concerto

RANDOM = "random"
"""Value of a Concerto contest-card axis whose card is drawn per game (the engine's default)."""


def _concerto_cards(settings: Mapping[str, Any]) -> Any:
    """The sweep's card set: ``cards`` as a ConcertoCards, a TOML path, or None (shipped set)."""
    from fairysim.sim.concerto import ConcertoCards, load_cards

    cards = settings.get("cards")
    # A bad file is a CardFileError naming the file; the CLI names --cards as well.
    return cards if isinstance(cards, ConcertoCards) else load_cards(cards)


def _parse_concerto_players(text: str, _context: Any = None) -> int:
    from fairysim.sim.concerto.rules import MAX_PLAYERS, MIN_PLAYERS

    return _parse_player_count(text, "Fairy Concerto", MIN_PLAYERS, MAX_PLAYERS)


def _or_random(parse: Callable[[str, Any], str]) -> Callable[[str, Any], str]:
    """An axis parser taking ``random`` (drawn per game) or what ``parse`` takes."""

    def parse_item(text: str, context: Any) -> str:
        return RANDOM if text.lower() == RANDOM else parse(text, context)

    return parse_item


def _parse_soloist(text: str, _context: Any = None) -> str:
    from fairysim.sim.concerto.rules import SOLOISTS, soloist_index

    try:
        return SOLOISTS[soloist_index(text)]
    except ValueError as exc:
        raise FairysimError("--soloist", str(exc)) from None


# Card ids are those of the sweep's card file (the context), in the file's spelling.
def _parse_pianist(text: str, cards: Any) -> str:
    return cards.pianist_ids[cards.pianist_index(text, "--pianist")]


def _parse_harpist(text: str, cards: Any) -> str:
    return cards.harpist_ids[cards.harpist_index(text, "--harpist")]


def _concerto_cards_digest(cards: Any) -> str:
    # Ids too: the sweep's values name pianist and harpist cards by id.
    return _digest(
        (cards.tokens, cards.score_need, cards.pianist_sets, cards.harpist_sets),
        (*cards.score_ids, *cards.pianist_ids, *cards.harpist_ids),
    )


def _concerto_fingerprint(cards: Any) -> dict[str, Any]:
    from fairysim.sim.concerto.engine import ENGINE_VERSION

    return {"engine_version": ENGINE_VERSION, "cards_sha256": _concerto_cards_digest(cards)}


def _fixed_cards(values: Mapping[str, Any]) -> tuple[str | None, str | None, str | None]:
    """Soloist, pianist and harpist of a cell as ``make_setup`` takes them (None: per game)."""
    return tuple(
        None if values[name] == RANDOM else values[name]
        for name in ("soloist_card", "pianist_card", "harpist_card")
    )


def _concerto_cell(values: dict[str, Any], lineup: str, seed: int, cards: Any) -> CellSpec:
    from fairysim.sim.concerto import POLICIES, make_setup
    from fairysim.sim.concerto.engine import ENGINE_VERSION

    players = values["players"]
    fixed = _fixed_cards(values)
    seats = _resolve_lineup(lineup, players, "concerto", POLICIES)
    setup = make_setup(players, seats, seed, *fixed, cards)
    # As for Fantastique: names travel, and the client's card set, so every worker plays it.
    task_args = (players, fixed, lineup, setup.seed, cards, ENGINE_VERSION)
    return _setup_cell(
        "concerto", values, lineup, setup, ENGINE_VERSION, _concerto_cards_digest(cards), task_args
    )


def _concerto_play_range(task_args: Any, first: int, n: int) -> dict[str, np.ndarray]:
    """Games ``first .. first + n - 1`` of a Fairy Concerto cell, as per-seat arrays."""
    from fairysim.sim.concerto import POLICIES, make_setup, play_chunks
    from fairysim.sim.concerto.engine import ENGINE_VERSION

    players, fixed, lineup, seed, cards, engine_version = task_args
    _check_engine_version("Fairy Concerto", engine_version, ENGINE_VERSION)
    return _play_setup_range(
        ("concerto", players, fixed, lineup, seed, _concerto_cards_digest(cards)),
        lambda: make_setup(
            players, _resolve_lineup(lineup, players, "concerto", POLICIES), seed, *fixed, cards
        ),
        play_chunks,
        CONCERTO_SEAT_COLUMNS,
        first,
        n,
    )


CONCERTO_SEAT_COLUMNS = (
    "score",
    "rank",
    "win_share",
    "margin",
    "popularity",
    "conductor",
    "soloist",
    "pianist",
    "harpist",
    "score_cards",
    "honors",
    "cards_held",
    "cards_completed",
    "n_trumpeter",
    "n_drummer",
    "n_violinist",
    "n_horn",
    "n_composer",
)
"""What Concerto's ``simulate_summary`` sums (its ``SUMMARY_COLUMNS``: every per-seat column but
the bit masks); spelled out, and kept in step by a test, so that importing this module does not
load the engine."""


register_cell_runner(
    CellRunner(
        game="concerto",
        axes=(
            Axis("players", "--players", _parse_concerto_players, (4,), (1, 2, 3, 4)),
            Axis(
                "soloist_card",
                "--soloist",
                _or_random(_parse_soloist),
                (RANDOM,),
                ("A", "B", "C", "D"),
            ),
            Axis(
                "pianist_card",
                "--pianist",
                _or_random(_parse_pianist),
                (RANDOM,),
                lambda cards: cards.pianist_ids,
            ),
            Axis(
                "harpist_card",
                "--harpist",
                _or_random(_parse_harpist),
                (RANDOM,),
                lambda cards: cards.harpist_ids,
            ),
        ),
        seat_columns=CONCERTO_SEAT_COLUMNS,
        points=(
            ("score", "score_mean"),
            ("popu-\nlarity", "popularity_mean"),
            ("hon-\nors", "honors_mean"),
        ),
        make_cell=_concerto_cell,
        play_range=_concerto_play_range,
        fingerprint=_concerto_fingerprint,
        settings=("cards",),
        prepare=_concerto_cards,
    )
)


# --------------------------------------------------------------------------------------------
# Tasks (run on the workers)


@dataclass
class TaskResult:
    """What a task sends back: per-chunk sums, or the one-line error that stopped it.

    Attributes
    ----------
    pieces : list of (int, int, ndarray, ndarray)
        ``(first_game, games, sums, squares)`` per chunk, sums of shape ``(columns, players)``.
    error : (str, str) or None
        ``(where, message)`` of a :class:`FairysimError` (sent as text: its constructor's
        arguments do not survive pickling).
    """

    pieces: list[tuple[int, int, np.ndarray, np.ndarray]] = field(default_factory=list)
    error: tuple[str, str] | None = None


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


def run_task(game: str, task_args: Any, first: int, n: int, threads: int | None) -> TaskResult:
    """Play games ``first .. first + n - 1`` of one cell; return per-chunk sums.

    Parameters
    ----------
    game : str
        A key of :data:`CELL_RUNNERS`.
    task_args : object
        The cell's :attr:`CellSpec.task_args`.
    first, n : int
        First game index and number of games.
    threads : int or None
        Numba threads for this task (None: all the worker has); capped at what the worker has.

    Returns
    -------
    TaskResult
    """
    runner = CELL_RUNNERS[game]
    result = TaskResult()
    try:
        if threads is not None:
            threads = min(threads, nb.config.NUMBA_NUM_THREADS)
        with numba_threads(threads):
            for start, count in task_pieces(first, n):
                arrays = runner.play_range(task_args, start, count)
                players = arrays[runner.seat_columns[0]].shape[1]
                piece = SeatAggregate(runner.seat_columns, players)
                piece.add(arrays)
                result.pieces.append((start, piece.games, piece.sums, piece.squares))
    except FairysimError as error:
        result.error = (error.where, error.message)
    return result


# --------------------------------------------------------------------------------------------
# Grid, manifest, cell files


def _items(values: Any) -> list[str]:
    """Comma-separated strings or sequences of values -> list of stripped strings."""
    if values is None:
        return []
    if isinstance(values, str | int | np.integer):
        values = [values]
    items: list[str] = []
    for value in values:
        items += [part.strip() for part in str(value).split(",")]
    return items


def _parse_axis(axis: Axis, values: Any, context: Any) -> list[Any]:
    items = _items(axis.default if values is None else values)
    if not items or any(item == "" for item in items):
        raise FairysimError(axis.option, f"give a comma-separated list, got {values!r}")
    everything = axis.everything(context) if callable(axis.everything) else axis.everything
    if everything and [item.lower() for item in items] == ["all"]:
        return list(everything)
    parsed = [axis.parse(item, context) for item in items]
    _refuse_duplicates(parsed, axis.option)
    return parsed


def _parse_lineups(lineups: Any) -> list[str]:
    if isinstance(lineups, str):
        lineups = [lineups]
    normalised = [",".join(part.strip() for part in str(x).split(",")) for x in lineups or []]
    if not normalised:
        raise FairysimError("--lineup", "give at least one lineup")
    for lineup in normalised:
        if any(part == "" for part in lineup.split(",")):
            raise FairysimError("--lineup", f"{lineup!r} has an empty seat")
    _refuse_duplicates(normalised, "--lineup")
    return normalised


def _refuse_duplicates(values: Sequence[Any], option: str) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise FairysimError(option, f"{value} is given twice")
        seen.add(value)


def _runner(game: str) -> CellRunner:
    if game not in CELL_RUNNERS:
        raise FairysimError("game", f"no sweep for {game!r}; games: {', '.join(CELL_RUNNERS)}")
    return CELL_RUNNERS[game]


def plan_cells(
    game: str,
    axes: Mapping[str, Any],
    lineups: Any,
    seed: int,
    settings: Mapping[str, Any] | None = None,
) -> tuple[CellRunner, dict[str, list[Any]], list[str], list[CellSpec]]:
    """Validate a grid and list its cells (axes outer, lineups inner).

    Parameters
    ----------
    game : str
        A key of :data:`CELL_RUNNERS`.
    axes : mapping
        Values of each of the game's axes (by :attr:`Axis.name`); each a comma-separated string,
        ``"all"``, or a sequence.
    lineups : str or sequence of str
        Lineups (policy specs as ``--policy`` takes them).
    seed : int
        The sweep's seed; every cell is played with it (common deals across cells).
    settings : mapping, optional
        The game's sweep-wide settings (:attr:`CellRunner.settings`, e.g. Concerto's ``cards``).

    Returns
    -------
    runner, axis_values, lineups, cells
        The game's runner, the parsed axis values, the normalised lineups and the cells.
    """
    runner = _runner(game)
    context = _prepare(runner, settings or {})
    return (runner, *_plan(runner, axes, lineups, seed, context))


def _prepare(runner: CellRunner, settings: Mapping[str, Any]) -> Any:
    unknown = sorted(set(settings) - set(runner.settings))
    if unknown:
        raise FairysimError(f"--{unknown[0]}", f"{runner.game} sweeps have no {unknown[0]} option")
    return runner.prepare(settings)


def _plan(
    runner: CellRunner, axes: Mapping[str, Any], lineups: Any, seed: int, context: Any
) -> tuple[dict[str, list[Any]], list[str], list[CellSpec]]:
    known = {axis.name for axis in runner.axes}
    for name, value in axes.items():
        if name not in known and value is not None:
            raise FairysimError(f"--{name}", f"{runner.game} sweeps have no {name} axis")
    values = {axis.name: _parse_axis(axis, axes.get(axis.name), context) for axis in runner.axes}
    parsed_lineups = _parse_lineups(lineups)
    cells = [
        runner.make_cell(dict(zip(values, point, strict=True)), lineup, seed, context)
        for point in itertools.product(*values.values())
        for lineup in parsed_lineups
    ]
    return values, parsed_lineups, cells


def check_out_dir(out_dir: str | Path, option: str = "--out-dir") -> Path:
    """Return ``out_dir`` as a Path if the sweep can write there; raise naming ``option``.

    Nothing is created: a folder that does not exist yet is made only once the sweep is sure
    to run (see :func:`_make_out_dir`), so a refused command leaves no trace.
    """
    path = Path(out_dir)
    if path.exists() and not path.is_dir():
        raise FairysimError(option, f"{path} exists and is not a folder")
    existing = path.absolute()
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise FairysimError(option, f"{existing} is not a folder, so {path} cannot be made")
    try:
        # A probe write: os.access says yes to root even on a read-only file system.
        fd, probe = tempfile.mkstemp(prefix=".fairysim-probe.", dir=existing)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise FairysimError(option, f"cannot write to {existing} ({exc.strerror or exc})") from None
    return path


def _make_out_dir(path: Path) -> None:
    try:
        (path / CELLS_DIR).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FairysimError("--out-dir", f"cannot make {path} ({exc.strerror or exc})") from None


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed into place, so a reader (or a
    resumed sweep) sees either the old file or the whole new one, never half of it."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _check_manifest(out_dir: Path, manifest: dict[str, Any]) -> bool:
    """True if ``out_dir`` holds this sweep's manifest, False if none; refuse another sweep's."""
    path = out_dir / MANIFEST_NAME
    if path.exists():
        try:
            old = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise FairysimError("--out-dir", f"{path} cannot be read ({exc})") from None
        old_config = old.get("config", {}) if isinstance(old, dict) else {}
        new_config = manifest["config"]
        if old_config != new_config:
            changed = sorted(
                k
                for k in old_config.keys() | new_config.keys()
                if old_config.get(k) != new_config.get(k)
            )
            what = "; ".join(
                f"{k} {_short(old_config.get(k))} there, {_short(new_config.get(k))} now"
                for k in changed
            )
            raise FairysimError(
                "--out-dir",
                f"{out_dir} holds a sweep with another configuration ({what}); use another "
                f"--out-dir, or run the same command to resume it",
            )
        return True
    return False


def _write_manifest(out_dir: Path, manifest: dict[str, Any]) -> None:
    _make_out_dir(out_dir)
    write_atomic(out_dir / MANIFEST_NAME, json.dumps(manifest, indent=2) + "\n")


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _cell_key(cell: CellSpec, games: int) -> dict[str, Any]:
    """What a cell file must match to be reused: the cell's key and the sweep's games."""
    return {**cell.key, "games": games}


def _cell_path(out_dir: Path, cell: CellSpec) -> Path:
    return out_dir / CELLS_DIR / f"{cell.cell_id}.json"


def _read_cell(path: Path, key: dict[str, Any]) -> dict[str, Any] | None:
    """A finished cell file for ``key``, or None if missing, unreadable or of another config."""
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != key:
        return None
    return record


def _cell_record(
    runner: CellRunner, cell: CellSpec, games: int, aggregate: SeatAggregate
) -> dict[str, Any]:
    from fairysim import __version__

    return {
        "schema_version": SWEEP_SCHEMA_VERSION,
        "package_version": __version__,
        "cell": cell.cell_id,
        "key": _cell_key(cell, games),
        "setup": cell.setup,
        "games": games,
        "columns": list(runner.seat_columns),
        "policies": cell.policies,
        # json writes floats with repr(), which reads back to the same float64: a resumed
        # sweep's numbers are bit for bit those of an uninterrupted one.
        "seat_games": aggregate.games,
        "sums": aggregate.sums.tolist(),
        "squares": aggregate.squares.tolist(),
    }


def _cell_frame(runner: CellRunner, cell: CellSpec, record: dict[str, Any]) -> pd.DataFrame:
    """One row per seat of a finished cell, from its file's sums."""
    from fairysim.analysis.stats import wilson_interval

    aggregate = SeatAggregate(tuple(record["columns"]), len(record["policies"]))
    aggregate.games = int(record["seat_games"])
    aggregate.sums = np.asarray(record["sums"], dtype=np.float64)
    aggregate.squares = np.asarray(record["squares"], dtype=np.float64)
    seats = aggregate.frame(record["policies"])
    front = {"game": runner.game, "cell": cell.cell_id, **cell.values, "lineup": cell.lineup}
    for i, (name, value) in enumerate(front.items()):
        seats.insert(i, name, value)
    seats["win_share"] = seats["wins"] / seats["games"]
    seats["win_low"], seats["win_high"] = wilson_interval(seats["wins"], seats["games"])
    # What a reader looks for first: who, how many games, how often they won; then the rest.
    first = [*front, "seat", "policy", "games", "wins", "win_share", "win_low", "win_high"]
    return seats[first + [c for c in seats.columns if c not in first]]


# --------------------------------------------------------------------------------------------
# The cluster


def _check_workers(scheduler: str | None, workers: int | None) -> None:
    if scheduler is not None and workers is not None:
        raise FairysimError(
            "--workers",
            "applies to the local cluster only; with --scheduler the cluster has the workers "
            "it was started with",
        )
    if workers is not None and (
        isinstance(workers, bool) or not isinstance(workers, int | np.integer) or workers < 1
    ):
        raise FairysimError("--workers", f"must be a positive whole number, got {workers!r}")
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise FairysimError(
            "--scheduler", f"give an address such as tcp://host:8786, got {scheduler!r}"
        )


def _connect(
    stack: ExitStack, scheduler: str | None, workers: int | None
) -> tuple[Any, int | None]:
    """A Dask client (entered on ``stack``) and the numba threads each task should use."""
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
        except Exception as exc:  # any failure to connect is the address the user gave
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise FairysimError(
                "--scheduler", f"cannot connect to {scheduler!r} ({reason})"
            ) from None
        stack.enter_context(client)
        # Remote workers use all their numba threads; size them when starting the workers
        # (one worker process per machine, NUMBA_NUM_THREADS cores).
        return client, None
    workers = 1 if workers is None else workers
    # One task at a time per worker process (numba's own threads do the parallel work), and the
    # machine's cores shared between the worker processes instead of each taking them all.
    threads = max(1, nb.config.NUMBA_NUM_THREADS // int(workers))
    cluster = stack.enter_context(
        LocalCluster(
            n_workers=int(workers),
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # any free port: never clash with another cluster
            silence_logs=logging.ERROR,
        )
    )
    client = stack.enter_context(Client(cluster, set_as_default=False))
    return client, threads


# --------------------------------------------------------------------------------------------
# The sweep


def run_sweep(
    game: str = "fantastique",
    *,
    fans: Any = None,
    players: Any = None,
    lineups: str | Sequence[str] = ("greedy",),
    games: int,
    seed: int = 0,
    out_dir: str | Path,
    scheduler: str | None = None,
    workers: int | None = None,
    task_games: int = DEFAULT_TASK_GAMES,
    progress: Progress | None = None,
    log: Log | None = None,
    **axes: Any,
) -> pd.DataFrame:
    """Play a grid of setups x lineups on Dask, one file per finished cell; resume if stopped.

    Parameters
    ----------
    game : str
        ``"fantastique"`` or ``"concerto"`` (a key of :data:`CELL_RUNNERS`).
    fans : str or sequence, optional
        Fantastique's Grande Finale fans: ``"I,II,III"``, ``["I", "IV"]`` or ``"all"``.
        Default ``"I"``.
    players : str, int or sequence, optional
        Player counts: ``"2,3,4,5"``, ``[2, 4]``, ``4`` or ``"all"`` (Fantastique 2-5, Fairy
        Concerto 1-4, 1 being solo against Pahha). Default 4.
    lineups : str or sequence of str
        Policy specs as ``--policy`` takes them: one name for every seat, or a comma-separated
        policy per seat (then the seat count must match every player count of the sweep).
    games : int
        Games per cell.
    seed : int
        Seed of every cell: cells share their deals (game ``i`` has the same deal in every cell
        with the same player count and fan).
    out_dir : path
        Folder of the sweep: manifest, one file per finished cell, ``summary.parquet``.
    scheduler : str, optional
        Address of a running Dask scheduler (``tcp://host:8786``); its workers need fairysim
        installed (and any ``module:function`` policy importable). Default: a local cluster.
    workers : int, optional
        Worker processes of the local cluster (default 1, with all numba threads; N workers
        share the cores). Not allowed with ``scheduler``.
    task_games : int
        Games per task; it never changes a number. Tasks are cut into ``simulate_summary``'s
        chunks of 65,536 games and their sums folded in game order, so the results are bit for
        bit those of ``simulate_summary``. (Only with a task size that is not a multiple of
        65,536 could a sum of win shares differ in its last bit, and only after a three- or
        five-way tied win: every other per-seat value is a whole number, a half or a quarter,
        summed exactly in any order.)
    progress : callable, optional
        ``progress(games_done, games_total)`` over the cells still to play.
    log : callable, optional
        Receives one line per event worth telling (cells skipped on resume, cells written).
    **axes
        Values of another game's axes, by :attr:`Axis.name`, and its settings. Fairy Concerto:
        ``soloist_card`` (``"A"`` .. ``"D"``), ``pianist_card`` and ``harpist_card`` (card ids of
        the card file), each a list as above with ``"random"`` (drawn per game, the default)
        allowed; and ``cards``, the card file (a path or a ``ConcertoCards``; default the
        shipped set), the same for every cell.

    Returns
    -------
    pandas.DataFrame
        One row per cell and seat: ``game``, ``cell``, the axis columns (``fan``, ``players``;
        Concerto: ``players``, ``soloist_card``, ``pianist_card``, ``harpist_card``),
        ``lineup``, ``seat``, ``policy``, ``games``, ``wins`` (sum of win shares),
        ``<column>_mean`` and ``<column>_std`` of every per-seat column, ``win_share`` and its
        Wilson 95% interval ``win_low``/``win_high``. ``attrs["fairysim"]`` holds the manifest
        and the ``computed`` and ``skipped`` cell ids of this run.

    Raises
    ------
    FairysimError
        Naming the option at fault (``--fans``, ``--players``, ``--lineup``, ``--games``,
        ``--seed``, ``--out-dir``, ``--scheduler``, ``--workers``, ``--task-games``; Concerto's
        ``--soloist``, ``--pianist``, ``--harpist``), or the card file.

    Examples
    --------
    >>> df = run_sweep(fans="I,II", players="2,4", lineups=["greedy", "random"],
    ...                games=10_000, seed=1, out_dir="results/sweep-demo")  # doctest: +SKIP
    >>> df = run_sweep("concerto", players="1,4", soloist_card="A,B", lineups=["greedy"],
    ...                games=10_000, seed=1, out_dir="results/sweep-solo")  # doctest: +SKIP
    """
    say = log or (lambda line: None)
    # Every check runs before the cluster starts, so a typo costs no worker start-up.
    games = check_games(games, "--games")
    task_games = check_games(task_games, "--task-games")
    _check_workers(scheduler, workers)
    runner = _runner(game)
    options = {"fan": fans, "players": players, **axes}
    context = _prepare(
        runner, {name: options.pop(name) for name in runner.settings if name in options}
    )
    axis_values, parsed_lineups, cells = _plan(runner, options, lineups, seed, context)
    out = check_out_dir(out_dir)
    from fairysim import __version__

    manifest = {
        "schema_version": SWEEP_SCHEMA_VERSION,
        "package_version": __version__,
        "config": {
            "game": runner.game,
            **{name: values for name, values in axis_values.items()},
            "lineups": parsed_lineups,
            "games": games,
            "seed": cells[0].key["seed"],
            **runner.fingerprint(context),
        },
        "cells": [cell.cell_id for cell in cells],
    }
    has_manifest = _check_manifest(out, manifest)

    records: dict[str, dict[str, Any]] = {}
    todo: list[CellSpec] = []
    for cell in cells:
        record = _read_cell(_cell_path(out, cell), _cell_key(cell, games))
        if record is not None:
            records[cell.cell_id] = record
        else:
            todo.append(cell)
    skipped = [cell.cell_id for cell in cells if cell.cell_id in records]
    if skipped:
        say(f"Resuming: {len(skipped)} of {len(cells)} cells already finished in {out}, skipped")
    if todo:
        with ExitStack() as stack:
            client, threads = _connect(stack, scheduler, workers)
            # Made once the cluster is reached, so that a wrong --scheduler leaves no folder
            # and no manifest behind to tie the folder to a sweep that never ran.
            _make_out_dir(out)
            if not has_manifest:
                _write_manifest(out, manifest)
            _play_cells(
                client, threads, runner, todo, games, task_games, out, records, progress, say
            )
    elif not has_manifest:
        _write_manifest(out, manifest)

    summary = pd.concat(
        [_cell_frame(runner, cell, records[cell.cell_id]) for cell in cells], ignore_index=True
    )
    with AtomicParquetWriter(out / SUMMARY_NAME, manifest) as writer:
        writer.write(summary)
    summary.attrs["fairysim"] = {
        **manifest,
        "computed": [cell.cell_id for cell in todo],
        "skipped": skipped,
    }
    return summary


def _play_cells(
    client: Any,
    threads: int | None,
    runner: CellRunner,
    todo: list[CellSpec],
    games: int,
    task_games: int,
    out: Path,
    records: dict[str, dict[str, Any]],
    progress: Progress | None,
    say: Log,
) -> None:
    """Submit every task of the cells still to play; write each cell as soon as it is whole."""
    from distributed import as_completed

    total = games * len(todo)
    done = 0
    owner: dict[Any, CellSpec] = {}
    pieces: dict[str, list[tuple[int, int, np.ndarray, np.ndarray]]] = {}
    left: dict[str, int] = {}
    for index, cell in enumerate(todo):
        ranges = chunk_ranges(games, task_games)
        pieces[cell.cell_id] = []
        left[cell.cell_id] = len(ranges)
        for first, n in ranges:
            # Earlier cells first, so that cells finish (and are saved) one after another
            # rather than all at the very end.
            future = client.submit(
                run_task,
                runner.game,
                cell.task_args,
                first,
                n,
                threads,
                pure=False,
                priority=-index,
            )
            owner[future] = cell
    try:
        # set_as_default=False leaves no global client: as_completed needs its loop.
        for future in as_completed(list(owner), loop=client.loop):
            cell = owner.pop(future)
            result: TaskResult = future.result()
            if result.error is not None:
                raise FairysimError(*result.error)
            pieces[cell.cell_id] += result.pieces
            done += sum(piece[1] for piece in result.pieces)
            if progress is not None:
                progress(done, total)
            left[cell.cell_id] -= 1
            if left[cell.cell_id] == 0:
                record = _finish_cell(runner, cell, games, pieces.pop(cell.cell_id))
                write_atomic(_cell_path(out, cell), json.dumps(record) + "\n")
                records[cell.cell_id] = record
                say(f"Finished cell {cell.cell_id}")
    finally:
        # Stopped (error or Ctrl-C): drop the queued tasks; finished cells are on disk.
        client.cancel(list(owner))


def _finish_cell(
    runner: CellRunner,
    cell: CellSpec,
    games: int,
    pieces: list[tuple[int, int, np.ndarray, np.ndarray]],
) -> dict[str, Any]:
    """Fold a cell's per-chunk sums in game order: the same additions, in the same order, as
    ``simulate_summary`` makes, so the floats come out the same."""
    aggregate = SeatAggregate(runner.seat_columns, cell.players)
    for _first, n, sums, squares in sorted(pieces, key=lambda piece: piece[0]):
        aggregate.games += n
        for i in range(len(runner.seat_columns)):
            aggregate.sums[i] += sums[i]
            aggregate.squares[i] += squares[i]
    assert aggregate.games == games, f"cell {cell.cell_id}: {aggregate.games} of {games} games"
    return _cell_record(runner, cell, games, aggregate)


def read_sweep(out_dir: str | Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Load a finished sweep's ``summary.parquet`` and its manifest.

    Parameters
    ----------
    out_dir : path
        The sweep's folder.

    Returns
    -------
    summary, manifest : pandas.DataFrame, dict
    """
    from fairysim.sim.batch import read_results

    return read_results(Path(out_dir) / SUMMARY_NAME)


def iter_cells(out_dir: str | Path) -> Iterator[dict[str, Any]]:
    """The records of the finished cells in ``out_dir`` (for inspection and tests)."""
    for path in sorted((Path(out_dir) / CELLS_DIR).glob("*.json")):
        yield json.loads(path.read_text())


__all__ = [
    "CELL_RUNNERS",
    "CONCERTO_SEAT_COLUMNS",
    "DEFAULT_TASK_GAMES",
    "RANDOM",
    "SWEEP_SCHEMA_VERSION",
    "Axis",
    "CellRunner",
    "CellSpec",
    "TaskResult",
    "check_out_dir",
    "iter_cells",
    "plan_cells",
    "read_sweep",
    "register_cell_runner",
    "run_sweep",
    "run_task",
    "task_pieces",
    "write_atomic",
]
