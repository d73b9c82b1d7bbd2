"""Commands with one subcommand per registered game, built from the game's spec on demand.

``fairysim simulate GAME``, ``report NAME``, ``policies GAME`` and ``sweep GAME`` are groups of
class :class:`GameGroup`: their subcommands are not written per game but made from the game
registry (:mod:`fairysim.sim.game`) when click asks for them, so a game registered after the
command line was imported (a plugin, a test's toy game) has its commands too.

A subcommand is an ordinary typer command whose signature is assembled from
:class:`Param` entries (common options declared once, plus the game's axes and flags), so that
help, parsing and errors are typer's own, as for the hand-written commands.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from fairysim.analysis.wording import GameWording, wording_of
from fairysim.sim.game import GameSpec, SetupAxis, games


@dataclass(frozen=True)
class Param:
    """One option of a generated command: keyword ``name``, its type, default and typer option."""

    name: str
    annotation: Any
    default: Any
    option: Any

    def parameter(self) -> inspect.Parameter:
        """The ``inspect.Parameter`` typer reads the option from."""
        return inspect.Parameter(
            self.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=self.default,
            annotation=Annotated[self.annotation, self.option],
        )


def option(
    name: str, annotation: Any, default: Any, flag: str, help: str, shown: str = "", **kw: Any
) -> Param:
    """A :class:`Param` for ``--flag`` with ``help``; ``shown`` states a default that is not
    the option's value (the value a missing option stands for), as typer states the others."""
    if shown:
        help = f"{help} \\[default: {shown}]"
    return Param(name, annotation, default, typer.Option(flag, help=help, **kw))


def deprecated(name: str, annotation: Any, flag: str, instead: str) -> Param:
    """A hidden option ``flag``, the old name of ``instead``: it still works for one release,
    with a notice (:func:`fairysim.cli.common.take_deprecated`), and ``--help`` shows only the
    new name."""
    return Param(
        name,
        annotation,
        None,
        typer.Option(flag, help=f"Deprecated: use {instead}.", hidden=True),
    )


def wording(spec: GameSpec) -> GameWording:
    """How the command line words the game (:mod:`fairysim.analysis.wording`)."""
    return wording_of(spec)


def axis_flag(axis: SetupAxis) -> str:
    """The option of a setup axis: named after its ``make_setup`` keyword."""
    return "--" + axis.name.replace("_", "-")


def axis_default(axis: SetupAxis) -> str:
    """What the axis is without its option, as help states a default."""
    return "drawn at random for every game" if axis.default is None else axis.default


def players_option(spec: GameSpec) -> Param:
    """``--players``, one count (the game's default)."""
    return option("players", int, spec.default_players, "--players", players_help(spec))


def players_help(spec: GameSpec) -> str:
    """The help of ``--players``: the game's wording with its player range."""
    return wording(spec).players.format(min=spec.min_players, max=spec.max_players)


def cards_option(spec: GameSpec) -> Param:
    """``--cards``: the game's card file (the shipped one without it)."""
    return option(
        "cards", Path | None, None, "--cards", wording(spec).cards, shown="the shipped set"
    )


def axis_options(spec: GameSpec) -> list[Param]:
    """One option per setup axis, one value each, its default stated."""
    words = wording(spec)
    return [
        option(
            axis.name,
            str | None,
            None,
            axis_flag(axis),
            words.axes.get(axis.name, axis.name),
            shown=axis_default(axis),
        )
        for axis in spec.axes
    ]


def flag_options(spec: GameSpec) -> list[Param]:
    """One on/off option per flag of the game's ``play_chunks`` (off by default)."""
    words = wording(spec)
    return [
        option(
            flag.name,
            bool,
            False,
            "--" + flag.name.replace("_", "-"),
            words.flags.get(flag.name, flag.name),
            shown="off",
        )
        for flag in spec.flags
    ]


def axis_flags(spec: GameSpec) -> dict[str, str]:
    """Each setup axis's library keywords (``make_setup``'s and a sweep's) as its option."""
    flags = {axis.name: axis_flag(axis) for axis in spec.axes}
    return flags | {axis.sweep_keyword_name: axis_flag(axis) for axis in spec.axes}


def make_command(
    body: Callable[..., None], params: Sequence[Param], doc: str
) -> Callable[..., None]:
    """A function typer turns into a command: keyword-only ``params``, calling ``body(**kw)``."""

    def command(**kwargs: Any) -> None:
        body(**kwargs)

    command.__signature__ = inspect.Signature([p.parameter() for p in params])  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: Annotated[p.annotation, p.option] for p in params}
    command.__doc__ = doc
    return command


class GameGroup(TyperGroup):
    """A group whose subcommands are made per registered game by ``build(spec_or_name)``.

    Subclasses set :attr:`build` (a spec -> typer command function, or None where the game has
    no such command) and optionally :attr:`names` (the subcommand names; by default the games).
    """

    @staticmethod
    def build(name: str) -> Callable[..., None] | None:  # pragma: no cover - overridden
        raise NotImplementedError

    @staticmethod
    def names() -> list[str]:
        return list(games())

    def list_commands(self, ctx: Any) -> list[str]:
        return [name for name in self.names() if self.build(name) is not None]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.names():
            return None
        function = self.build(cmd_name)
        if function is None:
            return None
        app = typer.Typer(add_completion=False)
        app.command(cmd_name)(function)
        return typer.main.get_command(app)


def game_group(
    help: str, build: Callable[[str], Callable[..., None] | None], names: Callable[[], list[str]]
) -> typer.Typer:
    """A typer app whose subcommands are ``build(name)`` for each of ``names()``."""

    group = type(
        "GeneratedGameGroup",
        (GameGroup,),
        {"build": staticmethod(build), "names": staticmethod(names)},
    )
    return typer.Typer(help=help, no_args_is_help=True, cls=group)


def game_names() -> list[str]:
    """The registered games."""
    return list(games())


def spec_of(name: str) -> GameSpec:
    """The registered game ``name`` (the group only asks for registered names)."""
    return games()[name]


__all__ = [
    "GameGroup",
    "Param",
    "axis_default",
    "axis_flag",
    "axis_flags",
    "axis_options",
    "cards_option",
    "deprecated",
    "flag_options",
    "game_group",
    "game_names",
    "make_command",
    "option",
    "players_help",
    "players_option",
    "spec_of",
    "wording",
]
