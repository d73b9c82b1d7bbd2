"""Public entry points: play Fairy Land games and get tidy results."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np
import pandas as pd

from fairysim.runtime.errors import CardFileError, FairysimError, ParameterError
from fairysim.sim.batch import (
    DEFAULT_CHUNK_GAMES,
    Progress,
    new_error_records,
    raise_first_illegal_choice,
    run_chunks,
    tidy_frame,
)
from fairysim.sim.blocks import run_workers
from fairysim.sim.fairyland import engine
from fairysim.sim.fairyland.cards import (
    DEFAULT_COURT,
    Court,
    FairyLandCards,
    load_cards,
    load_court,
)
from fairysim.sim.fairyland.engine import new_outcome, play_games
from fairysim.sim.fairyland.rules import (
    CARD_NAMES,
    DECISIONS,
    FIRST_FOREST_TYPE,
    GOBLIN,
    HALF,
    MAX_SEATS,
    MIN_FOREST,
    N_CARD_TYPES,
    OGRE,
    card_type,
)
from fairysim.sim.fairyland.search import compile_play_out, search_context
from fairysim.sim.fairyland.spec import (
    COLLECTED_COLUMNS,
    COLLECTED_NAMES,
    COURTS,
    FOREST_LABELS,
    NAME,
    PART_COLUMNS,
)
from fairysim.sim.game import GameSetup
from fairysim.sim.policy import Policy, seat_policies

RANDOM_COURT = COURTS[0]

PER_SEAT = (
    "score",
    "rank",
    "win_share",
    "turn_position",
    "hand_value",
    "items_held",
    "items_used",
    "items_held_mask",
    "items_used_mask",
    "auctions_won",
    "fairies_paid",
    "value_paid",
    "queen_visits",
    "druid_visits",
    "crests_used",
    "ogres_gained",
)
PER_GAME = ("turns", "auctions", "unbid_clearings", "start_seat", "court_items")
BOOKKEEPING = (
    "hand_mask",
    "played_mask",
    "forest_left",
    "druids_left",
    "clearing_cards",
    "box",
    "forest_accounted",
    "court_left",
    "court_accounted",
)
"""Arrays of :func:`play_chunks` that only tests read (where every card ended); the tidy rows
leave them out."""

TRACE = "score_round"
"""The array of a traced run (``trace=True``): each seat's standing after each round of turns
(ruling PL11), the tidy rows' ``score_round_1`` .. ``score_round_N`` (the spec's
``trace_prefix``)."""

FORCED_COLUMNS = ("forced_held", "forced_exchanged")
"""Per-game columns of a run under a card-effect intervention (ruling PL10): the cards of the
forced type the forced seat held at setup without it (always 0: a seat starts with no forest
card and no item), and 1 where the card was put in its hands."""


@dataclass(frozen=True)
class FairyLandSetup(GameSetup):
    """A validated run configuration (:class:`~fairysim.sim.game.GameSetup`) with its court.

    ``court`` is the court the game's 9 items are drawn from; ``court_name`` what ``--court``
    said (``random``, ``starred``, ``none`` or the court file), the ``court`` result column.
    The reference engine plays the same setup (:func:`.reference.play_games`).
    """

    court: Court
    court_name: str = RANDOM_COURT
    forced_card: int = 0
    forced_seat: int = 0
    removed_card: int = 0
    game = NAME

    def check(self) -> None:
        """A forced card (ruling PL10) must be a forest card type of the card file other than
        the ogre, or ``N_CARD_TYPES + i`` for an item ``i`` of the court, for a seat at the
        table; a removed card type (ruling PL12) a forest type of the card file that leaves at
        least :data:`~.rules.MIN_FOREST` cards, and not with a forced card."""
        self._check_removed()
        card = self.forced_card
        if card:
            forest = FIRST_FOREST_TYPE <= card < N_CARD_TYPES and card != OGRE
            if forest and self.cards.forest[card] == 0:
                raise FairysimError("forced_card", f"{card} is no card type of this forest")
            if not forest and not 0 <= card - N_CARD_TYPES < self.court.n_items:
                raise FairysimError(
                    "forced_card",
                    f"{card} is neither a forest card type ({FIRST_FOREST_TYPE} to "
                    f"{N_CARD_TYPES - 1}, the ogre {OGRE} excepted) nor a court item "
                    f"({N_CARD_TYPES} to {N_CARD_TYPES + self.court.n_items - 1})",
                )
        if not 0 <= self.forced_seat < self.players:
            raise FairysimError(
                "forced_seat", f"{self.forced_seat} is no seat of {self.players} players"
            )

    def _check_removed(self) -> None:
        card = self.removed_card
        if not card:
            return
        if not (FIRST_FOREST_TYPE <= card < N_CARD_TYPES and self.cards.forest[card] > 0):
            raise FairysimError("removed_card", f"{card} is no card type of this forest")
        left = self.cards.total_forest - int(self.cards.forest[card])
        if left < MIN_FOREST:
            raise FairysimError(
                "removed_card",
                f"removing {forced_label(self, card)} leaves {left} forest cards, fewer than "
                f"{MIN_FOREST}",
            )
        if self.forced_card:
            raise FairysimError("removed_card", "a removal does not combine with forced_card")

    @property
    def forest_counts(self) -> np.ndarray:
        """The forest the game plays, by type: the card file's, less a removed type (PL12)."""
        counts = np.array(self.cards.forest, np.int64)
        if self.removed_card:
            counts[self.removed_card] = 0
        return counts

    def choices(self) -> list[str]:
        forced = (
            [f"{forced_label(self, self.forced_card)} forced to seat {self.forced_seat}"]
            if self.forced_card
            else []
        )
        if self.removed_card:
            forced.append(f"{forced_label(self, self.removed_card)} removed")
        return [f"court {self.court_name}", *forced]

    def preamble(self) -> list[str]:
        """The court (PROVISIONAL where it is, ruling L13) and the card file."""
        return [f"Court: {self.court.label}", f"Cards: {Path(self.cards.source).name}"]

    def footnotes(self) -> list[str]:
        return ["Points are exact halves (ruling L11); ties are broken by L12, no shared wins."]

    def own_config(self) -> dict[str, Any]:
        forced = (
            {"forced_card": self.forced_card, "forced_seat": self.forced_seat}
            if self.forced_card
            else {}
        )
        if self.removed_card:
            forced["removed_card"] = self.removed_card
        return {
            "court": self.court_name,
            "court_source": self.court.source,
            "court_items": list(self.court.ids),
            "court_provisional": self.court.provisional,
            **forced,
        }


