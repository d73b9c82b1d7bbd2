"""Every auction of replayed games, recorded from the reference engine."""

from __future__ import annotations

import numpy as np
import pytest

from fairysim.analysis.fairyland.auctions import COLUMNS, record_auctions
from fairysim.sim.fairyland import make_setup, reference
from fairysim.sim.fairyland.runs import simulate

GAMES = 4


@pytest.fixture(scope="module")
def recorded():
    setup = make_setup(players=3, policies="greedy", seed=5)
    return record_auctions(setup, GAMES), simulate(players=3, games=GAMES, seed=5)


def test_the_auctions_are_the_fast_engines(recorded):
    auctions, df = recorded
    assert list(auctions.columns) == list(COLUMNS)
    per_game = df.groupby("game").first()
    assert auctions.groupby("game").size().tolist() == per_game["auctions"].tolist()
    unbid = (~auctions["bid"]).groupby(auctions["game"]).sum()
    assert unbid.tolist() == per_game["unbid_clearings"].tolist()
    won = auctions[auctions["bid"]].groupby(["game", "winner"]).size()
    expected = df.set_index(["game", "seat"])["auctions_won"]
    assert won.reindex(expected.index, fill_value=0).tolist() == expected.tolist()


def test_prices_and_prizes(recorded):
    auctions, df = recorded
    won = auctions[auctions["bid"]]
    assert (won["cards"] >= 1).all()
    kinds = auctions[["animals", "flowers", "goblins", "ogres", "fairies"]].sum(axis=1)
    assert ((auctions["cards"] - kinds).between(0, 1)).all()  # the Lost Half is the rest
    assert (won["price"] >= 0).all() and (won["fairies_paid"] >= 0).all()
    # the price is part of what the seat played (the Queen and the Druids take the rest)
    spent = won.groupby(["game", "winner"])["price"].sum()
    paid = df.set_index(["game", "seat"])["value_paid"]
    assert (spent <= paid.reindex(spent.index)).all()
    assert np.isfinite(won["prize"]).all()
    assert auctions.loc[~auctions["bid"], "price"].isna().all()
    assert (won["explorer_won"] == (won["explorer"] == won["winner"])).all()


def test_the_reference_engine_is_left_as_it_was(recorded):
    original = reference.explore
    record_auctions(make_setup(players=2, seed=1), 1)
    assert reference.explore is original
