"""The search: every single change first, then NSGA-II on (distance to targets, changes).

Optuna runs the search through its ask-and-tell interface and keeps every trial in its storage
(SQLite under the output folder by default, any Optuna RDB URL with ``--storage``), so a stopped
search resumes where it stopped and a study can be inspected with Optuna's own tools.

A candidate is one choice per ``[vary]`` entry: 0 keeps the card file's number, ``i`` takes the
entry's ``i``-th allowed value. The first trials are the base file and every one-step deviation
(one number changed, the others kept: TabletopGames' one-step deviations), raced together
(:mod:`fairysim.analysis.tune.race`: each plays until its intervals decide every target, the
hopeless ones stop early) and told in a fixed order; they make NSGA-II's first generation.
NSGA-II then breeds candidates minimising the distance to the targets
(:func:`fairysim.analysis.tune.evaluate.distance`) and the number of changed numbers, each batch
raced against the nearest candidate so far.

Reproducibility: every trial is asked of an NSGA-II sampler made for it with Optuna's ``seed=``,
derived from the run's seed and the trial's place, and NSGA-II keeps its generations in the
study's storage; so the same command and seed give the same trials, and a resumed search (its
unfinished trials marked failed) gives the trials an uninterrupted one gives. A candidate
proposed again is not played again: its earlier result is told, at no cost in games.
``--budget-seconds`` stops on the clock, so only a ``--budget-games`` budget is reproducible.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fairysim.analysis.tune.race import Evaluation, Looks, PlayBlocks, race, smallest_pessimistic
from fairysim.analysis.tune.targets import TuneTargets

REFUSED = 1e9
"""The distance told for a candidate the card checks refuse (Optuna takes finite values)."""

STUDY_NAME = "tune"

MAX_REPEATS = 200
"""Stop after this many proposals in a row that were all played before (the search has
nothing new to try within its space)."""

MAX_POPULATION = 50

BATCH = 8
"""Trials asked before any is told: the candidates a batch of NSGA-II races at once."""


@dataclass(frozen=True)
class Budget:
    """When the search stops: after ``games`` games played, or ``seconds`` of search."""

    games: int | None = None
    seconds: float | None = None


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


def _ask(
    study: Any, targets: TuneTargets, population: int, seed: int, count: int
) -> tuple[Any, tuple[int, ...]]:
    """Ask trial ``count`` of the search with a sampler seeded from ``(seed, count)``.

    The sampler is made afresh for every trial with Optuna's own ``seed=`` (the supported way
    to make a sampler reproducible): its random streams then depend on the seed and the trial's
    place alone, and NSGA-II reads its generations back from the study's storage, so a resumed
    search asks what an uninterrupted one asks."""
    import optuna

    study.sampler = optuna.samplers.NSGAIISampler(
        population_size=population, seed=_trial_seed(seed, count)
    )
    trial = study.ask(distributions(targets))
    return trial, tuple(int(trial.params[param(k)]) for k in range(len(targets.vary)))


def _tell(study: Any, trial: Any, choice: tuple[int, ...], phase: str, result: Evaluation) -> None:
    trial.set_user_attr(
        "kept",
        {
            "choice": list(choice),
            "phase": phase,
            "rows": result.rows,
            "games": result.games,
            "refused": result.refused,
            "optimistic": min(result.optimistic, REFUSED),
            "pessimistic": min(result.pessimistic, REFUSED),
            "stop": result.stop,
        },
    )
    study.tell(trial, [min(result.distance, REFUSED), result.changes])


def completed(study: Any) -> list[Any]:
    """The study's complete trials, in order."""
    import optuna

    return study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))


def search(
    study: Any,
    targets: TuneTargets,
    play: PlayBlocks,
    *,
    seed: int,
    budget: Budget,
    looks: Looks,
    runs: int,
    after_trial: Callable[[int], None] | None = None,
) -> None:
    """Run the search until the budget is spent.

    First every single change (and the base file) in one race (:func:`~.race.race`); on a
    resumed search whose singles were not all told, the race is run again from its start (the
    same race, so the same results) and the untold ones are told. Then NSGA-II: trials are
    asked :data:`BATCH` at a time, whatever the number of workers, the batch's new candidates
    raced against the nearest so far, so one process and several give the same trials.
    ``play`` plays blocks of games (:data:`~.race.PlayBlocks`); ``runs`` is the runs a
    candidate plays a table; ``after_trial(n)`` is called after each trial is told."""
    import optuna

    for trial in study.get_trials(deepcopy=False):  # a stopped run's unfinished trials
        if not trial.state.is_finished():
            study.tell(trial.number, state=optuna.trial.TrialState.FAIL)
    done = completed(study)
    seen = {tuple(t.user_attrs["kept"]["choice"]): _kept(t) for t in done}
    played = sum(int(t.user_attrs["kept"]["games"]) for t in done)
    first = first_candidates(targets)
    population = min(MAX_POPULATION, max(10, len(first)))
    first_cost = looks.first * runs
    total = 1
    for vary in targets.vary:
        total *= len(vary.choices)
    count = len(done)

    def told(choice: tuple[int, ...], phase: str, result: Evaluation, trial: Any) -> None:
        nonlocal count, played
        _tell(study, trial, choice, phase, result)
        seen.setdefault(choice, result)
        played += result.games
        count += 1
        if after_trial is not None:
            after_trial(count)

    affordable = first if budget.games is None else first[: budget.games // first_cost]
    if any(c not in seen for c in affordable):
        raced = race(affordable, play, targets, looks, runs=runs, games_left=budget.games)
        for choice in affordable:
            if choice not in seen:
                study.enqueue_trial({param(k): i for k, i in enumerate(choice)})
                trial, _ = _ask(study, targets, population, seed, count)
                told(choice, "single", raced[choice], trial)
    if any(c not in seen for c in first):
        return  # the budget ended among the single changes
    repeats, start = 0, time.monotonic()
    while True:
        room = BATCH if budget.games is None else min(BATCH, (budget.games - played) // first_cost)
        if room <= 0 or len(seen) >= total or repeats >= MAX_REPEATS:
            break
        if budget.seconds is not None and time.monotonic() - start > budget.seconds:
            break
        asked = [_ask(study, targets, population, seed, count + k) for k in range(room)]
        new = [c for c in dict.fromkeys(choice for _, choice in asked) if c not in seen]
        best = smallest_pessimistic(list(seen.values()))
        left = None if budget.games is None else budget.games - played
        now = race(new, play, targets, looks, runs=runs, best=best, games_left=left)
        repeats = repeats + len(asked) if not new else 0
        for trial, choice in asked:
            if choice in now:
                result = now.pop(choice)
            else:  # played before, or earlier in this batch: told again at no cost
                earlier = seen[choice]
                result = replace(earlier, games=0)
            told(choice, "nsga2", result, trial)


def _kept(trial: Any) -> Evaluation:
    """A complete trial as the search keeps it."""
    attrs = trial.user_attrs["kept"]
    return Evaluation(
        trial.values[0],
        int(trial.values[1]),
        attrs["rows"],
        0,
        attrs.get("refused", ""),
        attrs.get("optimistic", 0.0),
        attrs.get("pessimistic", math.inf),
        attrs.get("stop", ""),
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
                "stop": kept.get("stop", ""),
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
    "Looks",
    "choice_label",
    "finalists",
    "first_candidates",
    "open_study",
    "search",
    "trials_table",
]
