"""Tournaments: every policy against every mix of the others, seats rotated on identical deals.

Built over the game contract only (``GameSpec.make_setup`` and ``play_chunks``), so it names no
game. The design:

- **Entries.** The ``policies`` given, in order; a name given twice is two entries (``greedy``,
  ``greedy#2``), which is how a test checks that two copies of one policy rate alike.
- **Mixes.** Every multiset of the P entries over the N seats that holds at least two distinct
  entries: ``C(P + N - 1, N) - P`` mixes (3 policies at 4 players: 12). No sample is drawn; a
  tournament of more than :data:`MAX_MIXES` mixes is refused with one line.
- **Rotation.** A mix ``(a_0 .. a_{N-1})`` is played N times, rotation ``r`` putting
  ``a_{(s + r) mod N}`` at seat ``s``, each time on games ``0 .. G-1`` of the same seed. The
  engines draw every rule random number from the deal stream and each seat's policy from its
  own stream (docs/architecture.md, "Random numbers"), so game ``i`` of every (mix, rotation)
  has the same deal: every entry meets every seat on the same deals.
- **Turn order.** A seat's turn position is ``(seat - start) mod N`` where the chunk has a
  per-game start-seat column (:data:`START_SEAT_COLUMNS`), else the seat number.
- **Head-to-head matrix.** For entries i and j at one table (different seats): 1 when i ranks
  above j, 1/2 on an equal rank, 0 below; the matrix cell is the mean over every such meeting.
  Every (mix, rotation) of game index ``g`` shares a deal, so intervals are clustered by ``g``
  (statsmodels OLS on a constant with a cluster-robust covariance).
- **Rating.** Bradley-Terry strengths fitted by ``choix.ilsr_pairwise_dense`` to the count matrix
  of those pairwise results (an equal rank counts 1/2 each way); log-strengths centred on zero.
  The pairs of one game are not independent, so the 95% interval is a percentile bootstrap over
  game indices (every (mix, rotation) of a resampled index goes with it).

Precision (``--precision H``) is not here yet: :func:`play_tournament` plays each (mix,
rotation) in chunks through ``play_chunks``, and a stopping rule would go in
:func:`_play_pairing`. Sweeps of tournaments on Dask are not built.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

import numpy as np
import pandas as pd

from fairysim.errors import FairysimError
from fairysim.sim.batch import DEFAULT_CHUNK_GAMES, check_games, run_metadata
from fairysim.sim.game import GameSpec, get_game

MAX_MIXES = 500
"""The most mixes a tournament plays (every mix is played N times G games)."""

START_SEAT_COLUMNS = ("first_seat", "start_seat")
"""Per-game columns, by contract convention, that name the seat that plays first."""

BOOTSTRAP = 400
"""Bootstrap resamples of the game indices for the rating intervals."""

RATING_ALPHA = 1e-3
"""choix's regularisation: keeps a strength finite when an entry never beats another."""


@dataclass
class Tournament:
    """A played tournament: every seat of every game, and what is derived from it."""

    game: str
    entries: tuple[str, ...]
    policies: tuple[str, ...]
    players: int
    games: int
    seed: int
    mixes: tuple[tuple[int, ...], ...]
    rows: pd.DataFrame
    meta: dict[str, Any] = field(default_factory=dict)


def entry_labels(policies: Sequence[str]) -> tuple[str, ...]:
    """Distinct labels for the entries: a repeated name gets ``#2``, ``#3``."""
    seen: dict[str, int] = {}
    labels = []
    for name in policies:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return tuple(labels)


