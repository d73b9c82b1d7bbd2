"""Compile a game's kernels into numba's cache: ``python tests/warm_kernels.py GAME PART...``, each
PART ``engine`` or ``lanes``, in the order given.

A cold cache costs minutes of compiling per engine, one engine after another in the test process.
``conftest.py`` runs this script once per game in parallel processes before the first test, so
the machine's cores compile the engines side by side and the tests load them from the cache.
What each part plays is :mod:`fairysim.jit.warm`'s (``fairysim compile`` runs the same).
"""

from __future__ import annotations

import sys

from fairysim.jit.warm import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
