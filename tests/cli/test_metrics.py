"""``fairysim metrics GAME``: the balance card of a run, by turn order, in the terminal."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from fairysim.analysis.studies.balance import BalanceRows, balance_card
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


def test_concerto_card_has_comebacks_from_the_standings():
    """Concerto's trace (ruling PC6) is on in metrics, as Fantastique's: comebacks and lead
    changes, the same as the card of a traced run."""
    from fairysim.sim.concerto import simulate as concerto_simulate
    from fairysim.sim.concerto.spec import SPEC as CONCERTO

    result = invoke("concerto", "--players", "3", "--games", "400", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "comeback" in result.output and "lead changes" in result.output
    assert "No comebacks" not in result.output
    df = concerto_simulate(players=3, policies="greedy", games=400, seed=5, trace=True)
    rows = BalanceRows(CONCERTO.turn_order, trace_prefix=CONCERTO.trace_prefix)
    rows.add(df)
    summary = balance_card(rows).summary.iloc[0]
    assert f"{summary['lead_changes']:.2f} [" in result.output
    assert 0 <= summary["lead_changes"] <= 1  # two rounds: at most one change (PC6)


def test_a_table_with_a_seat_of_no_player_is_refused_in_one_line():
    """Solo Concerto's Pahha has no turn position: one line naming --players, no traceback."""
    result = invoke("concerto", "--players", "1", "--games", "50")
    assert result.exit_code == 2
    assert "--players" in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_fairyland_card_has_comebacks_from_the_standings():
    """Fairy Land's trace (ruling PL11) is on in metrics: comebacks and lead changes over its
    rounds of turns, the same as the card of a traced run; no length (36 turns, L18)."""
    from fairysim.sim.fairyland import simulate as fairyland_simulate
    from fairysim.sim.fairyland.spec import SPEC as FAIRYLAND

    result = invoke("fairyland", "--players", "2", "--games", "200", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "Win share by turn position" in result.output
    assert "comeback" in result.output and "lead changes" in result.output
    assert "No comebacks" not in result.output
    assert "length" not in result.output  # every game lasts as long (L18)
    df = fairyland_simulate(players=2, policies="greedy", games=200, seed=5, trace=True)
    rows = BalanceRows(FAIRYLAND.turn_order, trace_prefix=FAIRYLAND.trace_prefix)
    rows.add(df)
    summary = balance_card(rows).summary.iloc[0]
    assert f"{summary['lead_changes']:.2f} [" in result.output
    assert 0 < summary["lead_changes"] <= 17  # 18 rounds at 2 players


def test_a_game_with_no_trace_says_so():
    """The toy game (tests/highcard) records no per-round totals: the card says so."""
    result = invoke("highcard", "--players", "2", "--policy", "coin", "--games", "200")
    assert result.exit_code == 0, result.output
    assert "Win share by turn position" in result.output
    assert "No comebacks" in result.output
    assert "length" not in result.output


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
