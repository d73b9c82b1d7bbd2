"""Fairy Land tests, and the small helpers they share.

The helpers build a table by hand for the reference engine (:class:`GameState`), so each rule can
be checked on a constructed case, and give it scripted Python policies that answer each offered
decision with a chosen row and record what they were offered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from fairysim.sim.fairyland.cards import load_cards, load_court
from fairysim.sim.fairyland.reference import GameState, Player
from fairysim.sim.fairyland.rules import CARD_NAMES, DECISIONS, HOUSE_FAIRIES, card_type
from fairysim.sim.policy import MAX_WEIGHTS
from fairysim.sim.rng import FIRST_POLICY_STREAM, new_stream

CARDS = load_cards()
COURT = load_court()
ITEM = {item_id: i for i, item_id in enumerate(COURT.ids)}
"""Shipped court item ids -> item number."""


def types(*names: str) -> list[int]:
    """Card types by name: ``types("squirrel", "fox")``."""
    return [card_type(n) for n in names]


def counter(**counts: int) -> Counter:
    """A Counter of card types from names: ``counter(squirrel=2, goblin=1)``."""
    return Counter({card_type(name): n for name, n in counts.items() if n})


class Script:
    """A Python policy for the reference engine that plays scripted answers.

    Each answer is ``(decision, row)``: the offered row (a tuple of its first columns) to
    choose, or ``(decision, callable)`` choosing from the offered rows. An offered decision that
    is not next in the script, or an answer not offered, fails the test. Every offer is recorded
    in ``offers`` as ``(decision name, rows)`` and the view in ``views``.
    """

    def __init__(self, *answers: tuple[int, object]):
        self.answers = list(answers)
        self.offers: list[tuple[str, list[tuple[int, ...]]]] = []
        self.views: list[np.ndarray] = []

    def __call__(self, decision, view, choices, n_choices, weights, rng) -> int:
        rows = [tuple(int(x) for x in choices[i]) for i in range(n_choices)]
        self.offers.append((DECISIONS[decision], rows))
        self.views.append(view.copy())
        assert self.answers, f"unscripted decision {DECISIONS[decision]}, offered {rows}"
        wanted_decision, wanted = self.answers.pop(0)
        assert wanted_decision == decision, (
            f"offered {DECISIONS[decision]} {rows}, script expected {DECISIONS[wanted_decision]}"
        )
        if callable(wanted):
            return int(wanted(rows))
        for i, row in enumerate(rows):
            if row[: len(wanted)] == tuple(wanted):
                return i
        raise AssertionError(f"{wanted} is not among the offered {DECISIONS[decision]} {rows}")

    def offered(self, name: str) -> list[list[tuple[int, ...]]]:
        """The row lists offered so far for decision ``name``."""
        return [rows for decision, rows in self.offers if decision == name]

    @property
    def done(self) -> bool:
        """True when every scripted answer was used."""
        return not self.answers


def never_asked(decision, view, choices, n_choices, weights, rng) -> int:
    """A policy for seats that must not be asked anything."""
    raise AssertionError(f"unexpected {DECISIONS[decision]} decision with {n_choices} choices")


def make_state(
    players: int = 3,
    policies: Sequence[Callable] | None = None,
    hands: Sequence[Iterable[int]] | None = None,
    collected: Sequence[Counter] | None = None,
    items: Sequence[Iterable[str]] = (),
    clearings: Sequence[Counter] = (),
    forest: Sequence[int] = (),
    druids: Sequence[int] = (),
    court: Sequence[str] = (),
    active: int = 0,
    start_seat: int = 0,
    crests: int | None = None,
    cards=CARDS,
    court_items=COURT,
) -> GameState:
    """A table built by hand. Hands default to the house fairies 1-7; ``items`` name shipped
    court ids per seat; ``forest``, ``druids`` and ``court`` list cards bottom first (the top
    card last), the court by item id."""
    seats = []
    for seat in range(players):
        policy = policies[seat] if policies else never_asked
        rng = new_stream(0, 0, FIRST_POLICY_STREAM + seat)
        player = Player(seat, policy, np.zeros(MAX_WEIGHTS), rng)
        player.hand = set(hands[seat]) if hands is not None else set(HOUSE_FAIRIES)
        player.collected = Counter(collected[seat]) if collected is not None else Counter()
        player.items = [ITEM[i] for i in items[seat]] if seat < len(items) else []
        player.crests = cards.crests_for(players) if crests is None else crests
        seats.append(player)
    piles = [Counter(c) for c in clearings] + [Counter() for _ in range(3 - len(clearings))]
    return GameState(
        0,
        players,
        seats,
        cards,
        court_items,
        list(forest),
        list(druids),
        [ITEM[i] for i in court],
        piles,
        start_seat,
        active=active,
    )


def name_of(t: int) -> str:
    """Name of card type ``t`` (for messages)."""
    return CARD_NAMES[t]
