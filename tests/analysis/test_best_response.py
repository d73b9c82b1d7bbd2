"""Best response (issue 43): the search finds known answers, is reproducible and resumable,
compiles nothing per candidate, and refuses bad input in one line with nothing written."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from numba.core.dispatcher import Dispatcher
from typer.testing import CliRunner

from fairysim.analysis.strategy.arena import Arena, make_arena
from fairysim.analysis.strategy.best_response import OUTPUTS, best_response
from fairysim.analysis.strategy.journal import JOURNAL_NAME
from fairysim.cli import app
from fairysim.runtime.errors import FairysimError
from fairysim.sim.game import get_game
from fairysim.sim.weights import apply_weights, load_weights_file

SHIPPED_CARDS = Path(__file__).parents[2] / "src/fairysim/sim/fantastique/data/cards.toml"


@pytest.fixture(scope="module")
def big_finale(tmp_path_factory) -> Path:
    """Fantastique's cards with Grande Finale medals ten times larger (200 and 100 points): a
    fan kept for the finale is worth far more than a medal won with it now."""
    text = SHIPPED_CARDS.read_text()
    assert "gold = 20\nsilver = 10" in text
    path = tmp_path_factory.mktemp("cards") / "big_finale.toml"
    path.write_text(text.replace("gold = 20\nsilver = 10", "gold = 200\nsilver = 100"))
    return path


def _highcard(tmp_path: Path | None = None, **kw):
    options = dict(evaluations=16, games=300, validation_games=2000, seed=1)
    options.update(kw)
    return best_response("highcard", "redraw-low", "stand,coin", 3, out_dir=tmp_path, **options)


def test_highcard_the_search_raises_the_redraw_threshold_and_the_gain_holds_on_fresh_deals():
    """Cards are 1 to 13, 7 on average: redrawing below 5 (the default) keeps too many low
    cards, so the response redraws more (a higher ``below``) and wins more on fresh deals."""
    result = _highcard()
    assert result.weights["below"] > 6
    gain = result.gain
    assert gain["low"] > 0 and gain["significant"]
    assert gain["games"] == 2000
    redrew = result.behaviour.set_index("column").loc["redrew"]
    assert redrew["low"] > 0  # it redraws more often, which is how it wins more


def test_a_bigger_grande_finale_makes_the_balancer_hold_fans_back(big_finale):
    """The known answer of issue 43: with the Grande Finale worth ten times as much, the weight
    of the finale cards a fan gives up (``finale``, default 0.5) goes up, the response keeps
    more finale cards, and its gain over the defaults is separated on fresh deals."""
    result = best_response(
        "fantastique",
        "balancer",
        "greedy,hoarder",
        4,
        cards=big_finale,
        evaluations=16,
        games=200,
        validation_games=1000,
        seed=2,
    )
    assert result.weights["finale"] > 2 * result.start["finale"]
    assert result.gain["low"] > 0.1
    kept = result.behaviour.set_index("column").loc["finale_count"]
    assert kept["significant"] and kept["estimate"] > 0


def test_the_same_seed_gives_the_same_weights_and_another_seed_other_candidates():
    first, again, other = _highcard(), _highcard(), _highcard(seed=2)
    assert first.weights == again.weights
    pd.testing.assert_frame_equal(first.candidates, again.candidates)
    assert not first.candidates["below"].equals(other.candidates["below"])


def test_resume_after_a_stop_gives_what_an_uninterrupted_search_gives(tmp_path, monkeypatch):
    whole = _highcard(tmp_path / "whole")

    def stop_after_two_generations(done: int, total: int) -> None:
        if done >= 8:
            raise KeyboardInterrupt

    folder = tmp_path / "stopped"
    with pytest.raises(KeyboardInterrupt):
        _highcard(folder, progress=stop_after_two_generations)
    assert (folder / JOURNAL_NAME).exists()
    assert not any((folder / name).exists() for name in OUTPUTS)
    played = []
    play = Arena.play

    def counted(self, weights, first_game, deals):
        played.append(first_game)
        return play(self, weights, first_game, deals)

    monkeypatch.setattr(Arena, "play", counted)
    resumed = _highcard(folder, resume=True)
    # the 8 candidates the journal holds are read, not played: 8 more, the start on the
    # search deals and the two validation arms
    assert played.count(0) == 8 + 1 and played.count(300) == 2
    assert resumed.weights == whole.weights
    pd.testing.assert_frame_equal(resumed.candidates, whole.candidates)
    pd.testing.assert_frame_equal(resumed.shares, whole.shares)
    for name in ("search.parquet", "validation.parquet"):
        assert pd.read_parquet(folder / name).equals(pd.read_parquet(tmp_path / "whole" / name))
    assert load_weights_file(folder / "weights.toml") == load_weights_file(
        tmp_path / "whole" / "weights.toml"
    )


def test_resume_refuses_another_search(tmp_path):
    _highcard(tmp_path, evaluations=4)
    with pytest.raises(FairysimError) as error:
        _highcard(tmp_path, evaluations=4, resume=True, seed=9)
    assert error.value.where == "--resume" and "seed" in error.value.message


def test_candidates_compile_nothing(monkeypatch):
    """Weights travel in the engine's weight arrays: after one candidate has loaded the engine,
    a search over many others adds no compiled overload (compiled or loaded from the cache)."""
    arena = make_arena("fantastique", "balancer", "greedy,hoarder", 4, seed=5)
    arena.play({}, 0, 20)
    added = []
    original = Dispatcher.add_overload

    def counted(self, cres):
        added.append(getattr(self, "__name__", repr(self)))
        return original(self, cres)

    monkeypatch.setattr(Dispatcher, "add_overload", counted)
    result = best_response(
        "fantastique",
        "balancer",
        "greedy,hoarder",
        4,
        evaluations=12,
        games=20,
        validation_games=20,
        seed=5,
    )
    assert len(result.candidates) == 12
    assert result.candidates["finale"].nunique() == 12
    assert added == []


def test_the_weights_file_loads_the_best_weights(tmp_path):
    result = _highcard(tmp_path, evaluations=8)
    spec = get_game("highcard")
    text = load_weights_file(tmp_path / "weights.toml")
    seats = apply_weights([spec.policies["stand"], spec.policies["redraw-low"]], text)
    assert seats[1].weights == result.policy.weights
    assert seats[0].weights == spec.policies["stand"].weights
    page = (tmp_path / "best_response.html").read_text()
    assert "lower bound" in page and "redrew" in page
    search = pd.read_parquet(tmp_path / "search.parquet")
    assert len(search) == 8 and {"below", "win_share", "games", "deals"} <= set(search.columns)


@pytest.mark.parametrize(
    ("options", "where", "words"),
    [
        ({"policy": "stand"}, "--policy", "no weight to search"),
        ({"policy": "nosuch"}, "--policy", "unknown policy"),
        ({"field": "stand,nosuch"}, "--field", "unknown policy"),
        ({"ranges": "above=1:2"}, "--range", "no weight 'above'"),
        ({"ranges": "below=0:20"}, "--range", "leaves what policy redraw-low accepts"),
        ({"ranges": "below=3"}, "--range", "name=low:high"),
        ({"players": 9}, "--players", "2 to 4 players"),
        ({"evaluations": 0}, "--evaluations", ""),
        ({"resume": True}, "--resume", "no search to resume"),
    ],
)
def test_bad_input_names_the_option_and_writes_nothing(tmp_path, options, where, words):
    arguments = dict(policy="redraw-low", field="stand,coin", players=3)
    arguments.update(options)
    folder = tmp_path / "out"
    with pytest.raises(FairysimError) as error:
        best_response("highcard", out_dir=folder, games=10, **arguments)
    assert error.value.where == where and words in error.value.message
    assert not folder.exists()


def test_a_user_policy_is_searched_within_the_ranges_given(tmp_path, monkeypatch):
    """A user policy declares no ranges: each weight needs one, and within it the search finds
    what it finds for the built-in (redraw more than below 3)."""
    (tmp_path / "br_user_policy.py").write_text(
        "def threshold(decision, view, choices, n_choices, weights, rng):\n"
        "    return 1 if choices[0, 1] < weights[0] else 0\n\n\n"
        "threshold_weights = (3.0,)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    arguments = dict(evaluations=16, games=300, validation_games=1000, seed=1)
    with pytest.raises(FairysimError) as error:
        best_response("highcard", "br_user_policy:threshold", "stand,coin", 3, **arguments)
    assert error.value.where == "--range" and "w0=low:high" in error.value.message
    result = best_response(
        "highcard", "br_user_policy:threshold", "stand,coin", 3, ranges="w0=1:14", **arguments
    )
    assert result.start == {"w0": 3.0} and result.weights["w0"] > 6
    assert result.gain["low"] > 0


@pytest.mark.parametrize(("field", "players"), [("stand", 3), ("stand,coin", 4), ("stand,coin", 3)])
def test_every_field_policy_sits_at_the_table_equally_often(field, players):
    """The field's blocks of deals start the field at each of its policies in turn: over the
    deals each sits in as many seats (field stand,coin at 4 players: stand, coin, stand, then
    coin, stand, coin)."""
    arena = make_arena("highcard", "redraw-low", field, players)
    blocks = arena.blocks(100, 600)
    assert [count for _, _, count in blocks] == [600 // len(arena.field)] * len(arena.field)
    assert blocks[0][1] == 100 and blocks[-1][1] + blocks[-1][2] == 700
    seats = [
        p.name for block, _, count in blocks for p in arena.others(block) for _ in range(count)
    ]
    counts = {name: seats.count(name) for name in field.split(",")}
    assert len(set(counts.values())) == 1, counts


def test_a_policy_refused_at_the_player_count_is_refused():
    """Concerto's ``lookahead`` plays solo only."""
    with pytest.raises(FairysimError) as error:
        make_arena("concerto", "lookahead", "greedy", 2)
    assert error.value.where == "--policy"


