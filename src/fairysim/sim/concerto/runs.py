"""Play Fairy Concerto: a setup's games chunk by chunk (:func:`play_chunks`), a chunk's tidy
rows (:func:`chunk_frame`), and the contract's ``simulate`` and ``simulate_summary`` bound to the
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
from fairysim.sim.concerto.engine import OUTCOME_COLUMNS, new_outcome, play_games
from fairysim.sim.concerto.lanes import PLAYER_COUNTS as LANE_PLAYER_COUNTS
from fairysim.sim.concerto.lanes import play_greedy_games
from fairysim.sim.concerto.policies import GREEDY, POLICIES
from fairysim.sim.concerto.rules import (
    DECISIONS,
    KINDS,
    MAX_SEATS,
    PART_NAMES,
    SOLOISTS,
    form_rounds,
)
from fairysim.sim.concerto.setup import FORCED_COLUMNS, ConcertoSetup, is_rollout
from fairysim.sim.concerto.spec import NAME
from fairysim.sim.policy import seat_policies
from fairysim.sim.search import playout_policy

TRACE = "score_round"
"""The array of a traced run (``trace=True``): each seat's standing after each round (ruling
PC6), the tidy rows' ``score_round_1`` .. ``score_round_N`` (the spec's ``trace_prefix``)."""


def search_context(setup: ConcertoSetup) -> tuple | None:
    """What a run with a ``rollout`` seat passes the engine as ``search`` (None without one):
    the play-out lineup's built-in ids, view flags and weights, every seat the play-out policy
    at its default weights (:func:`fairysim.sim.search.playout_policy`)."""
    rollouts = [p for p in setup.policies if is_rollout(p)]
    if not rollouts:
        return None
    lineup = seat_policies([playout_policy(POLICIES, rollouts[0])] * MAX_SEATS, MAX_SEATS)
    return (lineup.ids, lineup.reads_view, lineup.weights)


def play_chunks(
    setup: ConcertoSetup,
    games: int,
    *,
    first_game: int = 0,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    lanes: bool = True,
    trace: bool = False,
) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    """Yield ``(first_game, arrays)`` chunk by chunk, for games ``first_game`` onwards (a sweep
    hands game ranges of one run to different workers).

    A solo or 3-4 player table where every seat plays greedy is played in lanes
    (:mod:`.lanes`), the same games faster; ``lanes=False`` plays it one game at a time
    (:mod:`.engine`), for comparison.

    Per-row arrays (shape ``(n, seats)``) are the :data:`SEAT_COLUMNS`; per-game arrays (shape
    ``(n,)``) are the setup codes ``soloist_card``, ``pianist_card``, ``harpist_card``,
    ``popularity_kind`` and the bookkeeping ``bag_left``, ``tokens_removed``, ``pile_left``,
    ``discarded``. With ``trace``, ``score_round`` of shape ``(n, seats, rounds)`` (rounds of the
    form: 2, 4 for two players, 7 solo, Pahha the second seat): each seat's standing after each
    round, the score it would have if the game ended then (ruling PC6).
    """
    seats = seat_policies(setup.policies, MAX_SEATS)
    search = search_context(setup)
    fixed = setup.fixed_setup()
    cards = setup.cards
    card_arrays = (cards.score_need, cards.tokens, cards.pianist_sets, cards.harpist_sets)
    in_lanes = (
        lanes
        and not setup.forced_card
        and setup.players in LANE_PLAYER_COUNTS
        and all(seats.ids[: setup.players] == GREEDY)
    )

    rounds = form_rounds(setup.players)

    def play_chunk(first: int, n: int) -> dict[str, np.ndarray]:
        out = new_outcome(n, setup.seats)
        trace_out = np.zeros((n if trace else 1, setup.seats, rounds), np.int64)
        threads = nb.get_num_threads()
        if in_lanes:
            play_greedy_games(
                setup.seed, first, setup.players, *card_arrays, fixed, out, trace_out, trace,
                threads,
            )  # fmt: skip
            arrays = outcome_arrays(out, forced=False)
        else:
            errors = new_error_records(n)
            play_games(
                setup.seed,
                first,
                setup.players,
                *seats,
                *card_arrays,
                fixed,
                out,
                trace_out,
                trace,
                errors,
                threads,
                search,
            )
            raise_first_illegal_choice(errors, first, DECISIONS)
            arrays = outcome_arrays(out, forced=bool(setup.forced_card))
        if trace:
            arrays[TRACE] = trace_out.astype(OUTCOME_COLUMNS["score"][0])
        return arrays

    yield from run_chunks(play_chunk, games, chunk_games, progress, threads, first_game)


def outcome_arrays(out, forced: bool = False) -> dict[str, np.ndarray]:
    """Flatten an engine Outcome into named per-row and per-game arrays; ``forced`` adds the
    card-effect columns (:data:`FORCED_COLUMNS`)."""
    arrays: dict[str, np.ndarray] = {
        "score": out.score,
        "rank": out.rank,
        "win_share": out.win_share,
        "margin": out.margin,
    }
    for i, name in enumerate(PART_NAMES):
        arrays[name] = out.parts[:, :, i]
    for name in ("cards_held", "cards_completed", "held_mask", "completed_mask"):
        arrays[name] = getattr(out, name)
    for k, kind in enumerate(KINDS):
        arrays[f"n_{kind}"] = out.orchestra[:, :, k]
    for name in (
        "soloist_card",
        "pianist_card",
        "harpist_card",
        "popularity_kind",
        "bag_left",
        "tokens_removed",
        "pile_left",
        "discarded",
        *(FORCED_COLUMNS if forced else ()),
    ):
        arrays[name] = getattr(out, name)
    return arrays


BOOKKEEPING = ("bag_left", "tokens_removed", "pile_left", "discarded")


def chunk_frame(setup: ConcertoSetup, first: int, arrays: dict[str, np.ndarray]) -> pd.DataFrame:
    """The tidy rows of one chunk, setup codes turned into labels."""
    public = {k: v for k, v in arrays.items() if k not in BOOKKEEPING}
    public |= turn_columns(setup.spec.turn_order, arrays, setup.players, setup.seats)
    frame = tidy_frame(first, public, setup.seats, setup.policy_names, {"players": setup.players})
    labels = {
        "soloist_card": list(SOLOISTS),
        "pianist_card": list(setup.cards.pianist_ids),
        "harpist_card": list(setup.cards.harpist_ids),
        "popularity_kind": list(KINDS),
    }
    for name, categories in labels.items():
        frame[name] = pd.Categorical.from_codes(frame[name].to_numpy().astype(np.int64), categories)
    return frame


simulate = run.bind(NAME, run.simulate)
simulate_summary = run.simulate_summary

__all__ = ["chunk_frame", "play_chunks", "search_context", "simulate", "simulate_summary"]
