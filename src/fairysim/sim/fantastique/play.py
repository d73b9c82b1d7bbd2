"""Public entry points: play Fantastique games and get tidy results."""

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
from fairysim.sim.fantastique.cards import FantastiqueCards, load_cards
from fairysim.sim.fantastique.engine import (
    FORCE_CARD,
    FORCE_SEAT,
    FORCE_SIZE,
    OUTCOME_COLUMNS,
    SearchContext,
    kernel_levels,
    new_outcome,
    play_games,
)
from fairysim.sim.fantastique.lanes import fits_lanes, play_greedy_games
from fairysim.sim.fantastique.policies import GREEDY, HEURISTICS
from fairysim.sim.fantastique.rules import DECISIONS, HAND_SIZE, N_VALUES, ROUNDS, fan_index
from fairysim.sim.fantastique.spec import MAX_PLAYERS, NAME, SEAT_COLUMNS
from fairysim.sim.game import GameSetup
from fairysim.sim.policy import Policy, seat_policies
from fairysim.sim.search import playout_tables, searches

FORCED_COLUMNS = ("forced_held", "forced_exchanged")
"""Per-game columns of a run under a card-effect intervention (ruling PF5): the cards of the
forced value the forced seat was dealt as shuffled, and 1 where the exchange was made."""


@dataclass(frozen=True)
class FantastiqueSetup(GameSetup):
    """A validated run configuration (:class:`~fairysim.sim.game.GameSetup`) with its fan.

    ``forced_card`` (a card value, 0 for none) and ``forced_seat`` are a card-effect intervention
    (ruling PF5; :mod:`fairysim.analysis.studies.card_effects`): every game's deal gives the seat
    one more card of that value, in exchange for the first other card it is dealt.
    """

    fan: str
    forced_card: int = 0
    forced_seat: int = 0
    game = NAME

    def check(self) -> None:
        """The cards must deal a full hand to every player; a forced card must be a value of
        the deck, for a seat at the table."""
        if self.cards.total_cards < self.players * HAND_SIZE:
            raise CardFileError(
                self.cards.source,
                f"{self.cards.total_cards} fan cards cannot deal {HAND_SIZE} "
                f"to each of {self.players} players",
            )
        if self.forced_card and not (
            1 <= self.forced_card <= N_VALUES and self.cards.deck_counts[self.forced_card] > 0
        ):
            raise FairysimError("forced_card", f"{self.forced_card} is no card value of this deck")
        if not 0 <= self.forced_seat < self.players:
            raise FairysimError(
                "forced_seat", f"{self.forced_seat} is no seat of {self.players} players"
            )

    def choices(self) -> list[str]:
        forced = (
            [f"a {self.forced_card} forced to seat {self.forced_seat}"] if self.forced_card else []
        )
        return [f"fan {self.fan}", *forced]

    def own_config(self) -> dict[str, Any]:
        forced = (
            {"forced_card": self.forced_card, "forced_seat": self.forced_seat}
            if self.forced_card
            else {}
        )
        return {"fan": self.fan, **forced}


def make_setup(
    *,
    players: int = 4,
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    seed: int = 0,
    cards: str | Path | FantastiqueCards | None = None,
    fan: str = "I",
    forced_card: int = 0,
    forced_seat: int = 0,
) -> FantastiqueSetup:
    """Validate a configuration; errors name the option at fault (``--players``, ``--fan`` ...).

    ``forced_card`` and ``forced_seat`` set a card-effect intervention (ruling PF5).
    """
    try:
        fan = str(fan).upper()
        fan_index(fan)
    except ValueError as exc:
        raise ParameterError("fan", str(exc)) from None
    card_set = cards if isinstance(cards, FantastiqueCards) else load_cards(cards)
    return FantastiqueSetup.checked(
        players=players,
        policies=policies,
        seed=seed,
        cards=card_set,
        fan=fan,
        forced_card=int(forced_card),
        forced_seat=int(forced_seat),
    )


def effect_cards(setup: FantastiqueSetup) -> list[tuple[int, str]]:
    """The cards a card-effect study forces (ruling PF5): each value the deck holds, labelled
    as the rulebook names it."""
    return [
        (value, f"value {value}")
        for value in range(1, N_VALUES + 1)
        if setup.cards.deck_counts[value] > 0
    ]


