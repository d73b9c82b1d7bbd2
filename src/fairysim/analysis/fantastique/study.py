"""Fantastique: how strong is each Grande Finale fan?

For every Grande Finale fan (I..VI) and player count (2..5) this module plays a few lineups with
:func:`fairysim.sim.fantastique.simulate` and measures:

* how many cards the finale counts (mean per seat and the distribution, in cards);
* how often the Grande Finale medals change who wins: the share of games whose set of winners on
  the final score differs from the set of winners on medal points alone (``rank == 1`` against
  ``pre_finale_rank == 1``);
* how much a fan-aware policy gains over greedy at seat 0, paired on identical deals;
* the balance card (:mod:`fairysim.analysis.studies.balance`) of the baseline lineup over every fan:
  seat advantage by round-1 turn position (ruling F1), winning margins, comebacks and lead
  changes from the per-round medal totals.

Every family of comparisons is corrected (Holm, :mod:`fairysim.stats.corrections`): the fans'
pairwise strength differences, the per-player-count gains, the gains averaged over player counts,
and the turn-order positions.

Every run uses the same seed, so the deal of game ``i`` is the same in every lineup and every fan
(common random numbers): lineups are compared game by game, which removes the luck of the deal
from the comparison.

Strength
--------
The *strength* of a fan is the share of games the Grande Finale decides (the winners change
when the finale medals are added), with every seat playing the first lineup (all greedy by
default), averaged with equal weight over the player counts analysed. It runs from 0 (the
finale never changes who wins) to 1 (it always does). The fan-aware gain is reported beside it:
the win share a seat gains by playing for the fan.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fairysim import __version__
from fairysim.analysis.fantastique.runs import Lineup, summarise_run
from fairysim.analysis.studies.balance import BalanceCard, BalanceRows, balance_card
from fairysim.analysis.studies.base import ProgressTracker, check_player_counts, load_card_set
from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.sim.batch import Progress, check_games
from fairysim.sim.fantastique import FANS, FantastiqueCards, load_cards, simulate
from fairysim.sim.fantastique.cards import DEFAULT_CARDS
from fairysim.sim.fantastique.rules import FAN_DESCRIPTIONS, MAX_PLAYERS, MIN_PLAYERS, fan_index
from fairysim.sim.fantastique.spec import SPEC
from fairysim.stats.corrections import with_correction
from fairysim.stats.estimates import Z_95, paired_difference
from fairysim.stats.ranking import ranked_groups

PLAYER_COUNTS = (2, 3, 4, 5)
"""Player counts analysed by default."""


BASELINE = Lineup("all greedy", "greedy", "greedy")
"""Reference lineup: strength is measured on it, gains are paired against it."""


def report_lineups(policy: str = "greedy") -> tuple[Lineup, ...]:
    """The report's lineups around one policy: all ``policy`` (the baseline), all hoarder, and
    one fan-aware seat (hoarder, then balancer) among ``policy`` players.

    Parameters
    ----------
    policy : str, default "greedy"
        The policy of the baseline and of the seats around the fan-aware one (a built-in name
        or ``module:function``).

    Returns
    -------
    tuple of Lineup
    """
    lineups = [Lineup(f"all {policy}", policy, policy)]
    lineups += [
        Lineup(f"all {fan_aware}", fan_aware, fan_aware)
        for fan_aware in ("hoarder",)
        if fan_aware != policy
    ]
    lineups += [
        Lineup(f"{fan_aware} at seat 0", fan_aware, policy)
        for fan_aware in ("hoarder", "balancer")
        if fan_aware != policy
    ]
    return tuple(lineups)


DEFAULT_LINEUPS = report_lineups()
"""All greedy; all hoarder; one fan-aware seat (hoarder, then balancer) among greedy players."""


@dataclass
class FanStrength:
    """Tables of a :func:`fan_strength` analysis (all shares are shares of games, 0..1).

    Attributes
    ----------
    cells : pandas.DataFrame
        One row per (fan, players, lineup): ``games``; ``finale_count`` (mean cards counted per
        seat) and ``finale_count_seat0``; ``finale_decides`` (share of games whose winners change
        with the finale medals) with Wilson ``decides_low``/``decides_high``; seat 0's
        ``seat0_win_share`` with ``seat0_low``/``seat0_high``; ``mean_margin`` (points between
        winner and runner-up).
    finale_counts : pandas.DataFrame
        Distribution of cards counted: one row per (fan, players, lineup, finale_count) with
        ``seats`` (seat-games) and ``share`` (of seat-games).
    seat_finale : pandas.DataFrame
        Per (fan, players, lineup, seat): ``policy``, mean ``finale_count`` (cards),
        ``finale_points`` and ``win_share``.
    gains : pandas.DataFrame
        Fan-aware gain at seat 0 per (fan, players, lineup): ``policy`` at seat 0,
        ``win_share`` with it, ``baseline_win_share`` with the baseline policy on the same deals,
        ``gain`` (difference, share of games), ``se``, ``low``, ``high``, ``n``, ``significant``.
    fan_gains : pandas.DataFrame
        The gain averaged over player counts, per (fan, lineup): ``gain``, ``se``, ``low``,
        ``high``, ``significant``.
    balance : BalanceCard
        The baseline lineup's balance card over every fan and player count: turn order by
        round-1 turn position (F1), margins, comebacks (:mod:`fairysim.analysis.studies.balance`).
    ranking : pandas.DataFrame
        One row per fan, strongest first: ``rank``, ``group`` (1 for the top group: the fans
        the corrected pairwise tests do not separate from the leader, and so on),
        ``fan``, ``description``, ``strength`` with ``strength_low``/``strength_high`` (95%),
        ``finale_count`` (mean cards counted per seat, baseline) and, per gain lineup,
        ``gain_<policy>`` with ``_low``, ``_high`` and ``_significant`` (corrected over the
        averaged gains).
    fan_differences : pandas.DataFrame
        Every pair of fans, the stronger first: ``stronger``, ``weaker``, ``difference`` in
        strength (share of games) with ``se``, ``p_value``, ``p_adjusted``, the corrected
        ``low``/``high`` and ``significant`` (Holm over all pairs), paired on identical deals
        (the baseline lineup plays every fan on the same deals).
    meta : dict
        ``games`` per cell, ``seed``, ``players``, ``fans``, ``lineups``, ``baseline``,
        ``package_version``, and ``cards`` (the card file) when it is not the rulebook's.
    """

    cells: pd.DataFrame
    finale_counts: pd.DataFrame
    seat_finale: pd.DataFrame
    gains: pd.DataFrame
    fan_gains: pd.DataFrame
    balance: BalanceCard
    ranking: pd.DataFrame
    fan_differences: pd.DataFrame
    meta: dict[str, Any] = field(default_factory=dict)

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by name.

        Returns
        -------
        dict of str to pandas.DataFrame
            The tables in report order (the report writes each as a CSV file).
        """
        return {
            "ranking": self.ranking,
            "fan_differences": self.fan_differences,
            "cells": self.cells,
            "finale_counts": self.finale_counts,
            "seat_finale": self.seat_finale,
            "gains": self.gains,
            "fan_gains": self.fan_gains,
            **self.balance.tables(),
        }


