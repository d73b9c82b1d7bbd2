"""The measures a target names, each read from one run's arrays as the reports read it.

A run is what a game's ``play_chunks`` yields, joined (:func:`fairysim.sim.batch.join_chunks`):
one array per column, a row per game. Every measure gives a :class:`Reading`: its value and the
parts whose intervals give the measure's interval, so that the parts of every target of a
candidate can be corrected as one family (:mod:`fairysim.stats.corrections`).

Measures of every game:

- ``turn_order_gap``: the largest distance of a turn position's win share from the fair share
  ``1/players`` (ties split), turn positions read as the balance card reads them
  (:func:`fairysim.stats.turn_order.positions_of_arrays`); its parts are the positions' win
  shares, one value per game each (the game is the cluster).
- ``margin``: the mean winning margin, the winner's score minus the runner-up's, as
  :func:`fairysim.stats.estimates.winning_margins` and the balance card compute it.
- ``game_length``: the mean of the game's declared length column (``GameSpec.length_column``),
  for a game whose length varies.
- ``skill_gap``: a stronger seat's win share minus a weaker seat's, the strongest and the
  weakest listed policy (by the game's skill ladder, ``GameSpec.ladder``) seated alternately,
  each lineup and its mirror played on the same games; 0 where skill does not show.
- ``comebacks``: the share of games whose sole leader after the first third of the rounds ends
  without a win, among the games with a sole leader then, read from the engine's per-round
  trace by the balance card's own function (:mod:`fairysim.analysis.studies.balance`), for a
  game whose engine records one (``GameSpec.trace_prefix``).
- ``forced_effect.<card>``: a card's forced-card effect, the card-effect study's
  intervention (:mod:`fairysim.analysis.studies.card_effects`: one more of the card in seat 0's
  reach, as the game's ruling says), the mean paired difference of seat 0's win share forced
  minus as dealt over the games where the intervention was made, computed by the study's own
  :func:`~fairysim.analysis.studies.card_effects.forced_differences`; for a game that declares
  the intervention (:func:`~fairysim.analysis.studies.card_studies.card_effects_of`).
- ``table_effect.<card>``: a table card's effect, the table-card study's variant
  (:mod:`fairysim.analysis.studies.table_cards`: Fairy Concerto's soloist, pianist or harpist
  card fixed for the whole table, ruling PC3; Fairy Land's card type removed from the forest,
  ruling PL12) against the card file as played, on the same games: the largest distance from 0
  of a turn position's mean paired difference of win share (variant minus as played), its
  parts the per-position differences the study's own
  :func:`~fairysim.analysis.studies.table_cards.position_differences` gives, whose means are
  the study's ``(turn position, win share)`` rows; for a game that declares table cards.

A game's own measures are declared in ``fairysim.analysis.<game>.measures`` as ``MEASURES``
(Fantastique's ``finale_decides``), so that this module names no game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# The balance card's reading of the per-round trace, so that both say the same comeback rate.
from fairysim.analysis.studies.balance import _leads as balance_leads
from fairysim.analysis.studies.card_effects import forced_differences
from fairysim.analysis.studies.card_studies import card_effects_of, table_cards_of
from fairysim.analysis.studies.table_cards import card_variants, position_differences
from fairysim.sim.game import GameSpec
from fairysim.stats.turn_order import positions_of_arrays

Arrays = Mapping[str, np.ndarray]


@dataclass(frozen=True)
class Reading:
    """One measure of one run, kept as sums so that two blocks of games merge.

    ``counts``, ``sums`` and ``squares`` are each part's games, sum and sum of squares of its
    per-game values; the parts' means are the means whose corrected intervals give the
    measure's interval: the measure is the one part where ``centre`` is None, else the largest
    distance of a part from ``centre`` (a turn-order gap). A candidate played in looks
    (:mod:`fairysim.analysis.tune.race`) adds each new block's reading to the ones before
    (:meth:`merged`), so its reading is the one a single run of all its games gives."""

    counts: np.ndarray
    sums: np.ndarray
    squares: np.ndarray
    games: int
    centre: float | None = None

    @property
    def parts(self) -> np.ndarray:
        """Each part's mean (nan where it has no game)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.sums / self.counts

    @property
    def ses(self) -> np.ndarray:
        """Each part's standard error, from its per-game values (ddof 1; nan under 2 games)."""
        n = self.counts.astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            var = np.maximum(self.squares - self.sums**2 / n, 0.0) / (n - 1)
            return np.where(n > 1, np.sqrt(var / n), np.nan)

    @property
    def value(self) -> float:
        """The measure: the part, or the largest distance of a part from ``centre``."""
        parts = self.parts
        if self.centre is None:
            return float(parts[0])
        return float(np.abs(parts - self.centre).max())

    def merged(self, other: Reading) -> Reading:
        """The reading of this block's games and ``other``'s together."""
        return Reading(
            self.counts + other.counts,
            self.sums + other.sums,
            self.squares + other.squares,
            self.games + other.games,
            self.centre,
        )

    def interval(self, lows: np.ndarray, highs: np.ndarray) -> tuple[float, float]:
        """The measure's interval from its parts' intervals: the part's own, or for a gap
        the nearest and farthest the parts' intervals reach from the centre."""
        if self.centre is None:
            return float(lows[0]), float(highs[0])
        c = self.centre
        near = np.maximum(0.0, np.maximum(lows - c, c - highs))
        far = np.maximum(np.abs(lows - c), np.abs(highs - c))
        return float(near.max()), float(far.max())