def forced_label(setup: FairyLandSetup, card: int) -> str:
    """How a card-effect study names forced card ``card`` (a forest type or court item)."""
    if card < N_CARD_TYPES:
        return FOREST_LABELS[CARD_NAMES[card]]
    return setup.court.names[card - N_CARD_TYPES]


def effect_cards(setup: FairyLandSetup) -> list[tuple[int, str]]:
    """The cards a card-effect study forces (ruling PL10): every forest card type the card file
    holds but the ogre (never held, L6), then every item of the court, by its type id (court
    item ``i`` is ``N_CARD_TYPES + i``), labelled as the report names them."""
    forest = [
        card
        for card in range(FIRST_FOREST_TYPE, N_CARD_TYPES)
        if card != OGRE and setup.cards.forest[card] > 0
    ]
    items = [N_CARD_TYPES + i for i in range(setup.court.n_items)]
    return [(card, forced_label(setup, card)) for card in forest + items]


def removal_variants(setup: FairyLandSetup) -> list[tuple[str, dict[str, int]]]:
    """The card types a removal study takes out of the forest (ruling PL12), as what-if
    variants: the two evil types (L3), ogres, which have no forced-card row (an ogre is never
    held, L6), and goblins, each where the card file holds it."""
    return [
        (f"{CARD_NAMES[card].capitalize()}s", {"removed_card": card})
        for card in (OGRE, GOBLIN)
        if setup.cards.forest[card] > 0
    ]


