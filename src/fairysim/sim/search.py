"""``rollout``: determinized Monte Carlo search, written once for every game.

At a decision the searching seat plays, for every legal choice, ``rollouts`` continuations of the
game: the cards it cannot see redrawn from what it has not seen (a *determinization*), its choice
made, and the rest of the game played by a *play-out policy* (the game's best heuristic unless
the ``default`` weight names another built-in) at every seat. It takes the choice with the best
mean win share. Every choice is tried on the same determinizations and the same play-out random
streams (common random numbers), so the comparison between choices is paired; ties go to the
play-out policy's own choice, then to the earlier choice in the engine's order.

The search contract: a game's engine provides three jitted functions over its table type and
hands them to :func:`make_rollout_search`:

``copy_table(src, dst)``
    ``dst`` becomes a copy of ``src`` (both allocated by the engine, once per worker thread).
``redraw_hidden(t, seat, key, context)``
    Replace what ``seat`` cannot see on ``t`` by a fresh draw consistent with what it sees
    (its view), and reseed every random stream of ``t`` from ``key``.
``play_out(t, seat, choice, context)``
    Make choice ``choice`` at the decision pending on ``t``, play the game to its end with the
    play-out policies ``context`` carries, and return ``seat``'s win share (ties split).

``context`` is the game's own tuple (player count, play-out policy ids and weights, rule tables);
the search passes it through untouched. The searching seat's own random stream gives the
determinizations' keys, so a game's search is a function of (seed, game) alone, whatever the
thread count.

A seat that searches is given the play-out policy's choice first (asked as that policy would be,
with the seat's stream), so ``rollouts = 0`` or a single legal choice plays exactly as the
play-out policy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numba as nb
import numpy as np

from fairysim.runtime.errors import ParameterError
from fairysim.sim.policy import MAX_WEIGHTS, Policy, builtin, choice_weight, policy, weight
from fairysim.sim.rng import next_u64

ROLLOUTS = 0
"""Weight slot of ``rollout``: continuations played per legal choice (K)."""
DEFAULT = 1
"""Weight slot of ``rollout``: the play-out policy, as its built-in id."""
MAX_ROLLOUTS = 1024
"""Most continuations per choice a user may ask for."""
DEFAULT_ROLLOUTS = 16
"""Play-outs per choice (K) unless a game sets its own default."""

NAME = "rollout"


def make_rollout_search(copy_table: Callable, redraw_hidden: Callable, play_out: Callable):
    """The jitted ``search(t, det, work, seat, n_choices, default_choice, rollouts, rng, totals,
    context)`` of a game, from the three functions of its search contract (module docstring).

    ``t`` is the real table, left untouched; ``det`` and ``work`` are scratch tables of the same
    type; ``totals`` is a float64 scratch array of at least ``n_choices``; ``rng`` is the seat's
    policy stream. Returns the index of the chosen choice.
    """

    @nb.njit
    def search(t, det, work, seat, n_choices, default_choice, rollouts, rng, totals, context):
        if rollouts <= 0 or n_choices <= 1:
            return default_choice
        for c in range(n_choices):
            totals[c] = 0.0
        for _ in range(rollouts):
            key = next_u64(rng)
            copy_table(t, det)
            redraw_hidden(det, seat, key, context)
            for c in range(n_choices):
                copy_table(det, work)
                totals[c] += play_out(work, seat, c, context)
        best = default_choice
        best_total = totals[default_choice]
        for c in range(n_choices):
            if totals[c] > best_total:
                best = c
                best_total = totals[c]
        return best

    return search


@nb.njit(cache=True, inline="always")
def copy_1d(src, dst):
    """``dst[:] = src`` as a loop, for a game's ``copy_table``: the game loops run without
    numba's runtime, and a slice assignment asks it for a buffer in case the arrays overlap."""
    for i in range(len(src)):
        dst[i] = src[i]


@nb.njit(cache=True, inline="always")
def copy_2d(src, dst):
    """``dst[:, :] = src`` as a loop (:func:`copy_1d`)."""
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@policy
def rollout_stub(decision, view, choices, n_choices, weights, rng):
    """The function a ``rollout`` seat carries: never asked, since the engine searches for it
    (an illegal answer, reported as such, if an engine without search ever asks it)."""
    return -1


def rollout_builtin(
    registry: Mapping[str, Policy], default: str, rollouts: int = DEFAULT_ROLLOUTS
) -> Policy:
    """The ``rollout`` built-in of a game whose built-ins (so far) are ``registry``, playing out
    with ``default`` unless its ``default`` weight names another of them, ``rollouts``
    play-outs per choice unless its ``rollouts`` weight says otherwise (a game documents why
    its default is not :data:`DEFAULT_ROLLOUTS`)."""
    return builtin(
        NAME,
        rollout_stub,
        f"determinized Monte Carlo search: {rollouts} play-outs per choice by {default}",
        rollouts=weight(rollouts, 0, MAX_ROLLOUTS, integer=True),
        default=choice_weight(default, list(registry)),
    )


def playout_policy(registry: Mapping[str, Policy], rollout: Policy) -> Policy:
    """The built-in a ``rollout`` seat plays out with, at its default weights."""
    return list(registry.values())[int(rollout.weights[DEFAULT])]


def searches(policies: Sequence[Policy]) -> bool:
    """Whether a lineup seats a ``rollout`` (its run needs the searching kernel)."""
    return any(p.name == NAME and p.builtin_id >= 0 for p in policies)


def refuse_unsearched(policies: Sequence[Policy], engine: str = "the reference engine") -> None:
    """Refuse a lineup that seats ``rollout`` where ``engine`` cannot search (the reference
    engines, and so ``replay``, play a game by the rules alone).

    Raises
    ------
    FairysimError
        Naming ``--policy``.
    """
    if searches(policies):
        raise ParameterError(
            "policies",
            f"{NAME} searches the fast engine's table; {engine} cannot play it "
            "(seat its play-out policy instead)",
        )


def playout_tables(
    policies: Sequence[Policy], registry: Mapping[str, Policy], max_players: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's play-out policy as a kernel reads it: ``(ids, weights)``, int64[max_players]
    and float64[max_players, MAX_WEIGHTS], row ``s`` the built-in seat ``s``'s ``rollout``
    plays out with (zeros where seat ``s`` does not search)."""
    ids = np.zeros(max_players, np.int64)
    weights = np.zeros((max_players, MAX_WEIGHTS), np.float64)
    for seat, p in enumerate(policies):
        if p.name == NAME and p.builtin_id >= 0:
            playout = playout_policy(registry, p)
            ids[seat] = playout.builtin_id
            weights[seat, : len(playout.weights)] = playout.weights
    return ids, weights


__all__ = [
    "DEFAULT",
    "DEFAULT_ROLLOUTS",
    "NAME",
    "ROLLOUTS",
    "copy_1d",
    "copy_2d",
    "make_rollout_search",
    "playout_policy",
    "playout_tables",
    "refuse_unsearched",
    "rollout_builtin",
    "rollout_stub",
    "searches",
]
