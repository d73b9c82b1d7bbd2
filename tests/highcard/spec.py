"""High card's declared contract: registered from tests/ only (see the package docstring)."""

from __future__ import annotations

from fairysim.sim.game import BenchSpec, GameSpec, SetupAxis, register

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
        ladder=("coin", "stand", "redraw-low"),
        axes=(
            SetupAxis(
                "deck",
                ("short", "long"),
                default="long",
            ),
        ),
    )
)
