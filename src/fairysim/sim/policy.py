"""Policies: jitted decision functions, addressed by name or by ``module:function``.

Every game offers each decision to a policy the same way::

    choice = policy(decision, view, choices, n_choices, weights, rng)

``decision`` is the game's decision kind, ``view`` an int64 array with the game's named slots
(what that seat may see, nothing more), ``choices[:n_choices]`` the legal choices one per row,
``weights`` the policy's tunable float weights and ``rng`` the seat's own random stream (see
:mod:`fairysim.sim.rng`). The answer is an index into the choices.

Policies are compiled with the one explicit :data:`POLICY_SIGNATURE`, so a tuple of different
policies is a homogeneous tuple of numba first-class functions: engines take one policy per seat
without recompiling, and user policies from any module run at full speed.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numba as nb
import numpy as np
from numba import types
from numba.core.errors import NumbaExperimentalFeatureWarning

from fairysim.errors import FairysimError

# Per-seat dispatch through first-class functions is numba's documented way to pass functions to
# a compiled kernel; numba flags the feature as experimental. We rely on it deliberately (measured
# ~2 ns a call on numba 0.68), so this one warning is silenced, nothing else.
warnings.filterwarnings(
    "ignore",
    message="First-class function type feature is experimental",
    category=NumbaExperimentalFeatureWarning,
)

# The view, the choices and the weights are read-only to a policy: a policy that writes into
# them fails to compile, so it can never play a choice that was not offered.
POLICY_SIGNATURE = types.int64(
    types.int64,  # decision kind
    types.Array(types.int64, 1, "C", readonly=True),  # view
    types.Array(types.int64, 2, "C", readonly=True),  # choices, one per row
    types.int64,  # number of legal choices
    types.Array(types.float64, 1, "C", readonly=True),  # weights
    types.uint64[::1],  # the seat's random stream
)
"""The signature every policy is compiled with, in every game."""

MAX_WEIGHTS = 8
"""Weights per policy; unused ones are 0."""


def policy(func: Callable) -> Callable:
    """Decorator: compile ``func`` as a policy (``@policy def my_policy(decision, view, ...)``)."""
    return nb.njit(POLICY_SIGNATURE, cache=True)(func)


@dataclass(frozen=True)
class Policy:
    """A policy ready to seat: its compiled function, name and weights.

    Attributes
    ----------
    name : str
        How results and reports label it (``greedy``, ``mymodule:my_policy``).
    function : numba dispatcher
        Compiled with :data:`POLICY_SIGNATURE`.
    weights : tuple of float
        Tunable weights passed on every call; changing them never recompiles.
    weight_names : tuple of str
        What each weight means (documentation and ``--weights`` parsing).
    description : str
        One line for ``fairysim policies`` and reports.
    builtin_id : int
        The game's id for a built-in (called directly, so the compiler can inline it); -1 for
        user policies, which are called through their first-class function.
    reads_view : bool
        False for policies that decide from the choices alone (greedy, random): the engine then
        skips filling the view for that seat, which is a sizeable share of a game's work.
    """

    name: str
    function: Callable
    weights: tuple[float, ...] = ()
    weight_names: tuple[str, ...] = ()
    description: str = ""
    defaults: tuple[float, ...] = field(default=(), repr=False)
    reads_view: bool = True
    builtin_id: int = -1

    def with_weights(self, **updates: float) -> Policy:
        """A copy with some weights changed by name."""
        weights = list(self.weights)
        for key, value in updates.items():
            if key not in self.weight_names:
                raise FairysimError(
                    "--weights",
                    f"policy {self.name} has no weight {key!r}"
                    + (f" (it has {', '.join(self.weight_names)})" if self.weight_names else ""),
                )
            weights[self.weight_names.index(key)] = float(value)
        return Policy(
            self.name,
            self.function,
            tuple(weights),
            self.weight_names,
            self.description,
            self.defaults,
            self.reads_view,
            self.builtin_id,
        )


def builtin(
    name: str,
    function: Callable,
    description: str,
    builtin_id: int,
    reads_view: bool = True,
    **weights: float,
) -> Policy:
    """Declare a built-in policy with its game's dispatch id and named default weights."""
    if len(weights) > MAX_WEIGHTS:
        raise ValueError(f"policy {name} declares more than {MAX_WEIGHTS} weights")
    values = tuple(float(v) for v in weights.values())
    return Policy(
        name, function, values, tuple(weights), description, values, reads_view, builtin_id
    )


