"""Rulings L1-L18 (RULINGS.md) and PL1 (docs/rulings.md), each on a constructed case in the
reference engine. Scoring rulings are checked in the scoring kernel too (test_rules.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from fairysim.sim.fairyland import reference as ref
from fairysim.sim.fairyland.reference import play_game, setup_game
from fairysim.sim.fairyland.rules import (
    ACT_CREST,
    ACT_DRUIDS,
    ACT_EXPLORE,
    ACT_ITEM,
    ACT_QUEEN,
    BID,
    BROOM_SWEEP,
    CLEARINGS,
    DAWN,
    DAY,
    DRUID_FAIRIES,
    DRUID_PICK,
    EXPLORER,
    FAIRY_1,
    FAIRY_2,
    FAIRY_3,
    FAIRY_4,
    FAIRY_5,
    FAIRY_6,
    FAIRY_7,
    FAUNA,
    FLORA,
    HALF,
    HERALD,
    HORN_RECALL,
    HOUSE_FAIRIES,
    ITEM_UNSEEN,
    ITEM_USED,
    N_CARD_TYPES,
    NET_TAKE,
    NO_ARG,
    NO_CARD,
    NO_CLEARING,
    OGRE_VICTIMS,
    PASS,
    PAYMENT,
    QUEEN_FAIRIES,
    QUEEN_PICK,
    V_BID_BONUS,
    V_ITEM_STATE,
    WARRIOR,
    WIND,
)
from fairysim.sim.fairyland.setup import make_setup
from fairysim.sim.rng import DEAL_STREAM, lay_out_counts, new_stream, randint, shuffle_prefix

from . import CARDS, ITEM, Script, counter, make_state, types

SQUIRREL, FOX, RACOON, DEER, BEAR, UNICORN, TURTLE = types(
    "squirrel", "fox", "racoon", "deer", "bear", "unicorn", "turtle"
)
YELLOW, WHITE, VIOLET, PINK, RED, GOBLIN, OGRE, LOST_HALF = types(
    "yellow", "white", "violet", "pink", "red", "goblin", "ogre", "lost_half"
)


def mask(*fairies: int) -> int:
    return sum(1 << f for f in fairies)


def bids_offered(script: Script) -> list[list[int]]:
    return [[row[0] for row in rows] for rows in script.offered("bid")]


# --- L1, L2: the forest and setup ---------------------------------------------------------------


@pytest.mark.parametrize(("players", "crests"), [(2, 2), (3, 1), (4, 1)])
def test_l1_l2_setup(players, crests):
    setup = make_setup(players=players, policies="random", seed=5)
    state = setup_game(setup, 3)
    everything = Counter(state.forest) + Counter(state.druids)
    for clearing in state.clearings:
        assert clearing.total() == 1  # one card in each clearing (L2)
        everything += clearing
    expected = {t: int(CARDS.forest[t]) for t in range(N_CARD_TYPES) if CARDS.forest[t]}
    assert everything == expected and everything.total() == 84  # L1
    assert len(state.druids) == 9 and len(state.forest) == 72
    assert len(state.court) == 9 and len(set(state.court)) == 9  # 9 of the 19 items
    for player in state.players:
        assert player.hand == set(HOUSE_FAIRIES) and player.crests == crests
    # the Druid deck is the top 9 of the shuffled forest, in order; then one card a clearing
    rng = new_stream(5, 3, DEAL_STREAM)
    deck = lay_out_counts(CARDS.forest)
    shuffle_prefix(rng, deck, len(deck))
    assert state.druids == [int(x) for x in deck[-9:]]
    assert [next(iter(c)) for c in state.clearings] == [int(x) for x in deck[-10:-13:-1]]
    assert state.forest == [int(x) for x in deck[:72]]


def test_l2_court_draws_differ_between_games_and_starred_plays_the_starred_items():
    setup = make_setup(players=4, policies="random", seed=1)
    courts = {tuple(sorted(setup_game(setup, g).court)) for g in range(20)}
    assert len(courts) > 15
    assert all(len(c) == 9 for c in courts)
    starred = make_setup(players=4, policies="random", seed=1, court="starred")
    for g in range(5):
        state = setup_game(starred, g)
        assert sorted(state.court) == list(range(9))  # every starred item, shuffled
    orders = {tuple(setup_game(starred, g).court) for g in range(10)}
    assert len(orders) > 1


def test_l18_start_seat_is_drawn_after_the_shuffles():
    setup = make_setup(players=3, policies="random", seed=8)
    starts = [setup_game(setup, g).start_seat for g in range(300)]
    assert sorted(set(starts)) == [0, 1, 2]
    assert all(60 < starts.count(s) < 140 for s in range(3))
    for g in range(5):
        rng = new_stream(8, g, DEAL_STREAM)
        shuffle_prefix(rng, lay_out_counts(CARDS.forest), 84)
        shuffle_prefix(rng, lay_out_counts(CARDS.forest)[:19], 19)
        assert setup_game(setup, g).start_seat == randint(rng, 3)


def test_l2_forest_does_not_depend_on_players_or_court():
    """Common random numbers: the forest is shuffled first (module docstring)."""
    a = setup_game(make_setup(players=2, policies="random", seed=4), 7)
    b = setup_game(make_setup(players=4, policies="random", seed=4, court="starred"), 7)
    assert a.forest == b.forest and a.druids == b.druids


# --- L3: Dawn -----------------------------------------------------------------------------------


def dawn_rows(clearings, first, second=None):
    forest = [first] if second is None else [second, first]
    script = Script((DAWN, lambda rows: 0))
    state = make_state(3, policies=[script, None, None], clearings=clearings, forest=forest)
    ref.dawn(state, state.players[0])
    offered = script.offered("dawn")
    return [row[:2] for row in offered[0]] if offered else None, state


def test_l3_two_evil_cards_first_to_fewest_second_to_fewest_of_the_other_two():
    clearings = [counter(goblin=1), counter(squirrel=1), counter(goblin=2)]
    rows, state = dawn_rows(clearings, GOBLIN, OGRE)
    # the first must go to clearing 1 (0 evil); the second to the fewest of {0, 2}: clearing 0
    assert rows is None  # a single legal placement is not offered (PL1)
    assert state.clearings[1][GOBLIN] == 1 and state.clearings[0][OGRE] == 1
    clearings = [counter(fox=1), counter(squirrel=1), counter(goblin=1)]
    rows, _ = dawn_rows(clearings, OGRE, GOBLIN)
    assert rows == [(0, 1), (1, 0)]  # both to the two clean clearings, either way round


def test_l3_plain_cards_go_anywhere_but_not_together():
    rows, _ = dawn_rows([counter(goblin=1)] * 3, SQUIRREL, YELLOW)
    assert rows == [(a, b) for a in range(3) for b in range(3) if a != b]


def test_l3_evil_card_drawn_first_and_a_tie_for_fewest():
    rows, _ = dawn_rows([counter(goblin=1), counter(fox=1), counter(deer=1)], GOBLIN, FOX)
    assert rows == [(1, 0), (1, 2), (2, 0), (2, 1)]


def test_l3_one_card_left():
    script = Script((DAWN, (2, NO_CLEARING)))
    state = make_state(
        3,
        policies=[script, None, None],
        clearings=[counter(goblin=1), counter(fox=1), counter(deer=1)],
        forest=[OGRE],
    )
    ref.dawn(state, state.players[0])
    assert script.offered("dawn") == [[(1, NO_CLEARING, 0), (2, NO_CLEARING, 0)]]
    assert state.clearings[2][OGRE] == 1 and state.forest == []
    assert state.dawn_cards == (NO_CARD, NO_CARD)


# --- L4, L16: Day actions -----------------------------------------------------------------------


def actions(state, seat=0):
    return ref.legal_actions(state, state.players[seat])


def test_l4_l16_legal_actions():
    state = make_state(3, druids=[FOX], court=["broom"], items=[["fairy_net", "queens_favour"]])
    explores = [(ACT_EXPLORE, c) for c in range(CLEARINGS)]
    # every clearing empty: the Net does nothing (L16); exploring is always legal
    assert actions(state) == [*explores, (ACT_QUEEN, NO_ARG), (ACT_DRUIDS, NO_ARG)]
    state.clearings[1][FOX] += 1
    state.players[0].played.add(FAIRY_1)
    assert actions(state) == [
        *explores,
        (ACT_QUEEN, NO_ARG),
        (ACT_DRUIDS, NO_ARG),
        (ACT_CREST, NO_ARG),
        (ACT_ITEM, ITEM["fairy_net"]),
    ]
    state.players[0].hand = set()  # no fairy in hand: no Queen, no Druids (L16)
    state.court, state.druids = [], []
    assert actions(state) == [*explores, (ACT_CREST, NO_ARG), (ACT_ITEM, ITEM["fairy_net"])]


@pytest.mark.parametrize(
    ("item", "setup_legal"),
    [
        ("broom", lambda s: s.clearings[0].update({FOX: 1})),
        ("goblin_trap", lambda s: s.players[0].collected.update({GOBLIN: 1})),
        ("horn_of_recall", lambda s: s.players[0].played.add(FAIRY_2)),
        ("druids_key", lambda s: s.druids.append(FOX)),
    ],
)
def test_l16_usable_items_need_an_effect(item, setup_legal):
    state = make_state(3, items=[[item]])
    assert (ACT_ITEM, ITEM[item]) not in actions(state)
    setup_legal(state)
    assert (ACT_ITEM, ITEM[item]) in actions(state)


def test_l16_exploring_an_empty_clearing_asks_nobody_and_changes_nothing():
    state = make_state(3, clearings=[counter(), counter(fox=1)])
    ref.explore(state, state.players[0], 0)  # never_asked policies would fail
    assert state.auctions == 0 and state.clearings[1] == counter(fox=1)


# --- L5, L14, L15: auctions ---------------------------------------------------------------------


def test_l5_bids_go_round_from_the_left_the_explorer_last_each_above_the_high_bid():
    s0 = Script((BID, (5,)), (PAYMENT, (mask(FAIRY_5),)))
    s1 = Script((BID, (PASS,)))
    s2 = Script((BID, (PASS,)))
    state = make_state(3, policies=[s0, s1, s2], active=2, clearings=[counter(fox=1)])
    ref.explore(state, state.players[2], 0)  # seat 2 explores: seat 0 bids first, seat 2 last
    assert bids_offered(s0)[0] == [PASS, *range(1, 29)]
    assert bids_offered(s1)[0] == [PASS, *range(6, 29)]
    assert bids_offered(s2)[0] == [PASS, *range(6, 29)]
    assert s0.done and s1.done and s2.done
    assert state.players[0].collected == counter(fox=1) and state.players[0].auctions_won == 1
    assert state.players[0].played == {FAIRY_5}


def test_l5_nobody_bids_the_clearing_is_discarded():
    passer = [Script((BID, (PASS,))) for _ in range(3)]
    state = make_state(3, policies=passer, clearings=[counter(fox=2, goblin=1)])
    ref.explore(state, state.players[0], 0)
    assert state.clearings[0] == counter() and state.box == counter(fox=2, goblin=1)
    assert all(p.played == set() for p in state.players)


def test_l5_a_seat_that_cannot_outbid_is_not_asked():
    s0 = Script((BID, (5,)), (PAYMENT, (mask(FAIRY_5),)))
    s2 = Script((BID, (PASS,)))
    hands = [set(HOUSE_FAIRIES), {FAIRY_1, FAIRY_2}, set(HOUSE_FAIRIES)]  # seat 1 reaches 3
    state = make_state(3, policies=[s0, Script(), s2], hands=hands, clearings=[counter(fox=1)])
    ref.explore(state, state.players[2], 0)
    assert state.players[1].policy.offers == [] and s0.done and s2.done


@pytest.mark.parametrize(
    ("clearing", "fairy", "value"),
    [
        (counter(fox=1, yellow=1, goblin=2), EXPLORER, 4),  # the cards in the clearing
        (counter(fox=1), EXPLORER, 1),
        (counter(fox=1, deer=1), FAUNA, 3),  # 2 animals
        (counter(fox=1, yellow=1), FAUNA, 1),
        (counter(yellow=1, pink=1), FLORA, 4),  # 2 flowers
        (counter(yellow=1, fox=3), FLORA, 1),
        (counter(yellow=2), HERALD, 1),  # 5 only for the Queen and the Druids
        (counter(yellow=2), WARRIOR, 1),
        (counter(yellow=2), WIND, 1),
    ],
)
def test_l5_special_fairy_values_when_exploring(clearing, fairy, value):
    state = make_state(3)
    assert ref.explore_value(state, fairy, clearing) == value
    bidder = Script((BID, lambda rows: 0))
    state = make_state(3, policies=[None, bidder, None], hands=[set(), {fairy}, set()])
    state.clearings[0] = Counter(clearing)
    ref.explore(state, state.players[0], 0)
    if value > 1:
        assert bids_offered(bidder) == [[PASS, *range(1, value + 1)]]


def test_l5_herald_is_worth_5_for_the_queen_and_the_druids():
    state = make_state(3)
    assert ref.visit_value(state, HERALD) == 5
    assert ref.visit_value(state, FAUNA) == 1 and ref.visit_value(state, FAIRY_4) == 4


def test_l14_bid_bonus_raises_what_a_seat_can_bid():
    s1 = Script((BID, (2,)))  # {fairy 1} + 1 is the only payment of 2: not offered (PL1)
    state = make_state(
        2,
        policies=[Script(), s1],
        hands=[set(), {FAIRY_1}],
        items=[[], ["silver_acorn"]],
        active=1,
        clearings=[counter(fox=1)],
    )
    ref.explore(state, state.players[1], 0)
    assert state.players[0].policy.offers == []  # no fairy, no bonus: nothing to bid
    assert bids_offered(s1) == [[PASS, 1, 2]]  # hand 1 + Silver Acorn 1
    assert state.players[1].collected[FOX] == 1 and state.players[1].played == {FAIRY_1}


def test_l14_bonus_alone_covers_the_bid_then_no_card_is_played():
    s0 = Script((BID, (2,)), (PAYMENT, (0,)))
    state = make_state(
        2,
        policies=[s0, Script()],
        hands=[{FAIRY_1}, set()],
        items=[["golden_acorn"], []],
        active=0,
        clearings=[counter(fox=1)],
    )
    ref.explore(state, state.players[0], 0)
    assert bids_offered(s0) == [[PASS, 1, 2, 3]]  # 1 + Golden Acorn 2
    assert s0.offered("payment") == [[(0, 0, 0), (mask(FAIRY_1), 1, 0)]]
    assert state.players[0].hand == {FAIRY_1} and state.players[0].played == set()


def test_l18_acorns_stack():
    state = make_state(2, items=[["silver_acorn", "golden_acorn"], []])
    assert ref.bid_bonus(state, state.players[0]) == 3
    view = ref.seat_view(state, state.players[1])
    assert view[V_BID_BONUS] == 3 and view[V_BID_BONUS + 1] == 0


def explore_and_pay(hand, payment, clearing, players=2):
    seat = Script((BID, (sum(ref.explore_value(make_state(2), f, clearing) for f in payment),)))
    seat.answers.append((PAYMENT, (mask(*payment),)))
    state = make_state(
        players,
        policies=[seat] + [Script((BID, (PASS,)))] * (players - 1),
        hands=[set(hand)] + [set()] * (players - 1),
        clearings=[Counter(clearing)],
    )
    for other in state.players[1:]:
        other.policy = Script()
    ref.explore(state, state.players[0], 0)
    return state.players[0], state


def test_l15_wind_returns_when_the_hand_then_holds_3_cards_or_fewer():
    player, _ = explore_and_pay(
        {WIND, FAIRY_1, FAIRY_2, FAIRY_3, FAIRY_5}, [WIND, FAIRY_5], counter(fox=1)
    )
    assert WIND in player.hand and player.played == {FAIRY_5}  # 3 cards left: back
    player, _ = explore_and_pay(
        {WIND, FAIRY_1, FAIRY_2, FAIRY_3, FAIRY_4, FAIRY_5}, [WIND, FAIRY_5], counter(fox=1)
    )
    assert WIND not in player.hand and player.played == {WIND, FAIRY_5}  # 4 left: stays played


def test_l18_wind_is_checked_before_a_fairy_gained_joins_the_hand():
    player, _ = explore_and_pay(
        {WIND, FAIRY_1, FAIRY_2, FAIRY_3, FAIRY_5}, [WIND, FAIRY_5], counter(fox=1, herald=1)
    )
    assert player.hand == {WIND, FAIRY_1, FAIRY_2, FAIRY_3, HERALD}


def test_l15_warrior_chases_the_goblins_and_ogres_away():
    clearing = counter(fox=1, goblin=2, ogre=1)
    player, state = explore_and_pay({WARRIOR, FAIRY_2}, [WARRIOR], clearing)
    assert player.collected == counter(fox=1)
    assert state.box == counter(goblin=2, ogre=1)


def test_l18_explorer_value_is_read_before_the_warrior_removes_evil():
    clearing = counter(fox=1, goblin=2, ogre=1)  # 4 cards: the Explorer is worth 4
    player, _ = explore_and_pay({WARRIOR, EXPLORER}, [WARRIOR, EXPLORER], clearing)
    assert player.value_paid == 5 and player.collected == counter(fox=1)


# --- L6, L18: ogres -----------------------------------------------------------------------------


def ogre_state(collected, items=(), script=None):
    script = script or Script()
    state = make_state(2, policies=[script, None], collected=[collected, counter()], items=[items])
    return state, state.players[0], script


def test_l6_ogre_with_no_animal_or_flower_does_nothing_else():
    state, player, script = ogre_state(counter(goblin=2, lost_half=1))
    ref.resolve_ogre(state, player)
    assert player.collected == counter(goblin=2, lost_half=1) and state.box == counter(ogre=1)
    assert script.offers == []


def test_l6_ogre_with_one_card_takes_it():
    state, player, _ = ogre_state(counter(fox=1, goblin=1))
    ref.resolve_ogre(state, player)
    assert player.collected == counter(goblin=1) and state.box == counter(ogre=1, fox=1)


def test_l6_ogre_with_two_cards_takes_both_unasked():
    state, player, script = ogre_state(counter(fox=1, yellow=1))
    ref.resolve_ogre(state, player)
    assert player.collected == counter() and script.offers == []


def test_l6_ogre_with_more_cards_offers_the_distinct_pairs():
    script = Script((OGRE_VICTIMS, (FOX, YELLOW)))
    state, player, _ = ogre_state(counter(fox=2, yellow=1, goblin=1), script=script)
    ref.resolve_ogre(state, player)
    assert script.offered("ogre_victims") == [[(FOX, FOX, 0), (FOX, YELLOW, 0)]]
    assert player.collected == counter(fox=1, goblin=1)
    assert state.box == counter(ogre=1, fox=1, yellow=1)


def test_l6_ogre_bane_discards_the_ogre_alone():
    state, player, _ = ogre_state(counter(fox=3, yellow=1), items=["ogre_bane"])
    ref.resolve_ogre(state, player)
    assert player.collected == counter(fox=3, yellow=1) and state.box == counter(ogre=1)


def test_l18_two_ogres_two_choices_victims_may_come_from_the_clearing():
    s0 = Script(
        (BID, (1,)),  # paid with fairy 1, the only payment: not offered
        (OGRE_VICTIMS, (DEER, DEER)),  # the two deer just taken
        (OGRE_VICTIMS, (FOX, YELLOW)),
    )
    state = make_state(
        2,
        policies=[s0, Script((BID, (PASS,)))],
        hands=[{FAIRY_1}, set()],
        collected=[counter(fox=2, yellow=1), counter()],
        clearings=[counter(deer=2, ogre=2)],
    )
    state.players[1].policy = Script()
    ref.explore(state, state.players[0], 0)
    assert s0.done
    assert s0.offered("ogre_victims")[0] == [
        (FOX, FOX, 0),
        (FOX, DEER, 0),
        (FOX, YELLOW, 0),
        (DEER, DEER, 0),
        (DEER, YELLOW, 0),
    ]
    assert state.players[0].collected == counter(fox=1)
    assert state.box == counter(ogre=2, deer=2, fox=1, yellow=1)


# --- L7, L17, L18: the Queen and the Druids -----------------------------------------------------


def test_l7_queen_visit_of_value_1_shows_nothing_but_plays_the_fairy():
    script = Script((QUEEN_FAIRIES, (mask(FAIRY_1),)))
    state = make_state(
        2, policies=[script, None], hands=[{FAIRY_1, FAIRY_2}, set()], court=["broom", "garland"]
    )
    ref.visit_queen(state, state.players[0])
    assert script.offered("queen_fairies") == [
        [(mask(FAIRY_1), 1, 0), (mask(FAIRY_2), 2, 1), (mask(FAIRY_1, FAIRY_2), 3, 2)]
    ]
    assert state.players[0].played == {FAIRY_1} and state.players[0].items == []
    assert state.court == [ITEM["broom"], ITEM["garland"]]


def test_l7_queen_visit_larger_than_the_deck_shows_every_item():
    court = ["broom", "garland", "royal_seal"]  # bottom first: the Royal Seal is on top
    script = Script((QUEEN_FAIRIES, (mask(FAIRY_7),)), (QUEEN_PICK, (ITEM["garland"],)))
    state = make_state(2, policies=[script, None], court=court)
    ref.visit_queen(state, state.players[0])
    assert script.offered("queen_fairies")[0][-1] == (127, 28, 3)  # 28 - 1 capped at 3 items
    assert script.offered("queen_pick") == [[(ITEM[i], 0, 0) for i in sorted(court, key=ITEM.get)]]
    assert state.players[0].items == [ITEM["garland"]]
    # seen top first: Royal Seal, Garland, Broom; the others go under in the order seen, so the
    # first seen is drawn first again (L18)
    assert state.court == [ITEM["broom"], ITEM["royal_seal"]]
    view = ref.seat_view(state, state.players[1])
    assert view[V_ITEM_STATE + ITEM["garland"]] == 0
    assert view[V_ITEM_STATE + ITEM["broom"]] == ITEM_UNSEEN


def test_l18_cards_not_kept_go_to_the_bottom_in_the_order_seen():
    druids = [SQUIRREL, BEAR, FOX, DEER, UNICORN]  # the Unicorn on top
    script = Script((DRUID_FAIRIES, (mask(FAIRY_4),)), (DRUID_PICK, (FOX,)))
    state = make_state(2, policies=[script, None], druids=druids)
    ref.visit_druids(state, state.players[0])
    assert script.offered("druid_pick") == [[(FOX, 0, 0), (DEER, 0, 0), (UNICORN, 0, 0)]]
    assert state.players[0].collected == counter(fox=1)
    assert state.druids == [DEER, UNICORN, SQUIRREL, BEAR]  # Unicorn, then Deer, under the rest


def test_l18_moonlit_crown_adds_2_once_per_visit():
    script = Script((QUEEN_FAIRIES, (mask(FAIRY_1, FAIRY_2),)), (QUEEN_PICK, lambda rows: 0))
    court = ["broom", "garland", "royal_seal", "bouquet", "fox_charm", "bear_totem"]
    state = make_state(2, policies=[script, None], hands=[{FAIRY_1, FAIRY_2}, set()], court=court)
    state.players[0].items = [ITEM["moonlit_crown"]]
    ref.visit_queen(state, state.players[0])
    assert script.offered("queen_fairies")[0] == [
        (mask(FAIRY_1), 1, 2),
        (mask(FAIRY_2), 2, 3),
        (mask(FAIRY_1, FAIRY_2), 3, 4),
    ]
    assert len(script.offered("queen_pick")[0]) == 4


def test_l15_wind_returns_after_a_visit_too():
    script = Script((DRUID_FAIRIES, (mask(WIND, FAIRY_3),)), (DRUID_PICK, (FOX,)))
    hand = {WIND, FAIRY_1, FAIRY_2, FAIRY_3}
    state = make_state(2, policies=[script, None], hands=[hand, set()], druids=[DEER, FOX])
    ref.visit_druids(state, state.players[0])
    assert state.players[0].hand == {WIND, FAIRY_1, FAIRY_2}


def test_l17_druid_card_is_taken_as_if_explored():
    script = Script(
        (DRUID_FAIRIES, (mask(FAIRY_3),)), (DRUID_PICK, (OGRE,)), (OGRE_VICTIMS, (FOX, FOX))
    )
    state = make_state(
        2,
        policies=[script, None],
        collected=[counter(fox=2, yellow=1), counter()],
        druids=[OGRE, HERALD],
    )
    ref.visit_druids(state, state.players[0])
    assert state.players[0].collected == counter(yellow=1) and state.druids == [HERALD]
    script = Script((DRUID_FAIRIES, (mask(FAIRY_3),)), (DRUID_PICK, (HERALD,)))
    state = make_state(2, policies=[script, None], druids=[OGRE, HERALD])
    ref.visit_druids(state, state.players[0])
    assert HERALD in state.players[0].hand and state.druids == [OGRE]


# --- L8: Fairy Crest ----------------------------------------------------------------------------


def test_l8_crest_returns_every_played_fairy_and_two_players_have_two():
    state = make_state(2)
    player = state.players[0]
    player.hand, player.played = {FAIRY_1}, {FAIRY_2, FAIRY_6, WIND}
    ref.use_crest(player)
    assert player.hand == {FAIRY_1, FAIRY_2, FAIRY_6, WIND} and player.played == set()
    assert player.crests == 1
    player.played = {FAIRY_1}
    assert (ACT_CREST, NO_ARG) in ref.legal_actions(state, player)
    ref.use_crest(player)
    player.played = {FAIRY_1}
    assert player.crests == 0 and (ACT_CREST, NO_ARG) not in ref.legal_actions(state, player)


# --- L9, L10: Sunset and the end ----------------------------------------------------------------


def test_l9_sunset_empties_clearings_of_6_cards_or_more():
    state = make_state(3, clearings=[counter(fox=6), counter(fox=5), counter(fox=3, goblin=4)])
    ref.sunset(state)
    assert state.clearings == [counter(), counter(fox=5), counter()]
    assert state.box == counter(fox=9, goblin=4)


def test_l10_l18_a_game_is_36_turns_and_ends_with_the_turn_of_the_last_forest_card():
    for players in (2, 3, 4):
        result = play_game(make_setup(players=players, policies="random", seed=2), 0)
        assert result["turns"] == 36 and result["forest_left"] == 0
        last = sorted(result["last_turn"])
        assert last == list(range(36 - players, 36))


def test_l10_odd_forest_the_last_dawn_draws_one_card():
    script = Script(
        (DAWN, lambda rows: 0),
        (DAY, (ACT_EXPLORE, 2)),
        (DAWN, lambda rows: 0),
        (DAY, (ACT_EXPLORE, 2)),
    )
    state = make_state(2, policies=[script, script], hands=[set(), set()], forest=[FOX, DEER, BEAR])
    turns = 0
    while True:
        ref.play_turn(state)
        state.turn += 1
        turns += 1
        if not state.forest:
            break
        state.active = (state.active + 1) % state.n
    assert turns == 2 and script.done
    assert [rows[0][1] for rows in script.offered("dawn")] == [1, NO_CLEARING]


# --- L11, L12: scoring and the tie-break --------------------------------------------------------


def scores(collected, hands=None):
    players = len(collected)
    hands = hands or [set()] * players
    state = make_state(players, hands=hands, collected=collected)
    return ref.final_scoring(state), state


def test_l11_majorities_ties_of_two_split_three_score_nothing():
    parts, _ = scores([counter(unicorn=1), counter(unicorn=1), counter()])
    assert [p["unicorn"] for p in parts] == [1, 1, 0]  # half a point each, exactly
    parts, _ = scores([counter(fox=2), counter(fox=2), counter(fox=2)])
    assert [p["fox"] for p in parts] == [0, 0, 0]
    parts, _ = scores([counter(fox=3), counter(fox=2), counter(fox=2)])
    assert [p["fox"] for p in parts] == [16, 0, 0]


def test_l11_exactly_three_turtles_independent_of_the_majority():
    parts, _ = scores([counter(turtle=3), counter(turtle=1)])
    assert (parts[0]["turtle"], parts[0]["turtle_bonus"]) == (8, 6)  # 7 points
    parts, _ = scores([counter(turtle=3), counter(turtle=4)])
    assert (parts[0]["turtle"], parts[0]["turtle_bonus"], parts[1]["turtle_bonus"]) == (0, 6, 0)
    parts, _ = scores([counter(turtle=3), counter(turtle=3)])
    assert [(p["turtle"], p["turtle_bonus"]) for p in parts] == [(4, 6), (4, 6)]


def test_l11_flowers_and_variety():
    parts, _ = scores([counter(yellow=5, white=4, violet=3, pink=2, red=1), counter()])
    assert parts[0]["flowers"] == HALF * (15 + 10 + 5 + 2)
    assert parts[0]["variety"] == HALF * 15
    assert parts[1]["flowers"] == 0 and parts[1]["variety"] == HALF * -5  # no flower at all


def test_l11_goblins():
    parts, _ = scores([counter(goblin=3), counter(goblin=2), counter()])
    assert [p["goblins"] for p in parts] == [-12, 0, 0]
    parts, _ = scores([counter(goblin=2), counter(goblin=2), counter(goblin=1)])
    assert [p["goblins"] for p in parts] == [-4, -4, 0]
    parts, _ = scores([counter(), counter()])
    assert [p["goblins"] for p in parts] == [0, 0]


@pytest.mark.parametrize(("players", "each"), [(2, 2), (3, 1), (4, 0)])
def test_l11_applause_when_every_hand_is_empty(players, each):
    parts, _ = scores([counter()] * players)
    assert [p["applause"] for p in parts] == [HALF * each] * players


def test_l11_applause_by_the_number_tied():
    hands = [{FAIRY_7}, {FAIRY_3, FAIRY_4}, {FAIRY_1}, {HERALD}]  # 7, 7, 1, 1 (specials 1)
    parts, _ = scores([counter()] * 4, hands)
    assert [p["applause"] for p in parts] == [4, 4, 0, 0]
    hands = [{FAIRY_7}, {FAIRY_6}, {FAIRY_1}]
    parts, _ = scores([counter()] * 3, hands)
    assert [p["applause"] for p in parts] == [6, 0, 0]


def test_l12_tie_break_hand_value_then_the_seat_that_played_last():
    _, state = scores([counter()] * 3, [{FAIRY_2}, {FAIRY_3}, {FAIRY_3}])
    for seat, last in enumerate([33, 34, 35]):
        state.players[seat].last_turn = last
    assert ref.ranking(state, [10, 10, 10]) == [3, 2, 1]  # 2 < 3 in hand; seat 2 played last
    assert ref.ranking(state, [10, 12, 10]) == [3, 1, 2]


# --- L13: every court item ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("item", "collected", "points"),
    [
        ("retained_half", counter(lost_half=1), 12),
        ("retained_half", counter(fox=3), 0),
        ("squirrel_charm", counter(squirrel=4), 4),
        ("fox_charm", counter(fox=3), 3),
        ("antler_crown", counter(deer=2), 4),
        ("bear_totem", counter(bear=2), 6),
        ("garland", counter(yellow=2, pink=1, fox=3), 3),
        ("bouquet", counter(yellow=2, pink=1, red=3), 4),
        ("goblin_bell", counter(goblin=5), 5),
        ("queens_favour", counter(), 6),
        ("royal_seal", counter(), 4),
        ("silver_acorn", counter(fox=5), 0),  # permanent items score nothing
        ("broom", counter(fox=5), 0),  # an unused usable item scores nothing (L18)
    ],
)
def test_l13_end_game_items(item, collected, points):
    state = make_state(2, collected=[collected, counter()], items=[[item]])
    assert ref.item_points(state, state.players[0], ITEM[item]) == points
    assert ref.final_scoring(state)[0]["items"] == HALF * points


def test_l15_lost_half_alone_scores_nothing():
    with_half, _ = scores([counter(lost_half=1), counter()])
    without, _ = scores([counter(), counter()])
    assert with_half == without


def test_l13_fairy_net_takes_one_card_as_if_explored():
    script = Script((NET_TAKE, (2, WARRIOR)))
    state = make_state(
        2,
        policies=[script, None],
        items=[["fairy_net"]],
        clearings=[counter(fox=1), counter(), counter(fox=1, warrior=1)],
    )
    ref.use_item(state, state.players[0], ITEM["fairy_net"])
    assert script.offered("net_take") == [[(0, FOX, 0), (2, WARRIOR, 0), (2, FOX, 0)]]
    assert WARRIOR in state.players[0].hand and state.clearings[2] == counter(fox=1)
    assert state.players[0].items == [] and state.players[0].used_items == [ITEM["fairy_net"]]
    view = ref.seat_view(state, state.players[1])
    assert view[V_ITEM_STATE + ITEM["fairy_net"]] == ITEM_USED


def test_l13_broom_discards_a_clearing():
    script = Script((BROOM_SWEEP, (2,)))
    state = make_state(
        2,
        policies=[script, None],
        items=[["broom"]],
        clearings=[counter(fox=1), counter(), counter(deer=2)],
    )
    ref.use_item(state, state.players[0], ITEM["broom"])
    assert script.offered("broom_sweep") == [[(0, 0, 0), (2, 0, 0)]]
    assert state.clearings[2] == counter() and state.box == counter(deer=2)


@pytest.mark.parametrize(("goblins", "left"), [(1, 0), (2, 0), (5, 3)])
def test_l13_goblin_trap(goblins, left):
    state = make_state(2, collected=[counter(goblin=goblins), counter()], items=[["goblin_trap"]])
    ref.use_item(state, state.players[0], ITEM["goblin_trap"])
    assert state.players[0].collected[GOBLIN] == left
    assert state.box[GOBLIN] == goblins - left


def test_l13_horn_of_recall_returns_up_to_three_played_fairies():
    script = Script((HORN_RECALL, (mask(FAIRY_4, FAIRY_5, FAIRY_7),)))
    state = make_state(2, policies=[script, None], items=[["horn_of_recall"]])
    player = state.players[0]
    player.hand, player.played = {FAIRY_1}, {FAIRY_2, FAIRY_4, FAIRY_5, FAIRY_7}
    ref.use_item(state, player, ITEM["horn_of_recall"])
    offered = script.offered("horn_recall")[0]
    assert len(offered) == 4 + 6 + 4  # subsets of 1, 2 or 3 of the 4 played fairies
    assert player.hand == {FAIRY_1, FAIRY_4, FAIRY_5, FAIRY_7} and player.played == {FAIRY_2}


def test_l13_druids_key_takes_the_top_druid_card():
    state = make_state(2, items=[["druids_key"]], druids=[FOX, EXPLORER])
    ref.use_item(state, state.players[0], ITEM["druids_key"])
    assert EXPLORER in state.players[0].hand and state.druids == [FOX]


def test_l13_permanent_items_act_from_the_moment_they_are_taken():
    script = Script((QUEEN_FAIRIES, (mask(FAIRY_3),)), (QUEEN_PICK, (ITEM["silver_acorn"],)))
    state = make_state(2, policies=[script, None], court=["silver_acorn", "broom"])
    assert ref.bid_bonus(state, state.players[0]) == 0
    ref.visit_queen(state, state.players[0])
    assert ref.bid_bonus(state, state.players[0]) == 1


# --- PL1: single choices are not offered ----------------------------------------------------------


def test_pl1_forced_payment_and_forced_bids_are_not_offered():
    s0 = Script((BID, (1,)))  # the only subset covering 1 is {fairy 1}: no PAYMENT offer
    state = make_state(
        2,
        policies=[s0, Script()],
        hands=[{FAIRY_1}, set()],
        clearings=[counter(fox=1)],
    )
    ref.explore(state, state.players[0], 0)
    assert [name for name, _ in s0.offers] == ["bid"] and state.players[0].collected[FOX] == 1
