"""How a game's cards are measured, declared per game in its analysis package: the card-effect
intervention (:mod:`~fairysim.analysis.studies.card_effects`) and the cards measured on the
whole table (:mod:`~fairysim.analysis.studies.table_cards`).

The engine package (:mod:`fairysim.sim`) offers the arms (a setup's ``forced_card`` and
``forced_seat``, the package's ``effect_cards`` and variant functions); what a study forces and
the sentences a report says about it are written here, registered by the game's
``analysis/<game>/declaration.py`` (:mod:`fairysim.analysis.declarations`), so that editing them
touches no module the kernels are compiled from. The entry points are ``"module:attribute"``
strings naming the game's engine package, imported only when a study plays. A game that
registers none declares no card study.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fairysim.analysis.declarations import declaration_modules

if TYPE_CHECKING:  # declarations load no engine package (``fairysim report --help``)
    from fairysim.sim.game import GameSpec


@dataclass(frozen=True)
class CardEffects:
    """How a game measures a card's own effect (the card-effect study): an intervention on
    otherwise identical deals, declared by the game.

    A setup of such a game has the fields ``forced_card`` (a card id, 0 for none) and
    ``forced_seat``; under them every game's deal puts the card in the seat's reach, as
    ``intervention`` says, and the run's rows carry the per-game columns ``forced_held`` (how
    many of the card the seat had without the intervention) and ``forced_exchanged`` (1 where
    the intervention was made, 0 where the deal left no way to make it). ``cards`` names the
    package's ``effect_cards(setup)``: the ``(card id, label)`` pairs a study forces.
    """

    cards: str
    intervention: str
    """One sentence: what the intervention does to a deal, citing its ruling."""
    card_label: str = "card"
    """What a row of the effects table is ("card value")."""
    ruling: str = ""
    held: str | None = None
    """Names the package's ``effect_held(setup, arrays, card, seat)``: how many of the card the
    seat had in each game of the baseline run ``arrays``, the count the association is the
    slope on; None: the forced arm's ``forced_held`` (a game whose seats are dealt cards)."""
    held_text: str = "it was dealt"
    """What that count is, after "per card of that <card_label>"."""
    stronger: str = "stronger than the card it replaces"
    """The verdict where the corrected interval is above 0."""
    weaker: str = "weaker than the card it replaces"
    """The verdict where it is below 0."""
    zero_note: str = (
        "It compares the card with the one it replaces, so a card worth the hand's average scores 0"
    )
    """One sentence: what the effect compares the card with, and what scores 0."""


@dataclass(frozen=True)
class TableCards:
    """Cards measured on the whole table (the table-card study): each card one what-if variant
    of the report's setup, played on the same seeds against the setup as shipped, where no seat
    can be dealt the card (a card never held; a card that is the table's, not a seat's).

    ``variants`` names the package's ``<function>(setup)``: the ``(label, options)`` pairs of
    the cards, ``options`` the ``make_setup`` keywords that make the variant (Fairy Land's
    ``{"removed_card": ogre}``, Fairy Concerto's ``{"soloist": "A"}``).
    """

    name: str
    """The study's table name in a report's files (``card_removals``)."""
    variants: str
    heading: str
    """The report's subsection heading ("A card type removed from the deck")."""
    intervention: str
    """One sentence: what a variant does to the shipped setup, citing its ruling."""
    paired: str
    """One sentence: what the variant leaves paired with the shipped game and what not."""
    shipped: str = "the shipped setup"
    """How the page names the baseline ("the shipped deck")."""
    raises: str = "higher than shipped"
    """The verdict where the corrected interval is above 0."""
    lowers: str = "lower than shipped"
    ruling: str = ""
    games_share: float = 1.0
    """Games per arm as a share of a report's ``--card-games`` (a study of many cards plays
    fewer games an arm, to keep the report's time)."""


@dataclass(frozen=True)
class CardStudies:
    """How one game's cards are measured.

    Attributes
    ----------
    game : str
        The registered game's name.
    card_effects : CardEffects, optional
        The game's card-effect intervention; None where it declares none.
    table_cards : tuple of TableCards
        Cards the game measures on the whole table (a removal, a table card fixed).
    """

    game: str
    card_effects: CardEffects | None = None
    table_cards: tuple[TableCards, ...] = ()


CARD_STUDIES: dict[str, CardStudies] = {}
"""The registered card studies, by game name."""


def register_card_studies(studies: CardStudies) -> CardStudies:
    """Make ``studies`` how its game's cards are measured (a declaration module calls this once,
    at import)."""
    CARD_STUDIES[studies.game] = studies
    return studies


def card_studies_of(spec: GameSpec) -> CardStudies:
    """The registered card studies of ``spec``'s game (its declaration module imported first),
    else none."""
    declaration_modules()
    return CARD_STUDIES.get(spec.name) or CardStudies(spec.name)


def card_effects_of(spec: GameSpec) -> CardEffects | None:
    """``spec``'s card-effect intervention, None where its game declares none."""
    return card_studies_of(spec).card_effects


def table_cards_of(spec: GameSpec) -> tuple[TableCards, ...]:
    """The cards ``spec``'s game measures on the whole table (none: empty)."""
    return card_studies_of(spec).table_cards


__all__ = [
    "CARD_STUDIES",
    "CardEffects",
    "CardStudies",
    "TableCards",
    "card_effects_of",
    "card_studies_of",
    "register_card_studies",
    "table_cards_of",
]
