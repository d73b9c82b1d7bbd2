"""What every command shares: one-line errors, the progress bar, option parsing helpers.

Commands import only this module and typer at import time; the engines (numba, pandas) are
imported inside each command so that ``fairysim --help`` and ``fairysim --version`` stay instant.
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import typer
from typer.core import TyperGroup, TyperOption

try:  # typer 0.2x parses with a copy of click of its own
    from typer._click import exceptions as click_errors
except ImportError:  # older typer releases parse with click itself
    from click import exceptions as click_errors
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from fairysim.cli.tables import ResultsConsole
from fairysim.runtime.environment import raise_environment_error
from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.runtime.stages import Stage, listening
from fairysim.runtime.stops import stops_noted


def _flag_has_no_value(display_type_rich: Callable[..., str | None]) -> Callable[..., Any]:
    """Typer's help column of an option's value type, left empty for an on/off flag: a flag
    takes no value, and typer 0.2x writes ``<bool>`` after it (``--trace <bool>``) as if it
    took one."""

    @functools.wraps(display_type_rich)
    def shown(self: Any, ctx: Any) -> str | None:
        return None if getattr(self, "is_flag", False) else display_type_rich(self, ctx)

    return shown


if hasattr(TyperOption, "display_type_rich"):  # typer 0.2x; older releases print no type
    TyperOption.display_type_rich = _flag_has_no_value(TyperOption.display_type_rich)

USAGE_ERROR = 2
"""Exit code of every bad-input error, the same one click uses for its own usage errors."""

F = TypeVar("F", bound=Callable[..., Any])


POLICY_FLAG = {"policies": "--policy", "lineups": "--policy"}
"""How every command names the library's lineups (``policies``, a sweep's ``lineups``): one
option, ``--policy`` (docs/vocabulary.md)."""


def take_deprecated(
    options: dict[str, Any], old: str, new: str, old_flag: str, new_flag: str
) -> None:
    """Move the value of a deprecated option ``old`` to ``new`` in a command's ``options``,
    with a one-line notice on stderr where it was given; a list option (a sweep's lineups)
    adds its values to the new one's."""
    value = options.pop(old, None)
    if value is None or value == []:
        return
    typer.echo(
        f"Note: {old_flag} is deprecated and goes in the next release; use {new_flag}", err=True
    )
    current = options.get(new)
    options[new] = [*(current or []), *value] if isinstance(value, list) else value


def flag_of(name: str, flags: Mapping[str, str] | None = None) -> str:
    """The command-line flag of a Python parameter ``name``: ``flags[name]`` where a command
    names it otherwise (``simulate``'s ``--policy`` for ``policies``), else ``--`` and the name
    with hyphens (``max_games`` is ``--max-games``); a name that already is a flag stays.

    Examples
    --------
    >>> flag_of("max_games"), flag_of("policies", {"policies": "--policy"}), flag_of("--seed")
    ('--max-games', '--policy', '--seed')
    """
    if flags and name in flags:
        return flags[name]
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        return name
    return "--" + name.replace("_", "-")


def fail(error: FairysimError, flags: Mapping[str, str] | None = None) -> typer.Exit:
    """Print ``error`` as one line on stderr and return the exit that ends the command.

    Parameters
    ----------
    error : FairysimError
        Its text starts with ``where`` (the option or file to fix); a
        :class:`~fairysim.runtime.errors.ParameterError` names Python parameters, worded here
        as their flags (:func:`flag_of`).
    flags : mapping, optional
        The command's flags whose names are not :func:`flag_of`'s default.

    Returns
    -------
    typer.Exit
        Exit with code :data:`USAGE_ERROR`, for the caller to raise.
    """
    line = (
        error.worded(lambda name: flag_of(name, flags))
        if isinstance(error, ParameterError)
        else str(error)
    )
    # Collapse newlines so that messages quoting a compiler or parser stay one line; plain echo
    # rather than rich so that the line is never wrapped at the console width.
    message = " ".join(line.split())
    typer.echo(f"Error: {message}", err=True)
    return typer.Exit(USAGE_ERROR)


def usage_error_line(error: click_errors.ClickException) -> str:
    """One line for an error click found while parsing (a value of the wrong type, an unknown
    option or command, a missing value), with where to look for help."""
    message = " ".join(error.format_message().split())
    ctx = getattr(error, "ctx", None)
    hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
    return f"Error: {message}{hint}"


class OneLineErrorGroup(TyperGroup):
    """The ``fairysim`` group: click's own usage errors as one line on stderr with exit code 2.

    Typer draws them as a box of several lines; errors found by the commands themselves
    (:class:`FairysimError`, :func:`handle_errors`) are one line already, and a parse error
    should read the same.
    """

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """Run the command line; in standalone mode (the console script) exit with its code."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            raise_environment_error()
        except FairysimError as error:
            raise SystemExit(fail(error).exit_code) from None
        try:
            # Without standalone mode click raises its errors here instead of printing them,
            # and returns the exit code of a typer.Exit (0 when a command simply returns).
            code = super().main(*args, standalone_mode=False, **kwargs)
        except getattr(click_errors, "NoArgsIsHelpError", ()) as error:
            error.show()  # the help text itself (click 8.2 and later raise it for no_args_is_help)
            sys.exit(error.exit_code)
        except click_errors.ClickException as error:
            typer.echo(usage_error_line(error), err=True)
            sys.exit(error.exit_code)
        except typer.Abort:
            typer.echo("Aborted!", err=True)
            sys.exit(1)
        except KeyboardInterrupt:  # a stop before a command's own handling (handle_errors)
            typer.echo("Stopped: nothing written", err=True)
            sys.exit(STOPPED)
        sys.exit(code if isinstance(code, int) else 0)


STOPPED = 130
"""Exit code of a run stopped by SIGINT or SIGTERM (128 + SIGINT, as shells report Ctrl-C)."""


def handle_errors(command: F | None = None, *, flags: Mapping[str, str] | None = None) -> Any:
    """Decorator for commands: every :class:`FairysimError` becomes a one-line error, exit 2;
    SIGINT (Ctrl-C) and SIGTERM end the command with one line, exit 130.

    The library's errors name Python parameters; the line names them as the command's flags
    (:func:`fail`, ``flags`` where a command's flag is not the parameter's name with hyphens).
    A stop is noticed between chunks of games, when a kernel hands control back to Python (a user
    policy that never returns cannot be stopped this way: README, "Writing your own policy"); one
    that Python dropped is raised again there (:mod:`fairysim.runtime.stops`). What the line says is
    the command's :func:`stop_message`. Anything else is a bug in fairysim and keeps its traceback.
    """
    if command is None:
        return functools.partial(handle_errors, flags=flags)

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _stop_message.clear()
        try:
            with stops_noted():
                return command(*args, **kwargs)
        except FairysimError as error:
            raise fail(error, flags) from None
        except KeyboardInterrupt:
            message = _stop_message[-1]() if _stop_message else "nothing written"
            typer.echo(f"Stopped: {message}", err=True)
            raise typer.Exit(STOPPED) from None

    return wrapper


_stop_message: list[Callable[[], str]] = []


def stop_message(describe: Callable[[], str]) -> None:
    """Set what a stopped command says it kept (``describe()`` is called at the stop)."""
    _stop_message.append(describe)


def stdout_console() -> ResultsConsole:
    """The console for results (tables, paths), every line fitted to the terminal's width
    (:class:`~fairysim.cli.tables.ResultsConsole`); created per call so tests capture it."""
    return ResultsConsole()


class ProgressBar:
    """A ``progress(done, total)`` callback drawing a transient rich bar on stderr, which also
    says which part of the run is playing (:mod:`fairysim.runtime.stages`).

    On a terminal the bar shows the part and its count ("card effects, 4 players", 12 of 26
    arms) and is removed when the block ends, leaving just the results. Without a terminal
    (piped, in a log) each part that starts is one plain line on stderr ("fairysim: card
    effects, 4 players"), so a long run is never silent there either; the lines depend only on
    what is played, never on timing, and stdout carries the results alone.

    Parameters
    ----------
    description : str
        Text before the bar.
    unit : str
        What ``done`` counts (shown as ``done/total unit``).
    total : int, optional
        The total, if known before the first report.

    Examples
    --------
    >>> with ProgressBar("simulating") as progress:
    ...     progress(10, 100)
    """

    def __init__(self, description: str, unit: str = "games", total: int | None = None) -> None:
        console = Console(stderr=True)
        self._console = console
        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            BarColumn(bar_width=12),  # room for a study's name at 80 columns
            MofNCompleteColumn(),
            TextColumn("{task.fields[unit]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
            disable=not console.is_terminal,
        )
        # The first chunk includes the JIT compile; the spinner shows that something happens.
        self._unit = unit
        self._task = self._progress.add_task(description, total=total, unit=unit)
        self._listening: Any = None
        self._study = ""
        self.done = 0
        """The last ``done`` reported (what a stopped command says it had finished)."""

    def __call__(self, done: int, total: int) -> None:
        self.done = done
        self._progress.update(self._task, completed=done, total=total, unit=self._unit)

    def stage(self, stage: Stage) -> None:
        """Show that ``stage`` is playing: on the bar, or as a plain line on stderr where the
        part is a new one and stderr is no terminal."""
        if self._console.is_terminal:
            if stage.study != self._study:  # a new study: a bar of its own (its own count)
                self._progress.remove_task(self._task)
                self._task = self._progress.add_task(stage.study, total=stage.total, unit="")
            if stage.total is not None:
                self._progress.update(
                    self._task, completed=stage.done or 0, total=stage.total, unit=stage.unit
                )
        elif stage.study != self._study:
            counted = "" if stage.total is None else f" ({stage.total:,} {stage.unit})".rstrip()
            typer.echo(f"fairysim: {stage.study}{counted}", err=True)
        self._study = stage.study

    def __enter__(self) -> ProgressBar:
        self._progress.start()
        self._listening = listening(self.stage)
        self._listening.__enter__()
        return self

    def __exit__(self, *exc_info: object) -> None:
        try:
            self._listening.__exit__(None, None, None)  # stop listening; the error goes on
        finally:
            self._progress.stop()


def positive_int(value: int | None, option: str) -> int | None:
    """Return ``value`` (None passes) if it is a positive integer, else raise naming ``option``."""
    if value is not None and value < 1:
        raise FairysimError(option, f"must be a positive whole number, got {value}")
    return value


def check_threads(threads: int | None, option: str = "--threads") -> int | None:
    """:func:`fairysim.sim.batch.check_threads`, imported when a command runs (numba is not
    imported for ``--help``)."""
    from fairysim.sim.batch import check_threads as checked

    return checked(threads, option)
