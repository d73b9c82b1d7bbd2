"""A mixed lineup played on every rotation of its seats, on identical deals.

A lineup seat mixes its policy with a place in the turn order: where a game's seat index is its turn
order, a seat is a position, and where the starter is drawn per game a seat still is not a policy's
own (the spec's ``TurnOrder`` says which). So ``simulate`` plays a lineup of N entries that seats
different policies N times, rotation ``r`` putting entry ``(s + r) mod N`` at seat ``s`` (the
tournament's rotation, the analysis layer's ``rotate``), each rotation on games ``0 .. G-1``
of the run's seed. The engines draw every rule random number from the deal stream and each seat's
policy from its own stream (docs/architecture.md, "Random numbers"), so game ``g`` of every
rotation has the same deal: every entry meets every seat on the same deals, and ``--games`` counts
deals (each played N times).

An entry's row pools its N games of every deal. Each deal is a cluster: the entry's per-deal mean
over the rotations is one observation per deal, and deals are independent, so the standard error
of the pooled share is that of the mean of those per-deal means (with N rows a deal, it equals
statsmodels' cluster-robust standard error of OLS on a constant clustered by deal; a test checks
it). It is aggregated on the fly (:class:`fairysim.sim.batch.SeatAggregate` over the per-deal
means), so memory does not grow with the deals, and the rows are one Holm-corrected family
against the fair share ``1/N`` (:func:`fairysim.stats.precision.corrected_shares`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from fairysim.sim.batch import (
    DEFAULT_CHUNK_GAMES,
    AtomicParquetWriter,
    Progress,
    SeatAggregate,
    check_games,
    run_metadata,
)
from fairysim.sim.game import GameSpec, get_game

T = TypeVar("T")


def entry_labels(policies: Sequence[str]) -> tuple[str, ...]:
    """Distinct labels for the entries: a repeated name gets ``#2``, ``#3``."""
    seen: dict[str, int] = {}
    labels = []
    for name in policies:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return tuple(labels)


def rotate(lineup: Sequence[T], rotation: int) -> list[T]:
    """Rotation ``rotation`` of a lineup: ``lineup[(s + rotation) mod N]`` at seat ``s``, so
    over rotations ``0 .. N-1`` every entry sits at every seat once."""
    n = len(lineup)
    return [lineup[(seat + rotation) % n] for seat in range(n)]


def mixes_policies(setup: Any) -> bool:
    """Whether a setup's lineup seats different policies (a name or a weight differs), so that
    it is played on every rotation of its seats. A setup with result rows that are no player
    (a solo game's opponent) is not rotated: its opponent keeps its place."""
    kinds = {(policy.name, tuple(policy.weights)) for policy in setup.policies}
    return len(kinds) > 1 and not setup.extra_rows


def lineup_names(setup: Any) -> list[str]:
    """The lineup's policy names in the order given (its entries)."""
    return [policy.name for policy in setup.policies]


def entry_piece(
    spec: GameSpec, setups: Sequence[Any], first_game: int, games: int, **flags: Any
) -> SeatAggregate:
    """Games ``first_game .. first_game + games - 1`` of every rotation as one chunk, folded
    as :func:`rotated_summary` folds a chunk: the sums of each entry's per-deal means (a sweep
    task's piece, :mod:`fairysim.sweep.tasks`)."""
    ((_, rotations),) = play_rotations(
        spec, setups, games, first_game=first_game, chunk_games=games, **flags
    )
    piece = SeatAggregate(spec.seat_columns, len(setups))
    piece.add(entry_means(spec, rotations))
    return piece


def rotated_setups(setup: Any) -> list[Any]:
    """The setup of each rotation ``r = 0 .. N-1``: the lineup's policies (weights and all)
    moved as a tournament's ``rotate`` moves them, everything else the same."""
    return [
        dataclasses.replace(setup, policies=tuple(rotate(setup.policies, r)))
        for r in range(setup.players)
    ]


def entry_at_seat(players: int, rotation: int) -> np.ndarray:
    """Which lineup entry sits at each seat in rotation ``rotation``."""
    return np.asarray(rotate(range(players), rotation), np.int64)


def play_rotations(
    spec: GameSpec,
    setups: Sequence[Any],
    games: int,
    *,
    first_game: int = 0,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    **flags: Any,
) -> Iterator[tuple[int, list[dict[str, np.ndarray]]]]:
    """Games ``first_game ..`` of every rotation, chunk by chunk: ``(first game, [arrays of
    rotation 0, 1, ..])``, every rotation's chunk holding the same game indices (deals)."""
    streams = [
        spec.play_chunks(
            setup, games, first_game=first_game, chunk_games=chunk_games, threads=threads, **flags
        )
        for setup in setups
    ]
    for parts in zip(*streams, strict=True):
        firsts = {first for first, _ in parts}
        assert len(firsts) == 1, f"rotations out of step: chunks start at {sorted(firsts)}"
        yield parts[0][0], [arrays for _, arrays in parts]


