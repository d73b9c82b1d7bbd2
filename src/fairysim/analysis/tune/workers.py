"""Playing a batch of search candidates: in this process, or on Dask workers (``--workers``,
``--scheduler``, the cluster :mod:`fairysim.sweep.cluster` starts for sweeps).

A worker receives the game's name and the texts of the targets file and the base card file, not
paths, so a remote worker needs no shared folder; it checks them once (as the command did) and
plays each block of a candidate's games it is handed on the same games as this process would.
The engines are deterministic, so the blocks' readings, returned in the order asked, are the
same whoever plays them.
"""

from __future__ import annotations

import functools
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from fairysim.analysis.tune.evaluate import Judged, play_candidate
from fairysim.analysis.tune.race import Block, PlayBlocks
from fairysim.analysis.tune.targets import TuneTargets, load_targets
from fairysim.sim.game import GameSpec, get_game


def play_block(
    spec: GameSpec,
    targets: TuneTargets,
    block: Block,
    folder: Path,
    *,
    seed: int,
    threads: int | None,
) -> Judged:
    """One block of a search candidate: its games ``first .. first + games - 1`` of ``seed``
    in every table."""
    choice, first, games = block
    return play_candidate(
        spec, targets, choice, folder, games=games, seed=seed, first_game=first, threads=threads
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
    block: Block,
    seed: int,
    threads: int | None,
) -> Judged:
    """:func:`play_block` on a worker, from the texts of the targets and base card files."""
    spec, targets, folder = _checked(game, targets_text, cards_text)
    return play_block(spec, targets, block, folder, seed=seed, threads=threads)


def batch_player(
    stack: ExitStack,
    spec: GameSpec,
    targets: TuneTargets,
    folder: Path,
    *,
    seed: int,
    threads: int | None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> PlayBlocks:
    """What plays a list of blocks: this process without ``workers`` and ``scheduler``, else
    a Dask cluster entered on ``stack`` (closed when the tune ends)."""
    if workers is None and scheduler is None:

        def here(blocks: list[Block]) -> list[Judged]:
            return [
                play_block(spec, targets, b, folder, seed=seed, threads=threads) for b in blocks
            ]

        return here

    from fairysim.sweep.cluster import connect

    client, _ = connect(stack, scheduler, workers)  # one thread a candidate, as here
    texts = (
        Path(targets.source).read_text(encoding="utf-8"),
        Path(targets.cards).read_text(encoding="utf-8"),
    )

    def there(blocks: list[Block]) -> list[Judged]:
        futures: list[Any] = [
            client.submit(play_on_worker, spec.name, *texts, b, seed, threads, pure=False)
            for b in blocks
        ]
        return client.gather(futures)

    return there


__all__ = ["batch_player", "play_block", "play_on_worker"]
