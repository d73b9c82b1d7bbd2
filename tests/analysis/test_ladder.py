"""The skill ladder (fairysim.analysis.studies.ladder), over the game contract, on the toy game.

High card has no turn order to speak of: every seat draws one card from the same shoe and the
seat index is the order, so no rung gives the first seat an edge. Its ladder is coin (keep or
redraw at random) < stand < redraw-low (redraw a card below 5), and redrawing a low card
raises the expected card, so the top rung beats the bottom one at one table.
"""

from __future__ import annotations

from dataclasses import replace
from html import unescape

import pandas as pd
import pytest
from verdict_check import review

from fairysim.analysis.report.ladder import _change_line, ladder_figure, ladder_section
from fairysim.analysis.report.page import Report
from fairysim.analysis.studies.ladder import LadderStudy, _changes, _warnings, ladder_study
from fairysim.runtime.errors import FairysimError
from fairysim.sim.game import get_game


@pytest.fixture(scope="module")
def study():
    return ladder_study("highcard", players=(2, 3), games=6_000, seed=3, deck="short")


def test_no_rung_gives_the_first_seat_an_edge(study):
    rungs = study.rungs
    assert len(rungs) == 6 and set(rungs["policy"]) == {"coin", "stand", "redraw-low"}
    for r in rungs.itertuples():
        assert r.advantage_low <= 0 <= r.advantage_high, r
        assert r.spread_low <= 0 <= r.spread_high, r
        assert r.off_fair == ""
    # The intervals agree with their verdicts (the page refuses a table where they do not).
    assert not rungs["advantage_significant"].any()


def test_the_top_rung_beats_the_bottom_one(study):
    for gap in study.gaps.itertuples():
        assert gap.top == "redraw-low" and gap.bottom == "coin"
        assert 0.5 < gap.low <= gap.share <= gap.high <= 1.0
    top = study.ratings.groupby("players").head(1)
    assert (top["policy"] == "redraw-low").all()


def test_a_verdict_that_changes_up_the_ladder_is_warned():
    spec = replace(get_game("highcard"), ladder=("random", "greedy", "best"))
    rungs = pd.DataFrame(
        {
            "players": [3, 3, 3],
            "table": ["3 players"] * 3,
            "policy": ["random", "greedy", "best"],
            "off_fair": ["", "", "1st -3.2 pp"],
        }
    )
    ordered = pd.DataFrame({"players": [3, 3, 3], "policy": ["best", "greedy", "random"]})
    (warning,) = _warnings(spec, rungs, ordered)
    assert warning.startswith(
        "3 players: the turn positions off the fair share part between greedy (off the fair "
        "share: none) and best (1st -3.2 pp)"
    )
    same = rungs.assign(off_fair=["", "1st -1.0 pp", "1st -3.2 pp"])
    assert _warnings(spec, same, ordered) == []
    swapped = ordered.assign(policy=["greedy", "best", "random"])
    assert "the ratings order the rungs greedy, best, random" in _warnings(spec, same, swapped)[0]


def test_the_section_and_figure(study):
    report = Report("ladder", "page.html", "p-")
    ladder_section(report, study, "fairysim report x --ladder-games 60000")
    html = unescape(report.html())
    assert "The skill ladder: balance under weak and strong play" in html
    assert "coin, stand, redraw-low, in the order the game declares" in html
    ax = ladder_figure(study).axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["coin", "stand", "redraw-low"]
    assert ax.get_ylabel() == "starter's win share - fair share (pp)"


