"""How a Fairy Land replay names things: card types, court items, clearings, actions and the
event records of :mod:`.reference` (the same module, with the same functions, is in every
game's package; the replay page of the analysis layer renders them). Pure Python, no numba.

The reference engine keeps scores in half points (:data:`.rules.HALF`); :data:`UNIT` says so,
and :func:`points` shows them as the rulebook's points, the unit of the fast engine's rows.
"""

from __future__ import annotations

from typing import Any

from fairysim.sim.fairyland import reference
from fairysim.sim.fairyland.rules import (
    ACTIONS,
    CARD_NAMES,
    HALF,
    NO_ARG,
    NO_CARD,
    NO_CLEARING,
    PART_NAMES,
)

PARTS = PART_NAMES
"""The final breakdown's columns, in the order shown."""

UNIT = HALF
"""The reference engine's score units per rulebook point (it keeps half points, L11; the fast
engine's rows are in points)."""

DECISIONS = {
    "dawn": "places the Dawn cards",
    "day": "chooses the Day action",
    "queen_fairies": "plays fairies for the Queen",
    "druid_fairies": "plays fairies for the Druids",
    "bid": "bids",
    "payment": "pays",
    "queen_pick": "keeps a court item",
    "druid_pick": "keeps a Druid card",
    "ogre_victims": "gives the ogre two cards",
    "net_take": "takes a card with the Fairy Net",
    "broom_sweep": "sweeps a clearing",
    "horn_recall": "recalls fairies with the Horn",
}
"""What a seat does at each decision, as the rulebook words it."""


def record(setup: Any, game: int) -> list[dict]:
    """Play game ``game`` of ``setup`` with the reference engine and return its event records."""
    log: list[dict] = []
    reference.play_game(setup, game, log=log)
    return log


def seat_label(setup: Any, seat: int) -> str:
    """How a seat is named."""
    return f"seat {seat}"


def points(value: float) -> str:
    """Half points (as the reference engine keeps them) as the rulebook's points."""
    return f"{value / UNIT:g}"


def card(t: int) -> str:
    """A card type's name."""
    return CARD_NAMES[t]


def mask_cards(mask: int) -> str:
    """The card types of a bitmask, joined with ``+``."""
    names = [CARD_NAMES[t] for t in range(len(CARD_NAMES)) if (mask >> t) & 1]
    return "+".join(names) or "nothing"


def item(setup: Any, i: int) -> str:
    """A court item's id."""
    return setup.court.ids[i]


def clearing(c: int) -> str:
    """A clearing, numbered from 1 as on the table."""
    return f"clearing {c + 1}"


def pile(types: list[int]) -> str:
    """Cards by type, e.g. ``fox, fox, pink``."""
    return ", ".join(card(t) for t in types) or "empty"


def part(name: str, value: int) -> str:
    """One part of the final breakdown (half points shown as points)."""
    return f"{name.replace('_', ' ')} {points(value)}"


def choice(setup: Any, decision: str, row: tuple[int, ...]) -> str:
    """One choice of ``decision`` in words."""
    if decision == "dawn":
        first, second = row[0], row[1]
        if second == NO_CLEARING:
            return f"to {clearing(first)}"
        return f"first to {clearing(first)}, second to {clearing(second)}"
    if decision == "day":
        action, arg = ACTIONS[row[0]], row[1]
        if action == "explore":
            return f"explore {clearing(arg)}"
        if action == "item" and arg != NO_ARG:
            return f"use {item(setup, arg)}"
        return {"queen": "visit the Queen", "druids": "visit the Druids", "crest": "use a Crest"}[
            action
        ]
    if decision in ("queen_fairies", "druid_fairies"):
        return f"{mask_cards(row[0])} (value {row[1]}, looks at {row[2]})"
    if decision == "bid":
        return "pass" if row[0] == 0 else f"bid {row[0]}"
    if decision == "payment":
        return f"{mask_cards(row[0])} (value {row[1]})"
    if decision == "queen_pick":
        return item(setup, row[0])
    if decision == "druid_pick":
        return card(row[0])
    if decision == "ogre_victims":
        return f"{card(row[0])} and {card(row[1])}"
    if decision == "net_take":
        return f"{card(row[1])} from {clearing(row[0])}"
    if decision == "broom_sweep":
        return clearing(row[0])
    return mask_cards(row[0])


def describe(setup: Any, event: dict) -> list[str]:
    """Lines for the game's own events (not decisions, round scores or the final breakdown)."""
    kind = event["event"]
    if kind == "deal":
        items = ", ".join(item(setup, i) for i in event["court_items"]) or "none"
        lines = [
            f"Court items in this game: {items}.",
            *(f"{clearing(c)}: {pile(cards)}" for c, cards in enumerate(event["clearings"])),
            f"Every seat holds its 7 fairies and {event['crests'][0]} Crest(s); "
            f"{event['forest']} cards in the forest; seat {event['start']} starts (L18).",
        ]
        return lines
    if kind == "turn_start":
        return [f"Turn {event['turn'] + 1}: seat {event['seat']}"]
    if kind == "dawn":
        first, second = event["cards"]
        drawn = card(first) if second == NO_CARD else f"{card(first)} and {card(second)}"
        return [f"Dawn: seat {event['seat']} draws {drawn}"]
    if kind == "unbid":
        return [f"Nobody bids: {clearing(event['clearing'])} is discarded"]
    if kind == "won":
        chased = " (the Warrior chases its goblins and ogres away, L15)" if event["warrior"] else ""
        return [
            f"seat {event['seat']} wins {clearing(event['clearing'])} for {event['bid']} "
            f"and takes {pile(event['cards'])}{chased}"
        ]
    if kind == "turn_end":
        return [
            "Clearings: "
            + "; ".join(
                f"{clearing(c)}: {pile(cards)}" for c, cards in enumerate(event["clearings"])
            ),
            "Collected: "
            + "; ".join(f"seat {s}: {pile(cards)}" for s, cards in enumerate(event["collected"])),
        ]
    if kind == "final":
        return [
            f"seat {s}: fairy value in hand {value} (first tie-break, L12); items: "
            + (", ".join(item(setup, i) for i in held) or "none")
            for s, (value, held) in enumerate(zip(event["hand_value"], event["items"], strict=True))
        ]
    return []
