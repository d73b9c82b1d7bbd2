"""The best-response rung of the reports (issue 43): the dominance verdict against a stated band
with simultaneous intervals, its data for the answer card, and the section a report writes."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from fairysim.analysis.report.registry import RESPONSE_DEALS, get_report
from fairysim.analysis.report.response_rung import response_command, verdict_sentence
from fairysim.analysis.strategy import rung
from fairysim.analysis.strategy.arena import make_arena
from fairysim.analysis.strategy.dominance import dominance
from fairysim.sim.game import get_game


def test_a_threshold_near_the_sound_one_dominates_stand_by_a_small_band_and_not_a_large_one():
    """High card at 2 players: redrawing below 7 ranks above standing pat in about 63% of the
    meetings at either turn position."""
    arena = make_arena("highcard", "redraw-low", "stand", 2, seed=1)
    small = dominance(arena, {"below": 7.0}, 0, 3000, band=0.05)
    assert small.verdict == "dominant"
    assert list(small.cells["turn"]) == ["1st", "2nd"]
    assert (small.cells["low"] > 0.55).all()
    large = dominance(arena, {"below": 7.0}, 0, 3000, band=0.25)
    assert large.verdict == "not dominant"
    assert (large.cells["high"] < 0.75).all()


def test_a_shade_better_than_its_own_defaults_is_not_dominant():
    arena = make_arena("highcard", "redraw-low", "redraw-low,stand", 3, seed=2)
    verdict = dominance(arena, {"below": 7.0}, 0, 3000)
    cells = verdict.cells.set_index(["opponent", "turn"])
    assert "redraw-low (defaults)" in cells.index.get_level_values(0)
    assert verdict.verdict == "not dominant"
    # every cell's interval is simultaneous: Bonferroni over the 6 cells
    assert verdict.level == pytest.approx(1 - 0.05 / 6)
    assert (verdict.cells["deals"] > 0).all()


def test_the_report_help_states_the_rung_sizes_the_study_plays():
    assert RESPONSE_DEALS == (rung.GAMES, rung.VALIDATION_GAMES, rung.DOMINANCE_GAMES)
    for name in ("fantastique", "concerto", "fairyland"):
        assert get_report(name).default("response_evaluations") == rung.EVALUATIONS


def test_the_field_is_every_built_in_the_count_accepts_but_the_search_player():
    concerto = get_game("concerto")
    field = rung.rung_field(concerto, 4)
    assert "rollout" not in field and "lookahead" not in field  # lookahead plays solo only
    assert {"random", "greedy", "chaser"} <= set(field)


@pytest.fixture(scope="module")
def fantastique_rung():
    spec = get_game("fantastique")
    return rung.response_rung(
        spec, policy="balancer", players=4, seed=3, evaluations=4, axes={"fan": "I"}
    )


def test_the_verdict_data_is_what_the_page_says(fantastique_rung):
    data = rung.rung_verdict(fantastique_rung)
    assert data["question"] == rung.QUESTION
    assert data["verdict"] in ("dominant", "not dominant", "undecided")
    assert data["policy"] == "balancer" and set(data["weights"]) == set(data["start"])
    assert data["band"] == rung.BAND and data["players"] == 4
    weakest = data["weakest"]
    assert weakest["low"] <= weakest["share"] <= weakest["high"]
    cells = fantastique_rung.dominance.cells
    assert weakest["low"] == cells["low"].min()
    # the verdict follows the cells
    if data["verdict"] == "dominant":
        assert (cells["low"] > 0.5 + data["band"]).all()
    elif data["verdict"] == "not dominant":
        assert (cells["high"] < 0.5 + data["band"]).any()
    sentence = verdict_sentence(fantastique_rung)
    assert sentence.startswith(f"Dominant strategy: {data['verdict']}")
    assert weakest["opponent"] in sentence and weakest["turn"] in sentence
    command = response_command(fantastique_rung)
    assert "--policy balancer --field random,greedy,hoarder,balancer --players 4" in command
    assert "--evaluations 4 --games 200" in command and "--fan I" in command


def test_a_report_writes_the_rung_section_and_zero_leaves_it_out(tmp_path):
    from fairysim.analysis.fantastique import report as fr

    small = dict(
        games=30, seed=2, players=(2,), card_games=400, ladder_games=400, search_games=0,
        heuristic_games=300,
    )  # fmt: skip
    html = fr.write_report(tmp_path / "with", response_evaluations=4, **small)
    text = html.read_text(encoding="utf-8")
    assert "The best-response rung: is there a dominant strategy?" in text
    assert "Dominant strategy: " in text
    # the answer card asks it first, with the verdict the section prints
    card = text[text.index('<section class="answer"') : text.index("</section>")]
    # the section's verdict is marked against its cells file: read it without the span
    words = re.sub(r"<span[^>]*>|</span>", "", text)
    verdict = words.split("Dominant strategy: ", 1)[1].split(":", 1)[0]
    assert "Dominant strategy</b>" in card
    assert f"{verdict}: " in card.split("Dominant strategy</b>", 1)[1]
    cells = pd.read_csv(tmp_path / "with" / "fantastique-best_response_dominance.csv")
    assert set(cells["turn"]) == {"1st", "2nd", "3rd", "4th"}
    assert sorted(set(cells["turn_position"])) == [1, 2, 3, 4]
    assert (tmp_path / "with" / "fantastique-best_response.png").exists()
    html = fr.write_report(tmp_path / "without", response_evaluations=0, **small)
    assert "best-response rung" not in html.read_text(encoding="utf-8")
    assert "Dominant strategy" not in html.read_text(encoding="utf-8")