def test_the_search_rung_tops_the_ladder_and_is_tested_against_the_best_heuristic():
    # The toy game has no search player: its strongest policy stands in for one, so the rung's
    # bookkeeping is checked without a search's compile.
    spec = replace(get_game("highcard"), ladder=("coin", "stand"), search="redraw-low")
    study = ladder_study(
        spec, players=(2, 3), games=3_000, search_games=2_000, seed=3, deck="short"
    )
    assert study.meta["ladder"] == ["coin", "stand", "redraw-low"]
    top = study.rungs[study.rungs["policy"] == "redraw-low"]
    assert len(top) == 2 and (top["games"] == 2_000).all()
    search = study.search.set_index("players")
    assert search.loc[2, "games"] == 4_000 and search.loc[3, "games"] == 6_000
    assert (search["share"] > search["fair"]).all() and search["significant"].all()
    assert (search["low"] > search["fair"]).all()
    assert not [w for w in study.warnings if "does not beat" in w]
    report = Report("ladder", "page.html", "p-")
    ladder_section(report, study, "fairysim report x")
    html = unescape(report.html())
    assert "one redraw-low seat among stand wins" in html
    assert "the top rung, redraw-low, is a search player" in html
    # A "search" weaker than the best heuristic is warned about, not hidden.
    weak = replace(get_game("highcard"), ladder=("stand", "redraw-low"), search="coin")
    study = ladder_study(weak, players=2, games=1_000, search_games=1_000, seed=3, deck="short")
    assert any("coin does not beat redraw-low" in w for w in study.warnings)
    # Without search games the rung is left out.
    plain = ladder_study(spec, players=2, games=500, seed=3, deck="short")
    assert plain.search.empty and plain.meta["ladder"] == ["coin", "stand"]


def test_the_search_rung_plays_the_weights_its_spec_declares_for_a_player_count():
    # redraw-low redraws a card below ``below`` (default 5): at 2 players the spec asks 8.
    spec = replace(
        get_game("highcard"),
        ladder=("coin", "stand"),
        search="redraw-low",
        search_weights={2: {"below": 8}},
    )
    assert spec.search_policy(2).weights == (8.0,) and spec.search_policy(3) == "redraw-low"
    study = ladder_study(spec, players=(2, 3), games=500, search_games=400, seed=3, deck="short")
    search = study.search.set_index("players")
    assert search.loc[2, "search"] == "redraw-low (below=8)"
    assert search.loc[3, "search"] == "redraw-low"
    top = study.rungs[study.rungs["policy"] == "redraw-low"].set_index("players")
    assert top.loc[2, "weights"] == "below=8" and top.loc[3, "weights"] == ""
    # The declared weights are what the rung played: on the same deals, the defaults give
    # another 2-player mirror table.
    defaults = ladder_study(
        replace(spec, search_weights={}),
        players=2,
        games=500,
        search_games=400,
        seed=3,
        deck="short",
    ).rungs.set_index("policy")
    assert defaults.loc["redraw-low", "starter"] != top.loc[2, "starter"]
    assert (
        defaults.loc["stand", "starter"]
        == study.rungs.set_index(["players", "policy"]).loc[(2, "stand"), "starter"]
    )
    report = Report("ladder", "page.html", "p-")
    ladder_section(report, study, "fairysim report x")
    assert "redraw-low (below=8)" in unescape(report.html())


def test_bad_input_is_named():
    with pytest.raises(FairysimError) as info:
        ladder_study(replace(get_game("highcard"), ladder=()), players=2, games=10)
    assert info.value.where == "GAME"
    with pytest.raises(FairysimError) as info:
        ladder_study("highcard", players=2, games=0)
    assert info.value.where == "games"


def test_a_changed_verdict_is_marked_against_its_positions(tmp_path):
    spec = replace(get_game("highcard"), ladder=("random", "greedy", "best"))
    rungs = pd.DataFrame(
        {
            "players": [2, 2],
            "table": ["2 players"] * 2,
            "policy": ["greedy", "best"],
            "off_fair": ["", "1st -3.2 pp"],
        }
    )
    positions = pd.DataFrame(
        {
            "players": [2] * 4,
            "policy": ["greedy", "greedy", "best", "best"],
            "position": [0, 1, 0, 1],
            "win_share": [0.5, 0.5, 0.468, 0.532],
            "position_significant": [False, False, True, True],
        }
    )
    changes = _changes(spec, rungs)
    study = LadderStudy(rungs, positions, pd.DataFrame(), pd.DataFrame(), [], {}, changes=changes)
    report = Report("ladder", "page.html", "p-")
    report.data("ladder_positions", positions)
    report.paragraph(_change_line(report, study, changes[0]))
    page = report.write(tmp_path)
    text = page.read_text(encoding="utf-8")
    assert 'data-test-row="0 1" data-test-claim="not separated"' in text
    assert 'data-test-row="2 3" data-test-claim="separated"' in text
    assert not review(page).contradicted