def effect_held(
    setup: FairyLandSetup, arrays: dict[str, np.ndarray], card: int, seat: int
) -> np.ndarray:
    """How many of ``card`` ``seat`` owned at the end of each game of the run ``arrays`` (a
    forest card's ``n_<card>``; 1 where it held or used a court item): the count the
    card-effect study's association is the slope on."""
    if card < N_CARD_TYPES:
        return np.asarray(arrays[f"n_{CARD_NAMES[card]}"][:, seat], np.int64)
    bit = np.uint32(1) << np.uint32(card - N_CARD_TYPES)
    owned = arrays["items_held_mask"][:, seat] | arrays["items_used_mask"][:, seat]
    return ((owned & bit) > 0).astype(np.int64)


def parse_court(court: str | Path | Court | None) -> tuple[str, Court]:
    """``--court``: ``random`` (None), ``starred``, ``none`` or a court file, as ``(name, Court)``;
    anything else is a one-line error naming ``--court``."""
    if isinstance(court, Court):
        if court.selection != "all":
            return court.selection, court
        return RANDOM_COURT if court.source == str(DEFAULT_COURT) else court.source, court
    name = RANDOM_COURT if court is None else str(court).strip()
    key = name.casefold()
    if key == RANDOM_COURT:
        return RANDOM_COURT, load_court(None)
    if key in COURTS:
        return key, load_court(key)
    try:
        return name, load_court(Path(name))
    except CardFileError as error:
        raise ParameterError(
            "court", f"must be {', '.join(COURTS)} or a court file; {error}"
        ) from None


def make_setup(
    *,
    players: int = 4,
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    seed: int = 0,
    cards: str | Path | FairyLandCards | None = None,
    court: str | Path | Court | None = None,
    forced_card: int = 0,
    forced_seat: int = 0,
    removed_card: int = 0,
) -> FairyLandSetup:
    """Validate a configuration; errors name the option at fault (``--players``, ``--court`` ...).

    Parameters
    ----------
    players : int
        2 to 4.
    policies : str, Policy or sequence
        One per player, or one for all.
    seed : int
    cards : path or FairyLandCards, optional
        Forest and House card file (the shipped one when None).
    court : str, path or Court, optional
        ``"random"`` (default: 9 of the shipped 19 PROVISIONAL items each game, L2, L13),
        ``"starred"`` (the 9 first-game items), ``"none"`` (a court of no effect, PL9) or a court
        file.
    forced_card, forced_seat : int, default 0
        A card-effect intervention (ruling PL10): seat ``forced_seat`` starts every game with
        ``forced_card`` (see :func:`effect_cards`); 0 for none.
    removed_card : int, default 0
        A card removal (ruling PL12): every card of that forest type leaves each game's
        shuffled forest (see :func:`removal_variants`); 0 for none.

    Returns
    -------
    FairyLandSetup
    """
    court_name, court_set = parse_court(court)
    card_set = cards if isinstance(cards, FairyLandCards) else load_cards(cards)
    return FairyLandSetup.checked(
        players=players,
        policies=policies,
        seed=seed,
        cards=card_set,
        court=court_set,
        court_name=court_name,
        forced_card=int(forced_card),
        forced_seat=int(forced_seat),
        removed_card=int(removed_card),
    )


def play_chunks(
    setup: FairyLandSetup,
    games: int,
    *,
    first_game: int = 0,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    lanes: bool = True,
    trace: bool = False,
) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    """Yield ``(first_game, arrays)`` chunk by chunk, for games ``first_game`` onwards.

    Per-seat arrays (shape ``(n, players)``) are the spec's seat columns and the item masks;
    per-game arrays (shape ``(n,)``) are ``turns``, ``auctions``, ``unbid_clearings``,
    ``start_seat``, ``court_items`` and the :data:`BOOKKEEPING` counts. Fairy Land has no lanes
    engine: ``lanes`` is accepted (the contract's keyword) and changes nothing. Under a
    card-effect intervention (``setup.forced_card``, ruling PL10) the arrays also hold
    :data:`FORCED_COLUMNS` of shape (n,), and ``court_items`` includes the forced item. With
    ``trace``, ``score_round`` of shape ``(n, players, rounds)`` (rounds of turns from the
    starting seat: 9, 12 and 18 at 4, 3 and 2 players with the rulebook's deck): each seat's
    standing after each round, the score it would have if the game ended then (ruling PL11).
    """
    no_log = np.zeros((0, 1, engine.N_LOG_FIELDS), np.int64)
    rounds = engine.most_rounds(setup.cards.total_forest, setup.players)

    def play_chunk(first: int, n: int) -> dict[str, np.ndarray]:
        forced = np.zeros((n if setup.forced_card else 1, len(FORCED_COLUMNS)), np.int8)
        standings = np.zeros((n, setup.players, rounds) if trace else (0, 1, 1), np.int64)
        arrays = outcome_arrays(_play(setup, first, n, no_log, forced, standings))
        if setup.forced_card:
            for k, name in enumerate(FORCED_COLUMNS):
                arrays[name] = forced[:, k].copy()
        if trace:  # half points (L11) to points, as the score
            arrays[TRACE] = (standings / HALF).astype(engine.OUTCOME_COLUMNS["score"][0])
        return arrays

    yield from run_chunks(play_chunk, games, chunk_games, progress, threads, first_game)


