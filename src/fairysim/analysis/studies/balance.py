"""The balance card every report opens with, computed the same way for every game.

One screen of the questions a designer asks first: does the turn order favour anyone (by turn
position, never by lineup seat), how clearly are games won, does the early leader usually win,
and how long are games where that varies. Each number carries its interval and the games behind
it; the turn-order comparisons of the whole card are one corrected family
(:mod:`fairysim.stats.corrections`).

A study feeds the card one run at a time through :class:`BalanceRows`, which keeps only the
columns the card reads (a few per seat), so a study's memory stays flat. Runs of one study may
replay the same deals (the same seed under different fans or setups); the intervals are
therefore clustered by game: a game's rows from every run are averaged first, and the games are
the independent units.

What a game's rows must carry is declared in its spec: the turn order
(:class:`~fairysim.sim.game.TurnOrder`), the game length column where the length varies
(``GameSpec.length_column``), and a per-round trace of the running score where the engine
records one (Fantastique's ``medal_points_round_*``; Fairy Concerto's ``score_round_*``, each
seat's standing after each round, ruling PC6; Fairy Land's ``score_round_*``, after each round
of turns, ruling PL11).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from fairysim.stats.estimates import (
    GAME_COLUMN,
    count_lead_changes,
    sole_leaders,
    trace_columns,
)
from fairysim.stats.turn_order import positions_of, turn_advantage

COMEBACK_FRACTION = 1 / 3
"""The comeback rate asks about the leader after this fraction of the rounds (rounded up)."""

TRACE = "trace_round_"
"""The kept rows name a run's per-round running totals ``trace_round_1`` .. ``trace_round_N``."""


@dataclass
class BalanceRows:
    """The rows of a study's runs that its balance card reads, gathered run by run.

    Parameters
    ----------
    order : TurnOrder
        Where the rows say each seat's turn position (the game spec's ``turn_order``).
    length_column : str, optional
        Per-game length column where the length varies (``GameSpec.length_column``).
    trace_prefix : str, optional
        Prefix of the per-round running totals where the runs record them.
    """

    order: Any
    length_column: str | None = None
    trace_prefix: str | None = None
    parts: list[pd.DataFrame] = field(default_factory=list)
    labels: list[dict[str, Any]] = field(default_factory=list)

    def add(self, df: pd.DataFrame, label: dict[str, Any] | None = None) -> None:
        """Keep one run's rows (one player count; ``game``, ``seat``, ``players``,
        ``win_share``, ``score`` and the declared columns).

        Parameters
        ----------
        df : pandas.DataFrame
            The run's tidy rows, one per game and seat.
        label : dict, optional
            What tells the run apart (its fan, its court): kept with the card's example games,
            so a report can say how to replay them.
        """
        frame = df if "players" in df.columns else df.assign(players=int(df["seat"].nunique()))
        keep = {
            "players": frame["players"].to_numpy(np.int16),
            GAME_COLUMN: frame[GAME_COLUMN].to_numpy(np.int64),
            "seat": frame["seat"].to_numpy(np.int16),
            "position": positions_of(frame, self.order).astype(np.int16),
            "win_share": frame["win_share"].to_numpy(np.float32),
            "score": frame["score"].to_numpy(np.float32),
        }
        if self.length_column is not None and self.length_column in frame.columns:
            keep["length"] = frame[self.length_column].to_numpy(np.float32)
        if self.trace_prefix is not None:
            for i, column in enumerate(trace_columns(frame, self.trace_prefix), start=1):
                keep[f"{TRACE}{i}"] = frame[column].to_numpy(np.float32)
        part = pd.DataFrame(keep)
        part.insert(0, "run", len(self.parts))
        self.parts.append(part)
        self.labels.append(dict(label or {}))

    def frame(self) -> pd.DataFrame:
        """Every kept row, with a ``run`` column numbering the runs in the order added."""
        if not self.parts:
            raise ValueError("no run was added to the balance card")
        return pd.concat(self.parts, ignore_index=True)


