"""Fairy Concerto's two reports, declared (:mod:`fairysim.analysis.report.registry`): card balance
for 2 to 4 players (:mod:`~fairysim.analysis.concerto.report`) and solo against Pahha
(:mod:`~fairysim.analysis.concerto.solo_report`), their names, options and defaults, light enough
for ``fairysim report --help``."""

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

REPORT_GAMES = 60_000
"""Games per player count of the card-balance report at ``--games``'s scale: the
default report plays to :data:`REPORT_PRECISION`, at most eight times this."""

REPORT_PRECISION = 0.005
"""The corrected half-width (win-share units) of the balance card's turn-order win shares the
default report plays to (seed 1, greedy: 128,000 games per player
count; its time in docs/performance-log.md)."""

REPORT_SEARCH_GAMES = 100
"""Games of the report's search rung at each player count: its mirror table, and each seat of
one rollout seat among chasers (2 to 4 players: about 30 s warm)."""

REPORT_RESPONSE_EVALUATIONS = 12
"""Candidates of the best-response rung's search (the best heuristic against the built-ins at 4
players), sized to add well under a minute warm on 2 cores."""

REPORT_LADDER_GAMES = 20_000
"""Games per mirror table of the report's skill-ladder section (every seat one rung, at each
player count); its tournament of the rungs plays a tenth of it per mix and rotation."""

REPORT_CARD_GAMES = 10_000
"""Games per arm (the baseline and one per score card) of the card-balance report's card-effect
section, at each player count: 3 x 27 x 10,000 = 810,000 games. The soloist, pianist and
harpist cards fixed against the card drawn (ruling PC3) play half of it an arm, the drawn card
and one arm per contest card: 3 x 11 x 5,000 = 165,000 games more."""

REPORT_BEST_HEURISTIC_GAMES = 200
"""Games per mix and rotation of the tournament that chooses the best heuristic
(:mod:`fairysim.analysis.studies.best_heuristic`): the 4 heuristics at 4 players,
31 mixes x 4 rotations, 24,800 games, about 4 minutes under a load of 8 on 2 cores
(chaser chosen, separated from maestro: 63.7% [61.5%, 65.9%] of 16,800 meetings)."""

REPORT_HEURISTIC_GAMES = 20_000
"""Games under each policy of the card-balance report's score-card check under the best
heuristic (greedy, then chaser, at every seat, 4 players; :mod:`~fairysim.analysis.concerto.check`):
2 x 20,000 games, the 26 holders' lifts one corrected family under each policy."""

SOLO_REPORT_GAMES = 100_000
"""Games per fast solo policy (random, greedy, chaser, maestro, denier) in the solo report.

The greedy run gives the setup table about 2,800 games per soloist x pianist x harpist
combination (a 95 % interval of about +/- 1.7 percentage points on each), and every win rate a
Wilson interval of about +/- 0.3 points. On 2 shared cores the five runs take 5 to 25 s
(measured with a warm numba cache, depending on the load)."""

SOLO_LOOKAHEAD_GAMES = 20_000
"""Games of the lookahead policy in the solo report.

Lookahead plays every decision by Monte Carlo rollouts and manages about 750 to 1,400 games a
second on 2 shared cores, so these games take 15 to 30 s: with the fast policies, the default
report took 23 to 62 s warm (well under the 2-minute budget). Its gain over greedy, paired on these
deals, has a 95 % interval of about +/- 0.7 percentage points."""

SOLO_SEARCH_GAMES = 20_000
"""Games of the search player (``rollout``) in the solo report; 0 leaves it out."""

SOLO_CARD_GAMES = 20_000
"""Games per arm (the baseline and one per score card) of the solo report's card-effect section:
27 x 20,000 = 540,000 games of greedy against Pahha."""

REPORT = register_report(
    ReportSpec(
        "concerto",
        game="concerto",
        help="Write the Fairy Concerto card-balance report (2 to 4 players) and print where it is.",
        writer="fairysim.analysis.concerto.report:write_report",
        games_help="Games per player count",
        games_default=REPORT_GAMES,
        precision_default=REPORT_PRECISION,
        takes_cards=True,
        options=(
            policy_option("The one policy every seat plays (a built-in or module:function)."),
            ladder_games_option(REPORT_LADDER_GAMES),
            search_games_option(REPORT_SEARCH_GAMES),
            response_evaluations_option(REPORT_RESPONSE_EVALUATIONS),
            card_games_option(
                REPORT_CARD_GAMES,
                "per score card, at every player count; half of it per arm of the "
                "soloist, pianist and harpist cards fixed (the card drawn at random and "
                "one arm per contest card, ruling PC3)",
            ),
            heuristic_games_option(
                REPORT_HEURISTIC_GAMES,
                "of the check of the score cards' holders' lifts (every score card)",
            ),
            best_heuristic_games_option(REPORT_BEST_HEURISTIC_GAMES),
        ),
    )
)
"""``fairysim report concerto``."""

SOLO_REPORT = register_report(
    ReportSpec(
        "concerto-solo",
        game="concerto",
        help="Write the Fairy Concerto solo report (win rates against Pahha) and print where it "
        "is.",
        writer="fairysim.analysis.concerto.solo_report:write_report",
        games_help="Games per fast policy",
        games_default=SOLO_REPORT_GAMES,
        takes_cards=True,
        balance_card=False,
        precision_watches="every fast policy's win rate against Pahha (Wilson)",
        options=(
            ReportOption(
                "lookahead_games",
                "--lookahead-games",
                "Games of the slow lookahead policy, paired with greedy on the first deals.",
                kind="games",
                games_default=SOLO_LOOKAHEAD_GAMES,
            ),
            ReportOption(
                "search_games",
                "--search-games",
                "Games of the search player (rollout), paired with greedy on the first "
                "deals (0 leaves it out, and its engine's minutes of first compile).",
                kind="games_or_zero",
                games_default=SOLO_SEARCH_GAMES,
            ),
            card_games_option(SOLO_CARD_GAMES, "per score card, greedy against Pahha"),
        ),
    )
)
"""``fairysim report concerto-solo``."""
