"""A Fairy Land run's setup: the validated configuration (:class:`FairyLandSetup`), its court
(:func:`parse_court`), :func:`make_setup`, and what a setup declares for the studies (the cards
a card-effect study forces and how many a seat held, the card types a removal study takes out).
Playing a setup is :mod:`.runs`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fairysim.runtime.errors import CardFileError, FairysimError, ParameterError
from fairysim.sim.fairyland.cards import (
    DEFAULT_COURT,
    Court,
    FairyLandCards,
    load_cards,
    load_court,
)
from fairysim.sim.fairyland.rules import (
    CARD_NAMES,
    FIRST_FOREST_TYPE,
    GOBLIN,
    MIN_FOREST,
    N_CARD_TYPES,
    OGRE,
)
from fairysim.sim.fairyland.spec import COURTS, FOREST_LABELS, NAME
from fairysim.sim.game import GameSetup
from fairysim.sim.policy import Policy

RANDOM_COURT = COURTS[0]

FORCED_COLUMNS = ("forced_held", "forced_exchanged")
"""Per-game columns of a run under a card-effect intervention (ruling PL10): the cards of the
forced type the forced seat held at setup without it (always 0: a seat starts with no forest
card and no item), and 1 where the card was put in its hands."""


@dataclass(frozen=True)
class FairyLandSetup(GameSetup):
    """A validated run configuration (:class:`~fairysim.sim.game.GameSetup`) with its court.

    ``court`` is the court the game's 9 items are drawn from; ``court_name`` what ``--court``
    said (``random``, ``starred``, ``none`` or the court file), the ``court`` result column.
    The reference engine plays the same setup (:func:`.reference.play_games`).
    """

    court: Court
    court_name: str = RANDOM_COURT
    forced_card: int = 0
    forced_seat: int = 0
    removed_card: int = 0
    game = NAME

    def check(self) -> None:
        """A forced card (ruling PL10) must be a forest card type of the card file other than
        the ogre, or ``N_CARD_TYPES + i`` for an item ``i`` of the court, for a seat at the
        table; a removed card type (ruling PL12) a forest type of the card file that leaves at
        least :data:`~.rules.MIN_FOREST` cards, and not with a forced card."""
        self._check_removed()
        card = self.forced_card
        if card:
            forest = FIRST_FOREST_TYPE <= card < N_CARD_TYPES and card != OGRE
            if forest and self.cards.forest[card] == 0:
                raise FairysimError("forced_card", f"{card} is no card type of this forest")
            if not forest and not 0 <= card - N_CARD_TYPES < self.court.n_items:
                raise FairysimError(
                    "forced_card",
                    f"{card} is neither a forest card type ({FIRST_FOREST_TYPE} to "
                    f"{N_CARD_TYPES - 1}, the ogre {OGRE} excepted) nor a court item "
                    f"({N_CARD_TYPES} to {N_CARD_TYPES + self.court.n_items - 1})",
                )
        if not 0 <= self.forced_seat < self.players:
            raise FairysimError(
                "forced_seat", f"{self.forced_seat} is no seat of {self.players} players"
            )

    def _check_removed(self) -> None:
        card = self.removed_card
        if not card:
            return
        if not (FIRST_FOREST_TYPE <= card < N_CARD_TYPES and self.cards.forest[card] > 0):
            raise FairysimError("removed_card", f"{card} is no card type of this forest")
        left = self.cards.total_forest - int(self.cards.forest[card])
        if left < MIN_FOREST:
            raise FairysimError(
                "removed_card",
                f"removing {forced_label(self, card)} leaves {left} forest cards, fewer than "
                f"{MIN_FOREST}",
            )
        if self.forced_card:
            raise FairysimError("removed_card", "a removal does not combine with forced_card")

    @property
    def forest_counts(self) -> np.ndarray:
        """The forest the game plays, by type: the card file's, less a removed type (PL12)."""
        counts = np.array(self.cards.forest, np.int64)
        if self.removed_card:
            counts[self.removed_card] = 0
        return counts

    def choices(self) -> list[str]:
        forced = (
            [f"{forced_label(self, self.forced_card)} forced to seat {self.forced_seat}"]
            if self.forced_card
            else []
        )
        if self.removed_card:
            forced.append(f"{forced_label(self, self.removed_card)} removed")
        return [f"court {self.court_name}", *forced]

    def preamble(self) -> list[str]:
        """The court (PROVISIONAL where it is, ruling L13) and the card file."""
        return [f"Court: {self.court.label}", f"Cards: {Path(self.cards.source).name}"]

    def footnotes(self) -> list[str]:
        return ["Points are exact halves (ruling L11); ties are broken by L12, no shared wins."]

    def own_config(self) -> dict[str, Any]:
        forced = (
            {"forced_card": self.forced_card, "forced_seat": self.forced_seat}
            if self.forced_card
            else {}
        )
        if self.removed_card:
            forced["removed_card"] = self.removed_card
        return {
            "court": self.court_name,
            "court_source": self.court.source,
            "court_items": list(self.court.ids),
            "court_provisional": self.court.provisional,
            **forced,
        }