def columns_reading(values: np.ndarray, centre: float | None = None) -> Reading:
    """The reading of per-game values, one column per part (a row per game)."""
    values = np.asarray(values, np.float64)
    values = values.reshape(len(values), -1)
    return Reading(
        np.full(values.shape[1], len(values), np.int64),
        values.sum(axis=0),
        (values**2).sum(axis=0),
        len(values),
        centre,
    )


def mean_reading(values: np.ndarray) -> Reading:
    """The mean of independent per-game values, with its standard error."""
    return columns_reading(np.asarray(values, np.float64).reshape(-1, 1))


@dataclass(frozen=True)
class Measure:
    """A named measure: ``read(spec, arrays, players)`` gives its :class:`Reading`.

    ``min_players`` and ``max_players`` are the tables it means something at; ``flags`` are
    the ``play_chunks`` flags its runs need; ``available`` says whether a game has it. A
    ``pair`` measure is read between two policies: ``read`` then takes the two runs of a
    :class:`~fairysim.analysis.tune.evaluate.Cell` pair (the stronger at the even seats, then
    at the odd ones) in place of one run's arrays."""

    name: str
    label: str
    unit: str
    description: str
    read: Callable[[GameSpec, Any, int], Reading]
    min_players: int = 1
    max_players: int | None = None
    pair: bool = False
    flags: Mapping[str, Any] = field(default_factory=dict)
    available: Callable[[GameSpec], bool] = lambda spec: True
    forced: bool = False
    """A card's forced-card effect: the target names the card (``forced_effect.<card>``), the
    table also plays the card-effect study's forced arm of it (:attr:`card`) on the same games,
    and ``read`` takes the two runs ``(as dealt, forced)``."""
    card: int | None = None
    """The card id of a bound forced-card measure."""
    table: bool = False
    """A table card's effect: the target names the card (``table_effect.<card>``), the table
    also plays the table-card study's variant of it (:attr:`table_card`) on the same games,
    and ``read`` takes the two runs ``(as played, variant)``."""
    table_card: str | None = None
    """The label of a bound table-card measure, as the table-card study's rows carry it."""
    absent: str = ""
    """Why a game without the measure lacks it (the error a target naming it gets)."""

    @property
    def names_card(self) -> bool:
        """Whether a target names a card after the measure (``<measure>.<card>``)."""
        return self.forced or self.table


def by_position(spec: GameSpec, arrays: Arrays, column: str, players: int) -> np.ndarray:
    """``arrays[column]`` with column ``p`` the value of the seat at turn position ``p``."""
    values = np.asarray(arrays[column][:, :players], np.float64)
    pos = positions_of_arrays(arrays, spec.turn_order, players)
    out = np.empty_like(values)
    np.put_along_axis(out, pos, values, axis=1)
    return out


def _turn_order_gap(spec: GameSpec, arrays: Arrays, players: int) -> Reading:
    shares = by_position(spec, arrays, "win_share", players)
    return columns_reading(shares, centre=1.0 / players)


def winning_margin(score: np.ndarray) -> np.ndarray:
    """Per game: the highest score minus the second highest (0 where the top is tied), the
    formula of :func:`fairysim.stats.estimates.winning_margins`."""
    ordered = np.sort(np.asarray(score, np.float64), axis=1)
    return ordered[:, -1] - ordered[:, -2]


def _margin(spec: GameSpec, arrays: Arrays, players: int) -> Reading:
    return mean_reading(winning_margin(arrays["score"][:, :players]))


def _game_length(spec: GameSpec, arrays: Arrays, players: int) -> Reading:
    length = np.asarray(arrays[spec.length_column], np.float64)
    return mean_reading(length if length.ndim == 1 else length[:, 0])


def trace_array(spec: GameSpec) -> str:
    """The name of a traced run's per-round array in a chunk (``medal_points_round``): the
    spec's ``trace_prefix`` without its trailing ``_``."""
    return str(spec.trace_prefix).rstrip("_")