def _play(
    setup: FairyLandSetup,
    first: int,
    n: int,
    auction_log: np.ndarray,
    forced: np.ndarray | None = None,
    standings: np.ndarray | None = None,
):
    """Games ``first .. first + n - 1`` on the numba threads set: the engine's Outcome (and
    their auctions in ``auction_log``, unless it has no rows; under a card-effect intervention
    each game's ``(held, done)`` in ``forced``, int8[n, 2]; each seat's standing after each
    round in ``standings``, int64[n, players, rounds], unless it is None or has no rows)."""
    cards = setup.cards
    out = new_outcome(n, setup.players)
    errors = new_error_records(n)
    force = np.zeros(engine.FORCE_SIZE, np.int64)
    force[engine.FORCE_CARD] = setup.forced_card
    force[engine.FORCE_SEAT] = setup.forced_seat
    force[engine.FORCE_REMOVED] = setup.removed_card
    if forced is None:
        forced = np.zeros((n if setup.forced_card else 1, len(FORCED_COLUMNS)), np.int8)
    if standings is None:
        standings = np.zeros((0, 1, 1), np.int64)
    # A rollout seat is seated as its play-out policy and searched by the engine (rollout.py).
    seated, search = search_context(setup.policies, setup.players, setup.forest_counts)
    court = np.ascontiguousarray(setup.court.table, dtype=np.int64)
    seats = seat_policies(seated, MAX_SEATS)
    if search is not None:
        table = engine.new_table(cards.forest, court, cards.face_value, cards.majority)
        compile_play_out(table, search, seats.functions)
    run_workers(
        lambda queue: play_games(
            setup.seed,
            first,
            setup.players,
            *seats,
            cards.forest,
            cards.face_value,
            cards.majority,
            cards.crests_for(setup.players),
            court,
            force,
            out,
            auction_log,
            standings,
            forced,
            errors,
            queue,
            search,
        ),
        nb.get_num_threads(),
        n,
    )
    raise_first_illegal_choice(errors, first, DECISIONS)
    return out


AUCTION_COLUMNS = (
    "players",
    "game",
    "turn",
    "explorer",
    "winner",
    "cards",
    "animals",
    "flowers",
    "goblins",
    "ogres",
    "fairies",
    "bid",
    "explorer_won",
    "price",
    "fairies_paid",
    "prize",
)
"""One row per auction (see :func:`play_auctions`)."""

AUCTION_CHUNK_GAMES = 10_000
"""Games per chunk of :func:`play_auctions` (a chunk's log is ~3.5 MB a thousand games)."""


