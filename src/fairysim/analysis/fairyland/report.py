"""The Fairy Land designer report, 2 to 4 players.

One module past 600 lines: it writes the page's own sections (cards, auctions, the court, game
length), each a short function beside the display helpers it alone uses; the shared sections are
in :mod:`fairysim.analysis.report.sections`, :mod:`~fairysim.analysis.report.card_effects` and
:mod:`~fairysim.analysis.report.ladder`.

``fairysim report fairyland`` calls :func:`write_report`: the standard report
(:mod:`fairysim.analysis.report.pipeline`) of
:func:`fairysim.analysis.fairyland.study.fairyland_study` with Fairy Land's sections written here.
It writes ``fairyland-report.html``
(figures embedded) with its tables as CSV files and its figures
(:mod:`fairysim.analysis.fairyland.figures`) as PNG files beside it; nothing is written until the
whole report is built. The Queen's Court is labelled PROVISIONAL (ruling L13) wherever results
are shown, and every "significant" is the verdict of a test corrected for the number of
comparisons it belongs with (Holm).
"""

from __future__ import annotations

import math
from types import MappingProxyType

import pandas as pd

from fairysim.analysis.fairyland.check import court_check
from fairysim.analysis.fairyland.contest import CONTEST_PLAYERS, two_player_contest
from fairysim.analysis.fairyland.declaration import REPORT
from fairysim.analysis.fairyland.figures import (
    COURT_FIGURE_MEASURES,
    auction_figure,
    card_balance_figure,
    card_collect_figure,
    court_figure,
    length_figure,
)
from fairysim.analysis.fairyland.runs import GAME_MEASURES
from fairysim.analysis.fairyland.study import (
    BALANCE_COURT,
    NO_COURT,
    PLAYER_COUNTS,
    FairyLandStudy,
    clearly_first,
    fairyland_study,
)
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
    fmt_p,
    fmt_percent,
    fmt_points,
    verdict,
)
from fairysim.analysis.report.heuristic_check import check_paragraphs
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.pipeline import ReportRun, StandardReport, Studies
from fairysim.analysis.report.plots import plain_caption
from fairysim.analysis.report.verdict_marks import definition, tested
from fairysim.analysis.studies.card_effects import CardEffectStudy
from fairysim.analysis.studies.heuristic_check import HeuristicCheck
from fairysim.analysis.studies.ladder import LadderStudy

STANDING = (
    "A round is one turn of every seat from the starting seat, and a seat's standing after it "
    "is the score the final scoring would give it if the game ended then, applause and goblins "
    "included (ruling PL11); with the rulebook's 36 turns that is 9, 12 and 18 rounds at 4, 3 "
    "and 2 players, so the first third is 3, 4 and 6 rounds."
)
"""What the balance card says a standing is (beside its comeback line)."""


