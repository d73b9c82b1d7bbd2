"""One Fantastique run's tidy rows as the study keeps them: per-game finale outcomes, and the
rows one run adds to each table of :class:`~fairysim.analysis.fantastique.study.FanStrength`.

A game is *decided by the Grande Finale* when the set of seats with ``rank == 1`` (on the final
score) differs from the set with ``pre_finale_rank == 1`` (on medal points alone, before the two
Grande Finale medals are added).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from fairysim.stats.estimates import game_blocks, wilson_interval


@dataclass(frozen=True)
class Lineup:
    """Who sits where: one policy at seat 0, another at every other seat.

    Attributes
    ----------
    name : str
        Label used in tables and figures (``"hoarder at seat 0"``).
    seat0 : str
        Policy at seat 0 (a built-in name or ``module:function``).
    others : str
        Policy at seats 1..players-1.
    """

    name: str
    seat0: str
    others: str = "greedy"

    def policies(self, players: int) -> list[str]:
        """One policy per seat.

        Parameters
        ----------
        players : int
            Player count.

        Returns
        -------
        list of str
            ``[seat0, others, others, ...]``, ``players`` long.
        """
        return [self.seat0] + [self.others] * (players - 1)


def decided(rank: np.ndarray, pre_finale_rank: np.ndarray) -> np.ndarray:
    """Per game (rows of ``(games, players)`` arrays): whether the set of seats with ``rank ==
    1`` differs from the set with ``pre_finale_rank == 1`` (the Grande Finale changed who won)."""
    return ((rank == 1) != (pre_finale_rank == 1)).any(axis=1)


def finale_decides(df: pd.DataFrame, by: str | Sequence[str] = ()) -> pd.DataFrame:
    """Per game: did the Grande Finale medals change who wins?

    Parameters
    ----------
    df : pandas.DataFrame
        Fantastique tidy results (``rank`` and ``pre_finale_rank`` columns).
    by : str or sequence of str, default ``()``
        Columns that tell runs apart (e.g. ``"fan"``); player count is always a key.

    Returns
    -------
    pandas.DataFrame
        One row per game: the ``by`` columns, ``players``, ``game`` and ``decides`` (True when
        the set of seats with ``rank == 1`` differs from the set with ``pre_finale_rank == 1``).
    """
    parts = []
    keys: list[str] = []
    for key, games_idx, values in game_blocks(df, ["rank", "pre_finale_rank"], by):
        keys = list(key)
        decides = decided(values[:, :, 0], values[:, :, 1])
        parts.append(pd.DataFrame({**key, "game": games_idx, "decides": decides}))
    if not parts:
        return pd.DataFrame(columns=[*keys, "game", "decides"])
    return pd.concat(parts, ignore_index=True)


RUN_COLUMNS = ("rank", "pre_finale_rank", "win_share", "finale_count", "finale_points", "score")
"""Per-seat columns :func:`summarise_run` reads from a run."""


@dataclass
class RunSummary:
    """The rows one run contributes to each table, and seat 0's win share per game."""

    cell: dict[str, Any]
    counts: pd.DataFrame
    seat_finale: pd.DataFrame
    seat0: pd.Series
    decides: pd.Series


def summarise_run(df: pd.DataFrame, key: dict[str, Any], lineup: Lineup) -> RunSummary:
    """Everything the study needs from one run, in one numpy pass (pandas groupbys per run were
    the slowest part of the analysis).

    Parameters
    ----------
    df : pandas.DataFrame
        One run's tidy rows (one fan, one player count, one lineup).
    key : dict
        ``fan``, ``players`` and ``lineup`` of the run, copied into every row.
    lineup : Lineup
        Who sat where.

    Returns
    -------
    RunSummary
    """
    ((_, games_idx, values),) = list(game_blocks(df, RUN_COLUMNS))
    rank, pre, win, finale, finale_points, score = (
        values[:, :, i] for i in range(len(RUN_COLUMNS))
    )
    n, players = rank.shape
    decides = decided(rank, pre)
    d_low, d_high = wilson_interval(decides.sum(), n)
    w_low, w_high = wilson_interval(win[:, 0].sum(), n)
    ordered = np.sort(score, axis=1)
    cell = {
        **key,
        "seat0_policy": lineup.seat0,
        "others_policy": lineup.others,
        "games": n,
        "finale_count": float(finale.mean()),
        "finale_count_seat0": float(finale[:, 0].mean()),
        "finale_decides": float(decides.mean()),
        "decides_low": float(d_low),
        "decides_high": float(d_high),
        "seat0_win_share": float(win[:, 0].mean()),
        "seat0_low": float(w_low),
        "seat0_high": float(w_high),
        "mean_margin": float((ordered[:, -1] - ordered[:, -2]).mean()),
    }
    tally = np.bincount(finale.astype(np.int64).ravel())
    held = np.flatnonzero(tally)
    counts = pd.DataFrame(
        {**key, "finale_count": held, "seats": tally[held], "share": tally[held] / tally.sum()}
    )
    seat_finale = pd.DataFrame(
        {
            **key,
            "seat": np.arange(players),
            "policy": lineup.policies(players),
            "finale_count": finale.mean(axis=0),
            "finale_points": finale_points.mean(axis=0),
            "win_share": win.mean(axis=0),
        }
    )
    return RunSummary(
        cell,
        counts,
        seat_finale,
        pd.Series(win[:, 0], index=games_idx),
        pd.Series(decides.astype(np.float64), index=games_idx),
    )


__all__ = ["RUN_COLUMNS", "RunSummary", "decided", "finale_decides", "summarise_run"]
