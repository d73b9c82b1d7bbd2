"""``fairysim tune`` (issue 42): a known answer on a planted defect, an honest "none met", the
same files for the same seed, a resumed search equal to an uninterrupted one, and the measures
equal to what the report code computes on the same games."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from fairysim.analysis.fantastique.runs import finale_decides
from fairysim.analysis.studies.balance import BalanceRows, balance_card
from fairysim.analysis.tune import tune
from fairysim.analysis.tune import workers as tune_workers
from fairysim.analysis.tune.evaluate import play_candidate
from fairysim.analysis.tune.measures import measures_for
from fairysim.analysis.tune.targets import load_targets
from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import join_chunks
from fairysim.sim.fantastique.cards import DEFAULT_CARDS
from fairysim.sim.game import get_game
from fairysim.sim.run import simulate
from fairysim.stats.estimates import winning_margins
from fairysim.stats.turn_order import turn_advantage

SPEC = get_game("fantastique")
SMALL = {"search_games": 500, "final_games": 4_000}

PLANTED = """
players = [4]
policies = ["greedy"]

[vary]
"grande_finale_medals.gold" = { min = 10, max = 200, step = 10 }
"grande_finale_medals.silver" = { values = [5, 15] }
"medals.gold[6]" = { values = [16, 20] }

[targets]
finale_decides = { between = [0.25, 0.45] }
"""


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    """The shipped card file with the Gold Grande Finale medal ten times too large."""
    text = DEFAULT_CARDS.read_text().replace("\ngold = 20\n", "\ngold = 200\n")
    assert "gold = 200" in text
    path = tmp_path / "broken.toml"
    path.write_text(text)
    return path


def write(tmp_path: Path, text: str, name: str = "targets.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def fresh_decides(cards: Path, seed: int = 12345, games: int = 20_000) -> float:
    """finale_decides of a card file at 4 players greedy, on a seed the tune never played."""
    frame = simulate("fantastique", players=4, policies="greedy", games=games, seed=seed,
                     cards=cards)  # fmt: skip
    return float(finale_decides(frame)["decides"].mean())


def test_planted_defect_is_found_and_fixed_on_fresh_seeds(tmp_path, broken):
    assert fresh_decides(broken) > 0.6  # the defect breaks the band
    targets = write(tmp_path, PLANTED)
    result = tune("fantastique", targets=targets, cards=broken, out_dir=tmp_path / "out",
                  seed=3, budget_games=40 * 500, **SMALL)  # fmt: skip
    assert result.met
    changes = pd.read_csv(tmp_path / "out" / "changes.csv")
    assert changes.to_dict("records") == [
        {"path": "grande_finale_medals.gold", "from": 200, "to": 20}
    ]
    tuned = tmp_path / "out" / "tuned_cards.toml"
    SPEC.load_cards(tuned)  # a valid card file
    assert 0.25 <= fresh_decides(tuned) <= 0.45
    # The other numbers and the file's comments are the base file's
    assert tuned.read_text() == broken.read_text().replace("gold = 200", "gold = 20")
    final = result.final
    base = final[final["candidate"] == "base"].iloc[0]
    assert not base["met"] and base["low"] > 0.45
    assert set(final.columns) >= {"low", "high", "games", "level", "met"}
    page = (tmp_path / "out" / "tune.html").read_text()
    assert "Recommended" in page and "grande_finale_medals.gold=20" in page
    # the game's title, and the band in the unit the values are shown in (percent)
    assert "<h1>Tuning Fantastique</h1>" in page and "between 25.0% and 45.0%" in page
    assert "fairysim compare fantastique" in result.compare_command


def test_no_candidate_meets_the_targets_and_it_says_so(tmp_path):
    targets = write(
        tmp_path,
        """
