"""Public entry points: play Fairy Land games and get tidy results."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numba as nb
import numpy as np
import pandas as pd

from fairysim.errors import CardFileError, FairysimError
from fairysim.sim.batch import (
    DEFAULT_CHUNK_GAMES,
    Progress,
    new_error_records,
    raise_first_illegal_choice,
    run_chunks,
    tidy_frame,
)
from fairysim.sim.fairyland.cards import (
    DEFAULT_COURT,
    Court,
    FairyLandCards,
    load_cards,
    load_court,
)
from fairysim.sim.fairyland.engine import new_outcome, play_games
from fairysim.sim.fairyland.policies import POLICIES
from fairysim.sim.fairyland.rules import DECISIONS, FIRST_FOREST_TYPE, MAX_SEATS, card_type
from fairysim.sim.fairyland.spec import (
    COLLECTED_COLUMNS,
    COLLECTED_NAMES,
    COURTS,
    ENGINE_VERSION,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NAME,
    PART_COLUMNS,
)
from fairysim.sim.policy import Policy, resolve_policies, seat_policies
from fairysim.sim.rng import check_seed

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


@dataclass(frozen=True)
class FairyLandSetup:
    """A validated run configuration: everything that decides the numbers of a run.

    ``court`` is the court the game's 9 items are drawn from; ``court_name`` what ``--court``
    said (``random``, ``starred``, ``none`` or the court file), the ``court`` result column.
    The reference engine plays the same setup (:func:`.reference.play_games`).
    """

    players: int
    policies: tuple[Policy, ...]
    seed: int
    cards: FairyLandCards
    court: Court
    court_name: str = RANDOM_COURT
    game = NAME

    @property
    def seats(self) -> int:
        """Rows per game: one per player."""
        return self.players

    @property
    def policy_names(self) -> list[str]:
        """Each seat's policy name."""
        return [p.name for p in self.policies]

    def headline(self, games: int) -> str:
        """One line naming the run, printed above its summary."""
        return (
            f"Fairy Land, {self.players} players, court {self.court_name}, {games:,} games, "
            f"seed {self.seed}"
        )

    def preamble(self) -> list[str]:
        """Lines printed between the headline and the summary table: the court (PROVISIONAL
        where it is, ruling L13) and the card file."""
        return [f"Court: {self.court.label}", f"Cards: {Path(self.cards.source).name}"]

    def footnotes(self) -> list[str]:
        """Lines printed under the summary table."""
        return ["Points are exact halves (ruling L11); ties are broken by L12, no shared wins."]

    def row_labels(self, policy_labels: Sequence[str]) -> list[str]:
        """The summary's row labels, given each player's policy label."""
        return list(policy_labels)

    def config(self) -> dict[str, Any]:
        """JSON-friendly description saved with results."""
        return {
            "players": self.players,
            "policies": self.policy_names,
            "weights": [list(p.weights) for p in self.policies],
            "seed": self.seed,
            "cards": self.cards.source,
            "court": self.court_name,
            "court_source": self.court.source,
            "court_items": list(self.court.ids),
            "court_provisional": self.court.provisional,
            "engine_version": ENGINE_VERSION,
        }


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
        raise FairysimError(
            "--court", f"must be {', '.join(COURTS)} or a court file; {error}"
        ) from None


def make_setup(
    *,
    players: int = 4,
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    seed: int = 0,
    cards: str | Path | FairyLandCards | None = None,
    court: str | Path | Court | None = None,
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

    Returns
    -------
    FairyLandSetup
    """
    if (
        isinstance(players, bool)
        or not isinstance(players, int | np.integer)
        or not (MIN_PLAYERS <= players <= MAX_PLAYERS)
    ):
        raise FairysimError(
            "--players",
            f"Fairy Land is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}",
        )
    try:
        seed = check_seed(seed)
    except ValueError as exc:
        raise FairysimError("--seed", str(exc)) from None
    court_name, court_set = parse_court(court)
    card_set = cards if isinstance(cards, FairyLandCards) else load_cards(cards)
    seats = resolve_policies(policies, int(players), POLICIES)
    return FairyLandSetup(int(players), seats, seed, card_set, court_set, court_name)


def play_chunks(
    setup: FairyLandSetup,
    games: int,
    *,
    first_game: int = 0,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    lanes: bool = True,
) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    """Yield ``(first_game, arrays)`` chunk by chunk, for games ``first_game`` onwards.

    Per-seat arrays (shape ``(n, players)``) are the spec's seat columns and the item masks;
    per-game arrays (shape ``(n,)``) are ``turns``, ``auctions``, ``unbid_clearings``,
    ``start_seat``, ``court_items`` and the :data:`BOOKKEEPING` counts. Fairy Land has no lanes
    engine: ``lanes`` is accepted (the contract's keyword) and changes nothing.
    """
    seats = seat_policies(setup.policies, MAX_SEATS)
    cards = setup.cards
    crests = cards.crests_for(setup.players)
    item_table = np.ascontiguousarray(setup.court.table, dtype=np.int64)

    def play_chunk(first: int, n: int) -> dict[str, np.ndarray]:
        out = new_outcome(n, setup.players)
        errors = new_error_records(n)
        play_games(
            setup.seed,
            first,
            setup.players,
            *seats,
            cards.forest,
            cards.face_value,
            cards.majority,
            crests,
            item_table,
            out,
            errors,
            nb.get_num_threads(),
        )
        raise_first_illegal_choice(errors, first, DECISIONS)
        return outcome_arrays(out)

    yield from run_chunks(play_chunk, games, chunk_games, progress, threads, first_game)


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