def play_chunks(
    setup: FantastiqueSetup,
    games: int,
    *,
    first_game: int = 0,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    threads: int | None = None,
    progress: Progress | None = None,
    lanes: bool = True,
    trace: bool = False,
) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    """Yield ``(first_game, arrays)`` chunk by chunk; arrays are the :data:`SEAT_COLUMNS` of
    shape (n, players), ``first_seat`` of shape (n,) and, with ``trace``, ``medal_points_round``
    of shape (n, players, 7): each seat's medal points after each round.

    A table where every seat plays greedy is played in lanes (:mod:`.lanes`), the same games
    faster; ``lanes=False`` plays it one game at a time (:mod:`.engine`), for comparison.
    Under a card-effect intervention the games are played one at a time, and the arrays hold
    :data:`FORCED_COLUMNS` of shape (n,)."""
    seats = seat_policies(setup.policies, MAX_PLAYERS)
    fan = fan_index(setup.fan)
    force = np.zeros(FORCE_SIZE, np.int64)
    force[FORCE_CARD] = setup.forced_card
    force[FORCE_SEAT] = setup.forced_seat
    in_lanes = (
        lanes
        and not setup.forced_card
        and all(seats.ids[: setup.players] == GREEDY)
        and fits_lanes(setup.cards.deck_counts)
    )

    def play_chunk(first: int, n: int) -> dict[str, np.ndarray]:
        out = new_outcome(n, setup.players)
        trace_out = np.zeros((n if trace else 1, setup.players, ROUNDS), np.int64)
        threads = nb.get_num_threads()
        if in_lanes:
            play_greedy_games(
                setup.seed,
                first,
                setup.players,
                fan,
                setup.cards.deck_counts,
                setup.cards.medal_values,
                setup.cards.finale_medals,
                out,
                trace_out,
                trace,
                threads,
            )
        else:
            errors = new_error_records(n)
            forced = np.zeros((n if setup.forced_card else 1, len(FORCED_COLUMNS)), np.int8)
            search = search_context(setup)
            card_arrays = (
                setup.cards.deck_counts,
                setup.cards.medal_values,
                setup.cards.finale_medals,
            )
            levels = kernel_levels(
                seats, *card_arrays, force, out, trace_out, forced, errors, search
            )
            play_games(
                setup.seed, first, setup.players, fan, *seats, *card_arrays, force, out,
                trace_out, trace, forced, errors, search, threads, *levels,
            )  # fmt: skip
            raise_first_illegal_choice(errors, first, DECISIONS)
        arrays = {name: getattr(out, name) for name in SEAT_COLUMNS}
        arrays["first_seat"] = out.first_seat
        arrays["cards_outside_hands"] = out.cards_outside_hands
        if setup.forced_card:
            for k, name in enumerate(FORCED_COLUMNS):
                arrays[name] = forced[:, k].copy()
        if trace:
            arrays["medal_points_round"] = trace_out.astype(OUTCOME_COLUMNS["medal_points"][0])
        return arrays

    yield from run_chunks(play_chunk, games, chunk_games, progress, threads, first_game)


def search_context(setup: FantastiqueSetup) -> SearchContext | None:
    """The kernel's :class:`~.engine.SearchContext` for a lineup that seats ``rollout``; None
    for one that does not (its kernel compiles without the search)."""
    if not searches(setup.policies):
        return None
    ids, weights = playout_tables(setup.policies, HEURISTICS, MAX_PLAYERS)
    return SearchContext(
        ids,
        weights,
        np.ones(MAX_PLAYERS, np.bool_),
        np.int64(setup.players),
        np.int64(fan_index(setup.fan)),
        setup.cards.medal_values,
        setup.cards.finale_medals,
    )


def chunk_frame(setup: FantastiqueSetup, first: int, arrays: dict[str, np.ndarray]) -> pd.DataFrame:
    """The tidy rows of one chunk of :func:`play_chunks` (bookkeeping columns dropped)."""
    return tidy_frame(
        first,
        _public(arrays),
        setup.players,
        setup.policy_names,
        {"fan": setup.fan, "players": setup.players},
    )


def _public(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Drop bookkeeping columns that only tests need."""
    return {k: v for k, v in arrays.items() if k != "cards_outside_hands"}
