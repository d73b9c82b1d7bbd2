"""``fairysim compile [GAME ...]``: compile the games' kernels ahead of time.

For a cluster's workers, a container image or a notebook server: a cold cache costs minutes per
game on the first run, and this pays them now (:mod:`fairysim.jit.warm` says what each part plays).
Each part's line comes as soon as it is done, with its wall time and how much of it compiled.
"""

from __future__ import annotations

from typing import Annotated

import typer

from fairysim.cli.common import handle_errors, stdout_console


@handle_errors
def compile_games(
    names: Annotated[
        list[str] | None,
        typer.Argument(metavar="GAME", help="Games to compile (default: every game)."),
    ] = None,
) -> None:
    """Compile every kernel the games' runs use into numba's cache, and say how long each took."""
    import numba

    from fairysim.jit.warm import parts_of, warm
    from fairysim.sim.game import games, get_game

    specs = [get_game(name) for name in names] if names else list(games().values())
    console = stdout_console()
    console.print(f"Cache: {numba.config.CACHE_DIR}", soft_wrap=True)
    for spec in specs:
        for part in parts_of(spec):
            done = warm(spec.name, part)
            what = (
                f"compiled {done.compiles} functions in {done.compile_seconds:.1f} s"
                if done.compiles
                else "nothing to compile, all in the cache"
            )
            console.print(f"{spec.title}, {part}: {done.seconds:.1f} s ({what})", soft_wrap=True)
