"""The Fairy Concerto card-balance report, 2 to 4 players.

``fairysim report concerto`` calls :func:`write_report`: the standard report
(:mod:`fairysim.analysis.report.pipeline`) of :func:`fairysim.analysis.concerto.study.card_balance`
with the card-balance sections written here, and the score cards' lifts checked under the best
heuristic (:mod:`fairysim.analysis.concerto.check`). It writes ``concerto-report.html`` (figures
embedded) with its tables as CSV files and its figures (:mod:`fairysim.analysis.concerto.figures`)
as PNG files beside it; nothing is written until the whole report is built. The card set is
labelled as ruling C9 asks (:mod:`fairysim.analysis.concerto.cards`).
"""

from __future__ import annotations

import pandas as pd

from fairysim.analysis.concerto.cards import card_section, cards_option, contest_label, new_report
from fairysim.analysis.concerto.check import score_card_check
from fairysim.analysis.concerto.declaration import REPORT
from fairysim.analysis.concerto.figures import (
    contest_figure,
    contest_spread_figure,
    popularity_figure,
    score_card_figure,
    score_card_lift_figure,
)
from fairysim.analysis.concerto.study import PLAYER_COUNTS, CardBalance, card_balance
from fairysim.analysis.report.answer import (
    check_question,
    comparisons_answer,
    verdict_table,
)
from fairysim.analysis.report.answer_card import Question
from fairysim.analysis.report.effects_beside import (
    association_against_effect,
    effect_display,
    effects_beside,
)
from fairysim.analysis.report.formats import (
    fmt_interval,
    fmt_intervals,
    fmt_percent,
    fmt_points,
    verdict,
)
from fairysim.analysis.report.heuristic_check import check_paragraphs
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.pipeline import ReportRun, StandardReport, Studies
from fairysim.analysis.report.plots import plain_caption
from fairysim.analysis.report.rankings import ranked_pairs
from fairysim.analysis.report.verdict_marks import definition, tested
from fairysim.analysis.studies.card_effects import CardEffectStudy
from fairysim.analysis.studies.heuristic_check import HeuristicCheck
from fairysim.analysis.studies.ladder import LadderStudy

STANDING = (
    "A seat's standing after a round is the score the final scoring would give it if the game "
    "ended then, honors included (ruling PC6); the 3-4 player draft's two rounds make the "
    "first third its first round, half the game, so such a game has at most one lead change; "
    "the two-player game's four rounds make it the first two."
)
"""What the balance card says a standing is (beside its comeback line)."""


