"""How a Fantastique replay names things: fan cards, fans, stacks, medals and the event records
of :mod:`.reference` (the same module, with the same functions, is in every game's package;
the replay page of the analysis layer renders them). Pure Python, no numba."""

from __future__ import annotations

from typing import Any

from fairysim.sim.fantastique import reference

PARTS = ("medal_points", "finale_count", "finale_points")
"""The final breakdown's columns, in the order shown (``finale_count`` is cards, not points)."""

UNIT = 1
"""The reference engine's score units per rulebook point (whole points, as the rows)."""

DECISIONS = {"play_fan": "plays a fan", "take_stack": "takes a stack"}
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
    """A score as text (whole points)."""
    return f"{value:g}"


def cards(values: list[int]) -> str:
    """Fan cards by value, e.g. ``1 1 4 8``."""
    return " ".join(str(v) for v in values) or "none"


def part(name: str, value: int) -> str:
    """One part of the final breakdown (the Grande Finale count is cards, not points)."""
    if name == "finale_count":
        return f"Grande Finale cards {value}"
    return f"{name.replace('_', ' ')} {value}"


def choice(setup: Any, decision: str, row: tuple[int, ...]) -> str:
    """One choice of ``decision`` in words."""
    value, count = row
    if decision == "play_fan":
        return f"{count}x{value}"
    return f"stack {count}x{value}"


def describe(setup: Any, event: dict) -> list[str]:
    """Lines for the game's own events (not decisions, round scores or the final breakdown)."""
    kind = event["event"]
    if kind == "deal":
        rows = "; ".join(
            f"{name} {', '.join(map(str, vals))}" for name, vals in event["medal_rows"]
        )
        lines = [
            f"Grande Finale fan {event['fan']}; medal rows: {rows}.",
            *(f"seat {s} is dealt {cards(hand)}" for s, hand in enumerate(event["hands"])),
            f"Seat {event['start']} starts round 1 (ruling F1); "
            f"{event['draw_pile']} cards stay in the draw pile.",
        ]
        return lines
    if kind == "round_start":
        return [f"Round {event['round'] + 1} (seat {event['start']} plays first)"]
    if kind == "display":
        stacks = ", ".join(f"{size}x{value}" for value, size in event["stacks"])
        return [f"Revealed stacks: {stacks or 'none (both piles empty, F3)'}"]
    if kind == "no_fan":
        return [f"seat {event['seat']} has no legal fan and plays nothing (F4)"]
    if kind == "medal":
        return [f"seat {event['seat']} wins a {event['row']} medal worth {event['points']}"]
    if kind == "final":
        return [f"seat {s} ends holding {cards(hand)}" for s, hand in enumerate(event["hands"])]
    return []
