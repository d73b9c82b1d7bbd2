"""``fairysim metrics GAME``: the balance card of a run, by turn order, in the terminal."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fairysim.analysis.balance import BalanceRows, balance_card
from fairysim.cli import app
from fairysim.sim.fantastique import simulate
from fairysim.sim.fantastique.spec import SPEC

RUNNER = CliRunner()


def invoke(*args: str):
    return RUNNER.invoke(app, ["metrics", *args], catch_exceptions=False)


def test_fantastique_card_is_the_run_by_turn_position_with_comebacks():
    result = invoke("fantastique", "--players", "3", "--games", "400", "--seed", "5")
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Win share by turn position" in text and "corrected over the 3 comparisons" in text
    assert "comeback" in text and "lead changes" in text
    df = simulate(players=3, policies="greedy", games=400, seed=5, trace=True)
    rows = BalanceRows(SPEC.turn_order, trace_prefix="medal_points_round_")
    rows.add(df)
    card = balance_card(rows)
    first = card.turn_order.iloc[0]
    assert f"{100 * first.win_share:.1f}%" in text  # the printed row is the starter's
    assert f"{card.summary['margin'].iloc[0]:.2f} [" in text


@pytest.mark.parametrize("game", ["concerto", "fairyland"])
def test_other_games_say_what_their_card_holds(game):
    result = invoke(game, "--players", "2", "--games", "200")
    assert result.exit_code == 0, result.output
    assert "Win share by turn position" in result.output
    assert "No comebacks" in result.output
    assert "length" not in result.output  # every game of both lasts as long (L18 for Fairy Land)


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["--games", "0"], "--games"),
        (["--players", "9"], "--players"),
        (["--chunk-games", "0"], "--chunk-games"),
        (["--weights", "nonsense"], "--weights"),
    ],
)
def test_bad_options_are_one_line(args, option):
    result = invoke("fantastique", *args)
    assert result.exit_code == 2
    assert option in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1
