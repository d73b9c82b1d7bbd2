"""The Queen's Court comparisons checked under the best heuristic: the report's court effects
played again with value-bidder (the top heuristic rung of the spec's ladder) at every seat.

:func:`court_check` plays the three courts at one player count on one seat, every seat the
report's policy, then every seat the best heuristic (a game's forest, starting seat and court
deck positions do not depend on the court or the policies, PL6, PL9), and compares the
corrected verdicts of every court pair on every measure
(:func:`fairysim.analysis.studies.heuristic_check.compare_verdicts`).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from fairysim.analysis.fairyland.runs import game_rows
from fairysim.analysis.fairyland.study import CORRECTION, court_effects
from fairysim.analysis.studies.heuristic_check import HeuristicCheck, heuristic_check
from fairysim.sim.fairyland import COURTS, FairyLandCards
from fairysim.sim.fairyland.runs import simulate

KEYS = ("court", "baseline", "measure")
"""A court comparison's keys: the court, the court it is compared with, and the measure."""


def court_check(
    games: int,
    seed: int,
    players: int,
    policy: str,
    best: str,
    cards: str | Path | FairyLandCards | None = None,
    threads: int | None = None,
) -> HeuristicCheck:
    """Every court comparison of the report under ``policy`` and under ``best``, on the same games
    (the arguments of a check, :func:`~fairysim.analysis.studies.heuristic_check.heuristic_check`).

    Returns
    -------
    HeuristicCheck
        Keys ``court``, ``baseline`` and ``measure`` (with its ``label`` and ``unit``), the
        paired difference of the measure (court minus baseline), one Holm family per policy.
    """
    tables = []
    for name in (policy, best):
        per_game = pd.concat(
            [
                game_rows(
                    simulate(
                        players=players,
                        policies=name,
                        games=games,
                        seed=seed,
                        cards=cards,
                        court=court,
                        threads=threads,
                    )
                )
                for court in COURTS
            ],
            ignore_index=True,
        )
        tables.append(court_effects(per_game, CORRECTION))
    base, other = tables
    check = heuristic_check(
        base, other, KEYS, "difference",
        policy=policy, best=best, players=players, games=games, arm="a court", seed=seed,
    )  # fmt: skip
    check.table = check.table.join(base.set_index(list(KEYS))[["label", "unit"]], on=list(KEYS))
    return check


__all__ = ["KEYS", "court_check"]
