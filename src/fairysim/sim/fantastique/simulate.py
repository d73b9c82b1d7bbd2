"""Public entry points: play Fantastique games and get tidy results."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np
import pandas as pd

from fairysim.errors import CardFileError, FairysimError
from fairysim.sim.batch import (
    DEFAULT_CHUNK_GAMES,
    AtomicParquetWriter,
    Progress,
    SeatAggregate,
    check_games,
    new_error_records,
    raise_first_illegal_choice,
    run_chunks,
    run_metadata,
    tidy_frame,
)
from fairysim.sim.fantastique.cards import FantastiqueCards, load_cards
from fairysim.sim.fantastique.engine import ENGINE_VERSION, new_outcome, play_games
from fairysim.sim.fantastique.lanes import fits_lanes, play_greedy_games
from fairysim.sim.fantastique.policies import GREEDY, POLICIES
from fairysim.sim.fantastique.rules import (
    DECISIONS,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    fan_index,
)
from fairysim.sim.policy import (
    Policy,
    resolve_policies,
    seat_functions,
    seat_policy_ids,
    seat_reads_view,
    seat_weights,
)
from fairysim.sim.rng import check_seed

GAME = "fantastique"

SEAT_COLUMNS = (
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
"""Per-seat result columns (besides game, seat, policy and the setup columns fan, players)."""


@dataclass(frozen=True)
class FantastiqueSetup:
    """A validated run configuration: everything that decides the numbers of a run."""

    players: int
    fan: str
    policies: tuple[Policy, ...]
    seed: int
    cards: FantastiqueCards

    @property
    def policy_names(self) -> list[str]:
        """Each seat's policy name."""
        return [p.name for p in self.policies]

    def config(self) -> dict[str, Any]:
        """JSON-friendly description saved with results."""
        return {
            "players": self.players,
            "fan": self.fan,
            "policies": self.policy_names,
            "weights": [list(p.weights) for p in self.policies],
            "seed": self.seed,
            "cards": self.cards.source,
            "engine_version": ENGINE_VERSION,
        }


def make_setup(
    players: int = 4,
    fan: str = "I",
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    seed: int = 0,
    cards: str | Path | FantastiqueCards | None = None,
) -> FantastiqueSetup:
    """Validate a configuration; errors name the option at fault (``--players``, ``--fan`` ...)."""
    if (
        isinstance(players, bool)
        or not isinstance(players, int | np.integer)
        or not (MIN_PLAYERS <= players <= MAX_PLAYERS)
    ):
        raise FairysimError(
            "--players",
            f"Fantastique is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}",
        )
    try:
        fan = str(fan).upper()
        fan_index(fan)
    except ValueError as exc:
        raise FairysimError("--fan", str(exc)) from None
    try:
        seed = check_seed(seed)
    except ValueError as exc:
        raise FairysimError("--seed", str(exc)) from None
    card_set = cards if isinstance(cards, FantastiqueCards) else load_cards(cards)
    if card_set.total_cards < players * HAND_SIZE:
        raise CardFileError(
            card_set.source,
            f"{card_set.total_cards} fan cards cannot deal {HAND_SIZE} "
            f"to each of {players} players",
        )
    seats = resolve_policies(policies, int(players), POLICIES)
    return FantastiqueSetup(int(players), fan, seats, seed, card_set)


def play_chunks(
    setup: FantastiqueSetup,
    games: int,
    trace: bool = False,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    first_game: int = 0,
    lanes: bool = True,
) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    """Yield ``(first_game, arrays)`` chunk by chunk; arrays are the :data:`SEAT_COLUMNS` of
    shape (n, players), ``first_seat`` of shape (n,) and, with ``trace``, ``medal_points_round``
    of shape (n, players, 7): each seat's medal points after each round.

    A table where every seat plays greedy is played in lanes (:mod:`.lanes`), the same games
    faster; ``lanes=False`` plays it one game at a time (:mod:`.engine`), for comparison."""
    functions = seat_functions(setup.policies, MAX_PLAYERS)
    weights = seat_weights(setup.policies, MAX_PLAYERS)
    reads_view = seat_reads_view(setup.policies, MAX_PLAYERS)
    policy_ids = seat_policy_ids(setup.policies, MAX_PLAYERS)
    fan = fan_index(setup.fan)
    in_lanes = (
        lanes and all(policy_ids[: setup.players] == GREEDY) and fits_lanes(setup.cards.deck_counts)
    )

    def play_chunk(first: int, n: int) -> dict[str, np.ndarray]:
        out = new_outcome(n, setup.players)
        trace_out = np.zeros((n if trace else 1, setup.players, ROUNDS), np.int64)
        threads = nb.get_num_threads()
        if in_lanes:
            play_greedy_games(
                setup.seed,
                first,
                setup.players,
                fan,
                setup.cards.deck_counts,
                setup.cards.medal_values,
                setup.cards.finale_medals,
                out,
                trace_out,
                trace,
                threads,
            )
        else:
            errors = new_error_records(n)
            play_games(
                setup.seed,
                first,
                setup.players,
                fan,
                policy_ids,
                functions,
                weights,
                reads_view,
                setup.cards.deck_counts,
                setup.cards.medal_values,
                setup.cards.finale_medals,
                out,
                trace_out,
                trace,
                errors,
                threads,
            )
            raise_first_illegal_choice(errors, first, DECISIONS)
        arrays = {name: getattr(out, name) for name in SEAT_COLUMNS}
        arrays["first_seat"] = out.first_seat
        arrays["cards_outside_hands"] = out.cards_outside_hands
        if trace:
            arrays["medal_points_round"] = trace_out
        return arrays

    yield from run_chunks(play_chunk, games, chunk_games, progress, threads, first_game)