class FairyLandReport(StandardReport):
    """Fairy Land's sections of the standard report (:mod:`fairysim.analysis.report.pipeline`):
    cards, auctions, the Queen's Court (PROVISIONAL, ruling L13) and game length."""

    declaration = REPORT
    title = "Fairy Land: cards, auctions, the Queen's Court and seats"
    players = PLAYER_COUNTS
    axes = MappingProxyType({"court": BALANCE_COURT})
    check = staticmethod(court_check)

    def study(self, run: ReportRun, games: int, alpha: float) -> FairyLandStudy:
        """The Fairy Land study (:func:`~fairysim.analysis.fairyland.study.fairyland_study`)."""
        return fairyland_study(
            games,
            run.seed,
            run.players,
            policy=run.policy,
            cards=run.cards,
            auction_games=run.options["auction_games"],
            threads=run.threads,
            progress=run.progress,
            alpha=alpha,
        )

    def more(self, study: FairyLandStudy, run: ReportRun) -> dict[str, pd.DataFrame]:
        """Two-player auctions under several policies, where the study plays two players."""
        if CONTEST_PLAYERS not in study.meta["players"]:
            return {}
        contest = two_player_contest(
            study.meta["auction_games"],
            study.meta["seed"],
            run.policy,
            cards=run.cards,
            threads=run.threads,
        )
        return {"contest": contest}

    def run_what(self, study: FairyLandStudy) -> tuple[str, int]:
        meta = study.meta
        games, players = meta["games"], meta["players"]
        runs = len(players) * len(meta["courts"])
        what = (
            f"{games:,} games per court ({', '.join(meta['courts'])}) and player count "
            f"({', '.join(map(str, players))} players): {runs} runs, and "
            f"{meta['auction_games']:,} games per player count logged auction by auction; every "
            f"seat plays {meta['policy']}; engine version {meta['engine_version']}; Queen's "
            f"Court: {meta['court_label']}; starred: {meta['starred_label']}"
        )
        return what, games * runs

    def balance_words(self, study: FairyLandStudy) -> dict[str, str]:
        return {
            "what": f"the {BALANCE_COURT} court (PROVISIONAL, ruling L13)",
            "standing": STANDING,
        }

    def replay_command(self, study: FairyLandStudy, example: dict) -> str:
        return replay_command(study.meta, example)

    def introduction(self, report: Report, studies: Studies) -> None:
        report.paragraph(
            "The Queen's Court items are PROVISIONAL (ruling L13): the rulebook does not print "
            "the 19 items, and every number that involves an item is played with the project's "
            "stand-in court (src/fairysim/sim/fairyland/data/court.toml). Every run uses the same "
            "seed, and a game's forest, starting player and court deck positions do not depend "
            "on the court (rulings PL6, PL9), so the courts are compared game by game on the "
            "same forests (paired differences), which removes the luck of the deal from the "
            "comparison."
        )
        report.paragraph(
            "Shares carry Wilson intervals, means and differences normal ones; card lifts have "
            "standard errors clustered by game, since the seats of one game share one win. The "
            "families: card types; court effects; turn positions. Nobody ties in Fairy Land "
            "(L12), so a win share is the share of games won."
        )

    def sections_before_effects(self, report: Report, studies: Studies) -> None:
        _card_section(report, studies.study, studies.effects)
        if studies.effects is not None:
            _card_effect_note(report, studies.effects)

    def sections_after_effects(self, report: Report, studies: Studies) -> None:
        study = studies.study
        _auction_section(report, study, studies.extra.get("contest"))
        _court_section(report, study, studies.check)
        _length_section(report, study)

    def own_questions(self, studies: Studies) -> list[Question]:
        question = _court_question(studies.study, studies.check)
        return [] if question is None else [question]

    def closing_sections(self, report: Report, studies: Studies) -> None:
        study, prefix = studies.study, self.prefix
        report.section("Files")
        report.paragraph(
            "Every table is also a CSV file beside this page, in full precision: the card "
            f"balance per player count (`{prefix}cards.csv`), every recorded auction "
            f"(`{prefix}auctions.csv`), the courts' means (`{prefix}court_levels.csv`) and "
            f"the distribution of auctions per game (`{prefix}auction_counts.csv`)"
            + (
                f", the card effects (`{prefix}card_effects.csv`) and removals "
                f"(`{prefix}card_removals.csv`)"
                if studies.effects is not None
                else ""
            )
            + f"; every figure is also an SVG file; `{prefix}metadata.json` records the "
            "configuration."
        )
        report.data("cards", study.cards)
        report.data("auctions", study.auctions)
        report.data("court_levels", study.court_levels)
        report.data("auction_counts", study.auction_counts)


FAIRYLAND_REPORT = FairyLandReport()
write_report = FAIRYLAND_REPORT.write
"""``write_report(out_dir, *, games=None, seed=None, threads=None, progress=None, cards=None,
players=None, precision=None, max_games=None, policy="greedy", auction_games=None,
card_games=None, ladder_games=None, search_games=None, heuristic_games=None)``: play the study
and write the report (:meth:`~fairysim.analysis.report.pipeline.StandardReport.write`; the
defaults are :data:`~fairysim.analysis.fairyland.declaration.REPORT`'s)."""