class ConcertoReport(StandardReport):
    """The card-balance sections of the standard report
    (:mod:`fairysim.analysis.report.pipeline`)."""

    declaration = REPORT
    title = "Fairy Concerto: card balance, 2 to 4 players"
    players = PLAYER_COUNTS
    check = staticmethod(score_card_check)

    def study(self, run: ReportRun, games: int, alpha: float) -> CardBalance:
        """The card-balance study (:func:`~fairysim.analysis.concerto.study.card_balance`)."""
        return card_balance(
            games, run.seed, run.players, run.policy, run.cards, run.threads, run.progress, alpha
        )

    def new_page(self, study: CardBalance) -> Report:
        return new_report(self.title, self.filename, self.prefix, study.cards)

    def run_what(self, study: CardBalance) -> tuple[str, int]:
        meta = study.meta
        games, players = meta["games"], meta["players"]
        covers = ""
        if list(players) != list(PLAYER_COUNTS):
            covers = f" ({', '.join(map(str, players))} players only, from Python)"
        what = (
            f"{games:,} games per player count ({', '.join(map(str, players))} players){covers}; "
            f"every seat plays {meta['policy']}; engine version {meta['engine_version']}; cards: "
            f"{study.cards.label}"
        )
        return what, games * len(players)

    def cards_option(self, study: CardBalance) -> str:
        return cards_option(study.cards)

    def balance_words(self, study: CardBalance) -> dict[str, str]:
        return {"what": "every run", "standing": STANDING}

    def replay_command(self, study: CardBalance, example: dict) -> str:
        meta = study.meta
        return (
            f"fairysim replay concerto --players {int(example['players'])} "
            f"--policy {meta['policy']} --seed {meta['seed']} --games {meta['games']} "
            f"--game {int(example['game'])}{cards_option(study.cards)}"
        )

    def introduction(self, report: Report, studies: Studies) -> None:
        report.paragraph(
            f"Every seat plays the same policy ({studies.study.meta['policy']}), so differences "
            "between cards and seats come from the cards and the seating, not from the players. "
            "Rates carry Wilson intervals, means and differences normal ones."
        )

    def sections_before_effects(self, report: Report, studies: Studies) -> None:
        _parts_section(report, studies.study)
        _score_card_section(report, studies.study, studies.check, studies.effects)

    def sections_after_effects(self, report: Report, studies: Studies) -> None:
        _contest_section(report, studies.study)
        _popularity_section(report, studies.study)

    def closing_sections(self, report: Report, studies: Studies) -> None:
        balance = studies.study
        card_section(report, balance.cards)
        report.section("Files")
        report.paragraph(
            "Every table is also a CSV file beside this page, in full precision, with the per "
            f"player count tables `{self.prefix}score_cards.csv` and "
            f"`{self.prefix}contests.csv` and the pairwise comparisons behind each ranking "
            f"(`{self.prefix}completion_pairs.csv`, `{self.prefix}contest_pairs.csv`); every "
            "figure is also an SVG file; "
            f"`{self.prefix}metadata.json` records the configuration."
        )
        report.data("score_cards", balance.score_cards)
        report.data("contests", balance.contests)

    def own_questions(self, studies: Studies) -> list[Question]:
        return [_score_card_question(studies.study, studies.check)]


SCORE_CARD_WORDS = {"above": "holders win more", "below": "holders win less"}
SCORE_CARD_COUNT = "holders win more or less often than the others for {kept} of the {total} cards"


def _score_card_question(balance: CardBalance, check: HeuristicCheck | None) -> Question:
    """Do the seats holding a score card win more or less often than the others? The score
    cards' section: its pooled lifts, then its check under the best heuristic."""
    s = balance.score_cards_pooled
    lifts = verdict_table(
        s.rename(
            columns={"lift_low": "low", "lift_high": "high", "lift_significant": "significant"}
        ),
        "lift",
    )
    counts = ", ".join(map(str, balance.meta["players"]))
    pooled = comparisons_answer(
        lifts,
        "base_",
        f"{balance.meta['policy']}, averaged over {counts} players",
        lambda r: str(r.card),
        _check_value,
        "Score cards",
        f"{balance.meta['games']:,} games per player count",
        "pooled",
        what="score cards",
        words=SCORE_CARD_WORDS,
        counted=SCORE_CARD_COUNT,
        family="score_cards_pooled",
        columns=("lift_significant", "lift"),
    )
    asks = (
        "do the seats that end holding a score card win more or less often than the others? "
        "(an association, not the card's own effect)"
    )
    return check_question(
        check,
        "Score cards",
        asks,
        lambda r: str(r.card),
        _check_value,
        "Score cards",
        what="score cards",
        words=SCORE_CARD_WORDS,
        counted=SCORE_CARD_COUNT,
        before=(pooled,),
        family="score_card_check",
    )


CONCERTO_REPORT = ConcertoReport()
write_report = CONCERTO_REPORT.write
"""``write_report(out_dir, *, games=None, seed=None, threads=None, progress=None, cards=None,
players=None, precision=None, max_games=None, policy="greedy", card_games=None,
ladder_games=None, search_games=None, heuristic_games=None)``: play the study and write the
report (:meth:`~fairysim.analysis.report.pipeline.StandardReport.write`; the defaults are
:data:`~fairysim.analysis.concerto.declaration.REPORT`'s)."""

FILE_PREFIX = CONCERTO_REPORT.prefix
"""CSV and PNG files are named ``concerto-<table>.csv`` / ``concerto-<figure>.png``."""