players = [4]
[vary]
"medals.bronze[0]" = { values = [2, 3] }
[targets]
finale_decides = { min = 0.95 }
""",
    )
    result = tune("fantastique", targets=targets, out_dir=tmp_path / "out", seed=1,
                  budget_games=10_000, **SMALL)  # fmt: skip
    assert not result.met
    assert not result.final["met"].any()
    text = (tmp_path / "out" / "tuned_cards.toml").read_text()
    assert text.startswith("# fairysim tune: NO candidate met every target")
    SPEC.load_cards(tmp_path / "out" / "tuned_cards.toml")  # still a valid card file
    assert "No candidate met every target" in (tmp_path / "out" / "tune.html").read_text()


def outputs(folder: Path) -> dict[str, object]:
    candidates = pd.read_parquet(folder / "candidates.parquet")
    return {
        "tuned": (folder / "tuned_cards.toml").read_text(),
        "changes": (folder / "changes.csv").read_text(),
        "front": pd.read_csv(folder / "front.csv").drop(columns="trial"),
        "candidates": candidates.drop(columns="trial"),
    }


def assert_same(a: dict[str, object], b: dict[str, object]) -> None:
    assert a["tuned"] == b["tuned"]
    assert a["changes"] == b["changes"]
    pd.testing.assert_frame_equal(a["front"], b["front"])
    pd.testing.assert_frame_equal(a["candidates"], b["candidates"])


RESUMED = """
players = [4]
[vary]
"grande_finale_medals.gold" = { min = 10, max = 60, step = 10 }
"grande_finale_medals.silver" = { values = [5, 15, 20] }
"medals.gold[6]" = { values = [14, 16, 20] }
[targets]
finale_decides = { between = [0.3, 0.4] }
"""


def test_same_seed_same_files_and_resume_equals_uninterrupted(tmp_path, monkeypatch):
    targets = write(tmp_path, RESUMED)
    options = {"targets": targets, "seed": 7, "budget_games": 30 * 500, **SMALL}
    tune("fantastique", out_dir=tmp_path / "a", **options)
    tune("fantastique", out_dir=tmp_path / "b", **options)
    first = outputs(tmp_path / "a")
    assert_same(first, outputs(tmp_path / "b"))
    assert (first["candidates"]["phase"] == "nsga2").any()  # the search went past the singles

    calls = []
    play = tune_workers.play_candidate

    def stopped(*args, **kwargs):
        calls.append(1)
        if len(calls) == 20:  # Ctrl-C in the middle of a candidate
            raise KeyboardInterrupt
        return play(*args, **kwargs)

    monkeypatch.setattr(tune_workers, "play_candidate", stopped)
    with pytest.raises(KeyboardInterrupt):
        tune("fantastique", out_dir=tmp_path / "c", **options)
    assert not (tmp_path / "c" / "tuned_cards.toml").exists()
    monkeypatch.setattr(tune_workers, "play_candidate", play)
    tune("fantastique", out_dir=tmp_path / "c", resume=True, **options)
    assert_same(first, outputs(tmp_path / "c"))


def test_measures_equal_the_report_code(tmp_path):
    measures = measures_for(SPEC)
    assert {"turn_order_gap", "margin", "comebacks", "finale_decides"} <= set(measures)
    assert "game_length" not in measures  # every Fantastique game has seven rounds
    setup = SPEC.make_setup(players=4, policies="greedy", seed=5)
    arrays = join_chunks(SPEC.play_chunks(setup, 3_000))
    frame = simulate("fantastique", players=4, policies="greedy", games=3_000, seed=5)
    margin = measures["margin"].read(SPEC, arrays, 4)
    assert margin.value == pytest.approx(winning_margins(frame)["margin"].mean())
    decides = measures["finale_decides"].read(SPEC, arrays, 4)
    assert decides.value == pytest.approx(finale_decides(frame)["decides"].mean())
    gap = measures["turn_order_gap"].read(SPEC, arrays, 4)
    table = turn_advantage(frame, "start_seat")
    np.testing.assert_allclose(gap.parts, table["win_share"].to_numpy())
    assert gap.value == pytest.approx(np.abs(table["advantage"]).max())
    traced = join_chunks(SPEC.play_chunks(setup, 3_000, trace=True))
    rows = BalanceRows(SPEC.turn_order, trace_prefix=SPEC.trace_prefix)
    rows.add(simulate("fantastique", players=4, policies="greedy", games=3_000, seed=5, trace=True))
    card = balance_card(rows).tables()["balance"].iloc[0]
    comebacks = measures["comebacks"].read(SPEC, traced, 4)
    assert comebacks.value == pytest.approx(card["comeback"])
    assert comebacks.games == card["comeback_games"]
    assert margin.value == pytest.approx(card["margin"])
    low, high = gap.interval(gap.parts - 0.01, gap.parts + 0.01)
    assert low == pytest.approx(max(0.0, gap.value - 0.01))
    assert high == pytest.approx(gap.value + 0.01)


@pytest.mark.slow  # starts a local Dask cluster of two worker processes
def test_two_workers_give_what_one_process_gives(tmp_path):
    targets = write(tmp_path, RESUMED)
    options = {"targets": targets, "seed": 7, "budget_games": 12 * 500, **SMALL}
    tune("fantastique", out_dir=tmp_path / "one", **options)
    tune("fantastique", out_dir=tmp_path / "two", workers=2, **options)
    assert_same(outputs(tmp_path / "one"), outputs(tmp_path / "two"))


def test_a_combination_the_card_checks_refuse_is_never_played(tmp_path):
    # Each value alone leaves enough cards for five hands of ten; all four together do not.
    vary = "\n".join(f'"fan_cards.{v}" = {{ values = [0] }}' for v in (1, 2, 3, 4))
    targets = write(tmp_path, f"players = [5]\n[vary]\n{vary}\n[targets]\nmargin = {{ max = 1 }}\n")
    result = tune("fantastique", targets=targets, out_dir=tmp_path / "out", seed=2,
                  budget_games=10_000, search_games=200, final_games=1_000)  # fmt: skip
    search = result.candidates[result.candidates["stage"] == "search"]
    refused = search[search["refused"] != ""]
    assert set(refused["candidate"]) == {
        "fan_cards.1=0; fan_cards.2=0; fan_cards.3=0; fan_cards.4=0"
    }
    assert "cannot deal 10" in refused["refused"].iloc[0]
    assert search["trial"].nunique() >= 16  # the whole space, each candidate once
    assert not result.front["candidate"].isin(refused["candidate"]).any()


def test_a_game_declares_its_own_measures():
    concerto = measures_for(get_game("concerto"))
    assert concerto["solo_win_rate"].max_players == 1
    assert "finale_decides" not in concerto
    assert "game_length" in measures_for(get_game("fairyland"))


def test_storage_url_keeps_the_study_elsewhere_and_resumes_there(tmp_path):
    targets = write(tmp_path, RESUMED)
    url = f"sqlite:///{tmp_path / 'elsewhere.db'}"
    options = {"targets": targets, "seed": 4, "storage": url, "search_games": 200,
               "final_games": 1_000}  # fmt: skip
    tune("fantastique", out_dir=tmp_path / "out", budget_games=8 * 200, **options)
    assert (tmp_path / "elsewhere.db").exists() and not (tmp_path / "out" / "tune.db").exists()
    with pytest.raises(FairysimError, match="--resume"):
        tune("fantastique", out_dir=tmp_path / "new", budget_games=16 * 200, **options)
    assert not (tmp_path / "new").exists()  # refused before anything is written
    result = tune("fantastique", out_dir=tmp_path / "out", budget_games=16 * 200, resume=True,
                  **options)  # fmt: skip
    assert result.candidates[result.candidates["stage"] == "search"]["trial"].nunique() == 16


def test_skill_gap_seats_the_stronger_ladder_policy_against_the_weaker(tmp_path):
    targets_file = write(
        tmp_path,
        'players = [3]\npolicies = ["greedy", "random"]\n[vary]\n'
        '"grande_finale_medals.gold" = { values = [10] }\n[targets]\nskill_gap = { min = 0.1 }\n',
    )
    targets = load_targets(SPEC, targets_file)
    assert targets.pair == ("greedy", "random")  # the ladder, not the listed order, decides
    judged = play_candidate(SPEC, targets, (0,), tmp_path, games=1_000, seed=9)
    (((cell, name), reading),) = judged.readings.items()
    assert (cell.players, cell.policy, name) == (3, "greedy vs random", "skill_gap")
    edges = []
    for lineup, strong in ((["greedy", "random", "greedy"], [0, 2]),
                           (["random", "greedy", "random"], [1])):  # fmt: skip
        frame = simulate("fantastique", players=3, policies=lineup, games=1_000, seed=9)
        win = frame["win_share"].to_numpy().reshape(-1, 3)
        weak = [s for s in range(3) if s not in strong]
        edges.append(win[:, strong].mean(axis=1) - win[:, weak].mean(axis=1))
    assert reading.value == pytest.approx(np.mean(edges))
    assert reading.value > 0.3  # greedy beats random clearly
