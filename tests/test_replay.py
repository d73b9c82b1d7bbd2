"""`replay`: one game of a run from the reference engine, told decision by decision.

The replayed game is the game the fast engine wrote for the same index (scores, ranks, win
shares), the text has one decision line per decision the reference engine made (counted by a
wrapper around each seat's policy, independent of the recorder), and recording changes nothing
the engine plays.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from fairysim.analysis.report.replay import DECISION_MARK, html_page, narrator, replay
from fairysim.sim.game import games
from fairysim.sim.run import simulate

GAME = 3
"""The game index replayed (not the first, so that the game index matters)."""

CASES = [
    ("fantastique", 2, "greedy", {}),
    ("fantastique", 4, "random", {"fan": "IV"}),
    ("concerto", 1, "greedy", {}),
    ("concerto", 2, "greedy", {}),
    ("concerto", 3, "random,greedy,chaser", {"soloist": "B"}),
    ("fairyland", 2, "greedy", {}),
    ("fairyland", 3, "greedy", {}),
    ("fairyland", 4, "random", {}),
]
"""Every game, Fairy Concerto solo (Pahha's row too) and with two players, and a setup axis
given (the replay plays the setup's axes as the run does)."""


def make(name: str, players: int, policies: str, axes: dict | None = None, seed: int = 11):
    spec = games()[name]
    return spec, spec.make_setup(
        players=players, policies=policies, seed=seed, cards=spec.load_cards(None), **(axes or {})
    )


def counting(setup):
    """The setup with each seat's policy wrapped to count the times the engine asks it."""
    calls = [0]
    wrapped = []
    for seat_policy in setup.policies:

        def ask(*args, _function=seat_policy.function):
            calls[0] += 1
            return _function(*args)

        wrapped.append(dataclasses.replace(seat_policy, function=ask))
    return dataclasses.replace(setup, policies=tuple(wrapped)), calls


@pytest.mark.parametrize(("name", "players", "policies", "axes"), CASES)
def test_replay_is_the_fast_engines_game(name, players, policies, axes):
    spec, setup = make(name, players, policies, axes)
    result = replay(spec, setup, GAME)
    rows = simulate(name, games=GAME + 1, players=players, policies=policies, seed=11, **axes)
    row = rows[rows["game"] == GAME].sort_values("seat")
    seats = len(row)
    assert seats >= players
    assert list(row["score"]) == result.score[:seats]
    assert list(row["rank"]) == result.rank[:seats]
    assert list(row["win_share"]) == pytest.approx(result.win_share[:seats])
    # The winner the text names is the fast engine's winner.
    narrate = narrator(spec)
    shares = zip(row["seat"], row["win_share"], strict=True)
    winners = [narrate.seat_label(setup, s) for s, share in shares if share > 0]
    assert winners and f"Winner: {' and '.join(winners)}" in result.text
    # A different game index is a different game (the index is not ignored).
    other = rows[rows["game"] == GAME - 1].sort_values("seat")
    assert replay(spec, setup, GAME - 1).score[:seats] == list(other["score"])


@pytest.mark.parametrize(("name", "players", "policies", "axes"), CASES)
def test_one_decision_line_per_decision(name, players, policies, axes):
    spec, setup = make(name, players, policies, axes)
    counted, calls = counting(setup)
    result = replay(spec, counted, GAME)
    decision_lines = [line for line in result.text.splitlines() if line.startswith(DECISION_MARK)]
    assert len(decision_lines) == len(result.decisions) > 0
    asked = [event for event in result.decisions if event["asked"]]
    assert len(asked) == calls[0]
    # Each line names the deciding seat and the choice taken, which is one of those offered.
    narrate = narrator(spec)
    for line, event in zip(decision_lines, result.decisions, strict=True):
        assert narrate.seat_label(setup, event["seat"]) in line
        assert 0 <= event["chosen"] < len(event["choices"])
        taken = narrate.choice(setup, event["decision"], event["choices"][event["chosen"]])
        assert f": {taken} (" in line
    # The score after each round, and the final breakdown, are in the text.
    assert "Score after round 1:" in result.text
    assert "Final scoring" in result.text
    # Recording changes nothing: the reference engine's plain play returns the same outcome,
    # every field of it, as a play with a log.
    plain = narrate.reference.play_game(setup, GAME)
    logged = narrate.reference.play_game(setup, GAME, log=[])
    assert plain.keys() == logged.keys()
    for key, value in plain.items():
        np.testing.assert_array_equal(np.asarray(value), np.asarray(logged[key]), err_msg=key)
    assert result.score == [s / narrate.UNIT for s in plain["score"]]


def test_html_escapes_text():
    spec, setup = make("fantastique", 3, "greedy")
    result = replay(spec, setup, GAME)
    tampered = dataclasses.replace(
        result, lines=[*result.lines, dataclasses.replace(result.lines[-1], text="<b>&")]
    )
    page = html_page(tampered)
    assert page.startswith("<!DOCTYPE html>")
    assert "&lt;b&gt;&amp;" in page and "<b>&" not in page
    assert page.count('class="decision"') == len(result.decisions)


@pytest.mark.parametrize(("players", "policies"), [(3, "greedy"), (4, "random")])
def test_fairyland_says_who_wins_each_auction(players, policies):
    """Each auction won is told once, for its winner, with a bid the winner made (L5, L14); the
    other auctions are told as discarded; the count per seat is the engine's own."""
    spec, setup = make("fairyland", players, policies)
    result = replay(spec, setup, GAME)
    plain = narrator(spec).reference.play_game(setup, GAME)
    won = [event for event in result.events if event["event"] == "won"]
    unbid = [event for event in result.events if event["event"] == "unbid"]
    assert [sum(e["seat"] == s for e in won) for s in range(players)] == plain["auctions_won"]
    assert len(won) + len(unbid) == plain["auctions"] > 0
    for event in won:
        assert f"seat {event['seat']} wins clearing {event['clearing'] + 1} for " in result.text
        bids = [
            e
            for e in result.decisions
            if e["decision"] == "bid" and e["turn"] == event["turn"] and e["seat"] == event["seat"]
        ]
        assert any(e["choices"][e["chosen"]] == (event["bid"],) for e in bids)