def simulate(
    players: int = 4,
    fan: str = "I",
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    games: int = 10_000,
    seed: int = 0,
    *,
    trace: bool = False,
    cards: str | Path | FantastiqueCards | None = None,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """Play ``games`` games of Fantastique and return one row per (game, seat).

    Parameters
    ----------
    players : int
        2 to 5.
    fan : str
        Grande Finale fan, ``"I"`` .. ``"VI"``.
    policies : str, Policy or sequence
        One name for every seat (``"greedy"``), a comma-separated string or a sequence with one
        entry per seat; entries are built-in names, ``"module:function"`` or :class:`Policy`.
    games : int
        Number of games; game ``i`` is fully determined by ``(seed, i)``.
    seed : int
        Seed of the run (0 <= seed < 2**63).
    trace : bool
        Add ``medal_points_round_1`` .. ``_7``: each seat's medal points after each round.
    cards : path or FantastiqueCards, optional
        Another card file (variant deck or medal ladder).
    chunk_games, threads : int, optional
        Games per chunk and numba threads; they never change the results.
    progress : callable, optional
        Called as ``progress(games_done, games_total)`` after every chunk.

    Returns
    -------
    pandas.DataFrame
        Columns ``game, seat, policy`` then :data:`SEAT_COLUMNS` (points for score and its
        parts; ``rank`` 1 = winner; ``win_share`` 1/k for each of k tied winners), ``first_seat``,
        ``fan`` and ``players``.

    Examples
    --------
    >>> df = simulate(players=4, fan="I", policies="greedy", games=100, seed=1)
    >>> df.groupby("seat").win_share.mean().round(2).sum()
    np.float64(1.0)
    """
    games = check_games(games)
    setup = make_setup(players, fan, policies, seed, cards)
    frames = [
        tidy_frame(
            first,
            _public(arrays),
            setup.players,
            setup.policy_names,
            {"fan": setup.fan, "players": setup.players},
        )
        for first, arrays in play_chunks(setup, games, trace, chunk_games, threads, progress)
    ]
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    frame.attrs["fairysim"] = run_metadata(GAME, {**setup.config(), "games": games})
    return frame


def simulate_summary(
    setup: FantastiqueSetup,
    games: int,
    out: str | Path | None = None,
    trace: bool = False,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """Play a run in bounded memory: aggregate per seat on the fly, optionally stream every
    (game, seat) row to Parquet at ``out`` (written atomically). Returns the per-seat summary
    (see :class:`fairysim.sim.batch.SeatAggregate`)."""
    games = check_games(games)
    aggregate = SeatAggregate(SEAT_COLUMNS, setup.players)
    meta = run_metadata(GAME, {**setup.config(), "games": games})
    writer = AtomicParquetWriter(out, meta) if out is not None else None
    try:
        for first, arrays in play_chunks(setup, games, trace, chunk_games, threads, progress):
            aggregate.add(arrays)
            if writer is not None:
                writer.write(
                    tidy_frame(
                        first,
                        _public(arrays),
                        setup.players,
                        setup.policy_names,
                        {"fan": setup.fan, "players": setup.players},
                    )
                )
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    if writer is not None:
        writer.commit()
    summary = aggregate.frame(setup.policy_names)
    summary.attrs["fairysim"] = meta
    return summary


def _public(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Drop bookkeeping columns that only tests need."""
    return {k: v for k, v in arrays.items() if k != "cards_outside_hands"}
