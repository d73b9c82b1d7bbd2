"""What the Fairy Land study keeps of one run: collected card types, per-game measures, wins by
turn position."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis.fairyland import runs
from fairysim.sim.fairyland import load_court
from fairysim.sim.fairyland.spec import COLLECTED_NAMES

COURT = load_court(None)


def by_game(df: pd.DataFrame, column: str) -> np.ndarray:
    return df.sort_values(["game", "seat"])[column].to_numpy().reshape(-1, df["seat"].max() + 1)


def test_every_card_type_is_covered_once_in_group_order():
    types = runs.card_types(COURT)
    assert len(types) == len(COLLECTED_NAMES) + 1 + COURT.n_items  # forest cards, ogre, items
    assert types["card"].is_unique
    order = [runs.GROUPS.index(g) for g in types["group"]]
    assert order == sorted(order)
    kinds = types.groupby("group").size()
    assert kinds["animal"] == 7 and kinds["flower"] == 5 and kinds["special fairy"] == 6
    assert kinds["goblin"] == kinds["ogre"] == kinds["pendant"] == 1
    assert kinds["court item"] == 19
    assert types.loc[types["card"] == "yellow", "label"].item() == "Yellow flower"


def test_card_rows_count_collections_and_lifts(three_players):
    df = three_players
    rows = runs.card_rows(df, COURT).set_index("card")
    win = df["win_share"].to_numpy()
    games = df["game"].nunique()
    for name in COLLECTED_NAMES:
        flag = df[f"n_{name}"].to_numpy() > 0
        row = rows.loc[name]
        assert row["seat_games"] == len(df)
        assert row["collected"] == flag.sum()
        assert row["mean_count"] == pytest.approx(df[f"n_{name}"].mean())
        assert row["collect_low"] <= row["collect_share"] <= row["collect_high"]
        if 0 < flag.sum() < len(df):
            lift = win[flag].mean() - win[~flag].mean()
            assert row["lift"] == pytest.approx(lift)
            assert row["low"] < row["lift"] < row["high"]
            assert 0 <= row["p_value"] <= 1
    ogre = df["ogres_gained"].to_numpy() > 0
    assert rows.loc["ogre", "collected"] == ogre.sum()
    # 3 ogres in the rulebook's forest: no game hands out more
    assert df.groupby("game")["ogres_gained"].sum().max() <= 3
    owned = df["items_held_mask"].to_numpy(np.int64) | df["items_used_mask"].to_numpy(np.int64)
    court = df["court_items"].to_numpy(np.int64)
    for i, item in enumerate(COURT.ids):
        drawn = (court >> i) & 1 == 1
        row = rows.loc[item]
        assert row["seat_games"] == drawn.sum()  # every seat of the games it was drawn in
        assert row["collected"] == ((owned >> i) & 1)[drawn].sum()
        assert ((owned >> i) & 1)[~drawn].sum() == 0  # nobody holds an item not drawn
    assert rows.loc[list(COURT.ids), "seat_games"].sum() == 9 * games * 3  # 9 items a game


def test_game_rows_by_hand(three_players):
    df = three_players
    rows = runs.game_rows(df)
    score = by_game(df, "score")
    top = np.sort(score, axis=1)
    assert list(rows["game"]) == sorted(df["game"].unique())
    np.testing.assert_allclose(rows["mean_score"], score.mean(axis=1))
    np.testing.assert_allclose(rows["margin"], top[:, -1] - top[:, -2])
    np.testing.assert_allclose(rows["queen_visits"], by_game(df, "queen_visits").sum(axis=1))
    np.testing.assert_allclose(rows["auctions"], by_game(df, "auctions")[:, 0])
    starter = by_game(df, "turn_position") == 1  # the rows count turn positions from 1
    np.testing.assert_allclose(rows["starter_wins"], (by_game(df, "win_share") * starter).sum(1))
    assert set(rows["court"]) == {"random"}
    assert {m.column for m in runs.GAME_MEASURES} <= set(rows.columns)


def test_the_balance_card_reads_turn_positions_not_lineup_places(three_players):
    from fairysim.analysis.studies.balance import BalanceRows, balance_card
    from fairysim.sim.fairyland.spec import SPEC

    df = three_players
    rows = BalanceRows(SPEC.turn_order, length_column=SPEC.length_column)
    rows.add(df)
    card = balance_card(rows)
    t = card.turn_order
    games = df["game"].nunique()
    assert list(t["position"]) == [0, 1, 2]
    assert (t["games"] == games).all()
    assert t["win_share"].sum() == pytest.approx(1.0)  # one winner a game (L12)
    expected = df.groupby("turn_position")["win_share"].mean().to_numpy()
    np.testing.assert_allclose(t["win_share"], expected)
    assert not np.allclose(expected, df.groupby("seat")["win_share"].mean().to_numpy())
    turns = df.groupby("game")["turns"].first()
    assert card.summary["length"].iloc[0] == pytest.approx(turns.mean())
