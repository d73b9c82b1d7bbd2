"""Compile a game's kernels into numba's cache: ``python tests/warm_kernels.py GAME PART...``, each
PART ``engine`` or ``lanes``, in the order given.

A cold cache costs minutes of compiling per engine, one engine after another in the test process.
``conftest.py`` runs this script once per game in parallel processes before the first test, so
the machine's cores compile the engines side by side and the tests load them from the cache. It
plays a few games of every kernel the tests reach: each player count with a lineup of every
built-in policy (the one-game engine), an all-greedy table (the lanes where the game has them)
and a user policy (first-class dispatch), and one game of the reference engine, which calls
jitted helpers from Python.
"""

from __future__ import annotations

import sys
import tempfile
import textwrap
from pathlib import Path

USER_POLICY = textwrap.dedent(
    """
    def first(decision, view, choices, n_choices, weights, rng):
        return 0
    """
)


def warm(name: str, part: str) -> None:
    """Play a few games of game ``name`` through its one-game engine (``part == "engine"``, with
    the reference engine) or through its lanes (``"lanes"``)."""
    from fairysim.sim.game import get_game, load_entry

    spec = get_game(name)
    reference = load_entry(spec.reference)
    builtins = list(spec.policies)
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "warm_user_policy.py").write_text(USER_POLICY)
        sys.path.insert(0, folder)
        for players in range(spec.min_players, spec.max_players + 1):
            lineups = [["greedy"] * players]
            if part == "engine":
                lineups.append(["warm_user_policy:first"] * players)
                lineups += [
                    [builtins[(i + k) % len(builtins)] for i in range(players)] for k in (0, 1)
                ]
            for lineup in lineups:
                try:
                    setup = spec.make_setup(players=players, policies=lineup, seed=1)
                except ValueError:  # a policy meant for other player counts only
                    continue
                list(spec.play_chunks(setup, 4, lanes=part == "lanes"))
                if part == "engine":
                    reference(setup, 1)  # the jitted helpers the reference calls from Python


if __name__ == "__main__":
    for part in sys.argv[2:]:
        warm(sys.argv[1], part)
