"""Fairy Land's ``simulate`` and ``simulate_summary``: the contract's, bound to the game."""

from fairysim.sim import run
from fairysim.sim.fairyland.spec import NAME

simulate = run.bind(NAME, run.simulate)
simulate_summary = run.simulate_summary

__all__ = ["simulate", "simulate_summary"]
