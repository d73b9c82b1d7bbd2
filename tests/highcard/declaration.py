"""High card's command-line wording (:mod:`fairysim.analysis.wording`) and card studies
(:mod:`fairysim.analysis.studies.card_studies`), registered from tests/ only, as a game's analysis
package declares them."""

from __future__ import annotations

from fairysim.analysis.studies.card_studies import (
    CardEffects,
    CardStudies,
    TableCards,
    register_card_studies,
)
from fairysim.analysis.wording import GameWording, SummaryColumn, register_wording

from .spec import NAME

WORDING = register_wording(
    GameWording(
        game=NAME,
        players="Number of players, 2 to 4.",
        cards="High card has no card file.",
        axes={"deck": "Deck: short (1-6) or long (1-13)."},
        turn_order="the seat index is the turn order, seat 0 the 1st to act",
        weights={"redraw-low": {"below": "Redraws a card below this value."}},
        summary=(SummaryColumn("card", ("score",)), SummaryColumn("redrew", ("redrew",))),
    )
)

CARD_STUDIES = register_card_studies(
    CardStudies(
        game=NAME,
        card_effects=CardEffects(
            cards="highcard:effect_cards",
            intervention="the seat is dealt the card in place of the one it drew",
        ),
        table_cards=(
            TableCards(
                "removals",
                variants="highcard:removal_variants",
                heading="A card removed from the shoe",
                intervention="a removed value is skipped at the draw",
                paired="every draw of a value both shoes hold",
                raises="higher without it",
                lowers="lower without it",
            ),
        ),
    )
)
