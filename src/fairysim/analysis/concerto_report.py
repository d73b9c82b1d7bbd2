"""The Fairy Concerto designer reports: solo win rates against Pahha, and card balance.

``fairysim report concerto-solo`` calls :func:`write_concerto_solo_report` (the study is
:func:`fairysim.analysis.concerto.solo_study`); ``fairysim report concerto`` calls
:func:`write_concerto_report` (:func:`fairysim.analysis.concerto.card_balance`). Each writes one
self-contained HTML page (figures embedded) with its tables as CSV files and its figures as PNG
files beside it, all through :class:`fairysim.analysis.report.Report` (nothing is written until
the whole report is built).

The rulebook does not print the score, pianist and harpist cards (ruling C9): every report
shows which card file it played, and when that file is the provisional set, says so in its
title, in a banner at the top and above the card list.

The figure functions take a study and return a matplotlib figure, so a notebook can show the
same pictures.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from fairysim.analysis.concerto import (
    PLAYER_COUNTS,
    SOLOIST_NAMES,
    SOLOIST_RULES,
    CardBalance,
    SoloStudy,
    card_balance,
    card_table,
    describe_set,
    solo_study,
)
from fairysim.analysis.report import (
    Report,
    barh_ci,
    fmt_interval,
    fmt_percent,
    fmt_points,
    heatmap,
    new_figure,
    points_ci,
)
from fairysim.sim.batch import Progress
from fairysim.sim.concerto import ConcertoCards
from fairysim.sim.concerto.cards import DEFAULT_CARDS
from fairysim.sim.concerto.policies import SOLO_POLICIES

SOLO_DEFAULT_GAMES = 100_000
"""Games per fast solo policy (random, greedy, chaser, maestro, denier) in the solo report.

The greedy run gives the setup table about 2,800 games per soloist x pianist x harpist
combination (a 95 % interval of about +/- 1.7 percentage points on each), and every win rate a
Wilson interval of about +/- 0.3 points. On 2 shared cores the five runs take 5 to 25 s
(measured with a warm numba cache, depending on the load)."""

SOLO_DEFAULT_LOOKAHEAD_GAMES = 20_000
"""Games of the lookahead policy in the solo report.

Lookahead plays every decision by Monte Carlo rollouts and manages about 750 to 1,400 games a
second on 2 shared cores, so these games take 15 to 30 s: with the fast policies, the default
report took 23 to 62 s warm (well under the 2-minute budget). Its gain over greedy, paired on these
deals, has a 95 % interval of about +/- 0.7 percentage points."""

BALANCE_DEFAULT_GAMES = 60_000
"""Games per player count (2, 3 and 4) in the card-balance report (180,000 games in all).

