"""The Fairy Concerto card-balance report's figures: score cards, contest cards, the popularity
kind and seat advantage.

Each function takes a finished :class:`~fairysim.analysis.concerto.study.CardBalance` and returns
a matplotlib figure, so a notebook shows the same pictures as the report.
"""

from __future__ import annotations

from matplotlib.figure import Figure

from fairysim.analysis.concerto.cards import contest_label
from fairysim.analysis.concerto.study import CardBalance
from fairysim.analysis.plots import barh_ci, new_figure, points_ci


def score_card_figure(balance: CardBalance) -> Figure:
    """Score cards: completion rate and the win lift of their holders, with 95 % intervals.

    Parameters
    ----------
    balance : CardBalance
        A finished card-balance study.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels, cards in file order top to bottom: share of holders who complete the card
        (pooled over player counts), and holders' win share minus other seats' (averaged over
        player counts, percentage points).
    """
    s = balance.score_cards_pooled
    labels = [f"{r.card}: {r.asks_for}" for r in s.itertuples(index=False)]
    fig, axes = new_figure(12, 0.3 * len(s) + 1.6, ncols=2)
    barh_ci(
        axes[0],
        labels,
        s["completion"],
        s["completion_low"],
        s["completion_high"],
        xlabel="share of holders who complete it",
        title="Completion rate",
    )
    axes[0].set_xlim(0, 1)
    points_ci(
        axes[1],
        [""] * len(s),
        {"lift": (s["lift"], s["lift_low"], s["lift_high"])},
        xlabel="holders' win share minus others' (percentage points)",
        title="Do its holders win more?",
    )
    return fig


def contest_figure(balance: CardBalance) -> Figure:
    """Contest cards: the spread of points they create and how often their honor decides.

    Parameters
    ----------
    balance : CardBalance
        A finished card-balance study.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels, one row per contest card and one series per player count: mean within-game
        spread (highest minus lowest seat's points on the card) and the share of games whose
        winners change without that card's honor, with 95 % intervals.
    """
    c = balance.contests
    pooled = balance.contests_pooled
    labels = [contest_label(r.contest, r.card) for r in pooled.itertuples(index=False)]
    keys = list(zip(pooled["contest"], pooled["card"], strict=True))
    spread, decides = {}, {}
    for n, g in c.groupby("players", sort=True):
        g = g.set_index(["contest", "card"]).reindex(keys)
        spread[f"{n} players"] = (g["mean_spread"], g["spread_low"], g["spread_high"])
        decides[f"{n} players"] = (g["decides"], g["decides_low"], g["decides_high"])
    fig, axes = new_figure(12, 0.42 * len(labels) + 1.6, ncols=2)
    points_ci(
        axes[0],
        labels,
        spread,
        xlabel="highest minus lowest seat's points on the card (points)",
        title="Spread the card creates",
        reference=None,
        unit=None,
    )
    points_ci(
        axes[1],
        [""] * len(labels),
        decides,
        xlabel="share of games its honor decides",
        title="How often its honor decides the game",
        reference=None,
        unit="percent",
    )
    return fig


def popularity_figure(balance: CardBalance) -> Figure:
    """Win share of the popularity leader against the fair share, per player count and kind.

    Parameters
    ----------
    balance : CardBalance
        A finished card-balance study.

    Returns
    -------
    matplotlib.figure.Figure
        One row per popularity kind (``all`` first), one series per player count, with 95 %
        Wilson intervals; short dashes mark each player count's fair share.
    """
    p = balance.popularity
    kinds = list(dict.fromkeys(p["popularity_kind"]))
    series = {}
    for n, g in p.groupby("players", sort=True):
        g = g.set_index("popularity_kind").reindex(kinds)
        series[f"{n} players"] = (g["leader_win_share"], g["leader_low"], g["leader_high"])
    fig, (ax,) = new_figure(7, 0.5 * len(kinds) + 1.6)
    points_ci(
        ax,
        kinds,
        series,
        xlabel="win share of the seat with the most tokens of the popularity kind",
        title="Is the popularity kind worth chasing?",
        reference=None,
        unit="percent",
    )
    for n in sorted(p["players"].unique()):
        ax.axvline(1.0 / n, color="#999", ls=":", lw=1)
    return fig


__all__ = ["contest_figure", "popularity_figure", "score_card_figure"]
