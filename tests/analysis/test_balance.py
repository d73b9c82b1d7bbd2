"""The balance card on constructed runs whose answers are known, for every game's turn order."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis.report.sections import _card_display
from fairysim.analysis.studies.balance import BalanceRows, balance_card
from fairysim.sim.concerto.spec import SPEC as CONCERTO
from fairysim.sim.fairyland.spec import SPEC as FAIRYLAND
from fairysim.sim.fantastique.spec import SPEC as FANTASTIQUE
from fairysim.stats.corrections import interval_agrees

PLAYERS = 3
GAMES = 600


def constructed_run(order, games: int = GAMES, players: int = PLAYERS) -> pd.DataFrame:
    """Rows where the seat acting first wins 4 games in 5 and the second the others.

    The starting seat rotates with the game (seat ``g mod players``) where the game draws it;
    where the seat index is the order (Fairy Concerto), seat 0 acts first.
    """
    game = np.repeat(np.arange(games), players)
    seat = np.tile(np.arange(players), games)
    start = np.repeat(np.arange(games) % players, players) if order.drawn else 0
    position = (seat - start) % players
    starter_wins = np.repeat(np.arange(games) % 5 != 0, players)
    winner = np.where(starter_wins, 0, 1)
    win = (position == winner).astype(float)
    df = pd.DataFrame(
        {"game": game, "seat": seat, "players": players, "win_share": win, "score": 10.0 * win}
    )
    if order.start_seat is not None:
        df[order.start_seat] = start
    if order.column is not None:
        df[order.column] = position
    return df


@pytest.mark.parametrize("spec", [FANTASTIQUE, CONCERTO, FAIRYLAND], ids=lambda s: s.name)
def test_turn_order_is_read_the_way_each_game_declares_it(spec):
    rows = BalanceRows(spec.turn_order)
    rows.add(constructed_run(spec.turn_order))
    card = balance_card(rows)
    t = card.turn_order.set_index("position")
    assert t["win_share"].tolist() == pytest.approx([0.8, 0.2, 0.0])
    assert (t["games"] == GAMES).all()
    assert bool(t.loc[0, "significant"]) and bool(t.loc[1, "significant"])
    assert t.loc[0, "low"] > 1 / 3 and t.loc[1, "high"] < 1 / 3
    assert interval_agrees(card.turn_order.dropna(subset=["p_value"])).all()
    assert card.comparisons == 2  # position 2 never wins: no variance, not tested


def test_lineup_seats_would_hide_what_turn_positions_show():
    df = constructed_run(FANTASTIQUE.turn_order)
    by_seat = df.groupby("seat")["win_share"].mean()
    assert by_seat.max() - by_seat.min() < 0.05  # the lineup seats look fair
    rows = BalanceRows(FANTASTIQUE.turn_order)
    rows.add(df)
    assert balance_card(rows).turn_order["win_share"].max() == pytest.approx(0.8)


def test_runs_replaying_the_same_deals_count_each_game_once():
    order = FANTASTIQUE.turn_order
    once, twice = BalanceRows(order), BalanceRows(order)
    run = constructed_run(order)
    once.add(run)
    twice.add(run)
    twice.add(run)
    a, b = balance_card(once), balance_card(twice)
    assert b.summary["games"].iloc[0] == GAMES and b.summary["runs"].iloc[0] == 2
    # clustered by game, a copy of the same games adds no information
    assert b.turn_order["se"].to_numpy() == pytest.approx(a.turn_order["se"].to_numpy(), rel=1e-2)
    assert b.summary["margin_high"].iloc[0] == pytest.approx(a.summary["margin_high"].iloc[0])


def test_margins_and_ties_from_scores():
    order = CONCERTO.turn_order
    scores = np.array([[9, 5, 1], [7, 7, 2], [4, 6, 1], [3, 3, 3]], float)
    games = np.repeat(np.arange(4), 3)
    top = scores.max(axis=1, keepdims=True)
    win = (scores == top) / (scores == top).sum(axis=1, keepdims=True)
    df = pd.DataFrame(
        {
            "game": games,
            "seat": np.tile(np.arange(3), 4),
            "players": 3,
            "win_share": win.ravel(),
            "score": scores.ravel(),
        }
    )
    rows = BalanceRows(order)
    rows.add(df)
    s = balance_card(rows).summary.iloc[0]
    assert s["margin"] == pytest.approx((4 + 0 + 2 + 0) / 4)
    assert s["margin_median"] == pytest.approx(1.0)
    assert s["tied"] == pytest.approx(0.5)
    assert s["margin_low"] < s["margin"] < s["margin_high"]
    assert "comeback" not in s.index and "length" not in s.index


def test_comebacks_and_lead_changes_from_the_running_totals():
    order = FANTASTIQUE.turn_order
    # Six rounds: the leader after round 2 (the first third) is seat 0 in both games.
    # Game 0: seat 0 leads throughout and wins. Game 1: seat 1 overtakes in round 4 and wins.
    totals = np.array(
        [
            [[1, 2, 3, 4, 5, 6], [0, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0]],
            [[2, 3, 3, 3, 3, 3], [0, 1, 2, 4, 5, 6], [1, 1, 1, 1, 1, 1]],
        ],
        float,
    )
    win = np.array([[1, 0, 0], [0, 1, 0]], float)
    df = pd.DataFrame(
        {
            "game": np.repeat([0, 1], 3),
            "seat": np.tile(np.arange(3), 2),
            "players": 3,
            "first_seat": 0,
            "win_share": win.ravel(),
            "score": totals[:, :, -1].ravel(),
        }
    )
    for r in range(6):
        df[f"points_round_{r + 1}"] = totals[:, :, r].ravel()
    rows = BalanceRows(order, trace_prefix="points_round_")
    rows.add(df)
    s = balance_card(rows).summary.iloc[0]
    assert s["comeback"] == pytest.approx(0.5) and s["comeback_games"] == 2
    assert s["lead_changes"] == pytest.approx(0.5)  # one change in game 1, none in game 0


def test_game_length_where_it_varies():
    order = FAIRYLAND.turn_order
    df = constructed_run(order, games=4)
    df[FAIRYLAND.length_column] = np.repeat([30, 32, 34, 36], PLAYERS)
    rows = BalanceRows(order, length_column=FAIRYLAND.length_column)
    rows.add(df)
    card = balance_card(rows)
    s = card.summary.iloc[0]
    assert s["length"] == pytest.approx(33.0)
    assert (s["length_min"], s["length_max"]) == (30, 36)
    assert "length" in _card_display(card).columns
    fixed = BalanceRows(order, length_column=FAIRYLAND.length_column)
    fixed.add(df.assign(**{FAIRYLAND.length_column: 36}))
    assert "length" not in _card_display(balance_card(fixed)).columns  # shown where it varies


def test_an_empty_card_is_an_error():
    with pytest.raises(ValueError, match="no run"):
        balance_card(BalanceRows(FANTASTIQUE.turn_order))


def test_example_games_are_a_typical_one_and_the_widest_margin_with_their_run():
    order = CONCERTO.turn_order
    run = constructed_run(order, games=5)
    run["score"] = run["score"] + run["game"] * run["win_share"]  # game g won by 10 + g
    rows = BalanceRows(order)
    rows.add(run, {"court": "none"})
    examples = balance_card(rows).examples.set_index("kind")
    assert examples.loc["widest margin", "game"] == 4
    assert examples.loc["widest margin", "margin"] == pytest.approx(14.0)
    assert examples.loc["typical", "game"] == 2  # the median margin, 12
    assert (examples["court"] == "none").all()


def _rounds_of(spec, players: int) -> int:
    """The rounds a traced run of ``players`` records in each game (its engine's own count)."""
    if spec is CONCERTO:
        from fairysim.sim.concerto.rules import form_rounds

        return form_rounds(players)
    if spec is FAIRYLAND:
        from fairysim.sim.fairyland.cards import load_cards
        from fairysim.sim.fairyland.engine import most_rounds

        return most_rounds(load_cards().total_forest, players)
    from fairysim.sim.fantastique.rules import ROUNDS

    return ROUNDS


def _traced_run(spec, players: int, rounds: int, read: int) -> pd.DataFrame:
    """Two games of ``players`` seats whose totals make a comeback only at round ``read``.

    Game 0: seat 1 leads after every round but ``read`` (where seat 0 leads alone) and wins:
    read after round ``read``, the early leader (seat 0) does not win, a comeback. Read after
    any other round, the leader wins, no comeback. Game 1: seat 0 leads throughout and wins,
    no comeback whichever round is read. The comeback rate is 1/2 at round ``read`` alone."""
    totals = np.zeros((2, players, rounds))
    totals[0, 1, :] = 2.0
    totals[0, 0, read - 1] = 3.0
    totals[1, 0, :] = 2.0
    win = np.zeros((2, players))
    win[0, 1] = win[1, 0] = 1.0
    df = pd.DataFrame(
        {
            "game": np.repeat([0, 1], players),
            "seat": np.tile(np.arange(players), 2),
            "players": players,
            "win_share": win.ravel(),
            "score": totals[:, :, -1].ravel(),
        }
    )
    if spec.turn_order.start_seat is not None:
        df[spec.turn_order.start_seat] = 0
    if spec.turn_order.column is not None:
        df[spec.turn_order.column] = df["seat"]
    for r in range(rounds):
        df[f"{spec.trace_prefix}{r + 1}"] = totals[:, :, r].ravel()
    return df


@pytest.mark.parametrize("spec", [FANTASTIQUE, CONCERTO, FAIRYLAND], ids=lambda s: s.name)
def test_each_player_count_reads_the_end_of_its_own_first_third(spec):
    """Runs of every player count in one card (as a report gathers them, the shorter traces
    padded with empty rounds): each count reads the leader after the first third of its own
    rounds (Fairy Concerto 4, 2, 2 rounds, PC6; Fairy Land 18, 12, 9, PL11; Fantastique 7), so a
    comeback built at that round alone is found at every count, and one built a round later is
    not."""
    expected = {}
    rows = BalanceRows(spec.turn_order, trace_prefix=spec.trace_prefix)
    for players in range(max(2, spec.min_players), spec.max_players + 1):
        rounds = _rounds_of(spec, players)
        read = -(-rounds // 3)
        expected[players] = read
        rows.add(_traced_run(spec, players, rounds, read))
    summary = balance_card(rows).summary.set_index("players")
    assert summary["comeback_round"].to_dict() == expected
    assert summary["comeback"].tolist() == pytest.approx([0.5] * len(expected))
    assert (summary["comeback_games"] == 2).all()
    # game 0's lead goes to seat 0 at the read round and back: two lead changes, game 1 none
    assert summary["lead_changes"].tolist() == pytest.approx(
        [(1.0 if read == 1 else 2.0) / 2 for read in expected.values()]
    )
    late = BalanceRows(spec.turn_order, trace_prefix=spec.trace_prefix)
    for players, read in expected.items():
        late.add(_traced_run(spec, players, _rounds_of(spec, players), read + 1))
    assert balance_card(late).summary["comeback"].tolist() == pytest.approx([0.0] * len(expected))
