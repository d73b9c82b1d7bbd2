"""The weight search: CMA-ES (``cma``) maximising P's win share on the search deals.

Every candidate plays the same deals (games ``0 .. deals-1`` of the seed, every seat rotated,
:mod:`.arena`), so two candidates differ by their weights only, not by their luck: the search
compares them on common random numbers, and its objective is a deterministic function of the
weights. CMA-ES asks for a generation of candidates at a time (its population, fixed by the
number of weights, never by the workers), is told their win shares, and moves its search
distribution towards the better ones. Its random numbers come from a generator of its own seeded
from the search's seed, so the same seed asks for the same candidates, whatever else the process
draws; with ``workers`` a generation's candidates are played on a Dask cluster at once and told
in the order asked, which gives what one process gives.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from fairysim.analysis.strategy.arena import Arena, play_candidate
from fairysim.analysis.strategy.journal import Journal
from fairysim.analysis.strategy.space import WeightSpace

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SearchRun:
    """What the search did: every candidate (one row each) and why it stopped early, if it did."""

    candidates: pd.DataFrame
    stopped: str = ""


def cma_seed(seed: int) -> int:
    """The optimiser's seed from the search's seed (never 0, which ``cma`` reads as the clock)."""
    return int(np.random.SeedSequence([seed, 0xC3A]).generate_state(1)[0] % (2**31 - 2)) + 1


def run_search(
    arena: Arena,
    space: WeightSpace,
    journal: Journal,
    *,
    evaluations: int,
    deals: int,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> SearchRun:
    """Evaluate up to ``evaluations`` candidates on deals ``0 .. deals-1``, each recorded in
    ``journal`` (candidates it already holds are read, not played again).

    Returns
    -------
    SearchRun
        ``candidates``: ``candidate``, ``generation``, one column per searched weight,
        ``win_share`` (P's mean over the deals and rotations), ``se`` (clustered by deal),
        ``deals`` and ``games`` (deals x players).
    """
    import cma

    seed = cma_seed(arena.seed)
    generator = np.random.default_rng(seed)
    options = {
        "bounds": [list(space.low), list(space.high)],
        "CMA_stds": list(space.steps),
        "seed": seed,
        "randn": lambda lam, n: generator.standard_normal((lam, n)),
        "verbose": -9,
        "verb_log": 0,
        "verb_disp": 0,
        "tolflatfitness": 10,
    }
    outer = np.random.get_state()
    try:
        es = cma.CMAEvolutionStrategy(list(space.x0), 1.0, options)
    finally:
        np.random.set_state(outer)
    rows: list[dict[str, Any]] = []
    stopped = ""
    with ExitStack() as stack:
        play = _player(arena, deals, stack, workers, scheduler)
        generation = 0
        while len(rows) < evaluations:
            if es.stop():
                stopped = ", ".join(f"{key}" for key in es.stop())
                break
            outer = np.random.get_state()
            try:
                asked = es.ask()
            finally:
                np.random.set_state(outer)
            take = asked[: evaluations - len(rows)]
            weights = [space.weights(x) for x in take]
            first = len(rows)
            known = [journal.recorded(first + i, w) for i, w in enumerate(weights)]
            missing = [i for i, k in enumerate(known) if k is None]
            for i, result in zip(missing, play([weights[i] for i in missing]), strict=True):
                known[i] = _share(result)
                journal.record(first + i, generation, weights[i], *known[i])
            for i, (w, (share, se)) in enumerate(zip(weights, known, strict=True)):  # type: ignore[misc]
                rows.append(
                    {
                        "candidate": first + i,
                        "generation": generation,
                        **w,
                        "win_share": share,
                        "se": se,
                        "deals": deals,
                        "games": deals * arena.players,
                    }
                )
            if progress is not None:
                progress(len(rows), evaluations)
            if len(take) < len(asked):
                break
            # CMA-ES minimises; the points told are those asked (a clipped weight's penalty is
            # the bounds handler's).
            es.tell(asked, [-share for share, _ in known])  # type: ignore[misc]
            generation += 1
    return SearchRun(pd.DataFrame(rows), stopped)


def _share(result: dict[str, np.ndarray]) -> tuple[float, float]:
    """P's win share over the deals and its standard error, one observation per deal."""
    shares = result["win_share"]
    se = float(shares.std(ddof=1) / np.sqrt(len(shares))) if len(shares) > 1 else float("nan")
    return float(shares.mean()), se


def _player(
    arena: Arena,
    deals: int,
    stack: ExitStack,
    workers: int | None,
    scheduler: str | None,
) -> Callable[[list[dict[str, float]]], list[dict[str, np.ndarray]]]:
    """Plays a list of candidates on the search deals: in this process, or on Dask."""
    if workers is None and scheduler is None:
        return lambda batch: [arena.play(w, 0, deals) for w in batch]
    from fairysim.sweep.cluster import connect

    client, threads = connect(stack, scheduler, workers)
    task = arena.task()

    def on_dask(batch: list[dict[str, float]]) -> list[dict[str, np.ndarray]]:
        futures = [
            client.submit(play_candidate, task, w, 0, deals, threads, pure=False) for w in batch
        ]
        return client.gather(futures)

    return on_dask


__all__ = ["SearchRun", "cma_seed", "run_search"]
