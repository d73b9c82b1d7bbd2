"""fan_strength on a small run: structure, invariants and pairing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis.fantastique.runs import finale_decides
from fairysim.analysis.fantastique.study import (
    BASELINE,
    DEFAULT_LINEUPS,
    FanStrength,
    Lineup,
    baseline_table,
    fan_strength,
    gain_column,
)
from fairysim.runtime.errors import FairysimError
from fairysim.sim.fantastique import FANS, simulate
from fairysim.sim.fantastique.cards import DEFAULT_CARDS

GAMES = 150
SEED = 3
PLAYERS = (2, 4)


@pytest.fixture(scope="module")
def fs() -> FanStrength:
    calls = []
    result = fan_strength(GAMES, SEED, players=PLAYERS, progress=lambda d, t: calls.append((d, t)))
    result.meta["progress_calls"] = calls
    return result


def test_tables_have_every_cell(fs):
    n_lineups = len(DEFAULT_LINEUPS)
    assert len(fs.cells) == len(FANS) * len(PLAYERS) * n_lineups
    assert set(fs.cells["fan"]) == set(FANS)
    assert set(fs.cells["players"]) == set(PLAYERS)
    assert (fs.cells["games"] == GAMES).all()
    assert set(fs.tables()) >= {
        "ranking",
        "cells",
        "gains",
        "turn_order",
        "balance",
        "finale_counts",
    }
    assert fs.meta["games"] == GAMES and fs.meta["seed"] == SEED
    assert fs.meta["baseline"] == BASELINE.name


def test_progress_reaches_total(fs):
    calls = fs.meta["progress_calls"]
    total = GAMES * len(FANS) * len(PLAYERS) * len(DEFAULT_LINEUPS)
    assert calls[-1] == (total, total)
    done = [d for d, _ in calls]
    assert done == sorted(done)


def test_shares_are_shares(fs):
    c = fs.cells
    for col in ("finale_decides", "decides_low", "decides_high", "seat0_win_share"):
        assert c[col].between(0, 1).all(), col
    assert (c["decides_low"] <= c["finale_decides"] + 1e-12).all()
    assert (c["finale_decides"] <= c["decides_high"] + 1e-12).all()
    assert (c["finale_count"] >= 0).all() and (c["mean_margin"] >= 0).all()
    shares = fs.finale_counts.groupby(["fan", "players", "lineup"])["share"].sum()
    assert np.allclose(shares, 1.0)
    seat_sums = fs.seat_finale.groupby(["fan", "players", "lineup"])["win_share"].sum()
    assert np.allclose(seat_sums, 1.0)


def test_ranking_covers_six_fans_in_order(fs):
    r = fs.ranking
    assert sorted(r["fan"]) == sorted(FANS)
    assert r["rank"].tolist() == [1, 2, 3, 4, 5, 6]
    assert r["strength"].is_monotonic_decreasing
    assert ((r["strength_low"] <= r["strength"]) & (r["strength"] <= r["strength_high"])).all()
    assert r["strength"].between(0, 1).all()
    base = fs.cells[fs.cells["lineup"] == BASELINE.name]
    mean = base.groupby("fan")["finale_decides"].mean()
    assert r.set_index("fan")["strength"].to_dict() == pytest.approx(mean.to_dict())
    for lineup in DEFAULT_LINEUPS[2:]:
        tag = gain_column(lineup)
        assert {tag, f"{tag}_low", f"{tag}_high", f"{tag}_significant"} <= set(r.columns)
    d = fs.fan_differences
    assert len(d) == 15  # every pair of six fans, one family
    order = {fan: i for i, fan in enumerate(r["fan"])}
    assert all(order[a] < order[b] for a, b in zip(d["stronger"], d["weaker"], strict=True))
    assert d["p_adjusted"].ge(d["p_value"] - 1e-12).all()
    assert r["group"].iloc[0] == 1 and r["group"].is_monotonic_increasing
    separated = {frozenset(p) for p in d.loc[d["significant"], ["stronger", "weaker"]].values}
    leader = r["fan"].iloc[0]
    for fan, group in zip(r["fan"], r["group"], strict=True):
        if group == 1 and fan != leader:
            assert frozenset((leader, fan)) not in separated


def test_paired_gains_are_consistent(fs):
    g = fs.gains
    assert set(g["lineup"]) == {"hoarder at seat 0", "balancer at seat 0"}
    assert len(g) == len(FANS) * len(PLAYERS) * 2
    assert ((g["low"] <= g["gain"]) & (g["gain"] <= g["high"])).all()
    assert np.allclose(g["gain"], g["win_share"] - g["baseline_win_share"])
    assert (g["n"] == GAMES).all()
    assert (g["significant"] == ((g["low"] > 0) | (g["high"] < 0))).all()
    assert (g["p_adjusted"] >= g["p_value"] - 1e-12).all()  # one corrected family
    cells = fs.cells.set_index(["fan", "players", "lineup"])["seat0_win_share"]
    for row in g.itertuples():
        assert row.win_share == pytest.approx(cells[row.fan, row.players, row.lineup])
        assert row.baseline_win_share == pytest.approx(cells[row.fan, row.players, BASELINE.name])
    fg = fs.fan_gains
    assert len(fg) == len(FANS) * 2
    assert ((fg["low"] <= fg["gain"]) & (fg["gain"] <= fg["high"])).all()


def test_baseline_table_is_the_baseline_cells_by_fan_and_player_count(fs):
    table = baseline_table(fs, "finale_decides")
    assert list(table.index) == list(fs.ranking["fan"])  # strongest fan first
    assert list(table.columns) == list(PLAYERS)
    cell = fs.cells.query("fan == 'II' and players == 4 and lineup == @BASELINE.name").iloc[0]
    assert table.loc["II", 4] == cell["finale_decides"]


def test_balance_card_reads_the_baseline_by_round_one_turn_position(fs):
    t = fs.balance.turn_order
    assert len(t) == sum(PLAYERS)
    assert np.allclose(t.groupby("players")["win_share"].sum(), 1.0)
    assert (t["games"] == GAMES * len(FANS)).all()  # every fan's baseline run, rows pooled
    starters = []
    for fan in FANS:
        df = simulate(players=2, fan=fan, policies="greedy", games=GAMES, seed=SEED)
        starters.append(df[df["seat"] == df["start_seat"]]["win_share"].mean())
    first = t.query("players == 2 and position == 0")["win_share"].iloc[0]
    assert first == pytest.approx(np.mean(starters))
    s = fs.balance.summary
    assert s["players"].tolist() == list(PLAYERS)
    assert (s["games"] == GAMES).all()  # deals counted once: the fans replay the same deals
    assert {"margin", "tied", "comeback", "lead_changes"} <= set(s.columns)


def test_matches_a_direct_simulation(fs):
    df = simulate(players=4, fan="III", policies="greedy", games=GAMES, seed=SEED)
    decided = finale_decides(df)
    assert len(decided) == GAMES
    cell = fs.cells.query("fan == 'III' and players == 4 and lineup == @BASELINE.name").iloc[0]
    assert cell["finale_decides"] == pytest.approx(decided["decides"].mean())
    assert cell["seat0_win_share"] == pytest.approx(df[df.seat == 0]["win_share"].mean())
    assert cell["finale_count"] == pytest.approx(df["finale_count"].mean())


def test_deterministic_and_thread_independent():
    kwargs = {"players": (3,), "fans": ("V",), "lineups": (BASELINE, DEFAULT_LINEUPS[2])}
    a = fan_strength(80, 11, **kwargs)
    b = fan_strength(80, 11, threads=1, **kwargs)
    for name, table in a.tables().items():
        pd.testing.assert_frame_equal(table, b.tables()[name], obj=name)


def test_a_card_file_is_played_and_recorded(tmp_path):
    kwargs = {"players": (3,), "fans": ("II",), "lineups": (BASELINE,)}
    shipped = fan_strength(60, 4, **kwargs)
    assert "cards" not in shipped.meta  # the rulebook's cards: nothing to record
    same = tmp_path / "same.toml"
    same.write_text(DEFAULT_CARDS.read_text())
    copy = fan_strength(60, 4, cards=same, **kwargs)
    assert copy.meta["cards"] == str(same)
    pd.testing.assert_frame_equal(copy.cells, shipped.cells)
    richer = tmp_path / "richer.toml"
    richer.write_text(DEFAULT_CARDS.read_text().replace("gold = 20", "gold = 200"))
    variant = fan_strength(60, 4, cards=richer, **kwargs)
    assert variant.meta["cards"] == str(richer)
    assert not variant.cells["finale_decides"].equals(shipped.cells["finale_decides"])


def test_a_bad_card_file_names_the_option(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("not = = toml")
    with pytest.raises(FairysimError) as info:
        fan_strength(10, 1, players=(2,), cards=bad)
    assert info.value.where == "cards"
    assert str(bad) in str(info.value)


def test_custom_lineups_and_no_gain_lineup():
    only = fan_strength(
        40, 2, players=(2,), fans=("i",), lineups=(Lineup("all random", "random", "random"),)
    )
    assert only.ranking["fan"].tolist() == ["I"]
    assert only.gains.empty and only.fan_gains.empty
    assert only.meta["baseline"] == "all random"


@pytest.mark.parametrize(
    ("kwargs", "where"),
    [
        ({"players": (1,)}, "players"),
        ({"players": ()}, "players"),
        ({"fans": ("VII",)}, "fan"),
        ({"lineups": ()}, "lineups"),
        ({"lineups": (BASELINE, BASELINE)}, "lineups"),
    ],
)
def test_bad_arguments_name_the_option(kwargs, where):
    with pytest.raises(FairysimError) as info:
        fan_strength(10, 1, **kwargs)
    assert info.value.where == where


def test_bad_games():
    with pytest.raises(FairysimError) as info:
        fan_strength(0, 1)
    assert info.value.where == "games"
