"""Fantastique's declared contract (:mod:`fairysim.sim.game`): what the command line, sweeps,
and the benchmark know of the game. Imports no numba: ``fairysim --help`` reads it.
"""

from __future__ import annotations

from fairysim.sim.fantastique.facts import FANS as FANS
from fairysim.sim.fantastique.facts import MAX_PLAYERS as MAX_PLAYERS
from fairysim.sim.fantastique.facts import MIN_PLAYERS as MIN_PLAYERS
from fairysim.sim.game import (
    BenchSpec,
    Flag,
    GameSpec,
    SetupAxis,
    TurnOrder,
    register,
)

NAME = "fantastique"

ENGINE_VERSION = 3
"""Bumped whenever the engine's behaviour (and so any result) changes."""


SEAT_COLUMNS = (
    "score",
    "rank",
    "win_share",
    "medal_points",
    "finale_count",
    "finale_points",
    "medals",
    "hand_size",
    "pre_finale_rank",
    "pre_finale_win_share",
)
"""Per-seat result columns (besides game, seat, policy and the setup columns fan, players)."""

BENCH = (
    *(
        BenchSpec(
            f"{players} players, {policy}" + ("" if lanes else ", one game at a time"),
            {"players": players, "policies": policy, "fan": "I"},
            lanes,
            apart,
        )
        # Greedy tables play in lanes; the one-game engine's figure is kept beside it. One lanes
        # kernel and one engine kernel serve every table: only the first two compile apart.
        for players, policy, lanes, apart in (
            (4, "greedy", True, True),
            (4, "greedy", False, True),
            (4, "random", True, False),
            (4, "hoarder", True, False),
            (2, "greedy", True, False),
            (5, "greedy", True, False),
        )
    ),
    # One rollout seat (issue 26's speed target: 1,000 games a second on 2 cores).
    BenchSpec(
        "4 players, rollout + 3 balancer",
        {"players": 4, "policies": "rollout,balancer,balancer,balancer", "fan": "I"},
        games=4_000,
        reference=False,
    ),
)


SPEC = register(
    GameSpec(
        name=NAME,
        title="Fantastique",
        engine_version=ENGINE_VERSION,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        default_players=4,
        package="fairysim.sim.fantastique",
        reference="fairysim.sim.fantastique.reference:play_games",
        bench=BENCH,
        compile_seconds=30,
        seat_columns=SEAT_COLUMNS,
        axes=(
            SetupAxis(
                "fan",
                values=FANS,
                default="I",
                sweep_keyword="fans",
            ),
        ),
        flags=(Flag("trace"),),
        score_parts=("medal_points", "finale_points"),
        # F1: the start seat of round 1 is drawn; later rounds start elsewhere (F7), so this is
        # the round-1 order.
        # The skill ladder's rungs, weakest first; the best heuristic last (issue 26's ranking).
        ladder=("random", "greedy", "balancer"),
        search="rollout",
        # At 2 players K = 4 is not shown to beat balancer (50.7% [47.2, 54.3] of 800 games);
        # K = 16 wins 70.8% there (docs/policies.md).
        search_weights={2: {"rollouts": 16}},
        turn_order=TurnOrder(
            start_seat="start_seat",
            ruling="F1",
        ),
        # --trace adds each seat's medal points after round r as medal_points_round_r.
        trace_prefix="medal_points_round_",
    )
)
