"""The best heuristic chosen by a measured tournament: the pairs' corrected head-to-head family,
the choice and its rule where the top two are not separated, and the ladder it gives."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis.studies.best_heuristic import (
    NOT_SEPARATED_RULE,
    choose,
    clustered_mean,
    heuristics,
    oriented,
    pair_family,
    with_best_heuristic,
)
from fairysim.sim.concerto.spec import SPEC as CONCERTO
from fairysim.sim.fairyland.spec import SPEC as FAIRYLAND
from fairysim.sim.fantastique.spec import SPEC as FANTASTIQUE


def meetings(games: int, p_ab: float, p_ac: float, p_bc: float, seed: int = 0) -> pd.DataFrame:
    """Pair results of three entries (0, 1, 2): each deal one meeting of every pair, entry ``i``
    above ``j`` with the given chance."""
    rng = np.random.default_rng(seed)
    parts = []
    for (row, col), p in {(0, 1): p_ab, (0, 2): p_ac, (1, 2): p_bc}.items():
        score = (rng.random(games) < p).astype(float)
        game = np.arange(games)
        parts.append(pd.DataFrame({"game": game, "row": row, "col": col, "score": score}))
        parts.append(pd.DataFrame({"game": game, "row": col, "col": row, "score": 1 - score}))
    return pd.concat(parts, ignore_index=True)


def test_clustered_mean_counts_a_deal_once():
    values = np.array([1.0, 1.0, 0.0, 0.0, 1.0, 1.0])
    mean, se = clustered_mean(values, np.array([0, 0, 1, 1, 2, 2]))
    once, se_once = clustered_mean(np.array([1.0, 0.0, 1.0]), np.array([0, 1, 2]))
    assert mean == pytest.approx(once) and se == pytest.approx(se_once)  # copies add nothing
    assert np.isnan(clustered_mean(values, np.zeros(6))[1])


def test_pairs_are_one_holm_family_against_one_half_and_turn_either_way():
    pairs = pair_family(meetings(4_000, 0.56, 0.70, 0.62), ["a", "b", "c"])
    assert pairs[["a", "b"]].values.tolist() == [["a", "b"], ["a", "c"], ["b", "c"]]
    assert pairs["share"].tolist() == pytest.approx([0.56, 0.70, 0.62], abs=0.02)
    assert (pairs["null"] == 0.5).all() and pairs["significant"].all()
    assert (pairs["level"] < 0.05).any()  # Holm: the first step at alpha / 3
    back = oriented(pairs, "b", "a")
    assert back["share"] == pytest.approx(1 - pairs["share"].iloc[0])
    assert (back["low"], back["high"]) == pytest.approx(
        (1 - pairs["high"].iloc[0], 1 - pairs["low"].iloc[0])
    )


def test_the_top_rating_is_chosen_and_the_rule_is_said_where_the_top_two_are_not_separated():
    rated = pd.DataFrame({"policy": ["b", "a", "c"], "rating": [0.3, 0.2, -0.5]})
    apart = pair_family(meetings(4_000, 0.40, 0.70, 0.70), ["a", "b", "c"])  # b above a
    assert choose(rated, apart) == ("b", True, "separated from the runner-up")
    close = pair_family(meetings(4_000, 0.50, 0.70, 0.70), ["a", "b", "c"])
    assert not bool(oriented(close, "b", "a")["significant"])
    assert choose(rated, close) == ("b", False, NOT_SEPARATED_RULE)


def test_the_measured_best_heuristic_becomes_the_ladders_top_rung():
    assert with_best_heuristic(CONCERTO, "denier").ladder == ("random", "greedy", "denier")
    assert with_best_heuristic(CONCERTO, "greedy").ladder == ("random", "greedy")
    assert with_best_heuristic(CONCERTO, "chaser") == CONCERTO


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (FANTASTIQUE, ["greedy", "hoarder", "balancer"]),
        (CONCERTO, ["greedy", "chaser", "maestro", "denier"]),  # lookahead is solo only
        (FAIRYLAND, ["greedy", "value-bidder", "majority-hunter", "flower-gardener", "courtier"]),
    ],
    ids=lambda v: getattr(v, "name", ""),
)
def test_the_candidates_are_every_heuristic_the_game_plays_at_the_count(spec, expected):
    assert heuristics(spec, 4) == expected
    assert spec.ladder[-1] in expected and "random" not in expected and spec.search not in expected
