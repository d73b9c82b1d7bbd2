"""Corrected families: hand-computed Holm and BH, and intervals that agree with verdicts."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

from fairysim.stats.corrections import correct_family, interval_agrees
from fairysim.stats.ranking import pairwise_differences, ranked_groups, top_wording

P = np.array([0.01, 0.04, 0.03, 0.005])


def family(p):
    """Estimates with standard error 1 whose two-sided normal p-values are ``p``."""
    return norm.isf(np.asarray(p) / 2), np.ones(len(p))


def test_holm_matches_hand_computation():
    # sorted 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 -> max(0.06, 0.04) = 0.06
    t = correct_family(*family(P), method="holm")
    np.testing.assert_allclose(t["p_value"], P)
    np.testing.assert_allclose(t["p_adjusted"], [0.03, 0.06, 0.06, 0.02])
    assert t["significant"].tolist() == [True, False, False, True]
    # rejected at steps 1 and 0 (levels 0.05/3, 0.05/4); the others at step 2's 0.05/2
    np.testing.assert_allclose(t["level"], [0.05 / 3, 0.05 / 2, 0.05 / 2, 0.05 / 4])
    assert interval_agrees(t).all()


def test_bh_matches_hand_computation():
    # 0.005*4/1 = 0.02, 0.01*4/2 = 0.02, 0.03*4/3 = 0.04, 0.04*4/4 = 0.04
    t = correct_family(*family(P), method="fdr_bh")
    np.testing.assert_allclose(t["p_adjusted"], [0.02, 0.04, 0.04, 0.02])
    assert t["significant"].all()
    np.testing.assert_allclose(t["level"], 0.05 * 4 / 4)  # FCR level q R / m with R = 4
    assert interval_agrees(t).all()


def test_untested_comparison_is_never_significant():
    t = correct_family([0.5, 3.0], [0.0, 1.0])
    assert not t["significant"][0] and np.isnan(t["p_value"][0])
    assert t["significant"][1]


def test_unknown_method_is_refused():
    with pytest.raises(ValueError, match="method"):
        correct_family([1.0], [1.0], method="bonferroni_typo")


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-6, 6, allow_nan=False), st.floats(0.01, 3, allow_nan=False)),
        min_size=1,
        max_size=30,
    ),
    st.sampled_from(["holm", "fdr_bh"]),
    st.floats(0.001, 0.2),
)
def test_verdict_and_interval_never_disagree(rows, method, alpha):
    est, se = zip(*rows, strict=True)
    t = correct_family(est, se, method=method, alpha=alpha)
    assert interval_agrees(t).all()
    assert (t["significant"] == (t["p_adjusted"] <= alpha)).all()


def test_ranking_ties_top_two_when_not_separated():
    estimates = {"I": 0.250, "II": 0.258, "III": 0.20, "IV": 0.19}
    ses = dict.fromkeys(estimates, 0.004)
    groups = ranked_groups(estimates, pairwise_differences(estimates, ses))
    assert groups[0] == ["II", "I"]
    assert top_wording(groups) == "top group: II, I"


def test_ranking_names_a_strongest_only_when_separated():
    estimates = {"I": 0.30, "II": 0.25, "III": 0.249}
    ses = dict.fromkeys(estimates, 0.002)
    groups = ranked_groups(estimates, pairwise_differences(estimates, ses))
    assert groups == [["I"], ["II", "III"]]
    assert top_wording(groups) == "strongest: I"


def test_ranking_with_nothing_separated_is_one_group():
    estimates = {"a": 0.5, "b": 0.49}
    groups = ranked_groups(estimates, pairwise_differences(estimates, dict(a=0.1, b=0.1)))
    assert top_wording(groups) == "top group: a, b"


def test_a_group_is_named_by_its_word_so_hardest_and_easiest_read_apart():
    groups = [["a", "b"], ["c"]]
    assert top_wording(groups, "hardest") == "hardest group: a, b"
    assert top_wording([["c"], ["a", "b"]], "easiest") == "easiest: c"


def test_a_listed_group_is_labelled_once():
    from fairysim.stats.ranking import group_label

    assert group_label("hardest", ["a"]) == "hardest"
    assert group_label("hardest", ["a", "b"]) == "hardest group (not separated after correction)"
