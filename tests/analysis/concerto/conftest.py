"""Runs the Concerto analysis tests share: played once for the whole folder."""

from __future__ import annotations

import pytest

from fairysim.sim.concerto import simulate


@pytest.fixture(scope="package")
def three_players():
    return simulate(players=3, policies="greedy", games=400, seed=5)


@pytest.fixture(scope="package")
def solo():
    return simulate(players=1, policies="greedy", games=300, seed=5)
