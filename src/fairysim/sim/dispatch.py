"""How an engine asks a seat's policy, written once for every game.

A game lists its built-ins once, in :func:`builtin_table`: a built-in's place in the table is
its dispatch id, so names, ids and descriptions have one source. Its jitted ``call_builtin`` runs
the built-in of an id by an ``if`` chain that LLVM inlines (~2 ns a call; a first-class call costs
~40-60 ns of reference counting on the arrays it passes) and answers :data:`UNKNOWN_BUILTIN`, an
illegal answer the engine reports, for an id the table does not hold. :func:`seat_asker` makes
the game's ``ask_policy`` from it: built-ins by id, user policies through their function.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numba as nb
import numpy as np

from fairysim.runtime.errors import UNKNOWN_BUILTIN
from fairysim.sim.policy import Policy


def builtin_table(*policies: Policy) -> dict[str, Policy]:
    """A game's built-ins by name, each given its place in the table as its dispatch id.

    Raises
    ------
    ValueError
        Two built-ins of one name (a mistake in the game's code, not the user's).
    """
    table: dict[str, Policy] = {}
    for builtin_id, p in enumerate(policies):
        if p.name in table:
            raise ValueError(f"two built-in policies are called {p.name!r}")
        table[p.name] = dataclasses.replace(p, builtin_id=builtin_id)
    return table


def seat_asker(call_builtin: Callable, direct: int | None = None) -> Callable:
    """The game's jitted ``ask_policy(policy_ids, policies, seat, decision, view, choices,
    n_choices, weights, rng)``: seat ``seat``'s built-in through ``call_builtin`` where its id is
    0 or more (below ``direct`` where given), else its policy through the function tuple
    ``policies``.

    ``call_builtin(policy_id, decision, view, choices, n_choices, weights, rng)`` is the game's
    chain over its :func:`builtin_table` ids; it is a constant of the function made here, which
    the engines inline where they ask. ``direct`` keeps the built-ins of the later ids out of
    the chain: they are asked through their function like user policies, so the engine links
    (and compiles) only the policies a lineup seats.
    """
    limit = np.iinfo(np.int64).max if direct is None else int(direct)

    @nb.njit(inline="always")
    def ask_policy(policy_ids, policies, seat, decision, view, choices, n_choices, weights, rng):
        policy_id = policy_ids[seat]
        if 0 <= policy_id < limit:
            return call_builtin(policy_id, decision, view, choices, n_choices, weights, rng)
        return policies[seat](decision, view, choices, n_choices, weights, rng)

    return ask_policy


__all__ = ["UNKNOWN_BUILTIN", "builtin_table", "seat_asker"]
