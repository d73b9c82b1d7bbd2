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
