"""Seat advantage by turn order, the one way every report reads seats.

Lineup seats are exchangeable when one policy sits everywhere, so a seat's advantage is read by
its place in the turn order. Each game's rows say it their own way:

- ``"turn_position"``: the row carries it directly, 1 = the first to act, as every game's
  results rows do (ruling F1 for Fantastique's round 1, L18 for Fairy Land, C4 for Fairy
  Concerto, whose seat index is the resolution order).
- ``"start_seat"``: the row carries the seat that acts first; the turn position is ``(seat -
  start_seat) mod players``.
- ``"seat"``: the seat index is the turn order.

Inside, a turn position is an index from 0 (the first to act); a table or a file shows it from
1 (:func:`ordinal`).

Intervals are clustered by game (statsmodels OLS on position dummies with a cluster-robust
covariance; one game's positions share one win) and the test against the fair share
``1/players`` is one Holm-corrected family per player count, its intervals the corrected ones
(:mod:`fairysim.stats.corrections`).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

TURN_SOURCES = ("start_seat", "turn_position", "seat")
"""How a game's rows give a seat's turn position (see the module notes)."""


ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")
"""Turn positions as the page names them (position 0 is the 1st to act)."""


def ordinal(position: int) -> str:
    """A turn position as a word: ``0 -> "1st"``."""
    return ORDINALS[position] if 0 <= position < len(ORDINALS) else f"{position + 1}th"


def turn_positions(df: pd.DataFrame, source: str) -> np.ndarray:
    """Each row's turn position (0 = the player who moves first).

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy results with ``seat``, ``players`` and, for ``source="start_seat"`` or
        ``"turn_position"``, that column.
    source : {"start_seat", "turn_position", "seat"}
        Where the rows carry the turn order.

    Returns
    -------
    numpy.ndarray of int
    """
    from fairysim.sim.game import TurnOrder

    if source not in TURN_SOURCES:
        raise ValueError(f"source must be one of {TURN_SOURCES}, got {source!r}")
    if source != "seat" and source not in df.columns:
        raise ValueError(f"the rows have no {source!r} column to read the turn order from")
    if source == "turn_position":
        return df["turn_position"].to_numpy(np.int64) - 1
    return positions_of(
        df.drop(columns="turn_position", errors="ignore"),
        TurnOrder(start_seat="start_seat" if source == "start_seat" else None),
    )


def positions_of(df: pd.DataFrame, order: Any) -> np.ndarray:
    """Each row's turn position (0 = the seat that acts first) of a game's results rows: their
    ``turn_position`` less 1 (every game's rows carry it, counted from 1), else as the game's
    :class:`~fairysim.sim.game.TurnOrder` reads a chunk's arrays (:func:`positions_of_arrays`:
    ``(seat - start_seat) mod players``, else the seat index)."""
    seat = df["seat"].to_numpy(np.int64)
    if "turn_position" in df.columns:
        return df["turn_position"].to_numpy(np.int64) - 1
    if order.column is not None:
        return df[order.column].to_numpy(np.int64)
    if order.start_seat is not None:
        start = df[order.start_seat].to_numpy(np.int64)
        return (seat - start) % df["players"].to_numpy(np.int64)
    return seat


def positions_of_arrays(arrays: Any, order: Any, players: int) -> np.ndarray:
    """:func:`positions_of` for a run as plain arrays (``join_chunks``, a chunk of
    ``play_chunks``): each (game, seat)'s turn position, shape ``(games, players)``."""
    games = len(arrays["win_share"])
    seats = np.broadcast_to(np.arange(players, dtype=np.int64), (games, players))
    if order.column is not None:
        return np.asarray(arrays[order.column][:, :players], np.int64)
    if order.start_seat is not None:
        start = np.asarray(arrays[order.start_seat], np.int64)[:, None]
        return (seats - start) % players
    return np.array(seats)


