"""The best response of one policy's weights to a field of policies, validated on fresh deals.

:func:`best_response` searches P's weights (:mod:`.search`, CMA-ES on common random numbers)
to maximise P's win share against the field with every seat rotated (:mod:`.arena`), then plays
the best weights and P's starting weights on deals the search never played (game indices past
the search's, of the same seed) and compares them deal by deal:

- each one's win share against the fair share ``1/N``, and the gain of the best weights over the
  starting ones, as one family of three comparisons, Holm-corrected
  (:func:`fairysim.stats.corrections.with_correction`), intervals normal and clustered by deal
  (a deal's N rotations are one observation);
- every other seat column of the game (points, medals, cards held ...) best minus start, a second
  Holm family: what the response does differently, in the game's own terms.

The best candidate's win share on the search deals is biased upwards (it was picked for being
high on those deals); the fresh deals are not. The gain is a lower bound of how far P's family of
strategies exploits this field: the search sees only P's weights, for a finite budget.
"""

from __future__ import annotations

import io
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fairysim.analysis.strategy.arena import Arena, make_arena
from fairysim.analysis.strategy.journal import JOURNAL_NAME, open_journal
from fairysim.analysis.strategy.rounds import (
    POOL_GAMES,
    RATINGS_NAME,
    ROUNDS_FOLDER,
    PoolRating,
    check_resume,
    check_rounds,
    play_rounds,
    pool_size,
    rate_pool,
)
from fairysim.analysis.strategy.search import SearchRun, run_search
from fairysim.analysis.strategy.space import WeightSpace, parse_ranges, weight_space
from fairysim.analysis.wording import wording_of
from fairysim.runtime.errors import FairysimError
from fairysim.runtime.files import folder_option, probe_folder, write_files
from fairysim.sim.batch import check_games
from fairysim.sim.game import GameSpec
from fairysim.sim.policy import Policy, policies_resolved_once
from fairysim.stats.corrections import with_correction
from fairysim.stats.precision import check_interval_games

EVALUATIONS = 200
"""Candidates a search evaluates unless told."""

GAMES = 2_000
"""Deals each candidate plays (each once per seat rotation) unless told."""

VALIDATION_GAMES = 10_000
"""Fresh deals the best and the starting weights play to be compared, unless told."""

ALPHA = 0.05
"""Error rate of each corrected family."""

OUTPUTS = ("weights.toml", "search.parquet", "validation.parquet", "best_response.html")
"""What :func:`best_response` writes under ``out_dir`` (besides the journal)."""


@dataclass
class BestResponse:
    """A finished search and its validation.

    Attributes
    ----------
    weights : dict
        The best weights found (the searched ones; the others stay at the start's).
    start : dict
        P's starting weights (its defaults unless given otherwise), the searched ones.
    policy : Policy
        P with the best weights.
    candidates : pandas.DataFrame
        Every candidate of the search (``search.parquet``).
    shares : pandas.DataFrame
        ``arm`` (best, start, gain), ``estimate``, ``se``, ``games`` (fresh deals), with the
        corrected columns (``low``, ``high``, ``significant``, ``p_adjusted`` ..): the win
        shares against ``1/N`` and the gain against 0, one Holm family.
    behaviour : pandas.DataFrame
        ``column``, ``best``, ``start``, ``estimate`` (best - start), ``se`` and the corrected
        columns: the game's other seat columns, one Holm family.
    """

    game: str
    title: str
    policy_name: str
    field: tuple[str, ...]
    players: int
    seed: int
    evaluations: int
    games: int
    validation_games: int
    weights: dict[str, float]
    start: dict[str, float]
    ranges: dict[str, tuple[float, float]]
    policy: Policy
    candidates: pd.DataFrame
    shares: pd.DataFrame
    behaviour: pd.DataFrame
    start_search_share: float
    stopped: str = ""
    seconds: float = 0.0
    pool: PoolRating | None = None
    """After ``rounds`` > 1: every round's response and the pool's ratings."""
    config: dict[str, Any] = field(default_factory=dict)
    files: list[Path] = field(default_factory=list)

    @property
    def gain(self) -> pd.Series:
        """The gain row of :attr:`shares`."""
        return self.shares.set_index("arm").loc["gain"]


