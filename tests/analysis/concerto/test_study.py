"""Fairy Concerto card balance: the per-run tables and the study for 2 to 4 players."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis.concerto import study as card_study
from fairysim.analysis.concerto.runs import honor_decides
from fairysim.runtime.errors import FairysimError
from fairysim.sim.concerto import KINDS, load_cards

from .tidy import frame


def test_score_card_rows_count_the_masks(three_players):
    cards = load_cards()
    rows = card_study.score_card_rows(three_players, cards)
    assert list(rows["card"]) == list(cards.score_ids)
    held = three_players["held_mask"].to_numpy()
    done = three_players["completed_mask"].to_numpy()
    win = three_players["win_share"].to_numpy()
    for i, row in enumerate(rows.itertuples(index=False)):
        has = (held >> i) & 1 == 1
        assert row.held == has.sum()
        assert row.completed == ((done >> i) & 1).sum()
        assert row.completion_low <= row.completion <= row.completion_high
        assert row.holders_win_share == pytest.approx(win[has].mean())
        assert row.lift == pytest.approx(win[has].mean() - win[~has].mean())
        assert row.expected_points == pytest.approx(5 * row.completion)
    assert (rows["completed"] <= rows["held"]).all()
    # every completed card is held, and the masks agree with the per-seat counts
    assert ((done & ~held) == 0).all()
    assert rows["held"].sum() == three_players["cards_held"].sum()


def test_contest_rows_cover_every_card_and_game(three_players):
    rows = card_study.contest_rows(three_players)
    games = three_players["game"].nunique()
    assert list(rows["card"]) == ["conductor", *"ABCD", "P1", "P2", "P3", "H1", "H2", "H3"]
    assert rows.loc[rows["contest"] == "conductor", "games"].item() == games
    for contest in ("soloist", "pianist", "harpist"):
        assert rows.loc[rows["contest"] == contest, "games"].sum() == games
    decided = honor_decides(three_players)
    assert rows.loc[rows["contest"] == "conductor", "decides"].item() == pytest.approx(
        decided["conductor"].mean()
    )
    soloist = rows[rows["contest"] == "soloist"]
    assert (soloist["decides"] * soloist["games"]).sum() == pytest.approx(decided["soloist"].sum())
    assert (rows["mean_spread"] >= 0).all()
    assert (
        (rows["decides_low"] <= rows["decides"]) & (rows["decides"] <= rows["decides_high"])
    ).all()


def test_popularity_points_are_the_tokens_of_the_popularity_kind(three_players):
    kind = three_players["popularity_kind"].astype(str)
    counts = np.column_stack([three_players[f"n_{k}"] for k in KINDS])
    chosen = counts[np.arange(len(kind)), [KINDS.index(k) for k in kind]]
    np.testing.assert_array_equal(chosen, three_players["popularity"])


def test_popularity_rows_leader_by_hand():
    # game 0: seat 1 leads alone and wins; game 1: tie for the lead (left out); game 2: seat 0
    # leads alone and loses.
    pop = [[1, 3, 0], [2, 2, 0], [4, 1, 1]]
    scores = [[10, 20, 5], [10, 20, 5], [10, 20, 5]]
    df = frame(
        scores,
        popularity=pop,
        win_share=[[0, 1, 0]] * 3,
        popularity_kind=pd.Categorical.from_codes(np.repeat([0, 0, 4], 3), list(KINDS)),
    )
    rows = card_study.popularity_rows(df).set_index("popularity_kind")
    assert rows.loc["all", "leader_games"] == 2
    assert rows.loc["all", "leader_win_share"] == 0.5
    assert rows.loc["all", "fair"] == pytest.approx(1 / 3)
    assert rows.loc["trumpeter", "games"] == 2 and rows.loc["composer", "games"] == 1
    assert rows.loc["composer", "leader_win_share"] == 0.0
    assert rows.loc["all", "winner_points"] == pytest.approx(2.0)  # seat 1: 3, 2, 1


def test_part_rows_add_up_to_the_score(three_players):
    parts = card_study.part_rows(three_players).set_index("part")
    assert parts.drop(index="score")["mean"].sum() == pytest.approx(parts.loc["score", "mean"])
    assert parts.loc["score", "winners"] > parts.loc["score", "others"]


def test_card_balance_small_study():
    balance = card_study.card_balance(games=300, seed=2, players=(2, 4))
    assert len(balance.score_cards) == 2 * 26 and len(balance.score_cards_pooled) == 26
    turn = balance.balance.turn_order
    assert turn["players"].tolist() == [2, 2, 4, 4, 4, 4]  # by seat index, the order (C4)
    assert turn.groupby("players")["win_share"].sum().tolist() == pytest.approx([1.0, 1.0])
    assert (turn["games"] == 300).all()
    assert balance.balance.summary["players"].tolist() == [2, 4]
    # comebacks from every run's standings after each round (ruling PC6)
    assert balance.balance.summary["comeback_games"].between(1, 300).all()
    lifts = balance.score_cards_pooled
    assert (lifts["lift_p_adjusted"] >= lifts["lift_p_value"] - 1e-12).all()  # one family
    assert (lifts["lift_significant"] == (lifts["lift_low"] > 0) | (lifts["lift_high"] < 0)).all()
    pop = balance.popularity
    excludes = (pop["leader_low"] > pop["fair"]) | (pop["leader_high"] < pop["fair"])
    assert (pop["leader_significant"] == excludes).all()
    assert {"spread_2p", "spread_4p"} <= set(balance.contests_pooled.columns)
    pooled = balance.score_cards_pooled.set_index("card")
    per = balance.score_cards.groupby("card")["held"].sum()
    assert (pooled["held"] == per.reindex(pooled.index)).all()
    assert balance.meta["cards_provisional"] is True
    assert balance.meta["dominated"] == []
    assert balance.meta["games"] == 300
    assert set(balance.tables()) >= {"score_cards_pooled", "contests_pooled", "popularity"}


@pytest.mark.parametrize("players", [(1,), (5,), ()])
def test_card_balance_refuses_other_player_counts(players):
    with pytest.raises(FairysimError) as error:
        card_study.card_balance(games=10, seed=1, players=players)
    assert error.value.where == "players"
