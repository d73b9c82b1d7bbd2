"""How a Fairy Concerto replay names things: fairy tokens, score cards, contest cards and the
event records of :mod:`.reference` (the same module, with the same functions, is in every
game's package; the replay page of the analysis layer renders them). Pure Python, no numba."""

from __future__ import annotations

from typing import Any

from fairysim.sim.concerto import reference
from fairysim.sim.concerto.rules import KINDS, PAHHA, PART_NAMES, SOLOIST_NAMES

PARTS = PART_NAMES
"""The final breakdown's columns, in the order shown."""

UNIT = 1
"""The reference engine's score units per rulebook point (whole points, as the rows)."""

DECISIONS = {
    "pick_token": "picks a token",
    "keep_dealt_card": "keeps a setup score card",
    "keep_drawn_card": "keeps a drawn score card (composer)",
    "pick_pair": "keeps one token and removes one",
    "solo_keep_tokens": "keeps tokens",
}
"""What a seat does at each decision, as the rulebook words it."""


def record(setup: Any, game: int) -> list[dict]:
    """Play game ``game`` of ``setup`` with the reference engine and return its event records."""
    log: list[dict] = []
    reference.play_game(setup, game, log=log)
    return log


def seat_label(setup: Any, seat: int) -> str:
    """How a seat is named (solo: seat 1 is Pahha, ruling C8)."""
    return "Pahha" if setup.players == 1 and seat == PAHHA else f"seat {seat}"


def points(value: float) -> str:
    """A score as text (whole points)."""
    return f"{value:g}"


def tokens(counts: list[int]) -> str:
    """Token counts by kind, e.g. ``2 trumpeter, 1 composer``."""
    return ", ".join(f"{n} {KINDS[k]}" for k, n in enumerate(counts) if n) or "none"


def score_card(setup: Any, card: int) -> str:
    """A score card's id and what it needs."""
    need = [int(x) for x in setup.cards.score_need[card]]
    return f"{setup.cards.score_ids[card]} (needs {tokens(need)})"


def part(name: str, value: int) -> str:
    """One part of the final breakdown."""
    return f"{name.replace('_', ' ')} {value}"


def choice(setup: Any, decision: str, row: tuple[int, ...]) -> str:
    """One choice of ``decision`` in words."""
    if decision == "pick_token":
        return KINDS[row[0]]
    if decision in ("keep_dealt_card", "keep_drawn_card"):
        return score_card(setup, row[0])
    if decision == "pick_pair":
        return f"keep {KINDS[row[0]]}, remove {KINDS[row[1]]}"
    return tokens(list(row))


def describe(setup: Any, event: dict) -> list[str]:
    """Lines for the game's own events (not decisions, round scores or the final breakdown)."""
    kind = event["event"]
    if kind == "deal":
        method = "ABCD"[event["soloist"]]
        lines = [
            f"Soloist card {method} ({SOLOIST_NAMES[method]}), pianist "
            f"{setup.cards.pianist_ids[event['pianist']]}, harpist "
            f"{setup.cards.harpist_ids[event['harpist']]}; popularity token: "
            f"{KINDS[event['popularity']]} (C2).",
        ]
        for seat, dealt in enumerate(event["dealt"]):
            names = "; ".join(score_card(setup, c) for c in dealt)
            lines.append(f"{seat_label(setup, seat)} is dealt {names}")
        if event["pahha_cards"]:
            count = event["pahha_cards"]
            lines.append(f"Pahha takes {count} score card{'s' * (count != 1)} face down (C8)")
        return lines
    if kind == "round_start":
        hands = "; ".join(
            f"{seat_label(setup, s)}: {tokens(hand)}" for s, hand in enumerate(event["hands"])
        )
        return [f"Round {event['round'] + 1}. Tokens in hand: {hands}"]
    if kind == "pahha_card":
        return ["Pahha takes a score card face down for the composer you left (C8)"]
    if kind == "round_end":
        return [
            f"{seat_label(setup, s)}'s orchestra: {tokens(o)}"
            for s, o in enumerate(event["orchestras"])
        ]
    if kind == "final":
        return [
            f"{seat_label(setup, s)} holds score cards: "
            + ("; ".join(score_card(setup, c) for c in held) or "none")
            for s, held in enumerate(event["score_cards"])
        ]
    return []