def _comebacks(spec: GameSpec, arrays: Arrays, players: int) -> Reading:
    values = np.asarray(arrays[trace_array(spec)][:, :players, :], np.float64)
    win = np.asarray(arrays["win_share"][:, :players], np.float64)
    _, comeback = balance_leads(values, win)
    return mean_reading(comeback[~np.isnan(comeback)])


def _skill_gap(spec: GameSpec, runs: list[Arrays], players: int) -> Reading:
    edges = []
    for k, arrays in enumerate(runs):
        win = np.asarray(arrays["win_share"][:, :players], np.float64)
        strong = np.arange(players) % 2 == k
        edges.append(win[:, strong].mean(axis=1) - win[:, ~strong].mean(axis=1))
    return mean_reading(np.mean(edges, axis=0))


FORCED_SEAT = 0
"""The lineup seat a forced-card measure puts the card before (the card-effect study's
default; where the turn order is drawn the seat meets every turn position)."""


def _forced_effect(spec: GameSpec, runs: tuple[Arrays, Arrays], players: int) -> Reading:
    baseline, arm = runs
    return mean_reading(forced_differences(baseline, arm, FORCED_SEAT))


def table_variants(spec: GameSpec, setup: Any) -> list[tuple[str, dict[str, Any]]]:
    """The ``(label, options)`` of every table card the game declares at ``setup``, over its
    declarations (:func:`~fairysim.analysis.studies.table_cards.card_variants`)."""
    return [v for declared in table_cards_of(spec) for v in card_variants(declared, setup)]


def _table_effect(spec: GameSpec, runs: tuple[Arrays, Arrays], players: int) -> Reading:
    shipped, variant = runs
    return columns_reading(position_differences(spec, shipped, variant, players), centre=0.0)


COMMON = (
    Measure(
        "turn_order_gap",
        "turn-order gap",
        "share of games",
        "the largest distance of a turn position's win share from the fair share 1/players",
        _turn_order_gap,
        min_players=2,
    ),
    Measure(
        "margin",
        "winning margin",
        "points",
        "the mean of the winner's score minus the runner-up's",
        _margin,
        min_players=2,
    ),
    Measure(
        "game_length",
        "game length",
        "per game",
        "the mean of the game's length column, where the length varies",
        _game_length,
        available=lambda spec: spec.length_column is not None,
    ),
    Measure(
        "comebacks",
        "comebacks",
        "share of games",
        "the share of games whose sole leader after the first third of the rounds does not "
        "win (among games with a sole leader then)",
        _comebacks,
        min_players=2,
        flags={"trace": True},
        available=lambda spec: spec.trace_prefix is not None,
    ),
    Measure(
        "skill_gap",
        "skill gap",
        "share of games",
        "a stronger seat's win share minus a weaker seat's, the two policies seated "
        "alternately (each lineup and its mirror on the same games)",
        _skill_gap,
        min_players=2,
        pair=True,
    ),
    Measure(
        "forced_effect",
        "forced-card effect",
        "share of games",
        "a card's forced-card effect: seat 0's win share with one more of the card (the game's "
        "card-effect intervention) minus as dealt, on the same games (the card-effect study's "
        "effect)",
        _forced_effect,
        forced=True,
        available=lambda spec: card_effects_of(spec) is not None,
        absent="it declares no card-effect intervention",
    ),
    Measure(
        "table_effect",
        "table-card effect",
        "share of games",
        "a table card's effect: the largest distance from 0 of a turn position's paired "
        "difference of win share, the card's variant (the game's table-card study) minus the "
        "card file as played, on the same games",
        _table_effect,
        table=True,
        available=lambda spec: bool(table_cards_of(spec)),
        absent="it declares no table cards (cards no seat holds)",
    ),
)
"""The measures of every game (where :attr:`Measure.available`)."""


def game_measures(spec: GameSpec) -> tuple[Measure, ...]:
    """The game's own measures: ``MEASURES`` of ``fairysim.analysis.<game>.measures``, or
    none where the game declares no such module."""
    name = f"fairysim.analysis.{spec.name}.measures"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return ()
    return tuple(module.MEASURES)


def measures_for(spec: GameSpec) -> dict[str, Measure]:
    """Every measure ``spec``'s game has, by name."""
    found = [m for m in COMMON if m.available(spec)] + list(game_measures(spec))
    return {m.name: m for m in found}


__all__ = [
    "COMMON",
    "FORCED_SEAT",
    "Measure",
    "Reading",
    "by_position",
    "game_measures",
    "mean_reading",
    "measures_for",
    "table_variants",
    "winning_margin",
]
