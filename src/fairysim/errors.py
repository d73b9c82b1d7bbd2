"""Errors that fairysim reports to a user as one line, never as a traceback."""

from __future__ import annotations


class FairysimError(ValueError):
    """A user-facing error: bad option, bad file, illegal policy answer.

    ``where`` names what the user has to fix (a command-line option such as ``--fan`` or a file
    path); the message says what is wrong with it.
    """

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


class CardFileError(FairysimError):
    """A card data file that cannot be read or breaks the game's rules."""


class IllegalChoiceError(FairysimError):
    """A policy answered a decision with an index outside the legal choices."""

    def __init__(self, game: int, seat: int, decision: str, choice: int, n_choices: int) -> None:
        super().__init__(
            "policy",
            f"game {game}, seat {seat}, decision {decision}: choice {choice} is not one of the "
            f"{n_choices} legal choices",
        )
        self.game = game
        self.seat = seat
        self.decision = decision
        self.choice = choice
