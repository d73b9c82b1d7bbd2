"""Fairy Concerto's declared contract (:mod:`fairysim.sim.game`): what the command line, sweeps,
and the benchmark know of the game. Imports no numba: ``fairysim --help`` reads it.
"""

from __future__ import annotations

from fairysim.sim.concerto.facts import KINDS as KINDS
from fairysim.sim.concerto.facts import MAX_PLAYERS as MAX_PLAYERS
from fairysim.sim.concerto.facts import MIN_PLAYERS as MIN_PLAYERS
from fairysim.sim.concerto.facts import PART_NAMES as PART_NAMES
from fairysim.sim.concerto.facts import SOLOISTS as SOLOISTS
from fairysim.sim.game import (
    BenchSpec,
    Flag,
    GameSpec,
    SetupAxis,
    TurnOrder,
    register,
)

NAME = "concerto"

ENGINE_VERSION = 2
"""Bumped whenever the engine's behaviour (and so any result) changes."""


SEAT_COLUMNS = (
    "score",
    "rank",
    "win_share",
    "margin",
    *PART_NAMES,
    "cards_held",
    "cards_completed",
    "held_mask",
    "completed_mask",
    *(f"n_{k}" for k in KINDS),
)
"""Per-seat result columns (besides game, seat, policy and the setup columns). ``margin`` is the
score minus the best other score of the game; ``held_mask``/``completed_mask`` have bit ``i`` set
for score card ``i`` of the card file; ``n_<kind>`` counts the orchestra by kind."""

SUMMARY_COLUMNS = tuple(c for c in SEAT_COLUMNS if not c.endswith("_mask"))
"""The seat columns a summary averages (bit masks have no meaningful mean)."""

PAHHA_POLICY = "pahha"
"""Policy label of Pahha's row in solo results."""

PAHHA_NOTE = "A tie with Pahha is a loss; Pahha scores 3 per face-down score card (ruling C8)."
"""Printed under every table with a solo seat against Pahha."""


SPEC = register(
    GameSpec(
        name=NAME,
        title="Fairy Concerto",
        engine_version=ENGINE_VERSION,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        default_players=4,
        package="fairysim.sim.concerto",
        reference="fairysim.sim.concerto.reference:play_games",
        bench=(
            *(
                BenchSpec(label, {"players": players, "policies": "greedy"}, lanes, apart)
                # Greedy tables of solo and 3-4 players play in lanes (2 players in the one-game
                # engine); the one-game engine's figure is kept beside them. One lanes kernel
                # serves every player count, and the one-game engine has a kernel per form (3-4
                # players, 2 players, solo): the cases marked compile apart, the others reuse
                # their kernels.
                for players, label, lanes, apart in (
                    (4, "4 players, greedy", True, True),
                    (4, "4 players, greedy, one game at a time", False, True),
                    (3, "3 players, greedy", True, False),
                    (2, "2 players, greedy", True, True),
                    (1, "solo, greedy", True, False),
                    (1, "solo, greedy, one game at a time", False, True),
                )
            ),
            # One searching seat (K = 16 play-outs per choice by chaser) among chaser seats: the
            # issue's speed target. The reference engine cannot play rollout.
            BenchSpec(
                "4 players, rollout against chaser",
                {"players": 4, "policies": "rollout,chaser,chaser,chaser"},
                False,
                True,
                games=4_000,
                reference=False,
            ),
        ),
        seat_columns=SUMMARY_COLUMNS,
        axes=(
            SetupAxis(
                "soloist",
                values=SOLOISTS,
                column="soloist_card",
            ),
            SetupAxis(
                "pianist",
                values_from="pianist_ids",
                column="pianist_card",
            ),
            SetupAxis(
                "harpist",
                values_from="harpist_ids",
                column="harpist_card",
            ),
        ),
        flags=(Flag("trace"),),
        score_parts=PART_NAMES,
        # C4: seat 0 resolves first, then clockwise; the seat index is the turn order.
        # The skill ladder's rungs, weakest first; the best heuristic last (issue 26's ranking).
        ladder=("random", "greedy", "chaser"),
        search="rollout",
        turn_order=TurnOrder(ruling="C4"),
        # --trace adds each seat's standing after round r as score_round_r (2 rounds at 3-4
        # players, 4 at two, 7 solo; ruling PC6).
        trace_prefix="score_round_",
        compile_seconds=45,
    )
)
