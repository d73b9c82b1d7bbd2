"""The balancer weighs the seats still to play: no turn position is handed the medals.

Its medal estimate once counted only the fans already played, so the seat that starts a round
thought every fan won Gold and always played a single card: with balancer at every seat the
win share by round-1 turn position (F1: seat minus first seat, mod players) spread 12.6 / 34.5 /
52.9% at fan I with 3 players, where greedy spreads about 2 points on the same deals. These
tests play mirror tables of balancer and of greedy on identical deals (same seed) and compare
the spreads; ``risk = 0`` (the old estimate) shows that the weight changes play.
"""

from __future__ import annotations

import numpy as np
import pytest

from fairysim.sim.batch import join_chunks
from fairysim.sim.fantastique import make_setup, play_chunks
from fairysim.sim.fantastique.policies import POLICIES
from fairysim.sim.fantastique.rules import FANS

from .test_reference_equivalence import assert_same_games


def position_shares(policy, players: int, fan: str, games: int, seed: int) -> np.ndarray:
    """Mean win share (%) of each round-1 turn position (F1) at a mirror table of ``policy``."""
    setup = make_setup(players=players, fan=fan, policies=policy, seed=seed)
    arrays = join_chunks(play_chunks(setup, games))
    position = (np.arange(players)[None, :] - arrays["start_seat"][:, None]) % players
    return np.array(
        [100 * arrays["win_share"][position == p].mean() for p in range(players)], dtype=float
    )


def spread(shares: np.ndarray) -> float:
    return float(shares.max() - shares.min())


def assert_spread_near_greedy(players: int, fan: str, games: int, seed: int, slack: float):
    greedy = position_shares("greedy", players, fan, games, seed)
    balancer = position_shares("balancer", players, fan, games, seed)
    assert spread(balancer) <= spread(greedy) + slack, (
        f"{players} players, fan {fan}, {games} games: balancer by turn position "
        f"{np.round(balancer, 1)} (spread {spread(balancer):.1f}), greedy {np.round(greedy, 1)} "
        f"(spread {spread(greedy):.1f})"
    )


# The configurations of the defect's report, and one per player count. At 3,000 games a turn
# position's share has a standard error of at most ~1 point, so the spread of 2-5 positions
# differs between two policies by noise of ~3 points at most; the defect was 30-50 points.
FAST_CASES = [(3, "I"), (3, "IV"), (4, "II"), (2, "III"), (5, "VI")]


@pytest.mark.parametrize(("players", "fan"), FAST_CASES)
def test_balancer_spread_by_turn_position_is_near_greedys(players, fan):
    assert_spread_near_greedy(players, fan, 3_000, seed=11, slack=6.0)


@pytest.mark.slow
@pytest.mark.parametrize("fan", FANS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_balancer_spread_by_turn_position_is_near_greedys_20000_games(players, fan):
    # Standard error of a position's share ~0.35 points: the spread's noise is ~1.5 points, so
    # this bound holds the policy itself to 6 points beyond greedy's spread (at 3 players the
    # fixed estimate measured 6-8 points of spread against greedy's ~3 at 2,000 games: the
    # bound is what the policy is asked to meet everywhere, not a tuned margin).
    assert_spread_near_greedy(players, fan, 20_000, seed=23, slack=6.0)


def test_risk_weight_changes_play():
    """risk = 0 is the old estimate (played fans only): it brings the turn-order spread back."""
    blind = POLICIES["balancer"].with_weights(risk=0.0)
    default = position_shares("balancer", 3, "I", 3_000, seed=5)
    old = position_shares(blind, 3, "I", 3_000, seed=5)
    assert spread(old) > spread(default) + 15, (old, default)
    # and between the two ends of the range the games themselves differ
    games = {}
    for risk in (0.25, 1.0):
        setup = make_setup(
            players=4, fan="III", policies=POLICIES["balancer"].with_weights(risk=risk), seed=9
        )
        games[risk] = join_chunks(play_chunks(setup, 500))["score"]
    differ = (games[0.25] != games[1.0]).any(axis=1).mean()
    assert differ > 0.2, differ


@pytest.mark.parametrize("risk", [0.0, 0.3, 1.0])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_engines_agree_on_balancer_at_any_risk(players, risk):
    balancer = POLICIES["balancer"].with_weights(risk=risk)
    setup = make_setup(
        players=players, fan=FANS[players], policies=[balancer] * players, seed=40 + players
    )
    assert_same_games(setup, 30)


def test_the_can_beat_table_holds_the_compiled_numbers():
    """balancer looks its chances up in a table built as plain Python (importing the policies
    compiles nothing): every entry must be the very number the compiled function gives."""
    from fairysim.sim.fantastique import policies

    table = policies.CAN_BEAT_TABLE
    for hand_size in range(policies.CAN_BEAT_HANDS):
        for value in range(1, 9):
            for count in range(1, policies.CAN_BEAT_COUNTS):
                assert table[hand_size, value, count] == policies.can_beat(hand_size, value, count)
    assert policies.chance_to_beat(60, 3, 2) == policies.can_beat(60, 3, 2)  # past the table
