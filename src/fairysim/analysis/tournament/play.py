"""Tournaments: every policy against every mix of the others, seats rotated on identical deals.

One module past 600 lines: the plan of mixes and rotations, their play and the three tables
(head-to-head, ratings, turn order) share the entries and their rotation; the mix design lives
apart in :mod:`.tournament_design`.

Built over the game contract only (``GameSpec.make_setup`` and ``play_chunks``), so it names no
game. The design:

- **Entries.** The ``policies`` given, in order; a name given twice is two entries (``greedy``,
  ``greedy#2``), which is how a test checks that two copies of one policy rate alike. An entry
  carries its weights (``balancer@weights.toml``, a Policy object, or ``weights_file`` for
  every entry of a policy: :mod:`fairysim.analysis.tournament.entries`), so a searched response
  and its policy's defaults are two entries.
- **Mixes.** Every multiset of the P entries over the N seats with two distinct entries or more,
  or past :data:`MAX_MIXES` a balanced sample (a cyclic block design), with how evenly it seats
  the entries and its refusal where no sample seats every pair together:
  :func:`tournament_design`, whose module :mod:`fairysim.analysis.tournament.design` has the
  design and why. This module plays the mixes and derives what follows.
- **Rotation.** A mix ``(a_0 .. a_{N-1})`` is played N times, rotation ``r`` putting
  ``a_{(s + r) mod N}`` at seat ``s``, each time on games ``0 .. G-1`` of the same seed. The
  engines draw every rule random number from the deal stream and each seat's policy from its
  own stream (docs/architecture.md, "Random numbers"), so game ``i`` of every (mix, rotation)
  has the same deal: every entry meets every seat on the same deals.
- **Turn order.** A seat's turn position is read as the game's spec says
  (:func:`fairysim.stats.turn_order.positions_of_arrays`).
- **Head-to-head matrix.** For entries i and j at one table (different seats): 1 when i ranks
  above j, 1/2 on an equal rank, 0 below; the matrix cell is the mean over every such meeting.
  Every (mix, rotation) of game index ``g`` shares a deal, so intervals are clustered by ``g``
  (statsmodels OLS on a constant with a cluster-robust covariance).
- **Rating.** Bradley-Terry strengths fitted by ``choix.ilsr_pairwise_dense`` to the count matrix
  of those pairwise results (an equal rank counts 1/2 each way); log-strengths centred on zero.
  The pairs of one game are not independent, so the 95% interval is a percentile bootstrap over
  game indices (every (mix, rotation) of a resampled index goes with it).
- **Precision** (``precision=H``, ``--precision H``). The project's one stopping rule,
  :func:`fairysim.stats.precision.study_to_precision`: looks fixed before the first game at
  ``first_look`` games per (mix, rotation), doubling, and last at ``max_games``; each look's
  head-to-head and turn-order intervals at the 5% error rate divided by the looks planned; the
  tournament stops at the first look whose widest head-to-head half-width is at most H. Each
  look extends every (mix, rotation) from the last look's game count to its own (games
  ``n_prev .. n - 1`` of the same seed), so no game is replayed and every (mix, rotation) still
  shares deal ``g``: a tournament stopped at ``n`` holds exactly the games a fixed one of ``n``
  plays, whatever the chunk size or thread count. The ratings' bootstrap stays at 95%, not
  corrected for the looks (it is not what the rule watches).

- **Dask** (``scheduler=`` or ``workers=``, ``--scheduler`` / ``--workers``). Every (mix,
  rotation)'s games are played as tasks of ``task_games`` consecutive games on a sweep's cluster
  (:mod:`fairysim.sweep.pairings`, the cluster of :mod:`fairysim.sweep.cluster`) and joined in
  game order, so the tournament holds the same games, and derives the same tables, as one
  played in process, whatever the workers or the task size.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fairysim.analysis.tournament.design import (
    MAX_MIXES,
    MixDesign,
    balanced_mixes,
    mix_balance,
    tournament_design,
    tournament_mixes,
)
from fairysim.analysis.tournament.entries import Entries, entry_items, resolve_entries
from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.sim.batch import DEFAULT_CHUNK_GAMES, run_metadata
from fairysim.sim.game import GameSpec, get_game
from fairysim.sim.policy import Policy, policies_resolved_once
from fairysim.sim.rotation import rotate
from fairysim.stats.precision import StudyPrecision, check_counts, study_to_precision
from fairysim.stats.turn_order import positions_of_arrays

ALPHA = 0.05
"""Error rate of the head-to-head and turn-order intervals (of all looks together, under
``precision``)."""

GAMES = 2_000
"""Games per (mix, rotation) of a tournament given neither ``games`` nor ``precision``."""

FIRST_LOOK = 1000
"""Games per (mix, rotation) at the first look of a tournament played to a precision."""

PRECISION_MAX_GAMES = 64_000
"""Cap on the games per (mix, rotation) of a tournament played to a precision unless given."""


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
    alpha: float = ALPHA
    """Error rate of each head-to-head and turn-order interval (``ALPHA`` divided by the looks
    planned where played to a precision)."""
    precision: StudyPrecision | None = None
    """What a tournament played to a precision reached (None for a fixed game count)."""


def check_tournament(
    spec: GameSpec, policies: str | Sequence[str | Policy], players: Any, seed: int = 0
) -> tuple[tuple[str | Policy, ...], int]:
    """The entries (names, ``NAME@FILE`` or Policy objects) and player count, or one error
    naming ``--policies`` / ``--players``."""
    names = entry_items(policies)
    if any(not name for name in names):
        raise ParameterError("policies", f"empty policy name in {_shown(names)!r}")
    if len(names) < 2:
        raise ParameterError(
            "policies", f"a tournament needs two policies or more, got {_shown(names)!r}"
        )
    count = spec.check_players(players, "players")
    if count < 2:
        raise ParameterError("players", f"a tournament needs two seats or more, got {count}")
    tournament_design(len(names), count, seed)
    return tuple(names), count


def _shown(items: Sequence[str | Policy]) -> str:
    """The entries as one comma-separated line."""
    return ",".join(item if isinstance(item, str) else item.name for item in items)


class _Pairings:
    """Every (mix, rotation) of a tournament, each extended game by game range (games ``0 ..
    n - 1`` of the seed, in order, never replayed)."""

    def __init__(self, spec: GameSpec, setups: list[Any], chunk_games: int, threads: Any):
        self.spec, self.setups = spec, setups
        self.chunk_games, self.threads = chunk_games, threads
        self.games = 0
        self.parts: list[dict[str, list[np.ndarray]]] = [
            {"win_share": [], "rank": [], "position": []} for _ in setups
        ]

    def extend(self, games: int, progress: Callable[[int], None] | None) -> None:
        """Play games ``self.games .. games - 1`` of every (mix, rotation)."""
        first = self.games
        for setup, parts in zip(self.setups, self.parts, strict=True):
            chunks = self.spec.play_chunks(
                setup,
                games - first,
                first_game=first,
                chunk_games=self.chunk_games,
                threads=self.threads,
            )
            for _, arrays in chunks:
                n = len(arrays["win_share"])
                parts["win_share"].append(np.asarray(arrays["win_share"], np.float64))
                parts["rank"].append(np.asarray(arrays["rank"], np.int64))
                parts["position"].append(
                    positions_of_arrays(arrays, self.spec.turn_order, setup.seats)
                )
                if progress is not None:
                    progress(n)
        self.games = games

    def played(self, index: int) -> dict[str, np.ndarray]:
        """Games ``0 .. self.games - 1`` of (mix, rotation) ``index``."""
        return {name: np.concatenate(values) for name, values in self.parts[index].items()}


def widest_half_width(matrix: pd.DataFrame) -> float:
    """The widest half-width of the head-to-head cells: what ``precision`` watches (0 where
    no cell varies)."""
    half = (matrix["high"] - matrix["low"]) / 2 if len(matrix) else pd.Series([0.0])
    return float(np.nanmax(half.to_numpy())) if np.isfinite(half).any() else 0.0


@policies_resolved_once()
def play_tournament(
    game: str | GameSpec,
    *,
    policies: str | Sequence[str | Policy],
    players: int,
    games: int | None = None,
    seed: int = 0,
    cards: Any = None,
    chunk_games: int | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    precision: float | None = None,
    max_games: int | None = None,
    first_look: int = FIRST_LOOK,
    scheduler: str | None = None,
    workers: int | None = None,
    task_games: int | None = None,
    weights_file: str | Path | None = None,
    labels: Sequence[str] | None = None,
    **axes: Any,
) -> Tournament:
    """Play every mix of ``policies`` at ``players`` seats (or the balanced sample of
    :func:`tournament_design`), each rotated, ``games`` games each or to a ``precision``:
    everything ``fairysim tournament`` does before it prints.

    Every parameter is checked before the first game, an error naming it
    (:class:`~fairysim.runtime.errors.ParameterError`).

    Parameters
    ----------
    game : str or GameSpec
        The registered game.
    policies : str or sequence of str or Policy
        Two or more entries (comma-separated in a string); a name given twice is two entries.
        Built-ins, ``module:function``, ``NAME@FILE`` (the policy with the weights of a weights
        file's ``[NAME]`` table) or Policy objects with their weights
        (:mod:`fairysim.analysis.tournament.entries`).
    players : int
        Seats at every table, 2 or more.
    games : int, optional
        Games per (mix, rotation), every (mix, rotation) on the same deals ``0 .. games - 1``
        (default :data:`GAMES`); give this or ``precision``, not both.
    seed : int
        Seed: game ``i`` of every (mix, rotation) has the same deal.
    cards : card set, optional
        The game's card set (default: the shipped one).
    chunk_games : int, optional
        Games per chunk, a positive whole number (default
        :data:`~fairysim.sim.batch.DEFAULT_CHUNK_GAMES`; memory and progress granularity, never
        changes a result).
    threads : int, optional
        Numba threads in this process (default: all).
    progress : callable, optional
        ``progress(done, total)`` in games; under ``precision`` ``total`` is that of the look
        being played.
    precision : float, optional
        Instead of ``games``: the widest head-to-head half-width asked, in share units (0.01 =
        one percentage point, in (0, 0.5]); looks at ``first_look`` games per (mix, rotation),
        doubling, and ``max_games``, the intervals at :data:`ALPHA` divided by the looks
        (module docstring, "Precision").
    max_games : int, optional
        Cap on the games per (mix, rotation) ``precision`` may play (default
        :data:`PRECISION_MAX_GAMES`).
    first_look : int
        Games per (mix, rotation) at the first look of a run to ``precision``.
    scheduler : str, optional
        Play on Dask: the address of a running scheduler (``tcp://host:8786``).
    workers : int, optional
        Play on Dask: the worker processes of a local cluster
        (:func:`fairysim.sweep.cluster.connect`; each task then uses the cores the cluster
        gives it, not ``threads``). Neither this nor ``scheduler``: in this process.
    task_games : int, optional
        Games per Dask task (default :data:`fairysim.sweep.tasks.DEFAULT_TASK_GAMES`); only
        with ``scheduler`` or ``workers``, and never changes a game.
    weights_file : path, optional
        A weights file whose ``[policy]`` tables set the weights of every entry playing that
        policy (before an entry's own ``@FILE``).
    labels : sequence of str, optional
        The entries' labels, one each (default: each entry as given, a Policy by its name).
    **axes
        The game's setup axes (``fan="II"``), as its ``make_setup`` takes them.

    Returns
    -------
    Tournament
        ``rows``: one row per (mix, rotation, game, seat) with ``entry`` (index into
        ``entries``), ``position`` (turn order, 0 plays first), ``win_share`` and ``rank``;
        ``alpha`` the error rate of each interval; ``precision`` what a run to precision
        reached.
    """
    spec = game if isinstance(game, GameSpec) else get_game(game, "GAME")
    names, players = check_tournament(spec, policies, players, seed)
    check_counts(games, precision, max_games)
    if precision is not None:
        max_games = PRECISION_MAX_GAMES if max_games is None else max_games
    elif games is None:
        games = GAMES
    if chunk_games is not None and chunk_games < 1:
        raise ParameterError("chunk_games", f"must be a positive whole number, got {chunk_games}")
    chunk_games = DEFAULT_CHUNK_GAMES if chunk_games is None else chunk_games
    on_dask = scheduler is not None or workers is not None
    if on_dask or task_games is not None:
        from fairysim.sim.batch import check_games
        from fairysim.sweep.cluster import check_cluster_options
        from fairysim.sweep.tasks import DEFAULT_TASK_GAMES

        check_cluster_options(scheduler, workers)
        task_games = check_games(
            DEFAULT_TASK_GAMES if task_games is None else task_games, "task_games"
        )
        if not on_dask:
            raise ParameterError(
                "task_games",
                "sizes Dask tasks: give {scheduler} or {workers}",
                mentions=("scheduler", "workers"),
            )
    entry_set = resolve_entries(
        spec, names, None if weights_file is None else str(weights_file), labels=labels
    )
    # Each entry alone at every seat: a policy the game refuses or a bad user policy fails here,
    # before the first game, naming the tournament's option.
    for policy in dict.fromkeys(entry_set.policies):
        try:
            spec.make_setup(
                players=players, policies=[policy] * players, seed=seed, cards=cards, **axes
            )
        except FairysimError as error:
            if error.where == "policies":
                raise ParameterError.about("policies", error) from None
            raise
    design = tournament_design(len(names), players, seed)
    mixes = design.mixes
    setups, seat_entries = [], []
    for mix in mixes:
        for rotation in range(players):
            seated = rotate(mix, rotation)
            seat_entries.append(seated)
            setups.append(
                spec.make_setup(
                    players=players,
                    policies=[entry_set.policies[e] for e in seated],
                    seed=seed,
                    cards=cards,
                    **axes,
                )
            )
    config = {
        key: value
        for key, value in setups[-1].config().items()
        if key not in ("policies", "weights", "seed")
    }
    with ExitStack() as stack:
        if on_dask:
            pairings: Any = _dask_pairings(
                spec, setups, seat_entries, entry_set, cards, axes, chunk_games, task_games,
                stack, scheduler, workers,
            )  # fmt: skip
        else:
            pairings = _Pairings(spec, setups, chunk_games, threads)
        done = 0

        def play_to(n: int, alpha: float) -> Tournament:
            nonlocal done
            total = done + len(seat_entries) * (n - pairings.games)

            def advance(k: int) -> None:
                nonlocal done
                done += k
                if progress is not None:
                    progress(done, total)

            pairings.extend(n, advance)
            return _tournament(
                spec, entry_set, players, seed, design, pairings, seat_entries, config, alpha
            )

        if precision is None:
            assert games is not None
            return play_to(games, ALPHA)
        assert max_games is not None
        result, reached = study_to_precision(
            play_to,
            lambda t: widest_half_width(head_to_head(t)),
            precision,
            max_games,
            first_look=first_look,
            alpha=ALPHA,
            watched="head-to-head share",
        )
        result.precision = reached
        result.meta["config"]["precision"] = {
            "asked": precision,
            "reached": reached.reached,
            "widest_half_width": reached.half_widths[-1],
            "level": reached.level,
            "games_per_pairing": reached.games,
            "looks": reached.looks,
            "looks_planned": reached.planned,
            "half_widths": reached.half_widths,
            "first_look": first_look,
            "max_games": max_games,
            "stopped_by_cap": not reached.reached,
        }
        return result


def _dask_pairings(
    spec: GameSpec,
    setups: list[Any],
    seat_entries: list[list[int]],
    entry_set: Entries,
    cards: Any,
    axes: dict[str, Any],
    chunk_games: int,
    task_games: Any,
    stack: ExitStack,
    scheduler: str | None,
    workers: int | None,
) -> Any:
    """The pairings of a tournament played on Dask: one task setup per (mix, rotation), the
    cluster entered on ``stack`` (closed when the tournament ends)."""
    from fairysim.sweep.cells import CellSetup, cards_digest, load_card_set
    from fairysim.sweep.cluster import connect
    from fairysim.sweep.pairings import DaskPairings

    card_set = load_card_set(spec, cards)
    digest = cards_digest(card_set)
    tasks = [
        CellSetup(
            spec.name,
            spec.package,
            spec.engine_version,
            setup.seats,
            ",".join(entry_set.policies[e].name for e in seated),
            setup.seed,
            card_set,
            digest,
            tuple(axes.items()),
            entry_set.seat_weights(seated),
        )
        for setup, seated in zip(setups, seat_entries, strict=True)
    ]
    client, threads = connect(stack, scheduler, workers)
    return DaskPairings(tasks, client, threads, chunk_games, task_games)


def _tournament(
    spec: GameSpec,
    entry_set: Entries,
    players: int,
    seed: int,
    design: MixDesign,
    pairings: _Pairings,
    seat_entries: list[list[int]],
    config: dict[str, Any],
    alpha: float,
) -> Tournament:
    """The tournament of the games ``pairings`` holds so far."""
    games = pairings.games
    entries = entry_set.labels
    names = tuple(p.name for p in entry_set.policies)
    frames = []
    for index, seated in enumerate(seat_entries):
        played = pairings.played(index)
        frames.append(
            pd.DataFrame(
                {
                    "mix": np.int32(index // players),
                    "rotation": np.int8(index % players),
                    "game": np.repeat(np.arange(games, dtype=np.int64), players),
                    "seat": np.tile(np.arange(players, dtype=np.int8), games),
                    "entry": np.tile(np.asarray(seated, np.int8), games),
                    "position": played["position"].reshape(-1).astype(np.int8),
                    "win_share": played["win_share"].reshape(-1),
                    "rank": played["rank"].reshape(-1).astype(np.int16),
                }
            )
        )
    rows = pd.concat(frames, ignore_index=True)
    meta = run_metadata(
        spec.name,
        {
            **config,
            "tournament": True,
            "policies": list(names),
            "entries": list(entries),
            "entry_weights": [
                dict(zip(p.weight_names, p.weights, strict=True)) for p in entry_set.policies
            ],
            "players": players,
            "games_per_pairing": games,
            "mixes": [list(m) for m in design.mixes],
            "mix_design": design.meta(),
            "seed": seed,
            "alpha": alpha,
        },
    )
    return Tournament(
        spec.name, entries, names, players, games, seed, design.mixes, rows, meta, alpha
    )


def _clustered_mean(
    values: np.ndarray, groups: np.ndarray, alpha: float = ALPHA
) -> tuple[float, float, float]:
    """Mean of ``values`` and its ``1 - alpha`` interval, clustered by ``groups``
    (statsmodels)."""
    import statsmodels.api as sm
    from statsmodels.stats.proportion import proportion_confint

    mean = float(values.mean())
    clusters = len(np.unique(groups))
    if np.all(values == values[0]) or clusters < 2:
        # No spread to estimate a standard error from (one player always beat the other): the
        # Wilson interval with each game as one trial, never a zero-width interval.
        low, high = proportion_confint(mean * clusters, clusters, alpha=alpha, method="wilson")
        return mean, float(low), float(high)
    fit = sm.OLS(values, np.ones(len(values))).fit(cov_type="cluster", cov_kwds={"groups": groups})
    low, high = fit.conf_int(alpha)[0]
    # Every value is a share in [0, 1], so is its mean: the normal interval is cut to that range
    # (a share of 99.9 % must not read "up to 100.1 %").
    return mean, float(max(low, 0.0)), float(min(high, 1.0))


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
    ranks half) and its interval clustered by game index, at ``level`` (95%, or the level of
    each look of a tournament played to a precision)."""
    pairs = pair_results(t) if pairs is None else pairs
    out = []
    for (row, col), group in pairs.groupby(["row", "col"], sort=True):
        mean, low, high = _clustered_mean(
            group["score"].to_numpy(), group["game"].to_numpy(), t.alpha
        )
        out.append(
            {
                "row": t.entries[row],
                "col": t.entries[col],
                "meetings": len(group),
                "games": group["game"].nunique(),
                "share": mean,
                "low": low,
                "high": high,
                "level": 1 - t.alpha,
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
    """Win share per entry and turn position (0 plays first), intervals clustered by game at
    ``level`` (as :func:`head_to_head`'s)."""
    out = []
    rows = t.rows
    for (entry, position), group in rows.groupby(["entry", "position"], sort=True):
        mean, low, high = _clustered_mean(
            group["win_share"].to_numpy(), group["game"].to_numpy(), t.alpha
        )
        out.append(
            {
                "entry": t.entries[entry],
                "position": int(position),
                "seat_games": len(group),
                "win_share": mean,
                "low": low,
                "high": high,
                "level": 1 - t.alpha,
            }
        )
    return pd.DataFrame(out)


def check_out_dir(path: str | Path | None, option: str = "out_dir") -> Path | None:
    """``path`` as an existing writable folder (None passes), or an error naming ``option``:
    checked before the first game, so that a tournament is never played for a folder it
    cannot write."""
    import os

    if path is None:
        return None
    path = Path(path)
    if not path.exists():
        raise ParameterError(option, f"folder {path} does not exist")
    if not path.is_dir():
        raise ParameterError(option, f"{path} is a file, not a folder")
    if not os.access(path, os.W_OK):
        raise ParameterError(option, f"folder {path} is not writable")
    return path


def save_tournament(t: Tournament, out_dir: Any, tables: dict[str, pd.DataFrame]) -> list[Any]:
    """Write the seat rows and each table as Parquet under ``out_dir``, each with the run's
    metadata (atomically, through :class:`fairysim.sim.batch.AtomicParquetWriter`)."""
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
            raise ParameterError("out_dir", f"cannot write {path} ({reason})") from None
        written.append(path)
    return written


__all__ = [
    "ALPHA",
    "FIRST_LOOK",
    "GAMES",
    "MAX_MIXES",
    "PRECISION_MAX_GAMES",
    "MixDesign",
    "Tournament",
    "balanced_mixes",
    "check_out_dir",
    "check_tournament",
    "head_to_head",
    "mix_balance",
    "pair_results",
    "play_tournament",
    "ratings",
    "save_tournament",
    "tournament_design",
    "tournament_mixes",
    "turn_order",
    "widest_half_width",
]