def turn_advantage(
    df: pd.DataFrame,
    source: str,
    by: str | Sequence[str] = (),
    value: str = "win_share",
    method: str = "holm",
    alpha: float = 0.05,
    family: str = "group",
) -> pd.DataFrame:
    """Win share by turn position with game-clustered, corrected intervals.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy results, one row per game and seat, with ``game``, ``seat``, ``players``
        (inferred from the seats when absent) and the turn-order column of ``source``.
    source : {"start_seat", "turn_position", "seat"}
        See :func:`turn_positions`.
    by : str or sequence of str, default ``()``
        Columns that tell runs apart (game indices repeat between runs); player count is
        always a key.
    value : str, default "win_share"
        The win share column (ties split).
    method : {"holm", "fdr_bh"}, default "holm"
        Correction over the positions of one group.
    alpha : float, default 0.05
        Error rate of the family.
    family : {"group", "all"}, default "group"
        Correct the positions of each (``by``, players) group as one family, or every row of
        the table as one family (what a report does, so that the table it prints is one
        family whatever it shows).

    Returns
    -------
    pandas.DataFrame
        One row per (``by``, players, position): ``games``, ``win_share``, ``se`` (clustered
        by game), ``fair`` (1/players), ``advantage``, ``p_value``, ``p_adjusted``,
        ``significant``, ``level`` and the corrected interval ``low``/``high`` on the win
        share, which excludes ``fair`` exactly when ``significant``.
    """
    import statsmodels.api as sm

    from fairysim.stats.corrections import correct_family

    if family not in ("group", "all"):
        raise ValueError(f"family must be 'group' or 'all', got {family!r}")
    keys = [by] if isinstance(by, str) else list(by)
    frame = df if "players" in df.columns else df.assign(players=int(df["seat"].nunique()))
    frame = frame.assign(position=turn_positions(frame, source))
    rows = []
    for key, group in frame.groupby([*keys, "players"], observed=True, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        players = int(key[-1])
        pos = group["position"].to_numpy(np.int64)
        design = np.eye(players)[pos]
        y = group[value].to_numpy(np.float64)
        games = group["game"].to_numpy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            fit = sm.OLS(y, design).fit(cov_type="cluster", cov_kwds={"groups": games})
        counts = np.bincount(pos, minlength=players)
        fair = 1.0 / players
        part = pd.DataFrame(
            {
                "position": np.arange(players),
                "games": counts,
                "win_share": fit.params,
                "se": degenerate_se_at_null(np.asarray(fit.bse), y, pos, games, fair),
                "fair": fair,
                "advantage": fit.params - fair,
            }
        )
        for name, v in reversed(list(zip([*keys, "players"], key, strict=True))):
            part.insert(0, name, v)
        rows.append(part)
    out = pd.concat(rows, ignore_index=True)
    groups = [np.arange(len(out))] if family == "all" else _group_rows(out, [*keys, "players"])
    for index in groups:
        table = correct_family(
            out["win_share"].to_numpy()[index],
            out["se"].to_numpy()[index],
            null=out["fair"].to_numpy()[index],
            method=method,
            alpha=alpha,
        )
        for column in CORRECTED_COLUMNS:
            out.loc[index, column] = table[column].to_numpy()
    out["null"] = out["fair"]
    out["significant"] = out["significant"].astype(bool)
    return out


def degenerate_se_at_null(
    se: np.ndarray, y: np.ndarray, position: np.ndarray, games: np.ndarray, fair: float
) -> np.ndarray:
    """Standard errors with the degenerate ones replaced: a position whose every game ended
    alike (all won or all lost, which a handful of games easily does) has a clustered standard
    error of 0, and a zero-width interval would call any share "different from fair". There
    the test uses the standard error the fair share implies, ``sqrt(fair (1 - fair) / games)``
    over the position's distinct games (a score test's; a run replayed twice adds no games);
    elsewhere the clustered one stands."""
    out = np.asarray(se, dtype=np.float64).copy()
    for k in range(len(out)):
        at = position == k
        if at.any() and np.ptp(y[at]) == 0:
            out[k] = np.sqrt(fair * (1.0 - fair) / np.unique(games[at]).size)
    return out


CORRECTED_COLUMNS = ("p_value", "p_adjusted", "significant", "level", "low", "high")
"""The columns :func:`turn_advantage` takes from its corrected family."""


def _group_rows(table: pd.DataFrame, keys: list[str]) -> list[np.ndarray]:
    """Row positions of each group of ``table`` by ``keys``."""
    return [np.asarray(ix) for ix in table.groupby(keys, sort=False).indices.values()]


__all__ = [
    "ORDINALS",
    "TURN_SOURCES",
    "ordinal",
    "positions_of",
    "turn_advantage",
    "turn_positions",
]
