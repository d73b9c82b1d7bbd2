"""The Fairy Concerto card-balance report's figures: score cards (completion, then holders'
lift), contest cards (how often their honor decides, then the spread they create) and the
popularity kind (seat advantage is drawn by :mod:`fairysim.analysis.report.sections`).

Each function takes a finished :class:`~fairysim.analysis.concerto.study.CardBalance` and returns
a matplotlib figure with one message, its rows sorted and its intervals drawn, so a notebook
shows the same pictures as the report.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.concerto.cards import contest_label
from fairysim.analysis.concerto.study import CardBalance
from fairysim.analysis.report.plots import barh_ci, corrected_intervals, new_figure, points_ci


def score_card_figure(balance: CardBalance) -> Figure:
    """Score cards ranked by how often their holders complete them, with 95% intervals.

    Parameters
    ----------
    balance : CardBalance
        A finished card-balance study.

    Returns
    -------
    matplotlib.figure.Figure
        Horizontal bars, most often completed on top: share of holders who complete the card
        (pooled over player counts, Wilson intervals).
    """
    s = balance.score_cards_pooled.sort_values("completion", ascending=False, kind="stable")
    labels = [f"{r.card}: {r.asks_for}" for r in s.itertuples(index=False)]
    fig, (ax,) = new_figure(8, 0.3 * len(s) + 1.6)
    barh_ci(
        ax,
        labels,
        s["completion"],
        s["completion_low"],
        s["completion_high"],
        xlabel="share of holders who complete it (%, all player counts pooled)",
        title=f"Score cards by completion rate\n{_games(balance)}",
    )
    ax.set_xlim(0, 1)
    return fig


def score_card_lift_figure(balance: CardBalance) -> Figure:
    """Score cards ranked by how much more their holders win, with corrected intervals.

    Parameters
    ----------
    balance : CardBalance
        A finished card-balance study.

    Returns
    -------
    matplotlib.figure.Figure
        One point per card, highest lift on top: holders' win share minus other seats'
        (averaged over player counts, percentage points), intervals Holm-corrected over the
        cards unless the study corrected them
        (:func:`~fairysim.analysis.report.plots.corrected_intervals`); hollow points are not
        significant.
    """
    s = balance.score_cards_pooled.sort_values("lift", ascending=False, kind="stable")
    c = corrected_intervals(s, "lift", "lift_low", "lift_high", prefix="lift_")
    labels = [f"{r.card}: {r.asks_for}" for r in s.itertuples(index=False)]
    fig, (ax,) = new_figure(8, 0.3 * len(s) + 1.8)
    points_ci(
        ax,
        labels,
        {"lift": (c["estimate"], c["low"], c["high"], c["significant"])},
        xlabel="holders' win share minus others'\n(percentage points, mean over player counts)",
        title=f"Do a score card's holders win more?\n{_games(balance)}; Holm over {len(s)} cards",
        reference_label="no lift",
    )
    return fig


def contest_figure(balance: CardBalance) -> Figure:
    """Contest cards ranked by how often their honor decides the game, per player count.

    Parameters
    ----------
    balance : CardBalance
        A finished card-balance study.

    Returns
    -------
    matplotlib.figure.Figure
        One row per contest card (highest pooled rate on top), one series per player count:
        the share of games whose winners change without that card's honor, with 95% Wilson
        intervals.
    """
    pooled = balance.contests_pooled.sort_values("decides", ascending=False, kind="stable")
    labels, decides = _contest_series(balance, pooled, "decides", "decides_low", "decides_high")
    fig, (ax,) = new_figure(8, 0.42 * len(labels) + 1.8)
    points_ci(
        ax,
        labels,
        decides,
        xlabel="share of games its honor decides (%)",
        title=f"How often a contest card's honor decides the game\n{_games(balance)}",
        reference=None,
        unit="percent",
    )
    return fig


def contest_spread_figure(balance: CardBalance) -> Figure:
    """Contest cards ranked by the spread of points they create, per player count.

    Parameters
    ----------
    balance : CardBalance
        A finished card-balance study.

    Returns
    -------
    matplotlib.figure.Figure
        One row per contest card (largest mean spread over player counts on top), one series
        per player count: mean within-game spread (highest minus lowest seat's points on the
        card), with 95% intervals.
    """
    c = balance.contests
    mean_spread = c.groupby(["contest", "card"], sort=False)["mean_spread"].mean()
    pooled = balance.contests_pooled.set_index(["contest", "card"])
    pooled = pooled.assign(order=mean_spread.reindex(pooled.index)).reset_index()
    pooled = pooled.sort_values("order", ascending=False, kind="stable")
    labels, spread = _contest_series(balance, pooled, "mean_spread", "spread_low", "spread_high")
    fig, (ax,) = new_figure(8, 0.42 * len(labels) + 1.8)
    points_ci(
        ax,
        labels,
        spread,
        xlabel="highest minus lowest seat's points on the card (points)",
        title=f"Spread of points a contest card creates\n{_games(balance)}",
        reference=None,
        unit=None,
    )
    return fig


def _contest_series(
    balance: CardBalance, pooled: pd.DataFrame, value: str, low: str, high: str
) -> tuple[list[str], dict]:
    labels = [contest_label(r.contest, r.card) for r in pooled.itertuples(index=False)]
    keys = list(zip(pooled["contest"], pooled["card"], strict=True))
    series = {}
    for n, g in balance.contests.groupby("players", sort=True):
        g = g.set_index(["contest", "card"]).reindex(keys)
        series[f"{n} players"] = (g[value], g[low], g[high])
    return labels, series


def popularity_figure(balance: CardBalance) -> Figure:
    """Win share of the popularity leader above the fair share, per player count and kind.

    Parameters
    ----------
    balance : CardBalance
        A finished card-balance study.

    Returns
    -------
    matplotlib.figure.Figure
        One row per popularity kind (``all`` included), sorted by the mean excess over player
        counts (largest on top), one series per player count: the leader's win share minus
        ``1/players``, with the study's intervals (corrected where it corrected them; hollow:
        not significant); the dashed line, labelled, is the fair share of every player count.
    """
    p = balance.popularity.assign(
        excess=lambda t: t["leader_win_share"] - t["fair"],
        excess_low=lambda t: t["leader_low"] - t["fair"],
        excess_high=lambda t: t["leader_high"] - t["fair"],
    )
    kinds = list(
        p.groupby("popularity_kind", sort=False)["excess"].mean().sort_values(ascending=False).index
    )
    series = {}
    for n, g in p.groupby("players", sort=True):
        g = g.set_index("popularity_kind").reindex(kinds)
        series[f"{n} players"] = (g["excess"], g["excess_low"], g["excess_high"])
        if "leader_significant" in g.columns:
            series[f"{n} players"] += (g["leader_significant"].fillna(False).astype(bool),)
    fig, (ax,) = new_figure(8, 0.5 * len(kinds) + 1.8)
    points_ci(
        ax,
        kinds,
        series,
        xlabel="win share of the seat with the most tokens of the kind, minus 1/players\n"
        "(percentage points)",
        title=f"Is the popularity kind worth chasing? ({_games(balance)})",
        reference=0.0,
        reference_label="fair share (1/players)",
        unit="points",
    )
    return fig


def _games(balance: CardBalance) -> str:
    return f"{balance.meta['games']:,} games per player count, {balance.meta['policy']}"


__all__ = [
    "contest_figure",
    "contest_spread_figure",
    "popularity_figure",
    "score_card_figure",
    "score_card_lift_figure",
]
