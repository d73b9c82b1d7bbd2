"""Public simulate(): schema and refusals naming the option."""

import numpy as np
import pytest

from fairysim.runtime.errors import FairysimError
from fairysim.sim.concerto import SEAT_COLUMNS, simulate
from fairysim.sim.concerto.runs import play_chunks
from fairysim.sim.concerto.setup import make_setup


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
    config = df.attrs["fairysim"]["config"]
    assert config["cards"].endswith("cards.toml")  # the shipped card file, named in the results
    assert config["cards_provisional"] is True  # and marked as the provisional set (C9)


@pytest.mark.parametrize(
    ("kwargs", "option"),
    [
        ({"players": 5}, "players"),
        ({"players": 0}, "players"),
        ({"soloist": "E"}, "soloist"),
        ({"pianist": "P9"}, "pianist"),
        ({"harpist": "P1"}, "harpist"),
        ({"policies": "nope"}, "policies"),
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


def test_the_largest_bag_a_card_file_allows_fits_the_outcome(tmp_path):
    """40 tokens of each kind (the card-file maximum): solo leaves 200 - 27 tokens in the bag,
    past what an 8-bit column holds."""
    from fairysim.sim.concerto.cards import DEFAULT_CARDS, MAX_TOKENS_PER_KIND

    text = DEFAULT_CARDS.read_text()
    for kind, count in (("trumpeter", 12), ("drummer", 12), ("violinist", 12), ("horn", 12)):
        text = text.replace(f"{kind} = {count}\n", f"{kind} = {MAX_TOKENS_PER_KIND}\n", 1)
    text = text.replace("composer = 8\n", f"composer = {MAX_TOKENS_PER_KIND}\n", 1)
    path = tmp_path / "big-bag.toml"
    path.write_text(text)
    setup = make_setup(players=1, policies="greedy", seed=3, cards=str(path))
    ((_, arrays),) = list(play_chunks(setup, 50))
    left = arrays["bag_left"]
    assert (left == 5 * MAX_TOKENS_PER_KIND - 27).all()
