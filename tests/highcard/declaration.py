"""High card's command-line wording (:mod:`fairysim.analysis.wording`), registered from tests/
only, as a game's analysis package declares it."""

from __future__ import annotations

from fairysim.analysis.wording import GameWording, register_wording

from .spec import NAME

WORDING = register_wording(
    GameWording(
        game=NAME,
        players="Number of players, 2 to 4.",
        cards="High card has no card file.",
        axes={"deck": "Deck: short (1-6) or long (1-13)."},
        turn_order="the seat index is the turn order, seat 0 the 1st to act",
        weights={"redraw-low": {"below": "Redraws a card below this value."}},
    )
)
