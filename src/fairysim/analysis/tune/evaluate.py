"""Playing a candidate card file and judging it against the targets.

A candidate plays every listed player count under every listed policy (a *cell*), each cell on
the same games of the same seed as every other candidate (common random numbers: game ``i`` of a
seed is keyed by ``(seed, i)`` alone, the pairing ``fairysim compare`` uses). The search plays a
candidate in blocks of games from game 0 (:mod:`fairysim.analysis.tune.race`), each block's
readings merged into those of one run; the finalists are replayed on games the search never
played (from its cap on), and their intervals are corrected as one family over every part of every
target, cell and finalist (:func:`fairysim.stats.corrections.with_correction`, Holm), each part
tested against the band edge nearest to it, so that "meets the target" is the corrected
interval lying inside the band.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fairysim.analysis.studies.card_effects import forced_setup
from fairysim.analysis.tune.measures import FORCED_SEAT, Measure, Reading, table_variants
from fairysim.analysis.tune.targets import Target, TuneTargets, cards_from_text
from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import join_chunks
from fairysim.sim.game import GameSpec
from fairysim.stats.corrections import with_correction
from fairysim.stats.estimates import Z_95

ALPHA = 0.05
"""Family-wise error rate of the final evaluation's intervals."""


@dataclass(frozen=True)
class Cell:
    """One table the targets are judged at: a player count and the policy every seat plays,
    or (``pair``) a stronger and a weaker policy seated alternately, played twice on the same
    games (the stronger at the even seats, then at the odd ones) so that neither takes the
    better turn positions."""

    players: int
    policy: str
    pair: tuple[str, str] | None = None

    def lineups(self) -> list[list[str]]:
        """The policy of every seat, for each run of the table."""
        if self.pair is None:
            return [[self.policy] * self.players]
        strong, weak = self.pair
        return [[strong if s % 2 == k else weak for s in range(self.players)] for k in (0, 1)]


def cells(targets: TuneTargets) -> list[Cell]:
    """Every table of the targets file: each (player count, policy) where a target is read at
    one policy, and each player count's pair where one is read between two."""
    pairs = [targets.measures[t.measure].pair for t in targets.targets]
    out = []
    if not all(pairs):
        out += [Cell(p, policy) for p in targets.players for policy in targets.policies]
    if any(pairs) and targets.pair is not None:
        strong, weak = targets.pair
        out += [Cell(p, f"{strong} vs {weak}", targets.pair) for p in targets.players]
    return out


def runs_per_candidate(targets: TuneTargets) -> int:
    """How many runs (of as many games each) one candidate plays: a run per lineup of every
    table, and a second arm (forced or a table card's variant) per card-naming target at every
    one-policy table."""
    forced = sum(1 for t in targets.targets if targets.measures[t.measure].names_card)
    tables = cells(targets)
    return sum(len(cell.lineups()) + forced * (cell.pair is None) for cell in tables)


@dataclass(frozen=True)
class Judged:
    """One candidate's readings: ``readings[(cell, measure)]``; ``refused`` holds the card
    checks' message where the candidate's changes together break a rule of the card file."""

    choice: tuple[int, ...]
    readings: Mapping[tuple[Cell, str], Reading]
    refused: str = ""

    def merged(self, other: Judged) -> Judged:
        """The readings of this block of games and ``other``'s (the next block) together."""
        if self.refused:
            return self
        return Judged(
            self.choice, {key: r.merged(other.readings[key]) for key, r in self.readings.items()}
        )

    @property
    def parts(self) -> int:
        """How many means the candidate's readings rest on (the size of its family)."""
        return sum(len(reading.counts) for reading in self.readings.values())


def play_candidate(
    spec: GameSpec,
    targets: TuneTargets,
    choice: Sequence[int],
    folder: Path,
    *,
    games: int,
    seed: int,
    first_game: int = 0,
    threads: int | None = None,
) -> Judged:
    """Play ``choice`` (indices into each ``vary`` entry's choices) in every cell on games
    ``first_game .. first_game + games - 1`` of ``seed`` and read every target's measure."""
    choice = tuple(int(i) for i in choice)
    try:
        cards = cards_from_text(spec, targets.cards_text(choice), folder)

        def make(players: int, lineup: list[str], **options: Any) -> Any:
            return spec.make_setup(
                players=players,
                policies=lineup,
                seed=seed,
                cards=cards,
                **{**targets.setup, **options},
            )

        setups = {
            cell: [make(cell.players, lineup) for lineup in cell.lineups()]
            for cell in cells(targets)
        }
        table = [t.measure for t in targets.targets if targets.measures[t.measure].table]
        variants = {  # each table card's variant beside the one-policy cells
            (cell, name): make(
                cell.players,
                cell.lineups()[0],
                **table_options(spec, targets.measures[name], setups[cell][0]),
            )
            for cell in setups
            if cell.pair is None
            for name in table
        }
    except FairysimError as error:  # one value alone passes, the combination does not
        return Judged(choice, {}, error.message)
    flags = targets.flags()

    def play(setup: Any) -> dict[str, np.ndarray]:
        return join_chunks(
            spec.play_chunks(setup, games, first_game=first_game, threads=threads, **flags)
        )

    readings = {}
    for cell, lineups in setups.items():
        runs = [play(setup) for setup in lineups]
        for target in targets.targets:
            measure = targets.measures[target.measure]
            if measure.pair == (cell.pair is not None):
                read: Any = runs if measure.pair else runs[0]
                if measure.forced:  # the card-effect study's arm, on the same games
                    read = (runs[0], play(forced_setup(lineups[0], measure.card, FORCED_SEAT)))
                if measure.table:  # the table-card study's variant, on the same games
                    read = (runs[0], play(variants[(cell, target.measure)]))
                readings[(cell, target.measure)] = measure.read(spec, read, cell.players)
    return Judged(choice, readings)


