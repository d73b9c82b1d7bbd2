"""Fantastique's report, declared (:mod:`fairysim.analysis.report.registry`): its name, options and
defaults, light enough for ``fairysim report --help``; :mod:`~fairysim.analysis.fantastique.report`
writes it. Beside it the game's command-line wording (:mod:`fairysim.analysis.wording`) and its
card studies (:mod:`fairysim.analysis.studies.card_studies`)."""

from __future__ import annotations

from fairysim.analysis.report.registry import (
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
from fairysim.analysis.studies.card_studies import CardEffects, CardStudies, register_card_studies
from fairysim.analysis.wording import (
    PLAYERS,
    SCORE,
    SEARCH_WEIGHTS,
    GameWording,
    SummaryColumn,
    register_wording,
)

REPORT_GAMES = 6_000
"""Games per (fan, player count, lineup) cell of the report at ``--games``'s scale: the default
report plays to :data:`REPORT_PRECISION`, at most eight times this."""

REPORT_PRECISION = 0.015
"""The corrected half-width (win-share units) of the balance card's turn-order win shares the
default report plays to (measured at seed 1, greedy: 16,000 games per cell; its time in
docs/performance-log.md)."""

REPORT_LADDER_GAMES = 20_000
"""Games per mirror table of the report's skill-ladder section (every seat one rung, at each
player count); its tournament of the rungs plays a tenth of it per mix and rotation."""

REPORT_SEARCH_GAMES = 400
"""Games of the report's search rung at each player count: its mirror table, and each seat of
one rollout seat among three balancers (2 to 5 players: about 20 s warm)."""

REPORT_RESPONSE_EVALUATIONS = 12
"""Candidates of the best-response rung's search (the best heuristic against the built-ins at 4
players), sized to add well under a minute warm on 2 cores."""

REPORT_CARD_GAMES = 20_000
"""Games per arm (the baseline and one per card value) of the report's card-effect section,
at each player count: 4 x 9 x 20,000 = 720,000 games, a few seconds warm."""

REPORT_BEST_HEURISTIC_GAMES = 500
"""Games per mix and rotation of the tournament that chooses the best heuristic
(:mod:`fairysim.analysis.studies.best_heuristic`): the 3 heuristics at 4 players,
12 mixes x 4 rotations, 24,000 games (at 100 a pairing under a load of 8 on 2
cores, balancer was chosen, separated from hoarder: 60.3% [57.9%, 62.8%] of 6,000 meetings)."""

REPORT_HEURISTIC_GAMES = 20_000
"""Games per fan under each policy of the report's check, under the best heuristic
(greedy, then balancer, at every seat, 4 players): 6 x 2 x 20,000 = 240,000 games, about 3 s
warm on 2 cores."""

REPORT = register_report(
    ReportSpec(
        "fantastique",
        game="fantastique",
        help="Write the Fantastique balance report (2 to 5 players) and print where the HTML is.",
        writer="fairysim.analysis.fantastique.report:write_report",
        games_help="Games per (fan, player count, lineup) cell",
        games_default=REPORT_GAMES,
        precision_default=REPORT_PRECISION,
        takes_cards=True,
        options=(
            ladder_games_option(REPORT_LADDER_GAMES),
            search_games_option(REPORT_SEARCH_GAMES),
            response_evaluations_option(REPORT_RESPONSE_EVALUATIONS),
            card_games_option(REPORT_CARD_GAMES, "per card value, at every player count, fan I"),
            heuristic_games_option(
                REPORT_HEURISTIC_GAMES,
                "per fan of the check of how often each fan's finale changes the winner (every "
                "pair of fans compared)",
            ),
            best_heuristic_games_option(REPORT_BEST_HEURISTIC_GAMES),
            policy_option(
                "The baseline's policy: at every seat, and around the fan-aware seat "
                "(a built-in or module:function)."
            ),
        ),
    )
)
"""``fairysim report fantastique``."""

WORDING = register_wording(
    GameWording(
        game="fantastique",
        players=PLAYERS,
        cards="Card file (TOML) for a variant deck or medal ladder (format of "
        "src/fairysim/sim/fantastique/data/cards.toml).",
        axes={"fan": "Grande Finale fan side: I, II, III, IV, V or VI."},
        flags={"trace": "Add each seat's medal points after every round to the --out rows."},
        turn_order="round-1 turn position, 1st = the starter, drawn at random each game (F1)",
        summary=(
            SCORE,
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
        weights={
            "hoarder": {
                "finale": "Points per card of the Grande Finale fan kept in hand or gained: "
                "higher keeps more finale cards.",
                "count": "Points per card played or taken: higher plays bigger fans.",
                "value": "Points per point of the fan's value: higher plays stronger fans.",
            },
            "balancer": {
                "finale": "Points per Grande Finale card a fan gives up: higher keeps more "
                "finale cards.",
                "pick": "Points per seat a fan would pick a stack ahead of: higher plays for "
                "an earlier stack pick.",
                "spent": "Points per card a fan spends beyond the first: higher plays smaller "
                "fans.",
                "risk": "Share of the seats still to play taken to beat a fan their hand can "
                "beat: 0 expects none to, 1 every one.",
            },
            "rollout": SEARCH_WEIGHTS,
        },
    )
)
"""How the command line words Fantastique."""

CARD_STUDIES = register_card_studies(
    CardStudies(
        game="fantastique",
        card_effects=CardEffects(
            cards="fairysim.sim.fantastique.setup:effect_cards",
            intervention="before the deal, the first card the seat is dealt of another value "
            "changes places with the top card of that value left in the draw pile (PF5)",
            card_label="card value",
            ruling="PF5",
        ),
    )
)
"""How Fantastique's card studies measure its cards (ruling PF5)."""
