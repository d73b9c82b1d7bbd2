"""fairysim.analysis.compare: a baseline and its variants on the same seeds (issue 27).

Self-comparison goes through the Python API's ``allow_identical`` flag: the command line
refuses a variant equal to the baseline (also when spelled differently, see
``test_two_spellings_of_one_setup_are_refused``), but the method must give exact zeros on it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from fairysim.analysis import compare
from fairysim.analysis.studies.what_if import (
    correct,
    headline,
    paired_row,
    position_words,
    positions,
    rank,
    spread_contrast,
)
from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.sim.game import games, get_game
from fairysim.sim.run import simulate

SHIPPED = Path(get_game("fantastique").load_cards().source)

FINALE_WORTH_MORE = """
[fan_cards]
1 = 16
2 = 15
3 = 14
4 = 13
5 = 12
6 = 11
7 = 10
8 = 9

[medals]
gold = [6, 8, 10, 12, 14, 16, 18]
silver = [3, 4, 5, 6, 7, 8, 9]
bronze = [1, 2, 3, 4, 5, 6, 7]

[grande_finale_medals]
gold = 60
silver = 30
"""


def test_self_comparison_gives_zero_differences_narrower_than_unpaired():
    result = compare(
        "fantastique",
        baseline="fan=II",
        variants=["fan=II"],
        players=4,
        games=300,
        seed=11,
        allow_identical=True,
    )
    d = result.differences
    assert len(d) > 0
    assert (d["difference"] == 0).all()
    assert ((d["low"] <= 0) & (d["high"] >= 0)).all()
    # Paired: every game's difference is 0, so the paired SE is 0; unpaired runs of the same
    # size would have a positive SE for every metric.
    assert (d["se"] < d["se_unpaired"]).all()
    assert not d["separated"].any()
    assert bool(result.pairing["same_cards"].iloc[0])
    assert int(result.pairing["same_turn_order_games"].iloc[0]) == 300


def test_identical_variant_is_refused_without_the_flag():
    with pytest.raises(FairysimError, match="baseline's setup"):
        compare("fantastique", baseline="fan=II", variants=["fan=II"], players=4, games=10)


def test_two_spellings_of_one_setup_are_refused():
    # The fan's case and the shipped card file given by path play the very same games.
    for variant in ("fan=i", f"cards={SHIPPED}", "policies=greedy,greedy,greedy,greedy"):
        with pytest.raises(FairysimError, match="baseline's setup"):
            compare("fantastique", baseline="", variants=[variant], players=4, games=10)


def test_random_at_seat_zero_lowers_seat_zeros_win_share():
    result = compare(
        "fantastique",
        baseline="policies=greedy",
        variants=["policies=random,greedy,greedy,greedy"],
        players=4,
        games=1500,
        seed=2,
    )
    d = result.differences.set_index(["group", "index", "metric"])
    seat0 = d.loc[("seat", 0, "win_share")]
    assert seat0["difference"] < 0 and seat0["high"] < 0 and seat0["separated"]
    for seat in (1, 2, 3):
        assert d.loc[("seat", seat, "win_share"), "difference"] > 0


def test_grande_finale_worth_more_raises_the_hoarders_win_share(tmp_path):
    cards = tmp_path / "finale_x3.toml"
    cards.write_text(FINALE_WORTH_MORE)
    lineup = "policies=hoarder,greedy,greedy,greedy"
    result = compare(
        "fantastique",
        baseline=lineup,
        variants=[f"{lineup};cards={cards}"],
        players=4,
        games=1500,
        seed=5,
    )
    d = result.differences.set_index(["group", "index", "metric"])
    hoarder = d.loc[("seat", 0, "win_share")]
    assert hoarder["difference"] > 0 and hoarder["low"] > 0 and hoarder["separated"]
    # The deck is unchanged, so every deal and start seat is the baseline's.
    assert int(result.pairing["same_turn_order_games"].iloc[0]) == 1500
    # The planted case: the file adds points, so every score moves up, but the headline is who
    # wins: the separated win-share rows, the hoarder's seat first; score only supports it.
    score = d.loc[("pooled", -1, "score")]
    assert score["difference"] > 0 and score["separated"] and score["question"] == "supporting"
    top = headline(result.differences).iloc[0]
    assert (top["group"], top["index"], top["metric"]) == ("seat", 0, "win_share")
    assert top["where"] == "seat 0 (hoarder)"
    assert set(headline(result.differences)["metric"]) <= {"win_share", "turn_order_spread"}
    assert result.ranking["metric"].iloc[0] == "turn_order_spread"  # the default ranking
    # Counts equal, values changed: the note says so, and common random numbers hold.
    row = result.pairing.iloc[0]
    assert row["card_counts_changed"] == "" and row["card_values_changed"] == "finale_medals"
    assert row["pairing"].startswith("the card files differ only in values (finale medals)")
    assert "common random numbers" in row["pairing"]


def test_pairing_narrows_the_intervals_of_a_real_change():
    result = compare(
        "fantastique", baseline="", variants=["fan=III"], players=4, games=1000, seed=7
    )
    d = result.differences
    score = d[(d["metric"] == "score") & (d["group"] == "turn position")]
    assert (score["se_ratio"] < 0.8).all()
    assert np.allclose(score["se_ratio"], score["se"] / score["se_unpaired"])


def test_a_changed_deck_says_what_is_still_paired(tmp_path):
    cards = tmp_path / "more_eights.toml"
    cards.write_text(
        FINALE_WORTH_MORE.replace("8 = 9", "8 = 12").replace("60", "20").replace("30", "10")
    )
    result = compare("fantastique", baseline="", variants=[f"cards={cards}"], games=400, seed=1)
    row = result.pairing.iloc[0]
    assert not row["same_cards"]
    # The note says what the files differ in: a count (the finale and medals are the shipped).
    assert row["card_counts_changed"] == "deck_counts" and row["card_values_changed"] == ""
    assert row["pairing"].startswith("the card counts differ (deck counts): ")
    assert "common random numbers" not in row["pairing"]
    # A reshuffled deck draws the start seat from other numbers: far fewer games keep it.
    assert row["same_turn_order_games"] < 300


def test_paired_row_matches_scipys_paired_t_test():
    rng = np.random.default_rng(0)
    base = rng.normal(size=200)
    variant = base + rng.normal(0.2, 0.5, size=200)
    row = paired_row(base, variant)
    test = sps.ttest_rel(variant, base)
    assert row["p"] == pytest.approx(test.pvalue)
    assert row["difference"] == pytest.approx((variant - base).mean())


def test_an_interval_that_excludes_zero_is_always_a_holm_rejection():
    rng = np.random.default_rng(1)
    rows = []
    for shift in np.linspace(0, 0.4, 30):
        base = rng.normal(size=300)
        rows.append(paired_row(base, base + rng.normal(shift, 1.0, size=300)))
    d = correct(pd.DataFrame(rows))
    excludes = (d["low"] > 0) | (d["high"] < 0)
    assert d.loc[excludes, "separated"].all()
    assert (d["tests"] == 30).all()
    assert d["level"].iloc[0] == pytest.approx(1 - 0.05 / 30)


def test_fantastique_turn_position_is_counted_from_the_first_seat():
    spec = get_game("fantastique")
    rows = simulate(spec, players=3, games=50, seed=4)
    pos = positions(spec, rows, 3)
    first = rows["first_seat"].to_numpy().reshape(-1, 3)[:, 0]
    seat_at_zero = np.argmax(pos == 0, axis=1)
    assert (seat_at_zero == first).all()  # F1: the drawn seat acts first in round 1
    assert (np.sort(pos, axis=1) == np.arange(3)).all()


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in games() if n != "highcard"])
def test_every_game_declares_columns_its_rows_carry(name):
    spec = get_game(name)
    players = max(spec.min_players, 2)
    rows = simulate(spec, players=players, games=20, seed=3)
    order = spec.turn_order
    for column in (order.column, order.start_seat, spec.length_column, *spec.score_parts):
        if column is not None:
            assert column in rows.columns
    assert order.ruling
    pos = positions(spec, rows, players)
    assert (np.sort(pos, axis=1) == np.arange(players)).all()
    if spec.score_parts:
        parts = rows[list(spec.score_parts)].sum(axis=1)
        assert np.allclose(parts, rows["score"])


def test_a_run_to_precision_stops_at_the_first_look_narrow_enough_and_equals_a_fixed_run():
    from fairysim.analysis import compare_to_precision
    from fairysim.analysis.studies.what_if import ALPHA, share_half_width

    options = dict(baseline={}, variants=[{"fan": "III"}], players=3, seed=4)
    # 1,000 games give a half-width of a few points: 0.04 is reached at a later look.
    result, reached = compare_to_precision("fantastique", precision=0.04, max_games=8000, **options)
    assert reached.looks == [1000, 2000, 4000, 8000][: len(reached.looks)]
    assert reached.half_widths[-1] <= 0.04 < reached.half_widths[0]
    assert all(h > 0.04 for h in reached.half_widths[:-1])
    assert result.meta["games"] == reached.games == reached.looks[-1]
    assert share_half_width(result) == reached.half_widths[-1]
    # The stopped comparison is the fixed run of that many games, at the split error rate.
    fixed = compare("fantastique", games=reached.games, alpha=ALPHA / 4, **options)
    pd.testing.assert_frame_equal(result.differences, fixed.differences)
    assert result.differences["level"].iloc[0] == pytest.approx(
        1 - ALPHA / 4 / fixed.differences["tests"].iloc[0]
    )


def test_a_run_to_precision_that_hits_its_cap_says_so():
    from fairysim.analysis import compare_to_precision

    result, reached = compare_to_precision(
        "fantastique", precision=0.001, max_games=1500, baseline={}, variants=[{"fan": "II"}]
    )
    assert not reached.reached and reached.looks == [1000, 1500]
    assert "--max-games 1,500 reached before --precision 0.001" in reached.message()
    assert result.meta["precision"]["reached"] is False


def test_concerto_random_at_seat_one_lowers_its_win_share_and_a_fixed_soloist_stays_paired():
    """compare on Fairy Concerto: a policy at one seat, and a contest card fixed for the table
    (PC3: fixing one never changes a deal, so every game stays paired)."""
    result = compare(
        "concerto",
        baseline="policies=greedy",
        variants=["policies=greedy,random,greedy", "policies=greedy;soloist=B"],
        players=3,
        games=1500,
        seed=4,
    )
    d = result.differences.set_index(["variant", "group", "index", "metric"])
    # The seat index is the turn order (C4): seat 1 is the second turn position (index 1 of
    # the 0-based ``index`` column; the variant labelled by what it changes).
    seat1 = d.loc[("policies=greedy,random,greedy", "turn position", 1, "win_share")]
    assert seat1["difference"] < 0 and seat1["high"] < 0 and seat1["separated"]
    pairing = result.pairing.set_index("variant").loc["soloist=B"]
    assert pairing["same_cards"] and int(pairing["same_turn_order_games"]) == 1500
    score = result.differences
    soloist = score[(score["variant"] == "soloist=B") & (score["metric"] == "score")]
    assert (soloist["se_ratio"] < 1).all()


def test_the_spread_is_the_largest_distance_from_the_fair_share():
    # Four positions winning 10%, 30%, 25% and 35% of 20 games: the 1st is farthest from 25%.
    wins = np.zeros((20, 4))
    for game, position in enumerate([0] * 2 + [1] * 6 + [2] * 5 + [3] * 7):
        wins[game, position] = 1.0
    assert spread_contrast(wins).mean() == pytest.approx(0.15)


def _ranked(shifts: dict[str, float]) -> pd.DataFrame:
    """The ranking of variants whose per-game values are the baseline's plus ``shifts``."""
    rng = np.random.default_rng(3)
    base = rng.normal(size=400)
    key = ("pooled", None, "score")
    values = {
        label: {key: base + shift + rng.normal(0, 0.1, 400)} for label, shift in shifts.items()
    }
    rows = [
        {"variant": label, "group": "pooled", "index": -1, "metric": "score",
         **paired_row(base, values[label][key])}
        for label in shifts
    ]  # fmt: skip
    return rank(correct(pd.DataFrame(rows)), values, "score", None, list(shifts))