FILE_PREFIX = FAIRYLAND_REPORT.prefix
"""CSV and PNG files are named ``fairyland-<table>.csv`` / ``fairyland-<figure>.png``."""

REPORT_FILENAME = FAIRYLAND_REPORT.filename


def build_report(
    study: FairyLandStudy,
    effects: CardEffectStudy | None = None,
    ladder: LadderStudy | None = None,
    check: HeuristicCheck | None = None,
    contest: pd.DataFrame | None = None,
) -> Report:
    """Assemble the report of a finished study in memory (nothing is written).

    Parameters
    ----------
    study : FairyLandStudy
        Result of :func:`~fairysim.analysis.fairyland.study.fairyland_study`.
    effects : CardEffectStudy, optional
        The card-effect study (:func:`~fairysim.analysis.studies.card_effects.card_effects`, ruling
        PL10); its section is left out without it.
    ladder : LadderStudy, optional
        The skill ladder (:func:`~fairysim.analysis.studies.ladder.ladder_study`); its section is
        left out without it.
    check : HeuristicCheck, optional
        The court comparisons under the best heuristic
        (:func:`~fairysim.analysis.fairyland.check.court_check`), shown in the court section.
    contest : pandas.DataFrame, optional
        Two-player auctions under several policies
        (:func:`~fairysim.analysis.fairyland.contest.two_player_contest`), shown in the
        auctions section.

    Returns
    -------
    Report
        Call :meth:`Report.write` to write it.
    """
    extra = {} if contest is None else {"contest": contest}
    return FAIRYLAND_REPORT.build(Studies(study, effects, ladder, check, extra))


def replay_command(meta: dict, example: dict) -> str:
    """The ``fairysim replay`` command of one of the balance card's example games."""
    text = (
        f"fairysim replay fairyland --players {int(example['players'])} "
        f"--policy {meta['policy']} --seed {meta['seed']} --games {meta['games']} "
        f"--game {int(example['game'])}"
    )
    if example.get("court") not in (None, BALANCE_COURT):
        text += f" --court {example['court']}"
    if "cards" in meta:
        text += f" --cards {meta['cards']}"
    return text


# --------------------------------------------------------------------------------------------
# Sections


