"""The Fairy Concerto solo report's figures: win rate by policy, by setup (against the policy's
win rate over all setups) and by setup card, and the margin over Pahha as one cumulative
distribution per policy.

Each function takes a finished :class:`~fairysim.analysis.concerto.solo_study.SoloStudy` and
returns a matplotlib figure, so a notebook shows the same pictures as the report.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.concerto.cards import soloist_label
from fairysim.analysis.concerto.solo_study import SoloStudy
from fairysim.analysis.report.plots import (
    barh_ci,
    cumulative_shares,
    facing_ses,
    mean_reference,
    new_figure,
    percent_formatter,
    points_ci,
    reference_heatmap,
    step_cdf,
)

POLICY_COLORS = {
    "greedy": "#4c72b0",
    "lookahead": "#c44e52",
    "random": "#8c8c8c",
    "chaser": "#55a868",
    "maestro": "#8172b2",
    "denier": "#dd8452",
    "rollout": "#937860",
}
"""Line colour of each built-in policy in the margin figure."""


def solo_policy_figure(study: SoloStudy) -> Figure:
    """Win rate against Pahha per policy, with 95% Wilson intervals.

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
    """Win rate of ``policy`` by setup, soloist (rows) x pianist/harpist (columns), against
    its win rate over all setups.

    Parameters
    ----------
    study : SoloStudy
        A finished solo study.
    policy : str, default ``"greedy"``
        Which policy's win rates to show.

    Returns
    -------
    matplotlib.figure.Figure
        Heatmap coloured by each setup's win rate minus the policy's rate over all setups
        (centred on 0, blue harder, red easier); every cell prints its win rate and interval
        half-width; the setups that differ from the overall rate after Holm correction over
        all setups are outlined.
    """
    table = setup_pivot(study, policy)
    games = setup_pivot(study, policy, "games").reindex_like(table)
    low = setup_pivot(study, policy, "low").reindex_like(table)
    high = setup_pivot(study, policy, "high").reindex_like(table)
    weights = games.to_numpy().ravel()
    overall, _ = mean_reference(table.to_numpy().ravel(), np.ones(table.size), weights)
    # Standard errors from the Wilson intervals, on the side facing the reference.
    ses = facing_ses(table, low, high, overall)
    overall, dse = mean_reference(table.to_numpy().ravel(), ses.to_numpy().ravel(), weights)
    difference_ses = pd.DataFrame(dse.reshape(table.shape), index=table.index,
                                  columns=table.columns)  # fmt: skip
    fig, (ax,) = new_figure(10, 4.4)
    median = int(np.nanmedian(games.to_numpy()))
    reference_heatmap(
        ax,
        table,
        ses,
        overall,
        difference_ses,
        reference_label=f"{policy}'s {100 * overall:.1f}% over all setups",
        title=f"{policy}: solo win rate by setup (about {median:,} games per cell)",
        xlabel="pianist / harpist card",
        ylabel="soloist card",
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
        One row per card, sorted by the first policy's win rate (easiest on top), one point
        series per policy, with 95% Wilson intervals; dashed lines mark each policy's win
        rate over all setups.
    """
    sc = study.setup_cards
    shown = [p for p in ("greedy", "lookahead") if p in set(sc["policy"])]
    base = sc[sc["policy"] == shown[0]].sort_values("win_share", ascending=False, kind="stable")
    labels = [f"{c.contest} {c.card}" for c in base.itertuples(index=False)]
    series = {}
    for policy in shown:
        g = sc[sc["policy"] == policy].set_index(["contest", "card"])
        g = g.reindex(list(zip(base["contest"], base["card"], strict=True)))
        games = int(study.policies.set_index("policy").loc[policy, "games"])
        series[f"{policy} ({games:,} games)"] = (g["win_share"], g["low"], g["high"])
    fig, (ax,) = new_figure(8, 0.32 * len(labels) + 1.8)
    points_ci(
        ax,
        labels,
        series,
        xlabel="share of solo games won (%)",
        title="Solo win rate by setup card (easiest for the first policy on top)",
        reference=None,
        unit="percent",
    )
    rates = study.policies.set_index("policy")["win_share"]
    for number, policy in enumerate(shown):
        ax.axvline(rates[policy], color=f"C{number}", ls="--", lw=1,
                   label=f"{policy} over all setups")  # fmt: skip
    if ax.get_legend() is not None:
        ax.get_legend().remove()
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=2, fontsize="small")
    return fig


def margin_figure(study: SoloStudy) -> Figure:
    """Distribution of your margin over Pahha (points), one cumulative panel per policy.

    Parameters
    ----------
    study : SoloStudy
        A finished solo study.

    Returns
    -------
    matplotlib.figure.Figure
        Small multiples, one panel per policy: the share of games with a margin at or below
        each value (a step line) with its pointwise 95% Wilson band; greedy's distribution in
        grey on the other panels for comparison; the dashed line marks a tie (a loss, C8), and
        the title gives the share of games lost with its interval.
    """
    margins = study.margins
    policies = list(dict.fromkeys(margins["policy"]))
    ncols = min(3, max(len(policies), 1))
    nrows = int(np.ceil(len(policies) / ncols)) or 1
    fig, axes = new_figure(3.6 * ncols + 0.6, 2.7 * nrows + 0.8, ncols=ncols, nrows=nrows)
    curves = {
        str(p): cumulative_shares(g["margin"], g["games"])
        for p, g in margins.groupby("policy", sort=False)
    }
    low_x = min((c["value"].min() for c in curves.values()), default=0)
    high_x = max((c["value"].max() for c in curves.values()), default=0)
    for ax, policy in zip(axes, policies, strict=False):
        c = curves[str(policy)]
        colour = POLICY_COLORS.get(str(policy), "C0")
        if "greedy" in curves and policy != "greedy":
            step_cdf(ax, curves["greedy"], color="#aaa", label="greedy", band=False)
        step_cdf(ax, c, color=colour, label=str(policy))
        ax.axvline(0, color="#666", ls="--", lw=1, label="tie (a loss, C8)")
        games = int(c["games"].iloc[0])
        lost = c[c["value"] <= 0]
        if len(lost):
            row = lost.iloc[-1]
            share = (
                f"lost {100 * row['cdf']:.1f}% [{100 * row['low']:.1f}, {100 * row['high']:.1f}]"
            )
        else:
            share = "lost 0%"
        ax.set_title(f"{policy} ({games:,} games): {share}", fontsize="small")
        ax.set_xlim(low_x - 1, high_x + 1)
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(percent_formatter())
        ax.set_xlabel("your score minus Pahha's (points)", fontsize="small")
        ax.set_ylabel("share of games at or below", fontsize="small")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="x-small", loc="upper left")
    for ax in axes[len(policies) :]:
        ax.set_visible(False)
    fig.suptitle("Margin against Pahha: cumulative share of games (band: 95% Wilson)",
                 fontsize="medium")  # fmt: skip
    return fig


def setup_pivot(study: SoloStudy, policy: str, values: str = "win_share") -> pd.DataFrame:
    """``policy``'s ``values`` (win share by default) by setup: soloist (rows) x
    ``"pianist / harpist"`` (columns)."""
    s = study.setups[study.setups["policy"] == policy].copy()
    s["soloist"] = s["soloist_card"].map(soloist_label)
    s["column"] = s["pianist_card"] + " / " + s["harpist_card"]
    return s.pivot(index="soloist", columns="column", values=values)


__all__ = [
    "POLICY_COLORS",
    "margin_figure",
    "setup_card_figure",
    "setup_heatmap_figure",
    "setup_pivot",
    "solo_policy_figure",
]
