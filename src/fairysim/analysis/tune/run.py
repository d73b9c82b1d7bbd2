"""``tune``: search, honest final evaluation, and the files a designer reads.

The order of work: every input is checked (the targets file, its card values, the output
folder) before a game is played; the search runs (:mod:`.search`); the finalists and the base
file are replayed on games the search never played, their intervals corrected as one family
(:mod:`.evaluate`); the recommendation is the candidate with the fewest changes whose corrected
intervals meet every target in every cell (players x policy), the nearest on the fresh games
among equals. Where none does, the page and the command say so and the closest is shown, and
``tuned_cards.toml`` (then the closest) opens with a comment saying it meets no target set.

Every output is written at once, atomically (:func:`fairysim.runtime.files.write_files`):
``tuned_cards.toml``, ``changes.csv``, ``candidates.parquet``, ``front.csv`` and ``tune.html``.
"""

from __future__ import annotations

import hashlib
import io
import math
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from fairysim.analysis.tune.evaluate import (
    Judged,
    changes,
    corrected,
    play_candidate,
    runs_per_candidate,
)
from fairysim.analysis.tune.search import (
    Budget,
    Looks,
    choice_label,
    finalists,
    open_study,
    search,
    trials_table,
)
from fairysim.analysis.tune.targets import TuneTargets, load_targets
from fairysim.analysis.tune.workers import batch_player
from fairysim.runtime.errors import FairysimError
from fairysim.runtime.files import folder_option, write_files
from fairysim.sim.game import GameSpec, get_game
from fairysim.stats.precision import check_interval_games

SEARCH_GAMES = 2_000
"""Games per cell of a search candidate's first look (the same games for every candidate)."""

MAX_SEARCH_LOOKS = 8
"""Without ``max_search_games``, a search candidate's cap is this many times its first look."""

FINAL_GAMES = 20_000
"""Games per cell each finalist and the base file play on fresh games."""

SEARCH_THREADS = 1
"""numba threads a search candidate plays on unless ``threads`` is given: a candidate's few
thousand games are over before a second thread pays for waking it (measured on 2 busy cores:
20 runs of 2,000 Fantastique games, 0.13 s on one thread, 1.6 s on two), and ``--workers``
plays several candidates at once instead."""

BUDGET_GAMES = 1_000_000
"""Games the search plays without ``--budget-games`` or ``--budget-seconds``."""


@dataclass
class TuneResult:
    """What a tune found.

    ``recommended`` is the candidate (one index per ``vary`` entry) of the fewest changes that
    met every target on fresh games, None where none did; ``closest`` is then the finalist
    nearest the targets on fresh games. ``final`` holds the corrected readings of the base
    (``candidate == "base"``) and every finalist; ``candidates`` every reading of the run."""

    targets: TuneTargets
    recommended: tuple[int, ...] | None
    closest: tuple[int, ...]
    final: pd.DataFrame
    candidates: pd.DataFrame
    front: pd.DataFrame
    changes: pd.DataFrame
    compare_command: str
    files: list[Path] = field(default_factory=list)

    @property
    def met(self) -> bool:
        """Whether a candidate met every target."""
        return self.recommended is not None

    def label(self, choice: tuple[int, ...]) -> str:
        """A candidate in words (``path=value; ...``, ``base`` for no change)."""
        return choice_label(self.targets, choice)


def _digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _check_out_dir(out_dir: Path, resume: bool, storage: str | None) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise FairysimError("--out-dir", f"{out_dir} exists and is not a folder")
    if storage is None and not resume and (out_dir / "tune.db").exists():
        raise FairysimError(
            "--out-dir", "holds a tune study already: give --resume, or another folder"
        )
    if resume and storage is None and not (out_dir / "tune.db").exists():
        raise FairysimError("--resume", f"there is no tune study to resume in {out_dir}")