def fan_strength(
    games: int,
    seed: int,
    players: Sequence[int] = PLAYER_COUNTS,
    fans: Sequence[str] = FANS,
    lineups: Sequence[Lineup] | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    cards: str | Path | FantastiqueCards | None = None,
    alpha: float = 0.05,
) -> FanStrength:
    """Measure how much each Grande Finale fan decides games, and what playing for it gains.

    Strength of a fan = share of games the Grande Finale decides (the set of winners on final
    score differs from the set of winners on medal points alone), with every seat playing the
    first lineup (all greedy by default), averaged with equal weight over ``players``. Its
    95% interval is the normal interval of that average of independent proportions.

    Parameters
    ----------
    games : int
        Games per (fan, player count, lineup) cell.
    seed : int
        Seed shared by every run, so all lineups and fans play identical deals game by game.
    players : sequence of int, default (2, 3, 4, 5)
        Player counts to analyse.
    fans : sequence of str, default all six
        Grande Finale fans, ``"I"`` .. ``"VI"``.
    lineups : sequence of Lineup, optional
        Lineups to play, default :data:`DEFAULT_LINEUPS`. The first is the baseline: strength
        and seat advantage are measured on it, and every other lineup that differs from it only
        at seat 0 gets a paired gain against it.
    threads : int, optional
        numba threads (all by default); never changes the results.
    progress : callable, optional
        ``progress(games_done, games_total)`` over the whole analysis.
    cards : path or FantastiqueCards, optional
        Card file (deck and medal rows) every run plays; the rulebook's by default.
    alpha : float, default 0.05
        Error rate of the balance card's turn-order family (``--precision`` lowers it).

    Returns
    -------
    FanStrength
        The tables described in :class:`FanStrength`.

    Examples
    --------
    >>> fs = fan_strength(games=200, seed=1, players=(3,), fans=("I", "II"))
    >>> sorted(fs.ranking.fan)
    ['I', 'II']
    """
    games = check_games(games)
    players = check_player_counts(players, MIN_PLAYERS, MAX_PLAYERS)
    fans = _check_fans(fans)
    lineups = tuple(DEFAULT_LINEUPS if lineups is None else lineups)
    if not lineups:
        raise FairysimError("lineups", "give at least one lineup")
    if len({lineup.name for lineup in lineups}) != len(lineups):
        raise FairysimError("lineups", "lineup names must be distinct")
    baseline = lineups[0]
    paired = [
        lineup
        for lineup in lineups[1:]
        if lineup.others == baseline.others and lineup.seat0 != baseline.seat0
    ]
    card_file = load_card_set(cards, FantastiqueCards, load_cards)
    tracker = ProgressTracker(progress, games * len(fans) * len(players) * len(lineups))
    cells, counts, seat_rows, gain_rows = [], [], [], []
    balance_rows = BalanceRows(SPEC.turn_order, trace_prefix=SPEC.trace_prefix)
    decided: dict[tuple[str, int], pd.Series] = {}  # baseline: did the finale decide game i?
    for fan in fans:
        for n_players in players:
            seat0: dict[str, pd.Series] = {}
            for lineup in lineups:
                df = simulate(
                    players=n_players,
                    fan=fan,
                    policies=lineup.policies(n_players),
                    games=games,
                    seed=seed,
                    threads=threads,
                    progress=tracker.run(),
                    cards=card_file,
                    trace=lineup is baseline,
                )
                tracker.done(games)
                key = {"fan": fan, "players": n_players, "lineup": lineup.name}
                run = summarise_run(df, key, lineup)
                cells.append(run.cell)
                counts.append(run.counts)
                seat_rows.append(run.seat_finale)
                seat0[lineup.name] = run.seat0
                if lineup is baseline:
                    balance_rows.add(df, {"fan": fan})
                    decided[(fan, n_players)] = run.decides
                del df  # keep memory flat: one run's rows at a time
            for lineup in paired:
                diff = paired_difference(seat0[lineup.name], seat0[baseline.name])
                gain_rows.append(
                    {
                        "fan": fan,
                        "players": n_players,
                        "lineup": lineup.name,
                        "policy": lineup.seat0,
                        "win_share": float(seat0[lineup.name].mean()),
                        "baseline_win_share": float(seat0[baseline.name].mean()),
                        "gain": diff.mean,
                        "se": diff.se,
                        "low": diff.low,
                        "high": diff.high,
                        "n": diff.n,
                    }
                )
    cells_df = pd.DataFrame(cells)
    gains = with_correction(pd.DataFrame(gain_rows, columns=_GAIN_COLUMNS), "gain")
    fan_gains = _fan_gains(gains)
    ranking = _ranking(cells_df, fan_gains, baseline, paired)
    fan_differences = _fan_differences(ranking, decided, players)
    ranking = _with_groups(ranking, fan_differences)

    meta = {
        "games": games,
        "seed": seed,
        "players": list(players),
        "fans": list(fans),
        "lineups": [{"name": lu.name, "seat0": lu.seat0, "others": lu.others} for lu in lineups],
        "baseline": baseline.name,
        "package_version": __version__,
    }
    if Path(card_file.source) != DEFAULT_CARDS:
        meta["cards"] = card_file.source
    return FanStrength(
        cells=cells_df,
        finale_counts=pd.concat(counts, ignore_index=True),
        seat_finale=pd.concat(seat_rows, ignore_index=True),
        gains=gains,
        fan_gains=fan_gains,
        balance=balance_card(balance_rows, alpha=alpha),
        ranking=ranking,
        fan_differences=fan_differences,
        meta=meta,
    )


