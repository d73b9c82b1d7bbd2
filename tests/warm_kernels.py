"""Compile a game's kernels into numba's cache: ``python tests/warm_kernels.py GAME PART...``, each
PART ``engine``, ``lanes`` or ``search``, in the order given.

A cold cache costs minutes of compiling per engine, one engine after another in the test process.
``conftest.py`` runs this script once per game in parallel processes before the first test, so
the machine's cores compile the engines side by side and the tests load them from the cache.
What each part plays is :mod:`fairysim.jit.warm`'s (``fairysim compile`` runs the same). Each
part prints a line as it starts and as it ends (on stdout, which ``conftest.py`` relays), so a
warm-up of minutes says what it is compiling.
"""

from __future__ import annotations

import sys

from fairysim.jit.warm import warm


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: python tests/warm_kernels.py GAME PART...", file=sys.stderr)
        return 2
    game, *parts = argv
    for part in parts:
        print(f"start {game} {part}", flush=True)
        done = warm(game, part)
        what = (
            f"compiled, {done.compile_seconds:.0f} s of it compiling"
            if done.compiles
            else "loaded from the cache"
        )
        print(f"done {game} {part} in {done.seconds:.0f} s ({what})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
