"""The section that says which tournament chose a report's best heuristic, with its numbers.

The study is :func:`fairysim.analysis.studies.best_heuristic.best_heuristic_tournament`; here it
becomes a page section: the candidates and how they were played, the ratings, the top two's
corrected head-to-head comparison, and, where it does not separate them, the rule that picked
one.
"""

from __future__ import annotations

import pandas as pd

from fairysim.analysis.report.formats import fmt_interval, fmt_intervals, fmt_percent, verdict
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.verdict_marks import definition, tested
from fairysim.analysis.studies.best_heuristic import BestHeuristic


def best_heuristic_words(best: BestHeuristic, family: str | None = None) -> str:
    """One sentence: which heuristic is the best heuristic, and what measured it; its verdict
    marked against the top two's row of ``family`` (the page's pairs file) where given."""
    if best.games == 0:
        return f"The best heuristic is {best.chosen}, {best.rule}."
    top = best.top_pair()
    how = (
        "separated from the runner-up"
        if best.separated
        else f"not separated from {top['b']}, taken by the stated rule ({best.rule})"
    )
    measured = (
        f"finishes above {top['b']} in {fmt_percent(top['share'])} of their meetings "
        f"{fmt_interval(top['low'], top['high'])}, {how}"
    )
    if family is not None:
        claim = "separated" if best.separated else "not separated"
        row = _pair_row(best.pairs, top["a"], top["b"])
        measured = tested(measured, family, row, claim, significant="significant", value="share")
    return (
        f"The best heuristic is {best.chosen}, chosen by a tournament among the game's "
        f"heuristics at {best.players} players ({best.games:,} games per mix and rotation): "
        f"it {measured}."
    )


def _pair_row(pairs: pd.DataFrame, a: str, b: str) -> int:
    """The 0-based row of the pairs table that compares ``a`` with ``b``, in either order."""
    hit = ((pairs["a"] == a) & (pairs["b"] == b)) | ((pairs["a"] == b) & (pairs["b"] == a))
    return int(hit.to_numpy().nonzero()[0][0])


def best_heuristic_section(report: Report, best: BestHeuristic) -> None:
    """Write the section (nothing where no tournament was played and no heuristic declared)."""
    report.section("Which heuristic is the best heuristic")
    if best.games == 0:
        report.paragraph(
            f"No tournament was played: the ladder and the checks seat {best.chosen}, "
            f"{best.rule}; nothing on this page measures it against the game's other heuristics."
        )
        return
    candidates = ", ".join(best.meta["candidates"])
    pairs = len(best.pairs)
    report.paragraph(
        "The best heuristic, the rung the skill ladder plays after greedy and the policy the "
        "checks under strong play seat, is chosen by a tournament, not declared: the game's "
        f"heuristics ({candidates}) in every mix over {best.players} seats, each mix at every "
        f"rotation of its seats, {best.games:,} games per mix and rotation on seed "
        f"{best.meta['seed']} ({best.mixes} mixes, the same deals for every one). They are "
        "ranked by their Bradley-Terry ratings (95% bootstrap intervals over the deals); the "
        "top two are compared head to head: "
        + definition(
            "how often the first finishes above the second when they meet at one table (an "
            "equal rank counts half)"
        )
        + ", with its interval clustered "
        f"by deal, tested against 50% in one Holm family over the {pairs} pairs of heuristics."
    )
    family = f"{report.prefix}best_heuristic_pairs.csv"
    lines = [best_heuristic_words(best, family)]
    if best.chosen != best.declared:
        lines.append(
            f"The game's declared top rung is {best.declared}; the tournament chose "
            f"{best.chosen}, which every study on this page seats as the best heuristic."
        )
    playout = best.meta.get("search_playout", "")
    if playout and playout != best.chosen:
        lines.append(
            f"The search rung's play-outs stay with {playout}, the play-out policy its engine "
            f"declares (`--weights default=<built-in>` changes it); it is not {best.chosen}."
        )
    report.bullets(lines)
    r = best.ratings
    report.table(
        "best_heuristic_ratings",
        r,
        "The heuristics' Bradley-Terry ratings (log-strength, centred on 0), in order of rating, "
        "largest first.",
        display=pd.DataFrame(
            {
                "heuristic": r["policy"],
                "rating": r["rating"].map(lambda v: f"{v:+.3f}"),
                "95% bootstrap interval": [
                    f"[{lo:+.3f}, {hi:+.3f}]" for lo, hi in zip(r["low"], r["high"], strict=True)
                ],
            }
        ),
    )
    p = best.pairs
    report.table(
        "best_heuristic_pairs",
        p,
        "Every pair of heuristics: "
        + definition("how often the first finishes above the second when they meet")
        + " (corrected interval, Holm over the pairs, against 50%).",
        display=pd.DataFrame(
            {
                "first": p["a"],
                "second": p["b"],
                "first ahead of second": p["share"].map(fmt_percent),
                "corrected interval": fmt_intervals(p["low"], p["high"]),
                "meetings": p["meetings"].map("{:,}".format),
                "verdict": p["significant"].map(verdict),
            }
        ),
    )


__all__ = ["best_heuristic_section", "best_heuristic_words"]
