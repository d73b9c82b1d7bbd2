"""Compact letter displays on constructed pair tables: items share a letter exactly when the
correction does not separate them."""

from __future__ import annotations

import itertools

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from fairysim.stats.letters import compact_letters, letters_agree
from fairysim.stats.ranking import family_sentence, pair_rows, separated_pairs


def test_a_chain_gives_the_middle_item_both_letters():
    # A ~ B and B ~ C, but A > C: B cannot be put with one of them only
    letters = compact_letters({"A": 0.3, "B": 0.2, "C": 0.1}, [("A", "C")])
    assert letters == {"A": "a", "B": "ab", "C": "b"}


def test_every_pair_separated_gives_one_letter_each_in_order():
    items = {"A": 0.1, "B": 0.3, "C": 0.2}
    letters = compact_letters(items, itertools.combinations(items, 2))
    assert letters == {"A": "c", "B": "a", "C": "b"}


def test_no_pair_separated_gives_one_shared_letter():
    assert compact_letters({"A": 1.0, "B": 2.0, "C": 3.0}, []) == {"A": "a", "B": "a", "C": "a"}


def test_lower_is_better_names_the_lowest_first():
    letters = compact_letters({"A": 0.3, "B": 0.2, "C": 0.1}, [("A", "C")], higher_is_better=False)
    assert letters == {"A": "b", "B": "ab", "C": "a"}


def test_a_pair_inside_a_tied_group_is_shown_separated():
    # the old tied groups put B and C with the leader A; B and C are separated from each other
    letters = compact_letters({"A": 0.5, "B": 0.4, "C": 0.3, "D": 0.1}, [("B", "C"), ("A", "D")])
    assert not set(letters["B"]) & set(letters["C"])
    assert set(letters["A"]) & set(letters["B"]) and set(letters["A"]) & set(letters["C"])
    assert letters_agree(letters, [("B", "C"), ("A", "D")])


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 9).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.booleans(), min_size=n * (n - 1) // 2, max_size=n * (n - 1) // 2),
        )
    )
)
def test_letters_match_any_pair_table(case):
    n, flags = case
    items = {f"i{k}": float(n - k) for k in range(n)}
    pairs = [p for p, f in zip(itertools.combinations(items, 2), flags, strict=True) if f]
    letters = compact_letters(items, pairs)
    assert letters_agree(letters, pairs)
    # the best item always holds "a", and no letter is held by nobody
    assert "a" in letters["i0"]
    used = set("".join(letters.values()))
    assert used == set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[: len(used)])


def test_pair_rows_keep_every_pair_and_name_the_family():
    pairs = pd.DataFrame(
        {
            "a": ["A", "A", "B"],
            "b": ["B", "C", "C"],
            "estimate": [0.01, 0.05, 0.04],
            "low": [-0.01, 0.02, -0.001],
            "high": [0.03, 0.08, 0.081],
            "p_adjusted": [0.4, 0.001, 0.06],
            "significant": [False, True, False],
            "method": "holm",
        }
    )
    rows = pair_rows(pairs, "all 3 pairs of cards at 2 players")
    assert rows["family_size"].tolist() == [3, 3, 3]
    assert rows["separated"].tolist() == [False, True, False]
    assert separated_pairs(pairs) == [("A", "C")]
    assert family_sentence("all 3 pairs of cards at 2 players") == (
        "pairs corrected together: all 3 pairs of cards at 2 players, Holm"
    )
