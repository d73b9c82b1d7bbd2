"""One setup simulated: a fixed count of games or until its win shares are precise, a lineup
of different policies on every rotation of its seats; ``fairysim simulate`` prints it.

What a run's table shows is one family of win shares against the fair share, Holm-corrected
over its rows (:func:`fairysim.stats.precision.corrected_shares`):

- **turn positions** where every seat plays one policy and the game draws its starter per game
  (seat advantage is by turn order);
- **seats** where the seat index is the turn order, or where the lineup is not rotated because
  the game adds rows that are no player (a solo game's opponent);
- **lineup entries** where the lineup mixes policies: it is played on every rotation of its
  seats on the same deals (:mod:`fairysim.sim.rotation`), ``games`` counting deals.

A run to a ``precision`` looks after :data:`~fairysim.stats.precision.FIRST_LOOK` games (deals)
and each time the count doubles, and stops at the first look where every row's corrected
interval has a half-width at or below it (:func:`fairysim.stats.precision.run_to_precision`:
the looks are planned before the first game and the 5% error rate is split over them). With
``out`` the games played are then replayed into the file: game ``i`` depends only on the seed
and ``i``, so the rows are the same games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from fairysim.sim.batch import DEFAULT_CHUNK_GAMES, Progress, SeatAggregate
from fairysim.sim.game import get_game
from fairysim.stats.precision import ALPHA, PrecisionRun

GAMES = 10_000
"""Games (deals, for a mixed lineup) of a run given neither ``games`` nor ``precision``."""

MAX_GAMES = 1_000_000
"""Most games (deals, for a mixed lineup) a run to ``precision`` plays unless ``max_games``
says otherwise."""

TURN, SEAT, ENTRY = "turn position", "seat", "lineup entry"
"""What a run's table rows are (:attr:`Simulation.rows_are`)."""


@dataclass
class Simulation:
    """A simulated setup and the table it is summarised by.

    Attributes
    ----------
    setup : a game's setup
        What was played (its policies the lineup, entry ``e`` the ``e``-th).
    summary : pandas.DataFrame
        One row per seat (:func:`fairysim.sim.run.simulate_summary`) or, for a mixed lineup,
        per lineup entry (:func:`fairysim.sim.rotation.entry_frame`); the run's metadata in
        ``attrs["fairysim"]`` where it was written or played to a fixed count.
    rows : pandas.DataFrame
        The rows of the table: ``summary``, or its turn positions (``attrs["by_turn"]``).
    rows_are : str
        :data:`TURN`, :data:`SEAT` or :data:`ENTRY`.
    deals : int
        Game indices played (each once per rotation for a mixed lineup).
    games : int
        Games played: ``deals``, times the rotations for a mixed lineup.
    reached : PrecisionRun or None
        What a run to a precision reached (None for a fixed count).
    seconds : float
        Wall time of the run, in seconds.
    """

    setup: Any
    summary: pd.DataFrame
    rows: pd.DataFrame
    rows_are: str
    deals: int
    games: int
    reached: PrecisionRun | None = None
    seconds: float = 0.0

    @property
    def looks(self) -> list[int]:
        """The looks planned of a run to a precision (its error rate is split over them);
        empty for a fixed count."""
        return [] if self.reached is None else list(self.reached.planned)

    @property
    def alpha(self) -> float:
        """Error rate of the table's family: 5%, split over the looks planned of a run to a
        precision."""
        return ALPHA / max(len(self.looks), 1)

    def corrected(self) -> pd.DataFrame:
        """The table's rows with their Holm-corrected intervals and verdicts against the fair
        share (:func:`fairysim.stats.precision.corrected_shares` at :attr:`alpha`)."""
        from fairysim.stats.precision import corrected_shares

        return corrected_shares(self.rows, self.alpha)

    @property
    def seat_rows(self) -> int:
        """Rows a file of the run holds: one per (game, seat)."""
        return self.games * self.setup.seats