Each score card is then held in about 40,000 to 70,000 seat-games in all, so its completion rate
is known to about +/- 0.4 percentage points and its holders' win lift to about +/- 0.5; each
contest card's honor-decides share to about +/- 0.3. The report took 13 to 25 s warm on 2
shared cores."""

SOLO_REPORT_FILENAME = "concerto-solo-report.html"
SOLO_FILE_PREFIX = "concerto-solo-"
BALANCE_REPORT_FILENAME = "concerto-report.html"
BALANCE_FILE_PREFIX = "concerto-"

POLICY_COLORS = {
    "greedy": "#4c72b0",
    "lookahead": "#c44e52",
    "random": "#8c8c8c",
    "chaser": "#55a868",
    "maestro": "#8172b2",
    "denier": "#dd8452",
}


# --------------------------------------------------------------------------------------------
# Writers


def write_concerto_solo_report(
    out_dir: str | Path,
    games: int = SOLO_DEFAULT_GAMES,
    lookahead_games: int = SOLO_DEFAULT_LOOKAHEAD_GAMES,
    seed: int = 1,
    policies: Sequence[str] = SOLO_POLICIES,
    cards: str | Path | ConcertoCards | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Path:
    """Run the solo study and write its HTML report with CSV and PNG files.

    Parameters
    ----------
    out_dir : str or Path
        Folder for the report (created if missing).
    games : int, default :data:`SOLO_DEFAULT_GAMES`
        Games per fast policy.
    lookahead_games : int, default :data:`SOLO_DEFAULT_LOOKAHEAD_GAMES`
        Games of the (slow) lookahead policy.
    seed : int, default 1
        Seed of every run (every policy plays the same deals).
    policies : sequence of str, default all solo policies
        Policies to compare (greedy is always played: it is the baseline).
    cards : path or ConcertoCards, optional
        Card file (the shipped provisional set by default).
    threads : int, optional
        numba threads; never changes the numbers.
    progress : callable, optional
        ``progress(games_done, games_total)`` over the whole study.

    Returns
    -------
    Path
        ``out_dir / "concerto-solo-report.html"``.
    """
    study = solo_study(games, seed, lookahead_games, policies, cards, threads, progress)
    return build_concerto_solo_report(study).write(out_dir)


def write_concerto_report(
    out_dir: str | Path,
    games: int = BALANCE_DEFAULT_GAMES,
    seed: int = 1,
    players: Sequence[int] = PLAYER_COUNTS,
    policy: str = "greedy",
    cards: str | Path | ConcertoCards | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Path:
    """Run the card-balance study and write its HTML report with CSV and PNG files.

    Parameters
    ----------
    out_dir : str or Path
        Folder for the report (created if missing).
    games : int, default :data:`BALANCE_DEFAULT_GAMES`
        Games per player count.
    seed : int, default 1
        Seed of every run.
    players : sequence of int, default (2, 3, 4)
        Player counts.
    policy : str, default ``"greedy"``
        The policy every seat plays.
    cards : path or ConcertoCards, optional
        Card file (the shipped provisional set by default).
    threads : int, optional
        numba threads; never changes the numbers.
    progress : callable, optional
        ``progress(games_done, games_total)`` over the whole study.

    Returns
    -------
    Path
        ``out_dir / "concerto-report.html"``.
    """
    balance = card_balance(games, seed, players, policy, cards, threads, progress)
    return build_concerto_report(balance).write(out_dir)


# --------------------------------------------------------------------------------------------
# Shared pieces


def _cards_option(cards: ConcertoCards) -> str:
    return "" if Path(cards.source) == DEFAULT_CARDS else f" --cards {cards.source}"


def _card_file_name(cards: ConcertoCards) -> str:
    """How a report names the card file: the shipped one by its place in the package (an
    absolute path would name the machine the report was made on), any other as given."""
    if Path(cards.source) == DEFAULT_CARDS:
        return "fairysim/sim/concerto/data/cards.toml (shipped)"
    return cards.source


def provisional_banner(report: Report, cards: ConcertoCards) -> None:
    """Add the card-set notice: a red PROVISIONAL banner for the provisional set (ruling C9).

    Parameters
    ----------
    report : Report
        The report to add to.
    cards : ConcertoCards
        The card set the study played.
    """
    name = html.escape(_card_file_name(cards))
    if cards.provisional:
        report.raw(
            '<p style="background:#fff1f0;border:2px solid #c0392b;padding:.7rem 1rem;">'
            "<strong>PROVISIONAL card set (ruling C9).</strong> The rulebook does not print the "
            "26 score cards or the 3 pianist and 3 harpist cards. Every number here was played "
            f"with the project's provisional stand-in, <code>{name}</code>, not the published "
            "cards: read them as a test of that design (see <code>docs/concerto-cards.md</code>)"
            ", and rerun with <code>--cards FILE</code> for another set.</p>"
        )
    else:
        report.paragraph(
            f"Card set: `{_card_file_name(cards)}` (declared final by its file).", "meta"
        )


def _card_section(report: Report, cards: ConcertoCards, number: int) -> None:
    title = "PROVISIONAL cards played" if cards.provisional else "Cards played"
    report.heading(f"{number}. {title}")
    tokens = ", ".join(f"{n} {k}" for k, n in zip(_kinds(), cards.tokens, strict=True))
    report.paragraph(
        f"Card file `{_card_file_name(cards)}`"
        + (" (PROVISIONAL, ruling C9)" if cards.provisional else "")
        + f". Bag: {tokens} ({cards.total_tokens} tokens). A score card is worth 5 points when "
        "the orchestra holds at least what it asks for; a pianist or harpist card scores 3 per "
        "complete set of its kinds."
    )
    report.table("cards", card_table(cards), f"The card set: {cards.label}.")


def _kinds() -> tuple[str, ...]:
    from fairysim.sim.concerto import KINDS

    return KINDS


def _verdict(flag) -> str:
    if isinstance(flag, float) and math.isnan(flag):
        return ""
    return "significant" if bool(flag) else "not significant"


def _contest_label(contest: str, card: str) -> str:
    # The conductor is a single card, always in play: "conductor", not "conductor conductor".
    return contest if contest == card else f"{contest} {card}"


def _soloist_label(letter: str) -> str:
    return f"{letter} ({SOLOIST_NAMES.get(letter, '')})"


def _percent_axis(axis) -> None:
    from matplotlib.ticker import PercentFormatter

    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=1))


def new_concerto_report(title: str, filename: str, prefix: str, cards) -> Report:
    """An empty Concerto report whose title and banner say when its card set is provisional
    (ruling C9: every report that shows the provisional cards labels them)."""
    provisional = " (PROVISIONAL cards)" if cards.provisional else ""
    report = Report(f"{title}{provisional}", filename, prefix)
    provisional_banner(report, cards)
    return report


# --------------------------------------------------------------------------------------------
# Solo report


def build_concerto_solo_report(study: SoloStudy) -> Report:
    """Assemble the solo report of a finished study in memory (nothing is written).

    Parameters
    ----------
    study : SoloStudy
        Result of :func:`fairysim.analysis.concerto.solo_study`.

    Returns
    -------
    Report
        Call :meth:`Report.write` to write it.
    """
    meta = study.meta
    cards = study.cards
    report = new_concerto_report(
        "Fairy Concerto solo: how often do you beat Pahha?",
        SOLO_REPORT_FILENAME,
        SOLO_FILE_PREFIX,
        cards,
    )
    games, la_games, seed = meta["games"], meta["lookahead_games"], meta["seed"]
    command = f"fairysim report concerto-solo --games {games}"
    if la_games is not None:
        command += f" --lookahead-games {la_games}"
    command += f" --seed {seed}{_cards_option(cards)}"
    policy_games = ", ".join(
        f"{p.policy} {int(p.games):,}" for p in study.policies.itertuples(index=False)
    )
    report.paragraph(
        f"Games per policy: {policy_games}. Seed {seed}; fairysim {meta['package_version']} "
        f"(engine version {meta['engine_version']}); cards: {cards.label}. "
        f"Reproduce with `{command}`.",
        css_class="meta",
    )
    report.paragraph(
        "Solo rules (ruling C8): seven rounds draw 2, 3, 4, 5, 6, 4 and 2 tokens; you keep 1, 1, "
        "2, 2, 3, 2 and 1 of them and Pahha takes the rest (you end with 12 tokens, Pahha with "
        "14). Pahha scores 3 per face-down score card whatever it asks for. You win only with a "
        "strictly higher total: a tie is a loss. Every policy plays the same deals and setups "
        "(same seed, and the deal never depends on the policy), so policies are compared game "
        "by game. Intervals are 95 %: Wilson intervals for win rates, normal intervals for "
        'paired differences. "Not significant" means the interval covers 0: the simulation '
        "cannot tell the difference from chance at this number of games."
    )
    _solo_policy_section(report, study)
    _solo_lookahead_section(report, study)
    _solo_setup_section(report, study)
    _solo_margin_section(report, study)
    _card_section(report, cards, 5)
    report.heading("6. Files")
    report.paragraph(
        "Every table is also a CSV file beside this page, in full precision: "
        f"`{SOLO_FILE_PREFIX}policies.csv`, `{SOLO_FILE_PREFIX}lookahead.csv`, "
        f"`{SOLO_FILE_PREFIX}setups.csv` (every policy, every setup), "
        f"`{SOLO_FILE_PREFIX}setup_cards.csv`, `{SOLO_FILE_PREFIX}margins.csv` (the full "
        f"distribution), `{SOLO_FILE_PREFIX}margin_summary.csv` and "
        f"`{SOLO_FILE_PREFIX}cards.csv`; `{SOLO_FILE_PREFIX}metadata.json` records the "
        "configuration."
    )
    report.data("setups", study.setups)
    report.data("setup_cards", study.setup_cards)
    report.data("margins", study.margins)
    report.file("metadata.json", json.dumps(meta, indent=2, default=str).encode("utf-8"))
    return report


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
    table = _setup_pivot(study, policy)
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
    ax.yaxis.set_major_formatter(_percent_formatter())
    ax.set_title("Margin against Pahha")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def _percent_formatter():
    from matplotlib.ticker import PercentFormatter

    return PercentFormatter(xmax=1.0, decimals=1)


def _solo_policy_section(report: Report, study: SoloStudy) -> None:
    report.heading("1. Win rate against Pahha by policy")
    p = study.policies
    best = p.loc[p["win_share"].idxmax()]
    greedy = p[p["policy"] == "greedy"].iloc[0]
    report.paragraph(
        f"Greedy (the token choice that raises its current score most) beats Pahha in "
        f"{fmt_percent(greedy['win_share'])} of {int(greedy['games']):,} games "
        f"{fmt_interval(greedy['low'], greedy['high'])}; the best policy, {best['policy']}, in "
        f"{fmt_percent(best['win_share'])} of {int(best['games']):,} "
        f"{fmt_interval(best['low'], best['high'])}. The gain column compares each policy with "
        "greedy on the same deals (paired), over the games both played."
    )
    report.figure("policies", solo_policy_figure(study), "Figure 1: solo win rate by policy.")
    display = pd.DataFrame(
        {
            "policy": p["policy"],
            "games": p["games"].map(lambda v: f"{int(v):,}"),
            "win rate": p["win_share"].map(fmt_percent),
            "95% interval": [
                fmt_interval(lo, hi) for lo, hi in zip(p["low"], p["high"], strict=True)
            ],
            "your score": p["mean_score"].map(lambda v: f"{v:.1f}"),
            "Pahha's score": p["pahha_score"].map(lambda v: f"{v:.1f}"),
            "mean margin": p["mean_margin"].map(lambda v: f"{v:+.1f}"),
            "gain over greedy": [
                "baseline"
                if r.policy == "greedy"
                else f"{fmt_points(r.gain)} {fmt_interval(r.gain_low, r.gain_high, points=True)}"
                for r in p.itertuples(index=False)
            ],
            "paired games": p["gain_games"].map(lambda v: f"{int(v):,}"),
            "verdict": p["significant"].map(_verdict),
        }
    )
    report.table(
        "policies",
        p,
        "Win rate per policy (scores in points; margin = your score minus Pahha's).",
        display=display,
    )


def _solo_lookahead_section(report: Report, study: SoloStudy) -> None:
    report.heading("2. How much does looking ahead gain over greedy?")
    la = study.lookahead
    if la.empty:
        report.paragraph("The lookahead policy was not played in this study.")
        return
    r = la.iloc[0]
    report.paragraph(
        "Lookahead evaluates every choice by Monte Carlo rollouts of the remaining rounds "
        "(Pahha's tokens and its face-down cards unseen); greedy looks only at its current "
        f"score. Both played the same {int(r['games']):,} deals (games 0 to "
        f"{int(r['games']) - 1:,} of seed {study.meta['seed']}), so the difference is measured "
        "game by game."
    )
    report.bullets(
        [
            f"Win rate: greedy {fmt_percent(r['greedy_win_share'])}, lookahead "
            f"{fmt_percent(r['policy_win_share'])}: gain {fmt_points(r['gain'])} "
            f"{fmt_interval(r['gain_low'], r['gain_high'], points=True)}, "
            f"{_verdict(r['significant'])}.",
            f"Margin over Pahha: greedy {r['greedy_margin']:+.2f}, lookahead "
            f"{r['policy_margin']:+.2f} points: gain {r['margin_gain']:+.2f} points "
            f"[{r['margin_gain_low']:+.2f}, {r['margin_gain_high']:+.2f}], "
            f"{_verdict(r['margin_significant'])}.",
        ]
    )
    display = pd.DataFrame(
        {
            "policy": la["policy"],
            "paired games": la["games"].map(lambda v: f"{int(v):,}"),
            "greedy wins": la["greedy_win_share"].map(fmt_percent),
            "policy wins": la["policy_win_share"].map(fmt_percent),
            "gain": la["gain"].map(fmt_points),
            "95% interval": [
                fmt_interval(lo, hi, points=True)
                for lo, hi in zip(la["gain_low"], la["gain_high"], strict=True)
            ],
            "margin gain (points)": la["margin_gain"].map(lambda v: f"{v:+.2f}"),
            "verdict": la["significant"].map(_verdict),
        }
    )
    report.table("lookahead", la, "Lookahead against greedy, paired on identical deals.", display)


def _setup_pivot(study: SoloStudy, policy: str) -> pd.DataFrame:
    s = study.setups[study.setups["policy"] == policy].copy()
    s["soloist"] = s["soloist_card"].map(_soloist_label)
    s["column"] = s["pianist_card"] + " / " + s["harpist_card"]
    return s.pivot(index="soloist", columns="column", values="win_share")


def _solo_setup_section(report: Report, study: SoloStudy) -> None:
    report.heading("3. Which setups are hardest?")
    cards = study.cards
    s = study.setups
    greedy = s[s["policy"] == "greedy"].sort_values("win_share", kind="stable")
    combos = len(greedy)
    report.paragraph(
        f"Every solo game deals one soloist, one pianist and one harpist card at random: "
        f"{combos} combinations. The greedy run plays about {int(greedy['games'].median()):,} "
        "games of each"
        + (
            f", the lookahead run about "
            f"{int(s.loc[s['policy'] == 'lookahead', 'games'].median()):,}"
            if "lookahead" in set(s["policy"])
            else ""
        )
        + ". Soloists: "
        + "; ".join(f"{k} ({SOLOIST_NAMES[k]}): {v}" for k, v in SOLOIST_RULES.items())
        + ". Pianists: "
        + "; ".join(
            f"{c}: {describe_set(cards.pianist_sets[i])}" for i, c in enumerate(cards.pianist_ids)
        )
        + ". Harpists: "
        + "; ".join(
            f"{c}: {describe_set(cards.harpist_sets[i])}" for i, c in enumerate(cards.harpist_ids)
        )
        + "."
    )
    hardest = greedy.head(3)
    easiest = greedy.tail(3).iloc[::-1]
    report.bullets(
        [
            "Hardest for greedy: "
            + "; ".join(
                f"{r.soloist_card} + {r.pianist_card} + {r.harpist_card} "
                f"{fmt_percent(r.win_share)} {fmt_interval(r.low, r.high)}"
                for r in hardest.itertuples(index=False)
            )
            + ".",
            "Easiest for greedy: "
            + "; ".join(
                f"{r.soloist_card} + {r.pianist_card} + {r.harpist_card} "
                f"{fmt_percent(r.win_share)} {fmt_interval(r.low, r.high)}"
                for r in easiest.itertuples(index=False)
            )
            + ".",
        ]
    )
    report.figure(
        "setups", setup_heatmap_figure(study), "Figure 2: greedy's solo win rate by setup."
    )
    if "lookahead" in set(s["policy"]):
        report.figure(
            "setups_lookahead",
            setup_heatmap_figure(study, "lookahead"),
            "Figure 3: lookahead's solo win rate by setup (fewer games per cell).",
        )
    report.figure(
        "setup_cards",
        setup_card_figure(study),
        "Figure 4: solo win rate by single setup card (the other two cards drawn at random).",
    )
    display = _setup_display(study, greedy)
    report.table(
        None,
        greedy,
        "All setups, hardest first for greedy (the CSV `"
        f"{SOLO_FILE_PREFIX}setups.csv` holds every policy).",
        display=display,
    )


def _setup_display(study: SoloStudy, greedy: pd.DataFrame) -> pd.DataFrame:
    keys = ["soloist_card", "pianist_card", "harpist_card"]
    out = pd.DataFrame(
        {
            "soloist": greedy["soloist_card"].map(_soloist_label),
            "pianist": greedy["pianist_card"],
            "harpist": greedy["harpist_card"],
            "greedy games": greedy["games"].map(lambda v: f"{int(v):,}"),
            "greedy win rate": greedy["win_share"].map(fmt_percent),
            "greedy 95% interval": [
                fmt_interval(lo, hi) for lo, hi in zip(greedy["low"], greedy["high"], strict=True)
            ],
            "greedy margin": greedy["mean_margin"].map(lambda v: f"{v:+.1f}"),
        }
    )
    la = study.setups[study.setups["policy"] == "lookahead"]
    if not la.empty:
        la = la.set_index(keys).reindex(pd.MultiIndex.from_frame(greedy[keys]))
        out["lookahead games"] = [f"{int(v):,}" if v == v else "0" for v in la["games"]]
        out["lookahead win rate"] = la["win_share"].map(fmt_percent).to_numpy()
        out["lookahead 95% interval"] = [
            fmt_interval(lo, hi) for lo, hi in zip(la["low"], la["high"], strict=True)
        ]
    return out


def _solo_margin_section(report: Report, study: SoloStudy) -> None:
    report.heading("4. By how much: the margin over Pahha")
    report.paragraph(
        "Margin = your final score minus Pahha's, in points. A margin of 0 is a tie, which Pahha "
        "wins (C8); the tied column shows how often that rule decides a game."
    )
    report.figure("margins", margin_figure(study), "Figure 5: margin distribution per policy.")
    m = study.margin_summary
    display = m.assign(
        games=m["games"].map(lambda v: f"{int(v):,}"),
        mean=m["mean"].map(lambda v: f"{v:+.2f}"),
        sd=m["sd"].map(lambda v: f"{v:.2f}"),
        tied=m["tied"].map(fmt_percent),
        won=m["won"].map(fmt_percent),
    )
    report.table(
        "margin_summary",
        m,
        "Margin per policy (points): mean, standard deviation and quantiles (p05 = 5th "
        "percentile); won = margin above 0.",
        display=display,
    )


# --------------------------------------------------------------------------------------------
# Card-balance report


def build_concerto_report(balance: CardBalance) -> Report:
    """Assemble the card-balance report of a finished study in memory (nothing is written).

    Parameters
    ----------
    balance : CardBalance
        Result of :func:`fairysim.analysis.concerto.card_balance`.

    Returns
    -------
    Report
        Call :meth:`Report.write` to write it.
    """
    meta = balance.meta
    cards = balance.cards
    report = new_concerto_report(
        "Fairy Concerto: card balance, 2 to 4 players",
        BALANCE_REPORT_FILENAME,
        BALANCE_FILE_PREFIX,
        cards,
    )
    games, seed, players = meta["games"], meta["seed"], meta["players"]
    command = f"fairysim report concerto --games {games} --seed {seed}"
    if meta["policy"] != "greedy":
        command += f" --policy {meta['policy']}"
    command += _cards_option(cards)
    players_note = ""
    if list(players) != list(PLAYER_COUNTS):
        players_note = f" (this report covers {', '.join(map(str, players))} players only)"
    report.paragraph(
        f"{games:,} games per player count ({', '.join(map(str, players))} players), "
        f"{games * len(players):,} games in all; every seat plays {meta['policy']}; seed {seed}; "
        f"fairysim {meta['package_version']} (engine version {meta['engine_version']}); cards: "
        f"{cards.label}. Reproduce with `{command}`{players_note}.",
        css_class="meta",
    )
    report.paragraph(
        f"Every seat plays the same policy ({meta['policy']}), so differences between cards and "
        "seats come from the cards and the seating, not from the players. Intervals are 95 %: "
        "Wilson intervals for rates, normal intervals for differences and means. A shared win "
        'between k players counts 1/k for each. "Not significant" means the interval covers '
        "0 (or the fair share): the simulation cannot tell the difference from chance at this "
        "number of games."
    )
    _parts_section(report, balance)
    _score_card_section(report, balance)
    _contest_section(report, balance)
    _popularity_section(report, balance)
    _seat_section(report, balance)
    _card_section(report, cards, 6)
    report.heading("7. Files")
    report.paragraph(
        "Every table is also a CSV file beside this page, in full precision, with the per player "
        f"count tables `{BALANCE_FILE_PREFIX}score_cards.csv` and "
        f"`{BALANCE_FILE_PREFIX}contests.csv`; `{BALANCE_FILE_PREFIX}metadata.json` records the "
        "configuration."
    )
    report.data("score_cards", balance.score_cards)
    report.data("contests", balance.contests)
    report.file("metadata.json", json.dumps(meta, indent=2, default=str).encode("utf-8"))
    return report


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
    labels = [_contest_label(r.contest, r.card) for r in pooled.itertuples(index=False)]
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


def concerto_seat_figure(balance: CardBalance) -> Figure:
    """Win share by seat against the fair share, one panel per player count.

    Parameters
    ----------
    balance : CardBalance
        A finished card-balance study.

    Returns
    -------
    matplotlib.figure.Figure
        Points with 95 % Wilson intervals; the dashed line is ``1/players``.
    """
    seats = balance.seats
    counts = sorted(seats["players"].unique())
    fig, axes = new_figure(2.4 * len(counts) + 1, 3.2, ncols=len(counts))
    for ax, n in zip(axes, counts, strict=True):
        g = seats[seats["players"] == n]
        share = g["win_share"].to_numpy(float)
        err = np.vstack([share - g["low"].to_numpy(float), g["high"].to_numpy(float) - share])
        ax.errorbar(g["seat"], share, yerr=err, fmt="o", capsize=3, lw=1)
        ax.axhline(1.0 / n, color="#666", ls="--", lw=1)
        ax.set_xticks(g["seat"])
        ax.set_title(f"{n} players")
        ax.set_xlabel("seat (0 = first; passing left)")
        _percent_axis(ax.yaxis)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("win share")
    fig.suptitle(f"Seat advantage ({balance.meta['policy']} at every seat)")
    return fig


def _parts_section(report: Report, balance: CardBalance) -> None:
    report.heading("1. Where the points come from")
    parts = balance.parts
    table = parts.pivot(index="part", columns="players", values="mean")
    table = table.reindex(list(dict.fromkeys(parts["part"])))
    winners = parts.pivot(index="part", columns="players", values="winners").reindex(table.index)
    display = pd.DataFrame({"part": table.index})
    for n in table.columns:
        display[f"{n} players"] = [
            f"{a:.2f} (winners {w:.2f})" for a, w in zip(table[n], winners[n], strict=True)
        ]
    report.paragraph(
        "Mean points per seat from each part of the final score (C5, C6), and in brackets the "
        "mean of the winning seats: the parts where winners pull ahead are the ones that decide "
        "games."
    )
    report.table("parts", parts, "Mean points per seat by part of the score.", display=display)


def _score_card_section(report: Report, balance: CardBalance) -> None:
    report.heading("2. Score cards")
    s = balance.score_cards_pooled
    dominated = balance.meta.get("dominated", [])
    report.paragraph(
        "For each of the 26 score cards: how often a seat ends the game holding it, the share "
        "of its holders who complete it (a completed card is worth 5 points, so 5 x completion "
        "is its expected value), and the win share of the seats holding it minus that of the "
        "seats that do not (the lift, averaged over player counts). A card with a high lift is "
        "worth drafting; the lift is an association, not a pure effect of the card (a seat "
        "that drafts composers holds more cards). "
        + (
            "No score card is dominated by another (none asks for no more of every kind than "
            "another)."
            if not dominated
            else "Dominated pairs (the first asks for no more of any kind than the second): "
            + ", ".join(f"{a} over {b}" for a, b in dominated)
            + "."
        )
    )
    up = int((s["significant"] & (s["lift"] > 0)).sum())
    down = int((s["significant"] & (s["lift"] < 0)).sum())
    easy = s.loc[s["completion"].idxmax()]
    hard = s.loc[s["completion"].idxmin()]
    report.bullets(
        [
            f"Easiest: {easy['card']} ({easy['asks_for']}), completed by "
            f"{fmt_percent(easy['completion'])} of {int(easy['held']):,} holders "
            f"{fmt_interval(easy['completion_low'], easy['completion_high'])}.",
            f"Hardest: {hard['card']} ({hard['asks_for']}), completed by "
            f"{fmt_percent(hard['completion'])} of {int(hard['held']):,} holders "
            f"{fmt_interval(hard['completion_low'], hard['completion_high'])}.",
            f"Holders win significantly more often for {up} cards, significantly less often "
            f"for {down}, not significantly differently for {len(s) - up - down}.",
        ]
    )
    report.figure(
        "score_cards", score_card_figure(balance), "Figure 1: score-card completion and lift."
    )
    display = pd.DataFrame(
        {
            "card": s["card"],
            "asks for": s["asks_for"],
            "held by": [
                f"{fmt_percent(h)} ({int(n):,})"
                for h, n in zip(s["held_share"], s["held"], strict=True)
            ],
            "completion": s["completion"].map(fmt_percent),
            "95% interval": [
                fmt_interval(lo, hi)
                for lo, hi in zip(s["completion_low"], s["completion_high"], strict=True)
            ],
            "expected points": s["expected_points"].map(lambda v: f"{v:.2f}"),
            "holders' win lift": s["lift"].map(fmt_points),
            "lift interval": [
                fmt_interval(lo, hi, points=True)
                for lo, hi in zip(s["lift_low"], s["lift_high"], strict=True)
            ],
            "verdict": s["significant"].map(_verdict),
        }
    )
    report.table(
        "score_cards_pooled",
        s,
        "Score cards over all player counts; held by = share of seat-games (and seat-games) "
        "ending with the card. Per player count, with the holders' and others' win shares: "
        f"`{BALANCE_FILE_PREFIX}score_cards.csv`.",
        display=display,
    )


def _contest_section(report: Report, balance: CardBalance) -> None:
    report.heading("3. Contest cards: spread and honors")
    report.paragraph(
        "Each game has four contest cards: the conductor, one soloist (A-D), one pianist and "
        "one harpist card. Spread = the highest minus the lowest seat's points on the card in a "
        "game (points): how much the card separates the players. Its honor (2 points to every "
        "seat with the best score on it, if above 0, C6) decides a game when removing that "
        "card's honor tokens from the final scores changes who wins (the set of winners); an "
        "honor shared by the winner and the runner-up never decides. Shares of games are over "
        "the games the card was in play (the `games` column)."
    )
    c = balance.contests_pooled
    top = c.loc[c["decides"].idxmax()]
    report.bullets(
        [
            f"Most decisive honor: {top['contest']} {top['card']}, deciding "
            f"{fmt_percent(top['decides'])} of {int(top['games']):,} games "
            f"{fmt_interval(top['decides_low'], top['decides_high'])}.",
        ]
    )
    report.figure(
        "contests", contest_figure(balance), "Figure 2: spread and honor decisiveness per card."
    )
    spreads = [col for col in c.columns if col.startswith("spread_")]
    display = pd.DataFrame(
        {
            "card": [_contest_label(r.contest, r.card) for r in c.itertuples(index=False)],
            "scores": c["scores"],
            "games": c["games"].map(lambda v: f"{int(v):,}"),
            "mean points": c["mean_points"].map(lambda v: f"{v:.2f}"),
            **{
                f"spread, {col.removeprefix('spread_').removesuffix('p')} players": c[col].map(
                    lambda v: f"{v:.2f}"
                )
                for col in spreads
            },
            "honor decides": c["decides"].map(fmt_percent),
            "95% interval": [
                fmt_interval(lo, hi)
                for lo, hi in zip(c["decides_low"], c["decides_high"], strict=True)
            ],
        }
    )
    report.table(
        "contests_pooled",
        c,
        "Contest cards over all player counts (mean points per seat; spread per player count). "
        f"Per player count with shared and empty honors: `{BALANCE_FILE_PREFIX}contests.csv`.",
        display=display,
    )


def _popularity_section(report: Report, balance: CardBalance) -> None:
    report.heading("4. The popularity kind")
    report.paragraph(
        "The popularity token (drawn first, C2) names a kind; every token of that kind in an "
        "orchestra is worth 1 point. Its value is measured two ways: the mean popularity points "
        "of a seat (and of winners against the others), and the win share of the seat that "
        "holds strictly the most tokens of that kind (the leader; games where two seats tie for "
        "the most are left out), against the fair share 1/players. A leader also tends to lead "
        "the conductor, so this is the value of a strong kind, not of the token alone."
    )
    p = balance.popularity
    overall = p[p["popularity_kind"] == "all"]
    report.bullets(
        [
            f"{int(r.players)} players: the leader wins {fmt_percent(r.leader_win_share)} of "
            f"{int(r.leader_games):,} games {fmt_interval(r.leader_low, r.leader_high)} against "
            f"a fair {fmt_percent(r.fair)} ({_verdict(r.significant)}); popularity is "
            f"{fmt_percent(r.score_share)} of the points ({r.mean_points:.2f} per seat, "
            f"{r.winner_points:.2f} for winners)."
            for r in overall.itertuples(index=False)
        ]
    )
    report.figure(
        "popularity", popularity_figure(balance), "Figure 3: win share of the popularity leader."
    )
    display = pd.DataFrame(
        {
            "players": p["players"],
            "kind": p["popularity_kind"],
            "games": p["games"].map(lambda v: f"{int(v):,}"),
            "points per seat": p["mean_points"].map(lambda v: f"{v:.2f}"),
            "winners / others": [
                f"{w:.2f} / {o:.2f}"
                for w, o in zip(p["winner_points"], p["other_points"], strict=True)
            ],
            "leader games": p["leader_games"].map(lambda v: f"{int(v):,}"),
            "leader win share": p["leader_win_share"].map(fmt_percent),
            "95% interval": [
                fmt_interval(lo, hi)
                for lo, hi in zip(p["leader_low"], p["leader_high"], strict=True)
            ],
            "vs fair share": p["advantage"].map(fmt_points),
            "verdict": p["significant"].map(_verdict),
        }
    )
    report.table("popularity", p, "Popularity by player count and kind.", display=display)


def _seat_section(report: Report, balance: CardBalance) -> None:
    report.heading("5. Seat advantage")
    report.paragraph(
        "Win share by seat against the fair share 1/players. Seat 0 resolves its composers "
        "first (C4) and passes to seat 1; the chi-square test asks whether all seats win "
        "equally often."
    )
    tests = balance.seat_tests
    report.bullets(
        [
            f"{int(t.players)} players ({int(t.games):,} games): chi-square {t.chi2:.2f} on "
            f"{int(t.dof)} df, p = {t.p_value:.3g}: "
            + ("seats differ (significant)." if t.significant else "not significant.")
            for t in tests.itertuples(index=False)
        ]
    )
    report.figure("seats", concerto_seat_figure(balance), "Figure 4: seat advantage.")
    seats = balance.seats
    display = pd.DataFrame(
        {
            "players": seats["players"],
            "seat": seats["seat"],
            "games": seats["games"].map(lambda v: f"{int(v):,}"),
            "win share": seats["win_share"].map(fmt_percent),
            "95% interval": [
                fmt_interval(lo, hi) for lo, hi in zip(seats["low"], seats["high"], strict=True)
            ],
            "fair share": seats["fair"].map(fmt_percent),
            "advantage": seats["advantage"].map(fmt_points),
            "verdict": seats["significant"].map(_verdict),
        }
    )
    report.table("seats", seats, "Seat advantage by player count.", display=display)
    report.table(
        "seat_tests",
        tests,
        "Chi-square test that every seat wins equally often.",
        display=tests.assign(
            chi2=tests["chi2"].map(lambda v: f"{v:.2f}"),
            p_value=tests["p_value"].map(lambda v: f"{v:.3g}"),
            significant=tests["significant"].map(_verdict),
        ),
    )


__all__ = [
    "BALANCE_DEFAULT_GAMES",
    "BALANCE_REPORT_FILENAME",
    "SOLO_DEFAULT_GAMES",
    "SOLO_DEFAULT_LOOKAHEAD_GAMES",
    "SOLO_REPORT_FILENAME",
    "build_concerto_report",
    "build_concerto_solo_report",
    "concerto_seat_figure",
    "contest_figure",
    "margin_figure",
    "popularity_figure",
    "provisional_banner",
    "score_card_figure",
    "setup_card_figure",
    "setup_heatmap_figure",
    "solo_policy_figure",
    "write_concerto_report",
    "write_concerto_solo_report",
]
