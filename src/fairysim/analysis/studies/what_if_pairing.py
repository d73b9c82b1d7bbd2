"""What pairs a variant's games with the baseline's, said from what differs between their card
data: nothing, values only (equal counts: common random numbers hold exactly) or the counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fairysim.analysis.studies.variants import Arm, card_change


def _listed(names: Sequence[str]) -> str:
    return ", ".join(name.replace("_", " ") for name in names)


def pairing_note(arm: Arm, base: Arm) -> str:
    """What pairs ``arm``'s games with the baseline's, from what differs between their card
    data: nothing, values only (the counts are equal, so every shuffle draws the same numbers:
    common random numbers hold exactly), or the counts (other deals)."""
    change = card_change(base, arm)
    if change.same:
        return (
            "same card data, same seeds and game indices: every rule draw comes from the "
            "baseline's numbers in the same order, so the games share their deals as far as "
            "the setup draws the same things (a setup that draws more or fewer cards or items "
            "moves every later draw, the start seat included)"
        )
    if not change.declared:
        return (
            f"the card data differ ({_listed(change.counts)}) and this game does not say which "
            "of them are card counts: both are played on the same seeds and game indices, and "
            "how far the deals stay paired is measured below only by the turn order"
        )
    if not change.counts:
        return (
            f"the card files differ only in values ({_listed(change.values)}); the card counts "
            "are equal, so every shuffle and deal draws the baseline's numbers in the same "
            "order (common random numbers): the games share their deals and start seats and "
            "differ from the first point of play the new values change"
        )
    values = f"; values differ too ({_listed(change.values)})" if change.values else ""
    return (
        f"the card counts differ ({_listed(change.counts)}){values}: both are played on the "
        "same seeds and game indices, but a deck of other counts shuffles to other deals, so "
        "the games are paired only as far as the engine's draws come before the counts matter "
        "(the policies' own streams stay paired)"
    )


def pairing_row(arm: Arm, base: Arm, same_order: int, games: int, drawn: int) -> dict[str, Any]:
    """What is paired between ``arm`` and ``base``; ``drawn`` is the player count where the
    turn order is drawn each game (0 where it is the seat index)."""
    change = card_change(base, arm)
    text = pairing_note(arm, base)
    return {
        "variant": arm.label,
        "same_cards": change.same,
        "card_counts_changed": ",".join(change.counts),
        "card_values_changed": ",".join(change.values),
        "same_turn_order_games": same_order,
        "games": games,
        "pairing": f"{text}; the turn order is the baseline's in {same_order:,} of {games:,} games"
        + (f" (by chance alone about 1 in {drawn})" if drawn > 1 and same_order < games else ""),
    }


__all__ = ["pairing_note", "pairing_row"]
