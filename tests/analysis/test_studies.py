"""What every study checks and shows before and while it plays: player counts, the card file,
one progress bar over all its runs."""

from __future__ import annotations

import pytest

from fairysim.analysis.studies.base import ProgressTracker, check_player_counts, load_card_set
from fairysim.runtime.errors import FairysimError
from fairysim.sim.concerto import ConcertoCards, load_cards
from fairysim.sim.concerto.cards import DEFAULT_CARDS


def test_player_counts_keep_their_order_once_each():
    assert check_player_counts([4, 2, 4, 3], 2, 5) == (4, 2, 3)
    assert check_player_counts(("3",), 2, 5) == (3,)


@pytest.mark.parametrize("players", [(), (1,), (2, 6)])
def test_player_counts_out_of_range_name_the_option(players):
    with pytest.raises(FairysimError) as info:
        check_player_counts(players, 2, 5)
    assert info.value.where == "players"
    assert f"player counts must be 2 to 5, got {list(players)}" in str(info.value)


def test_a_study_narrower_than_its_game_says_so():
    with pytest.raises(FairysimError) as info:
        check_player_counts((1,), 2, 4, "card-balance study")
    assert "the card-balance study covers 2 to 4 players, got [1]" in str(info.value)


def test_card_set_is_loaded_once_and_a_bad_file_names_the_option(tmp_path):
    shipped = load_card_set(None, ConcertoCards, load_cards)
    assert shipped.source == str(DEFAULT_CARDS)
    assert load_card_set(shipped, ConcertoCards, load_cards) is shipped
    bad = tmp_path / "bad.toml"
    bad.write_text("not = = toml")
    with pytest.raises(FairysimError) as info:
        load_card_set(bad, ConcertoCards, load_cards)
    assert info.value.where == "cards" and str(bad) in str(info.value)


def test_progress_runs_on_over_several_runs():
    calls = []
    tracker = ProgressTracker(lambda done, total: calls.append((done, total)), 30)
    first = tracker.run()
    first(5, 10)
    first(10, 10)
    tracker.done(10)
    tracker.run()(20, 20)
    assert calls == [(5, 30), (10, 30), (30, 30)]
    assert ProgressTracker(None, 30).run() is None  # nobody listens: runs get no callback