REPORT_FILENAME = CONCERTO_REPORT.filename


def build_report(
    balance: CardBalance,
    effects: CardEffectStudy | None = None,
    ladder: LadderStudy | None = None,
    check: HeuristicCheck | None = None,
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
    check : HeuristicCheck, optional
        The score cards' lifts under the best heuristic
        (:func:`~fairysim.analysis.concerto.check.score_card_check`), shown in the score cards'
        section.

    Returns
    -------
    Report
        Call :meth:`Report.write` to write it.
    """
    return CONCERTO_REPORT.build(Studies(balance, effects, ladder, check))


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


def _score_card_section(
    report: Report,
    balance: CardBalance,
    check: HeuristicCheck | None = None,
    effects: CardEffectStudy | None = None,
) -> None:
    """Completion of each score card and how its holders fared (an association), with the
    card's forced-card effect beside the lift where the report measures one (ruling PC5)."""
    report.section("Score cards")
    s = balance.score_cards_pooled
    beside = effects_beside(effects, s["card"])
    dominated = balance.meta.get("dominated", [])
    report.paragraph(
        "For each of the 26 score cards: how often a seat ends the game holding it, the share "
        "of its holders who complete it (a completed card is worth 5 points, so 5 x completion "
        "is its expected value), and the win share of the seats holding it minus that of the "
        "seats that do not (the lift, averaged over player counts; the 26 lifts are one "
        "corrected family). The lift is an association: it describes the games where a seat "
        "ended holding the card, not what the card does, and is no advice on what to draft (a "
        "seat that drafts composers holds more cards). "
        + (
            "What a card does is its forced-card effect, shown beside the lift: the same deals "
            "played with the card put in seat 0's hand (the card-effect section). "
            if effects is not None
            else "This run measured no forced-card effect, so nothing here says what a card does. "
        )
        + definition(
            "The easiest and hardest cards are named from the corrected comparisons of every "
            "pair of completion rates"
        )
        + " (the cards' holders are different seat-games, so the "
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
    rates = dict(zip(s["card"], s["completion"], strict=True))
    ses = dict(zip(s["card"], s["completion_se"], strict=True))
    ranked = ranked_pairs(
        report,
        "completion_pairs",
        rates,
        ses,
        f"all {len(s) * (len(s) - 1) // 2} pairs of "
        "score cards' completion rates, pooled over player counts",
    )
    easy, easy_group = ranked.leader("easiest")
    hard, hard_group = ranked.leader("hardest", higher_is_better=False)
    by_card = s.set_index("card")
    report.bullets(
        [
            f"Completion, {easy} (plain 95% intervals, each card's own; {ranked.sentence()}): "
            + _completion_list(by_card, easy_group)
            + ".",
            f"Completion, {hard} (plain 95% intervals): "
            + _completion_list(by_card, hard_group)
            + ".",
            _lift_counts(s, f"{report.prefix}score_cards_pooled.csv"),
            *association_against_effect(
                s["card"],
                s["lift"],
                s["lift_significant"],
                beside,
                "lift",
                f"{report.prefix}score_cards_pooled.csv",
                ("lift_significant", "lift"),
            ),
        ]
    )
    report.figure(
        "score_cards",
        score_card_figure(balance),
        plain_caption(
            "Score-card completion rate.",
            "The groups named in the lines above come from the corrected pairwise comparisons.",
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
            "holders' win lift (association)": s["lift"].map(fmt_points),
            "corrected interval": fmt_intervals(s["lift_low"], s["lift_high"], points=True),
            "lift verdict": s["lift_significant"].map(verdict),
            **(effect_display(beside) if effects is not None else {}),
        }
    )
    report.table(
        "score_cards_pooled",
        pd.concat([s, beside], axis=1) if effects is not None else s,
        "Score cards over all player counts; held by = share of seat-games (and seat-games) "
        "ending with the card"
        + (
            "; the forced-card effect is averaged over the player counts too, one Holm family "
            f"over the cards ({effects.meta['games']:,} paired games per card and player count)"
            if effects is not None
            else ""
        )
        + ". Per player count, with the holders' and others' win shares: "
        f"`{FILE_PREFIX}score_cards.csv`.",
        display=display,
    )
    if check is not None:
        check_paragraphs(
            report,
            check,
            "score cards' holders' lifts",
            lambda r: f"{r.card} ({r.asks_for})",
            _check_value,
            "score_card_check",
            note="Here the lift is the holders' at that one player count, not averaged over the "
            "counts as above.",
        )


def _check_value(row, prefix: str) -> str:
    """One policy's holders' lift of a score card with its corrected interval."""
    value, low, high = (getattr(row, prefix + k) for k in ("value", "low", "high"))
    return f"{fmt_points(value)} {fmt_interval(low, high, points=True)}"


def _contest_section(report: Report, balance: CardBalance) -> None:
    report.section("Contest cards: spread and honors")
    report.paragraph(
        "Each game has four contest cards: the conductor, one soloist (A-D), one pianist and "
        "one harpist card. Spread = the highest minus the lowest seat's points on the card in a "
        "game (points): how much the card separates the players. Its honor ("
        + definition("2 points to every seat with the best score on it, if above 0, C6")
        + ") decides a game when removing that "
        "card's honor tokens from the final scores changes who wins (the set of winners); an "
        "honor shared by the winner and the runner-up never decides. Shares of games are over "
        "the games the card was in play (the `games` column)."
    )
    c = balance.contests_pooled
    labels = [contest_label(r.contest, r.card) for r in c.itertuples(index=False)]
    shares = dict(zip(labels, c["decides"], strict=True))
    ses = dict(zip(labels, c["decides_se"], strict=True))
    ranked = ranked_pairs(
        report,
        "contest_pairs",
        shares,
        ses,
        f"all {len(c) * (len(c) - 1) // 2} pairs of contest cards' decided shares, pooled over "
        "player counts",
    )
    wording, group = ranked.leader("most decisive")
    by_label = c.assign(label=labels).set_index("label")
    report.bullets(
        [
            f"Honors, {wording} ({ranked.sentence()}; the intervals are "
            "plain 95%, each card's own): "
            + "; ".join(_decides_text(label, by_label.loc[label]) for label in group)
            + "."
        ]
    )
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
    family = f"{report.prefix}popularity.csv"
    report.bullets(
        [
            f"{int(r.players)} players: the leader wins {fmt_percent(r.leader_win_share)} of "
            f"{int(r.leader_games):,} games {fmt_interval(r.leader_low, r.leader_high)} against "
            f"a fair {fmt_percent(r.fair)} ("
            + tested(
                verdict(r.leader_significant),
                family,
                int(i),
                "separated" if r.leader_significant else "not separated",
                significant="leader_significant",
                value="advantage",
            )
            + "); popularity is "
            f"{fmt_percent(r.score_share)} of the points ({r.mean_points:.2f} per seat, "
            f"{r.winner_points:.2f} for winners)."
            for i, r in zip(overall.index, overall.itertuples(index=False), strict=True)
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


def _lift_counts(s: pd.DataFrame, family: str) -> str:
    """How many cards' holders win more, less or not separated from the others, each count
    marked against the rows of the pooled score-card table (``family``)."""
    parts = []
    for rows, words, claim in (
        (s[s["lift_significant"] & (s["lift"] > 0)], "significantly more often for", "higher"),
        (s[s["lift_significant"] & (s["lift"] < 0)], "significantly less often for", "lower"),
        (s[~s["lift_significant"]], "not significantly differently for", "not separated"),
    ):
        if len(rows):
            text = f"{words} {len(rows)} cards"
            parts.append(
                tested(
                    text,
                    family,
                    list(rows.index),
                    claim,
                    significant="lift_significant",
                    value="lift",
                )
            )
    return f"Holders win {', '.join(parts)} (corrected over the {len(s)} cards)."


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


__all__ = ["FILE_PREFIX", "REPORT_FILENAME", "ConcertoReport", "build_report", "write_report"]
