"""The Fairy Concerto HTML reports: content, PROVISIONAL labels, files, figures."""

from __future__ import annotations

import json
import re

import pytest
from matplotlib.figure import Figure

import fairysim
from fairysim.analysis import concerto_report as cr
from fairysim.analysis.concerto import card_balance, solo_study
from fairysim.sim.concerto.cards import DEFAULT_CARDS


@pytest.fixture(scope="module")
def study():
    return solo_study(games=400, seed=3, lookahead_games=40)


@pytest.fixture(scope="module")
def balance():
    return card_balance(games=300, seed=3)


def text_of(page: str) -> str:
    """The page's visible text (figures and markup dropped, entities kept simple)."""
    page = re.sub(r'src="data:[^"]*"', "", page)
    page = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace("&#x27;", "'")


def test_solo_report_states_provisional_games_seed_version_and_command(study):
    page = cr.build_concerto_solo_report(study).html()
    text = text_of(page)
    assert "<title>Fairy Concerto solo: how often do you beat Pahha? (PROVISIONAL cards)" in page
    assert "PROVISIONAL card set (ruling C9)" in text
    assert text.index("PROVISIONAL card set") < text.index("1. Win rate")  # at the top
    assert "fairysim report concerto-solo --games 400 --lookahead-games 40 --seed 3" in text
    assert f"fairysim {fairysim.__version__}" in text
    assert "greedy 400" in text and "lookahead 40" in text  # games each number rests on
    for heading in ("How much does looking ahead gain", "Which setups are hardest", "margin"):
        assert heading in text
    assert "significant" in text


def test_solo_report_writes_tables_figures_and_metadata(study, tmp_path):
    html = cr.build_concerto_solo_report(study).write(tmp_path)
    assert html == tmp_path / cr.SOLO_REPORT_FILENAME
    names = {p.name for p in tmp_path.iterdir()}
    for stem in ("policies", "lookahead", "setups", "setup_cards", "margins", "cards"):
        assert f"concerto-solo-{stem}.csv" in names, stem
    for stem in ("policies", "setups", "setups_lookahead", "setup_cards", "margins"):
        assert f"concerto-solo-{stem}.png" in names, stem
    meta = json.loads((tmp_path / "concerto-solo-metadata.json").read_text())
    assert meta["cards_provisional"] is True and meta["lookahead_games"] == 40


def test_balance_report_content_and_files(balance, tmp_path):
    report = cr.build_concerto_report(balance)
    text = text_of(report.html())
    assert "PROVISIONAL card set (ruling C9)" in text
    assert "fairysim report concerto --games 300 --seed 3" in text
    assert "300 games per player count (2, 3, 4 players), 900 games in all" in text
    for heading in ("Score cards", "Contest cards", "popularity kind", "Seat advantage"):
        assert heading in text, heading
    assert "No score card is dominated by another" in text
    assert "PROVISIONAL cards played" in text
    html = report.write(tmp_path)
    assert html.name == cr.BALANCE_REPORT_FILENAME
    names = {p.name for p in tmp_path.iterdir()}
    for stem in ("score_cards", "score_cards_pooled", "contests_pooled", "popularity", "seats"):
        assert f"concerto-{stem}.csv" in names, stem
    for stem in ("score_cards", "contests", "popularity", "seats"):
        assert f"concerto-{stem}.png" in names, stem


def test_figures_are_figures(study, balance):
    figures = [
        cr.solo_policy_figure(study),
        cr.setup_heatmap_figure(study),
        cr.setup_heatmap_figure(study, "lookahead"),
        cr.setup_card_figure(study),
        cr.margin_figure(study),
        cr.score_card_figure(balance),
        cr.contest_figure(balance),
        cr.popularity_figure(balance),
        cr.concerto_seat_figure(balance),
    ]
    assert all(isinstance(f, Figure) for f in figures)


def test_another_card_file_is_named_and_in_the_command(tmp_path):
    final = tmp_path / "final.toml"
    final.write_text(DEFAULT_CARDS.read_text().replace("provisional = true", "provisional = false"))
    study = solo_study(games=100, seed=1, lookahead_games=5, policies=("greedy",), cards=final)
    text = text_of(cr.build_concerto_solo_report(study).html())
    assert "PROVISIONAL" not in text
    assert f"--cards {final}" in text
    assert str(final) in text


def test_write_functions_use_their_defaults_and_write_nothing_on_failure(tmp_path, monkeypatch):
    import fairysim.analysis.concerto_report as module

    seen = {}

    def fake_study(games, seed, lookahead_games, policies, cards, threads, progress):
        seen.update(games=games, seed=seed, lookahead_games=lookahead_games)
        raise RuntimeError("study failed")

    monkeypatch.setattr(module, "solo_study", fake_study)
    with pytest.raises(RuntimeError):
        cr.write_concerto_solo_report(tmp_path / "out")
    assert seen == {
        "games": cr.SOLO_DEFAULT_GAMES,
        "seed": 1,
        "lookahead_games": cr.SOLO_DEFAULT_LOOKAHEAD_GAMES,
    }
    assert not (tmp_path / "out").exists()
