"""The grid of a sweep: its axes read from the game's :class:`~fairysim.sim.game.GameSpec`, and
its cells, each a validated setup that workers rebuild from plain values.

The axes are ``players`` and every :class:`~fairysim.sim.game.SetupAxis` of the game, in that
order; each takes a list of values, ``all`` (every player count; every value of
:meth:`~fairysim.sim.game.SetupAxis.allowed`), or, for an axis whose default is drawn at random
for every game, ``random``. Cells are the product of the axes, lineups innermost.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import itertools
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fairysim.runtime.errors import CardFileError, FairysimError, ParameterError
from fairysim.sim.game import GameSpec, SetupAxis, games, get_game

RANDOM = "random"
"""Value of an axis drawn per game (allowed where the axis's default is None)."""

ALL = "all"
"""Every value of an axis."""

PLAYERS = "players"
"""The axis every game has: its keyword, option (``--players``) and result column."""


@dataclass(frozen=True)
class CellSetup:
    """What rebuilds a cell's setup anywhere: plain, picklable values and the card set.

    A worker gets this rather than the setup itself: a ``Policy`` holds a compiled function,
    which does not travel, so the lineup travels as text and is resolved again there. The card
    set travels so that every worker plays the client's cards.

    Attributes
    ----------
    game, package : str
        The registered game, and the package a worker imports to register it when it is not
        one of the games fairysim finds itself (a test's toy game).
    engine_version : int
        The client's engine version; a worker with another refuses the task.
    players : int
    lineup : str
        As ``--lineup`` takes it, normalised (``"hoarder,greedy,greedy,greedy"``).
    seed : int
    cards : object
        The game's card set (``spec.load_cards``).
    cards_sha256 : str
        Digest of the card set's data (:func:`cards_digest`).
    axes : tuple of (str, str or None)
        ``make_setup`` keyword and value of every setup axis (None: drawn per game).
    weights : str
        The seats' weights as ``--weights`` takes them (``0:finale=3.1,...``), set on the
        resolved lineup; empty for the policies' defaults (a tournament entry with searched
        weights fills it).
    """

    game: str
    package: str
    engine_version: int
    players: int
    lineup: str
    seed: int
    cards: Any
    cards_sha256: str
    axes: tuple[tuple[str, str | None], ...]
    weights: str = ""

    @property
    def key(self) -> tuple:
        """Hashable identity of the setup (the card set by its digest)."""
        key = (self.game, self.players, self.lineup, self.seed, self.cards_sha256, self.axes)
        return (*key, self.weights) if self.weights else key

    def spec(self) -> GameSpec:
        """The game, imported from :attr:`package` where the registry does not know it."""
        if self.game not in games():
            try:
                importlib.import_module(self.package)
            except ImportError as exc:
                raise ParameterError(
                    "scheduler",
                    f"a worker cannot import {self.package} to play {self.game} ({exc}); "
                    "install it on every worker",
                ) from None
        return get_game(self.game, "game")

    def build(self) -> Any:
        """The game's setup: ``make_setup(players=, policies=, seed=, cards=, **axes)``."""
        from fairysim.sim.weights import apply_weights

        spec = self.spec()
        lineup = resolve_lineup(spec, self.lineup, self.players)
        return spec.make_setup(
            players=self.players,
            policies=list(apply_weights(lineup, self.weights or None)),
            seed=self.seed,
            cards=self.cards,
            **dict(self.axes),
        )


@dataclass(frozen=True)
class CellSpec:
    """A validated cell, ready to be played by tasks.

    Attributes
    ----------
    values : dict
        The cell's axis values by result column (``players`` first; ``random`` where drawn
        per game).
    lineup : str
        The lineup, normalised.
    policies : list of str
        Each seat's policy name (a seat the game adds, as a solo opponent, included).
    key : dict
        Everything that decides the cell's numbers (JSON-friendly); compared on resume.
    setup : dict
        The setup's ``config()``, saved for the record.
    task : CellSetup
        What a worker rebuilds the setup from.
    preamble, footnotes : tuple of str
        The setup's lines printed above and below a summary table.
    rotated : bool
        Whether the lineup mixes policies, so that the cell is played on every rotation of its
        seats on the same deals (:mod:`fairysim.sim.rotation`), its ``games`` counting
        deals and its rows the lineup's entries.
    """

    values: dict[str, Any]
    lineup: str
    policies: list[str]
    key: dict[str, Any]
    setup: dict[str, Any]
    task: CellSetup
    preamble: tuple[str, ...] = ()
    footnotes: tuple[str, ...] = ()
    rotated: bool = False

    @property
    def rotations(self) -> int:
        """Games a deal of the cell is played (once per rotation of a mixed lineup's seats)."""
        return self.seats if self.rotated else 1

    @property
    def seats(self) -> int:
        """Result rows per game."""
        return len(self.policies)

    @property
    def cell_id(self) -> str:
        """File-name-safe and unique: readable axis values and lineup, then a digest of the key."""
        digest = hashlib.sha256(json.dumps(self.key, sort_keys=True).encode()).hexdigest()[:10]
        readable = "_".join(
            f"{name}{re.sub(r'[^A-Za-z0-9._-]+', '-', str(value))[-24:]}"
            for name, value in self.values.items()
        )
        lineup = re.sub(r"[^A-Za-z0-9.-]+", "-", self.lineup)[:40]
        return f"{readable}_{lineup}_{digest}"


@dataclass(frozen=True)
class Plan:
    """A validated grid: the game, its card set, each axis's values, the lineups, the cells."""

    spec: GameSpec
    cards: Any
    axis_values: dict[str, list[Any]]
    lineups: list[str]
    cells: list[CellSpec]

    def fingerprint(self) -> dict[str, Any]:
        """Engine and data versions that decide the numbers, for the manifest (a changed
        engine, card file or file named by an axis makes an old folder refuse to resume)."""
        files = {}
        for axis in self.spec.axes:
            values = self.axis_values[axis.result_column]
            digests = {v: d for v in values if not lists_values(axis) and (d := file_digest(v))}
            if digests:
                files[f"{axis.result_column}_sha256"] = digests
        return {
            "engine_version": self.spec.engine_version,
            "cards_sha256": cards_digest(self.cards),
            **files,
        }


def cards_digest(cards: Any) -> str:
    """Digest of a card set's ``arrays()``: numbers as int64, strings one by one.

    The data, not the path: a moved checkout resumes, an edited file does not.
    """
    digest = hashlib.sha256()
    labels: list[str] = []
    for item in cards.arrays():
        if isinstance(item, tuple | list) and all(isinstance(x, str) for x in item):
            labels += item
        else:
            digest.update(np.ascontiguousarray(item, dtype=np.int64).tobytes())
    for label in labels:
        digest.update(label.encode() + b"\0")
    return digest.hexdigest()[:16]


def file_digest(value: Any) -> str | None:
    """Digest of the file an axis value names (an axis that takes any text, such as a file
    path that ``make_setup`` reads), or None where it names no file."""
    path = Path(str(value))
    if not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def lists_values(axis: SetupAxis) -> bool:
    """Whether an axis lists its values (so ``all`` means something), or takes any text."""
    return bool(axis.values) or axis.values_from is not None


# Policies resolved once per game and lineup item: a `module:function` policy compiles on
# resolution, and a grid repeats every lineup for every cell (and every task on a worker).
_POLICY_CACHE: dict[tuple[str, str], Any] = {}


def resolve_lineup(spec: GameSpec, lineup: str, players: int) -> list[Any]:
    """One policy per player from a lineup of one item (every seat) or one item per seat."""
    from fairysim.sim.policy import resolve_policies

    items = lineup.split(",")
    if len(items) not in (1, players):
        raise ParameterError(
            "lineups",
            f"{lineup!r} names {len(items)} seats but the sweep has {players}-player cells; give "
            f"one policy for every seat or exactly {players}",
        )
    seats = []
    for item in items * (players // len(items)):
        if (spec.name, item) not in _POLICY_CACHE:
            (_POLICY_CACHE[spec.name, item],) = resolve_policies(
                item, 1, spec.policies, option="lineups"
            )
        seats.append(_POLICY_CACHE[spec.name, item])
    return seats


def plan_cells(
    game: str | GameSpec,
    axes: Mapping[str, Any],
    lineups: Any,
    seed: int,
    cards: Any = None,
) -> Plan:
    """Validate a grid and list its cells (axes outer, in the order ``players`` then the game's
    setup axes; lineups inner).

    Parameters
    ----------
    game : str or GameSpec
        A registered game.
    axes : mapping
        Values by :func:`~fairysim.sweep.run_sweep` keyword: ``players`` and each setup axis's
        :attr:`~fairysim.sim.game.SetupAxis.sweep_keyword_name`; each a comma-separated string,
        a value, a sequence, ``"all"`` or (where the axis is drawn per game by default)
        ``"random"``. A missing axis takes its default.
    lineups : str or sequence of str
        Lineups (policy specs as ``--policy`` takes them).
    seed : int
        The sweep's seed; every cell is played with it (common deals across cells).
    cards : path or card set, optional
        The game's card file or loaded card set (default: the shipped one).

    Returns
    -------
    Plan

    Raises
    ------
    FairysimError
        Naming the option at fault (``--players``, an axis's sweep option, ``--lineup``,
        ``--seed``, ``--cards``).
    """
    spec = find_game(game)
    unknown = [
        name for name, value in axes.items() if value is not None and name not in keywords(spec)
    ]
    if unknown:
        raise FairysimError(option_of(unknown[0]), f"{spec.name} sweeps have no {unknown[0]} axis")
    card_set = load_card_set(spec, cards)
    players = parse_players(spec, axes.get(PLAYERS))
    values = {PLAYERS: players} | {
        axis.result_column: parse_axis(axis, axes.get(axis.sweep_keyword_name), card_set)
        for axis in spec.axes
    }
    parsed_lineups = parse_lineups(lineups)
    cells = [
        make_cell(spec, dict(zip(values, point, strict=True)), lineup, seed, card_set)
        for point in itertools.product(*values.values())
        for lineup in parsed_lineups
    ]
    return Plan(spec, card_set, values, parsed_lineups, cells)


def find_game(game: str | GameSpec) -> GameSpec:
    """The registered game, or an error listing the games."""
    if isinstance(game, GameSpec):
        return game
    known = games()
    if game not in known:
        raise FairysimError("game", f"no sweep for {game!r}; games: {', '.join(known)}")
    return known[game]


def keywords(spec: GameSpec) -> list[str]:
    """The grid keywords of :func:`~fairysim.sweep.run_sweep` for ``spec``."""
    return [PLAYERS, *(axis.sweep_keyword_name for axis in spec.axes)]


def option_of(keyword: str) -> str:
    """The sweep option of a grid keyword of any registered game (``--<keyword>`` if none)."""
    for spec in games().values():
        for axis in spec.axes:
            if axis.sweep_keyword_name == keyword:
                return axis.sweep_option_name
    return f"--{keyword.replace('_', '-')}"


def load_card_set(spec: GameSpec, cards: Any) -> Any:
    """The sweep's card set: a path (or None: the shipped set) loaded, a card set kept."""
    if cards is not None and not isinstance(cards, str | os.PathLike):
        return cards
    try:
        return spec.load_cards(cards)
    except CardFileError as error:
        raise ParameterError("cards", str(error)) from None


def items_of(values: Any) -> list[str]:
    """Comma-separated strings or sequences of values -> list of stripped strings."""
    if isinstance(values, str | int | np.integer):
        values = [values]
    items: list[str] = []
    for value in values:
        items += [part.strip() for part in str(value).split(",")]
    return items


def parse_list(values: Any, option: str) -> list[str] | None:
    """The items of an axis, or None for ``all``; an empty item is an error naming ``option``."""
    items = items_of(values)
    if not items or "" in items:
        raise ParameterError(option, f"give a comma-separated list, got {values!r}")
    return None if [item.casefold() for item in items] == [ALL] else items


def parse_players(spec: GameSpec, values: Any) -> list[int]:
    """The player counts of ``--players`` (default: the game's)."""
    items = parse_list(spec.default_players if values is None else values, "players")
    if items is None:
        return list(range(spec.min_players, spec.max_players + 1))
    return no_duplicates([spec.check_players(item, "players") for item in items], "players")


def parse_axis(axis: SetupAxis, values: Any, cards: Any) -> list[str]:
    """The values of a setup axis: listed, ``all``, or ``random`` where the axis allows it."""
    option = axis.sweep_option_name
    draws = axis.default is None
    default = RANDOM if draws else axis.default
    items = parse_list(default if values is None else values, option)
    allowed = axis.allowed(cards)
    if items is None:
        if not lists_values(axis):
            raise ParameterError(option, f"takes any value, so '{ALL}' cannot list them; give them")
        return list(allowed)
    parsed = []
    for item in items:
        if draws and item.casefold() == RANDOM:
            parsed.append(RANDOM)
            continue
        try:
            parsed.append(axis.parse(item, cards, option))
        except FairysimError:
            also = f", {RANDOM} or {ALL}" if draws else f" or {ALL}"
            raise ParameterError(
                option, f"must be one of {', '.join(allowed)}{also}, got {item!r}"
            ) from None
    return no_duplicates(parsed, option)


def parse_lineups(lineups: Any) -> list[str]:
    """The lineups, normalised (no blanks around seats); none, an empty seat or a repeated
    lineup is an error naming ``--lineup``."""
    if isinstance(lineups, str):
        lineups = [lineups]
    normalised = [",".join(part.strip() for part in str(x).split(",")) for x in lineups or []]
    if not normalised:
        raise ParameterError("lineups", "give at least one lineup")
    for lineup in normalised:
        if "" in lineup.split(","):
            raise ParameterError("lineups", f"{lineup!r} has an empty seat")
    return no_duplicates(normalised, "lineups")


def no_duplicates(values: Sequence[Any], option: str) -> list[Any]:
    """``values`` as a list, or an error naming ``option`` at the first repeated value."""
    seen = set()
    for value in values:
        if value in seen:
            raise ParameterError(option, f"{value} is given twice")
        seen.add(value)
    return list(values)


def make_cell(
    spec: GameSpec, values: dict[str, Any], lineup: str, seed: int, cards: Any
) -> CellSpec:
    """One validated cell: its setup built here, so every error shows before any task runs."""
    axes = tuple(
        (axis.name, None if values[axis.result_column] == RANDOM else values[axis.result_column])
        for axis in spec.axes
    )
    sha = cards_digest(cards)
    task = CellSetup(
        spec.name,
        spec.package,
        spec.engine_version,
        values[PLAYERS],
        lineup,
        seed,
        cards,
        sha,
        axes,
    )
    try:
        setup = task.build()
    except FairysimError as error:
        # A lineup the game refuses for this cell (solo lookahead at 2-4 players) is the
        # sweep's --lineup, whatever option the setup names.
        if error.where == "policies":
            raise ParameterError.about("lineups", error) from None
        raise
    from fairysim.sim.rotation import mixes_policies

    config = setup.config()
    # The seed as the setup checked it, so that a cell's key is the numbers' whole recipe.
    task = dataclasses.replace(task, seed=setup.seed)
    key = {
        "game": spec.name,
        **values,
        "lineup": lineup,
        "policies": config["policies"],
        "weights": config["weights"],
        "seed": setup.seed,
        "engine_version": spec.engine_version,
        "cards_sha256": sha,
    }
    # A file an axis value names is part of the recipe: an edited file is another cell.
    key |= {
        f"{axis.result_column}_sha256": file_digest(values[axis.result_column])
        for axis in spec.axes
        if not lists_values(axis) and file_digest(values[axis.result_column])
    }
    return CellSpec(
        dict(values),
        lineup,
        list(setup.policy_names),
        key,
        config,
        task,
        tuple(setup.preamble()),
        tuple(setup.footnotes()),
        mixes_policies(setup),
    )


__all__ = [
    "ALL",
    "PLAYERS",
    "RANDOM",
    "CellSetup",
    "CellSpec",
    "Plan",
    "cards_digest",
    "plan_cells",
    "resolve_lineup",
]