def tune(
    game: str | GameSpec,
    *,
    targets: str | Path,
    out_dir: str | Path,
    cards: str | Path | None = None,
    seed: int = 0,
    budget_games: int | None = None,
    budget_seconds: float | None = None,
    resume: bool = False,
    storage: str | None = None,
    search_games: int = SEARCH_GAMES,
    max_search_games: int | None = None,
    final_games: int = FINAL_GAMES,
    threads: int | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    echo: Callable[[str], None] | None = None,
    after_trial: Callable[[int], None] | None = None,
) -> TuneResult:
    """Find the fewest changes to ``cards`` that bring ``game`` within ``targets``.

    Parameters
    ----------
    game : str or GameSpec
        A registered game.
    targets : path
        The targets file (:mod:`fairysim.analysis.tune.targets`, docs/tune.md).
    out_dir : path
        Folder of the outputs and (without ``storage``) of the study, ``tune.db``.
    cards : path, optional
        The base card file (default: the game's shipped one).
    seed : int
        Seed of every game and of the sampler: the same command gives the same files.
    budget_games, budget_seconds : optional
        When the search stops (default :data:`BUDGET_GAMES` games); only a games budget is
        reproducible.
    resume : bool
        Continue the study in ``out_dir`` (or ``storage``), made by the same command.
    storage : str, optional
        An Optuna RDB storage URL in place of ``sqlite:///<out_dir>/tune.db``.
    search_games : int
        Games per cell of a search candidate's first look; it then doubles its games until its
        intervals decide every target, it is out of the race, or it reaches the cap
        (:mod:`fairysim.analysis.tune.race`).
    max_search_games : int, optional
        The cap: games per cell a search candidate plays at most (default
        :data:`MAX_SEARCH_LOOKS` times ``search_games``; equal to it, every candidate plays
        ``search_games``). The final replay plays games from this one on.
    final_games : int
        Games per cell of a finalist on fresh games.
    threads : int, optional
        numba threads (never changes the results); the search's candidates play on
        :data:`SEARCH_THREADS` unless given.
    workers, scheduler : optional
        Play the search's candidates on a local Dask cluster of ``workers`` processes, or on
        the running scheduler at ``scheduler`` (as ``fairysim sweep``); the same results as
        one process.
    echo : callable, optional
        Called with a line of progress.
    after_trial : callable, optional
        Called with the count of completed trials after each one.

    Returns
    -------
    TuneResult
    """
    from fairysim.sim.batch import check_games
    from fairysim.sim.rng import check_seed
    from fairysim.sweep.cluster import check_cluster_options

    say = echo or (lambda line: None)
    spec = game if isinstance(game, GameSpec) else get_game(game, "GAME")
    check_cluster_options(scheduler, workers)
    try:
        seed = check_seed(seed)
    except ValueError as exc:
        raise FairysimError("--seed", str(exc)) from None
    search_games = check_interval_games(search_games, "--search-games")
    if max_search_games is None:
        max_search_games = MAX_SEARCH_LOOKS * search_games
    max_search_games = check_interval_games(max_search_games, "--max-search-games")
    if max_search_games < search_games:
        raise FairysimError(
            "--max-search-games",
            f"{max_search_games:,} is below --search-games ({search_games:,}), its first look",
        )
    final_games = check_interval_games(final_games, "--final-games")
    if budget_games is not None and budget_seconds is not None:
        raise FairysimError("--budget-games", "give --budget-games or --budget-seconds, not both")
    if budget_games is not None:
        budget_games = check_games(budget_games, "--budget-games")
    if budget_seconds is not None and not budget_seconds > 0:
        raise FairysimError("--budget-seconds", f"must be above 0, got {budget_seconds!r}")
    if budget_games is None and budget_seconds is None:
        budget_games = BUDGET_GAMES
    checked = load_targets(spec, targets, cards)
    runs = runs_per_candidate(checked)
    cost = search_games * runs
    if budget_games is not None and budget_games < cost:
        raise FairysimError(
            "--budget-games",
            f"{budget_games:,} games cannot play one candidate ({search_games:,} games in each "
            f"of {runs} run{'s' * (runs != 1)}: {cost:,})",
        )
    out = folder_option(out_dir)
    _check_out_dir(out, resume, storage)
    config = {
        "game": spec.name,
        "targets": _digest(checked.source),
        "cards": _digest(checked.cards),
        "seed": seed,
        "search_games": search_games,
        "max_search_games": max_search_games,
    }
    if storage is None:  # the study's own file: _check_out_dir has refused a clash
        out.mkdir(parents=True, exist_ok=True)
    url = storage or f"sqlite:///{(out / 'tune.db').resolve()}"
    study = open_study(url, resume, config)
    out.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fairysim-tune-")))
        play = batch_player(
            stack,
            spec,
            checked,
            folder,
            seed=seed,
            threads=SEARCH_THREADS if threads is None else threads,
            workers=workers,
            scheduler=scheduler,
        )
        looks = Looks(search_games, max_search_games)
        say(
            f"searching: {len(checked.vary)} numbers, {cost:,} to "
            f"{max_search_games * runs:,} games a candidate"
        )
        search(
            study,
            checked,
            play,
            seed=seed,
            budget=Budget(budget_games, budget_seconds),
            looks=looks,
            runs=runs,
            after_trial=after_trial,
        )
        picked = finalists(study)
        say(f"replaying the base file and {len(picked)} finalists on {final_games:,} fresh games")
        fresh = {"base": (0,) * len(checked.vary)}
        fresh.update({choice_label(checked, c): c for c, _, _ in picked})
        judged: dict[str, Judged] = {
            label: play_candidate(
                spec,
                checked,
                choice,
                folder,
                games=final_games,
                seed=seed,
                first_game=max_search_games,
                threads=threads,
            )
            for label, choice in fresh.items()
        }
    final = corrected(checked, judged)
    final["changes"] = final["candidate"].map({k: changes(c) for k, c in fresh.items()})
    recommended, closest = _recommend(final, fresh)
    trials = trials_table(study, checked)
    result = TuneResult(
        targets=checked,
        recommended=recommended,
        closest=closest,
        final=final,
        candidates=_candidates(checked, trials, final, fresh, seed, max_search_games),
        front=_front(checked, trials),
        changes=_changes(checked, recommended if recommended is not None else closest),
        compare_command=compare_command(checked, out, seed),
    )
    result.files = write_outputs(result, out)
    return result


