"""The card-removal intervention (ruling PL12): a forest card type taken out of every game.

The forest is shuffled as shipped and every card of the type then leaves it, the others closing
up in their order, before the Druid deck and the clearings are dealt: the court, the starting
seat and every policy's stream are the baseline's, and the cards both decks share come out in
the same order. The tests check the move on a constructed deck, what stays paired, that the
jitted engine plays the removal games exactly as the reference engine, the card accounting and
the one-line refusals.
"""

from __future__ import annotations

import numpy as np
import pytest

from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import join_chunks
from fairysim.sim.fairyland import engine, make_setup, play_chunks, removal_variants
from fairysim.sim.fairyland import reference as ref
from fairysim.sim.fairyland.rules import GOBLIN, OGRE, SQUIRREL, WARRIOR, WIND

from .test_reference_equivalence import assert_same_games, lineup

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")


@pytest.mark.parametrize("which", ["reference", "engine"])
def test_every_card_of_the_type_leaves_and_the_rest_keep_their_order(which):
    deck = [OGRE, SQUIRREL, OGRE, GOBLIN, WIND, OGRE]  # bottom first
    if which == "reference":
        after = ref.remove_card_type(list(deck), OGRE)
    else:
        arr = np.array(deck, np.int64)
        after = arr[: engine.remove_card_type(arr, len(deck), OGRE)].tolist()
    assert after == [SQUIRREL, GOBLIN, WIND]
    assert ref.remove_card_type(list(deck), WARRIOR) == deck  # no such card: nothing moves


def shared_order(state) -> list[int]:
    """The forest cards in the order they come out: the Druid deck top first, the clearings,
    then the forest deck top first (top last in the lists)."""
    clearings = [card for c in state.clearings for card in c.elements()]
    return [*state.druids[::-1], *clearings, *state.forest[::-1]]


@pytest.mark.parametrize("card", [OGRE, GOBLIN])
def test_a_removal_keeps_the_court_the_start_and_the_shared_cards_order(card):
    base = make_setup(players=3, policies="greedy", seed=12)
    removed = make_setup(players=3, policies="greedy", seed=12, removed_card=card)
    for game in range(30):
        plain, without = ref.setup_game(base, game), ref.setup_game(removed, game)
        assert without.start_seat == plain.start_seat
        assert without.court == plain.court and without.in_game == plain.in_game
        assert card not in shared_order(without)
        assert shared_order(without) == [c for c in shared_order(plain) if c != card]


REMOVAL_CASES = [
    (players, policies, card)
    for players, policies in ((2, "random"), (3, "greedy"), (4, "mixed"), (3, "value-bidder"))
    for card in ("ogre", "goblin", "squirrel")
]


@pytest.mark.parametrize(("players", "policies", "card"), REMOVAL_CASES)
def test_removal_games_match_the_reference(players, policies, card):
    from fairysim.sim.fairyland.rules import card_type

    setup = make_setup(
        players=players, policies=lineup(players, policies), seed=5, removed_card=card_type(card)
    )
    assert_same_games(setup, 12)


def test_removal_runs_account_for_every_card_left():
    base = make_setup(players=4, policies=lineup(4, "mixed"), seed=7)
    for card in (OGRE, GOBLIN):
        setup = make_setup(players=4, policies=lineup(4, "mixed"), seed=7, removed_card=card)
        a = join_chunks(play_chunks(setup, 300))
        assert (a["forest_accounted"] == 84 - base.cards.forest[card]).all()
        if card == OGRE:
            assert (a["ogres_gained"] == 0).all()
        assert (a["n_goblin"] == 0).all() if card == GOBLIN else (a["n_goblin"] > 0).any()


def test_removing_nothing_plays_the_ordinary_games():
    plain = join_chunks(play_chunks(make_setup(players=3, seed=9), 40))
    again = join_chunks(play_chunks(make_setup(players=3, seed=9, removed_card=0), 40))
    for name in ("score", "win_share", "turns", "start_seat"):
        assert np.array_equal(plain[name], again[name]), name


def test_removal_variants_are_the_evil_types():
    assert removal_variants(make_setup()) == [
        ("Ogres", {"removed_card": OGRE}),
        ("Goblins", {"removed_card": GOBLIN}),
    ]


@pytest.mark.parametrize(
    "options",
    [
        {"removed_card": 3},  # a house fairy
        {"removed_card": -2},
        {"removed_card": OGRE, "forced_card": SQUIRREL},
    ],
)
def test_bad_removals_are_named(options):
    with pytest.raises(FairysimError) as info:
        make_setup(players=3, **options)
    assert info.value.where == "removed_card"
