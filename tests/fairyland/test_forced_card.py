"""The card-effect intervention (ruling PL10): one seat starts the game with a card.

After the whole setup, a forest card is the bottommost of its type in the forest deck (the deck
then gives out the same cards but that one) and goes in front of the seat, a special fairy into
its hand; a court item is held from the first turn, the first item the court shuffle left out
taking its place in the court deck when the deck held it. The tests check the moves on
constructed decks, that nothing else of a setup changes, that the jitted engine plays the
forced games exactly as the reference engine, and the one-line refusals.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import join_chunks
from fairysim.sim.fairyland import effect_cards, effect_held, engine, make_setup, play_chunks
from fairysim.sim.fairyland import reference as ref
from fairysim.sim.fairyland.rules import (
    CARD_NAMES,
    COURT_DECK_SIZE,
    FIRST_FOREST_TYPE,
    GOBLIN,
    LOST_HALF,
    N_CARD_TYPES,
    OGRE,
    SQUIRREL,
    WARRIOR,
    WIND,
    YELLOW,
    card_type,
)
from fairysim.sim.fairyland.setup import FORCED_COLUMNS

from .test_reference_equivalence import assert_same_games, lineup

pytestmark = pytest.mark.filterwarnings("ignore:First-class function type feature is experimental")


def seat_state(player) -> tuple:
    """What a seat holds: its hand, played fairies, cards in front of it, items and Crests."""
    return (player.hand, player.played, player.collected, player.items, player.crests)


def item(setup, item_id: str) -> int:
    """The forced-card id of court item ``item_id`` (``N_CARD_TYPES + i``)."""
    return N_CARD_TYPES + setup.court.ids.index(item_id)


# --- The moves on constructed decks -----------------------------------------------------------


def take(which, deck: list[int], card: int) -> tuple[bool, list[int]]:
    if which == "reference":
        deck = list(deck)
        return ref.take_forced_card(deck, card), deck
    arr = np.array([*deck, -7, -7], np.int64)  # slots past the deck stay untouched
    left = engine.take_forced_card(arr, len(deck), card)
    assert arr[-2:].tolist() == [-7, -7]
    return left >= 0, arr[: len(deck) - (left >= 0)].tolist()


@pytest.mark.parametrize("which", ["reference", "engine"])
def test_the_bottommost_card_of_the_type_leaves_the_forest_deck(which):
    deck = [GOBLIN, SQUIRREL, YELLOW, SQUIRREL, WIND]  # bottom first, the Wind on top
    done, after = take(which, deck, SQUIRREL)
    assert done and after == [GOBLIN, YELLOW, SQUIRREL, WIND]  # the same order, one fewer
    done, after = take(which, deck, WIND)
    assert done and after == [GOBLIN, SQUIRREL, YELLOW, SQUIRREL]
    assert take(which, deck, WARRIOR) == (False, deck)  # none in the deck: nothing moves
    assert take(which, [WARRIOR], WARRIOR) == (False, [WARRIOR])  # the deck's only card stays


@pytest.mark.parametrize("which", ["reference", "engine"])
def test_a_court_item_takes_the_first_item_left_out_of_the_deck(which):
    court_all = list(range(12))  # shuffled order; the deck is the last 9, top last
    deck = court_all[-COURT_DECK_SIZE:]

    def force(items: list[int], chosen: int):
        court = items[-COURT_DECK_SIZE:]
        if which == "reference":
            court = list(court)
            done, placed = ref.force_court_item(court, list(items), chosen)
            return done, -1 if placed is None else placed, court
        arr = np.array(court, np.int64)
        done, placed = engine.force_court_item(arr, np.array(items, np.int64), len(items), chosen)
        return bool(done), int(placed), arr.tolist()

    done, placed, court = force(court_all, 5)  # in the deck: item 2 takes its place
    assert (done, placed) == (True, 2)
    assert court == [3, 4, 2, 6, 7, 8, 9, 10, 11]
    assert force(court_all, 1) == (True, -1, deck)  # from the box: the deck is as drawn
    nine = list(range(9))
    assert force(nine, 4) == (False, -1, nine)  # a court of 9 items has none left out


# --- Only the seat's reach changes ------------------------------------------------------------


@pytest.mark.parametrize("card", [SQUIRREL, YELLOW, WARRIOR, GOBLIN, LOST_HALF])
def test_only_the_forced_seat_and_the_forest_deck_change(card):
    base = make_setup(players=4, policies="greedy", seed=11)
    forced_setup = make_setup(
        players=4, policies="greedy", seed=11, forced_card=card, forced_seat=2
    )
    made = 0
    for game in range(40):
        plain, forced = ref.setup_game(base, game), ref.setup_game(forced_setup, game)
        assert forced.start_seat == plain.start_seat
        assert forced.druids == plain.druids and forced.clearings == plain.clearings
        assert forced.court == plain.court and forced.in_game == plain.in_game
        for seat in (0, 1, 3):
            assert seat_state(forced.players[seat]) == seat_state(plain.players[seat])
        held, done = forced.forced
        assert held == 0
        seat, before = forced.players[2], plain.players[2]
        if not done:
            assert forced.forest == plain.forest and seat_state(seat) == seat_state(before)
            assert card not in plain.forest or len(plain.forest) < 2
            continue
        made += 1
        expected = list(plain.forest)
        expected.remove(card)
        assert forced.forest == expected
        if card == WARRIOR:
            assert seat.hand == before.hand | {WARRIOR} and seat.collected == before.collected
        else:
            assert seat.collected == before.collected + Counter({card: 1})
            assert seat.hand == before.hand
    assert made >= 28  # the single cards sit in the Druid deck or a clearing in 1 game of 7


def test_a_forced_item_is_held_and_the_court_keeps_nine_items():
    base = make_setup(players=3, policies="greedy", seed=2)
    crown = item(base, "moonlit_crown")
    forced_setup = make_setup(players=3, policies="greedy", seed=2, forced_card=crown)
    in_deck = 0
    for game in range(40):
        plain, forced = ref.setup_game(base, game), ref.setup_game(forced_setup, game)
        chosen = crown - N_CARD_TYPES
        assert forced.forced == (0, 1)
        assert forced.players[0].items == [chosen]
        assert forced.forest == plain.forest and len(forced.court) == COURT_DECK_SIZE
        changed = [
            j for j, (a, b) in enumerate(zip(forced.court, plain.court, strict=True)) if a != b
        ]
        if chosen in plain.court:
            in_deck += 1
            assert len(changed) == 1 and plain.court[changed[0]] == chosen
            assert forced.court[changed[0]] not in plain.court
        else:
            assert changed == []
        assert set(forced.in_game) == set(plain.in_game) | set(forced.court) | {chosen}
    assert 0 < in_deck < 40


# --- The engines agree under forcing ----------------------------------------------------------


FORCED_CASES = [
    (players, policies, card)
    for players, policies in ((2, "random"), (3, "greedy"), (4, "mixed"), (3, "value-bidder"))
    for card in ("squirrel", "pink", "herald", "wind", "goblin", "lost_half", "silver_acorn")
]


@pytest.mark.parametrize(("players", "policies", "card"), FORCED_CASES)
def test_forced_games_match_the_reference(players, policies, card):
    base = make_setup(players=players, policies=lineup(players, policies), seed=4)
    forced = card_type(card) if card in CARD_NAMES else item(base, card)
    setup = make_setup(
        players=players,
        policies=lineup(players, policies),
        seed=4,
        forced_card=forced,
        forced_seat=players - 1,
    )
    assert_same_games(setup, 12)
    fast = join_chunks(play_chunks(setup, 12))
    slow = ref.play_games(setup, 12)
    for name in FORCED_COLUMNS:
        assert fast[name].tolist() == [g[name] for g in slow], name
    assert fast["forced_exchanged"].sum() >= 6


def test_every_usable_and_permanent_item_forced_plays_the_same_games():
    base = make_setup(players=3, policies=lineup(3, "mixed"), seed=6)
    for i in range(base.court.n_items):
        setup = make_setup(
            players=3,
            policies=lineup(3, "mixed"),
            seed=6,
            forced_card=N_CARD_TYPES + i,
            forced_seat=i % 3,
        )
        assert_same_games(setup, 3)


def test_forced_runs_account_for_every_card():
    for card in (SQUIRREL, WIND, N_CARD_TYPES + 3):
        setup = make_setup(players=4, policies=lineup(4, "mixed"), seed=7, forced_card=card)
        a = join_chunks(play_chunks(setup, 300))
        assert (a["forest_accounted"] == 84).all()
        held = [bin(int(m)).count("1") for m in a["court_items"]]
        assert (a["court_accounted"] == np.array(held)).all()


def test_forcing_nothing_leaves_the_run_as_it_was():
    plain = join_chunks(play_chunks(make_setup(players=3, seed=9), 50))
    assert not set(FORCED_COLUMNS) & set(plain)
    assert (plain["forest_accounted"] == 84).all()


# --- What a study forces, and the refusals ----------------------------------------------------


def test_effect_cards_are_the_forest_types_but_the_ogre_and_every_court_item():
    setup = make_setup()
    cards = effect_cards(setup)
    forest = [c for c, _ in cards if c < N_CARD_TYPES]
    assert forest == [c for c in range(FIRST_FOREST_TYPE, N_CARD_TYPES) if c != OGRE]
    assert [c for c, _ in cards if c >= N_CARD_TYPES] == [
        N_CARD_TYPES + i for i in range(setup.court.n_items)
    ]
    labels = dict(cards)
    assert labels[SQUIRREL] == "Squirrel" and labels[YELLOW] == "Yellow flower"
    assert labels[N_CARD_TYPES] == setup.court.names[0]
    assert len(cards) == 20 + 19


def test_effect_held_reads_the_cards_owned_at_the_end():
    setup = make_setup(players=2, seed=3)
    a = join_chunks(play_chunks(setup, 30))
    assert effect_held(setup, a, SQUIRREL, 1).tolist() == a["n_squirrel"][:, 1].tolist()
    owned = (a["items_held_mask"][:, 0] | a["items_used_mask"][:, 0]) & (1 << 4)
    assert effect_held(setup, a, N_CARD_TYPES + 4, 0).tolist() == (owned > 0).astype(int).tolist()


@pytest.mark.parametrize(
    ("options", "where"),
    [
        ({"forced_card": OGRE}, "forced_card"),
        ({"forced_card": 3}, "forced_card"),  # a house fairy
        ({"forced_card": N_CARD_TYPES + 19}, "forced_card"),  # the court holds 19 items
        ({"forced_card": -1}, "forced_card"),
        ({"forced_card": SQUIRREL, "forced_seat": 3}, "forced_seat"),
        ({"forced_seat": -1}, "forced_seat"),
    ],
)
def test_bad_interventions_are_named(options, where):
    with pytest.raises(FairysimError) as info:
        make_setup(players=3, **options)
    assert info.value.where == where