def check_simulation(
    games: int | None,
    precision: float | None,
    max_games: int | None,
    chunk_games: int | None,
    threads: int | None,
    out: str | Path | None,
) -> tuple[int, int, int, Path | None]:
    """A run's counts and options checked before the first game, each error naming its
    parameter: ``(games, max_games, chunk_games, out)`` with the defaults filled in."""
    from fairysim.runtime.files import check_out_file
    from fairysim.sim.batch import check_chunk_games, check_threads
    from fairysim.stats.precision import check_counts

    check_counts(games, precision, max_games)
    games = GAMES if games is None else games
    max_games = MAX_GAMES if max_games is None else max_games
    chunk_games = check_chunk_games(chunk_games)
    check_threads(threads)
    return games, max_games, chunk_games, None if out is None else check_out_file(out)


def simulate_setup(
    setup: Any,
    *,
    games: int | None = None,
    precision: float | None = None,
    max_games: int | None = None,
    out: str | Path | None = None,
    chunk_games: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    **flags: Any,
) -> Simulation:
    """Play ``setup`` for ``games`` games or to a ``precision``, as ``fairysim simulate`` does.

    Parameters
    ----------
    setup : a game's setup
        From the game's ``make_setup`` (with :func:`fairysim.sim.weights.apply_weights` for
        changed weights). A lineup of different policies is played on every rotation of its
        seats (:func:`fairysim.sim.rotation.mixes_policies`).
    games : int, optional
        Games to play (default :data:`GAMES`); deals for a mixed lineup, each played once per
        rotation. Give this or ``precision``, not both.
    precision : float, optional
        Instead of ``games``: the half-width, in win-share units (0.01 = one percentage point,
        in (0, 0.5]), that every row's corrected interval must reach.
    max_games : int, optional
        Cap on the games (deals) ``precision`` may play (default :data:`MAX_GAMES`).
    out : path, optional
        Parquet file for one row per (game, seat), written atomically with the run's
        configuration (a mixed lineup adds ``rotation`` and ``entry``).
    chunk_games : int, optional
        Games per chunk, 1 to :data:`~fairysim.sim.batch.MAX_CHUNK_GAMES` (memory and
        progress granularity; never changes a result).
    threads : int, optional
        Numba threads (default: all).
    progress : callable, optional
        ``progress(done, total)``: in games for a fixed count (deals x rotations for a mixed
        lineup), in games (deals) of the cap for a run to a precision.
    **flags
        The game's ``play_chunks`` flags (a game's ``trace``).

    Returns
    -------
    Simulation
    """
    import time

    from fairysim.sim.rotation import mixes_policies, rotated_summary
    from fairysim.sim.run import simulate_summary

    games, max_games, chunk_games, out = check_simulation(
        games, precision, max_games, chunk_games, threads, out
    )
    spec = get_game(setup.game, "setup")
    run = {"out": out, "chunk_games": chunk_games, "threads": threads, "progress": progress}
    start = time.perf_counter()
    reached = None
    if mixes_policies(setup):
        rotations = setup.players
        if precision is not None:
            summary, reached = rotated_to_precision(
                setup, precision, max_games=max_games, **run, **flags
            )
            games = reached.games
        else:
            summary = rotated_summary(setup, games, **run, **flags)
        return Simulation(
            setup, summary, summary, ENTRY, games, games * rotations, reached,
            time.perf_counter() - start,
        )  # fmt: skip
    # Seat advantage is by turn order: where every seat plays one policy and the game draws its
    # starter per game, the rows are turn positions, else the seat index is the turn order.
    by_turn = spec.turn_order.drawn
    if precision is not None:
        summary, reached = simulate_to_precision(
            setup, precision, max_games=max_games, by_turn=by_turn, **run, **flags
        )
        games = reached.games
    else:
        summary = simulate_summary(setup, games, by_turn=by_turn, **run, **flags)
    rows = summary.attrs["by_turn"] if by_turn else summary
    return Simulation(
        setup, summary, rows, TURN if by_turn else SEAT, games, games, reached,
        time.perf_counter() - start,
    )  # fmt: skip