@policies_resolved_once()
def best_response(
    game: str | GameSpec,
    policy: str | Policy,
    field: str | Policy | Sequence[str | Policy],
    players: int,
    *,
    cards: Any = None,
    seed: int = 0,
    evaluations: int = EVALUATIONS,
    games: int = GAMES,
    validation_games: int = VALIDATION_GAMES,
    ranges: str | Mapping[str, tuple[float, float]] | None = None,
    out_dir: str | Path | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    resume: bool = False,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    rounds: int = 1,
    pool_games: int = POOL_GAMES,
    **axes: Any,
) -> BestResponse:
    """Search ``policy``'s weights for the best response to ``field`` at ``players`` seats.

    Parameters
    ----------
    game : str or GameSpec
        A registered game.
    policy : str or Policy
        P: a built-in with weights (its declared ranges bound the search), or a Policy (a user
        policy's weights need ``ranges``). A Policy's weights are the search's start.
    field : str, Policy or sequence
        The opponents: comma-separated names or Policy objects, filling the other seats in
        order, cycling (:mod:`fairysim.analysis.strategy.arena`).
    cards, axes
        The game's card file and setup axes, as ``simulate`` takes them.
    seed : int
        Deals and the optimiser's random numbers; the same seed gives the same weights.
    evaluations, games : int
        Candidates evaluated, and deals each plays (games ``0 .. games-1`` of the seed, each once
        per seat rotation: ``games x players`` games a candidate).
    validation_games : int
        Fresh deals (game indices ``games ..`` of the seed) for the best and start weights.
    ranges : str or mapping, optional
        Narrower search ranges, ``{"finale": (0, 10)}`` or ``"finale=0:10"``.
    out_dir : path, optional
        Where ``weights.toml``, ``search.parquet``, ``validation.parquet`` and
        ``best_response.html`` are written (all or none, at the end) and the journal
        ``search.sqlite`` is kept as the search goes. Without it, nothing is written and
        ``resume`` is refused.
    workers, scheduler : optional
        Play each generation's candidates on Dask (a local cluster of ``workers`` processes,
        or a running scheduler); the result is the same as in one process.
    resume : bool
        Continue the search whose journal is in ``out_dir`` (it must be the same search):
        gives what an uninterrupted search gives.
    rounds : int
        Past 1: search again ``rounds - 1`` times, each against the field enlarged by the
        responses before it, then rate the pool (P's start, the field, every response) by a
        tournament of ``pool_games`` games per (mix, rotation) (:mod:`.rounds`). Each round's
        outputs and journal are kept in ``out_dir/rounds/round_k``; ``out_dir`` holds round
        1's (the response to the field given), the pool's ``pool_ratings.csv`` and the page of
        them all.

    Returns
    -------
    BestResponse

    Raises
    ------
    FairysimError
        One line naming the parameter at fault (as its command-line flag), before any game is
        played and anything written.
    """
    started = time.perf_counter()
    arena = make_arena(
        game, policy, field, players, seed=seed, cards=cards, threads=threads, **axes
    )
    if isinstance(ranges, str):
        ranges = parse_ranges(ranges)
    space = weight_space(arena.policy, ranges)
    evaluations = check_games(evaluations, "--evaluations")
    games = check_interval_games(games, "--games")
    validation_games = check_interval_games(validation_games, "--validation-games")
    if workers is not None or scheduler is not None:
        from fairysim.sweep.cluster import check_cluster_options

        check_cluster_options(scheduler, workers)
    rounds, pool_games = check_rounds(rounds, pool_games)
    if rounds > 1:
        from fairysim.analysis.tournament.design import tournament_design

        size = pool_size(arena.policy, arena.field, rounds)
        try:
            tournament_design(size, arena.players, seed)
        except FairysimError as error:
            raise FairysimError("--rounds", f"a pool of {size}: {error.message}") from None
        if resume and out_dir is None:
            raise FairysimError("--resume", "resumes the rounds kept in --out-dir: give one")
        check_resume(None if out_dir is None else folder_option(out_dir), resume)
        folder = _out_folder(out_dir, False)

        def respond(field: list[Policy], **where: Any) -> BestResponse:
            return best_response(
                arena.spec, arena.policy, field, arena.players, cards=arena.cards, seed=seed,
                evaluations=evaluations, games=games, validation_games=validation_games,
                ranges=ranges, workers=workers, scheduler=scheduler, threads=threads, **where,
                **axes,
            )  # fmt: skip

        responses = play_rounds(
            respond, arena.policy, arena.field, rounds, folder, resume, progress, evaluations
        )
        result = responses[0]
        result.pool = rate_pool(
            arena.spec, arena.policy, arena.field, responses, players=arena.players, seed=seed,
            pool_games=pool_games, cards=arena.cards, threads=threads, workers=workers,
            scheduler=scheduler, axes=dict(arena.axes),
        )  # fmt: skip
        result.seconds = time.perf_counter() - started
        if folder is not None:
            result.files = write_outputs(result, folder)
        return result
    folder = _out_folder(out_dir, resume)
    config = search_config(arena, space, evaluations, games)
    with _journal(folder, config, resume) as journal:
        run = run_search(
            arena,
            space,
            journal,
            evaluations=evaluations,
            deals=games,
            workers=workers,
            scheduler=scheduler,
            progress=progress,
        )
    result = validate(arena, space, run, evaluations, games, validation_games, config)
    result.seconds = time.perf_counter() - started
    if folder is not None:
        result.files = write_outputs(result, folder)
    return result