def _card_section(
    report: Report, study: FairyLandStudy, effects: CardEffectStudy | None = None
) -> None:
    """Who collected what and how those seats fared (an association), with each card's
    forced-card effect beside its lift where the report measures one (ruling PL10)."""
    c = study.cards_pooled
    meta = study.meta
    beside = effects_beside(effects, c["label"])
    report.section("Card balance: the win share of the seats that collected each card")
    report.paragraph(
        "For every card type (each animal, each flower colour, each special fairy, the Lost "
        "Half of the Royal Pendant, goblins, ogres and each Queen's Court item): how often a "
        "seat collects it, and the win share of the seats that do minus that of the seats that "
        "do not (the lift, averaged over player counts). A seat collects a type when it ends "
        "the game owning at least one (special fairies in hand or played count), when it took "
        "an ogre during the game (ogres never stay; a Warrior's are never taken), or when it "
        "holds or used a court item; a court item is judged on the games it was drawn in. The "
        "lift is an association: it describes the games where a seat ended with the card, not "
        "what the card does, and is no advice on what to collect (a seat that wins many "
        "auctions collects more of everything, and a majority rewards the seat that already "
        "leads in it). "
        + (
            "What a card does is its forced-card effect, shown beside the lift: the same deals "
            "played with the card put in seat 0's reach (next section)."
            if effects is not None
            else "This run measured no forced-card effect, so nothing here says what a card does."
        )
        + f" Court items: {meta['court_label']}."
    )
    report.bullets(
        _card_lines(c, f"{report.prefix}cards_pooled.csv")
        + association_against_effect(
            c["label"],
            c["lift"],
            c["significant"],
            beside,
            "lift",
            f"{report.prefix}cards_pooled.csv",
            ("significant", "lift"),
        )
    )
    report.figure(
        "card_balance",
        card_balance_figure(study),
        "Every card type ranked by its lift (filled: its corrected interval excludes 0).",
    )
    report.figure(
        "card_collect",
        card_collect_figure(study),
        "Every card type ranked by how often a seat collects it.",
    )
    display = pd.DataFrame(
        {
            "card": c["label"],
            "kind": c["group"],
            "seat-games": c["seat_games"].map(lambda v: f"{int(v):,}"),
            "collected by": c["collect_share"].map(fmt_percent),
            "plain 95% interval": fmt_intervals(c["collect_low"], c["collect_high"]),
            "cards per seat": c["mean_count"].map(_num),
            "lift (association)": c["lift"].map(fmt_points),
            "corrected interval": fmt_intervals(c["low"], c["high"], points=True),
            "p (Holm)": c["p_adjusted"].map(fmt_p),
            "verdict": c["significant"].map(verdict),
            **(effect_display(beside) if effects is not None else {}),
        }
    )
    report.table(
        "cards_pooled",
        pd.concat([c, beside], axis=1) if effects is not None else c,
        "Card types, highest lift first, over all player counts (seat-games judged in all; "
        "court items PROVISIONAL, ruling L13)"
        + (
            "; the forced-card effect is averaged over the player counts too, one Holm family "
            f"over the cards ({effects.meta['games']:,} paired games per card and player count)"
            if effects is not None
            else ""
        )
        + ". Per player count, with the collectors' and "
        f"others' win shares: `{FILE_PREFIX}cards.csv`.",
        display=display,
    )


def _card_effect_note(report: Report, effects: CardEffectStudy) -> None:
    """How the card-effect section below reads beside the card balance above."""
    report.paragraph(
        "The next section measures each card type's own effect (ruling PL10), on the "
        f"{effects.meta['setup']['court']} court (PROVISIONAL, ruling L13), seat 0, every seat "
        "playing the report's policy. Its association is on another scale than the card "
        "balance section's lift: the lift compares seats that collected at least one card of a "
        "type with seats that collected none, per player count and averaged over them, while the "
        "association there is the change in win share per card owned at the end, by player "
        "count, for seat 0 only. The two need not agree in size. Ogres have no row there: an "
        "ogre is never held (L6), so no seat can start the game with one; the section ends "
        "with ogres and goblins removed from the forest instead (ruling PL12), by turn "
        "position."
    )


