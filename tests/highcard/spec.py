"""High card's declared contract: registered from tests/ only (see the package docstring)."""

from __future__ import annotations

from fairysim.sim.game import (
    BenchSpec,
    CardEffects,
    GameSpec,
    SetupAxis,
    SummaryColumn,
    TableCards,
    register,
)

NAME = "highcard"

TOPS = {"short": 6, "long": 13}
"""Highest card of each deck."""

SPEC = register(
    GameSpec(
        name=NAME,
        title="High card",
        engine_version=1,
        min_players=2,
        max_players=4,
        default_players=3,
        package="highcard",
        reference="highcard.reference:play_games",
        bench=(BenchSpec("3 players, stand", {"players": 3, "policies": "stand"}),),
        seat_columns=("score", "rank", "win_share", "redrew"),
        summary=(SummaryColumn("card", ("score",)), SummaryColumn("redrew", ("redrew",))),
        ladder=("coin", "stand", "redraw-low"),
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
        axes=(
            SetupAxis(
                "deck",
                ("short", "long"),
                default="long",
            ),
        ),
    )
)
