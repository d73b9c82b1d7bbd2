"""The worked examples of the Fairy Land rulebook: Puck's final score of 26, the Dawn with a Deer
and an Ogre, and Puck's winning bid of 7 paid with his 3 and 4."""

from __future__ import annotations

import numpy as np

from fairysim.sim.fairyland import reference as ref
from fairysim.sim.fairyland.rules import (
    BID,
    DAWN,
    FAIRY_2,
    FAIRY_3,
    FAIRY_4,
    FAIRY_7,
    HALF,
    MAX_SEATS,
    N_CARD_TYPES,
    N_PARTS,
    PART_NAMES,
    PASS,
    PAYMENT,
    score_parts,
)

from . import CARDS, COURT, Script, counter, make_state, types

PUCK, OBERON, MORGANA = 0, 1, 2


def puck_oberon_morgana():
    """The end of the rulebook's 3-player scoring example."""
    collected = [
        counter(squirrel=4, fox=3, racoon=2, deer=1, yellow=3, white=2, violet=2, pink=1, goblin=3),
        counter(squirrel=3, racoon=2, deer=1, goblin=1),
        counter(squirrel=1, fox=4, deer=1, goblin=2),
    ]
    hands = [{FAIRY_3, FAIRY_4}, {FAIRY_2, FAIRY_7}, {FAIRY_3}]  # worth 7, 9 and 3
    return make_state(3, hands=hands, collected=collected)


def test_puck_scores_26_points_in_the_reference_engine():
    state = puck_oberon_morgana()
    parts = ref.final_scoring(state)[PUCK]
    expected = dict.fromkeys(PART_NAMES, 0)
    expected.update(squirrel=10, racoon=3, flowers=9, variety=10, goblins=-6)  # points
    assert parts == {name: HALF * points for name, points in expected.items()}
    assert sum(parts.values()) == HALF * 26
    assert [ref.hand_value(state, p) for p in state.players] == [7, 9, 3]


def test_puck_scores_26_points_in_the_scoring_kernel():
    state = puck_oberon_morgana()
    collected = np.zeros(MAX_SEATS * N_CARD_TYPES, dtype=np.int64)
    for player in state.players:
        for t, n in player.collected.items():
            collected[player.seat * N_CARD_TYPES + t] = n
    parts = np.zeros((MAX_SEATS, N_PARTS), dtype=np.int64)
    hand_values = np.array([7, 9, 3, 0], dtype=np.int64)
    held = np.zeros(MAX_SEATS, dtype=np.int64)
    score_parts(collected, hand_values, held, 3, CARDS.majority, COURT.table.reshape(-1), parts)
    assert parts[PUCK].sum() == HALF * 26
    reference = ref.final_scoring(state)
    for seat in range(3):
        assert list(parts[seat]) == [reference[seat][name] for name in PART_NAMES]
    assert parts[OBERON, PART_NAMES.index("applause")] == HALF * 3  # the most fairy value


def test_dawn_example_deer_and_ogre():
    """Racoon | 2 flowers | flower + goblin; Puck draws a Deer, then an Ogre. The Ogre may go only
    to the first two clearings, the Deer anywhere but the Ogre's clearing; Puck puts the Ogre
    with the Racoon and the Deer with the 2 Flowers."""
    deer, ogre = types("deer", "ogre")
    puck = Script((DAWN, (1, 0)))
    state = make_state(
        3,
        policies=[puck, None, None],
        clearings=[counter(racoon=1), counter(yellow=1, white=1), counter(pink=1, goblin=1)],
        forest=[ogre, deer],  # the Deer on top: drawn first
    )
    ref.dawn(state, state.players[PUCK])
    assert puck.offered("dawn") == [[(0, 1, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0)]]
    assert state.clearings[0] == counter(racoon=1, ogre=1)
    assert state.clearings[1] == counter(yellow=1, white=1, deer=1)
    assert state.clearings[2] == counter(pink=1, goblin=1)
    assert state.forest == []


def test_auction_example_puck_bids_7_and_plays_his_3_and_4():
    """After every player had a chance to bid, Puck had the highest offer with 7: he plays his 3
    and 4 face up and takes every card of the clearing."""
    oberon = Script((BID, (PASS,)))
    morgana = Script((BID, (5,)))
    puck = Script((BID, (7,)), (PAYMENT, (1 << FAIRY_3 | 1 << FAIRY_4,)))
    state = make_state(
        3,
        policies=[puck, oberon, morgana],
        clearings=[counter(squirrel=2, fox=1, yellow=1)],
    )
    ref.explore(state, state.players[PUCK], 0)
    assert puck.done and oberon.done and morgana.done
    assert state.players[PUCK].played == {FAIRY_3, FAIRY_4}
    assert state.players[PUCK].collected == counter(squirrel=2, fox=1, yellow=1)
    assert state.players[MORGANA].played == set()  # only the explorer pays
    assert state.clearings[0] == counter()
