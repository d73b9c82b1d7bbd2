"""The jitted engine against the reference engine, game by game (every column the reference
gives: scores and their parts, ranks, cards owned, hands, items, counts of every action, where
every card ended), for 2 to 4 players, every built-in policy, a user policy that reads every
slot of the view, the courts (random, starred, none, a court file) and a variant card file;
conservation of the forest and the court in the jitted engine's games; bad input refused in
one line."""

from __future__ import annotations

import numpy as np
import pytest

from fairysim.runtime.errors import CardFileError, FairysimError, IllegalChoiceError
from fairysim.sim.batch import join_chunks
from fairysim.sim.fairyland import make_setup, play_chunks, reference, spec
from fairysim.sim.fairyland.cards import load_cards
from fairysim.sim.fairyland.policies import POLICIES
from fairysim.sim.fairyland.rules import (
    CARD_NAMES,
    COURT_DECK_SIZE,
    DECISIONS,
    FIRST_FOREST_TYPE,
    OGRE,
    PART_NAMES,
    PAYMENT,
)
from fairysim.sim.fairyland.spec import COURTS
from fairysim.sim.policy import Policy, policy
from fairysim.sim.rng import randint

# --- Policies and card files the games are played with -------------------------------------------

HEURISTICS = [name for name in POLICIES if name != "rollout"]
"""The built-ins the reference engine plays (it cannot search, so not ``rollout``)."""


@policy
def view_hash(decision, view, choices, n_choices, weights, rng):
    """A user policy whose answer depends on every slot of the view and every choice row offered:
    a view or a row that differs between the engines changes the answer, and the game."""
    h = decision + 1
    for i in range(view.shape[0]):
        h = (h * 31 + view[i] + 3) % 1_000_000_007
    for i in range(n_choices):
        for j in range(choices.shape[1]):
            h = (h * 37 + choices[i, j] + 3) % 1_000_000_007
    return (h + randint(rng, n_choices)) % n_choices


VIEW_HASH = Policy("view_hash", view_hash, description="hashes the view and the choices")


@policy
def pays_illegally(decision, view, choices, n_choices, weights, rng):
    """Random, except that it answers a payment one past the last row."""
    if decision == PAYMENT:
        return n_choices
    return randint(rng, n_choices)


# Every primitive with other parameters than the shipped court's, 12 items (a game draws 9).
COURT_FILE = """
provisional = false
[[item]]
id = "pendant"
effect = "pendant_pair"
points = 5
[[item]]
id = "big_acorn"
effect = "bid_bonus"
bonus = 4
[[item]]
id = "small_acorn"
effect = "bid_bonus"
bonus = 1
[[item]]
id = "crown"
effect = "visit_bonus"
bonus = 3
[[item]]
id = "varied"
effect = "points_per_card_type"
cards = ["animal", "goblin"]
points = 2
at_least = 2
[[item]]
id = "seal"
effect = "flat_points"
points = 3
[[item]]
id = "bane"
effect = "ogre_ward"
[[item]]
id = "net"
effect = "net"
[[item]]
id = "broom"
effect = "broom"
[[item]]
id = "trap"
effect = "goblin_trap"
goblins = 5
[[item]]
id = "horn"
effect = "horn_of_recall"
fairies = 1
[[item]]
id = "key"
effect = "druids_key"
"""

