"""Fairy Land's declared contract (:mod:`fairysim.sim.game`): what the command line, sweeps, the
benchmark know of the game. Imports no numba: ``fairysim --help`` reads it.
"""

from __future__ import annotations

from fairysim.sim.fairyland.facts import MAX_PLAYERS as MAX_PLAYERS
from fairysim.sim.fairyland.facts import MIN_PLAYERS as MIN_PLAYERS
from fairysim.sim.fairyland.facts import PART_NAMES as PART_NAMES
from fairysim.sim.game import (
    BenchSpec,
    Flag,
    GameSpec,
    SetupAxis,
    TurnOrder,
    register,
)

NAME = "fairyland"

ENGINE_VERSION = 2
"""Bumped whenever the engine's behaviour (and so any result) changes."""


COURTS = ("random", "starred", "none")
"""The named courts of ``--court`` (any other value is a court file): 9 of the shipped 19 items
drawn per game (L2), the 9 starred items (the first-game court), a court of no effect (PL9)."""


COLLECTED_NAMES = (
    "warrior",
    "explorer",
    "fauna",
    "flora",
    "herald",
    "wind",
    "squirrel",
    "fox",
    "racoon",
    "deer",
    "bear",
    "unicorn",
    "turtle",
    "yellow",
    "white",
    "violet",
    "pink",
    "red",
    "goblin",
    "lost_half",
)
"""Forest cards a seat can own at the end, by type (rules.CARD_NAMES; ogres are never kept)."""

FOREST_LABELS = {
    **{
        name: name.capitalize()
        for name in ("squirrel", "fox", "racoon", "deer", "bear", "unicorn", "turtle")
    },
    **{
        name: f"{name.capitalize()} flower" for name in ("yellow", "white", "violet", "pink", "red")
    },
    "warrior": "Warrior Fairy",
    "explorer": "Explorer Fairy",
    "fauna": "Fairy of the Fauna",
    "flora": "Fairy of the Flora",
    "herald": "Herald Fairy",
    "wind": "Fairy of the Wind",
    "goblin": "Goblin",
    "ogre": "Ogre (taken)",
    "lost_half": "Lost Half of the Pendant",
}
"""Display names of the forest card types (the rulebook's, not the card file's ids)."""

PART_COLUMNS = tuple(f"{name}_points" for name in PART_NAMES)
COLLECTED_COLUMNS = tuple(f"n_{name}" for name in COLLECTED_NAMES)

SEAT_COLUMNS = (
    "score",
    "rank",
    "win_share",
    *PART_COLUMNS,
    "turn_position",
    "hand_value",
    *COLLECTED_COLUMNS,
    "items_held",
    "items_used",
    "auctions_won",
    "fairies_paid",
    "value_paid",
    "queen_visits",
    "druid_visits",
    "crests_used",
    "ogres_gained",
)
"""Per-seat result columns that summaries average (besides game, seat, policy). Points are
floats (exact halves, ruling L11): ``score`` and ``<part>_points``. ``turn_position`` is 0 for
the starting player (L18); ``hand_value`` the fairies left in hand (applause, tie-break L12);
``n_<card>`` the forest cards the seat owns at the end (special fairies in hand or played
included); ``items_held`` the court items it holds at the end, ``items_used`` the usable ones
it used; ``ogres_gained`` the ogres it took (L6; a Warrior's never are, L5). The rows also
carry ``items_held_mask``/``items_used_mask`` (bit i = court item i) and the per-game
``turns``, ``auctions``, ``unbid_clearings``, ``start_seat``, ``court_items`` (bitmask of the
game's 9 items) and the setup columns ``players`` and ``court``."""

BENCH = (
    *(
        # One engine kernel serves every table: the first case's cold compile is the game's.
        BenchSpec(label, {"players": players, "policies": policy}, compile_apart=i == 0)
        for i, (players, policy, label) in enumerate(
            (
                (4, "value-bidder", "4 players, value-bidder"),  # issue 18's speed target
                (4, "greedy", "4 players, greedy"),
                (4, "random", "4 players, random"),
                (3, "greedy", "3 players, greedy"),
                (2, "greedy", "2 players, greedy"),
            )
        )
    ),
    # Issue 26's target: one searching seat (K = 16), value-bidder at the others. The kernel
    # that searches is a second compile; the reference engine cannot play it.
    BenchSpec(
        "4 players, rollout (K=16) vs value-bidder",
        {"players": 4, "policies": "rollout,value-bidder,value-bidder,value-bidder"},
        reference=False,
        games=400,
    ),
)


SPEC = register(
    GameSpec(
        name=NAME,
        title="Fairy Land",
        engine_version=ENGINE_VERSION,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        default_players=4,
        package="fairysim.sim.fairyland",
        reference="fairysim.sim.fairyland.reference:play_games",
        bench=BENCH,
        compile_seconds=55,
        seat_columns=SEAT_COLUMNS,
        ties="ties broken by L12, one winner a game",
        axes=(
            SetupAxis(
                "court",
                default="random",
            ),
        ),
        score_parts=PART_COLUMNS,
        # The skill ladder's rungs, weakest first; the best heuristic last (issue 26's ranking).
        ladder=("random", "greedy", "value-bidder"),
        search="rollout",
        turn_order=TurnOrder(
            column="turn_position",
            ruling="L18",
        ),
        length_column="turns",
        flags=(Flag("trace"),),
        # --trace adds each seat's standing after round r of turns as score_round_r (9, 12 and
        # 18 rounds at 4, 3 and 2 players with the rulebook's deck; ruling PL11).
        trace_prefix="score_round_",
    )
)
