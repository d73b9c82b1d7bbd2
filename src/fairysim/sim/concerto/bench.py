"""Benchmark cases for Fairy Concerto: the jitted engine against the reference engine."""

from __future__ import annotations

from fairysim.bench import BenchCase

CASES = (
    (4, "4 players, greedy", True),
    (4, "4 players, greedy, one game at a time", False),
    (3, "3 players, greedy", True),
    (2, "2 players, greedy", True),
)
"""(players, label, lanes): greedy tables of solo and 3-4 players play in lanes (:mod:`.lanes`);
the one-game engine's figure is kept beside it."""
SOLO_CASES = ((1, "solo, greedy", True), (1, "solo, greedy, one game at a time", False))


def bench_cases() -> list[BenchCase]:
    """The issue's speed targets: 4 players greedy and solo greedy, plus 3 and 2 players greedy.

    Returns
    -------
    list of BenchCase
        Seed 1, setup cards drawn at random. The fast engine is timed through ``play_chunks``
        alone (no DataFrame), the reference engine through ``reference.play_games``.
    """
    from fairysim.sim.concerto import reference
    from fairysim.sim.concerto.simulate import make_setup, play_chunks

    cases = []
    for players, label, lanes in (*CASES, *SOLO_CASES):
        setup = make_setup(players, "greedy", seed=1)

        def fast(games: int, setup=setup, lanes=lanes) -> None:
            for _ in play_chunks(setup, games, lanes=lanes):
                pass

        def slow(games: int, setup=setup) -> None:
            reference.play_games(setup, games)

        cases.append(BenchCase("concerto", label, fast, slow))
    return cases
