"""One run's rows as per-game arrays: seats, winners and the honors that decide."""

from __future__ import annotations

import numpy as np
import pytest

from fairysim.analysis.concerto import runs as ar
from fairysim.sim.concerto.rules import CONTESTS

from .tidy import frame


def test_contest_honors_ties_share_and_zero_gives_none():
    points = np.array([[3, 6, 6], [0, 0, 0], [9, 0, 2]])
    assert ar.contest_honors(points).tolist() == [[0, 2, 2], [0, 0, 0], [2, 0, 0]]


def test_winner_mask_shares_ties_and_solo_tie_is_pahhas():
    scores = np.array([[30, 30, 10], [10, 20, 5]])
    assert ar.winner_mask(scores, solo=False).tolist() == [
        [True, True, False],
        [False, True, False],
    ]
    solo = np.array([[40, 40], [41, 40], [30, 31]])
    assert ar.winner_mask(solo, solo=True).tolist() == [[False, True], [True, False], [False, True]]


def test_honor_decides_by_hand():
    soloist = [
        [5, 8, 0],  # seat 1's honor, seat 0 still wins without it: not decisive
        [5, 8, 0],  # seat 1 wins 21-20 only thanks to its honor: decisive
        [8, 8, 0],  # shared by winner and runner-up: never decisive
        [0, 0, 0],  # nobody scores: no honor at all
    ]
    conductor = [[0, 0, 0], [0, 0, 0], [0, 0, 0], [10, 8, 2]]  # game 3: seat 0's honor ties 20-20
    scores = [[20, 19, 10], [20, 21, 10], [22, 21, 5], [20, 20, 5]]
    decides = ar.honor_decides(frame(scores, {"soloist": soloist, "conductor": conductor}))
    assert decides["soloist"].tolist() == [False, True, False, False]
    assert decides["conductor"].tolist() == [False, False, False, True]
    assert decides["any"].tolist() == [False, True, False, True]
    assert decides["game"].tolist() == [0, 1, 2, 3]


def test_honor_decides_in_solo_counts_a_tie_as_pahhas_win():
    # You 30, Pahha 30 with your pianist honor: without it you would lose 28-30 anyway.
    # You 31, Pahha 30 with your honor: without it 29-30, Pahha wins: decisive.
    df = frame([[30, 30], [31, 30]], {"pianist": [[3, 0], [3, 0]]}, players=1)
    assert ar.honor_decides(df)["pianist"].tolist() == [False, True]


def test_recomputed_honors_match_the_engine(three_players, solo):
    for df in (three_players, solo):
        _, a = ar.seat_arrays(df, ["honors", *CONTESTS])
        recomputed = sum(ar.contest_honors(a[c]) for c in CONTESTS)
        np.testing.assert_array_equal(recomputed, a["honors"])


def test_seat_arrays_sorts_shuffled_rows_and_handles_solo(three_players, solo):
    games, a = ar.seat_arrays(three_players, ["score", "soloist_card"])
    shuffled = three_players.sample(frac=1.0, random_state=1)
    games2, b = ar.seat_arrays(shuffled, ["score", "soloist_card"])
    np.testing.assert_array_equal(games, games2)
    np.testing.assert_array_equal(a["score"], b["score"])
    assert a["score"].shape == (400, 3)
    assert a["soloist_card"].min() >= 0  # categorical codes
    _, s = ar.seat_arrays(solo, ["score"])
    assert s["score"].shape == (300, 2)
    with pytest.raises(ValueError, match="one row per seat"):
        ar.seat_arrays(three_players.iloc[:-1], ["score"])