@dataclass
class BalanceCard:
    """The balance card's tables (shares are shares of games, 0..1; margins in points).

    Attributes
    ----------
    turn_order : pandas.DataFrame
        Win share by turn position per player count (:func:`~fairysim.stats.turn_order.
        turn_advantage`, clustered by game), corrected as one family over the whole table.
    summary : pandas.DataFrame
        One row per player count: ``games``, ``runs``; ``margin`` (mean winning margin,
        points) with ``margin_low``/``margin_high`` and ``margin_median``; ``tied`` (share of
        games whose top score is tied) with its interval; with a trace ``lead_changes`` (per
        game) and ``comeback`` (share of games the sole leader after the first third of the
        rounds does not win, of ``comeback_games`` with a sole leader then, read after round
        ``comeback_round`` of the player count's own rounds), each with its interval; with a
        length column ``length`` with its interval, ``length_min`` and ``length_max``.
    method : str
        The correction of the turn-order family ("holm" or "fdr_bh").
    comparisons : int
        How many turn-order comparisons the family holds.
    alpha : float
        The turn-order family's error rate.
    examples : pandas.DataFrame
        Two games per player count worth replaying: ``kind`` ``"typical"`` (the first game
        whose winning margin is the median) and ``"widest margin"`` (the first with the largest
        margin), with ``margin`` (points), ``game`` and the label of the run it comes from.
    """

    turn_order: pd.DataFrame
    summary: pd.DataFrame
    method: str
    comparisons: int
    examples: pd.DataFrame = field(default_factory=pd.DataFrame)
    alpha: float = 0.05

    def half_width(self) -> float:
        """The widest corrected half-width of the turn-order win shares (share of games): what
        ``--precision`` watches."""
        tested = self.turn_order.dropna(subset=["p_value"])
        return float(((tested["high"] - tested["low"]) / 2).max())

    def tables(self) -> dict[str, pd.DataFrame]:
        """The card's tables by name (a report writes each as a CSV file)."""
        return {"turn_order": self.turn_order, "balance": self.summary}


def balance_card(
    rows: BalanceRows | pd.DataFrame, method: str = "holm", alpha: float = 0.05
) -> BalanceCard:
    """Compute the balance card of a study's runs.

    Parameters
    ----------
    rows : BalanceRows or pandas.DataFrame
        The gathered runs (or their :meth:`BalanceRows.frame`).
    method : {"holm", "fdr_bh"}, default "holm"
        Correction of the turn-order family.
    alpha : float, default 0.05
        Error rate of the turn-order family (lower where ``--precision`` splits it over its
        looks, :func:`fairysim.stats.precision.study_to_precision`).

    Returns
    -------
    BalanceCard
    """
    frame = rows.frame() if isinstance(rows, BalanceRows) else rows
    turn = turn_advantage(
        frame.assign(turn_position=frame["position"] + 1),
        "turn_position",
        method=method,
        alpha=alpha,
        family="all",
    )
    labels = rows.labels if isinstance(rows, BalanceRows) else []
    summary, examples = [], []
    for players, group in frame.groupby("players", sort=True):
        per_game = _per_game(int(players), group)
        summary.append(_summary_row(int(players), per_game))
        examples += _examples(int(players), per_game, labels)
    return BalanceCard(
        turn,
        pd.DataFrame(summary),
        method,
        int(turn["p_value"].notna().sum()),
        pd.DataFrame(examples),
        alpha,
    )


def _per_game(players: int, group: pd.DataFrame) -> pd.DataFrame:
    """One row per (run, game) of one player count: ``margin`` and ``tied`` from the scores,
    ``length``, and ``lead_changes`` and ``comeback`` where the runs carry per-round totals."""
    ordered = group.sort_values(["run", GAME_COLUMN, "seat"], kind="stable")
    score = ordered["score"].to_numpy(np.float64).reshape(-1, players)
    top = np.sort(score, axis=1)
    per_game = pd.DataFrame(
        {
            "run": ordered["run"].to_numpy(np.int64)[::players],
            GAME_COLUMN: ordered[GAME_COLUMN].to_numpy(np.int64)[::players],
            "margin": top[:, -1] - top[:, -2],
            "tied": (top[:, -1] == top[:, -2]).astype(np.float64),
        }
    )
    if "length" in ordered.columns:
        per_game["length"] = ordered["length"].to_numpy(np.float64)[::players]
    traces = trace_columns(ordered, TRACE)
    if traces:
        values = ordered[traces].to_numpy(np.float64).reshape(-1, players, len(traces))
        win = ordered["win_share"].to_numpy(np.float64).reshape(-1, players)
        per_game["lead_changes"], per_game["comeback"] = _leads(values, win)
        rounds = (~np.isnan(values[:, 0, :])).sum(axis=1)
        per_game["comeback_round"] = [comeback_round(int(r)) for r in rounds]
    return per_game