def entry_means(spec: GameSpec, rotations: Sequence[Mapping[str, np.ndarray]]) -> dict:
    """Per deal, each entry's seat columns averaged over the rotations: shape (deals, N), column
    ``e`` entry ``e`` (it sits at seat ``(e - r) mod N`` in rotation ``r``)."""
    players = len(rotations)
    means = {}
    for name in spec.seat_columns:
        total = np.zeros((len(rotations[0][name]), players))
        for rotation, arrays in enumerate(rotations):
            seat_of_entry = np.argsort(entry_at_seat(players, rotation))
            total += np.asarray(arrays[name], np.float64)[:, seat_of_entry]
        means[name] = total / players
    return means


def entry_frame(aggregate: SeatAggregate, names: Sequence[str]) -> pd.DataFrame:
    """One row per lineup entry from an aggregate of :func:`entry_means`: ``entry``, ``policy``
    (its name, from ``names``, the lineup's policy names in order), ``label`` (with ``#2`` where
    a name repeats), ``games`` (deals), ``wins``, ``<column>_mean`` pooled over the rotations,
    ``se``, the share's standard error clustered by deal, and ``seat_games`` (the games)."""
    names = list(names)
    frame = aggregate.frame(names).rename(columns={"seat": "entry"})
    deals = max(aggregate.games, 1)
    frame["se"] = frame["win_share_std"] / np.sqrt(deals)
    frame = frame.drop(columns=[c for c in frame.columns if c.endswith("_std")])
    frame.insert(2, "label", list(entry_labels(names)))
    frame["seat_games"] = aggregate.games * len(names)
    return frame


def rotated_rows(
    chunk_frame: Callable[..., pd.DataFrame],
    setups: Sequence[Any],
    first: int,
    rotations: Sequence[Mapping[str, np.ndarray]],
) -> pd.DataFrame:
    """A chunk's rows of every rotation with their ``rotation`` and ``entry``, ordered by
    (game, rotation, seat), so that the file is the same whatever the chunk size."""
    players = len(setups)
    frames = []
    for rotation, (rotated, arrays) in enumerate(zip(setups, rotations, strict=True)):
        frame = chunk_frame(rotated, first, arrays)
        games = len(arrays["win_share"])
        entries = np.full(len(frame) // games, -1, np.int8)  # a row that is no player: -1
        entries[:players] = entry_at_seat(players, rotation)
        frame["rotation"] = np.int8(rotation)
        frame["entry"] = np.tile(entries, games)
        frames.append(frame)
    rows = pd.concat(frames, ignore_index=True)
    return rows.sort_values("game", kind="stable", ignore_index=True)


def rotated_metadata(spec: GameSpec, setup: Any, deals: int) -> dict[str, Any]:
    """What a rotated run's file carries: the lineup as given (rotation 0), the deals and the
    rotations."""
    return run_metadata(
        spec.name,
        {
            **setup.config(),
            "games": deals * setup.players,
            "deals": deals,
            "rotations": setup.players,
            "entries": list(entry_labels([p.name for p in setup.policies])),
        },
    )


def rotated_summary(
    setup: Any,
    deals: int,
    *,
    out: str | Path | None = None,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    **flags: Any,
) -> pd.DataFrame:
    """Play every rotation of ``setup``'s lineup on deals ``0 .. deals-1`` in bounded memory,
    optionally streaming every (rotation, game, seat) row to Parquet at ``out`` (atomically, as
    :func:`fairysim.sim.run.simulate_summary`).

    Parameters
    ----------
    setup : a game's setup
        Its policies are the lineup, entry ``e`` the ``e``-th.
    deals : int
        Game indices played, each once per rotation (``deals x N`` games).
    out : path, optional
        Parquet file: the game's rows (``chunk_frame``) plus ``rotation`` and ``entry``; a game
        is ``(rotation, game)``, and ``game`` alone is the deal.
    progress : callable, optional
        ``progress(games_done, games_total)`` in games (``deals x N`` in all).

    Returns
    -------
    pandas.DataFrame
        :func:`entry_frame`'s rows, with the file's metadata in ``attrs["fairysim"]``.
    """
    spec = get_game(setup.game, "setup")
    deals = check_games(deals, "games")
    players = setup.players
    setups = rotated_setups(setup)
    aggregate = SeatAggregate(spec.seat_columns, players)
    meta = rotated_metadata(spec, setup, deals)
    chunk_frame = spec.entry("chunk_frame")
    chunks = play_rotations(spec, setups, deals, chunk_games=chunk_games, threads=threads, **flags)
    done = 0
    # A failed write (a full disk) is a FairysimError naming --out; the old file stays.
    with AtomicParquetWriter(out, meta, "out") if out is not None else nullcontext() as writer:
        for first, rotations in chunks:
            means = entry_means(spec, rotations)
            aggregate.add(means)
            if writer is not None:
                writer.write(rotated_rows(chunk_frame, setups, first, rotations))
            done += len(rotations[0]["win_share"]) * players
            if progress is not None:
                progress(done, deals * players)
    summary = entry_frame(aggregate, lineup_names(setup))
    summary.attrs["fairysim"] = meta
    return summary


__all__ = [
    "entry_at_seat",
    "entry_frame",
    "entry_labels",
    "entry_means",
    "entry_piece",
    "lineup_names",
    "mixes_policies",
    "play_rotations",
    "rotate",
    "rotated_metadata",
    "rotated_setups",
    "rotated_summary",
]
