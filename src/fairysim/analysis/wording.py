"""How the command line words a game: the help of its options, the notes under its tables, the
columns ``simulate`` prints per seat and what each policy weight does, declared per game in its
analysis package.

The engine package (:mod:`fairysim.sim`) states facts only (player counts, setup axes, the turn
order); a sentence a user reads is written here, beside the game's report declaration
(``analysis/<game>/declaration.py``), so that editing it touches no module the kernels are
compiled from and the command line names no game. A game without a registered wording (a plugin
that declares none) is worded from its facts (:func:`plain_wording`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fairysim.analysis.declarations import declaration_modules

if TYPE_CHECKING:  # declarations load no engine package (``fairysim report --help``)
    from fairysim.sim.game import GameSpec


@dataclass(frozen=True)
class SummaryColumn:
    """One column of the per-seat table that ``simulate`` (and a sweep) prints after the win
    share.

    The cell shows the mean of ``columns`` (their means joined by ``join``: ``"+"`` adds them,
    ``"/"`` shows them side by side as ``a/b``), formatted with ``format`` and placed in
    ``template``. The header is whole words, one line per ``"\\n"``-separated part, so that a
    narrow terminal never shows a word broken in two; ``legend`` explains, in a line under the
    table, a header whose name is not plain. ``by_policy`` maps a policy name to the column its
    rows show instead (a seat that scores by other rules, such as solo Concerto's Pahha).
    ``columns`` name the game's seat columns (:attr:`~fairysim.sim.game.GameSpec.seat_columns`).
    """

    header: str
    columns: tuple[str, ...]
    format: str = ".2f"
    join: str = "+"
    legend: str = ""
    template: str = "{}"
    by_policy: tuple[tuple[str, SummaryColumn], ...] = ()

    def cell(self, row: Mapping[str, Any]) -> str:
        """The formatted cell of one summary row (``<column>_mean`` values)."""
        for policy, column in self.by_policy:
            if row.get("policy") == policy:
                return column.cell(row)
        means = [row[f"{column}_mean"] for column in self.columns]
        if self.join == "/":
            value = "/".join(f"{mean:{self.format}}" for mean in means)
        else:
            value = f"{sum(means):{self.format}}"
        return self.template.format(value)


SCORE = SummaryColumn("score", ("score",))
"""The mean score: every game's seat columns hold ``score``, so every game can print it."""


@dataclass(frozen=True)
class GameWording:
    """The command line's words for one game.

    Attributes
    ----------
    game : str
        The registered game's name.
    players : str
        Help of ``--players``; ``{min}`` and ``{max}`` stand for the game's player range.
    cards : str
        Help of ``--cards`` (the card file).
    axes : mapping of str to str
        Help of each setup axis's option, by axis name (its default is added by the command).
    flags : mapping of str to str
        Help of each on/off option, by flag name.
    turn_order : str
        Where the turn order comes from, as a line under a table says it (turn positions
        counted from 1, "1st" the first to act).
    policies_note : str
        Printed under ``fairysim policies <game>``.
    weights : mapping of str to mapping of str to str
        One sentence per policy weight: what raising it makes the policy do, by policy and
        weight name (``fairysim policies <game>`` prints them).
    summary : tuple of SummaryColumn
        What ``simulate`` and a sweep print per seat after the win share (default: the mean
        score).
    """

    game: str
    players: str
    cards: str
    axes: Mapping[str, str] = field(default_factory=dict)
    flags: Mapping[str, str] = field(default_factory=dict)
    turn_order: str = "the seat index is the turn order, seat 0 the 1st to act"
    policies_note: str = ""
    weights: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    summary: tuple[SummaryColumn, ...] = (SCORE,)


SEARCH_WEIGHTS = {
    "rollouts": "Play-outs of every legal choice at each decision; more search more closely and "
    "cost time in proportion (0 plays the default policy's choice).",
    "default": "The built-in that plays every seat in each play-out and makes the searching "
    "seat's decisions it does not search.",
}
"""What ``rollout``'s weights do, the same in every game (:mod:`fairysim.sim.search`)."""

PLAYERS = "Number of players, {min} to {max}."
"""The help of ``--players`` of most games."""

WORDINGS: dict[str, GameWording] = {}
"""The registered wordings, by game name."""


def register_wording(wording: GameWording) -> GameWording:
    """Make ``wording`` the command line's words for its game (a declaration module calls this
    once, at import)."""
    WORDINGS[wording.game] = wording
    return wording


def plain_wording(spec: GameSpec) -> GameWording:
    """The words of a game that registered none: said from its facts alone (its table shows the
    mean score after the win share)."""
    return GameWording(
        game=spec.name,
        players=PLAYERS,
        cards=f"Card file (TOML) of {spec.title}.",
        axes={axis.name: f"{spec.title}'s {axis.name.replace('_', ' ')}." for axis in spec.axes},
        flags={
            flag.name: f"Passed to {spec.title}'s engine as {flag.name}." for flag in spec.flags
        },
    )


def wording_of(spec: GameSpec) -> GameWording:
    """The registered words of ``spec``'s game (its declaration module imported first), else
    :func:`plain_wording`."""
    declaration_modules()
    return WORDINGS.get(spec.name) or plain_wording(spec)


__all__ = [
    "PLAYERS",
    "SCORE",
    "SEARCH_WEIGHTS",
    "WORDINGS",
    "GameWording",
    "SummaryColumn",
    "plain_wording",
    "register_wording",
    "wording_of",
]
