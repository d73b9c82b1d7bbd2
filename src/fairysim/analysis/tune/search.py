"""The search: every single change first, then NSGA-II on (distance to targets, changes).

Optuna runs the search through its ask-and-tell interface and keeps every trial in its storage
(SQLite under the output folder by default, any Optuna RDB URL with ``--storage``), so a stopped
search resumes where it stopped and a study can be inspected with Optuna's own tools.

A candidate is one choice per ``[vary]`` entry: 0 keeps the card file's number, ``i`` takes the
entry's ``i``-th allowed value. The first trials are the base file and every one-step deviation
(one number changed, the others kept: TabletopGames' one-step deviations), enqueued in a fixed
order; they make NSGA-II's first generation. NSGA-II then breeds candidates minimising the
distance to the targets (:func:`fairysim.analysis.tune.evaluate.distance`) and the number of
changed numbers.

Reproducibility: before each trial the sampler's random streams are seeded from the run's seed
and the number of trials asked, and NSGA-II keeps its generations in the study's storage; so the
same command and seed give the same trials, and a resumed search (its unfinished trial marked
failed) gives the trials an uninterrupted one gives. A candidate proposed again is not played
again: its earlier result is told, at no cost in games. ``--budget-seconds`` stops on the clock,
so only a ``--budget-games`` budget is reproducible.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fairysim.analysis.tune.targets import TuneTargets

REFUSED = 1e9
"""The distance told for a candidate the card checks refuse (Optuna takes finite values)."""

STUDY_NAME = "tune"

MAX_REPEATS = 200
"""Stop after this many proposals in a row that were all played before (the search has
nothing new to try within its space)."""

MAX_POPULATION = 50

BATCH = 8
"""Trials asked before any is told: the candidates a batch of workers plays at once."""


@dataclass(frozen=True)
class Budget:
    """When the search stops: after ``games`` games played, or ``seconds`` of search."""

    games: int | None = None
    seconds: float | None = None


@dataclass(frozen=True)
class Evaluation:
    """What the search keeps of a candidate: its objectives and the rows it read."""

    distance: float
    changes: int
    rows: list[dict[str, Any]]
    games: int
    refused: str = ""


def param(k: int) -> str:
    """The Optuna parameter name of ``[vary]`` entry ``k``."""
    return f"v{k}"


def distributions(targets: TuneTargets) -> dict[str, Any]:
    """One categorical distribution per ``[vary]`` entry (its choices' indices)."""
    import optuna

    return {
        param(k): optuna.distributions.CategoricalDistribution(list(range(len(v.choices))))
        for k, v in enumerate(targets.vary)
    }


def first_candidates(targets: TuneTargets) -> list[tuple[int, ...]]:
    """The base file, then every one-step deviation, entry by entry."""
    size = len(targets.vary)
    out = [(0,) * size]
    for k, vary in enumerate(targets.vary):
        for index in range(1, len(vary.choices)):
            choice = [0] * size
            choice[k] = index
            out.append(tuple(choice))
    return out


def _set_pragmas(connection: Any, _: Any) -> None:
    """SQLite in write-ahead-log mode with ``synchronous=NORMAL``: a commit no longer waits
    for the disk (a trial commits a dozen times), and a stopped process loses nothing."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def storage_of(url: str) -> Any:
    """Optuna's RDB storage at ``url`` (SQLite tuned by :func:`_set_pragmas`)."""
    import optuna
    from sqlalchemy import event

    storage = optuna.storages.RDBStorage(url)
    if url.startswith("sqlite"):
        event.listen(storage.engine, "connect", _set_pragmas)
        storage.engine.dispose()  # connections made from now on get the pragmas
    return storage


def open_study(url: str, resume: bool, config: dict[str, Any]) -> Any:
    """The study in the storage at ``url``: new (refusing one already there unless
    ``resume``) or reloaded (refusing one made by another command: ``config`` must match)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    from fairysim.runtime.errors import FairysimError

    storage = storage_of(url)

    names = [s.study_name for s in optuna.get_all_study_summaries(storage)]
    if STUDY_NAME in names:
        if not resume:
            raise FairysimError(
                "--out-dir", "holds a tune study already: give --resume, or another folder"
            )
        study = optuna.load_study(study_name=STUDY_NAME, storage=storage)
        saved = study.user_attrs.get("config")
        if saved != config:
            raise FairysimError(
                "--resume", "the study there was made by another command (game, targets, seed)"
            )
        return study
    if resume:
        raise FairysimError("--resume", "there is no tune study to resume there")
    study = optuna.create_study(
        study_name=STUDY_NAME, storage=storage, directions=["minimize", "minimize"]
    )
    study.set_user_attr("config", config)
    return study


def _trial_seed(seed: int, count: int) -> int:
    return (seed * 1_000_003 + count) % 2**32


def _reseed(sampler: Any, seed: int) -> None:
    """Seed ``sampler``'s two random streams (its own and its random sampler's, the streams
    ``NSGAIISampler.reseed_rng`` reseeds at random) with ``seed``. One sampler is kept for the
    whole search, so that its caches of the generations and the search space grow with the
    trials instead of being rebuilt from the storage at every ask."""
    sampler._rng.rng.seed(seed)
    sampler._random_sampler._rng.rng.seed(_trial_seed(seed, 1))


def completed(study: Any) -> list[Any]:
    """The study's complete trials, in order."""
    import optuna

    return study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))