def simulate_to_precision(
    setup: Any,
    precision: float,
    *,
    max_games: int = MAX_GAMES,
    by_turn: bool = False,
    out: str | Path | None = None,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    **flags: Any,
) -> tuple[pd.DataFrame, PrecisionRun]:
    """Play ``setup`` until every win share of its table is as precise as asked.

    The stopping rule watches the table's own intervals (the seats', or with ``by_turn`` the
    turn positions'), Holm-corrected over its rows at each look's error rate
    (:func:`fairysim.stats.precision.run_to_precision`).

    Parameters
    ----------
    setup : a game's setup
        Played as given (a mixed lineup is not rotated here: :func:`rotated_to_precision`).
    precision : float
        Half-width asked, in win-share units, in (0, 0.5].
    max_games : int
        Cap on the games played.
    by_turn : bool
        Watch the win shares by turn position (``summary.attrs["by_turn"]``), not by seat.
    out : path, optional
        Parquet file: the games played are replayed into it once the rule stops.
    chunk_games, threads, **flags
        As for :func:`simulate_setup`.
    progress : callable, optional
        ``progress(games_done, max_games)``.

    Returns
    -------
    summary, PrecisionRun
        One row per seat (as :func:`fairysim.sim.run.simulate_summary`'s, its turn positions
        in ``attrs["by_turn"]`` with ``by_turn``), and what the rule reached.
    """
    from fairysim.sim.run import by_turn_order, simulate_summary
    from fairysim.stats.precision import check_counts, corrected_intervals

    check_counts(None, precision, max_games)
    spec = get_game(setup.game, "setup")
    aggregate = SeatAggregate(spec.seat_columns, setup.seats)
    turns = SeatAggregate(spec.seat_columns, setup.seats)
    sizes = {"chunk_games": chunk_games, "threads": threads}

    def play(first: int, n: int) -> Iterator[Any]:
        for _, arrays in spec.play_chunks(setup, n, first_game=first, **sizes, **flags):
            aggregate.add(arrays)
            ordered = by_turn_order(spec, arrays)
            turns.add(ordered)
            yield ordered if by_turn else arrays

    reached = _looks(play, precision, max_games, aggregate, progress, corrected_intervals)
    reached.watched = "turn-position win share" if by_turn else "seat's win share"
    reached.note = f", Holm-corrected over the {setup.seats} rows"
    if out is not None:
        summary = simulate_summary(setup, reached.games, out=out, by_turn=by_turn, **sizes, **flags)
        return summary, reached
    summary = aggregate.frame(setup.policy_names)
    if by_turn:
        lineup = setup.policy_names[0]
        frame = turns.frame([lineup] * setup.seats).rename(columns={"seat": "turn"})
        summary.attrs["by_turn"] = frame
    return summary, reached


def rotated_to_precision(
    setup: Any,
    precision: float,
    *,
    max_games: int = MAX_GAMES,
    out: str | Path | None = None,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    **flags: Any,
) -> tuple[pd.DataFrame, PrecisionRun]:
    """Play ``setup``'s lineup on every rotation of its seats until every entry's win share is
    as precise as asked.

    The looks count deals (each played once per rotation) and watch the entries' intervals,
    clustered by deal and Holm-corrected over the entries at the look's error rate.

    Parameters
    ----------
    setup : a game's setup
        Its policies are the lineup (:mod:`fairysim.sim.rotation`).
    precision : float
        Half-width asked, in win-share units, in (0, 0.5].
    max_games : int
        Cap on the deals played (each deal is ``setup.players`` games).
    out : path, optional
        Parquet file: the deals played are replayed into it once the rule stops
        (:func:`fairysim.sim.rotation.rotated_summary`).
    chunk_games, threads, **flags
        As for :func:`simulate_setup`.
    progress : callable, optional
        ``progress(deals_done, max_games)``.

    Returns
    -------
    summary, PrecisionRun
        One row per lineup entry (:func:`fairysim.sim.rotation.entry_frame`), and what the
        rule reached (``games`` counts deals).
    """
    from fairysim.sim.rotation import (
        entry_frame,
        entry_means,
        lineup_names,
        play_rotations,
        rotated_metadata,
        rotated_setups,
        rotated_summary,
    )
    from fairysim.stats.precision import check_counts, corrected_shares

    check_counts(None, precision, max_games)
    spec = get_game(setup.game, "setup")
    setups = rotated_setups(setup)
    aggregate = SeatAggregate(spec.seat_columns, setup.players)
    sizes = {"chunk_games": chunk_games, "threads": threads}

    def play(first: int, n: int) -> Iterator[Any]:
        for _, rotations in play_rotations(spec, setups, n, first_game=first, **sizes, **flags):
            means = entry_means(spec, rotations)
            aggregate.add(means)
            yield means

    def intervals(games: Any, wins: Any, alpha: float) -> tuple[Any, Any]:
        table = corrected_shares(entry_frame(aggregate, lineup_names(setup)), alpha, within=False)
        return table["low"].to_numpy(), table["high"].to_numpy()

    reached = _looks(play, precision, max_games, aggregate, progress, intervals)
    reached.watched = "lineup entry's win share"
    reached.note = f", Holm-corrected over the {setup.players} rows, clustered by deal"
    reached.unit = f"deals ({reached.games * setup.players:,} games)"
    if out is not None:
        return rotated_summary(setup, reached.games, out=out, **sizes, **flags), reached
    summary = entry_frame(aggregate, lineup_names(setup))
    summary.attrs["fairysim"] = rotated_metadata(spec, setup, reached.games)
    return summary, reached


