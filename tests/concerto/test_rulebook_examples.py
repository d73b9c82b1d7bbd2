"""Scoring rules (C5, C6) on the rulebook's examples and constructed orchestras."""

import numpy as np
import pytest

from fairysim.sim.concerto import score_orchestra
from fairysim.sim.concerto.rules import (
    N_PARTS,
    P_CONDUCTOR,
    P_HARPIST,
    P_HONORS,
    P_PIANIST,
    P_SOLOIST,
    award_honors,
    set_count,
    soloist_points,
)

PRINTED = np.array([2, 2, 2, 5, 1])  # 2 trumpeters, 2 drummers, 2 violinists, 5 horns, 1 composer


@pytest.mark.parametrize(("method", "points"), [(2, 9), (3, 9)])
def test_rulebook_soloist_examples_c_and_d_give_9(method, points):
    assert soloist_points(method, PRINTED) == points


def test_soloist_a_and_b_on_constructed_orchestras():
    c = np.array([4, 0, 3, 3, 2])
    assert soloist_points(0, c) == 4 * 2  # A: fewest present kind (zeros ignored)
    assert soloist_points(1, c) == 3 * (4 - 2)  # B: most minus fewest present
    assert soloist_points(0, np.array([0, 0, 12, 0, 0])) == 48
    assert soloist_points(1, np.array([0, 0, 12, 0, 0])) == 0
    for method in range(4):
        assert soloist_points(method, np.zeros(5, np.int64)) == 0


def test_soloist_c_ties_count_one_group_and_d_counts_groups():
    c = np.array([3, 3, 1, 1, 4])  # groups: 3 -> 2 kinds, 1 -> 2 kinds, 4 -> 1 kind
    assert soloist_points(2, c) == 6
    assert soloist_points(3, c) == 9


def test_sets_with_a_repeated_kind():
    horn_horn_violin = np.array([0, 0, 1, 2, 0])
    assert set_count(horn_horn_violin, np.array([0, 0, 5, 5, 0])) == 2  # 5 horns // 2
    assert set_count(horn_horn_violin, np.array([0, 0, 1, 7, 0])) == 1
    assert set_count(horn_horn_violin, np.array([0, 0, 3, 1, 0])) == 0


def test_score_orchestra_public_function_on_the_printed_orchestra():
    setup = {"popularity": "horn", "soloist": "D", "pianist": "P3", "harpist": "H2"}
    parts = score_orchestra([2, 2, 2, 5, 1], setup, ["S04", "S05", "S01"])
    assert parts["popularity"] == 5
    assert parts["conductor"] == 10
    assert parts["soloist"] == 9
    assert parts["pianist"] == 3 * 2  # horn, horn, violinist: min(2 // 1, 5 // 2)
    assert parts["harpist"] == 3 * 2  # one of each non-composer kind
    assert (
        parts["score_cards"] == 10
    )  # S04 (3 horns) and S05 (2 trumpeters + 2 drummers); S01 (3 trumpeters) not
    assert parts["honors"] == 0
    assert parts["total"] == 5 + 10 + 9 + 6 + 6 + 10


def honors_of(rows):
    parts = np.zeros((len(rows), N_PARTS), np.int64)
    for s, (cond, solo, pian, harp) in enumerate(rows):
        parts[s, P_CONDUCTOR], parts[s, P_SOLOIST] = cond, solo
        parts[s, P_PIANIST], parts[s, P_HARPIST] = pian, harp
    award_honors(parts, len(rows))
    return list(parts[:, P_HONORS])


def test_honors_ties_share_and_zero_never_wins():
    # ruling C6: every seat with the highest score gets the honor; a best of 0 gives none
    assert honors_of([(8, 9, 0, 3), (8, 6, 0, 3), (6, 9, 0, 0)]) == [6, 4, 2]
    assert honors_of([(0, 0, 0, 0), (0, 0, 0, 0)]) == [0, 0]