# --------------------------------------------------------------------------------------------
# Combining runs


_GAIN_COLUMNS = [
    "fan",
    "players",
    "lineup",
    "policy",
    "win_share",
    "baseline_win_share",
    "gain",
    "se",
    "n",
]
"""Columns of a gain row before its family is corrected (``with_correction`` adds the rest)."""


def _fan_gains(gains: pd.DataFrame) -> pd.DataFrame:
    """Average the per-player-count gains of each (fan, lineup), then correct them as one
    family; runs are independent, so the standard error of the mean is sqrt(sum se^2) / k."""
    rows = []
    for (fan, lineup), group in gains.groupby(["fan", "lineup"], sort=False):
        k = len(group)
        rows.append(
            {
                "fan": fan,
                "lineup": lineup,
                "policy": group["policy"].iloc[0],
                "gain": float(group["gain"].mean()),
                "se": float(math.sqrt(np.sum(np.square(group["se"].to_numpy(np.float64)))) / k),
            }
        )
    table = pd.DataFrame(rows, columns=["fan", "lineup", "policy", "gain", "se"])
    return with_correction(table, "gain")


def _ranking(
    cells: pd.DataFrame, fan_gains: pd.DataFrame, baseline: Lineup, paired: Sequence[Lineup]
) -> pd.DataFrame:
    """One row per fan, strongest first (see the module docstring for "strength")."""
    base = cells[cells["lineup"] == baseline.name]
    rows = []
    for fan, group in base.groupby("fan", sort=False):
        p = group["finale_decides"].to_numpy(np.float64)
        n = group["games"].to_numpy(np.float64)
        k = len(group)
        strength = float(p.mean())
        # Average of k independent proportions: variance sum p(1-p)/n over k^2.
        se = float(math.sqrt(np.sum(p * (1.0 - p) / n)) / k)
        row: dict[str, Any] = {
            "fan": fan,
            "description": FAN_DESCRIPTIONS.get(str(fan), ""),
            "strength": strength,
            "strength_low": max(0.0, strength - Z_95 * se),
            "strength_high": min(1.0, strength + Z_95 * se),
            "finale_count": float(group["finale_count"].mean()),
        }
        for lineup in paired:
            tag = gain_column(lineup)
            match = fan_gains[(fan_gains["fan"] == fan) & (fan_gains["lineup"] == lineup.name)]
            if match.empty:
                continue
            g = match.iloc[0]
            row[tag] = g["gain"]
            row[f"{tag}_low"] = g["low"]
            row[f"{tag}_high"] = g["high"]
            row[f"{tag}_significant"] = bool(g["significant"])
        rows.append(row)
    ranking = pd.DataFrame(rows).sort_values("strength", ascending=False, kind="stable")
    ranking.insert(0, "rank", np.arange(1, len(ranking) + 1))
    return ranking.reset_index(drop=True)