TRACE_FLAG = "trace"
"""A game flag of this name records per-round totals; :func:`simulate_balance` turns it on for
the comeback rate and lead changes."""


def check_balance_run(
    games: int | None, chunk_games: int | None, threads: int | None
) -> tuple[int, int]:
    """A balance run's ``(games, chunk_games)`` checked, with the defaults filled in, each
    error naming its parameter (before the setup is made)."""
    from fairysim.sim.batch import check_chunk_games, check_threads
    from fairysim.stats.precision import check_interval_games

    games = check_interval_games(GAMES if games is None else games, "games")
    chunk_games = check_chunk_games(chunk_games)
    check_threads(threads)
    return games, chunk_games


def simulate_balance(
    setup: Any,
    *,
    games: int | None = None,
    chunk_games: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Any:
    """The balance card of one run of ``setup``, as ``fairysim metrics`` prints it.

    Played chunk by chunk (memory stays bounded whatever ``games``), with the game's
    :data:`TRACE_FLAG` on where it has one, so that the card has its comebacks and lead changes.

    Parameters
    ----------
    setup : a game's setup
        Every seat a player (the card compares the players' turn positions).
    games : int, optional
        Games to play (default :data:`GAMES`).
    chunk_games, threads, progress
        As for :func:`simulate_setup` (``progress`` in games).

    Returns
    -------
    fairysim.analysis.studies.balance.BalanceCard
        Win share by turn position against the fair share, the margin, ties and the rest.
    """
    from fairysim.analysis.studies.balance import BalanceRows, balance_card
    from fairysim.runtime.errors import ParameterError

    games, chunk_games = check_balance_run(games, chunk_games, threads)
    if setup.seats != setup.players:
        # The card compares the players' turn positions; a row of no player (an invisible
        # opponent's) has none.
        raise ParameterError(
            "players",
            f"the balance card compares players' turn positions, and {setup.table()} has "
            f"{setup.seats - setup.players} seat of no player; play 2 or more players",
        )
    spec = get_game(setup.game, "setup")
    flags = {flag.name: flag.name == TRACE_FLAG for flag in spec.flags}
    rows = BalanceRows(
        spec.turn_order,
        length_column=spec.length_column,
        trace_prefix=spec.trace_prefix if flags.get(TRACE_FLAG) else None,
    )
    chunk_frame = spec.entry("chunk_frame")
    chunks = spec.play_chunks(
        setup, games, chunk_games=chunk_games, threads=threads, progress=progress, **flags
    )
    for first, arrays in chunks:
        rows.add(chunk_frame(setup, first, arrays))
    return balance_card(rows)


def _looks(
    play: Callable[[int, int], Iterator[Any]],
    precision: float,
    cap: int,
    aggregate: SeatAggregate,
    progress: Progress | None,
    intervals: Any,
) -> PrecisionRun:
    """:func:`fairysim.stats.precision.run_to_precision`, reporting ``aggregate``'s count to
    ``progress``."""
    from fairysim.stats.precision import run_to_precision

    def on_chunk(_: int, __: Any) -> None:
        if progress is not None:
            progress(aggregate.games, cap)

    return run_to_precision(play, precision, cap, on_chunk=on_chunk, intervals=intervals)


__all__ = [
    "ENTRY",
    "GAMES",
    "MAX_GAMES",
    "SEAT",
    "TRACE_FLAG",
    "TURN",
    "Simulation",
    "check_balance_run",
    "check_simulation",
    "rotated_to_precision",
    "simulate_balance",
    "simulate_setup",
    "simulate_to_precision",
]
