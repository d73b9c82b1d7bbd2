"""Fairy Land's report, declared (:mod:`fairysim.analysis.report.registry`): its name, options and
defaults, light enough for ``fairysim report --help``; :mod:`~fairysim.analysis.fairyland.report`
writes it."""

from __future__ import annotations

from fairysim.analysis.report.registry import (
    ReportOption,
    ReportSpec,
    best_heuristic_games_option,
    card_games_option,
    heuristic_games_option,
    ladder_games_option,
    policy_option,
    register_report,
    response_evaluations_option,
    search_games_option,
)

REPORT_GAMES = 15_000
"""Games per (court, player count) run of the report at ``--games``'s scale: the default
report plays to :data:`REPORT_PRECISION`, at most eight times this."""

REPORT_PRECISION = 0.01
"""The corrected half-width (win-share units) of the balance card's turn-order win shares the
default report plays to (seed 1, greedy: about 32,000 games per run; its time in
docs/performance-log.md)."""

REPORT_AUCTION_GAMES = 1_000
"""Games per player count whose every auction is logged (about 28,000 auctions per player
count; :func:`fairysim.sim.fairyland.play_auctions`): the mean price and prize of a clearing
size are then known to +/- 0.03 to 0.2 fairy value or point (+/- 0.35 for the rare clearings of
6 cards or more; seed 1, greedy, 2026-12-02). Logging costs the fast engine two scorings an
auction, about a second of the report."""

REPORT_SEARCH_GAMES = 30
"""Games of the report's search rung at each player count: its mirror table, and each seat of
one rollout seat among value-bidders (about 40 s warm)."""

REPORT_RESPONSE_EVALUATIONS = 12
"""Candidates of the best-response rung's search (the best heuristic against the built-ins at 4
players), sized to add well under a minute warm on 2 cores."""

REPORT_LADDER_GAMES = 6_000
"""Games per mirror table of the report's skill-ladder section (every seat one rung, at each
player count, the random court); its tournament of the rungs plays a tenth of it per mix and
rotation."""

REPORT_CARD_GAMES = 5_000
"""Games per arm (the baseline and one per card type: 20 forest types and 19 court items) of the
report's card-effect section, at each player count: 3 x 40 x 5,000 = 600,000 games, and as many
again under value-bidder at one player count. The effects are large (the Garland's is about +35
points of win share), so 5,000 games an arm separate most cards; the section and the ladder kept
the whole default report near a minute and a half of CPU on 2 cores (2026-12-04). The same
count is played per arm of the ogres and goblins removed from the forest (ruling PL12; the
shipped forest and 2 removals: 3 x 3 x 5,000 = 45,000 games more)."""

REPORT_BEST_HEURISTIC_GAMES = 100
"""Games per mix and rotation of the tournament that chooses the best heuristic
(:mod:`fairysim.analysis.studies.best_heuristic`): the 5 heuristics at 4 players,
65 mixes x 4 rotations, 26,000 games, 47 s under a load of 8 on 2 cores at seed 0
(value-bidder chosen, separated from flower-gardener: 52.3% [50.4%, 54.2%] of 11,200
meetings; at 20 games a pairing the two were not separated)."""

REPORT_HEURISTIC_GAMES = 10_000
"""Games per court under each policy of the report's court check under the best heuristic
(greedy, then value-bidder, at every seat, 4 players, the three courts): 3 x 2 x 10,000 = 60,000
games, a few seconds warm on 2 cores."""

REPORT = register_report(
    ReportSpec(
        "fairyland",
        game="fairyland",
        help="Write the Fairy Land report (card and item balance, auctions, the court's effect, "
        "game length, seat advantage; 2 to 4 players) and print where it is.",
        writer="fairysim.analysis.fairyland.report:write_report",
        games_help="Games per court (random, starred, none) and player count",
        games_default=REPORT_GAMES,
        precision_default=REPORT_PRECISION,
        takes_cards=True,
        options=(
            policy_option("The one policy every seat plays (a built-in or module:function)."),
            ladder_games_option(REPORT_LADDER_GAMES, ", the random court"),
            search_games_option(REPORT_SEARCH_GAMES),
            response_evaluations_option(REPORT_RESPONSE_EVALUATIONS),
            card_games_option(
                REPORT_CARD_GAMES,
                "per card type (forest cards but the ogre, court items), at every player "
                "count, random court; as many per arm of the ogres and goblins removed "
                "from the forest (the shipped forest and one arm per type, ruling PL12)",
            ),
            heuristic_games_option(
                REPORT_HEURISTIC_GAMES,
                "per court of the check of the court comparisons (every court pair on "
                "every measure)",
            ),
            best_heuristic_games_option(REPORT_BEST_HEURISTIC_GAMES),
            ReportOption(
                "auction_games",
                "--auction-games",
                "Games per player count whose every auction's price and prize is logged.",
                kind="games",
                games_default=REPORT_AUCTION_GAMES,
            ),
        ),
    )
)
"""``fairysim report fairyland``."""
