"""Shared by both games' lane tests: the lane engine's results equal the one-game engine's, and
which tables reach the lane engine."""

from __future__ import annotations

import numpy as np
import pytest


def assert_same_games(in_lanes: dict, one_game: dict, where: str) -> None:
    """Fail on the first column and game where the two engines' arrays differ; ``where`` says
    which run (players, seed, ...)."""
    assert set(in_lanes) == set(one_game)
    for name, expected in one_game.items():
        got = in_lanes[name]
        assert got.shape == expected.shape, name
        same = (got == expected).reshape(len(got), -1).all(axis=1)
        if not same.all():
            game = int(np.flatnonzero(~same)[0])
            pytest.fail(
                f"{name} differs first in game {game} ({where}): "
                f"lanes {got[game]} vs one game {expected[game]}"
            )


def record_lane_calls(monkeypatch, simulate_module) -> list[int]:
    """Wrap ``simulate_module.play_greedy_games`` so that each call appends its player count to
    the returned list (and still plays the games)."""
    calls: list[int] = []
    real = simulate_module.play_greedy_games

    def counting(*args):
        calls.append(args[2])  # players
        return real(*args)

    monkeypatch.setattr(simulate_module, "play_greedy_games", counting)
    return calls
