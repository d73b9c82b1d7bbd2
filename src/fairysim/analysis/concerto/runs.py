"""One Fairy Concerto run's tidy rows as per-game arrays: seats, winners and honors.

The per-run functions of both studies start here. :func:`seat_arrays` reshapes a run into
``(games, seats)`` arrays (solo runs too, Pahha counting as a seat), :func:`winner_mask` says who
wins each game and :func:`honor_decides` whether each contest card's honor decides it.

Definitions
-----------
*Winners* of a game are the seats with the highest score (a shared win counts ``1/k`` for each of
``k`` tied seats); in solo you win only with a strictly higher total than Pahha (C8).

A contest card's *honor decides* a game when taking away the honor tokens that card awarded (2
points to every seat with the highest score on that card, when that score is above 0, C6) changes
the set of winners. An honor shared by the winner and the runner-up therefore never decides a
game; an honor that lifts a seat from behind into the lead (or into a tie for it), or that
separates two seats otherwise tied, does.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from fairysim.sim.concerto.rules import CONTESTS, HONOR_POINTS
from fairysim.stats.run_arrays import run_players, seat_arrays

SETUP_COLUMNS = ("soloist_card", "pianist_card", "harpist_card")
"""The three setup cards a solo game is dealt (the "setup combination")."""


def winner_mask(score: np.ndarray, solo: bool) -> np.ndarray:
    """Which seats win each game.

    Parameters
    ----------
    score : numpy.ndarray
        ``(games, seats)`` final scores.
    solo : bool
        Solo rules: seat 0 (you) wins only with a strictly higher score than seat 1 (Pahha).

    Returns
    -------
    numpy.ndarray of bool
        ``(games, seats)``: True for every seat with the highest score (all tied seats share).
    """
    if solo:
        you = score[:, 0] > score[:, 1]
        return np.column_stack([you, ~you])
    return score == score.max(axis=1, keepdims=True)


def contest_honors(points: np.ndarray) -> np.ndarray:
    """Honor points one contest card awards (C6): 2 to every seat with the best score on it,
    provided that score is above 0.

    Parameters
    ----------
    points : numpy.ndarray
        ``(games, seats)`` points of every seat on the card.

    Returns
    -------
    numpy.ndarray
        ``(games, seats)`` honor points (0 or 2).
    """
    best = points.max(axis=1, keepdims=True)
    return np.where((points == best) & (best > 0), HONOR_POINTS, 0)


def honor_decides(df: pd.DataFrame) -> pd.DataFrame:
    """Per game: does the honor of each contest card decide who wins?

    Parameters
    ----------
    df : pandas.DataFrame
        One run's tidy rows (any form, solo included).

    Returns
    -------
    pandas.DataFrame
        One row per game: ``game``, then one bool column per contest (``conductor``,
        ``soloist``, ``pianist``, ``harpist``) that is True when removing that card's honor
        tokens from the final scores changes the set of winners (see the module notes), and
        ``any`` (at least one of them does).

    Examples
    --------
    >>> from fairysim.sim.concerto import simulate
    >>> decides = honor_decides(simulate(players=3, games=200, seed=1))
    >>> list(decides.columns)
    ['game', 'conductor', 'soloist', 'pianist', 'harpist', 'any']
    """
    solo = run_players(df) == 1
    games, a = seat_arrays(df, ["score", *CONTESTS])
    decides = honor_decides_arrays(a, solo)
    out = pd.DataFrame({"game": games, **decides})
    out["any"] = np.logical_or.reduce([decides[c] for c in CONTESTS])
    return out


def honor_decides_arrays(a: dict[str, np.ndarray], solo: bool) -> dict[str, np.ndarray]:
    """:func:`honor_decides` on arrays of :func:`seat_arrays` (``score`` and every contest)."""
    score = a["score"]
    winners = winner_mask(score, solo)
    out = {}
    for contest in CONTESTS:
        without = score - contest_honors(a[contest])
        out[contest] = (winner_mask(without, solo) != winners).any(axis=1)
    return out


__all__ = [
    "SETUP_COLUMNS",
    "contest_honors",
    "honor_decides",
    "honor_decides_arrays",
    "run_players",
    "seat_arrays",
    "winner_mask",
]