def load_user_policy(spec: str, option: str = "--policy") -> Policy:
    """Import ``module:function`` and return it as a :class:`Policy`.

    The function may be a plain Python function (compiled here with :data:`POLICY_SIGNATURE`) or
    one already compiled with that signature (the :func:`policy` decorator). The module is looked
    up on ``sys.path`` and in the current directory. Optional module attribute
    ``<function>_weights`` (a sequence of floats) gives its weights.
    """
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise FairysimError(option, f"{spec!r} is neither a built-in policy nor module:function")
    cwd = str(Path.cwd())
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any import failure is the user's module, reported in one line
        raise FairysimError(
            option, f"cannot import module {module_name!r} ({type(exc).__name__}: {exc})"
        ) from None
    function = getattr(module, attr, None)
    if function is None:
        raise FairysimError(option, f"module {module_name!r} has no function {attr!r}")
    compiled = _as_policy_function(function, spec, option)
    weights = tuple(float(w) for w in getattr(module, f"{attr}_weights", ()))
    if len(weights) > MAX_WEIGHTS:
        raise FairysimError(option, f"{spec}: at most {MAX_WEIGHTS} weights")
    names = tuple(f"w{i}" for i in range(len(weights)))
    return Policy(spec, compiled, weights, names, f"user policy {spec}", weights)


def _as_policy_function(function: Callable, spec: str, option: str) -> Callable:
    if isinstance(function, nb.core.registry.CPUDispatcher):
        signatures = function.signatures
        if signatures and all(tuple(s) == POLICY_SIGNATURE.args for s in signatures):
            return function
        if signatures:
            raise FairysimError(
                option,
                f"{spec} is compiled with signature {signatures[0]}; policies need "
                f"{POLICY_SIGNATURE} (use fairysim.sim.policy.policy as decorator)",
            )
        function = function.py_func
    if not callable(function):
        raise FairysimError(option, f"{spec} is not a function")
    try:
        return nb.njit(POLICY_SIGNATURE)(function)
    except Exception as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise FairysimError(
            option,
            f"{spec} does not compile as a policy "
            f"(decision, view, choices, n_choices, weights, rng) -> int: {first_line}",
        ) from None


def resolve_policies(
    policies: str | Policy | Sequence[str | Policy],
    players: int,
    registry: Mapping[str, Policy],
    option: str = "--policy",
) -> tuple[Policy, ...]:
    """One :class:`Policy` per seat from names, ``module:function`` specs or Policy objects.

    A single name (or a comma-separated string) is accepted; one entry is used for every seat.
    """
    if isinstance(policies, str):
        items: list[str | Policy] = [p.strip() for p in policies.split(",")]
    elif isinstance(policies, Policy):
        items = [policies]
    else:
        items = list(policies)
    if len(items) == 1:
        items = items * players
    if len(items) != players:
        raise FairysimError(
            option, f"gave {len(items)} policies for {players} players; give 1 or {players}"
        )
    resolved: list[Policy] = []
    cache: dict[str, Policy] = {}
    for item in items:
        if isinstance(item, Policy):
            resolved.append(item)
        elif not isinstance(item, str) or not item:
            raise FairysimError(option, f"{item!r} is not a policy name")
        elif item in registry:
            resolved.append(registry[item])
        elif ":" in item:
            if item not in cache:
                cache[item] = load_user_policy(item, option)
            resolved.append(cache[item])
        else:
            raise FairysimError(
                option,
                f"unknown policy {item!r}; built-ins are {', '.join(registry)}, "
                "or give module:function",
            )
    return tuple(resolved)


class SeatPolicies(NamedTuple):
    """What a kernel takes to ask each seat: built-in ids, the function tuple, whether each
    seat reads the view, and the weights (all padded to the game's most seats)."""

    ids: np.ndarray
    functions: tuple
    reads_view: np.ndarray
    weights: np.ndarray


def seat_policies(policies: Sequence[Policy], max_players: int) -> SeatPolicies:
    """The :class:`SeatPolicies` of a lineup, padded to ``max_players`` seats."""
    return SeatPolicies(
        seat_policy_ids(policies, max_players),
        seat_functions(policies, max_players),
        seat_reads_view(policies, max_players),
        seat_weights(policies, max_players),
    )


def seat_functions(policies: Sequence[Policy], max_players: int) -> tuple:
    """The per-seat function tuple a kernel takes, padded to ``max_players`` so one compile serves
    every player count (padding seats are never asked)."""
    functions = [p.function for p in policies]
    functions += [functions[0]] * (max_players - len(functions))
    return tuple(functions)


def seat_policy_ids(policies: Sequence[Policy], max_players: int) -> np.ndarray:
    """int64[max_players]: each seat's built-in id, -1 where a user policy sits."""
    ids = np.full(max_players, -1, dtype=np.int64)
    for seat, p in enumerate(policies):
        ids[seat] = p.builtin_id
    return ids


def seat_reads_view(policies: Sequence[Policy], max_players: int) -> np.ndarray:
    """bool[max_players]: whether the engine must fill the view before asking seat ``s``."""
    reads = np.ones(max_players, dtype=np.bool_)
    for seat, p in enumerate(policies):
        reads[seat] = p.reads_view
    return reads


def seat_weights(policies: Sequence[Policy], max_players: int) -> np.ndarray:
    """float64[max_players, MAX_WEIGHTS]: row ``s`` holds seat ``s``'s weights."""
    weights = np.zeros((max_players, MAX_WEIGHTS), dtype=np.float64)
    for seat, p in enumerate(policies):
        weights[seat, : len(p.weights)] = p.weights
    return weights
