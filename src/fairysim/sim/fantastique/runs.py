"""Play Fantastique: a setup's games chunk by chunk (:func:`play_chunks`), a chunk's tidy rows
(:func:`chunk_frame`), and the contract's ``simulate`` and ``simulate_summary`` bound to the
game."""

from __future__ import annotations

from collections.abc import Iterator

import numba as nb
import numpy as np
import pandas as pd

from fairysim.sim import run
from fairysim.sim.batch import (
    DEFAULT_CHUNK_GAMES,
    Progress,
    new_error_records,
    raise_first_illegal_choice,
    run_chunks,
    tidy_frame,
    turn_columns,
)
from fairysim.sim.fantastique.engine import (
    FORCE_CARD,
    FORCE_SEAT,
    FORCE_SIZE,
    OUTCOME_COLUMNS,
    SearchContext,
    kernel_levels,
    new_outcome,
    play_games,
)
from fairysim.sim.fantastique.lanes import fits_lanes, play_greedy_games
from fairysim.sim.fantastique.policies import GREEDY, HEURISTICS
from fairysim.sim.fantastique.rules import DECISIONS, ROUNDS, fan_index
from fairysim.sim.fantastique.setup import FORCED_COLUMNS, FantastiqueSetup
from fairysim.sim.fantastique.spec import MAX_PLAYERS, NAME, SEAT_COLUMNS
from fairysim.sim.policy import seat_policies
from fairysim.sim.search import playout_tables, searches


def play_chunks(
    setup: FantastiqueSetup,
    games: int,
    *,
    first_game: int = 0,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    lanes: bool = True,
    trace: bool = False,
) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    """Yield ``(first_game, arrays)`` chunk by chunk; arrays are the :data:`SEAT_COLUMNS` of
    shape (n, players), ``start_seat`` (the seat that starts round 1, F1) of shape (n,) and,
    with ``trace``, ``medal_points_round`` of shape (n, players, 7): each seat's medal points
    after each round.

    A table where every seat plays greedy is played in lanes (:mod:`.lanes`), the same games
    faster; ``lanes=False`` plays it one game at a time (:mod:`.engine`), for comparison.
    Under a card-effect intervention the games are played one at a time, and the arrays hold
    :data:`FORCED_COLUMNS` of shape (n,)."""
    seats = seat_policies(setup.policies, MAX_PLAYERS)
    fan = fan_index(setup.fan)
    force = np.zeros(FORCE_SIZE, np.int64)
    force[FORCE_CARD] = setup.forced_card
    force[FORCE_SEAT] = setup.forced_seat
    in_lanes = (
        lanes
        and not setup.forced_card
        and all(seats.ids[: setup.players] == GREEDY)
        and fits_lanes(setup.cards.deck_counts)
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
            forced = np.zeros((n if setup.forced_card else 1, len(FORCED_COLUMNS)), np.int8)
            search = search_context(setup)
            card_arrays = (
                setup.cards.deck_counts,
                setup.cards.medal_values,
                setup.cards.finale_medals,
            )
            levels = kernel_levels(
                seats, *card_arrays, force, out, trace_out, forced, errors, search
            )
            play_games(
                setup.seed, first, setup.players, fan, *seats, *card_arrays, force, out,
                trace_out, trace, forced, errors, search, threads, *levels,
            )  # fmt: skip
            raise_first_illegal_choice(errors, first, DECISIONS)
        arrays = {name: getattr(out, name) for name in SEAT_COLUMNS}
        arrays["start_seat"] = out.first_seat
        arrays["cards_outside_hands"] = out.cards_outside_hands
        if setup.forced_card:
            for k, name in enumerate(FORCED_COLUMNS):
                arrays[name] = forced[:, k].copy()
        if trace:
            arrays["medal_points_round"] = trace_out.astype(OUTCOME_COLUMNS["medal_points"][0])
        return arrays

    yield from run_chunks(play_chunk, games, chunk_games, progress, threads, first_game)


def search_context(setup: FantastiqueSetup) -> SearchContext | None:
    """The kernel's :class:`~.engine.SearchContext` for a lineup that seats ``rollout``; None
    for one that does not (its kernel compiles without the search)."""
    if not searches(setup.policies):
        return None
    ids, weights = playout_tables(setup.policies, HEURISTICS, MAX_PLAYERS)
    return SearchContext(
        ids,
        weights,
        np.ones(MAX_PLAYERS, np.bool_),
        np.int64(setup.players),
        np.int64(fan_index(setup.fan)),
        setup.cards.medal_values,
        setup.cards.finale_medals,
    )


def chunk_frame(setup: FantastiqueSetup, first: int, arrays: dict[str, np.ndarray]) -> pd.DataFrame:
    """The tidy rows of one chunk of :func:`play_chunks` (bookkeeping columns dropped)."""
    return tidy_frame(
        first,
        _public(arrays) | turn_columns(setup.spec.turn_order, arrays, setup.players),
        setup.players,
        setup.policy_names,
        {"fan": setup.fan, "players": setup.players},
    )


def _public(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Drop bookkeeping columns that only tests need."""
    return {k: v for k, v in arrays.items() if k != "cards_outside_hands"}


simulate = run.bind(NAME, run.simulate)
simulate_summary = run.simulate_summary

__all__ = ["chunk_frame", "play_chunks", "search_context", "simulate", "simulate_summary"]
