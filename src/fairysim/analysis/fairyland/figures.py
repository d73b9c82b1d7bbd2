"""The Fairy Land report's figures: card balance (lift, then collection), auctions, the
courts (one measure a figure) and game length.

Each function takes a finished :class:`~fairysim.analysis.fairyland.study.FairyLandStudy` and
returns a matplotlib figure (one message each, 95% intervals drawn), so a notebook shows the
same pictures as the report. Where the Queen's Court's items appear, the title says the court is
PROVISIONAL (ruling L13).
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from fairysim.analysis.fairyland.runs import GAME_MEASURES, GROUPS
from fairysim.analysis.fairyland.study import (
    BALANCE_COURT,
    NO_COURT,
    STARRED_COURT,
    FairyLandStudy,
)
from fairysim.analysis.report.plots import (
    cumulative_shares,
    new_figure,
    percent_formatter,
    points_formatter,
    step_cdf,
    wrapped,
)

GROUP_COLOURS = dict(
    zip(
        GROUPS,
        ("#8c564b", "#e377c2", "#1f77b4", "#2ca02c", "#d62728", "#bcbd22", "#9467bd"),
        strict=True,
    )
)
"""One colour per kind of card type."""

PLAYER_MARKERS = {2: "o", 3: "s", 4: "D"}
PROVISIONAL_NOTE = "court items: PROVISIONAL court, ruling L13"

COURT_FIGURE_MEASURES = (
    "mean_score",
    "margin",
    "queen_visits",
    "value_paid",
    "auctions",
    "starter_wins",
)
"""The measures the report draws a court figure for, one figure each (every measure is in the
report's table): the score itself, how close games are, what players do, and the starting
player's edge."""


def _player_label(n: int) -> str:
    return f"{n} players"


def card_balance_figure(study: FairyLandStudy) -> Figure:
    """Every card type ranked by how much collecting it goes with winning, with its interval.

    Parameters
    ----------
    study : FairyLandStudy
        A finished study.

    Returns
    -------
    matplotlib.figure.Figure
        One row per card type, highest lift on top, coloured by kind: win share of the seats
        that collect it minus that of the seats that do not (percentage points, averaged over
        player counts), with the study's corrected intervals. Filled points are significant
        after the study's correction, hollow ones are not.
    """
    c = study.cards_pooled
    rows = len(c)
    y = np.arange(rows)[::-1].astype(float)
    colours = [GROUP_COLOURS[g] for g in c["group"]]
    fig, (ax,) = new_figure(8, 0.26 * rows + 2.2)
    lift = c["lift"].to_numpy(float)
    err = np.nan_to_num(np.vstack([lift - c["low"], c["high"] - lift]))
    for yi, value, e, colour, significant in zip(
        y, lift, err.T, colours, c["significant"], strict=True
    ):
        ax.errorbar(
            value,
            yi,
            xerr=e[:, None],
            fmt="o",
            color=colour,
            mfc=colour if significant else "white",
            capsize=2,
            lw=1,
        )
    ax.axvline(0, color="#666", ls="--", lw=1)
    ax.set_yticks(y, list(c["label"]))
    ax.xaxis.set_major_formatter(points_formatter())
    ax.set_xlabel("collectors' win share minus the others' (percentage points)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_ylim(-0.7, rows - 0.3)
    handles = _kind_handles(c)
    handles += [
        Line2D([], [], marker="o", color="#444", mfc="#444", ls="", label="significant"),
        Line2D([], [], marker="o", color="#444", mfc="white", ls="", label="not significant"),
        Line2D([], [], color="#666", ls="--", lw=1, label="no lift"),
    ]
    ax.legend(handles=handles, loc="lower right", fontsize="small")
    meta = study.meta
    ax.set_title(
        wrapped(
            f"How much collecting a card type moves the win share\n{meta['policy']} at every "
            f"seat, {_players(meta)} pooled ({PROVISIONAL_NOTE}; {meta['correction'].title()} "
            f"correction for {rows} card types)",
            fig.get_figwidth() * 0.7,
        ),
        fontsize="medium",
    )
    return fig


def card_collect_figure(study: FairyLandStudy) -> Figure:
    """Every card type ranked by how often a seat collects it, with 95% Wilson intervals.

    Parameters
    ----------
    study : FairyLandStudy
        A finished study.

    Returns
    -------
    matplotlib.figure.Figure
        Horizontal bars, most often collected on top, coloured by kind: share of seat-games
        that collect the type (court items: the games it is drawn in).
    """
    c = study.cards_pooled.sort_values("collect_share", ascending=False, kind="stable")
    rows = len(c)
    y = np.arange(rows)[::-1].astype(float)
    fig, (ax,) = new_figure(8, 0.26 * rows + 2.2)
    share = c["collect_share"].to_numpy(float)
    ax.barh(y, share, color=[GROUP_COLOURS[g] for g in c["group"]], alpha=0.8)
    ax.errorbar(
        share,
        y,
        xerr=np.nan_to_num(np.vstack([share - c["collect_low"], c["collect_high"] - share])),
        fmt="none",
        ecolor="#222",
        capsize=2,
        lw=1,
    )
    ax.set_yticks(y, list(c["label"]))
    ax.set_ylim(-0.7, rows - 0.3)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(percent_formatter(0))
    ax.set_xlabel("share of seat-games that collect it (%; court items: games it is drawn)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(handles=_kind_handles(c), loc="lower right", fontsize="small")
    meta = study.meta
    ax.set_title(
        wrapped(
            f"How often a seat collects each card type\n{meta['policy']} at every seat, "
            f"{_players(meta)} pooled ({PROVISIONAL_NOTE})",
            fig.get_figwidth() * 0.7,
        ),
        fontsize="medium",
    )
    return fig


def _kind_handles(cards) -> list:
    present = [g for g in GROUPS if g in set(cards["group"])]
    return [Patch(color=GROUP_COLOURS[g], label=g) for g in present]


def auction_figure(study: FairyLandStudy) -> Figure:
    """What an auction costs against what it wins, by the cards in the clearing.

    Parameters
    ----------
    study : FairyLandStudy
        A finished study.

    Returns
    -------
    matplotlib.figure.Figure
        One line per player count against the cards in the clearing: left, the fairy value the
        winner plays; right, the points its cards add to the winner's score at once (applause
        left out); 95% intervals.
    """
    prices = study.auction_prices
    fig, (left, right) = new_figure(11, 4.2, ncols=2)
    for n, g in prices.groupby("players", sort=True):
        x = g["cards"].to_numpy(float) + (n - 3) * 0.08
        marker = PLAYER_MARKERS.get(int(n), "o")
        for ax, name in ((left, "price"), (right, "prize")):
            v = g[name].to_numpy(float)
            err = np.nan_to_num(np.vstack([v - g[f"{name}_low"], g[f"{name}_high"] - v]))
            ax.errorbar(x, v, yerr=err, marker=marker, capsize=3, lw=1, label=_player_label(n))
    labels = prices.drop_duplicates("cards").sort_values("cards")
    for ax in (left, right):
        ax.set_xticks(labels["cards"], list(labels["cards_label"]))
        ax.set_xlabel("cards in the clearing when it is auctioned")
        ax.grid(alpha=0.3)
    left.set_ylim(bottom=0)
    left.set_ylabel("fairy value the winner plays")
    left.set_title("What it costs")
    right.set_ylabel("points its cards add to the winner (applause left out)")
    right.set_title("What it wins")
    zero = right.axhline(0, color="#666", ls="--", lw=1, label="no points")
    right.legend(handles=[zero], fontsize="small")
    left.legend(fontsize="small")
    meta = study.meta
    fig.suptitle(
        wrapped(
            f"Auctions: price against prize ({meta['auction_games']:,} games per player "
            f"count, {meta['policy']}, {meta['court_label']})",
            fig.get_figwidth() * 0.9,
        ),
        fontsize="medium",
    )
    return fig


def court_figure(study: FairyLandStudy, measure: str = COURT_FIGURE_MEASURES[0]) -> Figure:
    """What each court of items changes in one measure against the court of no effect, paired
    game by game.

    Parameters
    ----------
    study : FairyLandStudy
        A finished study.
    measure : str, default the mean score
        One of :data:`COURT_FIGURE_MEASURES` (any measure of
        :data:`~fairysim.analysis.fairyland.runs.GAME_MEASURES` works).

    Returns
    -------
    matplotlib.figure.Figure
        One row per court and one point per player count: the court's mean minus the court of
        no effect's on the same games, with the study's corrected intervals; filled points are
        significant after its correction, the dashed line is no change. Empty axes when the
        court of no effect was not played.
    """
    (m,) = [g for g in GAME_MEASURES if g.column == measure]
    effects = study.court_effects
    effects = effects[(effects["baseline"] == NO_COURT) & (effects["measure"] == m.column)]
    courts = [c for c in (BALANCE_COURT, STARRED_COURT) if c in set(effects["court"])]
    fig, (ax,) = new_figure(8, 0.8 * max(len(courts), 1) + 2.1)
    y = np.arange(len(courts))[::-1].astype(float)
    for n, part in effects.groupby("players", sort=True):
        part = part.set_index("court").reindex(courts)
        d = part["difference"].to_numpy(float)
        err = np.nan_to_num(np.vstack([d - part["low"], part["high"] - d]))
        offset = (n - 3) * 0.15
        for yi, value, e, significant in zip(
            y + offset, d, err.T, part["significant"].fillna(False), strict=True
        ):
            ax.errorbar(
                value,
                yi,
                xerr=e[:, None],
                fmt=PLAYER_MARKERS.get(int(n), "o"),
                color=f"C{int(n) - 2}",
                mfc=f"C{int(n) - 2}" if significant else "white",
                capsize=2,
                lw=1,
            )
    ax.axvline(0, color="#666", ls="--", lw=1)
    ax.set_yticks(y, [f"{c}\nminus none" for c in courts])
    ax.set_ylim(-0.6, len(courts) - 0.4)
    ax.grid(axis="x", alpha=0.3)
    if m.unit == "share":
        ax.xaxis.set_major_formatter(points_formatter())
        ax.set_xlabel(f"{m.label}: difference (percentage points)")
    else:
        ax.set_xlabel(f"{m.label}: difference ({m.unit})")
    players = sorted(set(effects["players"]))
    handles = [
        Line2D([], [], marker=PLAYER_MARKERS.get(int(n), "o"), color=f"C{int(n) - 2}", ls="",
               label=_player_label(n))
        for n in players
    ]  # fmt: skip
    handles.append(Line2D([], [], marker="o", color="#444", mfc="white", ls="",
                          label="hollow: not significant"))  # fmt: skip
    handles.append(Line2D([], [], color="#666", ls="--", lw=1, label="no change"))
    fig.legend(handles=handles, loc="outside right upper", fontsize="small")
    meta = study.meta
    ax.set_title(
        wrapped(
            f"{m.label[:1].upper()}{m.label[1:]}: what the Queen's Court changes against a "
            "court of no effect (PL9)\n"
            f"same games, PROVISIONAL court, ruling L13; {meta['games']:,} games per court "
            f"and player count; {meta['correction'].title()}-corrected",
            fig.get_figwidth() * 0.75,
        ),
        fontsize="medium",
    )
    return fig


def length_figure(study: FairyLandStudy) -> Figure:
    """How many auctions a game holds, per player count (random court), as cumulative shares.

    Parameters
    ----------
    study : FairyLandStudy
        A finished study.

    Returns
    -------
    matplotlib.figure.Figure
        Share of games with at most each number of auctions, one step line per player count
        with its pointwise 95% Wilson band; the mean and its 95% interval in the legend.
    """
    counts = study.auction_counts
    length = study.length
    length = length[length["court"] == BALANCE_COURT].set_index("players")
    fig, (ax,) = new_figure(7.5, 3.8)
    for n, g in counts.groupby("players", sort=True):
        row = length.loc[n]
        step_cdf(
            ax,
            cumulative_shares(g["auctions"], g["games"]),
            color=f"C{int(n) - 2}",
            label=f"{_player_label(n)}: mean {row['auctions']:.2f} "
            f"[{row['auctions_low']:.2f}, {row['auctions_high']:.2f}]",
        )
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(percent_formatter(0))
    ax.set_xlabel("auctions in the game (clearings with cards explored)")
    ax.set_ylabel("share of games with at most that many")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", title="mean auctions per game, 95% interval",
              title_fontsize="small", loc="upper left")  # fmt: skip
    turns = sorted(set(length["turns_min"]) | set(length["turns_max"]))
    turns_text = f"{turns[0]} turns" if len(turns) == 1 else f"{turns[0]}-{turns[-1]} turns"
    ax.set_title(
        wrapped(
            f"Game length: auctions per game ({turns_text} a game; {BALANCE_COURT} "
            "PROVISIONAL court, ruling L13)",
            fig.get_figwidth() * 0.9,
        ),
        fontsize="medium",
    )
    return fig


def _players(meta: dict) -> str:
    counts = meta["players"]
    if len(counts) == 1:
        return f"{counts[0]} players"
    return f"{counts[0]}-{counts[-1]} players"


__all__ = [
    "COURT_FIGURE_MEASURES",
    "auction_figure",
    "card_balance_figure",
    "card_collect_figure",
    "court_figure",
    "length_figure",
]
