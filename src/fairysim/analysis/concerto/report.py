"""The Fairy Concerto card-balance report, 2 to 4 players.

``fairysim report concerto`` calls :func:`write_report`, which runs
:func:`fairysim.analysis.concerto.study.card_balance` and writes ``concerto-report.html`` (figures
embedded) with its tables as CSV files and its figures (:mod:`fairysim.analysis.concerto.figures`)
as PNG files beside it; nothing is written until the whole report is built. The card set is
labelled as ruling C9 asks (:mod:`fairysim.analysis.concerto.cards`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from fairysim.analysis.concerto.cards import card_section, cards_option, contest_label, new_report
from fairysim.analysis.concerto.figures import (
    contest_figure,
    contest_spread_figure,
    popularity_figure,
    score_card_figure,
    score_card_lift_figure,
)
from fairysim.analysis.concerto.study import PLAYER_COUNTS, CardBalance, card_balance
from fairysim.analysis.report.card_effects import card_effect_section, rerun_command
from fairysim.analysis.report.formats import (
    fmt_interval,
    fmt_intervals,
    fmt_percent,
    fmt_points,
    verdict,
)
from fairysim.analysis.report.ladder import ladder_command, ladder_section
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.plots import plain_caption
from fairysim.analysis.report.sections import (
    balance_section,
    games_option,
    precision_note,
    replay_section,
    run_block,
    statistics_note,
    turn_order_section,
)
from fairysim.analysis.studies.base import (
    DEFAULT_SEED,
    card_and_ladder_studies,
    play_study,
    search_ahead,
)
from fairysim.analysis.studies.card_effects import CardEffectStudy, disagreements
from fairysim.analysis.studies.ladder import LadderStudy
from fairysim.sim.batch import Progress
from fairysim.sim.concerto import ConcertoCards
from fairysim.sim.concerto.spec import (
    REPORT_CARD_GAMES,
    REPORT_GAMES,
    REPORT_LADDER_GAMES,
    REPORT_PRECISION,
    REPORT_SEARCH_GAMES,
    SPEC,
)
from fairysim.stats.ranking import group_label, leading_group

STANDING = (
    "A seat's standing after a round is the score the final scoring would give it if the game "
    "ended then, honors included (ruling PC6); the draft's two rounds make the first third "
    "its first round, half the game, so a 3-4 player game has at most one lead change."
)
"""What the balance card says a standing is (beside its comeback line)."""

DEFAULT_GAMES = REPORT_GAMES
"""The report's scale in games per player count: by default it plays to
:data:`~fairysim.sim.concerto.spec.REPORT_PRECISION`, at most
:data:`~fairysim.analysis.studies.base.PRECISION_CAP` times this many games per player count
(``--max-games`` sets another cap); ``--games`` plays a fixed count instead."""

REPORT_FILENAME = "concerto-report.html"
FILE_PREFIX = "concerto-"
"""CSV and PNG files are named ``concerto-<table>.csv`` / ``concerto-<figure>.png``."""


def write_report(
    out_dir: str | Path,
    *,
    games: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    cards: str | Path | ConcertoCards | None = None,
    players: Sequence[int] | None = None,
    policy: str = "greedy",
    precision: float | None = None,
    max_games: int | None = None,
    card_games: int | None = None,
    ladder_games: int | None = None,
    search_games: int | None = None,
) -> Path:
    """Run the card-balance study and write its HTML report with CSV and PNG files.

    Parameters
    ----------
    out_dir : str or Path
        Folder for the report (created if missing).
    games : int, optional
        Games per player count, a fixed count; without it the study plays
        to ``precision``.
    seed : int, default :data:`~fairysim.analysis.studies.base.DEFAULT_SEED`
        Seed of every run.
    threads : int, optional
        numba threads; never changes the numbers.
    progress : callable, optional
        ``progress(games_done, games_total)`` over the whole study.
    cards : path or ConcertoCards, optional
        Card file (the shipped provisional set by default).
    players : sequence of int, default (2, 3, 4)
        Player counts.
    policy : str, default ``"greedy"``
        The policy every seat plays.
    precision, max_games : float and int, optional
        Without ``games``: play the study at doubling game counts until the balance card's
        corrected turn-order half-widths are at most ``precision`` (default
        :data:`~fairysim.sim.concerto.spec.REPORT_PRECISION`), at most ``max_games`` per
        player count (default :data:`~fairysim.analysis.studies.base.PRECISION_CAP` times
        :data:`DEFAULT_GAMES`; :func:`~fairysim.analysis.studies.base.play_study`).
    card_games : int, default :data:`~fairysim.sim.concerto.spec.REPORT_CARD_GAMES`
        Games per arm of the card-effect section
        (:func:`~fairysim.analysis.studies.card_effects.card_effects`: the baseline and one arm per
        score card, at every player count, ``policy`` at every seat).
    ladder_games : int, default :data:`~fairysim.sim.concerto.spec.REPORT_LADDER_GAMES`
        Games per mirror table of the skill-ladder section
        (:func:`~fairysim.analysis.studies.ladder.ladder_study`).
    search_games : int, default :data:`~fairysim.sim.concerto.spec.REPORT_SEARCH_GAMES`
        Games of the ladder's search rung (``rollout``) at each player count.

    Returns
    -------
    Path
        ``out_dir / "concerto-report.html"``.
    """
    search_games = REPORT_SEARCH_GAMES if search_games is None else search_games
    # the search player's kernel compiles while the rest of the report plays
    search_ahead(SPEC, PLAYER_COUNTS if players is None else players, search_games)
    balance = play_study(
        lambda n, alpha: card_balance(
            n,
            DEFAULT_SEED if seed is None else seed,
            PLAYER_COUNTS if players is None else players,
            policy,
            cards,
            threads,
            progress,
            alpha,
        ),
        games,
        DEFAULT_GAMES,
        precision,
        max_games,
        default_precision=REPORT_PRECISION,
    )
    effects, ladder = card_and_ladder_studies(
        SPEC,
        players=PLAYER_COUNTS if players is None else players,
        seed=DEFAULT_SEED if seed is None else seed,
        card_games=REPORT_CARD_GAMES if card_games is None else card_games,
        ladder_games=REPORT_LADDER_GAMES if ladder_games is None else ladder_games,
        search_games=search_games,
        policy=policy,
        cards=cards,
        threads=threads,
    )
    return build_report(balance, effects, ladder).write(out_dir)


def build_report(
    balance: CardBalance,
    effects: CardEffectStudy | None = None,
    ladder: LadderStudy | None = None,
) -> Report:
    """Assemble the card-balance report of a finished study in memory (nothing is written).

    Parameters
    ----------
    balance : CardBalance
        Result of :func:`~fairysim.analysis.concerto.study.card_balance`.
    effects : CardEffectStudy, optional
        The card-effect study (:func:`~fairysim.analysis.studies.card_effects.card_effects`); its
        section is left out without it.
    ladder : LadderStudy, optional
        The skill ladder (:func:`~fairysim.analysis.studies.ladder.ladder_study`); its section is
        left out without it.

    Returns
    -------
    Report
        Call :meth:`Report.write` to write it.
    """
    meta = balance.meta
    cards = balance.cards
    report = new_report(
        "Fairy Concerto: card balance, 2 to 4 players",
        REPORT_FILENAME,
        FILE_PREFIX,
        cards,
    )
    games, seed, players = meta["games"], meta["seed"], meta["players"]
    command = f"fairysim report concerto {games_option(meta)} --seed {seed}"
    if meta["policy"] != "greedy":
        command += f" --policy {meta['policy']}"
    command += cards_option(cards)
    covers = ""
    if list(players) != list(PLAYER_COUNTS):
        covers = f" ({', '.join(map(str, players))} players only, from Python)"
    run_block(
        report,
        f"{games:,} games per player count ({', '.join(map(str, players))} players){covers}; "
        f"every seat plays {meta['policy']}; engine version {meta['engine_version']}; cards: "
        f"{cards.label}",
        games * len(players),
        seed,
        meta["package_version"],
        command,
    )
    precision_note(report, meta)
    report.paragraph(
        f"Every seat plays the same policy ({meta['policy']}), so differences between cards and "
        "seats come from the cards and the seating, not from the players. Rates carry Wilson "
        "intervals, means and differences normal ones."
    )
    statistics_note(report)
    balance_section(report, balance.balance, SPEC.turn_order, what="every run", standing=STANDING)
    _parts_section(report, balance)
    _score_card_section(report, balance)
    if effects is not None:
        card_effect_section(
            report, effects, rerun_command("concerto", effects, cards_option(cards))
        )
    _contest_section(report, balance)
    _popularity_section(report, balance)
    turn_order_section(report, balance.balance, SPEC.turn_order)
    if ladder is not None:
        ladder_section(report, ladder, ladder_command("concerto", ladder, cards_option(cards)))
    replay_section(
        report,
        balance.balance,
        lambda e: (
            f"fairysim replay concerto --players {int(e['players'])} --policy {meta['policy']} "
            f"--seed {seed} --games {games} --game {int(e['game'])}{cards_option(cards)}"
        ),
    )
    card_section(report, cards)
    report.section("Files")
    report.paragraph(
        "Every table is also a CSV file beside this page, in full precision, with the per player "
        f"count tables `{FILE_PREFIX}score_cards.csv` and "
        f"`{FILE_PREFIX}contests.csv` and the pairwise comparisons behind each ranking "
        f"(`{FILE_PREFIX}*_pairs.csv`); every figure is also an SVG file; "
        f"`{FILE_PREFIX}metadata.json` records the configuration."
    )
    report.data("score_cards", balance.score_cards)
    report.data("contests", balance.contests)
    report.metadata(meta)
    return report


def _lift_disagreements(balance: CardBalance, effects: CardEffectStudy) -> list[str]:
    """Where the score cards' effect, averaged over player counts, and the holders' lift of the
    "Score cards" section (averaged the same way) disagree in sign or in order."""
    lift = balance.score_cards_pooled[["card", "lift", "lift_significant"]]
    pooled = effects.pooled().merge(lift.rename(columns={"card": "label"}), on="label")
    found = disagreements(
        pooled,
        association="lift",
        significant="lift_significant",
        name="the holders' lift (Score cards section)",
        unit="of games",
    )
    return [f"Averaged over player counts, {note}" for note in found]


def _parts_section(report: Report, balance: CardBalance) -> None:
    report.section("Where the points come from")
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
    report.section("Score cards")
    s = balance.score_cards_pooled
    dominated = balance.meta.get("dominated", [])
    report.paragraph(
        "For each of the 26 score cards: how often a seat ends the game holding it, the share "
        "of its holders who complete it (a completed card is worth 5 points, so 5 x completion "
        "is its expected value), and the win share of the seats holding it minus that of the "
        "seats that do not (the lift, averaged over player counts; the 26 lifts are one "
        "corrected family). A card with a high lift is worth drafting; the lift is an "
        "association, not a pure effect of the card (a seat that drafts composers holds more "
        "cards). The easiest and hardest cards are named from the corrected comparisons of "
        "every pair of completion rates (the cards' holders are different seat-games, so the "
        "rates are compared as independent). "
        + (
            "No score card is dominated by another (none asks for no more of every kind than "
            "another)."
            if not dominated
            else "Dominated pairs (the first asks for no more of any kind than the second): "
            + ", ".join(f"{a} over {b}" for a, b in dominated)
            + "."
        )
    )
    up = int((s["lift_significant"] & (s["lift"] > 0)).sum())
    down = int((s["lift_significant"] & (s["lift"] < 0)).sum())
    rates = dict(zip(s["card"], s["completion"], strict=True))
    ses = dict(zip(s["card"], s["completion_se"], strict=True))
    _, easy_group, pairs = leading_group(rates, ses, "easiest")
    _, hard_group, _ = leading_group(rates, ses, "hardest", higher_is_better=False)
    easy, hard = group_label("easiest", easy_group), group_label("hardest", hard_group)
    by_card = s.set_index("card")
    report.bullets(
        [
            f"Completion, {easy} (plain 95 % intervals, each card's own; the group from the "
            "corrected pairs): " + _completion_list(by_card, easy_group) + ".",
            f"Completion, {hard} (plain 95 % intervals): "
            + _completion_list(by_card, hard_group)
            + ".",
            f"Holders win significantly more often for {up} cards, significantly less often "
            f"for {down}, not significantly differently for {len(s) - up - down} (corrected "
            "over the 26 cards).",
        ]
    )
    report.data("completion_pairs", pairs)
    report.figure(
        "score_cards",
        score_card_figure(balance),
        plain_caption(
            "Score-card completion rate.",
            "The groups named above come from the corrected pairwise comparisons.",
        ),
    )
    report.figure("score_card_lift", score_card_lift_figure(balance), "Score-card holders' lift.")
    display = pd.DataFrame(
        {
            "card": s["card"],
            "asks for": s["asks_for"],
            "held by": [
                f"{fmt_percent(h)} ({int(n):,})"
                for h, n in zip(s["held_share"], s["held"], strict=True)
            ],
            "completion": s["completion"].map(fmt_percent),
            "plain 95% interval": fmt_intervals(s["completion_low"], s["completion_high"]),
            "expected points": s["expected_points"].map(lambda v: f"{v:.2f}"),
            "holders' win lift": s["lift"].map(fmt_points),
            "corrected interval": fmt_intervals(s["lift_low"], s["lift_high"], points=True),
            "verdict": s["lift_significant"].map(verdict),
        }
    )
    report.table(
        "score_cards_pooled",
        s,
        "Score cards over all player counts; held by = share of seat-games (and seat-games) "
        "ending with the card. Per player count, with the holders' and others' win shares: "
        f"`{FILE_PREFIX}score_cards.csv`.",
        display=display,
    )


def _contest_section(report: Report, balance: CardBalance) -> None:
    report.section("Contest cards: spread and honors")
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
    labels = [contest_label(r.contest, r.card) for r in c.itertuples(index=False)]
    shares = dict(zip(labels, c["decides"], strict=True))
    ses = dict(zip(labels, c["decides_se"], strict=True))
    _, group, pairs = leading_group(shares, ses, "most decisive")
    wording = group_label("most decisive", group)
    by_label = c.assign(label=labels).set_index("label")
    report.bullets(
        [
            f"Honors, {wording} (every pair of cards compared, corrected; the intervals are "
            "plain 95 %, each card's own): "
            + "; ".join(_decides_text(label, by_label.loc[label]) for label in group)
            + "."
        ]
    )
    report.data("contest_pairs", pairs)
    report.figure(
        "contests",
        contest_figure(balance),
        plain_caption(
            "How often each card's honor decides.",
            "The most decisive group comes from the corrected pairwise comparisons.",
        ),
    )
    report.figure(
        "contest_spread", contest_spread_figure(balance), plain_caption("Spread each card creates.")
    )
    spreads = [col for col in c.columns if col.startswith("spread_")]
    display = pd.DataFrame(
        {
            "card": [contest_label(r.contest, r.card) for r in c.itertuples(index=False)],
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
            "plain 95% interval": fmt_intervals(c["decides_low"], c["decides_high"]),
        }
    )
    report.table(
        "contests_pooled",
        c,
        "Contest cards over all player counts (mean points per seat; spread per player count). "
        f"Per player count with shared and empty honors: `{FILE_PREFIX}contests.csv`.",
        display=display,
    )


def _popularity_section(report: Report, balance: CardBalance) -> None:
    report.section("The popularity kind")
    report.paragraph(
        "The popularity token (drawn first, C2) names a kind; every token of that kind in an "
        "orchestra is worth 1 point. Its value is measured two ways: the mean popularity points "
        "of a seat (and of winners against the others), and the win share of the seat that "
        "holds strictly the most tokens of that kind (the leader; games where two seats tie for "
        "the most are left out), against the fair share 1/players, every row of the table one "
        "corrected family. A leader also tends to lead the conductor, so this is the value of a "
        "strong kind, not of the token alone."
    )
    p = balance.popularity
    overall = p[p["popularity_kind"] == "all"]
    report.bullets(
        [
            f"{int(r.players)} players: the leader wins {fmt_percent(r.leader_win_share)} of "
            f"{int(r.leader_games):,} games {fmt_interval(r.leader_low, r.leader_high)} against "
            f"a fair {fmt_percent(r.fair)} ({verdict(r.leader_significant)}); popularity is "
            f"{fmt_percent(r.score_share)} of the points ({r.mean_points:.2f} per seat, "
            f"{r.winner_points:.2f} for winners)."
            for r in overall.itertuples(index=False)
        ]
    )
    report.figure("popularity", popularity_figure(balance), "Win share of the popularity leader.")
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
            "corrected interval": fmt_intervals(p["leader_low"], p["leader_high"]),
            "vs fair share": p["advantage"].map(fmt_points),
            "verdict": p["leader_significant"].map(verdict),
        }
    )
    report.table("popularity", p, "Popularity by player count and kind.", display=display)


def _decides_text(label: str, card: pd.Series) -> str:
    """A contest card's honor-decides share with its interval and games."""
    interval = fmt_interval(card["decides_low"], card["decides_high"])
    return (
        f"{label} decides {fmt_percent(card['decides'])} of {int(card['games']):,} games {interval}"
    )


def _completion_list(cards: pd.DataFrame, group: list) -> str:
    """The cards of a group with their completion rates, intervals and holders."""
    return "; ".join(
        f"{card} ({cards.loc[card, 'asks_for']}) {fmt_percent(cards.loc[card, 'completion'])} "
        f"{fmt_interval(cards.loc[card, 'completion_low'], cards.loc[card, 'completion_high'])} "
        f"of {int(cards.loc[card, 'held']):,} holders"
        for card in group
    )


__all__ = ["DEFAULT_GAMES", "FILE_PREFIX", "REPORT_FILENAME", "build_report", "write_report"]