def test_vs_next_names_the_next_variant_and_the_pairs_family():
    ranking = _ranked({"near_a": 0.5, "near_b": 0.5, "far": -1.0})
    assert list(ranking["variant"][:2]) in (["near_a", "near_b"], ["near_b", "near_a"])
    first, second = ranking["variant"].iloc[0], ranking["variant"].iloc[1]
    assert ranking["versus_next"].iloc[0] == f"not separated from {second}"
    assert ranking["versus_next"].iloc[1] == "higher than far"
    assert ranking["versus_next"].iloc[2] == ""
    assert (ranking["pairs_tested"] == 3).all()
    assert first in ("near_a", "near_b")


def test_the_spread_ranks_lowest_first():
    rng = np.random.default_rng(4)
    base = rng.normal(size=300)
    key = ("pooled", None, "turn_order_spread")
    values = {"fairer": {key: base - 1.0}, "less_fair": {key: base + 1.0}}
    rows = [
        {"variant": v, "group": "pooled", "index": -1, "metric": "turn_order_spread",
         **paired_row(base, values[v][key] + rng.normal(0, 0.1, 300))}
        for v in values
    ]  # fmt: skip
    ranking = rank(correct(pd.DataFrame(rows)), values, "turn_order_spread", None, list(values))
    assert list(ranking["variant"]) == ["fairer", "less_fair"]
    assert ranking["versus_next"].iloc[0] == "lower than less_fair"


