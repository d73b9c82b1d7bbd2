"""The Fairy Concerto solo report's figures: win rate by policy, by setup and by setup card, and
the margin over Pahha.

Each function takes a finished :class:`~fairysim.analysis.concerto.solo_study.SoloStudy` and
returns a matplotlib figure, so a notebook shows the same pictures as the report.
"""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.concerto.cards import soloist_label
from fairysim.analysis.concerto.solo_study import SoloStudy
from fairysim.analysis.plots import barh_ci, heatmap, new_figure, percent_formatter, points_ci

POLICY_COLORS = {
    "greedy": "#4c72b0",
    "lookahead": "#c44e52",
    "random": "#8c8c8c",
    "chaser": "#55a868",
    "maestro": "#8172b2",
    "denier": "#dd8452",
}
"""Line colour of each built-in policy in the margin figure."""


def solo_policy_figure(study: SoloStudy) -> Figure:
    """Win rate against Pahha per policy, with 95 % Wilson intervals.

    Parameters
    ----------
    study : SoloStudy
        A finished solo study.

    Returns
    -------
    matplotlib.figure.Figure
        Horizontal bars, best policy on top; labels give the games each bar rests on.
    """
    p = study.policies.sort_values("win_share", ascending=False)
    fig, (ax,) = new_figure(7, 0.45 * len(p) + 1.4)
    labels = [f"{r.policy} ({int(r.games):,} games)" for r in p.itertuples(index=False)]
    barh_ci(
        ax,
        labels,
        p["win_share"],
        p["low"],
        p["high"],
        xlabel="share of solo games won against Pahha (a tie is a loss)",
        title="Solo win rate by policy",
    )
    ax.set_xlim(0, 1)
    return fig


def setup_heatmap_figure(study: SoloStudy, policy: str = "greedy") -> Figure:
    """Win rate of ``policy`` by setup: soloist (rows) x pianist/harpist (columns).

    Parameters
    ----------
    study : SoloStudy
        A finished solo study.
    policy : str, default ``"greedy"``
        Which policy's win rates to show.

    Returns
    -------
    matplotlib.figure.Figure
        Annotated heatmap; darker cells are harder setups.
    """
    table = setup_pivot(study, policy)
    fig, (ax,) = new_figure(9, 3.6)
    games = int(study.setups.loc[study.setups["policy"] == policy, "games"].median())
    heatmap(
        ax,
        table,
        title=f"{policy}: solo win rate by setup (about {games:,} games per cell)",
        xlabel="pianist / harpist card",
        ylabel="soloist card",
        colorbar_label="share of games won",
        cmap="viridis",
    )
    return fig


def setup_card_figure(study: SoloStudy) -> Figure:
    """Win rate by single setup card (soloist, pianist, harpist), greedy and lookahead.

    Parameters
    ----------
    study : SoloStudy
        A finished solo study.

    Returns
    -------
    matplotlib.figure.Figure
        One row per card, one point series per policy, with 95 % Wilson intervals.
    """
    sc = study.setup_cards
    shown = [p for p in ("greedy", "lookahead") if p in set(sc["policy"])]
    base = sc[sc["policy"] == shown[0]]
    labels = [f"{c.contest} {c.card}" for c in base.itertuples(index=False)]
    series = {}
    for policy in shown:
        g = sc[sc["policy"] == policy].set_index(["contest", "card"])
        g = g.reindex(list(zip(base["contest"], base["card"], strict=True)))
        series[policy] = (g["win_share"], g["low"], g["high"])
    fig, (ax,) = new_figure(7, 0.32 * len(labels) + 1.5)
    points_ci(
        ax,
        labels,
        series,
        xlabel="share of solo games won",
        title="Solo win rate by setup card",
        reference=None,
        unit="percent",
    )
    return fig


def margin_figure(study: SoloStudy) -> Figure:
    """Distribution of your margin over Pahha (points), one line per policy.

    Parameters
    ----------
    study : SoloStudy
        A finished solo study.

    Returns
    -------
    matplotlib.figure.Figure
        Share of games at each margin; the dashed line marks a tie (a loss, C8).
    """
    fig, (ax,) = new_figure(8, 4)
    for policy, g in study.margins.groupby("policy", sort=False):
        games = int(g["games"].sum())
        ax.plot(
            g["margin"],
            g["share"],
            drawstyle="steps-mid",
            lw=1.4,
            color=POLICY_COLORS.get(str(policy)),
            label=f"{policy} ({games:,} games)",
        )
    ax.axvline(0, color="#666", ls="--", lw=1)
    ax.set_xlabel("your score minus Pahha's (points); 0 or less is a loss")
    ax.set_ylabel("share of games")
    ax.yaxis.set_major_formatter(percent_formatter(1))
    ax.set_title("Margin against Pahha")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def setup_pivot(study: SoloStudy, policy: str) -> pd.DataFrame:
    """``policy``'s win share by setup: soloist (rows) x ``"pianist / harpist"`` (columns)."""
    s = study.setups[study.setups["policy"] == policy].copy()
    s["soloist"] = s["soloist_card"].map(soloist_label)
    s["column"] = s["pianist_card"] + " / " + s["harpist_card"]
    return s.pivot(index="soloist", columns="column", values="win_share")


__all__ = [
    "POLICY_COLORS",
    "margin_figure",
    "setup_card_figure",
    "setup_heatmap_figure",
    "setup_pivot",
    "solo_policy_figure",
]