def search_config(arena: Arena, space: WeightSpace, evaluations: int, games: int) -> dict[str, Any]:
    """What decides a search's candidates and their values (a resumed search must match it)."""
    from fairysim.sweep.cells import cards_digest

    return {
        "game": arena.spec.name,
        "engine_version": arena.spec.engine_version,
        "policy": arena.policy.name,
        "start": list(arena.policy.weights),
        "field": [p.name for p in arena.field],
        "field_weights": [list(p.weights) for p in arena.field],
        "players": arena.players,
        "seed": arena.seed,
        "cards": cards_digest(arena.cards),
        "axes": {key: str(value) for key, value in arena.axes},
        "ranges": space.ranges_text(),
        "evaluations": evaluations,
        "games": games,
    }


def validate(
    arena: Arena,
    space: WeightSpace,
    run: SearchRun,
    evaluations: int,
    games: int,
    validation_games: int,
    config: dict[str, Any],
) -> BestResponse:
    """Play the best and the start weights on the fresh deals and compare them."""
    candidates = run.candidates
    best_row = candidates.loc[candidates["win_share"].idxmax()]
    best = {name: float(best_row[name]) for name in space.names}
    start = dict(zip(space.names, space.x0, strict=True))
    start_search = arena.play(start, 0, games)["win_share"].mean()
    if start_search >= best_row["win_share"]:
        best = dict(start)  # no candidate beat the start on the search deals
    played = {
        "best": arena.play(best, games, validation_games),
        "start": arena.play(start, games, validation_games),
    }
    fair = 1.0 / arena.players
    share_rows = []
    for arm in ("best", "start"):
        values = played[arm]["win_share"]
        share_rows.append(_row(arm, values, fair))
    share_rows.append(_row("gain", played["best"]["win_share"] - played["start"]["win_share"], 0))
    shares = with_correction(pd.DataFrame(share_rows), "estimate", null="null_value", alpha=ALPHA)
    behaviour_rows = []
    legends = _legends(arena.spec)
    for column in arena.spec.seat_columns:
        if column == "win_share":
            continue
        diff = played["best"][column] - played["start"][column]
        row = _row("best - start", diff, 0.0)
        row.update(
            column=column,
            meaning=legends.get(column, ""),
            best=float(played["best"][column].mean()),
            start=float(played["start"][column].mean()),
        )
        behaviour_rows.append(row)
    behaviour = with_correction(
        pd.DataFrame(behaviour_rows), "estimate", null="null_value", alpha=ALPHA
    )
    policy = arena.policy.with_weights(**best)
    return BestResponse(
        game=arena.spec.name,
        title=arena.spec.title,
        policy_name=arena.policy.name,
        field=tuple(p.name for p in arena.field),
        players=arena.players,
        seed=arena.seed,
        evaluations=evaluations,
        games=games,
        validation_games=validation_games,
        weights=best,
        start=start,
        ranges={n: (lo, hi) for n, lo, hi in zip(space.names, space.low, space.high, strict=True)},
        policy=policy,
        candidates=candidates,
        shares=shares,
        behaviour=behaviour,
        start_search_share=float(start_search),
        stopped=run.stopped,
        config=config,
    )