def _recommend(
    final: pd.DataFrame, fresh: dict[str, tuple[int, ...]]
) -> tuple[tuple[int, ...] | None, tuple[int, ...]]:
    """The fewest-changes candidate meeting every target in every cell (None if none), and
    the candidate nearest the targets on the fresh games."""
    summary = final.groupby("candidate", sort=False).agg(
        met=("met", "all"), distance=("distance", "sum"), changes=("changes", "first")
    )
    summary["order"] = range(len(summary))
    passing = summary[summary["met"]].sort_values(["changes", "distance", "order"])
    nearest = summary.sort_values(["distance", "changes", "order"])
    nearest_changed = nearest[nearest["changes"] > 0]
    closest_label = (nearest_changed if not nearest_changed.empty else nearest).index[0]
    recommended = fresh[passing.index[0]] if not passing.empty else None
    return recommended, fresh[closest_label]


def _candidates(
    targets: TuneTargets,
    trials: list[dict[str, Any]],
    final: pd.DataFrame,
    fresh: dict[str, tuple[int, ...]],
    seed: int,
    fresh_from: int,
) -> pd.DataFrame:
    """Every reading of the run: the search's (games ``0 ..``, each candidate's intervals at its
    looks' error rate, ``level``, and why it stopped) and the final replay's (corrected, fresh
    games from ``fresh_from``)."""
    rows = []
    for trial in trials:
        base = {
            "stage": "search",
            "trial": trial["trial"],
            "phase": trial["phase"],
            "candidate": choice_label(targets, trial["choice"]),
            "changes": trial["changes"],
            "total_distance": trial["distance"] if math.isfinite(trial["distance"]) else math.inf,
            "refused": trial["refused"],
            "stop": trial["stop"],
            "seed": seed,
            "first_game": 0,
            "interval": "Bonferroni over the candidate's looks and parts",
        }
        for row in trial["rows"] or [{}]:
            rows.append({**base, **row})
    for row in final.to_dict("records"):
        label = row.pop("candidate")
        met = row.pop("met")
        rows.append(
            {
                "stage": "final",
                "trial": -1,
                "phase": "final",
                "candidate": label,
                "seed": seed,
                "first_game": fresh_from,
                "interval": "Holm-corrected (one family over the final replay)",
                "met": met,
                "refused": "",
                "stop": "",
                **row,
                "changes": changes(fresh[label]),
            }
        )
    table = pd.DataFrame(rows)
    if "met" in table.columns:
        table["met"] = table["met"].astype("boolean")
    return table


