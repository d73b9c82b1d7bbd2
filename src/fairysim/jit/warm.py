"""Compile a game's kernels into numba's cache ahead of time, by playing a few games of each.

A cold cache costs minutes of compiling per engine on the first run. ``fairysim compile`` (for a
cluster's workers, a container image, a notebook server) and the test suite's warm-up
(``tests/conftest.py`` through ``tests/warm_kernels.py``) pay it in advance, here. Playing is
the one way to reach every kernel a run can: numba compiles a kernel for the argument types it
is called with, and only the game knows how to build them.

A *part* is what one call warms:

- ``engine``: every player count with an all-greedy table, a table of a user policy (the
  first-class dispatch) and two lineups of every built-in policy, through the one-game engine;
  then one game of the reference engine, which calls jitted helpers from Python.
- ``lanes``: the all-greedy tables through ``play_chunks``' default path, which plays them in
  lanes where the game has lanes (a game without them finds its engine compiled already).
- ``search``: one searching seat (:attr:`GameSpec.search`) among the best heuristic, which
  compiles the engine's searching kernel (a game without a search player has nothing to do).

A game's lanes come after its engine in the same process: tables the lanes do not serve fall
back to the engine, which a process of its own would compile a second time.
"""

from __future__ import annotations

import json
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fairysim.jit.notice import compile_totals

PARTS = ("engine", "lanes", "search")
"""What :func:`warm` can warm, in the order a game warms them."""

USER_POLICY = textwrap.dedent(
    """
    def first(decision, view, choices, n_choices, weights, rng):
        return 0
    """
)
"""A user policy module: a table of it reaches the engine's first-class dispatch."""


@dataclass(frozen=True)
class Warmed:
    """What warming one part of one game took.

    Attributes
    ----------
    game, part : str
        The game's name and the part (:data:`PARTS`).
    seconds : float
        Wall time of the part, compiling and playing.
    compiles : int
        Outermost compiles of the game's functions (0: everything came from the cache).
    compile_seconds : float
        Their wall time.
    """

    game: str
    part: str
    seconds: float
    compiles: int
    compile_seconds: float


def parts_of(spec: Any) -> tuple[str, ...]:
    """The parts a game has: every part but ``search`` for a game without a search player."""
    return tuple(part for part in PARTS if part != "search" or spec.search)


def lineups(spec: Any, players: int, part: str) -> list[list[str]]:
    """The tables of ``players`` seats that warming ``part`` plays."""
    if part == "search":
        return [[spec.search] + [spec.ladder[-1]] * (players - 1)] if spec.search else []
    tables = [["greedy"] * players]
    if part == "engine":
        builtins = [name for name in spec.policies if name != spec.search]
        tables.append(["warm_user_policy:first"] * players)
        tables += [[builtins[(i + k) % len(builtins)] for i in range(players)] for k in (0, 1)]
    return tables


def warm(name: str, part: str) -> Warmed:
    """Play a few games of game ``name`` through its one-game engine (``part == "engine"``, with
    the reference engine) or through its lanes (``"lanes"``); say what it took."""
    from fairysim.sim.game import get_game, load_entry

    if part not in PARTS:
        raise ValueError(f"part must be one of {', '.join(PARTS)}, got {part!r}")
    start = time.perf_counter()
    spec = get_game(name)
    before = compile_totals().get(spec.name)
    if part == "search":  # one searching kernel serves every player count
        search_kernels(spec.name, [spec.default_players])
    else:
        _play_tables(spec, part, load_entry(spec.reference))
    after = compile_totals().get(spec.name)
    compiles = (after.compiles if after else 0) - (before.compiles if before else 0)
    seconds = (after.seconds if after else 0.0) - (before.seconds if before else 0.0)
    return Warmed(spec.name, part, time.perf_counter() - start, compiles, seconds)


def _play_tables(spec: Any, part: str, reference: Any) -> None:
    """Four games of every table :func:`lineups` gives ``part`` at every player count, through
    the lanes or the one-game engine (and one of the reference engine, for ``"engine"``)."""
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "warm_user_policy.py").write_text(USER_POLICY)
        sys.path.insert(0, folder)
        try:
            for players in range(spec.min_players, spec.max_players + 1):
                for lineup in lineups(spec, players, part):
                    try:
                        setup = spec.make_setup(players=players, policies=lineup, seed=1)
                    except ValueError:  # a policy meant for other player counts only
                        continue
                    list(spec.play_chunks(setup, 4, lanes=part == "lanes"))
                    if part == "engine":
                        reference(setup, 1)  # the jitted helpers the reference calls
        finally:
            sys.path.remove(folder)
            sys.modules.pop("warm_user_policy", None)


def search_kernels(name: str, counts: list[int]) -> None:
    """Play one game of game ``name``'s search player among its best heuristic at each player
    count of ``counts``: every searching kernel those counts' runs use, compiled (or loaded), as
    :mod:`fairysim.jit.ahead` asks in the background of a report."""
    from fairysim.sim.game import get_game

    spec = get_game(name)
    for players in counts:
        for lineup in lineups(spec, players, "search"):
            setup = spec.make_setup(players=players, policies=lineup, seed=1)
            list(spec.play_chunks(setup, 1))


def first_run(name: str, label: str, package: str | None = None) -> dict[str, Any]:
    """Time the first run of benchmark case ``label`` of game ``name`` in this process: the
    setup and four games, which on a cold cache is the compile (``bench --compile`` runs it in
    a fresh process with an empty cache). ``package``, imported first, registers a game that is
    neither built in nor a plugin."""
    import importlib

    from fairysim.sim.game import get_game

    if package:
        importlib.import_module(package)
    spec = get_game(name)
    case = next((case for case in spec.bench if case.label == label), None)
    if case is None:
        raise ValueError(f"{name} has no benchmark case {label!r}")
    start = time.perf_counter()
    setup = spec.make_setup(seed=1, **case.setup)
    list(spec.play_chunks(setup, 4, lanes=case.lanes))
    seconds = time.perf_counter() - start
    total = compile_totals().get(spec.name)
    return {
        "game": spec.name,
        "case": label,
        "seconds": seconds,
        "compiles": total.compiles if total else 0,
        "compile_seconds": total.seconds if total else 0.0,
    }


def main(argv: list[str]) -> int:
    """``python -m fairysim.jit.warm GAME PART...`` warms the parts in order; ``python -m
    fairysim.jit.warm --first-run GAME LABEL [PACKAGE]`` prints :func:`first_run` as JSON;
    ``python -m fairysim.jit.warm --search GAME PLAYERS...`` runs :func:`search_kernels`."""
    if argv[:1] == ["--first-run"] and len(argv) in (3, 4):
        print(json.dumps(first_run(*argv[1:])))
        return 0
    if argv[:1] == ["--search"] and len(argv) >= 3 and all(a.isdigit() for a in argv[2:]):
        search_kernels(argv[1], [int(a) for a in argv[2:]])
        return 0
    if len(argv) < 2 or argv[0].startswith("--"):
        print(
            "usage: python -m fairysim.jit.warm GAME PART... | --first-run GAME LABEL [PACKAGE]"
            " | --search GAME PLAYERS...",
            file=sys.stderr,
        )
        return 2
    for part in argv[1:]:
        warm(argv[0], part)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


__all__ = [
    "PARTS",
    "USER_POLICY",
    "Warmed",
    "first_run",
    "lineups",
    "parts_of",
    "search_kernels",
    "warm",
]