def play_auctions(
    setup: FairyLandSetup,
    games: int,
    *,
    first_game: int = 0,
    threads: int | None = None,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """Every auction of games ``first_game .. first_game + games - 1``: the games of
    :func:`play_chunks` (the same setup plays the same games), logged auction by auction.

    Parameters
    ----------
    setup : FairyLandSetup
    games : int
        Games to play (1 or more).
    first_game : int, default 0
    threads : int, optional
        Numba threads (default: all cores); the rows do not depend on it.
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk of games.

    Returns
    -------
    pandas.DataFrame
        One row per auction (a clearing with cards explored, L16), in game and turn order,
        columns :data:`AUCTION_COLUMNS`: ``players``; the ``game`` and its 0-based ``turn``;
        the ``explorer`` seat (who chose the clearing) and the ``winner`` seat (-1 when nobody
        bid); ``cards`` in the clearing and how many were ``animals``, ``flowers``,
        ``goblins``, ``ogres`` and special ``fairies``; ``bid`` (somebody bid; else the
        clearing went to the box), ``explorer_won`` (the seat that chose the clearing won it),
        ``price`` (fairy value the winner played: face values, the contextual values of L5, a
        bid bonus of L14 making it lower than the bid), ``fairies_paid`` (cards) and
        ``prize`` (points: the change in the winner's score as the final scoring, L11 and L13,
        would count it at that moment, from the cards it took, the ogres' losses included;
        applause is left out, as it moves with the fairies paid, the price). Price, fairies
        paid and prize are ``nan`` for an unbid clearing.

    Examples
    --------
    >>> rows = play_auctions(make_setup(players=3, seed=1), 2)
    >>> bool((rows.groupby("game").size() > 20).all())
    True
    """
    most = engine.most_auctions(setup.cards.total_forest)

    def play_chunk(first: int, n: int) -> dict[str, np.ndarray]:
        log = np.zeros((n, most, engine.N_LOG_FIELDS), np.int64)
        out = _play(setup, first, n, log)
        held = np.arange(most)[None, :] < out.auctions[:, None]
        rows = log[held]
        return {"game": np.repeat(np.arange(first, first + n), out.auctions), "rows": rows}

    parts = [
        chunk
        for _, chunk in run_chunks(
            play_chunk, games, AUCTION_CHUNK_GAMES, progress, threads, first_game
        )
    ]
    rows = np.concatenate([p["rows"] for p in parts])
    winner = rows[:, engine.L_WINNER]
    bid = winner != engine.NO_SEAT

    def paid(field: int, scale: float = 1.0) -> np.ndarray:
        return np.where(bid, rows[:, field] * scale, np.nan)

    return pd.DataFrame(
        {
            "players": setup.players,
            "game": np.concatenate([p["game"] for p in parts]),
            "turn": rows[:, engine.L_TURN],
            "explorer": rows[:, engine.L_EXPLORER],
            "winner": np.where(bid, winner, -1),
            "cards": rows[:, engine.L_CARDS],
            "animals": rows[:, engine.L_ANIMALS],
            "flowers": rows[:, engine.L_FLOWERS],
            "goblins": rows[:, engine.L_GOBLINS],
            "ogres": rows[:, engine.L_OGRES],
            "fairies": rows[:, engine.L_FAIRIES],
            "bid": bid,
            "explorer_won": bid & (winner == rows[:, engine.L_EXPLORER]),
            "price": paid(engine.L_PRICE),
            "fairies_paid": paid(engine.L_FAIRIES_PAID),
            "prize": paid(engine.L_PRIZE, 1.0 / HALF),  # half points (L11) to points,
        },
        columns=list(AUCTION_COLUMNS),
    )


def outcome_arrays(out) -> dict[str, np.ndarray]:
    """Flatten an engine Outcome into named per-row and per-game arrays."""
    arrays: dict[str, np.ndarray] = {name: getattr(out, name) for name in PER_SEAT}
    for i, name in enumerate(PART_COLUMNS):
        arrays[name] = out.parts[:, :, i]
    for name, column in zip(COLLECTED_NAMES, COLLECTED_COLUMNS, strict=True):
        arrays[column] = out.collected[:, :, card_type(name) - FIRST_FOREST_TYPE]
    for name in PER_GAME + BOOKKEEPING:
        arrays[name] = getattr(out, name)
    return arrays


def chunk_frame(setup: FairyLandSetup, first: int, arrays: dict[str, np.ndarray]) -> pd.DataFrame:
    """The tidy rows of one chunk of :func:`play_chunks` (bookkeeping columns dropped)."""
    public = {k: v for k, v in arrays.items() if k not in BOOKKEEPING}
    return tidy_frame(
        first,
        public,
        setup.players,
        setup.policy_names,
        {"players": setup.players, "court": setup.court_name},
    )
