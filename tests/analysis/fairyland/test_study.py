"""The Fairy Land study: its tables on a small run, and words that follow the corrected tests."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis.fairyland import study as fs
from fairysim.analysis.fairyland.runs import GAME_MEASURES
from fairysim.runtime.errors import FairysimError
from fairysim.stats.corrections import interval_agrees

from .conftest import AUCTION_GAMES, GAMES, SEED


def test_meta_and_every_table(study):
    meta = study.meta
    assert meta["games"] == GAMES and meta["seed"] == SEED
    assert meta["auction_games"] == AUCTION_GAMES
    assert meta["players"] == [2, 3, 4] and meta["courts"] == ["random", "starred", "none"]
    assert "PROVISIONAL" in meta["court_label"] and "PROVISIONAL" in meta["starred_label"]
    assert meta["correction"] == "holm" and meta["engine_version"] >= 2
    assert all(not t.empty for t in study.tables().values())


def test_pooled_cards_average_the_player_counts_and_rank_by_lift(study):
    pooled = study.cards_pooled
    lifts = pooled["lift"].dropna().to_numpy()
    assert (np.diff(lifts) <= 0).all()  # highest lift first
    assert pooled["lift"].isna().sum() == 0 or pooled["lift"].iloc[-1:].isna().all()
    per_count = study.cards.set_index(["card", "players"])
    for row in pooled.itertuples(index=False):
        rows = per_count.loc[row.card]
        assert row.seat_games == rows["seat_games"].sum()
        assert row.collected == rows["collected"].sum()
        tested = rows[np.isfinite(rows["se"])]
        if len(tested):
            assert row.lift == pytest.approx(tested["lift"].mean())
            se = np.sqrt((tested["se"] ** 2).sum()) / len(tested)
            assert row.se == pytest.approx(se)
            # the printed interval is the corrected one: never narrower than 95%
            assert row.low <= row.lift - 1.959963984540054 * se + 1e-12
    # one family per table: the corrected p-values are never below the raw ones, and the
    # interval shown beside each verdict agrees with it
    turn = study.balance.turn_order
    for table in (study.cards, pooled, study.court_effects, turn):
        tested = table.dropna(subset=["p_value"])
        assert (tested["p_adjusted"] >= tested["p_value"] - 1e-12).all()
        assert (tested["significant"] == (tested["p_adjusted"] < 0.05)).all()
        assert interval_agrees(tested).all()


def test_court_effects_are_paired_differences_of_the_court_means(study):
    levels = study.court_levels.set_index(["players", "court", "measure"])["mean"]
    effects = study.court_effects
    assert len(effects) == 3 * len(fs.COMPARISONS) * len(GAME_MEASURES)
    for e in effects.itertuples(index=False):
        assert e.n == GAMES
        expected = (
            levels[(e.players, e.court, e.measure)] - levels[(e.players, e.baseline, e.measure)]
        )
        assert e.difference == pytest.approx(expected, abs=1e-9)
    # the court of no effect scores no item points (PL9): items are all a court adds
    none = study.court_levels.query("court == 'none' and measure == 'items_points'")
    assert (none["mean"] == 0).all()


def test_game_length_and_auction_tables(study):
    length = study.length
    assert (length["turns_min"] == 36).all() and (length["turns_max"] == 36).all()  # L18
    assert (length["auctions_low"] <= length["auctions"]).all()
    counts = study.auction_counts
    assert (counts.groupby("players")["games"].sum() == GAMES).all()
    summary = study.auction_summary.set_index("players")
    assert (summary["games"] == AUCTION_GAMES).all()
    assert summary["auctions"].sum() == len(study.auctions)
    prices = study.auction_prices
    assert prices.groupby("players")["auctions"].sum().tolist() == summary["auctions"].tolist()
    assert prices["cards"].max() <= fs.SIZE_CAP


def test_seats_are_turn_positions(study):
    turn = study.balance.turn_order
    assert (turn["games"] == GAMES).all()
    assert turn.groupby("players")["win_share"].sum().tolist() == pytest.approx([1, 1, 1])
    assert (turn["fair"] == 1 / turn["players"]).all()
    assert study.balance.summary["players"].tolist() == [2, 3, 4]
    assert (study.balance.summary["length"] == 36).all()  # every game lasts 36 turns (L18)


def test_the_card_reads_comebacks_from_the_standings(study):
    """The random court's runs record each seat's standing after each round of turns (ruling
    PL11): comebacks and lead changes per player count, a lead change at most a round."""
    summary = study.balance.summary.set_index("players")
    assert summary["comeback_games"].between(GAMES // 2, GAMES).all()
    assert summary["comeback"].between(0, 1).all()
    assert (summary["lead_changes"] > 0).all()
    rounds = pd.Series({2: 18, 3: 12, 4: 9})
    assert (summary["lead_changes"] <= rounds - 1).all()
    assert (summary["lead_changes_low"] <= summary["lead_changes"]).all()


def test_a_lift_significant_alone_is_not_after_holm():
    # 40 card types, each 95% interval just excluding 0 (p about 0.03): none survives Holm
    rows = pd.DataFrame(
        {
            "players": 3,
            "card": [f"c{i}" for i in range(40)],
            "label": [f"card {i}" for i in range(40)],
            "group": "animal",
            "seat_games": 900,
            "collected": 450,
            "mean_count": 1.0,
            "lift": 0.022,
            "se": 0.01,
        }
    )
    pooled = fs.pool_cards(rows)
    assert (pooled["p_value"] < 0.05).all()  # each alone would look significant
    assert not pooled["significant"].any()
    assert ((pooled["low"] < 0) & (pooled["high"] > 0)).all()  # the corrected intervals say so
    assert not fs.clearly_first(pooled)


def test_clearly_first_needs_separated_intervals():
    table = pd.DataFrame(
        {"lift": [0.10, 0.05], "low": [0.08, 0.03], "high": [0.12, 0.07], "significant": True}
    )
    assert fs.clearly_first(table)
    table.loc[1, "high"] = 0.085  # overlapping intervals: no strongest
    assert not fs.clearly_first(table)
    table.loc[1, "high"], table.loc[0, "significant"] = 0.07, False
    assert not fs.clearly_first(table)


@pytest.mark.parametrize(
    ("kwargs", "option"),
    [
        ({"courts": ("starred", "none")}, "courts"),
        ({"courts": ("random", "queen")}, "courts"),
        ({"players": (5,)}, "players"),
        ({"auction_games": 0}, "auction_games"),
        ({"games": 0}, "games"),
    ],
)
def test_bad_input_names_the_option(kwargs, option):
    with pytest.raises(FairysimError) as error:
        fs.fairyland_study(**{"games": 10, "seed": 1, **kwargs})
    assert error.value.where == option
