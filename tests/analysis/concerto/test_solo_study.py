"""Fairy Concerto solo against Pahha: runs on identical deals and the study's tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis.concerto import solo_study as solo
from fairysim.analysis.concerto.runs import SETUP_COLUMNS
from fairysim.runtime.errors import FairysimError


def test_solo_runs_share_deals_and_setups_whatever_the_policy():
    runs = solo.solo_runs(games=200, seed=3, policies=("random", "denier"))
    assert list(runs) == ["greedy", "random", "denier"]  # greedy first: the baseline
    setup = [*SETUP_COLUMNS, "popularity_kind"]
    for name in ("random", "denier"):
        pd.testing.assert_frame_equal(runs[name][setup], runs["greedy"][setup])


def test_solo_study_pairs_lookahead_on_the_first_deals():
    progress = []
    study = solo.solo_study(
        games=300,
        seed=1,
        lookahead_games=30,
        policies=("greedy", "random", "lookahead"),
        progress=lambda done, total: progress.append((done, total)),
    )
    assert progress[-1] == (630, 630)
    p = study.policies.set_index("policy")
    assert list(p.index) == ["greedy", "random", "lookahead"]
    assert p.loc["lookahead", "games"] == 30 and p.loc["lookahead", "gain_games"] == 30
    assert p.loc["random", "gain"] < 0 and bool(p.loc["random", "gain_significant"])
    assert ((p["low"] <= p["win_share"]) & (p["win_share"] <= p["high"])).all()
    la = study.lookahead.iloc[0]
    assert la["games"] == 30
    assert la["gain"] == pytest.approx(la["policy_win_share"] - la["greedy_win_share"])
    greedy = study.setups[study.setups["policy"] == "greedy"]
    assert greedy["games"].sum() == 300 and len(greedy) <= 36
    cards = study.setup_cards[study.setup_cards["policy"] == "greedy"]
    assert cards.groupby("contest")["games"].sum().tolist() == [300, 300, 300]
    shares = study.margins.groupby("policy")["share"].sum()
    assert np.allclose(shares, 1.0)
    summary = study.margin_summary.set_index("policy")
    assert summary.loc["greedy", "won"] == pytest.approx(p.loc["greedy", "win_share"])
    assert study.meta["lookahead_games"] == 30 and study.meta["seed"] == 1


def test_solo_study_refuses_unknown_policy_and_bad_cards(tmp_path):
    with pytest.raises(FairysimError) as error:
        solo.solo_study(games=10, seed=1, policies=("greedy", "nosuch"))
    assert error.value.where == "policies"
    bad = tmp_path / "bad.toml"
    bad.write_text("not = = toml")
    with pytest.raises(FairysimError) as error:
        solo.solo_study(games=10, seed=1, cards=bad)
    assert error.value.where == "cards"
    assert str(bad) in str(error.value)