@pytest.mark.parametrize(
    ("options", "where", "words"),
    [
        (dict(variants=["fan=II"], labels=["a", "b"]), "labels", "gave 2 labels for 1 variant"),
        (dict(variants=["fan=II;label=x"], labels=["y"]), "labels", "has a label= too"),
        (dict(variants=["fan=II", "fan=III"], labels=["x", "x"]), "labels", "labelled 'x'"),
        (dict(variants=["fan=II;label=" + "x" * 40]), "variants", "at most 32"),
        (dict(variants=[]), "variants", "give at least one variant or variant_cards"),
        (dict(variants=["fan=II"], rank_position=0), "rank_position", "turn positions are 1..4"),
        (dict(variants=["fan=II;policy=greedy;policies=greedy"]), "variants", "given twice"),
    ],
)
def test_bad_parameters_are_refused_naming_the_parameter(options, where, words):
    with pytest.raises(ParameterError) as error:
        compare("fantastique", players=4, games=10, **options)
    assert error.value.where == where
    assert words in str(error.value)


def test_labels_are_set_by_label_or_made_short_from_what_changes(tmp_path):
    cards = tmp_path / "finale_x3.toml"
    cards.write_text(FINALE_WORTH_MORE)
    result = compare(
        "fantastique",
        baseline="policy=hoarder,greedy,greedy,greedy",
        variants=[
            f"policy=hoarder,greedy,greedy,greedy;cards={cards}",
            "policy=hoarder,greedy,greedy,greedy;fan=III;label=fan three",
            "fan=II",
        ],
        players=4,
        games=30,
    )
    assert [v["label"] for v in result.meta["variants"]] == [
        "finale_x3",
        "fan three",
        "fan=II policy=default",
    ]
    assert result.meta["variants"][1]["options"] == {
        "policy": "hoarder,greedy,greedy,greedy",
        "fan": "III",
    }
    assert result.meta["games"] == 30 and result.meta["rank_by"] == "turn_order_spread"


