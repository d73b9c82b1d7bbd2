"""A report's best heuristic comes from its tournament: the pipeline seats the chosen policy in
the ladder and the check, and the page says which tournament chose it, with its numbers."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from fairysim.analysis.fantastique.declaration import REPORT
from fairysim.analysis.report import pipeline
from fairysim.analysis.report.best_heuristic import best_heuristic_section, best_heuristic_words
from fairysim.analysis.report.page import Report
from fairysim.analysis.studies.best_heuristic import NOT_SEPARATED_RULE, BestHeuristic
from fairysim.stats.corrections import with_correction

from .concerto.tidy import text_of


def constructed(share: float, se: float) -> BestHeuristic:
    """hoarder rated above balancer and greedy; hoarder above balancer in ``share`` of their
    meetings with standard error ``se``."""
    ratings = pd.DataFrame(
        {
            "entry": ["hoarder", "balancer", "greedy"],
            "policy": ["hoarder", "balancer", "greedy"],
            "rating": [0.2, 0.1, -0.3],
            "low": [0.1, 0.0, -0.4],
            "high": [0.3, 0.2, -0.2],
        }
    )
    pairs = pd.DataFrame(
        {
            "a": ["greedy", "greedy", "hoarder"],
            "b": ["hoarder", "balancer", "balancer"],
            "share": [0.3, 0.35, share],
            "se": [0.01, 0.01, se],
            "meetings": [6_000] * 3,
            "deals": [500] * 3,
        }
    )
    pairs = with_correction(pairs, "share", "se", null=0.5)
    separated = bool(pairs["significant"].iloc[2])
    rule = "separated from the runner-up" if separated else NOT_SEPARATED_RULE
    meta = {
        "seed": 0,
        "candidates": ["greedy", "hoarder", "balancer"],
        "search_playout": "balancer",
    }
    return BestHeuristic("hoarder", "balancer", 4, 500, 12, ratings, pairs, separated, rule, meta)


def test_the_page_names_the_tournament_its_numbers_and_the_rule():
    page = Report("t", "t.html", "x-")
    best_heuristic_section(page, constructed(0.58, 0.01))
    text = text_of(page.html())
    assert (
        "chosen by a tournament among the game's heuristics at 4 players (500 games per mix" in text
    )
    assert "finishes above balancer in 58.0% of their meetings" in text and "separated" in text
    assert "The game's declared top rung is balancer; the tournament chose hoarder" in text
    assert "The search rung's play-outs stay with balancer" in text
    assert {a.name for a in page.assets} >= {
        "x-best_heuristic_ratings.csv",
        "x-best_heuristic_pairs.csv",
    }
    close = best_heuristic_words(constructed(0.505, 0.01))
    assert f"not separated from balancer, taken by the stated rule ({NOT_SEPARATED_RULE})" in close


class StubReport(pipeline.StandardReport):
    """The pipeline's play with the game's own study left out."""

    declaration = REPORT
    title = "stub"
    players = (2, 4)

    @staticmethod
    def check(*args, **kwargs):  # the game's check under the best heuristic (not played here)
        return None

    def study(self, run, games, alpha):
        return SimpleNamespace(meta={"games": games})


def test_the_pipeline_seats_the_measured_best_heuristic_everywhere(monkeypatch):
    seen = {}

    def tournament(spec, *, players, games, seed, cards, threads, declared_only, **axes):
        seen["tournament"] = (players, games, seed, declared_only)
        return constructed(0.58, 0.01)

    def card_and_ladder(spec, **kwargs):
        seen["ladder"] = spec.ladder
        return None, None

    def under_best(spec, check, **kwargs):
        seen["check"] = spec.ladder[-1]

    monkeypatch.setattr(pipeline, "best_heuristic_tournament", tournament)
    monkeypatch.setattr(pipeline, "card_and_ladder_studies", card_and_ladder)
    monkeypatch.setattr(pipeline, "under_best_heuristic", under_best)
    report = StubReport()
    run = report.resolve(3, 1, None, None, {"best_heuristic_games": 77})
    studies = report.play(10, run)
    assert seen["tournament"] == (4, 77, 3, False)  # the game's default count, the report's seed
    assert seen["ladder"] == ("random", "greedy", "hoarder") and seen["check"] == "hoarder"
    assert studies.best.chosen == "hoarder"
    zero = report.resolve(3, 1, None, None, {"best_heuristic_games": 0})
    report.play(10, zero)
    assert seen["tournament"][3] is True  # 0 games: the declared rung, said to be unmeasured