def table_options(spec: GameSpec, measure: Measure, played: Any) -> dict[str, Any]:
    """The ``make_setup`` options of a bound table-card measure's variant beside the setup
    ``played`` (the candidate's cards), as the table-card study takes them from the game's
    declaration; refused where the candidate's card file no longer holds the card."""
    options = dict(table_variants(spec, played)).get(measure.table_card)
    if options is None:
        raise FairysimError("cards", f"the card file holds no table card {measure.table_card!r}")
    return options


def distance(targets: TuneTargets, judged: Judged) -> float:
    """The candidate's distance to the targets on point estimates: the sum over cells and
    targets of how far each measure lies outside its band, in the band's units
    (:meth:`Target.distance`); infinite for a refused candidate."""
    if judged.refused:
        return math.inf
    total = 0.0
    for (_, name), reading in judged.readings.items():
        total += _target(targets, name).distance(reading.value)
    return total


def changes(choice: Sequence[int]) -> int:
    """How many numbers a candidate changes."""
    return sum(1 for index in choice if index)


def _target(targets: TuneTargets, name: str) -> Target:
    return next(t for t in targets.targets if t.measure == name)


def search_interval(reading: Reading, z: float) -> tuple[float, float]:
    """The measure's interval from its parts' normal intervals of ``z`` standard errors
    (unbounded where a part has no standard error)."""
    ses = np.where(np.isfinite(reading.ses), reading.ses, np.inf)
    parts = reading.parts
    return reading.interval(parts - z * ses, parts + z * ses)


def point_rows(targets: TuneTargets, judged: Judged, z: float = Z_95) -> list[dict[str, Any]]:
    """One row per (cell, target) of a search evaluation: the value and its interval of ``z``
    standard errors (what the search saw)."""
    rows = []
    for (cell, name), reading in judged.readings.items():
        low, high = search_interval(reading, z)
        rows.append(
            {
                "players": cell.players,
                "policy": cell.policy,
                "measure": name,
                "value": reading.value,
                "low": low,
                "high": high,
                "games": reading.games,
                "distance": _target(targets, name).distance(reading.value),
            }
        )
    return rows


def _nulls(target: Target, reading: Reading) -> np.ndarray:
    """Each part's null: the band edge nearest to it (for a gap, the edges either side of the
    centre), so that a part separated from its null lies clearly inside or outside the band."""
    if reading.centre is None:
        edges = np.array(target.edges())
    else:
        edges = np.array([reading.centre + s * e for e in target.edges() for s in (-1, 1)])
    nearest = np.abs(reading.parts[:, None] - edges[None, :]).argmin(axis=1)
    return edges[nearest]


def corrected(
    targets: TuneTargets, judged: Mapping[str, Judged], alpha: float = ALPHA
) -> pd.DataFrame:
    """The finalists' readings with corrected intervals, one family over all of them.

    Returns one row per (candidate, cell, target): ``value``, the corrected ``low`` and
    ``high``, ``games``, ``met`` (the interval inside the band), ``distance`` and ``level``
    (the smallest two-sided error rate of the parts' intervals)."""
    parts = []
    for label, candidate in judged.items():
        for (cell, name), reading in candidate.readings.items():
            nulls = _nulls(_target(targets, name), reading)
            for k, (estimate, se) in enumerate(zip(reading.parts, reading.ses, strict=True)):
                parts.append(
                    {
                        "candidate": label,
                        "players": cell.players,
                        "policy": cell.policy,
                        "measure": name,
                        "part": k,
                        "estimate": estimate,
                        "se": se,
                        "null": nulls[k],
                    }
                )
    table = with_correction(pd.DataFrame(parts), "estimate", null="null", alpha=alpha)
    exact = ~(table["se"] > 0)  # every game the same: the mean is exact
    table.loc[exact, "low"] = table.loc[exact, "estimate"]
    table.loc[exact, "high"] = table.loc[exact, "estimate"]
    rows = []
    for label, candidate in judged.items():
        for (cell, name), reading in candidate.readings.items():
            mine = table[
                (table["candidate"] == label)
                & (table["players"] == cell.players)
                & (table["policy"] == cell.policy)
                & (table["measure"] == name)
            ].sort_values("part")
            low, high = reading.interval(mine["low"].to_numpy(), mine["high"].to_numpy())
            target = _target(targets, name)
            rows.append(
                {
                    "candidate": label,
                    "players": cell.players,
                    "policy": cell.policy,
                    "measure": name,
                    "band": target.text,
                    "value": reading.value,
                    "low": low,
                    "high": high,
                    "games": reading.games,
                    "level": float(mine["level"].min()),
                    "met": target.met(low, high),
                    "distance": target.distance(reading.value),
                }
            )
    return pd.DataFrame(rows)


__all__ = [
    "ALPHA",
    "Cell",
    "Judged",
    "cells",
    "changes",
    "corrected",
    "distance",
    "play_candidate",
    "point_rows",
    "runs_per_candidate",
    "search_interval",
    "table_options",
]