def tournament_mixes(entries: int, players: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ``entries`` over ``players`` seats with two distinct entries or more."""
    return tuple(
        mix
        for mix in itertools.combinations_with_replacement(range(entries), players)
        if len(set(mix)) > 1
    )


def check_tournament(
    spec: GameSpec, policies: str | Sequence[str], players: Any
) -> tuple[tuple[str, ...], int]:
    """The policy names and player count, or one error naming ``--policies`` / ``--players``."""
    names = (
        [p.strip() for p in policies.split(",")] if isinstance(policies, str) else list(policies)
    )
    if any(not name for name in names):
        raise FairysimError("--policies", f"empty policy name in {','.join(names)!r}")
    if len(names) < 2:
        raise FairysimError(
            "--policies", f"a tournament needs two policies or more, got {','.join(names)!r}"
        )
    count = spec.check_players(players, "--players")
    if count < 2:
        raise FairysimError("--players", f"a tournament needs two seats or more, got {count}")
    n_mixes = comb(len(names) + count - 1, count) - len(names)
    if n_mixes > MAX_MIXES:
        raise FairysimError(
            "--policies",
            f"{len(names)} policies at {count} players make {n_mixes} mixes, more than "
            f"{MAX_MIXES}; give fewer policies",
        )
    return tuple(names), count


def _turn_positions(arrays: dict[str, np.ndarray], n: int, players: int) -> np.ndarray:
    seats = np.broadcast_to(np.arange(players), (n, players))
    for name in START_SEAT_COLUMNS:
        column = arrays.get(name)
        if column is not None and column.ndim == 1:
            return (seats - column.astype(np.int64)[:, None]) % players
    return np.array(seats)


def _play_pairing(
    spec: GameSpec,
    setup: Any,
    games: int,
    *,
    chunk_games: int,
    threads: int | None,
    progress: Callable[[int], None] | None,
) -> dict[str, np.ndarray]:
    """One (mix, rotation): its games in chunks through the contract; the hook for a stopping
    rule (``--precision``) is this loop."""
    parts: dict[str, list[np.ndarray]] = {"win_share": [], "rank": [], "position": []}
    for _, arrays in spec.play_chunks(setup, games, chunk_games=chunk_games, threads=threads):
        n = len(arrays["win_share"])
        parts["win_share"].append(np.asarray(arrays["win_share"], np.float64))
        parts["rank"].append(np.asarray(arrays["rank"], np.int64))
        parts["position"].append(_turn_positions(arrays, n, setup.seats))
        if progress is not None:
            progress(n)
    return {name: np.concatenate(values) for name, values in parts.items()}


def play_tournament(
    game: str | GameSpec,
    *,
    policies: str | Sequence[str],
    players: int,
    games: int,
    seed: int = 0,
    cards: Any = None,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    **axes: Any,
) -> Tournament:
    """Play every mix of ``policies`` at ``players`` seats, each rotated, ``games`` games each.

    Returns
    -------
    Tournament
        ``rows``: one row per (mix, rotation, game, seat) with ``entry`` (index into
        ``entries``), ``position`` (turn order, 0 plays first), ``win_share`` and ``rank``.
    """
    spec = game if isinstance(game, GameSpec) else get_game(game, "GAME")
    names, players = check_tournament(spec, policies, players)
    games = check_games(games, "--games")
    # Each policy alone at every seat: an unknown name or a bad user policy fails here, before
    # the first game, naming the tournament's option.
    for name in dict.fromkeys(names):
        try:
            spec.make_setup(players=players, policies=name, seed=seed, cards=cards, **axes)
        except FairysimError as error:
            if error.where in ("--policy", "policies"):
                raise FairysimError("--policies", error.message) from None
            raise
    mixes = tournament_mixes(len(names), players)
    total = len(mixes) * players * games
    done = 0

    def advance(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, total)

    frames = []
    config: dict[str, Any] = {}
    for mix_id, mix in enumerate(mixes):
        for rotation in range(players):
            seat_entries = [mix[(seat + rotation) % players] for seat in range(players)]
            setup = spec.make_setup(
                players=players,
                policies=",".join(names[e] for e in seat_entries),
                seed=seed,
                cards=cards,
                **axes,
            )
            config = setup.config()
            played = _play_pairing(
                spec, setup, games, chunk_games=chunk_games, threads=threads, progress=advance
            )
            frames.append(
                pd.DataFrame(
                    {
                        "mix": np.int32(mix_id),
                        "rotation": np.int8(rotation),
                        "game": np.repeat(np.arange(games, dtype=np.int64), players),
                        "seat": np.tile(np.arange(players, dtype=np.int8), games),
                        "entry": np.tile(np.asarray(seat_entries, np.int8), games),
                        "position": played["position"].reshape(-1).astype(np.int8),
                        "win_share": played["win_share"].reshape(-1),
                        "rank": played["rank"].reshape(-1).astype(np.int16),
                    }
                )
            )
    rows = pd.concat(frames, ignore_index=True)
    entries = entry_labels(names)
    config = {
        key: value for key, value in config.items() if key not in ("policies", "weights", "seed")
    }
    meta = run_metadata(
        spec.name,
        {
            **config,
            "tournament": True,
            "policies": list(names),
            "entries": list(entries),
            "players": players,
            "games_per_pairing": games,
            "mixes": [list(m) for m in mixes],
            "seed": seed,
        },
    )
    return Tournament(spec.name, entries, names, players, games, seed, mixes, rows, meta)


def _clustered_mean(values: np.ndarray, groups: np.ndarray) -> tuple[float, float, float]:
    """Mean of ``values`` and its 95% interval, clustered by ``groups`` (statsmodels)."""
    import statsmodels.api as sm

    mean = float(values.mean())
    if np.all(values == values[0]) or len(np.unique(groups)) < 2:
        return mean, mean, mean
    fit = sm.OLS(values, np.ones(len(values))).fit(cov_type="cluster", cov_kwds={"groups": groups})
    low, high = fit.conf_int(0.05)[0]
    return mean, float(low), float(high)


def pair_results(t: Tournament) -> pd.DataFrame:
    """One row per ordered meeting of two seats with different entries at one table:
    ``game``, ``row`` and ``col`` entries, and ``score`` (1 row ranks above, 1/2 equal, 0)."""
    n = t.players
    ranks = t.rows["rank"].to_numpy().reshape(-1, n)
    entries = t.rows["entry"].to_numpy().reshape(-1, n)
    game = t.rows["game"].to_numpy().reshape(-1, n)[:, 0]
    parts = []
    for a, b in itertools.permutations(range(n), 2):
        keep = entries[:, a] != entries[:, b]
        score = np.where(
            ranks[:, a] < ranks[:, b], 1.0, np.where(ranks[:, a] == ranks[:, b], 0.5, 0.0)
        )
        parts.append(
            pd.DataFrame(
                {
                    "game": game[keep],
                    "row": entries[keep, a],
                    "col": entries[keep, b],
                    "score": score[keep],
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def head_to_head(t: Tournament, pairs: pd.DataFrame | None = None) -> pd.DataFrame:
    """The head-to-head matrix in long form: ``row``, ``col`` (entry labels), ``meetings``,
    ``games`` (distinct deals), ``share`` (how often row ranks above col at one table, equal
    ranks half) and its 95% interval clustered by game index."""
    pairs = pair_results(t) if pairs is None else pairs
    out = []
    for (row, col), group in pairs.groupby(["row", "col"], sort=True):
        mean, low, high = _clustered_mean(group["score"].to_numpy(), group["game"].to_numpy())
        out.append(
            {
                "row": t.entries[row],
                "col": t.entries[col],
                "meetings": len(group),
                "games": group["game"].nunique(),
                "share": mean,
                "low": low,
                "high": high,
            }
        )
    return pd.DataFrame(out)


def _count_matrices(t: Tournament, pairs: pd.DataFrame) -> np.ndarray:
    """``(games, P, P)``: per game index, how often entry i beat entry j (equal ranks 1/2)."""
    p = len(t.entries)
    counts = np.zeros((t.games, p, p))
    np.add.at(
        counts,
        (pairs["game"].to_numpy(), pairs["row"].to_numpy(), pairs["col"].to_numpy()),
        pairs["score"].to_numpy(),
    )
    return counts


def ratings(
    t: Tournament, pairs: pd.DataFrame | None = None, *, resamples: int = BOOTSTRAP
) -> pd.DataFrame:
    """Bradley-Terry log-strength per entry (choix), centred on zero, with a 95% percentile
    bootstrap interval over game indices; sorted strongest first."""
    import choix

    pairs = pair_results(t) if pairs is None else pairs
    counts = _count_matrices(t, pairs)
    flat = counts.reshape(t.games, -1)

    def fit(weights: np.ndarray) -> np.ndarray:
        comp = (weights @ flat).reshape(counts.shape[1:])
        params = choix.ilsr_pairwise_dense(comp, alpha=RATING_ALPHA, max_iter=500)
        return params - params.mean()

    estimate = fit(np.ones(t.games))
    rng = np.random.default_rng([t.seed, 0x70E7])
    draws = np.array(
        [
            fit(np.bincount(rng.integers(0, t.games, t.games), minlength=t.games).astype(float))
            for _ in range(resamples)
        ]
    )
    low, high = np.percentile(draws, [2.5, 97.5], axis=0)
    frame = pd.DataFrame(
        {
            "entry": list(t.entries),
            "policy": list(t.policies),
            "rating": estimate,
            "low": low,
            "high": high,
            "games": t.games,
            "resamples": resamples,
        }
    )
    return frame.sort_values("rating", ascending=False, ignore_index=True)


def turn_order(t: Tournament) -> pd.DataFrame:
    """Win share per entry and turn position (0 plays first), 95% intervals clustered by game."""
    out = []
    rows = t.rows
    for (entry, position), group in rows.groupby(["entry", "position"], sort=True):
        mean, low, high = _clustered_mean(group["win_share"].to_numpy(), group["game"].to_numpy())
        out.append(
            {
                "entry": t.entries[entry],
                "position": int(position),
                "seat_games": len(group),
                "win_share": mean,
                "low": low,
                "high": high,
            }
        )
    return pd.DataFrame(out)


def save_tournament(t: Tournament, out_dir: Any, tables: dict[str, pd.DataFrame]) -> list[Any]:
    """Write the seat rows and each table as Parquet under ``out_dir``, each with the run's
    metadata (atomically, through :class:`fairysim.sim.batch.AtomicParquetWriter`)."""
    from pathlib import Path

    from fairysim.sim.batch import AtomicParquetWriter

    folder = Path(out_dir)
    written = []
    for name, frame in {"seats": t.rows, **tables}.items():
        path = folder / f"tournament_{name}.parquet"
        try:
            with AtomicParquetWriter(path, {**t.meta, "table": name}) as writer:
                writer.write(frame)
        except OSError as error:
            reason = error.strerror or str(error)
            raise FairysimError("--out-dir", f"cannot write {path} ({reason})") from None
        written.append(path)
    return written


__all__ = [
    "MAX_MIXES",
    "START_SEAT_COLUMNS",
    "Tournament",
    "check_tournament",
    "entry_labels",
    "head_to_head",
    "pair_results",
    "play_tournament",
    "ratings",
    "save_tournament",
    "tournament_mixes",
    "turn_order",
]
