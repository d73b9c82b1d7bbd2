"""Playing a batch of search candidates: in this process, or on Dask workers (``--workers``,
``--scheduler``, the cluster :mod:`fairysim.sweep.cluster` starts for sweeps).

A worker receives the game's name and the texts of the targets file and the base card file, not
paths, so a remote worker needs no shared folder; it checks them once (as the command did) and
plays each candidate it is handed on the same games as this process would. The engines are
deterministic, so the batch's results, told in the order asked, are the same whoever plays them.
"""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from fairysim.analysis.tune.evaluate import changes, distance, play_candidate, point_rows
from fairysim.analysis.tune.search import Evaluation
from fairysim.analysis.tune.targets import TuneTargets, load_targets
from fairysim.sim.game import GameSpec, get_game


def evaluation(
    spec: GameSpec,
    targets: TuneTargets,
    choice: tuple[int, ...],
    folder: Path,
    *,
    games: int,
    seed: int,
    threads: int | None,
    cost: int,
) -> Evaluation:
    """One search candidate played on games ``0 .. games-1`` of ``seed`` in every table."""
    judged = play_candidate(spec, targets, choice, folder, games=games, seed=seed, threads=threads)
    return Evaluation(
        distance(targets, judged),
        changes(choice),
        point_rows(targets, judged),
        0 if judged.refused else cost,
        judged.refused,
    )


@functools.lru_cache(maxsize=4)
def _checked(game: str, targets_text: str, cards_text: str) -> tuple[GameSpec, TuneTargets, Path]:
    folder = Path(tempfile.mkdtemp(prefix="fairysim-tune-worker-"))
    (folder / "targets.toml").write_text(targets_text, encoding="utf-8")
    (folder / "base.toml").write_text(cards_text, encoding="utf-8")
    spec = get_game(game)
    return spec, load_targets(spec, folder / "targets.toml", folder / "base.toml"), folder


def play_on_worker(
    game: str,
    targets_text: str,
    cards_text: str,
    choice: tuple[int, ...],
    games: int,
    seed: int,
    threads: int | None,
    cost: int,
) -> Evaluation:
    """:func:`evaluation` on a worker, from the texts of the targets and base card files."""
    spec, targets, folder = _checked(game, targets_text, cards_text)
    return evaluation(
        spec, targets, choice, folder, games=games, seed=seed, threads=threads, cost=cost
    )


def batch_player(
    stack: ExitStack,
    spec: GameSpec,
    targets: TuneTargets,
    folder: Path,
    *,
    games: int,
    seed: int,
    threads: int | None,
    cost: int,
    workers: int | None = None,
    scheduler: str | None = None,
) -> Callable[[list[tuple[int, ...]]], list[Evaluation]]:
    """What plays a batch of candidates: this process without ``workers`` and ``scheduler``,
    else a Dask cluster entered on ``stack`` (closed when the tune ends)."""
    if workers is None and scheduler is None:

        def here(choices: list[tuple[int, ...]]) -> list[Evaluation]:
            return [
                evaluation(
                    spec, targets, c, folder, games=games, seed=seed, threads=threads, cost=cost
                )
                for c in choices
            ]

        return here

    from fairysim.sweep.cluster import connect

    client, _ = connect(stack, scheduler, workers)  # one thread a candidate, as here
    texts = (
        Path(targets.source).read_text(encoding="utf-8"),
        Path(targets.cards).read_text(encoding="utf-8"),
    )

    def there(choices: list[tuple[int, ...]]) -> list[Evaluation]:
        futures: list[Any] = [
            client.submit(
                play_on_worker, spec.name, *texts, c, games, seed, threads, cost, pure=False
            )
            for c in choices
        ]
        return client.gather(futures)

    return there


__all__ = ["batch_player", "evaluation", "play_on_worker"]