def _card_lines(c: pd.DataFrame, family: str = f"{FILE_PREFIX}cards_pooled.csv") -> list[str]:
    """The card balance in sentences, as far as the corrected tests allow; each verdict marked
    against its rows of ``family`` (the pooled card table's CSV file)."""
    up = c[c["significant"] & (c["lift"] > 0)]
    down = c[c["significant"] & (c["lift"] < 0)]
    apart = c[~c["significant"].astype(bool)]
    counts = [
        tested(f"{len(rows)} {words}", family, list(rows.index), claim, value="lift")
        if len(rows)
        else f"{len(rows)} {words}"
        for rows, words, claim in (
            (up, "go with a significantly higher win share", "higher"),
            (down, "with a significantly lower one", "lower"),
            (apart, "are not told apart from no change", "not separated"),
        )
    ]
    lines = [
        f"Of {len(c)} card types, {counts[0]}, {counts[1]}, and {counts[2]} (Holm over the card "
        "types)."
    ]
    ranked = c[c["lift"].notna()]  # a type every seat (or none) collects has no lift
    if ranked.empty:
        return lines

    def word(row_number: int) -> str:
        row = c.loc[row_number]
        return tested(
            verdict(row["significant"]),
            family,
            int(row_number),
            "separated" if row["significant"] else "not separated",
            value="lift",
        )

    top, bottom = ranked.iloc[0], ranked.iloc[-1]
    if clearly_first(ranked):
        lines.append(
            f"The seats that collected {top['label']} ({top['group']}) have the highest lift: "
            f"{fmt_points(top['lift'])} {fmt_interval(top['low'], top['high'], points=True)}, "
            "its corrected interval wholly above every other card's (an association, not the "
            "card's effect)."
        )
    else:
        rivals = ranked[ranked["high"] >= top["low"]]
        lines.append(
            f"Highest estimated lift: {top['label']} ({top['group']}), {fmt_points(top['lift'])} "
            f"{fmt_interval(top['low'], top['high'], points=True)}, {word(ranked.index[0])}"
            f"; its corrected interval overlaps those of {len(rivals) - 1} other card type(s), "
            "so no card's lift is named first."
        )
    lines.append(
        f"Lowest estimated lift: {bottom['label']} ({bottom['group']}), "
        f"{fmt_points(bottom['lift'])} "
        f"{fmt_interval(bottom['low'], bottom['high'], points=True)}, "
        f"{word(ranked.index[-1])}."
    )
    common = c.loc[c["collect_share"].idxmax()]
    rare = c.loc[c["collect_share"].idxmin()]
    lines.append(
        f"Most often collected: {common['label']}, by {fmt_percent(common['collect_share'])} of "
        f"seat-games {fmt_interval(common['collect_low'], common['collect_high'])}; least: "
        f"{rare['label']}, {fmt_percent(rare['collect_share'])} "
        f"{fmt_interval(rare['collect_low'], rare['collect_high'])}."
    )
    return lines


def _auction_section(
    report: Report, study: FairyLandStudy, contest: pd.DataFrame | None = None
) -> None:
    meta = study.meta
    report.section("What auctions cost and what they win")
    report.paragraph(
        f"The first {meta['auction_games']:,} games of each player count (random court) are "
        "played again with every auction logged: the cards in the clearing, the fairy value "
        "its winner plays (the price; "
        + definition(
            "bid bonuses of the PROVISIONAL court, ruling L13, can make it lower than the bid"
        )
        + ") and the points its cards add to the winner's score at "
        "once, as the final scoring would count them then (the prize: majorities, flowers, "
        "variety, goblins and items, an ogre's losses included; applause left out, since it "
        "moves with the fairies paid). "
        "A clearing nobody bids on goes to the box."
    )
    s = study.auction_summary
    report.bullets(
        [
            f"{int(r.players)} players ({int(r.auctions):,} auctions in {int(r.games):,} games, "
            f"{_num(r.auctions_per_game, '.1f')} a game): a won clearing costs {_num(r.price)} "
            f"fairy value {_fmt_mean_interval(r.price_low, r.price_high)} and brings "
            f"{_num(r.prize)} points {_fmt_mean_interval(r.prize_low, r.prize_high)}, "
            f"{_num(r.points_per_fairy)} points "
            f"per fairy value; {fmt_percent(r.unbid_share)} of clearings go unbid "
            f"{fmt_interval(r.unbid_low, r.unbid_high)}; the explorer wins "
            f"{fmt_percent(r.explorer_share)} of the auctions somebody wins "
            f"{fmt_interval(r.explorer_low, r.explorer_high)}."
            for r in s.itertuples(index=False)
        ]
    )
    report.figure(
        "auctions",
        auction_figure(study),
        plain_caption("Price and prize by the cards in the clearing."),
    )
    p = study.auction_prices
    display = pd.DataFrame(
        {
            "players": p["players"],
            "cards in clearing": p["cards_label"],
            "auctions": p["auctions"].map(lambda v: f"{int(v):,}"),
            "unbid": p["unbid_share"].map(fmt_percent),
            "price (fairy value)": [
                f"{_num(v)} {_fmt_mean_interval(lo, hi)}"
                for v, lo, hi in zip(p["price"], p["price_low"], p["price_high"], strict=True)
            ],
            "prize (points)": [
                f"{_num(v)} {_fmt_mean_interval(lo, hi)}"
                for v, lo, hi in zip(p["prize"], p["prize_low"], p["prize_high"], strict=True)
            ],
            "fairy cards paid": p["fairies_paid"].map(_num),
            "explorer wins": p["explorer_share"].map(fmt_percent),
        }
    )
    report.table(
        "auction_prices",
        p,
        "Auctions by the cards in the clearing (95% intervals in brackets). Every auction: "
        f"`{FILE_PREFIX}auctions.csv`.",
        display=display,
    )
    report.data("auction_summary", s)
    if contest is not None:
        _contest_paragraphs(report, contest, study.meta["policy"])