def search(
    study: Any,
    targets: TuneTargets,
    evaluate: Callable[[list[tuple[int, ...]]], list[Evaluation]],
    *,
    seed: int,
    budget: Budget,
    cost: int,
    after_trial: Callable[[int], None] | None = None,
) -> None:
    """Run the search until the budget is spent (``cost`` games a new candidate).

    Trials are asked :data:`BATCH` at a time, whatever the number of workers, and
    ``evaluate(choices)`` plays the batch's new candidates (in parallel where it can), so one
    process and several give the same trials. ``after_trial(n)`` is called after each trial is
    told (the command's progress)."""
    import optuna

    for trial in study.get_trials(deepcopy=False):  # a stopped run's unfinished trials
        if not trial.state.is_finished():
            study.tell(trial.number, state=optuna.trial.TrialState.FAIL)
    done = completed(study)
    seen = {tuple(t.user_attrs["kept"]["choice"]): _kept(t) for t in done}
    played = sum(int(t.user_attrs["kept"]["games"]) for t in done)
    pending = [c for c in first_candidates(targets) if c not in seen]
    population = min(MAX_POPULATION, max(10, len(first_candidates(targets))))
    space = distributions(targets)
    total = 1
    for vary in targets.vary:
        total *= len(vary.choices)
    count, repeats, start = len(done), 0, time.monotonic()
    study.sampler = optuna.samplers.NSGAIISampler(population_size=population, seed=seed)
    while True:
        room = BATCH if budget.games is None else min(BATCH, (budget.games - played) // cost)
        if room <= 0 or len(seen) >= total or repeats >= MAX_REPEATS:
            break
        if budget.seconds is not None and time.monotonic() - start > budget.seconds:
            break
        asked = []
        for _ in range(room):
            _reseed(study.sampler, _trial_seed(seed, count + len(asked)))
            phase = "single" if pending else "nsga2"
            if pending:
                study.enqueue_trial({param(k): i for k, i in enumerate(pending.pop(0))})
            trial = study.ask(space)
            choice = tuple(int(trial.params[param(k)]) for k in range(len(targets.vary)))
            asked.append((trial, choice, phase))
        new = [c for c in dict.fromkeys(choice for _, choice, _ in asked) if c not in seen]
        played_now = dict(zip(new, evaluate(new), strict=True))
        repeats = repeats + len(asked) if not new else 0
        for trial, choice, phase in asked:
            if choice in played_now:
                result = played_now.pop(choice)
            else:  # played before, or earlier in this batch: told again at no cost
                earlier = seen[choice]
                result = Evaluation(
                    earlier.distance, earlier.changes, earlier.rows, 0, earlier.refused
                )
            trial.set_user_attr(
                "kept",
                {
                    "choice": list(choice),
                    "phase": phase,
                    "rows": result.rows,
                    "games": result.games,
                    "refused": result.refused,
                },
            )
            study.tell(trial, [min(result.distance, REFUSED), result.changes])
            seen.setdefault(choice, result)
            played += result.games
            count += 1
            if after_trial is not None:
                after_trial(count)


def _kept(trial: Any) -> Evaluation:
    """A complete trial as the search keeps it."""
    attrs = trial.user_attrs["kept"]
    return Evaluation(
        trial.values[0], int(trial.values[1]), attrs["rows"], 0, attrs.get("refused", "")
    )


def finalists(
    study: Any, per_count: int = 2, most: int = 8
) -> list[tuple[tuple[int, ...], float, int]]:
    """The candidates replayed on fresh games: for every number of changes, the ``per_count``
    nearest the targets, then the ``most`` nearest of those (fewest changes first among equals);
    the base file is never one (it is replayed as the baseline)."""
    best: dict[tuple[int, ...], tuple[float, int]] = {}
    for trial in completed(study):
        choice = tuple(trial.user_attrs["kept"]["choice"])
        if any(choice) and trial.values[0] < REFUSED:
            best[choice] = (trial.values[0], int(trial.values[1]))
    by_count: dict[int, list[tuple[float, tuple[int, ...]]]] = {}
    for choice, (dist, count) in best.items():
        by_count.setdefault(count, []).append((dist, choice))
    picked = []
    for count, items in by_count.items():
        for dist, choice in sorted(items)[:per_count]:
            picked.append((choice, dist, count))
    picked.sort(key=lambda item: (item[1], item[2], item[0]))
    return picked[:most]


def trials_table(study: Any, targets: TuneTargets) -> list[dict[str, Any]]:
    """Every complete trial: its number, phase, choice, objectives and what it played."""
    out = []
    for trial in completed(study):
        kept = trial.user_attrs["kept"]
        out.append(
            {
                "trial": trial.number,
                "phase": kept["phase"],
                "choice": tuple(kept["choice"]),
                "distance": trial.values[0],
                "changes": int(trial.values[1]),
                "games": int(kept["games"]),
                "refused": kept["refused"],
                "rows": kept["rows"],
            }
        )
    return out


def choice_label(targets: TuneTargets, choice: Sequence[int]) -> str:
    """A candidate in words: ``path=value; ...`` (``base`` for no change)."""
    parts = [f"{v.key}={v.choices[i]}" for v, i in zip(targets.vary, choice, strict=True) if i]
    return "; ".join(parts) or "base"


__all__ = [
    "REFUSED",
    "Budget",
    "Evaluation",
    "choice_label",
    "finalists",
    "first_candidates",
    "open_study",
    "search",
    "trials_table",
]