def _front(targets: TuneTargets, trials: list[dict[str, Any]]) -> pd.DataFrame:
    """The search's front: for each number of changes, the nearest candidate, kept where it is
    nearer than every candidate of fewer changes."""
    best: dict[int, dict[str, Any]] = {}
    for trial in trials:
        if trial["refused"]:
            continue
        now = best.get(trial["changes"])
        if now is None or trial["distance"] < now["distance"]:
            best[trial["changes"]] = trial
    rows, nearest = [], math.inf
    for count in sorted(best):
        trial = best[count]
        if trial["distance"] < nearest:
            nearest = trial["distance"]
            rows.append(
                {
                    "changes": count,
                    "distance": trial["distance"],
                    "candidate": choice_label(targets, trial["choice"]),
                    "trial": trial["trial"],
                }
            )
    return pd.DataFrame(rows, columns=["changes", "distance", "candidate", "trial"])


def _changes(targets: TuneTargets, choice: tuple[int, ...]) -> pd.DataFrame:
    rows = [
        {"path": v.key, "from": v.base, "to": v.choices[i]}
        for v, i in zip(targets.vary, choice, strict=True)
        if i
    ]
    return pd.DataFrame(rows, columns=["path", "from", "to"])


def compare_command(targets: TuneTargets, out: Path, seed: int) -> str:
    """The ``fairysim compare`` command that plays the base file against the tuned one, on the
    tune's seed, at its first player count and policy."""
    setup = "".join(f";{k}={v}" for k, v in targets.setup.items())
    policy = targets.policies[0]
    return (
        f"fairysim compare {targets.game} --players {targets.players[0]} --seed {seed} "
        f'--baseline "cards={targets.cards};policy={policy}{setup}" '
        f'--variant "cards={out / "tuned_cards.toml"};policy={policy}{setup}" '
        f"--out-dir {out / 'compare'}"
    )


def tuned_text(result: TuneResult) -> str:
    """``tuned_cards.toml``: the recommended card file, or the closest with a warning line."""
    targets = result.targets
    if result.recommended is not None:
        return targets.cards_text(result.recommended)
    head = (
        "# fairysim tune: NO candidate met every target on fresh games; this is the closest "
        "one found (see tune.html).\n"
    )
    return head + targets.cards_text(result.closest)


def write_outputs(result: TuneResult, out: Path) -> list[Path]:
    """Write every output file at once (all or none)."""
    from fairysim.analysis.report.tune import tune_page

    parquet = io.BytesIO()
    result.candidates.to_parquet(parquet, index=False)
    files = [
        (out / "tuned_cards.toml", tuned_text(result).encode()),
        (out / "changes.csv", result.changes.to_csv(index=False).encode()),
        (out / "candidates.parquet", parquet.getvalue()),
        (out / "front.csv", result.front.to_csv(index=False).encode()),
        (out / "tune.html", tune_page(result).encode()),
    ]
    return write_files(files, "--out-dir")


__all__ = ["BUDGET_GAMES", "FINAL_GAMES", "SEARCH_GAMES", "TuneResult", "tune"]
