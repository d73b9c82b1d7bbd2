"""``fairysim tune``'s table-card measure (issue 42): ``table_effect.<card>`` equals the
table-card study's own rows on the same games, a planted defect in a card file moves it and tune
changes that number back, and a card the game does not declare is one line naming the file and
the key."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from fairysim.analysis.studies.table_cards import table_card_study
from fairysim.analysis.studies.what_if import POSITION
from fairysim.analysis.tune import tune
from fairysim.analysis.tune.evaluate import play_candidate, runs_per_candidate, search_interval
from fairysim.analysis.tune.targets import load_targets
from fairysim.cli import app
from fairysim.sim.concerto.cards import DEFAULT_CARDS as DEFAULT_CONCERTO
from fairysim.sim.game import get_game

runner = CliRunner(env={"COLUMNS": "1000"})
CONCERTO = get_game("concerto")


def write(tmp_path: Path, text: str, name: str = "targets.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def study_rows(game: str, card: str, players: int, games: int, seed: int, **options):
    """The table-card study's ``(turn position, win share)`` rows of ``card``, by position."""
    rows = table_card_study(
        game, players=players, games=games, seed=seed, policies="greedy", **options
    ).differences
    mine = rows[(rows["label"] == card) & (rows["group"] == POSITION)]
    return mine[mine["metric"] == "win_share"].sort_values("index")


@pytest.mark.parametrize(
    ("game", "players", "card", "vary"),
    [
        ("concerto", 3, "Harpist H3", '"tokens.composer" = { values = [6] }'),
        ("fairyland", 3, "Ogres", '"forest.goblin" = { values = [10] }'),
    ],
)
def test_table_effect_equals_the_table_card_study(tmp_path, game, players, card, vary):
    spec = get_game(game)
    path = write(
        tmp_path,
        f"players = [{players}]\n[vary]\n{vary}\n[targets]\n"
        f'"table_effect.{card}" = {{ max = 0.1 }}\n',
    )
    targets = load_targets(spec, path)
    assert runs_per_candidate(targets) == 2  # the card file as played and the card's variant
    judged = play_candidate(spec, targets, (0,), tmp_path, games=1_200, seed=4)
    (((cell, name), reading),) = judged.readings.items()
    assert (cell.players, name) == (players, f"table_effect.{card}")
    rows = study_rows(game, card, players, 1_200, 4)
    assert rows["index"].tolist() == list(range(players))
    # The same per-game values (one function of the study's), so the same numbers to rounding.
    np.testing.assert_allclose(reading.parts, rows["difference"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(reading.ses, rows["se"], rtol=1e-9)
    assert reading.value == pytest.approx(rows["difference"].abs().max(), rel=1e-12)
    assert reading.games == 1_200 == rows["games"].iloc[0]
    assert reading.value > 0  # the variant plays other games than the card file as played


@pytest.mark.parametrize(
    ("game", "target", "words"),
    [
        ("concerto", '"table_effect.Pianist P9" = { max = 0.05 }',
         "targets.table_effect.Pianist P9: 'Pianist P9' is no table card of this game at 4 "
         "players: Soloist A"),
        ("concerto", "table_effect.P2 = { max = 0.05 }", "'P2' is no table card"),
        ("concerto", "table_effect = { max = 0.05 }", "targets.table_effect: name the card"),
        ("fairyland", "table_effect.Fox = { max = 0.05 }", "'Fox' is no table card"),
        ("fantastique", "table_effect.8 = { max = 0.05 }",
         "targets.table_effect.8: Fantastique has no table_effect: it declares no table cards"),
    ],
)  # fmt: skip
def test_a_card_the_game_does_not_declare_is_one_line(tmp_path, game, target, words):
    vary = {
        "concerto": '"tokens.composer" = { values = [6] }',
        "fairyland": '"forest.goblin" = { values = [10] }',
        "fantastique": '"grande_finale_medals.gold" = { values = [30] }',
    }[game]
    path = write(tmp_path, f"players = [4]\n[vary]\n{vary}\n[targets]\n{target}\n")
    out = tmp_path / "out"
    result = runner.invoke(app, ["tune", game, "--targets", str(path), "--out-dir", str(out)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {path}: "), lines[0]
    assert words in lines[0], lines[0]
    assert not out.exists()


def test_a_candidate_without_the_card_is_refused_unplayed(tmp_path):
    spec = get_game("fairyland")
    path = write(
        tmp_path,
        'players = [3]\n[vary]\n"forest.ogre" = { values = [0] }\n'
        "[targets]\ntable_effect.ogres = { max = 0.1 }\n",
    )
    targets = load_targets(spec, path)
    assert targets.measures["table_effect.ogres"].table_card == "Ogres"
    judged = play_candidate(spec, targets, (1,), tmp_path, games=10, seed=0)
    assert judged.refused == "the card file holds no table card 'Ogres'"
    assert not judged.readings


# The planted defect: 40 composers in the bag instead of 8. In the solo game (the player against
# Pahha, ruling C8) Soloist B fixed for the table then moves the player's win share by about 30
# points against the soloist drawn at random (measured: 0.30 +/- 0.01 at 3,000 games, seed 1;
# 0.007 +/- 0.009 with the shipped 8), so a target on it is broken and only fewer composers mend
# it. At 3 and 4 players no contest card moves a turn position's win share clearly, shipped or
# planted (the seats draft alike; only composers resolve in seat order, C4).
PLANTED = """
players = [1]
policies = ["greedy"]

[vary]
"tokens.composer" = { values = [8, 16, 24, 32] }

[targets]
"table_effect.Soloist B" = { max = 0.06 }
"""


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path]:
    """The shipped Concerto card file with 40 composers, and targets over it."""
    text = DEFAULT_CONCERTO.read_text()
    broken = text.replace("\ncomposer = 8\n", "\ncomposer = 40\n")
    assert broken != text
    cards = write(tmp_path, broken, "broken.toml")
    return cards, write(tmp_path, PLANTED)


def test_a_planted_composer_count_moves_the_table_effect(tmp_path, planted):
    cards, path = planted
    targets = load_targets(CONCERTO, path, cards)
    assert targets.vary[0].base == 40
    effect = {}
    for index, composers in enumerate(targets.vary[0].choices):
        judged = play_candidate(CONCERTO, targets, (index,), tmp_path, games=2_000, seed=6)
        (reading,) = judged.readings.values()
        low, high = search_interval(reading, 3.0)
        effect[composers] = (reading.value, low, high)
    assert effect[40][1] > 0.15  # the planted file: clearly outside the band
    assert effect[8][2] < 0.06  # the shipped count: clearly inside it
    assert effect[40][0] > effect[24][0] > effect[8][0]  # fewer composers, a smaller effect


def test_tune_mends_the_planted_composer_count(tmp_path, planted):
    # A whole tune, the search and the replay on fresh games: a few seconds once compiled.
    cards, path = planted
    result = tune("concerto", targets=path, cards=cards, out_dir=tmp_path / "out", seed=3,
                  budget_games=40_000, search_games=1_000, final_games=4_000)  # fmt: skip
    assert result.met, result.final
    ((_, change),) = result.changes.iterrows()
    assert change["path"] == "tokens.composer" and change["from"] == 40
    assert int(change["to"]) <= 16
    tuned = result.final[result.final["candidate"] == result.label(result.recommended)]
    assert tuned["met"].all() and (tuned["high"] <= 0.06).all()
    base = result.final[result.final["candidate"] == "base"]
    assert (base["low"] > 0.06).all()  # the planted file misses the target on the fresh games