def forced_label(setup: FairyLandSetup, card: int) -> str:
    """How a card-effect study names forced card ``card`` (a forest type or court item)."""
    if card < N_CARD_TYPES:
        return FOREST_LABELS[CARD_NAMES[card]]
    return setup.court.names[card - N_CARD_TYPES]


def effect_cards(setup: FairyLandSetup) -> list[tuple[int, str]]:
    """The cards a card-effect study forces (ruling PL10): every forest card type the card file
    holds but the ogre (never held, L6), then every item of the court, by its type id (court
    item ``i`` is ``N_CARD_TYPES + i``), labelled as the report names them."""
    forest = [
        card
        for card in range(FIRST_FOREST_TYPE, N_CARD_TYPES)
        if card != OGRE and setup.cards.forest[card] > 0
    ]
    items = [N_CARD_TYPES + i for i in range(setup.court.n_items)]
    return [(card, forced_label(setup, card)) for card in forest + items]


def removal_variants(setup: FairyLandSetup) -> list[tuple[str, dict[str, int]]]:
    """The card types a removal study takes out of the forest (ruling PL12), as what-if
    variants: the two evil types (L3), ogres, which have no forced-card row (an ogre is never
    held, L6), and goblins, each where the card file holds it."""
    return [
        (f"{CARD_NAMES[card].capitalize()}s", {"removed_card": card})
        for card in (OGRE, GOBLIN)
        if setup.cards.forest[card] > 0
    ]


def effect_held(
    setup: FairyLandSetup, arrays: dict[str, np.ndarray], card: int, seat: int
) -> np.ndarray:
    """How many of ``card`` ``seat`` owned at the end of each game of the run ``arrays`` (a
    forest card's ``n_<card>``; 1 where it held or used a court item): the count the
    card-effect study's association is the slope on."""
    if card < N_CARD_TYPES:
        return np.asarray(arrays[f"n_{CARD_NAMES[card]}"][:, seat], np.int64)
    bit = np.uint32(1) << np.uint32(card - N_CARD_TYPES)
    owned = arrays["items_held_mask"][:, seat] | arrays["items_used_mask"][:, seat]
    return ((owned & bit) > 0).astype(np.int64)


def parse_court(court: str | Path | Court | None) -> tuple[str, Court]:
    """``--court``: ``random`` (None), ``starred``, ``none`` or a court file, as ``(name, Court)``;
    anything else is a one-line error naming ``--court``."""
    if isinstance(court, Court):
        if court.selection != "all":
            return court.selection, court
        return RANDOM_COURT if court.source == str(DEFAULT_COURT) else court.source, court
    name = RANDOM_COURT if court is None else str(court).strip()
    key = name.casefold()
    if key == RANDOM_COURT:
        return RANDOM_COURT, load_court(None)
    if key in COURTS:
        return key, load_court(key)
    try:
        return name, load_court(Path(name))
    except CardFileError as error:
        raise ParameterError(
            "court", f"must be {', '.join(COURTS)} or a court file; {error}"
        ) from None


def make_setup(
    *,
    players: int = 4,
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    seed: int = 0,
    cards: str | Path | FairyLandCards | None = None,
    court: str | Path | Court | None = None,
    forced_card: int = 0,
    forced_seat: int = 0,
    removed_card: int = 0,
) -> FairyLandSetup:
    """Validate a configuration; errors name the option at fault (``--players``, ``--court`` ...).

    Parameters
    ----------
    players : int
        2 to 4.
    policies : str, Policy or sequence
        One per player, or one for all.
    seed : int
    cards : path or FairyLandCards, optional
        Forest and House card file (the shipped one when None).
    court : str, path or Court, optional
        ``"random"`` (default: 9 of the shipped 19 PROVISIONAL items each game, L2, L13),
        ``"starred"`` (the 9 first-game items), ``"none"`` (a court of no effect, PL9) or a court
        file.
    forced_card, forced_seat : int, default 0
        A card-effect intervention (ruling PL10): seat ``forced_seat`` starts every game with
        ``forced_card`` (see :func:`effect_cards`); 0 for none.
    removed_card : int, default 0
        A card removal (ruling PL12): every card of that forest type leaves each game's
        shuffled forest (see :func:`removal_variants`); 0 for none.

    Returns
    -------
    FairyLandSetup
    """
    court_name, court_set = parse_court(court)
    card_set = cards if isinstance(cards, FairyLandCards) else load_cards(cards)
    return FairyLandSetup.checked(
        players=players,
        policies=policies,
        seed=seed,
        cards=card_set,
        court=court_set,
        court_name=court_name,
        forced_card=int(forced_card),
        forced_seat=int(forced_seat),
        removed_card=int(removed_card),
    )
