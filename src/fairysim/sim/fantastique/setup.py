"""A Fantastique run's setup: the validated configuration (:class:`FantastiqueSetup`),
:func:`make_setup`, and what a setup declares for the studies (the cards a card-effect study
forces). Playing a setup is :mod:`.runs`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fairysim.runtime.errors import CardFileError, FairysimError, ParameterError
from fairysim.sim.fantastique.cards import FantastiqueCards, load_cards
from fairysim.sim.fantastique.rules import HAND_SIZE, N_VALUES, fan_index
from fairysim.sim.fantastique.spec import NAME
from fairysim.sim.game import GameSetup
from fairysim.sim.policy import Policy

FORCED_COLUMNS = ("forced_held", "forced_exchanged")
"""Per-game columns of a run under a card-effect intervention (ruling PF5): the cards of the
forced value the forced seat was dealt as shuffled, and 1 where the exchange was made."""


@dataclass(frozen=True)
class FantastiqueSetup(GameSetup):
    """A validated run configuration (:class:`~fairysim.sim.game.GameSetup`) with its fan.

    ``forced_card`` (a card value, 0 for none) and ``forced_seat`` are a card-effect intervention
    (ruling PF5; the card-effect study of the analysis layer): every game's deal gives the seat
    one more card of that value, in exchange for the first other card it is dealt.
    """

    fan: str
    forced_card: int = 0
    forced_seat: int = 0
    game = NAME

    def check(self) -> None:
        """The cards must deal a full hand to every player; a forced card must be a value of
        the deck, for a seat at the table."""
        if self.cards.total_cards < self.players * HAND_SIZE:
            raise CardFileError(
                self.cards.source,
                f"{self.cards.total_cards} fan cards cannot deal {HAND_SIZE} "
                f"to each of {self.players} players",
            )
        if self.forced_card and not (
            1 <= self.forced_card <= N_VALUES and self.cards.deck_counts[self.forced_card] > 0
        ):
            raise FairysimError("forced_card", f"{self.forced_card} is no card value of this deck")
        if not 0 <= self.forced_seat < self.players:
            raise FairysimError(
                "forced_seat", f"{self.forced_seat} is no seat of {self.players} players"
            )

    def choices(self) -> list[str]:
        forced = (
            [f"a {self.forced_card} forced to seat {self.forced_seat}"] if self.forced_card else []
        )
        return [f"fan {self.fan}", *forced]

    def own_config(self) -> dict[str, Any]:
        forced = (
            {"forced_card": self.forced_card, "forced_seat": self.forced_seat}
            if self.forced_card
            else {}
        )
        return {"fan": self.fan, **forced}


def make_setup(
    *,
    players: int = 4,
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    seed: int = 0,
    cards: str | Path | FantastiqueCards | None = None,
    fan: str = "I",
    forced_card: int = 0,
    forced_seat: int = 0,
) -> FantastiqueSetup:
    """Validate a configuration; errors name the option at fault (``--players``, ``--fan`` ...).

    ``forced_card`` and ``forced_seat`` set a card-effect intervention (ruling PF5).
    """
    try:
        fan = str(fan).upper()
        fan_index(fan)
    except ValueError as exc:
        raise ParameterError("fan", str(exc)) from None
    card_set = cards if isinstance(cards, FantastiqueCards) else load_cards(cards)
    return FantastiqueSetup.checked(
        players=players,
        policies=policies,
        seed=seed,
        cards=card_set,
        fan=fan,
        forced_card=int(forced_card),
        forced_seat=int(forced_seat),
    )


def effect_cards(setup: FantastiqueSetup) -> list[tuple[int, str]]:
    """The cards a card-effect study forces (ruling PF5): each value the deck holds, labelled
    as the rulebook names it."""
    return [
        (value, f"value {value}")
        for value in range(1, N_VALUES + 1)
        if setup.cards.deck_counts[value] > 0
    ]
