"""The Fairy Concerto solo report: how often do you beat Pahha?

One module past 600 lines: every section of the solo page is solo's own (policies against
Pahha, the soloist and setups, the best heuristic, the search line, the answer card's
questions), and each reads the one solo study; the figures live in ``solo_figures``.

``fairysim report concerto-solo`` calls :func:`write_report`: the standard report
(:mod:`fairysim.analysis.report.pipeline`) of
:func:`fairysim.analysis.concerto.solo_study.solo_study` with the solo sections written here. It
writes ``concerto-solo-report.html``
(figures embedded) with its tables as CSV files and its figures
(:mod:`fairysim.analysis.concerto.solo_figures`) as PNG files beside it; nothing is written until
the whole report is built. The card set is labelled as ruling C9 asks
(:mod:`fairysim.analysis.concerto.cards`).
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import numpy as np
import pandas as pd

from fairysim.analysis.concerto.cards import (
    SOLOIST_RULES,
    card_section,
    cards_option,
    describe_set,
    new_report,
    soloist_label,
)
from fairysim.analysis.concerto.declaration import SOLO_REPORT
from fairysim.analysis.concerto.solo_figures import (
    margin_figure,
    setup_card_figure,
    setup_heatmap_figure,
    solo_policy_figure,
)
from fairysim.analysis.concerto.solo_study import (
    SoloStudy,
    fast_policy_half_width,
    solo_study,
)
from fairysim.analysis.report.answer_card import Mark, Question, RungAnswer
from fairysim.analysis.report.formats import (
    fmt_interval,
    fmt_intervals,
    fmt_percent,
    fmt_points,
    verdict,
)
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.pipeline import ReportRun, StandardReport, Studies
from fairysim.analysis.report.plots import plain_caption
from fairysim.analysis.report.rankings import RankedPairs, ranked_pairs
from fairysim.analysis.report.verdict_marks import definition, tested
from fairysim.analysis.studies.card_effects import CardEffectStudy, card_effects
from fairysim.sim.concerto.policies import SOLO_POLICIES
from fairysim.sim.concerto.rules import SOLOIST_NAMES
from fairysim.sim.concerto.spec import SPEC


class SoloReport(StandardReport):
    """The solo sections of the standard report (:mod:`fairysim.analysis.report.pipeline`): a
    study without a balance card (one player against Pahha), no ladder and no best-heuristic
    check (the policies section compares every solo policy)."""

    declaration = SOLO_REPORT
    title = "Fairy Concerto solo: how often do you beat Pahha?"
    players = (1,)
    own_defaults = MappingProxyType({"policies": SOLO_POLICIES})
    precision_watched = "fast policy's win rate against Pahha"

    def play(self, games: int | None, run: ReportRun) -> Studies:
        """The standard studies, the slow policies' runs kept from one look of ``--precision``
        to the next (their game counts are fixed; only the fast policies' grow)."""
        self._kept: dict = {}
        try:
            return super().play(games, run)
        finally:
            self._kept = {}

    def study(self, run: ReportRun, games: int, alpha: float) -> SoloStudy:
        """The solo study (:func:`~fairysim.analysis.concerto.solo_study.solo_study`), every
        policy on the same deals, its win-rate intervals and gains at error rate ``alpha``."""
        options = run.options
        return solo_study(
            games,
            run.seed,
            options["lookahead_games"],
            options["policies"],
            run.cards,
            run.threads,
            run.progress,
            search_games=options["search_games"],
            alpha=alpha,
            kept=getattr(self, "_kept", None),
        )

    def precision_width(self, study: SoloStudy) -> float:
        """The widest half-width of the fast policies' win rates against Pahha (the slow
        policies play their own fixed counts, which ``--precision`` does not change)."""
        return fast_policy_half_width(study)

    def card_and_ladder(self, run: ReportRun) -> tuple[CardEffectStudy, None]:
        """The card effects of greedy against Pahha (no ladder: one player)."""
        effects = card_effects(
            SPEC,
            players=1,
            games=run.options["card_games"],
            seed=run.seed,
            cards=run.cards,
            threads=run.threads,
        )
        return effects, None

    def new_page(self, study: SoloStudy) -> Report:
        return new_report(self.title, self.filename, self.prefix, study.cards)

    def run_what(self, study: SoloStudy) -> tuple[str, int]:
        meta = study.meta
        policy_games = ", ".join(
            f"{p.policy} {int(p.games):,}" for p in study.policies.itertuples(index=False)
        )
        what = (
            f"Games per policy: {policy_games}; engine version {meta['engine_version']}; cards: "
            f"{study.cards.label}"
        )
        return what, int(study.policies["games"].sum())

    def cards_option(self, study: SoloStudy) -> str:
        return cards_option(study.cards)

    def introduction(self, report: Report, studies: Studies) -> None:
        report.paragraph(
            "Solo rules (ruling C8): seven rounds draw 2, 3, 4, 5, 6, 4 and 2 tokens; you keep 1, "
            "1, 2, 2, 3, 2 and 1 of them and Pahha takes the rest (you end with 12 tokens, Pahha "
            "with 14). Pahha scores 3 per face-down score card whatever it asks for. "
            + definition("You win only with a strictly higher total: a tie is a loss.")
            + " Every policy plays the same deals and "
            "setups (same seed, and the deal never depends on the policy), so policies are "
            "compared game by game. Win rates carry Wilson intervals, paired differences normal "
            "ones."
        )

    def sections_before_effects(self, report: Report, studies: Studies) -> None:
        _solo_policy_section(report, studies.study)
        _solo_lookahead_section(report, studies.study)
        _solo_setup_section(report, studies.study)

    def sections_after_effects(self, report: Report, studies: Studies) -> None:
        _solo_margin_section(report, studies.study)

    def own_questions(self, studies: Studies) -> list[Question]:
        return _solo_questions(studies.study)

    def closing_sections(self, report: Report, studies: Studies) -> None:
        study = studies.study
        prefix = self.prefix
        card_section(report, study.cards)
        report.section("Files")
        report.paragraph(
            "Every table is also a CSV file beside this page, in full precision: "
            f"`{prefix}policies.csv`, `{prefix}lookahead.csv`, "
            f"`{prefix}setups.csv` (every policy, every setup), "
            f"`{prefix}setup_cards.csv`, `{prefix}margins.csv` (the full "
            f"distribution), `{prefix}margin_summary.csv` and "
            f"`{prefix}cards.csv`, and the pairwise comparisons behind each ranking "
            f"(`{prefix}policy_pairs.csv`, `{prefix}setup_pairs.csv` and one "
            f"`{prefix}<contest>_card_pairs.csv` per contest); every figure is also an SVG file; "
            f"`{prefix}metadata.json` records the configuration."
        )
        report.data("setups", study.setups)
        report.data("setup_cards", study.setup_cards)
        report.data("margins", study.margins)


SOLO = SoloReport()
write_report = SOLO.write
"""``write_report(out_dir, *, games=None, seed=None, threads=None, progress=None, cards=None,
lookahead_games=None, policies=SOLO_POLICIES, card_games=None, search_games=None)``: play the
solo study and write the report (:meth:`~fairysim.analysis.report.pipeline.StandardReport.write`;
the defaults are :data:`~fairysim.analysis.concerto.declaration.SOLO_REPORT`'s, ``policies``
are the policies compared, greedy always played as the baseline)."""

FILE_PREFIX = SOLO.prefix
"""CSV and PNG files are named ``concerto-solo-<table>.csv`` / ``concerto-solo-<figure>.png``."""

REPORT_FILENAME = SOLO.filename


def build_report(study: SoloStudy, effects: CardEffectStudy | None = None) -> Report:
    """Assemble the solo report of a finished study in memory (nothing is written).

    Parameters
    ----------
    study : SoloStudy
        Result of :func:`~fairysim.analysis.concerto.solo_study.solo_study`.
    effects : CardEffectStudy, optional
        The card-effect study of greedy against Pahha; its section is left out without it.

    Returns
    -------
    Report
        Call :meth:`Report.write` to write it.
    """
    return SOLO.build(Studies(study, effects))


def _solo_policy_section(report: Report, study: SoloStudy) -> None:
    report.section("Win rate against Pahha by policy")
    p = study.policies
    greedy = p[p["policy"] == "greedy"].iloc[0]
    ranked = ranked_pairs(
        report,
        "policy_pairs",
        dict(zip(p["policy"], p["win_share"], strict=True)),
        dict(zip(p["policy"], _share_se(p), strict=True)),
        f"all {len(p) * (len(p) - 1) // 2} pairs of policies' win rates against Pahha",
    )
    wording, group = ranked.leader("strongest")
    pairs = ranked.pairs
    by_policy = p.set_index("policy")
    report.paragraph(
        f"Greedy (the token choice that raises its current score most) beats Pahha in "
        f"{fmt_percent(greedy['win_share'])} of {int(greedy['games']):,} games "
        f"{fmt_interval(greedy['low'], greedy['high'])}. Against Pahha, "
        f"{wording}: "
        + "; ".join(
            f"{name} {fmt_percent(by_policy.loc[name, 'win_share'])} of "
            f"{int(by_policy.loc[name, 'games']):,} games "
            f"{fmt_interval(by_policy.loc[name, 'low'], by_policy.loc[name, 'high'])}"
            for name in group
        )
        + f" ({ranked.sentence()}; the intervals are plain 95%, each "
        "policy's own). The gain column compares each "
        "policy with greedy on the same deals (paired), over the games both played, "
        "corrected over the policies."
    )
    best = study.meta.get("best_heuristic")
    lines = _best_heuristic_lines(study)
    search_line = _search_line(pairs, by_policy, best)
    if search_line:
        lines.append(search_line)
    elif study.meta["search_games"] == 0:
        search = SPEC.search
        lines.append(f"The search player, {search}, was not played (`--search-games 0`).")
    report.bullets(lines)
    if len(study.best_heuristic):
        b = study.best_heuristic
        report.table(
            "best_heuristic",
            b,
            f"The best heuristic, {best}, against every other heuristic played, paired on the "
            "same deals (corrected intervals, Holm over these comparisons).",
            display=pd.DataFrame(
                {
                    "best heuristic": b["a"],
                    "against": b["b"],
                    "paired games": b["games"].map("{:,}".format),
                    "win rates": [
                        f"{fmt_percent(x)} against {fmt_percent(y)}"
                        for x, y in zip(b["a_win_share"], b["b_win_share"], strict=True)
                    ],
                    "difference": b["gain"].map(fmt_points),
                    "corrected interval": fmt_intervals(b["low"], b["high"], points=True),
                    "verdict": b["significant"].map(verdict),
                }
            ),
        )
    report.figure(
        "policies",
        solo_policy_figure(study),
        plain_caption(
            "Solo win rate by policy.",
            "Which policies lead is worded in the text from the corrected pairwise comparisons.",
        ),
    )
    display = pd.DataFrame(
        {
            "policy": p["policy"],
            "games": p["games"].map(lambda v: f"{int(v):,}"),
            "win rate": p["win_share"].map(fmt_percent),
            "plain 95% interval": fmt_intervals(p["low"], p["high"]),
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
            "verdict": [
                "" if r.policy == "greedy" else verdict(r.gain_significant)
                for r in p.itertuples(index=False)
            ],
        }
    )
    report.table(
        "policies",
        p,
        "Win rate per policy (scores in points; margin = your score minus Pahha's).",
        display=display,
    )


def _best_heuristic_lines(study: SoloStudy) -> list[str]:
    """Which heuristic is the best against Pahha and what chose it: the highest win rate, and
    whether the corrected comparison separates it from the runner-up (else the stated rule)."""
    b = study.best_heuristic
    if b.empty:
        return []
    top = b.iloc[0]
    candidates = ", ".join([top["a"], *b["b"]])
    rate = study.policies.set_index("policy").loc[top["a"]]
    words = (
        f"The best heuristic against Pahha is {top['a']}, the highest win rate of the "
        f"heuristics played ({candidates}; random, and lookahead and {SPEC.search}, which search "
        f"by play-outs, are no candidates): {fmt_percent(rate['win_share'])} "
        f"{fmt_interval(rate['low'], rate['high'])}. Against the runner-up, {top['b']}, paired "
        f"on {int(top['games']):,} deals: {fmt_points(top['gain'])} "
        f"{fmt_interval(top['low'], top['high'], points=True)} (Holm over its {len(b)} "
        "comparison(s) with the other heuristics), "
    )
    family = f"{FILE_PREFIX}best_heuristic.csv"
    if bool(top["significant"]):
        return [words + tested("separated", family, 0, "separated", value="gain") + "."]
    return [
        words
        + tested("not separated", family, 0, "not separated", value="gain")
        + f": {top['a']} is taken by "
        + definition("the stated rule, the higher win rate")
        + f", and {top['b']} is as good a choice on this evidence."
    ]


POLICY_SECTION = "Win rate against Pahha by policy"


def _solo_questions(study: SoloStudy) -> list[Question]:
    """How hard solo is per policy played, greedy first (each one's win rate against Pahha),
    and whether skill matters (each one's paired gain over greedy), from the policies' table of
    their section."""
    p = study.policies.set_index("policy")
    rungs = list(p["win_share"].sort_values(kind="stable").index)  # weakest first
    rates = tuple(
        RungAnswer(
            name,
            f"you win {fmt_percent(p.loc[name, 'win_share'])}",
            f"you win {fmt_percent(p.loc[name, 'win_share'])} "
            f"{fmt_interval(p.loc[name, 'low'], p.loc[name, 'high'])} of games (plain 95%)",
            f"{int(p.loc[name, 'games']):,} games",
            POLICY_SECTION,
        )
        for name in rungs
    )
    position = {name: n for n, name in enumerate(study.policies["policy"])}
    gains = []
    for name in (r for r in rungs if r != "greedy"):
        row = p.loc[name]
        up = bool(row["gain_significant"]) and row["gain"] > 0
        down = bool(row["gain_significant"]) and row["gain"] < 0
        short = (
            "wins more often than greedy"
            if up
            else "wins less often than greedy"
            if down
            else "not separated from greedy"
        )
        gains.append(
            RungAnswer(
                f"{name} against greedy",
                short,
                f"{short}: {fmt_points(row['gain'])} "
                f"{fmt_interval(row['gain_low'], row['gain_high'], points=True)} (corrected)",
                f"{int(row['gain_games']):,} paired games",
                POLICY_SECTION,
                frozenset({("solo", 1 if up else -1 if down else 0)}),
                frozenset({"solo"}),
                marks=(_gain_mark(short, (position[name],), up, down),),
            )
        )
    if gains:
        gains[0] = replace(gains[0], marks=gains[0].marks + _summary_marks(gains, position))
    low, high = p["win_share"].idxmin(), p["win_share"].idxmax()
    questions = [
        Question(
            "How hard is solo",
            "how often do you beat Pahha, per policy (in order of win share)?",
            rates,
            comparable=False,
            summary=f"you win {fmt_percent(p.loc[low, 'win_share'])} of games ({low}) to "
            f"{fmt_percent(p.loc[high, 'win_share'])} ({high}); greedy "
            f"{fmt_percent(p.loc['greedy', 'win_share'])}",
        )
    ]
    if gains:
        questions.append(
            Question(
                "Skill",
                "does a policy win more often than greedy against Pahha, on the same deals?",
                tuple(gains),
                comparable=False,
                summary=_skill_summary(gains),
            )
        )
    return questions


def _gain_mark(phrase: str, rows: tuple[int, ...], up: bool, down: bool) -> Mark:
    """A gain verdict tied to its rows of the policies' CSV (``gain_significant``, ``gain``)."""
    claim = "higher" if up else "lower" if down else "not separated"
    return Mark(phrase, "policies", rows, claim, "gain_significant", "gain")


def _summary_marks(gains: list[RungAnswer], position: dict[str, int]) -> tuple[Mark, ...]:
    """The marks of :func:`_skill_summary`'s phrases, each against every policy it names."""
    marks = []
    for sign, words in ((1, "win more often than greedy"), (-1, "less often"), (0, "")):
        names = [
            a.rung.removesuffix(" against greedy") for a in gains if ("solo", sign) in a.findings
        ]
        if names:
            phrase = f"{', '.join(names)} {words or 'not separated from greedy'}"
            rows = tuple(position[n] for n in names)
            marks.append(_gain_mark(phrase, rows, sign > 0, sign < 0))
    return tuple(marks)


def _skill_summary(gains: list[RungAnswer]) -> str:
    """Which policies win more, and which less, often than greedy (from each one's verdict)."""
    parts = []
    for sign, words in ((1, "win more often than greedy"), (-1, "less often")):
        names = [
            a.rung.removesuffix(" against greedy") for a in gains if ("solo", sign) in a.findings
        ]
        if names:
            parts.append(f"{', '.join(names)} {words}")
    same = [a.rung.removesuffix(" against greedy") for a in gains if ("solo", 0) in a.findings]
    if same:
        parts.append(f"{', '.join(same)} not separated from greedy")
    return "; ".join(parts)


def _search_line(pairs: pd.DataFrame, by_policy: pd.DataFrame, best: str | None) -> str:
    """Whether the search player beats the best heuristic against Pahha, from the corrected
    pairwise comparison; "" where the study played either without the other."""
    search = SPEC.search
    if best is None or search not in by_policy.index or best not in by_policy.index:
        return ""
    row = pairs[
        ((pairs["a"] == search) & (pairs["b"] == best))
        | ((pairs["a"] == best) & (pairs["b"] == search))
    ].iloc[0]
    sign = 1 if row["a"] == search else -1
    diff = sign * row["estimate"]
    low, high = sorted((sign * row["low"], sign * row["high"]))
    beats = bool(row["significant"]) and diff > 0
    return (
        f"The search player, {search}, against the best heuristic, {best}: "
        f"{fmt_points(diff)} {fmt_interval(low, high, points=True)} of win rate against Pahha "
        f"(corrected over every pair of policies); it "
        + ("beats the best heuristic." if beats else "is not shown to beat it.")
    )


def _solo_lookahead_section(report: Report, study: SoloStudy) -> None:
    report.section("How much does looking ahead gain over greedy?")
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
    family = f"{report.prefix}lookahead.csv"
    report.bullets(
        [
            f"Win rate: greedy {fmt_percent(r['greedy_win_share'])}, lookahead "
            f"{fmt_percent(r['policy_win_share'])}: gain {fmt_points(r['gain'])} "
            f"{fmt_interval(r['gain_low'], r['gain_high'], points=True)}, "
            + _verdict_of(r, 0, family, "gain_")
            + "."
            + _other_family(study, r),
            f"Margin over Pahha: greedy {r['greedy_margin']:+.2f}, lookahead "
            f"{r['policy_margin']:+.2f} points: gain {r['margin_gain']:+.2f} points "
            f"[{r['margin_gain_low']:+.2f}, {r['margin_gain_high']:+.2f}], "
            + _verdict_of(r, 0, family, "margin_gain_")
            + ".",
        ]
    )
    display = pd.DataFrame(
        {
            "policy": la["policy"],
            "paired games": la["games"].map(lambda v: f"{int(v):,}"),
            "greedy wins": la["greedy_win_share"].map(fmt_percent),
            "policy wins": la["policy_win_share"].map(fmt_percent),
            "gain": la["gain"].map(fmt_points),
            "corrected interval": fmt_intervals(la["gain_low"], la["gain_high"], points=True),
            "margin gain (points)": la["margin_gain"].map(lambda v: f"{v:+.2f}"),
            "gain verdict": la["gain_significant"].map(verdict),
        }
    )
    report.table("lookahead", la, "Lookahead against greedy, paired on identical deals.", display)


def _verdict_of(row: pd.Series, number: int, family: str, prefix: str) -> str:
    """A row's verdict word marked against that row of ``family``."""
    significant = bool(row[f"{prefix}significant"])
    return tested(
        verdict(significant),
        family,
        number,
        "separated" if significant else "not separated",
        significant=f"{prefix}significant",
        value=prefix.removesuffix("_"),
    )


def _other_family(study: SoloStudy, row: pd.Series) -> str:
    """Where the policies table shows the same gain corrected in another family: both
    intervals, and why they differ."""
    p = study.policies.set_index("policy")
    name = row["policy"]
    if name not in p.index or not np.isfinite(p.loc[name, "gain_low"]):
        return ""
    other = p.loc[name]
    tested_there = int(p["gain_low"].notna().sum())
    return (
        f" The same games' gain in the policies table reads "
        f"{fmt_interval(other['gain_low'], other['gain_high'], points=True)}: the same "
        f"estimate, corrected there over the {tested_there} policies compared with greedy, "
        f"here over this table's {len(study.lookahead)} row(s) (Holm), so the two intervals have "
        "different widths."
    )


def _solo_setup_section(report: Report, study: SoloStudy) -> None:
    report.section("Which setups are hardest?")
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
    report.bullets(_setup_lines(report, study, greedy))
    report.figure("setups", setup_heatmap_figure(study), "Greedy's solo win rate by setup.")
    if "lookahead" in set(s["policy"]):
        report.figure(
            "setups_lookahead",
            setup_heatmap_figure(study, "lookahead"),
            "Lookahead's solo win rate by setup (fewer games per cell).",
        )
    report.figure(
        "setup_cards",
        setup_card_figure(study),
        plain_caption("Solo win rate by single setup card (the other two cards drawn at random)."),
    )
    display = _setup_display(study, greedy)
    report.table(
        None,
        greedy,
        "All setups, the lowest win rate for greedy first (the CSV `"
        f"{FILE_PREFIX}setups.csv` holds every policy).",
        display=display,
    )


SHOWN = 4
"""A group of setups longer than this is named by its first members and a count."""


def _setup_lines(report: Report, study: SoloStudy, greedy: pd.DataFrame) -> list[str]:
    """Which setups and which single cards are hardest and easiest for greedy, as far as the
    corrected comparisons of every pair allow, each family written beside the page."""
    label = [
        f"{r.soloist_card} + {r.pianist_card} + {r.harpist_card}"
        for r in greedy.itertuples(index=False)
    ]
    frame = greedy.assign(label=label).set_index("label")
    lines = []
    ranked = _ranked(report, "setup_pairs", frame, "setups")
    for word, better in (("hardest", False), ("easiest", True)):
        wording, group = ranked.leader(word, better)
        lines.append(f"Setups for greedy, {wording}: {_rates(frame, group)}.")
    lines[-1] = lines[-1][:-1] + f" ({ranked.sentence()})."
    cards = study.setup_cards
    for contest, part in cards[cards["policy"] == "greedy"].groupby("contest", sort=False):
        frame = part.set_index("card")
        ranked = _ranked(report, f"{contest}_card_pairs", frame, f"{contest} cards")
        hard, hard_group = ranked.leader("hardest", False)
        easy, easy_group = ranked.leader("easiest", True)
        lines.append(
            f"{contest.title()} cards for greedy: {hard} "
            f"{_rates(frame, hard_group)}; {easy} "
            f"{_rates(frame, easy_group)} ({ranked.sentence()})."
        )
    return lines


def _ranked(report: Report, name: str, frame: pd.DataFrame, items: str) -> RankedPairs:
    """Every pair of ``frame``'s rows' win rates for greedy, one corrected family, written as
    ``<prefix><name>.csv``."""
    n = len(frame)
    return ranked_pairs(
        report,
        name,
        frame["win_share"].to_dict(),
        dict(zip(frame.index, _share_se(frame), strict=True)),
        f"all {n * (n - 1) // 2} pairs of {items}' win rates for greedy",
    )


def _rates(frame: pd.DataFrame, group: list) -> str:
    shown = [
        f"{name} {fmt_percent(frame.loc[name, 'win_share'])} "
        f"{fmt_interval(frame.loc[name, 'low'], frame.loc[name, 'high'])}"
        for name in group[:SHOWN]
    ]
    more = f" and {len(group) - SHOWN} more" if len(group) > SHOWN else ""
    return "; ".join(shown) + more


def _share_se(frame: pd.DataFrame) -> np.ndarray:
    """Standard error of each row's win share (binomial, from ``win_share`` and ``games``)."""
    p = frame["win_share"].to_numpy(np.float64)
    return np.sqrt(p * (1 - p) / frame["games"].to_numpy(np.float64))


def _setup_display(study: SoloStudy, greedy: pd.DataFrame) -> pd.DataFrame:
    keys = ["soloist_card", "pianist_card", "harpist_card"]
    out = pd.DataFrame(
        {
            "soloist": greedy["soloist_card"].map(soloist_label),
            "pianist": greedy["pianist_card"],
            "harpist": greedy["harpist_card"],
            "greedy games": greedy["games"].map(lambda v: f"{int(v):,}"),
            "greedy win rate": greedy["win_share"].map(fmt_percent),
            "greedy 95% interval": fmt_intervals(greedy["low"], greedy["high"]),
            "greedy margin": greedy["mean_margin"].map(lambda v: f"{v:+.1f}"),
        }
    )
    la = study.setups[study.setups["policy"] == "lookahead"]
    if not la.empty:
        la = la.set_index(keys).reindex(pd.MultiIndex.from_frame(greedy[keys]))
        out["lookahead games"] = [f"{int(v):,}" if v == v else "0" for v in la["games"]]
        out["lookahead win rate"] = la["win_share"].map(fmt_percent).to_numpy()
        out["lookahead 95% interval"] = fmt_intervals(la["low"], la["high"])
    return out


def _solo_margin_section(report: Report, study: SoloStudy) -> None:
    report.section("By how much: the margin over Pahha")
    report.paragraph(
        "Margin = your final score minus Pahha's, in points. "
        + definition(
            "A margin of 0 is a tie, which Pahha wins (C8); the ties column shows how often "
            "that rule decides a game."
        )
    )
    report.figure("margins", margin_figure(study), plain_caption("Margin distribution per policy."))
    m = study.margin_summary
    display = m.assign(
        games=m["games"].map(lambda v: f"{int(v):,}"),
        mean=m["mean"].map(lambda v: f"{v:+.2f}"),
        sd=m["sd"].map(lambda v: f"{v:.2f}"),
        tied=m["tied"].map(fmt_percent),
        won=m["won"].map(fmt_percent),
    ).rename(columns={"tied": "ties"})
    report.table(
        "margin_summary",
        m,
        "Margin per policy (points): mean, standard deviation and quantiles (p05 = 5th "
        "percentile); " + definition("won = margin above 0") + ".",
        display=display,
    )


__all__ = [
    "FILE_PREFIX",
    "REPORT_FILENAME",
    "SoloReport",
    "build_report",
    "write_report",
]