def _contest_paragraphs(report: Report, contest: pd.DataFrame, policy: str) -> None:
    """Who wins the auctions with two players under each policy, and why (ruling L5)."""
    games = int(contest["games"].iloc[0])
    report.paragraph(
        f"With {CONTEST_PLAYERS} players each auction is one bid of the other seat and the "
        "explorer's answer: "
        + definition(
            "every seat bids once, from the explorer's left, the explorer last (ruling L5), so "
            "the explorer can always take the clearing by bidding one above the other seat if "
            "it can pay that much"
        )
        + ". Greedy bids the lowest legal bid or passes: as "
        "the first bidder it offers 1, never contesting, and a greedy explorer, which chose "
        "the clearing as the one worth most to it, answers 2. The rules let the other seat "
        "win: "
        + definition("a first bid above what the explorer can pay")
        + ", as value-bidder makes when the "
        f"clearing is worth it, takes the clearing. The first {games:,} games of the "
        f"{CONTEST_PLAYERS}-player run, every auction logged, under each policy at both seats "
        "(the same forests and starting seats):"
    )
    lines = []
    for r in contest.itertuples(index=False):
        other = 1.0 - r.explorer_share
        # Two decimals: shares this near 0 or 1 have intervals a tenth of a point wide.
        line = (
            f"{r.policy}: the explorer wins {fmt_percent(r.explorer_share, 2)} "
            f"{fmt_interval(r.explorer_low, r.explorer_high, digits=2)} of the "
            f"{int(r.won):,} auctions somebody wins, the other seat {fmt_percent(other, 2)} "
            f"{fmt_interval(1.0 - r.explorer_high, 1.0 - r.explorer_low, digits=2)}; "
            f"{fmt_percent(r.unbid_share, 2)} "
            f"{fmt_interval(r.unbid_low, r.unbid_high, digits=2)} of "
            f"{int(r.auctions):,} clearings go unbid ({int(r.games):,} games)"
        )
        if r.policy == policy and r.explorer_share == 1.0:
            line += f": under {policy} the explorer's hold is its bidding, not the rules"
        lines.append(line + ".")
    report.bullets(lines)
    report.data("auction_contest", contest)