def test_the_command_line_states_the_librarys_default_game_count():
    from fairysim.analysis.studies.what_if import GAMES
    from fairysim.cli.compare import GAMES as SHOWN

    assert SHOWN == GAMES


@pytest.mark.parametrize(
    ("edit", "counts", "values"),
    [
        (lambda text: text, (), ()),
        (lambda text: text.replace("gold = 20", "gold = 25"), (), ("finale_medals",)),
        (lambda text: text.replace("8 = 9", "8 = 10"), ("deck_counts",), ()),
        (
            lambda text: text.replace("8 = 9", "8 = 10").replace("silver = 10", "silver = 12"),
            ("deck_counts",),
            ("finale_medals",),
        ),
    ],
)
def test_the_card_change_splits_counts_from_values(tmp_path, edit, counts, values):
    from fairysim.analysis.studies.variants import build_arm, card_change

    spec = get_game("fantastique")
    edited = tmp_path / "edited.toml"
    edited.write_text(edit(SHIPPED.read_text()))
    arm = {}
    for name, options in (("base", {}), ("variant", {"cards": str(edited)})):
        arm[name] = build_arm(spec, options, players=4, seed=0, option="variants", label=name)
    change = card_change(arm["base"], arm["variant"])
    assert (change.counts, change.values, change.declared) == (counts, values, True)
    assert change.same == (not counts and not values)


def test_a_solo_comparison_reads_the_players_row_and_leaves_pahhas_out():
    """Solo Fairy Concerto has a row per game for Pahha after the player's (``extra_rows``):
    the comparison is of the player's seat alone, ranked by its win share."""
    result = compare(
        "concerto", baseline="policy=greedy", variants=["policy=random"], players=1, games=200
    )
    d = result.differences
    shares = d[d["metric"] == "win_share"]
    assert list(shares["group"]) == ["turn position"] and list(shares["index"]) == [0]
    assert shares["difference"].iloc[0] < 0 and shares["separated"].iloc[0]
    assert "turn_order_spread" not in set(d["metric"])  # one seat: no turn order to spread
    ranking = result.ranking.iloc[0]
    assert (ranking["metric"], ranking["group"], ranking["index"]) == (
        "win_share",
        "turn position",
        0,
    )


def test_the_spread_row_says_where_each_setups_spread_is_taken():
    result = compare("fantastique", baseline="", variants=["fan=III"], players=3, games=300, seed=2)
    d = result.differences
    spread = d[d["metric"] == "turn_order_spread"].iloc[0]
    by_position = d[(d["group"] == "turn position") & (d["metric"] == "win_share")]
    for mean, side in (("baseline_mean", 0), ("variant_mean", 1)):
        distance = (by_position[mean] - 1 / 3).abs().to_numpy()
        # The spread is the largest distance from the fair share, at the position named.
        assert spread[mean] == pytest.approx(distance.max())
        named = spread["where"].split(" -> ")[min(side, spread["where"].count(" -> "))]
        assert named == position_words(int(np.argmax(distance)))
