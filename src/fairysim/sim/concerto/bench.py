"""Benchmark cases for Fairy Concerto: the jitted engine against the reference engine."""

from __future__ import annotations

from fairysim.bench import BenchCase


def bench_cases() -> list[BenchCase]:
    """The issue's speed targets: 4 players greedy and solo greedy (plus 2 players greedy)."""
    from fairysim.sim.concerto import reference
    from fairysim.sim.concerto.simulate import make_setup, play_chunks

    cases = []
    for players, label in ((4, "4 players greedy"), (1, "solo greedy"), (2, "2 players greedy")):
        setup = make_setup(players, "greedy", seed=1)

        def fast(games: int, setup=setup) -> None:
            for _ in play_chunks(setup, games):
                pass

        def slow(games: int, setup=setup) -> None:
            reference.play_games(setup, games)

        cases.append(BenchCase("concerto", label, fast, slow))
    return cases
