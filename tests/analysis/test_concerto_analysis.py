"""Fairy Concerto analyses: honors that decide, card balance tables, and the solo study."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis import concerto as ac
from fairysim.errors import FairysimError
from fairysim.sim.concerto import KINDS, load_cards, simulate
from fairysim.sim.concerto.rules import CONTESTS


def frame(scores, parts=None, players=None, **columns) -> pd.DataFrame:
    """A tidy frame by hand: ``scores[g][s]``; ``parts[name][g][s]`` for the contest parts."""
    scores = np.asarray(scores)
    n, seats = scores.shape
    data = {
        "game": np.repeat(np.arange(n), seats),
        "seat": np.tile(np.arange(seats), n),
        "players": players if players is not None else seats,
        "score": scores.ravel(),
    }
    for name in CONTESTS:
        data[name] = np.asarray((parts or {}).get(name, np.zeros_like(scores))).ravel()
    for name, values in columns.items():
        data[name] = np.asarray(values).ravel()
    return pd.DataFrame(data)


@pytest.fixture(scope="module")
def three_players():
    return simulate(players=3, policies="greedy", games=400, seed=5)


@pytest.fixture(scope="module")
def solo():
    return simulate(players=1, policies="greedy", games=300, seed=5)


# --------------------------------------------------------------------------------------------
# Honors


def test_contest_honors_ties_share_and_zero_gives_none():
    points = np.array([[3, 6, 6], [0, 0, 0], [9, 0, 2]])
    assert ac.contest_honors(points).tolist() == [[0, 2, 2], [0, 0, 0], [2, 0, 0]]


def test_winner_mask_shares_ties_and_solo_tie_is_pahhas():
    scores = np.array([[30, 30, 10], [10, 20, 5]])
    assert ac.winner_mask(scores, solo=False).tolist() == [
        [True, True, False],
        [False, True, False],
    ]
    solo = np.array([[40, 40], [41, 40], [30, 31]])
    assert ac.winner_mask(solo, solo=True).tolist() == [[False, True], [True, False], [False, True]]


def test_honor_decides_by_hand():
    soloist = [
        [5, 8, 0],  # seat 1's honor, seat 0 still wins without it: not decisive
        [5, 8, 0],  # seat 1 wins 21-20 only thanks to its honor: decisive
        [8, 8, 0],  # shared by winner and runner-up: never decisive
        [0, 0, 0],  # nobody scores: no honor at all
    ]
    conductor = [[0, 0, 0], [0, 0, 0], [0, 0, 0], [10, 8, 2]]  # game 3: seat 0's honor ties 20-20
    scores = [[20, 19, 10], [20, 21, 10], [22, 21, 5], [20, 20, 5]]
    decides = ac.honor_decides(frame(scores, {"soloist": soloist, "conductor": conductor}))
    assert decides["soloist"].tolist() == [False, True, False, False]
    assert decides["conductor"].tolist() == [False, False, False, True]
    assert decides["any"].tolist() == [False, True, False, True]
    assert decides["game"].tolist() == [0, 1, 2, 3]


def test_honor_decides_in_solo_counts_a_tie_as_pahhas_win():
    # You 30, Pahha 30 with your pianist honor: without it you would lose 28-30 anyway.
    # You 31, Pahha 30 with your honor: without it 29-30, Pahha wins: decisive.
    df = frame([[30, 30], [31, 30]], {"pianist": [[3, 0], [3, 0]]}, players=1)
    assert ac.honor_decides(df)["pianist"].tolist() == [False, True]


def test_recomputed_honors_match_the_engine(three_players, solo):
    for df in (three_players, solo):
        _, a = ac.seat_arrays(df, ["honors", *CONTESTS])
        recomputed = sum(ac.contest_honors(a[c]) for c in CONTESTS)
        np.testing.assert_array_equal(recomputed, a["honors"])


def test_seat_arrays_sorts_shuffled_rows_and_handles_solo(three_players, solo):
    games, a = ac.seat_arrays(three_players, ["score", "soloist_card"])
    shuffled = three_players.sample(frac=1.0, random_state=1)
    games2, b = ac.seat_arrays(shuffled, ["score", "soloist_card"])
    np.testing.assert_array_equal(games, games2)
    np.testing.assert_array_equal(a["score"], b["score"])
    assert a["score"].shape == (400, 3)
    assert a["soloist_card"].min() >= 0  # categorical codes
    _, s = ac.seat_arrays(solo, ["score"])
    assert s["score"].shape == (300, 2)
    with pytest.raises(ValueError, match="one row per seat"):
        ac.seat_arrays(three_players.iloc[:-1], ["score"])


# --------------------------------------------------------------------------------------------
# Card balance of one run


def test_score_card_rows_count_the_masks(three_players):
    cards = load_cards()
    rows = ac.score_card_rows(three_players, cards)
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
    rows = ac.contest_rows(three_players)
    games = three_players["game"].nunique()
    assert list(rows["card"]) == ["conductor", *"ABCD", "P1", "P2", "P3", "H1", "H2", "H3"]
    assert rows.loc[rows["contest"] == "conductor", "games"].item() == games
    for contest in ("soloist", "pianist", "harpist"):
        assert rows.loc[rows["contest"] == contest, "games"].sum() == games
    decided = ac.honor_decides(three_players)
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
    rows = ac.popularity_rows(df).set_index("popularity_kind")
    assert rows.loc["all", "leader_games"] == 2
    assert rows.loc["all", "leader_win_share"] == 0.5
    assert rows.loc["all", "fair"] == pytest.approx(1 / 3)
    assert rows.loc["trumpeter", "games"] == 2 and rows.loc["composer", "games"] == 1
    assert rows.loc["composer", "leader_win_share"] == 0.0
    assert rows.loc["all", "winner_points"] == pytest.approx(2.0)  # seat 1: 3, 2, 1


def test_part_rows_add_up_to_the_score(three_players):
    parts = ac.part_rows(three_players).set_index("part")
    assert parts.drop(index="score")["mean"].sum() == pytest.approx(parts.loc["score", "mean"])
    assert parts.loc["score", "winners"] > parts.loc["score", "others"]


def test_card_table_and_descriptions():
    cards = load_cards()
    table = ac.card_table(cards)
    assert len(table) == 26 + 3 + 3
    assert ac.describe_set([0, 2, 0, 0, 0]) == "2 drummer"
    assert ac.describe_set([1, 0, 1, 0, 0]) == "trumpeter + violinist"
    contests = ac.contest_cards(cards)
    assert list(contests["contest"]).count("soloist") == 4


# --------------------------------------------------------------------------------------------
# The studies


def test_card_balance_small_study():
    balance = ac.card_balance(games=300, seed=2, players=(2, 4))
    assert len(balance.score_cards) == 2 * 26 and len(balance.score_cards_pooled) == 26
    assert set(balance.seats["players"]) == {2, 4} and len(balance.seats) == 6
    assert list(balance.seat_tests["players"]) == [2, 4]
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
        ac.card_balance(games=10, seed=1, players=players)
    assert error.value.where == "--players"


def test_solo_runs_share_deals_and_setups_whatever_the_policy():
    runs = ac.solo_runs(games=200, seed=3, policies=("random", "denier"))
    assert list(runs) == ["greedy", "random", "denier"]  # greedy first: the baseline
    setup = [*ac.SETUP_COLUMNS, "popularity_kind"]
    for name in ("random", "denier"):
        pd.testing.assert_frame_equal(runs[name][setup], runs["greedy"][setup])


def test_solo_study_pairs_lookahead_on_the_first_deals():
    progress = []
    study = ac.solo_study(
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
    assert p.loc["random", "gain"] < 0 and bool(p.loc["random", "significant"])
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
        ac.solo_study(games=10, seed=1, policies=("greedy", "nosuch"))
    assert error.value.where == "--policy"
    bad = tmp_path / "bad.toml"
    bad.write_text("not = = toml")
    with pytest.raises(FairysimError) as error:
        ac.solo_study(games=10, seed=1, cards=bad)
    assert error.value.where == "--cards"
    assert str(bad) in str(error.value)