def _examples(
    players: int, per_game: pd.DataFrame, labels: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """A typical game (the first whose margin is the median) and the widest-margin game."""
    margin = per_game["margin"].to_numpy()
    picks = {
        "typical": int(np.argmin(np.abs(margin - np.median(margin)))),
        "widest margin": int(np.argmax(margin)),
    }
    rows = []
    for kind, i in picks.items():
        run = int(per_game["run"].iloc[i])
        rows.append(
            {
                "players": players,
                "kind": kind,
                "margin": float(margin[i]),
                GAME_COLUMN: int(per_game[GAME_COLUMN].iloc[i]),
                **(labels[run] if run < len(labels) else {}),
            }
        )
    return rows


def _summary_row(players: int, per_game: pd.DataFrame) -> dict[str, Any]:
    """The card's row for one player count: per-game values averaged over runs, then
    summarised over games (the independent units)."""
    by_game = per_game.drop(columns="run").groupby(GAME_COLUMN, sort=False).mean()
    runs = int(per_game["run"].nunique())
    row: dict[str, Any] = {"players": players, "games": len(by_game), "runs": runs}
    row.update(_mean_interval("margin", by_game["margin"]))
    row["margin_median"] = float(np.median(per_game["margin"]))
    row.update(_mean_interval("tied", by_game["tied"], upper=1.0))
    if "lead_changes" in by_game.columns:
        row.update(_mean_interval("lead_changes", by_game["lead_changes"]))
        led = by_game["comeback"].dropna()
        row.update(_mean_interval("comeback", led, upper=1.0))
        row["comeback_games"] = len(led)
        read = by_game["comeback_round"].unique()
        row["comeback_round"] = int(read[0]) if len(read) == 1 else math.nan
    if "length" in by_game.columns:
        row.update(_mean_interval("length", by_game["length"]))
        row["length_min"] = float(per_game["length"].min())
        row["length_max"] = float(per_game["length"].max())
    return row


def _leads(values: np.ndarray, win: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per game: lead changes over its rounds (:func:`fairysim.stats.estimates.lead_changes`),
    and whether the sole leader after the first third of them ends without a win (nan where
    the lead is shared then).

    Each game reads its own rounds: the rounds whose totals are recorded (not nan). Runs of
    different player counts record different numbers of rounds (Fairy Concerto 4 at two
    players, 2 at three and four, ruling PC6; Fairy Land 18, 12 and 9, ruling PL11), and a
    card's kept rows pad the shorter runs with empty rounds, which are never read."""
    rounds = (~np.isnan(values[:, 0, :])).sum(axis=1)
    changes = np.zeros(len(values), np.float64)
    comeback = np.full(len(values), np.nan)
    for count in np.unique(rounds[rounds > 0]):
        games = rounds == count
        leader, sole = sole_leaders(values[games, :, :count])
        early = comeback_round(int(count)) - 1
        lead_win = win[games][np.arange(int(games.sum())), leader[:, early]]
        comeback[games] = np.where(sole[:, early], (lead_win == 0).astype(np.float64), np.nan)
        changes[games] = count_lead_changes(leader, sole)
    return changes, comeback


def comeback_round(rounds: int) -> int:
    """The round (numbered from 1) after which the comeback rate reads the leader: the end of
    the first third of a game's ``rounds``, rounded up."""
    return max(1, math.ceil(rounds * COMEBACK_FRACTION))


def _mean_interval(name: str, values: pd.Series, upper: float | None = None) -> dict[str, float]:
    """Mean of independent per-game values with its 95% t interval (statsmodels), cut to the
    values' range (none is negative; shares at most ``upper`` = 1): the cut interval covers the
    mean whenever the whole one does, and a run of a few games no longer prints a margin or a
    share past what a game can have."""
    from statsmodels.stats.weightstats import DescrStatsW

    data = values.to_numpy(np.float64)
    if len(data) < 2:
        mean = float(data.mean()) if len(data) else math.nan
        return {name: mean, f"{name}_low": math.nan, f"{name}_high": math.nan}
    stats = DescrStatsW(data)
    low, high = stats.tconfint_mean(alpha=0.05) if stats.std > 0 else (stats.mean, stats.mean)
    low, high = max(float(low), 0.0), float(high) if upper is None else min(float(high), upper)
    return {name: float(stats.mean), f"{name}_low": low, f"{name}_high": high}


__all__ = ["COMEBACK_FRACTION", "BalanceCard", "BalanceRows", "balance_card", "comeback_round"]
