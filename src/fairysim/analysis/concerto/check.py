"""The score cards' lifts checked under the best heuristic: the card-balance report's headline
comparisons played again with chaser (the top heuristic rung of the spec's ladder) at every seat.

:func:`score_card_check` plays :func:`~fairysim.analysis.concerto.study.card_balance` twice at one
player count on one seed, every seat the report's policy, then every seat the best heuristic, on
the same deals, and compares the corrected verdicts of every score card's holders' lift (the win
share of the seats ending with the card minus that of the others, one Holm family of 26 cards
under each policy; :func:`fairysim.analysis.studies.heuristic_check.compare_verdicts`).
"""

from __future__ import annotations

from pathlib import Path

from fairysim.analysis.concerto.study import card_balance
from fairysim.analysis.studies.heuristic_check import HeuristicCheck, heuristic_check
from fairysim.sim.concerto import ConcertoCards

KEYS = ("card",)
"""A comparison's key: the score card whose holders' lift it is."""


def score_card_check(
    games: int,
    seed: int,
    players: int,
    policy: str,
    best: str,
    cards: str | Path | ConcertoCards | None = None,
    threads: int | None = None,
) -> HeuristicCheck:
    """Every score card's holders' lift under ``policy`` and under ``best``, on the same deals
    (the arguments of a check, :func:`~fairysim.analysis.studies.heuristic_check.heuristic_check`).

    Returns
    -------
    HeuristicCheck
        Key ``card`` (with what it ``asks_for``), the holders' lift in win share, one Holm
        family of the 26 cards per policy.
    """
    tables = []
    for name in (policy, best):
        pooled = card_balance(games, seed, (players,), name, cards, threads).score_cards_pooled
        tables.append(
            pooled[
                ["card", "asks_for", "lift", "lift_low", "lift_high", "lift_significant"]
            ].rename(
                columns={"lift_low": "low", "lift_high": "high", "lift_significant": "significant"}
            )
        )
    base, other = tables
    check = heuristic_check(
        base, other, KEYS, "lift",
        policy=policy, best=best, players=players, games=games, arm="in one run", seed=seed,
    )  # fmt: skip
    table = check.table.join(base.set_index(list(KEYS))[["asks_for"]], on=list(KEYS))
    check.table = table[
        [*KEYS, "asks_for", *(c for c in table.columns if c not in (*KEYS, "asks_for"))]
    ]
    return check


__all__ = ["KEYS", "score_card_check"]