def _fan_differences(
    ranking: pd.DataFrame, decided: dict[tuple[str, int], pd.Series], players: Sequence[int]
) -> pd.DataFrame:
    """Strength of every pair of fans, the stronger first, paired game by game per player
    count, then averaged over player counts like the strength itself (runs of different player
    counts are independent, so the standard errors add in quadrature); one Holm family."""
    rows = []
    fans = list(ranking["fan"])
    for i, stronger in enumerate(fans):
        for weaker in fans[i + 1 :]:
            diffs = [paired_difference(decided[stronger, p], decided[weaker, p]) for p in players]
            k = len(diffs)
            rows.append(
                {
                    "stronger": stronger,
                    "weaker": weaker,
                    "difference": float(np.mean([d.mean for d in diffs])),
                    "se": float(math.sqrt(sum(d.se**2 for d in diffs)) / k),
                }
            )
    table = pd.DataFrame(rows, columns=["stronger", "weaker", "difference", "se"])
    return with_correction(table, "difference")


def _with_groups(ranking: pd.DataFrame, differences: pd.DataFrame) -> pd.DataFrame:
    """The ranking with each fan's tied group (1 = the top group), from the corrected pairs."""
    pairs = differences.rename(columns={"stronger": "a", "weaker": "b"})
    estimates = dict(zip(ranking["fan"], ranking["strength"], strict=True))
    group_of = {
        fan: g for g, members in enumerate(ranked_groups(estimates, pairs), 1) for fan in members
    }
    out = ranking.copy()
    out.insert(1, "group", out["fan"].map(group_of).astype(int))
    return out


def baseline_table(strength: FanStrength, column: str) -> pd.DataFrame:
    """One column of the baseline lineup's cells as a fan x player-count table.

    Parameters
    ----------
    strength : FanStrength
        A finished study.
    column : str
        A column of :attr:`FanStrength.cells` (e.g. ``"finale_decides"``).

    Returns
    -------
    pandas.DataFrame
        Fans in ranking order (rows) by player count (columns).
    """
    cells = strength.cells
    base = cells[cells["lineup"] == strength.meta["baseline"]]
    table = base.pivot(index="fan", columns="players", values=column)
    return table.reindex(list(strength.ranking["fan"]))


def gain_column(lineup: Lineup) -> str:
    """Ranking column holding ``lineup``'s gain: ``gain_<seat-0 policy>`` (e.g. ``gain_hoarder``).

    Parameters
    ----------
    lineup : Lineup
        A lineup paired against the baseline.

    Returns
    -------
    str
        Column name (non-identifier characters replaced by ``_``).
    """
    return "gain_" + re.sub(r"\W+", "_", lineup.seat0).strip("_")


def _check_fans(fans: Sequence[str]) -> tuple[str, ...]:
    try:
        values = tuple(FANS[fan_index(f)] for f in fans)
    except ValueError as exc:
        raise ParameterError("fan", str(exc)) from None
    if not values:
        raise ParameterError("fan", "give at least one Grande Finale fan")
    return tuple(dict.fromkeys(values))


__all__ = [
    "BASELINE",
    "DEFAULT_LINEUPS",
    "PLAYER_COUNTS",
    "FanStrength",
    "Lineup",
    "baseline_table",
    "fan_strength",
    "gain_column",
    "report_lineups",
]