def _legends(spec: GameSpec) -> dict[str, str]:
    """What each one-column cell of the game's ``simulate`` table means, as its legend says it
    (``finale cards: the seat's Grande Finale count ...``), by column."""
    return {
        cell.columns[0]: cell.legend
        for cell in wording_of(spec).summary
        if len(cell.columns) == 1 and cell.legend
    }


def _row(arm: str, values: np.ndarray, null: float) -> dict[str, Any]:
    """One comparison: the mean of per-deal ``values``, its standard error (deals are
    independent; a deal's rotations are one observation) and its null."""
    n = len(values)
    se = float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return {"arm": arm, "estimate": float(values.mean()), "se": se, "null_value": null, "games": n}


def _out_folder(out_dir: str | Path | None, resume: bool) -> Path | None:
    """``out_dir`` checked (made if missing, only once every other check has passed)."""
    if out_dir is None:
        if resume:
            raise FairysimError("--resume", "resumes the search kept in --out-dir: give one")
        return None
    folder = folder_option(out_dir)
    if folder.exists() and not folder.is_dir():
        raise FairysimError("--out-dir", f"{folder} is a file, not a folder")
    if resume and not (folder / JOURNAL_NAME).exists():
        raise FairysimError("--resume", f"no search to resume: {folder / JOURNAL_NAME} is missing")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise FairysimError("--out-dir", f"cannot make {folder} ({error.strerror})") from None
    probe_folder(folder, "--out-dir")
    return folder


def _journal(folder: Path | None, config: dict[str, Any], resume: bool) -> Any:
    """The journal under ``folder``, or one in memory when nothing is written."""
    if folder is not None:
        return open_journal(folder, config, resume)
    import tempfile
    from contextlib import contextmanager

    @contextmanager
    def in_memory() -> Any:
        with (
            tempfile.TemporaryDirectory(prefix="fairysim-search.") as tmp,
            open_journal(Path(tmp), config, False) as journal,
        ):
            yield journal

    return in_memory()


def write_outputs(result: BestResponse, folder: Path) -> list[Path]:
    """Write :data:`OUTPUTS` under ``folder``, all or none, the page last."""
    from fairysim.analysis.strategy.page import best_response_page
    from fairysim.sim.weights import weights_file_text

    header = [
        f"fairysim best response: {result.policy_name} against {','.join(result.field)}, "
        f"{result.players} players, {result.title}",
        f"seed {result.seed}, {result.evaluations} evaluations of {result.games:,} deals; "
        f"validated on {result.validation_games:,} fresh deals",
        f"load with --weights-file {folder / 'weights.toml'}",
    ]
    files = [
        (folder / "weights.toml", weights_file_text(result.policy, header).encode()),
        (folder / "search.parquet", _parquet(result.candidates, result.config)),
        (
            folder / "validation.parquet",
            _parquet(
                pd.concat(
                    [
                        result.shares.assign(table="shares"),
                        result.behaviour.assign(table="behaviour"),
                    ],
                    ignore_index=True,
                ),
                result.config,
            ),
        ),
        (folder / "best_response.html", best_response_page(result).encode()),
    ]
    if result.pool is not None:
        files.insert(-1, (folder / RATINGS_NAME, result.pool.csv()))
    return write_files(files, "--out-dir")


def _parquet(frame: pd.DataFrame, config: Mapping[str, Any]) -> bytes:
    """``frame`` as Parquet bytes, the search's configuration in its metadata."""
    import json

    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    meta = {**(table.schema.metadata or {}), b"fairysim": json.dumps(dict(config)).encode()}
    buffer = io.BytesIO()
    pq.write_table(table.replace_schema_metadata(meta), buffer)
    return buffer.getvalue()


__all__ = [
    "ALPHA",
    "EVALUATIONS",
    "GAMES",
    "OUTPUTS",
    "POOL_GAMES",
    "ROUNDS_FOLDER",
    "VALIDATION_GAMES",
    "BestResponse",
    "best_response",
    "search_config",
    "validate",
    "write_outputs",
]
