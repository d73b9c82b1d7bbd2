"""Fantastique's declared contract (:mod:`fairysim.sim.game`): what the command line, sweeps,
the benchmark and the reports know of the game. Imports no numba: ``fairysim --help`` reads it.
"""

from __future__ import annotations

from fairysim.sim.game import (
    BenchSpec,
    CardEffects,
    Flag,
    GameSpec,
    ReportOption,
    ReportSpec,
    SetupAxis,
    SummaryColumn,
    TurnOrder,
    card_games_option,
    heuristic_games_option,
    ladder_games_option,
    register,
    search_games_option,
)

NAME = "fantastique"

ENGINE_VERSION = 3
"""Bumped whenever the engine's behaviour (and so any result) changes."""

MIN_PLAYERS = 2
MAX_PLAYERS = 5

FANS = ("I", "II", "III", "IV", "V", "VI")
"""The six Grande Finale fan sides; a fan is passed to kernels as its index in this tuple."""

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

REPORT_GAMES = 6_000
"""Games per (fan, player count, lineup) cell of the report at ``--games``'s scale: the default
report plays to :data:`REPORT_PRECISION`, at most eight times this."""

REPORT_PRECISION = 0.015
"""The corrected half-width (win-share units) of the balance card's turn-order win shares the
default report plays to (seed 1, greedy: 16,000 games per cell; its time in
docs/performance-log.md)."""

REPORT_LADDER_GAMES = 20_000
"""Games per mirror table of the report's skill-ladder section (every seat one rung, at each
player count); its tournament of the rungs plays a tenth of it per mix and rotation."""

REPORT_SEARCH_GAMES = 400
"""Games of the report's search rung at each player count: its mirror table, and each seat of
one rollout seat among three balancers (2 to 5 players: about 20 s warm)."""

REPORT_CARD_GAMES = 20_000
"""Games per arm (the baseline and one per card value) of the report's card-effect section,
at each player count: 4 x 9 x 20,000 = 720,000 games, a few seconds warm."""

REPORT_HEURISTIC_GAMES = 20_000
"""Games per fan under each policy of the report's fan-strength check under the best heuristic
(greedy, then balancer, at every seat, 4 players): 6 x 2 x 20,000 = 240,000 games, about 3 s
warm on 2 cores."""

SPEC = register(
    GameSpec(
        name=NAME,
        title="Fantastique",
        engine_version=ENGINE_VERSION,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        default_players=4,
        players_help=f"Number of players, {MIN_PLAYERS} to {MAX_PLAYERS}.",
        package="fairysim.sim.fantastique",
        reference="fairysim.sim.fantastique.reference:play_games",
        bench=BENCH,
        compile_seconds=30,
        seat_columns=SEAT_COLUMNS,
        summary=(
            SummaryColumn("score", ("score",)),
            SummaryColumn(
                "medal\npoints",
                ("medal_points",),
                legend="medal points: medals won in rounds 1-7, the Grande Finale's not counted",
            ),
            SummaryColumn(
                "finale\npoints",
                ("finale_points",),
                legend="finale points: the Grande Finale medal, Gold 20 or Silver 10 (F9)",
            ),
            SummaryColumn(
                "finale\ncards",
                ("finale_count",),
                legend="finale cards: the seat's Grande Finale count on the fan in play (F8)",
            ),
        ),
        cards_help="Card file (TOML) for a variant deck or medal ladder (format of "
        "src/fairysim/sim/fantastique/data/cards.toml).",
        axes=(
            SetupAxis(
                "fan",
                "--fan",
                "Grande Finale fan side: I, II, III, IV, V or VI.",
                values=FANS,
                default="I",
                sweep_option="--fans",
                sweep_keyword="fans",
            ),
        ),
        flags=(
            Flag(
                "trace",
                "--trace",
                "Add each seat's medal points after every round to the --out rows.",
            ),
        ),
        score_parts=("medal_points", "finale_points"),
        card_effects=CardEffects(
            cards="fairysim.sim.fantastique.setup:effect_cards",
            intervention="before the deal, the first card the seat is dealt of another value "
            "changes places with the top card of that value left in the draw pile (PF5)",
            card_label="card value",
            ruling="PF5",
        ),
        # F1: the start seat of round 1 is drawn; later rounds start elsewhere (F7), so this is
        # the round-1 order.
        # The skill ladder's rungs, weakest first; the best heuristic last (issue 26's ranking).
        ladder=("random", "greedy", "balancer"),
        search="rollout",
        # At 2 players K = 4 is not shown to beat balancer (50.7% [47.2, 54.3] of 800 games);
        # K = 16 wins 70.8% there (docs/policies.md).
        search_weights={2: {"rollouts": 16}},
        turn_order=TurnOrder(
            start_seat="first_seat",
            ruling="F1",
            label="turn",
            note="round-1 turn position, 0 = the starter, drawn at random each game (F1)",
        ),
        # --trace adds each seat's medal points after round r as medal_points_round_r.
        trace_prefix="medal_points_round_",
        reports=(
            ReportSpec(
                "fantastique",
                "Write the Fantastique balance report (2 to 5 players) and print where the HTML "
                "is.",
                writer="fairysim.analysis.fantastique:write_report",
                games_help="Games per (fan, player count, lineup) cell",
                games_default=REPORT_GAMES,
                precision_default=REPORT_PRECISION,
                takes_cards=True,
                options=(
                    ladder_games_option(REPORT_LADDER_GAMES),
                    search_games_option(REPORT_SEARCH_GAMES),
                    card_games_option(
                        REPORT_CARD_GAMES, "per card value, at every player count, fan I"
                    ),
                    heuristic_games_option(
                        REPORT_HEURISTIC_GAMES,
                        "per fan of the check of fan strength (every pair of fans compared)",
                    ),
                    ReportOption(
                        "policy",
                        "--policy",
                        "The baseline's policy: at every seat, and around the fan-aware seat "
                        "(a built-in or module:function).",
                        kind="policy",
                        default="greedy",
                    ),
                ),
            ),
        ),
    )
)