# A smaller forest, other fairy values and two Crests at every table.
CARD_FILE = """
[forest]
squirrel = 6
fox = 5
racoon = 4
deer = 3
bear = 2
unicorn = 1
turtle = 3
yellow = 3
white = 3
violet = 2
pink = 2
red = 1
warrior = 1
explorer = 1
fauna = 1
flora = 1
herald = 1
wind = 1
goblin = 9
ogre = 4
lost_half = 1

[majority]
squirrel = 9
fox = 7
racoon = 5
deer = 3
bear = 3
unicorn = 2
turtle = 5

[house]
fairy_values = [1, 1, 2, 3, 5, 8, 13]
crests = 2
crests_two_players = 2
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fairyland")
    court = folder / "court.toml"
    court.write_text(COURT_FILE)
    cards = folder / "cards.toml"
    cards.write_text(CARD_FILE)
    return {"court": court, "cards": cards}


def lineup(players: int, policies: str, offset: int = 0):
    """``policies`` for every seat (a built-in or ``view_hash``), or ``mixed``: the built-ins and
    ``view_hash`` rotated round the seats from ``offset``."""
    names = [*HEURISTICS, "view_hash"]
    chosen = [names[(offset + s) % len(names)] for s in range(players)]
    if policies != "mixed":
        chosen = [policies] * players
    return [VIEW_HASH if name == "view_hash" else name for name in chosen]


# --- Game by game ---------------------------------------------------------------------------------

SEAT_KEYS = (
    "rank",
    "win_share",
    "turn_position",
    "hand_value",
    "auctions_won",
    "fairies_paid",
    "value_paid",
    "queen_visits",
    "druid_visits",
    "crests_used",
    "ogres_gained",
)
GAME_KEYS = (
    "start_seat",
    "turns",
    "auctions",
    "unbid_clearings",
    "court_items",
    "forest_left",
    "druids_left",
    "clearing_cards",
    "box",
    "forest_accounted",
    "court_left",
    "court_accounted",
)
RENAMED = {  # reference key: engine column
    "hand": "hand_mask",
    "played": "played_mask",
    "items_held": "items_held_mask",
    "items_used": "items_used_mask",
}
OWNED_TYPES = [t for t in range(FIRST_FOREST_TYPE, len(CARD_NAMES)) if t != OGRE]


def assert_same_games(setup, games: int, first_game: int = 0) -> None:
    """The jitted engine's games ``first_game ..`` equal the reference engine's, every column."""
    arrays = join_chunks(play_chunks(setup, games, first_game=first_game, chunk_games=1000))
    parts = np.stack([arrays[f"{name}_points"] for name in spec.PART_NAMES], axis=2)
    owned = np.stack([arrays[f"n_{CARD_NAMES[t]}"] for t in OWNED_TYPES], axis=2)
    for g, ref in enumerate(reference.play_games(setup, games, first_game)):
        where = (setup.players, setup.court_name, setup.policy_names, first_game + g)
        assert (2 * arrays["score"][g]).tolist() == ref["score"], where
        assert (2 * parts[g]).tolist() == ref["parts"], where
        for key in SEAT_KEYS:
            assert arrays[key][g].tolist() == ref[key], (*where, key)
        for key, column in RENAMED.items():
            assert arrays[column][g].tolist() == ref[key], (*where, key)
        assert owned[g].tolist() == [[row[t] for t in OWNED_TYPES] for row in ref["collected"]]
        assert all(row[OGRE] == 0 for row in ref["collected"]), where
        for key in GAME_KEYS:
            assert arrays[key][g] == ref[key], (*where, key)


QUICK = [
    (players, policies, court)
    for players in (2, 3, 4)
    for policies, court in (
        ("random", "random"),
        ("greedy", "starred"),
        ("mixed", "none"),
        ("view_hash", "random"),
        ("mixed", "file"),
    )
]


def setup_for(players, policies, court, files, seed, offset=0, cards=None):
    court = files["court"] if court == "file" else court
    return make_setup(
        players=players,
        policies=lineup(players, policies, offset),
        seed=seed,
        court=court,
        cards=cards,
    )


@pytest.mark.parametrize(("players", "policies", "court"), QUICK)
def test_the_engines_play_the_same_games(players, policies, court, files):
    assert_same_games(setup_for(players, policies, court, files, seed=3), 20)


def test_a_variant_card_file_plays_the_same_games(files):
    for players in (2, 4):
        setup = setup_for(players, "mixed", "random", files, seed=4, cards=files["cards"])
        assert_same_games(setup, 20)


def test_a_game_range_plays_the_same_games_in_both_engines(files):
    assert_same_games(setup_for(3, "mixed", "starred", files, seed=5), 10, first_game=123_456)


SLOW = [
    (players, policies, court, offset)
    for players in (2, 3, 4)
    for policies, offset in (
        *((name, 0) for name in HEURISTICS),
        ("view_hash", 0),
        ("mixed", 0),
        ("mixed", 1),
        ("mixed", 2),
    )
    for court in ("random", "starred", "none", "file")
]
SLOW_GAMES = -(-20_000 // len(SLOW))
"""Games per slow case: at least 20,000 in all."""


@pytest.mark.slow
@pytest.mark.parametrize(("players", "policies", "court", "offset"), SLOW)
def test_the_engines_play_the_same_games_at_scale(players, policies, court, offset, files):
    setup = setup_for(players, policies, court, files, seed=11 + offset, offset=offset)
    assert_same_games(setup, SLOW_GAMES, first_game=1000 * offset)


@pytest.mark.slow
def test_a_variant_card_file_plays_the_same_games_at_scale(files):
    for players in (2, 3, 4):
        for offset in range(3):
            setup = setup_for(
                players, "mixed", "file", files, seed=21, offset=offset, cards=files["cards"]
            )
            assert_same_games(setup, 200)


def test_an_illegal_answer_is_reported_for_the_same_game_in_both_engines():
    rogue = Policy("pays_illegally", pays_illegally)
    setup = make_setup(players=3, policies=["random", rogue, "greedy"], seed=2)
    with pytest.raises(IllegalChoiceError) as fast:
        join_chunks(play_chunks(setup, 300))
    with pytest.raises(IllegalChoiceError) as slow:
        reference.play_games(setup, 300)
    assert (fast.value.game, fast.value.seat, fast.value.decision) == (
        slow.value.game,
        slow.value.seat,
        slow.value.decision,
    )
    assert fast.value.decision == DECISIONS[PAYMENT] and fast.value.seat == 1
    assert fast.value.choice == slow.value.choice


# --- Conservation (jitted engine) -----------------------------------------------------------------


def popcounts(masks: np.ndarray) -> np.ndarray:
    return np.array([bin(int(m)).count("1") for m in masks.reshape(-1)]).reshape(masks.shape)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("court", ["random", "starred", "none"])
def test_every_forest_card_and_court_item_is_accounted_for(players, court):
    setup = make_setup(players=players, policies=lineup(players, "mixed"), seed=7, court=court)
    a = join_chunks(play_chunks(setup, 2000))
    total = load_cards().total_forest
    # L1: 84 forest cards, each in the forest, the Druid deck, a clearing, the box or owned
    assert total == 84
    assert (a["forest_accounted"] == total).all()
    owned = sum(a[f"n_{CARD_NAMES[t]}"].astype(np.int64).sum(axis=1) for t in OWNED_TYPES)
    assert (
        a["forest_left"] + a["druids_left"] + a["clearing_cards"] + a["box"] + owned == total
    ).all()
    assert (a["forest_left"] == 0).all() and (a["turns"] == 36).all()  # L10, L18: 72 cards
    # L2: 9 items in the court deck, each in the deck, held or used (and then out of the game)
    assert (popcounts(a["court_items"]) == COURT_DECK_SIZE).all()
    assert (a["court_accounted"] == COURT_DECK_SIZE).all()
    taken = a["items_held_mask"] | a["items_used_mask"]
    assert ((taken & ~a["court_items"][:, None]) == 0).all()
    assert (a["items_held_mask"] & a["items_used_mask"] == 0).all()
    assert (a["items_held"] == popcounts(a["items_held_mask"])).all()
    # every seat's fairies: the 7 house fairies and its special fairies, in hand or played
    fairies = a["hand_mask"] | a["played_mask"]
    assert (fairies & 0x7F == 0x7F).all() and (a["hand_mask"] & a["played_mask"] == 0).all()
    for t in OWNED_TYPES:
        assert (a[f"n_{CARD_NAMES[t]}"] >= 0).all()
    # ranks are a permutation (L12), one winner
    assert (np.sort(a["rank"], axis=1) == np.arange(1, players + 1)).all()
    assert (a["win_share"].sum(axis=1) == 1).all()


def test_the_court_of_no_effect_changes_no_deal_and_scores_no_item():
    """PL9: the same forest, court draws and starting seat as the random court; no item points,
    no bonus (every item is an end-game item worth 0)."""
    setups = {c: make_setup(players=4, policies="random", seed=8, court=c) for c in COURTS[::2]}
    runs = {court: join_chunks(play_chunks(setup, 500)) for court, setup in setups.items()}
    assert (runs["none"]["start_seat"] == runs["random"]["start_seat"]).all()
    assert (runs["none"]["court_items"] == runs["random"]["court_items"]).all()
    assert (runs["none"]["items_points"] == 0).all() and (runs["none"]["items_used"] == 0).all()
    assert (runs["none"]["queen_visits"] > 0).any()
    assert (runs["random"]["items_points"] != 0).any()


def test_the_spec_names_the_rules_columns():
    assert spec.PART_NAMES == PART_NAMES
    assert tuple(CARD_NAMES[t] for t in OWNED_TYPES) == spec.COLLECTED_NAMES


# --- Bad input: one line naming the option or file ------------------------------------------------


@pytest.mark.parametrize(
    ("options", "where"),
    [
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"players": "4"}, "players"),
        ({"policies": "nobody"}, "policies"),
        ({"policies": ["random", "greedy"]}, "policies"),
        ({"court": "everything"}, "court"),
        ({"seed": -1}, "seed"),
    ],
)
def test_bad_options_are_one_line_naming_the_option(options, where):
    with pytest.raises(FairysimError) as error:
        make_setup(**{"players": 4, **options})
    assert error.value.where == where
    assert "\n" not in str(error.value)


EIGHT_ITEMS = "".join(f"[[item]]\nid = 'net_{i}'\neffect = 'net'\n" for i in range(8))


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (EIGHT_ITEMS + "[[item]]\nid = 'a'\neffect = 'magic'\n", "unknown effect 'magic'"),
        (EIGHT_ITEMS + "[[item]]\nid = 'a'\neffect = 'bid_bonus'\n", "needs bonus"),
        (EIGHT_ITEMS + "[[item]]\nid = 'net_1'\neffect = 'net'\n", "duplicate id"),
        (EIGHT_ITEMS, "has 8 items"),
        ("provisional = true\n", "missing [[item]]"),
        ("[[item]\n", "not valid TOML"),
    ],
)
def test_a_malformed_court_file_is_one_line_naming_court_and_the_file(tmp_path, text, says):
    path = tmp_path / "court.toml"
    path.write_text(text)
    with pytest.raises(FairysimError) as error:
        make_setup(players=3, court=str(path))
    assert error.value.where == "court"
    assert str(path) in str(error.value) and says in str(error.value)
    assert "\n" not in str(error.value)


def test_a_malformed_card_file_is_one_line_naming_the_file(tmp_path):
    path = tmp_path / "cards.toml"
    path.write_text(CARD_FILE.replace("goblin = 9", "goblin = -1"))
    with pytest.raises(CardFileError) as error:
        make_setup(players=3, cards=path)
    assert str(path) in str(error.value) and "goblin" in str(error.value)
    assert "\n" not in str(error.value)
