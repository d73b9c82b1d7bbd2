"""Runs the Fairy Land analysis tests share: played once for the whole folder."""

from __future__ import annotations

import pytest

from fairysim.analysis.fairyland.study import fairyland_study
from fairysim.sim.fairyland.runs import simulate

GAMES = 300
SEED = 3
AUCTION_GAMES = 3


@pytest.fixture(scope="package")
def three_players():
    """One run, 3 players, the random court."""
    return simulate(players=3, policies="greedy", games=400, seed=5)


@pytest.fixture(scope="package")
def study():
    """A small whole study: every court and player count."""
    return fairyland_study(games=GAMES, seed=SEED, auction_games=AUCTION_GAMES)