def _court_section(
    report: Report, study: FairyLandStudy, check: HeuristicCheck | None = None
) -> None:
    meta = study.meta
    report.section("What the Queen's Court changes")
    e = study.court_effects
    if e.empty:
        report.paragraph("Only one court was played: no court comparison.")
        return
    report.paragraph(
        "Three courts play the same games: random (9 of the 19 PROVISIONAL items drawn each "
        "game, ruling L13), starred (the 9 first-game items, shuffled) and none (19 items of no "
        "effect, ruling PL9: the Queen is still visited and paid, her gifts change nothing). "
        "Each measure is compared game by game; the differences are the court's mean minus "
        "the other court's on the same games. "
        f"{len(e)} comparisons, corrected together ({meta['correction'].title()})."
    )
    report.bullets(_court_lines(e, f"{report.prefix}court_effects.csv"))
    for measure in COURT_FIGURE_MEASURES:
        report.figure(
            f"courts_{measure}",
            court_figure(study, measure),
            "Each court of items against the court of no effect (filled: the corrected "
            "interval excludes 0).",
        )
    display = pd.DataFrame(
        {
            "players": e["players"],
            "comparison": [
                f"{a} minus {b}" for a, b in zip(e["court"], e["baseline"], strict=True)
            ],
            "measure": e["label"],
            "difference": [
                _fmt_value(v, u) for v, u in zip(e["difference"], e["unit"], strict=True)
            ],
            "corrected interval": [
                _fmt_range(lo, hi, u)
                for lo, hi, u in zip(e["low"], e["high"], e["unit"], strict=True)
            ],
            "games": e["n"].map(lambda v: f"{int(v):,}"),
            "p (Holm)": e["p_adjusted"].map(fmt_p),
            "verdict": e["significant"].map(verdict),
        }
    )
    report.table(
        "court_effects",
        e,
        "Paired differences between courts (share measures in percentage points; PROVISIONAL "
        f"court, ruling L13). Each court's own means: `{FILE_PREFIX}court_levels.csv`.",
        display=display,
    )
    if check is not None:
        check_paragraphs(
            report,
            check,
            "court comparisons (PROVISIONAL court, ruling L13)",
            _court_name,
            _court_value,
            "court_check",
        )


COURT_SECTION = "What the Queen's Court changes"
COURT_ASKS = "what does a court of items change against another, measure by measure?"
COURT_TOPIC = "Queen's Court (PROVISIONAL items, ruling L13)"
COURT_COUNT = "a court changes the measure in {kept} of the {total} comparisons"


def _court_name(row) -> str:
    """A court comparison in words: ``"random minus none, game length"``."""
    short = {m.column: m.short for m in GAME_MEASURES}
    return f"{row.court} minus {row.baseline}, {short[row.measure]}"


def _court_value(row, prefix: str) -> str:
    """One policy's court difference with its corrected interval, in the measure's unit."""
    value, low, high = (getattr(row, prefix + k) for k in ("value", "low", "high"))
    return f"{_fmt_value(value, row.unit)} {_fmt_range(low, high, row.unit)}"


def _court_question(study: FairyLandStudy, check: HeuristicCheck | None) -> Question | None:
    """What the court changes: the court section's check under greedy and the best heuristic
    (one player count, the same games), or without one its comparisons at every player
    count."""
    e = study.court_effects
    if e.empty:
        return None
    if check is not None:
        return check_question(
            check,
            COURT_TOPIC,
            COURT_ASKS,
            _court_name,
            _court_value,
            COURT_SECTION,
            what="court comparisons",
            counted=COURT_COUNT,
            family="court_check",
        )
    answers = []
    for players, rows in e.groupby("players", sort=True):
        answers.append(
            comparisons_answer(
                verdict_table(rows, "difference"),
                "base_",
                f"{study.meta['policy']}, {int(players)} players",
                _court_name,
                _court_value,
                COURT_SECTION,
                f"{int(rows['n'].max()):,} games per court",
                f"the court study, {int(players)} players",
                what="court comparisons",
                counted=COURT_COUNT,
                family="court_effects",
                columns=("significant", "difference"),
            )
        )
    return Question(COURT_TOPIC, COURT_ASKS, tuple(answers))


