"""Errors that fairysim reports to a user as one line, never as a traceback."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


class FairysimError(ValueError):
    """A user-facing error: bad option, bad file, illegal policy answer.

    ``where`` names what the user has to fix (a command-line option such as ``--fan`` or a file
    path); the message says what is wrong with it.
    """

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as it is (a Dask task's error comes back to the process that words it), not
        # rebuilt from ``args``, which hold the line and not the constructor's arguments.
        return (_rebuilt, (type(self), self.args, self.__dict__))


def _rebuilt(cls: type[FairysimError], args: tuple[Any, ...], state: dict[str, Any]) -> Any:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class ParameterError(FairysimError):
    """A bad value of a parameter: ``where`` is the Python parameter's name (``games``,
    ``max_games``, ``policies``), which a command line words as its flag.

    ``mentions`` are other parameters the message refers to, written ``{name}`` in it
    (``"give {games} or {precision}, not both"``): the error reads them as their names, and
    :meth:`worded` as a command line names them, so the library says ``games`` and the command
    line ``--games`` in one message.

    Examples
    --------
    >>> error = ParameterError("precision", "give {games} or {precision}, not both",
    ...                        mentions=("games", "precision"))
    >>> str(error)
    'precision: give games or precision, not both'
    >>> error.worded(lambda name: "--" + name.replace("_", "-"))
    '--precision: give --games or --precision, not both'
    """

    def __init__(self, where: str, message: str, *, mentions: Sequence[str] = ()) -> None:
        self.template = message
        self.mentions = tuple(mentions)
        super().__init__(where, self._fill(message, str))

    def _fill(self, message: str, name_of: Callable[[str], str]) -> str:
        for name in self.mentions:
            message = message.replace("{" + name + "}", name_of(name))
        return message

    @classmethod
    def about(cls, where: str, error: FairysimError) -> ParameterError:
        """``error`` as one about parameter ``where``: a value inside it is bad (a policy of a
        lineup, a setting of a variant), and its parameter still reads as a command line names
        it."""
        if isinstance(error, ParameterError):
            return cls(where, error.template, mentions=error.mentions)
        return cls(where, error.message)

    @classmethod
    def inside(cls, where: str, error: FairysimError) -> ParameterError:
        """``error`` prefixed by what it is about, as a value of parameter ``where``
        (``variants: policies: ...``)."""
        if isinstance(error, ParameterError):
            mentions = (error.where, *error.mentions)
            return cls(where, "{" + error.where + "}: " + error.template, mentions=mentions)
        return cls(where, f"{error.where}: {error.message}")

    def worded(self, name_of: Callable[[str], str]) -> str:
        """The error's line with every parameter it names (``where`` and ``mentions``) as
        ``name_of(parameter)`` says (a command line's flag)."""
        return f"{name_of(self.where)}: {self._fill(self.template, name_of)}"


class CardFileError(FairysimError):
    """A card data file that cannot be read or breaks the game's rules."""


POLICY_RAISED = -(2**62)
"""The answer a user policy's guard gives when the policy raised an exception
(:func:`fairysim.sim.policy.load_user_policy`): an exception cannot leave a policy that the
compiled engine calls, from any of its threads, so it comes back as this illegal answer."""

UNKNOWN_BUILTIN = POLICY_RAISED + 1
"""The answer of a game's ``call_builtin`` for an id its table of built-ins does not hold
(:mod:`fairysim.sim.dispatch`): a seat never plays another policy than the one it was given."""


class IllegalChoiceError(FairysimError):
    """A policy answered a decision with an index outside the legal choices, or raised."""

    def __init__(self, game: int, seat: int, decision: str, choice: int, n_choices: int) -> None:
        where = f"game {game}, seat {seat}, decision {decision}"
        if choice == POLICY_RAISED:
            problem = (
                "the policy raised an exception (call it on this decision in Python to see it)"
            )
        elif choice == UNKNOWN_BUILTIN:
            problem = "the seat's built-in policy id is none of this game's built-ins"
        else:
            problem = f"choice {choice} is not one of the {n_choices} legal choices"
        super().__init__("policy", f"{where}: {problem}")
        self.game = game
        self.seat = seat
        self.decision = decision
        self.choice = choice