def test_the_command_writes_the_outputs_and_bad_input_is_one_line(tmp_path, big_finale):
    runner = CliRunner()
    base = ["best-response", "fantastique", "--players", "4", "--evaluations", "8"]
    base += ["--games", "100", "--validation-games", "200"]
    result = runner.invoke(
        app,
        [*base, "--policy", "balancer", "--field", "greedy,hoarder", "--cards", str(big_finale),
         "--out-dir", str(tmp_path / "ok")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Gain of the best response" in result.output
    assert sorted(p.name for p in (tmp_path / "ok").iterdir()) == sorted([*OUTPUTS, JOURNAL_NAME])
    bad_options = [
        ["--policy", "greedy", "--field", "greedy"],
        ["--policy", "balancer", "--field", "greedy,nosuch"],
        ["--policy", "balancer", "--field", "greedy", "--range", "finale=0:1000"],
        ["--policy", "balancer", "--field", "greedy", "--range", "nosuch=0:1"],
    ]
    for bad in bad_options:
        result = runner.invoke(app, [*base, *bad, "--out-dir", str(tmp_path / "bad")])
        assert result.exit_code == 2, result.output
        assert result.output.count("\n") == 1 and result.output.startswith("Error: --")
        assert not (tmp_path / "bad").exists()


@pytest.mark.slow
def test_two_workers_give_what_one_process_gives(tmp_path):
    alone = _highcard(evaluations=12)
    on_dask = _highcard(evaluations=12, workers=2)
    pd.testing.assert_frame_equal(alone.candidates, on_dask.candidates)
    assert alone.weights == on_dask.weights


def test_simulate_loads_a_weights_file_and_names_it_in_errors(tmp_path):
    result = _highcard(tmp_path, evaluations=8)
    runner = CliRunner()
    base = ["simulate", "highcard", "--players", "2", "--games", "50"]
    loaded = runner.invoke(
        app,
        [*base, "--policy", "redraw-low,stand", "--weights-file", str(tmp_path / "weights.toml")],
    )
    assert loaded.exit_code == 0, loaded.output
    assert f"below={result.weights['below']:g}" in loaded.output
    wrong = runner.invoke(
        app, [*base, "--policy", "stand", "--weights-file", str(tmp_path / "weights.toml")]
    )
    assert wrong.exit_code == 2
    assert wrong.output.startswith("Error: --weights-file:") and "redraw-low" in wrong.output


def test_a_start_no_candidate_beats_is_kept_and_said_so(tmp_path):
    """Searched only between 4.2 and 5, ``below`` changes no decision on whole-numbered cards:
    every candidate ties the start, which is kept, and the page says no gain is shown."""
    result = _highcard(tmp_path, evaluations=4, ranges="below=4.2:5")
    assert result.weights == result.start
    page = (tmp_path / "best_response.html").read_text()
    assert "No candidate of the 4 searched beat" in page and "nan" not in page