def _court_lines(e: pd.DataFrame, family: str = f"{FILE_PREFIX}court_effects.csv") -> list[str]:
    """Per court and player count, against the court of no effect: what changes significantly,
    and what does not, each verdict marked against its rows of ``family`` (the court-effects
    table's CSV file)."""
    short = {m.column: m.short for m in GAME_MEASURES}
    lines = []
    against_none = e[e["baseline"] == NO_COURT]
    courts = list(dict.fromkeys(against_none["court"]))  # the study's order, court by court
    groups = against_none.groupby(["court", "players"], sort=False)
    for (court, players), g in sorted(groups, key=lambda kg: (courts.index(kg[0][0]), kg[0][1])):
        changed = g[g["significant"]]
        same = g[~g["significant"]]
        text = f"{court} court against none, {int(players)} players: "
        if changed.empty:
            text += tested(
                "no measure differs significantly", family, list(same.index), "not separated"
            )
        else:
            text += "; ".join(
                tested(
                    f"{short[r.measure]} {_fmt_value(r.difference, r.unit)} "
                    f"{_fmt_range(r.low, r.high, r.unit)}",
                    family,
                    int(i),
                    "separated",
                )
                for i, r in zip(changed.index, changed.itertuples(index=False), strict=True)
            )
        if not same.empty and not changed.empty:
            text += "; " + tested(
                f"not significant: {', '.join(short[m] for m in same['measure'])}",
                family,
                list(same.index),
                "not separated",
            )
        lines.append(text + ".")
    return lines


def _length_section(report: Report, study: FairyLandStudy) -> None:
    report.section("Game length")
    length = study.length
    turns = sorted(set(length["turns_min"]) | set(length["turns_max"]))
    fixed = (
        f"Every game lasts {turns[0]} turns: the forest deck after setup holds twice as many "
        "cards, two are drawn each Dawn, and no item draws from it (L10, L18). "
        if len(turns) == 1
        else f"Games last {turns[0]} to {turns[-1]} turns. "
    )
    report.paragraph(
        fixed + "What varies is how many turns explore a clearing (an auction) rather than "
        "visit the Queen or the Druids, use a Crest or an item."
    )
    report.figure(
        "length", length_figure(study), plain_caption("Auctions per game by player count.")
    )
    display = pd.DataFrame(
        {
            "players": length["players"],
            "court": length["court"],
            "games": length["games"].map(lambda v: f"{int(v):,}"),
            "turns": [
                f"{m:.1f} ({lo}-{hi})"
                for m, lo, hi in zip(
                    length["turns"], length["turns_min"], length["turns_max"], strict=True
                )
            ],
            "auctions": length["auctions"].map(_num),
            "plain 95% interval": [
                _fmt_mean_interval(lo, hi)
                for lo, hi in zip(length["auctions_low"], length["auctions_high"], strict=True)
            ],
            "10th / 50th / 90th percentile": [
                f"{a:g} / {b:g} / {c:g}"
                for a, b, c in zip(
                    length["auctions_p10"],
                    length["auctions_p50"],
                    length["auctions_p90"],
                    strict=True,
                )
            ],
            "unbid clearings": length["unbid"].map(_num),
        }
    )
    report.table(
        "length",
        length,
        "Game length per player count and court (turns: mean, min-max; PROVISIONAL court, "
        "ruling L13).",
        display=display,
    )


# --------------------------------------------------------------------------------------------
# Numbers


def _num(value: float, spec: str = ".2f") -> str:
    """A number to ``spec``; ``"n/a"`` where there is none (a group too small for a mean)."""
    return "n/a" if value is None or not math.isfinite(float(value)) else format(value, spec)


def _fmt_mean_interval(low: float, high: float) -> str:
    return f"[{_num(low)}, {_num(high)}]"


def _fmt_value(value: float, unit: str) -> str:
    """A difference in its unit: percentage points for shares, else signed numbers."""
    return fmt_points(value) if unit == "share" else _num(value, "+.2f")


def _fmt_range(low: float, high: float, unit: str) -> str:
    if unit == "share":
        return fmt_interval(low, high, points=True)
    return f"[{_num(low, '+.2f')}, {_num(high, '+.2f')}]"


__all__ = [
    "FILE_PREFIX",
    "REPORT_FILENAME",
    "FairyLandReport",
    "build_report",
    "write_report",
]
