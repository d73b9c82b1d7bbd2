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
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from fairysim.sim.game import GameSpec, games


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


def option(name: str, annotation: Any, default: Any, flag: str, help: str, **kw: Any) -> Param:
    """A :class:`Param` for ``--flag`` with ``help``."""
    return Param(name, annotation, default, typer.Option(flag, help=help, **kw))


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


__all__ = ["GameGroup", "Param", "game_group", "game_names", "make_command", "option", "spec_of"]
