"""Fairy Land's report, declared (:mod:`fairysim.analysis.report.registry`): its name, options and
defaults, light enough for ``fairysim report --help``; :mod:`~fairysim.analysis.fairyland.report`
writes it. Beside it the game's command-line wording (:mod:`fairysim.analysis.wording`) and its
card studies (:mod:`fairysim.analysis.studies.card_studies`)."""

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
    PLAYERS,
    SCORE,
    SEARCH_WEIGHTS,
    GameWording,
    SummaryColumn,
    register_wording,
)

ANIMALS = ("squirrel", "fox", "racoon", "deer", "bear", "unicorn", "turtle", "turtle_bonus")
"""The score parts ``simulate``'s "animals" column sums: the animals' majorities and the turtle
bonus (L11; the first parts of ``fairysim.sim.fairyland.facts.PART_NAMES``, not imported: a
declaration loads no engine package)."""

REPORT_GAMES = 15_000
"""Games per (court, player count) run of the report at ``--games``'s scale: the default
report plays to :data:`REPORT_PRECISION`, at most eight times this."""

REPORT_PRECISION = 0.01
"""The corrected half-width (win-share units) of the balance card's turn-order win shares the
default report plays to (measured at seed 1, greedy: about 32,000 games per run; its time in
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

BIDDING = {
    "bid_per_point": "Fairy points it will pay per point a clearing is worth to it: higher bids "
    "more.",
    "share": "Share of a clearing's worth an earlier bidder spends at most: higher bids harder "
    "before the last bidder.",
    "spread": "Cards of uncertainty in an open majority race at the first turn (shrinking to 0 "
    "at the last): higher values open races over safe leads for longer.",
    "crest_below": "Hand face value at or below which it takes the Crest (and the Horn): higher "
    "takes them sooner.",
}
"""The weights of the shared judgement's bidding (docs/policies.md, Fairy Land)."""

CARDS = {
    "special": "Points a special fairy is worth to it.",
    "ogre": "Points an ogre costs it (negative): lower avoids ogres more.",
    "visit": "Points a visit (Queen, Druids, Druid's Key) is worth, less its fairies.",
    "look": "Cards a Queen or Druids visit looks at.",
    "item": "Points a court item without end-game points is worth.",
}
"""What a card's kind is worth to the policies that weigh it."""


def _fairyland_weights() -> dict[str, dict[str, str]]:
    """Each policy's weights, the shared ones said once."""
    return {
        "greedy": {
            "bid_per_point": "Fairy points it will pay per point a clearing is worth while it "
            "bids the minimum: higher bids more.",
            **{k: CARDS[k] for k in ("special", "ogre", "visit")},
            "crest_below": BIDDING["crest_below"],
            **{k: CARDS[k] for k in ("look", "item")},
        },
        "value-bidder": {
            **BIDDING,
            **{k: CARDS[k] for k in ("special", "ogre", "visit", "look")},
        },
        "majority-hunter": {
            "focus": "How many animals, those whose majority is most worth chasing, it chases.",
            "boost": "How many times their race value the chased animals count.",
            "others": "How many times their value the other animals count.",
            "flowers": "How many times their points flowers and variety count.",
            **BIDDING,
        },
        "flower-gardener": {
            "flowers": "How many times their points flowers and variety count.",
            "animals": "How many times their value animals count.",
            **BIDDING,
            **{k: CARDS[k] for k in ("special", "ogre")},
        },
        "courtier": {
            "queen": "Points a Queen's audience is worth on top of the best unseen item it may "
            "find, less its fairies.",
            "druids": "Points a Druids visit is worth, less its fairies.",
            "item": CARDS["item"],
            "herald": "Face points dearer the Herald is in auctions (it keeps it for visits).",
            "crest_played": "Face value played after which it takes the Crest.",
            "look": CARDS["look"],
            "bid_per_point": BIDDING["bid_per_point"],
            "share": BIDDING["share"],
        },
        "rollout": dict(SEARCH_WEIGHTS),
    }


WORDING = register_wording(
    GameWording(
        game="fairyland",
        players=PLAYERS,
        cards="Card file (TOML) for a variant forest deck or House cards (format of "
        "src/fairysim/sim/fairyland/data/cards.toml).",
        axes={
            "court": "Queen's Court: random (9 of the shipped PROVISIONAL 19 items each game, "
            "ruling L13), starred (the 9 first-game items), none (a court of no effect, ruling "
            "PL9) or a court file (TOML, docs/fairyland-court.md)."
        },
        flags={
            "trace": "Add each seat's standing after every round of turns to the --out rows: "
            "the score it would have if the game ended then (ruling PL11)."
        },
        turn_order="turn position, 1st = the starting player, drawn at random each game (L18)",
        weights=_fairyland_weights(),
        summary=(
            SCORE,
            SummaryColumn(
                "animals",
                tuple(f"{name}_points" for name in ANIMALS),
                legend="animals: the animal majorities and the turtle bonus (L11)",
            ),
            SummaryColumn(
                "flowers",
                ("flowers_points", "variety_points"),
                legend="flowers: flower points and the variety bonus (L11)",
            ),
            SummaryColumn(
                "goblins",
                ("goblins_points",),
                legend="goblins: the goblin penalty, -2 or -1 each for the most (L11)",
            ),
            SummaryColumn(
                "items", ("items_points",), legend="items: points of the court items held"
            ),
            SummaryColumn(
                "applause",
                ("applause_points",),
                legend="applause: 3/2/1 for the highest fairy value left in hand (L11)",
            ),
        ),
    )
)
"""How the command line words Fairy Land."""

CARD_STUDIES = register_card_studies(
    CardStudies(
        game="fairyland",
        card_effects=CardEffects(
            cards="fairysim.sim.fairyland.setup:effect_cards",
            intervention="before the first turn the seat takes the card as if it had gained it "
            "(a forest card: the bottommost of its type in the forest deck, which then gives out "
            "the same cards but that one; a court item: from the box, or from the court deck, "
            "the first item left out taking its place) (PL10)",
            card_label="card type",
            ruling="PL10",
            held="fairysim.sim.fairyland.setup:effect_held",
            held_text="it owned at the end of the game",
            stronger="better for the seat than not having it",
            weaker="worse for the seat than not having it",
            zero_note="It compares the seat starting with the card against the same deal with "
            "the card where the deal put it, from where the seat or another may still take it; "
            "a card worth nothing to the seat scores 0",
        ),
        table_cards=(
            TableCards(
                "card_removals",
                variants="fairysim.sim.fairyland.setup:removal_variants",
                heading="A card type removed from the forest, by turn position",
                intervention="the forest is shuffled as shipped, then every card of the type "
                "leaves it, the others closing up in their order, before the Druid deck and the "
                "clearings are dealt (PL12)",
                paired="the court, the starting player, every policy's random stream and the "
                "order in which the cards both forests share come out are the shipped game's; "
                "the turn at which a card comes out, the game's length and everything the seats "
                "decide after the first removed card would have shown are not",
                shipped="the shipped forest",
                raises="higher without the type",
                lowers="lower without the type",
                ruling="PL12",
            ),
        ),
    )
)
"""How Fairy Land's card studies measure its cards (rulings PL10, PL12)."""
