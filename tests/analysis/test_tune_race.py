"""``fairysim tune``'s race (issue 42): candidates sized by the precision they need, hopeless
ones stopped early, blocks of games that merge into the reading of one run, and the
forced-card effect measure equal to the card-effect study's on the same games."""

from __future__ import annotations

import math
from contextlib import ExitStack
from pathlib import Path

import numpy as np
import pytest

from fairysim.analysis.studies.card_effects import card_effects
from fairysim.analysis.tune.evaluate import play_candidate, runs_per_candidate, search_interval
from fairysim.analysis.tune.race import Looks, bracket, race, reach
from fairysim.analysis.tune.search import first_candidates
from fairysim.analysis.tune.targets import Target, load_targets
from fairysim.analysis.tune.workers import batch_player
from fairysim.sim.fantastique.cards import DEFAULT_CARDS
from fairysim.sim.game import get_game

SPEC = get_game("fantastique")

PLANTED = """
players = [4]
[vary]
"grande_finale_medals.gold" = { values = [20, 60, 100, 150] }
[targets]
finale_decides = { between = [0.25, 0.45] }
"""


@pytest.fixture
def planted(tmp_path: Path):
    """Targets over the shipped card file with the Gold Grande Finale medal at 200."""
    cards = tmp_path / "broken.toml"
    cards.write_text(DEFAULT_CARDS.read_text().replace("\ngold = 20\n", "\ngold = 200\n"))
    path = tmp_path / "targets.toml"
    path.write_text(PLANTED)
    return load_targets(SPEC, path, cards)


def raced(targets, tmp_path, looks, **options):
    with ExitStack() as stack:
        play = batch_player(stack, SPEC, targets, tmp_path, seed=3, threads=1)
        choices = first_candidates(targets)
        return race(choices, play, targets, looks, runs=runs_per_candidate(targets), **options)


def test_reach_brackets_the_distance_and_decides_the_target():
    band = Target("m", 0.25, 0.45)  # width 0.2
    assert reach(band, 0.3, 0.4) == (0.0, 0.0, True)  # inside: met
    near, far, decided = reach(band, 0.5, 0.6)  # clear of the band: missed
    assert (near, far, decided) == (pytest.approx(0.25), pytest.approx(0.75), True)
    near, far, decided = reach(band, 0.4, 0.5)  # across an edge: open
    assert (near, far, decided) == (0.0, pytest.approx(0.25), False)
    assert reach(band, -math.inf, math.inf) == (0.0, math.inf, False)


def test_hopeless_singles_stop_at_the_first_look_and_the_rest_play_on(planted, tmp_path):
    looks = Looks(250, 2_000)
    out = raced(planted, tmp_path, looks)
    by_value = {planted.vary[0].choices[c[0]]: e for c, e in out.items()}
    for value in (200, 100, 150):  # the base and the far ones: clear of the band at once
        assert by_value[value].stop == "hopeless", value
        assert by_value[value].games == 250
    near = by_value[20]
    assert near.stop in {"decided", "cap"}
    # It stopped at the first look whose intervals decide the target (or at the cap)
    for row in near.rows:
        assert near.games in looks.counts
        assert (row["low"] >= 0.25 and row["high"] <= 0.45) or near.stop == "cap"
        assert row["level"] > 0.95  # Bonferroni over the looks and parts
    # Every candidate's games are one of the planned looks
    assert {e.games for e in out.values()} <= set(looks.counts)


def test_a_cap_equal_to_the_first_look_plays_every_candidate_once(planted, tmp_path):
    out = raced(planted, tmp_path, Looks(300, 300))
    assert {e.games for e in out.values()} == {300}
    assert {e.stop for e in out.values()} <= {"decided", "hopeless", "cap"}


def test_the_budget_stops_the_race_between_looks(planted, tmp_path):
    looks = Looks(250, 4_000)
    free = raced(planted, tmp_path, looks)
    spent = sum(e.games for e in free.values())
    cut = raced(planted, tmp_path, looks, games_left=5 * 250 + 1)
    assert sum(e.games for e in cut.values()) <= 5 * 250 + 1 < spent
    assert "budget" in {e.stop for e in cut.values()}


def test_blocks_merge_into_the_reading_of_one_run(planted, tmp_path):
    choice = (1,)
    whole = play_candidate(SPEC, planted, choice, tmp_path, games=800, seed=3)
    first = play_candidate(SPEC, planted, choice, tmp_path, games=300, seed=3)
    rest = play_candidate(SPEC, planted, choice, tmp_path, games=500, seed=3, first_game=300)
    merged = first.merged(rest)
    for key, reading in whole.readings.items():
        np.testing.assert_allclose(merged.readings[key].parts, reading.parts)
        np.testing.assert_allclose(merged.readings[key].ses, reading.ses)
        assert merged.readings[key].games == reading.games == 800
    assert bracket(planted, merged, Looks(300, 800)).decided in {True, False}


def test_forced_effect_equals_the_card_effect_study(tmp_path):
    path = tmp_path / "targets.toml"
    path.write_text(
        'players = [4]\n[vary]\n"grande_finale_medals.gold" = { values = [30] }\n'
        "[targets]\nforced_effect.8 = { between = [-0.05, 0.05] }\n"
        '"forced_effect.Value 3" = { max = 0.1 }\n'
    )
    targets = load_targets(SPEC, path)
    assert {t.measure for t in targets.targets} == {"forced_effect.8", "forced_effect.Value 3"}
    assert targets.measures["forced_effect.8"].card == 8
    judged = play_candidate(SPEC, targets, (0,), tmp_path, games=1_500, seed=5)
    study = card_effects("fantastique", players=4, games=1_500, seed=5).effects.set_index("card")
    for (_, name), reading in judged.readings.items():
        row = study.loc[targets.measures[name].card]
        assert reading.value == pytest.approx(row["effect"])
        assert reading.ses[0] == pytest.approx(row["effect_se"])
        assert reading.games == row["games"]
        low, high = search_interval(reading, 1.959963984540054)
        assert low < reading.value < high


@pytest.mark.parametrize(("game", "card", "label"), [("concerto", "s03", 3),
                                                      ("fairyland", "Fox", 14)])  # fmt: skip
def test_every_game_names_its_forced_cards(tmp_path, game, card, label):
    spec = get_game(game)
    path = tmp_path / "targets.toml"
    vary = {"concerto": '"tokens.composer" = { values = [6] }',
            "fairyland": '"forest.goblin" = { values = [10] }'}[game]  # fmt: skip
    path.write_text(f"[vary]\n{vary}\n[targets]\nforced_effect.{card} = {{ max = 0.1 }}\n")
    targets = load_targets(spec, path)
    assert targets.measures[f"forced_effect.{card}"].card == label
    assert runs_per_candidate(targets) == 2  # the table as dealt and its forced arm
