"""Fairy Concerto's two reports, declared (:mod:`fairysim.analysis.report.registry`): card balance
for 2 to 4 players (:mod:`~fairysim.analysis.concerto.report`) and solo against Pahha
(:mod:`~fairysim.analysis.concerto.solo_report`), their names, options and defaults, light enough
for ``fairysim report --help``. Beside them the game's command-line wording
(:mod:`fairysim.analysis.wording`) and its card studies
(:mod:`fairysim.analysis.studies.card_studies`)."""

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
from fairysim.analysis.studies.card_studies import (
    CardEffects,
    CardStudies,
    TableCards,
    register_card_studies,
)
from fairysim.analysis.wording import (
    SCORE,
    SEARCH_WEIGHTS,
    GameWording,
    SummaryColumn,
    register_wording,
)

PAHHA = "pahha"
"""The policy of Pahha's row in solo results (``fairysim.sim.concerto.spec.PAHHA_POLICY``, not
imported: a declaration loads no engine package)."""

REPORT_GAMES = 60_000
"""Games per player count of the card-balance report at ``--games``'s scale: the
default report plays to :data:`REPORT_PRECISION`, at most eight times this."""

REPORT_PRECISION = 0.005
"""The corrected half-width (win-share units) of the balance card's turn-order win shares the
default report plays to (measured at seed 1, greedy: 128,000 games per player
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
combination (a 95% interval of about +/- 1.7 percentage points on each), and every win rate a
Wilson interval of about +/- 0.3 points. On 2 shared cores the five runs take 5 to 25 s
(measured with a warm numba cache, depending on the load)."""

SOLO_LOOKAHEAD_GAMES = 20_000
"""Games of the lookahead policy in the solo report.

Lookahead plays every decision by Monte Carlo rollouts and manages about 750 to 1,400 games a
second on 2 shared cores, so these games take 15 to 30 s: with the fast policies, the default
report took 23 to 62 s warm (well under the 2-minute budget). Its gain over greedy, paired on these
deals, has a 95% interval of about +/- 0.7 percentage points."""

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

WORDING = register_wording(
    GameWording(
        game="concerto",
        players="1 = solo against Pahha, 2 = the two-player rules, 3 or 4 = the draft.",
        cards="Card file (TOML) with the score, pianist and harpist cards and the token mix "
        "(default: the shipped PROVISIONAL set, ruling C9; see docs/concerto-cards.md).",
        axes={
            "soloist": "Fixed soloist card A, B, C or D.",
            "pianist": "Fixed pianist card id of the card file.",
            "harpist": "Fixed harpist card id of the card file.",
        },
        flags={
            "trace": "Add each seat's standing after every round to the --out rows: the score "
            "it would have if the game ended then (ruling PC6; Pahha's row in solo)."
        },
        turn_order="seat index = turn order: composers resolve in seat order from seat 0, the "
        "1st to act (C4)",
        summary=(
            SCORE,
            SummaryColumn(
                "popularity",
                ("popularity",),
                legend="popularity: 1 point per popularity token in the orchestra (C5)",
            ),
            # The four contest cards summed, so that the table fits 80 columns (every part is
            # in the --out rows).
            SummaryColumn(
                "contests",
                ("conductor", "soloist", "pianist", "harpist"),
                legend="contests: points of the conductor, soloist, pianist and harpist cards "
                "(C5), summed",
            ),
            SummaryColumn(
                "honors",
                ("honors",),
                legend="honors: 2 per contest card on which the seat scores highest, above 0 (C6)",
            ),
            SummaryColumn(
                "score\ncards\ndone/held",
                ("cards_completed", "cards_held"),
                join="/",
                legend="score cards done/held: score cards completed / held at the end; "
                "Pahha's row: its face-down cards, 3 points each whatever they need (C8)",
                by_policy=((PAHHA, SummaryColumn("", ("cards_held",), template="{} face-down")),),
            ),
        ),
        policies_note="lookahead is for solo (--players 1); other forms refuse it. rollout "
        "searches in every form (--weights rollouts=K,default=<built-in>).",
        weights={
            "chaser": {
                "progress": "Points per missing token of a held score card that a choice "
                "supplies: higher chases its score cards harder.",
                "composer": "Points per composer taken (each draws score cards): higher takes "
                "more composers.",
                "hand": "How much a token in hand makes up for a missing one when choosing a "
                "card: 0 not at all, 1 as if held.",
            },
            "maestro": {
                "honor": "Points per honor the choice would take now against the visible "
                "orchestras: higher plays for the honors.",
                "lead": "Points per point of margin over the best other seat on each contest "
                "card (at most 3): higher builds leads.",
                "cards": "Weight of score-card points in the score gain: lower plays the "
                "contests over the score cards.",
            },
            "denier": {
                "deny": "Weight of what a token is worth to the left neighbour (solo: Pahha) "
                "against the seat's own gain: higher denies more.",
            },
            "lookahead": {
                "rollouts": "Rollouts of the remaining rounds per choice: more see further and "
                "cost time in proportion.",
                "margin": "Points per point of mean final margin over Pahha, added to the win "
                "rate: higher plays for wide wins.",
                "composer": "Points per composer gained after this decision in a rollout.",
            },
            "rollout": SEARCH_WEIGHTS,
        },
    )
)
"""How the command line words Fairy Concerto."""

CARD_STUDIES = register_card_studies(
    CardStudies(
        game="concerto",
        card_effects=CardEffects(
            cards="fairysim.sim.concerto.setup:effect_cards",
            intervention="before the setup deal, the score card changes places with the first "
            "setup card the seat is to be dealt, where no other seat (nor Pahha) is dealt it "
            "(PC5); the seat may still keep the other card",
            card_label="score card",
            ruling="PC5",
        ),
        table_cards=(
            TableCards(
                "contest_cards",
                variants="fairysim.sim.concerto.setup:contest_variants",
                heading="Soloist, pianist and harpist cards fixed, by seat",
                intervention="the table plays that soloist, pianist or harpist card in every "
                "game instead of the one drawn at setup; the setup still draws all three (PC3)",
                paired="every deal, every score card, every token draw and every policy's "
                "random stream are the shipped game's (PC3); only the contest card and what "
                "the seats decide because of it differ",
                shipped="the card drawn at random",
                raises="higher with the card fixed",
                lowers="lower with the card fixed",
                ruling="PC3",
                games_share=0.5,
            ),
        ),
    )
)
"""How Fairy Concerto's card studies measure its cards (rulings PC5, PC3)."""
