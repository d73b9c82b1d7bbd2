"""Fan strength checked under the best heuristic: the report's fan comparisons played again with
balancer (the top heuristic rung of the spec's ladder) at every seat.

:func:`fan_check` plays :func:`~fairysim.analysis.fantastique.study.fan_strength` twice at one
player count on one seed, every seat the report's policy, then every seat the best heuristic,
every fan on the same deals, and compares the corrected verdicts of every pair of fans
(:func:`fairysim.analysis.studies.heuristic_check.compare_verdicts`).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from fairysim.analysis.fantastique.study import Lineup, fan_strength
from fairysim.analysis.studies.heuristic_check import HeuristicCheck, heuristic_check
from fairysim.sim.fantastique import FantastiqueCards

KEYS = ("stronger", "weaker")
"""A fan comparison's keys, as the report's policy orders the pair (the stronger first)."""


def fan_check(
    games: int,
    seed: int,
    players: int,
    policy: str,
    best: str,
    cards: str | Path | FantastiqueCards | None = None,
    threads: int | None = None,
) -> HeuristicCheck:
    """Every pair of fans compared under ``policy`` and under ``best``, on the same deals
    (the arguments of a check, :func:`~fairysim.analysis.studies.heuristic_check.heuristic_check`).

    Returns
    -------
    HeuristicCheck
        Keys ``stronger`` and ``weaker`` (the pair as ``policy`` ranks it), the difference in
        strength (share of games the Grande Finale decides), one Holm family per policy.
    """
    tables = []
    for name in (policy, best):
        strength = fan_strength(
            games,
            seed,
            players=(players,),
            lineups=(Lineup(f"all {name}", name, name),),
            threads=threads,
            cards=cards,
        )
        tables.append(strength.fan_differences)
    base, other = tables
    return heuristic_check(
        base, oriented(other, base), KEYS, "difference",
        policy=policy, best=best, players=players, games=games, arm="a fan", seed=seed,
    )  # fmt: skip


def oriented(table: pd.DataFrame, like: pd.DataFrame) -> pd.DataFrame:
    """``table``'s fan pairs in ``like``'s order: a pair the other policy ranks the other way
    round is turned (its difference and interval negated); its verdict is unchanged."""
    order = set(zip(like["stronger"], like["weaker"], strict=True))
    out = table.copy()
    turn = [(a, b) not in order for a, b in zip(out["stronger"], out["weaker"], strict=True)]
    turn = pd.Series(turn, index=out.index)
    out.loc[turn, ["stronger", "weaker"]] = out.loc[turn, ["weaker", "stronger"]].to_numpy()
    out.loc[turn, "difference"] = -out.loc[turn, "difference"]
    low, high = out.loc[turn, "low"].copy(), out.loc[turn, "high"].copy()
    out.loc[turn, "low"], out.loc[turn, "high"] = -high, -low
    return out


__all__ = ["KEYS", "fan_check", "oriented"]
