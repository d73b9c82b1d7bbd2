"""Rounds of best responses, and the pool they leave rated by a tournament.

Round 1 searches P's best response to the field given (:func:`.best_response.best_response`);
round ``k`` searches it again, from P's starting weights, against the field enlarged by the
responses of rounds ``1 .. k-1`` (each a field policy with its weights, sitting at the table as
often as every other field policy: :mod:`.arena`). This is the iteration of policy-space
response oracles, within P's family of weights: a response that the next round cannot beat by
moving the same weights is a strategy the family does not exploit.

Every round plays the same deals of the same seed (its search on games ``0 .. games-1``, its
validation after them), so rounds differ by their field only, and keeps its journal and outputs
in ``rounds/round_k`` under the output folder: ``--resume`` resumes each round from its journal
where it has one (a finished round is read back, not searched again) and searches afresh where
it has none, so a run stopped in any round gives, resumed, what an uninterrupted one gives.

The pool is P at its starting weights, each field policy given and every round's response
(labelled ``P@round_k``). It is rated by one tournament (:func:`fairysim.analysis.tournament.
play.play_tournament`: every mix of the pool at every seat rotation on the same deals) with
Bradley-Terry log-strengths and their bootstrap intervals (:func:`~fairysim.analysis.tournament.
play.ratings`).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import check_games
from fairysim.sim.policy import Policy

POOL_GAMES = 1_000
"""Games per (mix, rotation) of the pool's tournament unless told."""

ROUNDS_FOLDER = "rounds"
"""Where the rounds' folders (``round_1`` ..) are kept under the output folder."""

RATINGS_NAME = "pool_ratings.csv"
"""The pool's ratings under the output folder."""


@dataclass
class PoolRating:
    """The pool after the rounds: its entries and their Bradley-Terry ratings.

    Attributes
    ----------
    responses : list
        Each round's :class:`~.best_response.BestResponse`, round 1 first.
    ratings : pandas.DataFrame
        One row per pool entry, strongest first: ``entry``, ``policy``, ``round`` (0 for a
        policy given), ``weights`` (JSON), ``rating`` with its 95% bootstrap interval ``low`` ..
        ``high``, ``games`` (deals per (mix, rotation)), ``resamples``, ``mixes``, ``players``.
    """

    responses: list[Any]
    ratings: pd.DataFrame
    pool_games: int
    mixes: int

    def csv(self) -> bytes:
        """:attr:`ratings` as CSV bytes."""
        buffer = io.StringIO()
        self.ratings.to_csv(buffer, index=False)
        return buffer.getvalue().encode()


def check_rounds(rounds: Any, pool_games: Any) -> tuple[int, int]:
    """``rounds`` (1 or more) and ``pool_games``, or an error naming ``--rounds`` /
    ``--pool-games``."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise FairysimError("--rounds", f"must be a whole number, 1 or more, got {rounds!r}")
    return rounds, check_games(pool_games, "--pool-games")


def check_resume(folder: Path | None, resume: bool) -> None:
    """Refuse ``resume`` where round 1 kept no journal under ``folder`` (an error naming
    ``--resume``; without a folder, :func:`.best_response.best_response` refuses it)."""
    from fairysim.analysis.strategy.journal import JOURNAL_NAME

    first = round_folder(folder, 1)
    if resume and first is not None and not (first / JOURNAL_NAME).exists():
        raise FairysimError("--resume", f"no rounds to resume: {first / JOURNAL_NAME} is missing")


def round_folder(folder: Path | None, k: int) -> Path | None:
    """Round ``k``'s folder under the output folder (None where nothing is written)."""
    return None if folder is None else folder / ROUNDS_FOLDER / f"round_{k}"


def play_rounds(
    respond: Callable[..., Any],
    start: Policy,
    field: Sequence[Policy],
    rounds: int,
    folder: Path | None,
    resume: bool,
    progress: Callable[[int, int], None] | None,
    evaluations: int,
) -> list[Any]:
    """The rounds' responses: ``respond(field, out_dir=, resume=, progress=)`` once per round,
    the field growing by each response."""
    from fairysim.analysis.strategy.journal import JOURNAL_NAME

    check_resume(folder, resume)
    responses: list[Any] = []
    enlarged = list(field)
    for k in range(1, rounds + 1):
        where = round_folder(folder, k)
        again = resume and where is not None and (where / JOURNAL_NAME).exists()

        def counted(done: int, total: int, k: int = k) -> None:
            if progress is not None:
                progress((k - 1) * evaluations + done, rounds * evaluations)

        result = respond(enlarged, out_dir=where, resume=again, progress=counted)
        responses.append(result)
        enlarged.append(start.with_weights(**result.weights))
    return responses


def rate_pool(
    spec: Any,
    start: Policy,
    field: Sequence[Policy],
    responses: Sequence[Any],
    *,
    players: int,
    seed: int,
    pool_games: int,
    cards: Any,
    threads: int | None,
    workers: int | None,
    scheduler: str | None,
    axes: dict[str, Any],
) -> PoolRating:
    """Play the pool's tournament and rate its entries."""
    from fairysim.analysis.tournament import play as tm

    pool, labels, origin = pool_entries(start, field, responses)
    tournament = tm.play_tournament(
        spec,
        policies=pool,
        labels=labels,
        players=players,
        games=pool_games,
        seed=seed,
        cards=cards,
        threads=threads,
        workers=workers,
        scheduler=scheduler,
        **axes,
    )
    rating = tm.ratings(tournament)
    by_label = dict(zip(labels, zip(pool, origin, strict=True), strict=True))
    rating["round"] = [by_label[e][1] for e in rating["entry"]]
    rating["weights"] = [
        json.dumps(dict(zip(p.weight_names, p.weights, strict=True)))
        for p in (by_label[e][0] for e in rating["entry"])
    ]
    rating["mixes"] = len(tournament.mixes)
    rating["players"] = players
    return PoolRating(list(responses), rating, pool_games, len(tournament.mixes))


def pool_entries(
    start: Policy, field: Sequence[Policy], responses: Sequence[Any]
) -> tuple[list[Policy], list[str], list[int]]:
    """The pool: P at its start, each distinct field policy, each round's response; their
    labels, and the round each comes from (0 for a policy given)."""
    pool: list[Policy] = []
    labels: list[str] = []
    seen: set[tuple[str, tuple[float, ...]]] = set()
    for policy in (start, *field):
        key = (policy.name, policy.weights)
        if key not in seen:
            seen.add(key)
            pool.append(policy)
            given = policy.weights == policy.defaults
            labels.append(policy.name if given else f"{policy.name} (weights given)")
    origin = [0] * len(pool)
    for k, result in enumerate(responses, start=1):
        pool.append(start.with_weights(**result.weights))
        labels.append(f"{start.name}@round_{k}")
        origin.append(k)
    return pool, labels, origin


def pool_size(start: Policy, field: Sequence[Policy], rounds: int) -> int:
    """How many entries the pool will hold (checked against the tournament's design first)."""
    return len({(p.name, p.weights) for p in (start, *field)}) + rounds


__all__ = [
    "POOL_GAMES",
    "RATINGS_NAME",
    "ROUNDS_FOLDER",
    "PoolRating",
    "check_resume",
    "check_rounds",
    "play_rounds",
    "pool_entries",
    "pool_size",
    "rate_pool",
    "round_folder",
]
