"""Play Fairy Land: a setup's games chunk by chunk (:func:`play_chunks`), their auctions
(:func:`play_auctions`), a chunk's tidy rows (:func:`chunk_frame`), and the contract's
``simulate`` and ``simulate_summary`` bound to the game."""

from __future__ import annotations

from collections.abc import Iterator

import numba as nb
import numpy as np
import pandas as pd

from fairysim.sim import run
from fairysim.sim.batch import (
    DEFAULT_CHUNK_GAMES,
    Progress,
    new_error_records,
    raise_first_illegal_choice,
    run_chunks,
    tidy_frame,
    turn_columns,
)
from fairysim.sim.blocks import run_workers
from fairysim.sim.fairyland import engine
from fairysim.sim.fairyland.engine import compile_play_out, new_outcome, play_games
from fairysim.sim.fairyland.rules import (
    DECISIONS,
    FIRST_FOREST_TYPE,
    HALF,
    MAX_SEATS,
    card_type,
)
from fairysim.sim.fairyland.search import search_context
from fairysim.sim.fairyland.setup import FORCED_COLUMNS, FairyLandSetup
from fairysim.sim.fairyland.spec import COLLECTED_COLUMNS, COLLECTED_NAMES, NAME, PART_COLUMNS
from fairysim.sim.policy import seat_policies

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
    public |= turn_columns(setup.spec.turn_order, arrays, setup.players)
    return tidy_frame(
        first,
        public,
        setup.players,
        setup.policy_names,
        {"players": setup.players, "court": setup.court_name},
    )


simulate = run.bind(NAME, run.simulate)
simulate_summary = run.simulate_summary

__all__ = [
    "AUCTION_COLUMNS",
    "chunk_frame",
    "play_auctions",
    "play_chunks",
    "simulate",
    "simulate_summary",
]
