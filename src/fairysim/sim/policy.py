"""Policies: jitted decision functions, addressed by name or by ``module:function``.

One module past 600 lines because loading a user policy, checking it (parameters, return type,
weights) and guarding it for numba are one contract that every game shares; split, each part
would import the others' private checks.

Every game offers each decision to a policy the same way::

    choice = policy(decision, view, choices, n_choices, weights, rng)

``decision`` is the game's decision kind, ``view`` an int64 array with the game's named slots
(what that seat may see, nothing more), ``choices[:n_choices]`` the legal choices one per row,
``weights`` the policy's tunable float weights and ``rng`` the seat's own random stream (see
:mod:`fairysim.sim.rng`). The answer is an index into the choices.

Policies are compiled with the one explicit :data:`POLICY_SIGNATURE`, so a tuple of different
policies is a homogeneous tuple of numba first-class functions: engines take one policy per seat
without recompiling, and user policies from any module run at full speed. Built-ins compile on
first use (:class:`PolicyDispatcher`), so importing a game's policies to list them compiles
nothing.

A user policy is checked when it is loaded (:func:`load_user_policy`), so that a bad one is refused
in one line before any game is played: its module imports, it takes the six parameters, it returns
an integer for these argument types, it cannot raise, and its weights are finite numbers. Built-in
weights carry a :class:`WeightRange`; a weight outside it is refused naming the policy and weight.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import numbers
import signal
import sys
import threading
import types as pytypes
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numba as nb
import numpy as np
from numba import types
from numba.core import ir, typeinfer
from numba.core.compiler import run_frontend
from numba.core.compiler_lock import global_compiler_lock
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.core.registry import CPUDispatcher

from fairysim.runtime.errors import POLICY_RAISED, FairysimError, ParameterError

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

MAX_WEIGHT = 100.0
"""Upper end of a built-in weight that scales a term of the policy's score (points per card,
per token, per honor ...): the terms are a few points each, so at 100 one term already outweighs
the others by far."""

POLICY_PARAMETERS = ("decision", "view", "choices", "n_choices", "weights", "rng")
"""The parameters of every policy, in order."""

_RAISE_STATEMENTS = (
    ir.Raise,
    ir.StaticRaise,
    ir.DynamicRaise,
    ir.TryRaise,
    ir.StaticTryRaise,
    ir.DynamicTryRaise,
)


@dataclass(frozen=True)
class WeightRange:
    """The values one weight of a built-in policy may take: ``low`` to ``high`` inclusive, whole
    numbers only when ``integer``.

    The range is where the weight means what the policy's docstring says (a negative weight would
    turn a preference into its opposite) and keeps every score the policy computes finite.
    ``labels`` names the values of a weight that picks one of several things (``rollout``'s
    play-out policy): value ``i`` is ``labels[i]``, and a user may give the label instead.
    """

    low: float
    high: float
    integer: bool = False
    labels: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.labels:
            return "one of " + ", ".join(self.labels)
        kind = "a whole number" if self.integer else "a number"
        return f"{kind} from {self.low:g} to {self.high:g}"

    def shown(self, value: float) -> str:
        """``value`` as a user gives it: its label where the weight has labels."""
        return self.labels[int(value)] if self.labels else f"{value:g}"

    def value_of(self, given: float | str) -> float | str:
        """The number a user's ``given`` stands for: a label's index, else ``given`` itself."""
        if isinstance(given, str) and given in self.labels:
            return float(self.labels.index(given))
        return given

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int | float) or not math.isfinite(value):
            return False
        if self.integer and value != int(value):
            return False
        return self.low <= value <= self.high


def weight(default: float, low: float, high: float, integer: bool = False) -> tuple:
    """A built-in weight's default and :class:`WeightRange` (the keyword values of
    :func:`builtin`)."""
    return float(default), WeightRange(float(low), float(high), integer)


def choice_weight(default: str, labels: Sequence[str]) -> tuple:
    """A built-in weight that picks one of ``labels`` (stored as its index), default ``default``."""
    labels = tuple(labels)
    return float(labels.index(default)), WeightRange(0.0, len(labels) - 1.0, True, labels)


class PolicyDispatcher(CPUDispatcher):
    """A numba dispatcher compiled with :data:`POLICY_SIGNATURE` on first use, not when defined.

    A game's built-ins are defined when its policies module is imported, which ``fairysim
    policies`` does to list them; compiled there, listing Fairy Land's cost a minute of CPU on a
    cold cache. Here the one signature is compiled (and further compiles disabled, which makes it
    a first-class function a seat tuple can hold) the first time anything needs code: a call
    from Python, a kernel typing a call to it, or a seat tuple taking its function type. So a run
    compiles the policies it reaches, and the result is the same single overload as an eager
    ``njit(POLICY_SIGNATURE)`` (never a second one for a call site's exact array types).
    """

    def compile_policy(self) -> PolicyDispatcher:
        """Compile the policy signature unless done; returns ``self``.

        Under numba's compiler lock: the worker threads of one kernel call type its seats at
        once, and a thread that found compiling still allowed must not compile after another
        has finished and disabled it."""
        with global_compiler_lock:
            if self._can_compile:
                with typeinfer.register_dispatcher(self):
                    self.compile(POLICY_SIGNATURE)
                self.disable_compile()
        return self

    def _compile_for_args(self, *args: Any, **kws: Any) -> Any:
        # numba calls what this returns with the arguments: the dispatcher itself, compiled now,
        # matches them as any explicitly typed one does (converting a writable array to the
        # signature's read-only one); a call it cannot match comes back here and is refused.
        if self._can_compile:
            return self.compile_policy()
        return super()._compile_for_args(*args, **kws)

    def get_call_template(self, args: Any, kws: Any) -> Any:
        self.compile_policy()
        return super().get_call_template(args, kws)

    def get_function_type(self) -> Any:
        self.compile_policy()
        return super().get_function_type()


_POLICY_OPTIONS = {
    "nopython": True,
    "boundscheck": None,
    "_nrt": True,
    "error_model": "python",
    "fastmath": False,
    "forceinline": False,
}
"""numba's defaults, said explicitly: a compile started while a kernel is being typed inherits
the options a callee leaves unset from it (no reference counting under ``_nrt=False``, where a
policy's ``np.zeros`` fails to compile), and a policy must compile as it would on its own."""


def policy(func: Callable) -> PolicyDispatcher:
    """Decorator: ``func`` as a policy (``@policy def my_policy(decision, view, ...)``), compiled
    with :data:`POLICY_SIGNATURE` (and cached) on first use (:class:`PolicyDispatcher`)."""
    dispatcher = PolicyDispatcher(py_func=func, locals={}, targetoptions=dict(_POLICY_OPTIONS))
    dispatcher.enable_caching()
    return dispatcher


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
    ranges : tuple of WeightRange
        The valid range of each weight (built-ins); empty for user policies, whose weights may be
        any finite number.

    Raises
    ------
    FairysimError
        Naming ``policies`` when the weights are not finite, past :data:`MAX_WEIGHTS`, do not
        match their names, or leave their ranges.
    """

    name: str
    function: Callable
    weights: tuple[float, ...] = ()
    weight_names: tuple[str, ...] = ()
    description: str = ""
    defaults: tuple[float, ...] = field(default=(), repr=False)
    reads_view: bool = True
    builtin_id: int = -1
    ranges: tuple[WeightRange, ...] = field(default=(), repr=False)

    def __post_init__(self) -> None:
        if len(self.weights) > MAX_WEIGHTS:
            raise FairysimError("policies", f"policy {self.name}: at most {MAX_WEIGHTS} weights")
        if len(self.weight_names) != len(self.weights):
            raise FairysimError(
                "policies",
                f"policy {self.name}: {len(self.weights)} weights but "
                f"{len(self.weight_names)} weight names",
            )
        if self.ranges and len(self.ranges) != len(self.weights):
            raise FairysimError(
                "policies", f"policy {self.name}: one range per weight, or none at all"
            )
        for i, value in enumerate(self.weights):
            problem = self.weight_problem(self.weight_names[i], value)
            if problem:
                raise FairysimError("policies", problem)

    def weight_problem(self, name: str, value: object) -> str | None:
        """What is wrong with ``value`` for weight ``name``, naming the policy and the weight;
        None when the weight may take it."""
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            return f"policy {self.name}: weight {name} must be a number, got {value!r}"
        if not math.isfinite(value):
            return f"policy {self.name}: weight {name} must be finite, got {value}"
        if self.ranges:
            allowed = self.ranges[self.weight_names.index(name)]
            if float(value) not in allowed:
                return f"policy {self.name}: weight {name} must be {allowed}, got {value:g}"
        return None

    def with_weights(self, **updates: float | str) -> Policy:
        """A copy with some weights changed by name (a labelled weight also by its label).

        Raises
        ------
        FairysimError
            Naming ``--weights``, the policy and the weight: an unknown weight, a value that is
            not a finite number, or one outside the weight's :class:`WeightRange`.
        """
        weights = list(self.weights)
        for key, value in updates.items():
            if key not in self.weight_names:
                raise ParameterError(
                    "weights",
                    f"policy {self.name} has no weight {key!r}"
                    + (f" (it has {', '.join(self.weight_names)})" if self.weight_names else ""),
                )
            if self.ranges:
                value = self.ranges[self.weight_names.index(key)].value_of(value)
            problem = self.weight_problem(key, value)
            if problem:
                raise ParameterError("weights", problem)
            weights[self.weight_names.index(key)] = float(value)
        return dataclasses.replace(self, weights=tuple(weights))


def builtin(
    name: str,
    function: Callable,
    description: str,
    builtin_id: int = -1,
    reads_view: bool = True,
    **weights: tuple[float, WeightRange],
) -> Policy:
    """Declare a built-in policy with its named weights, each given as :func:`weight`
    ``(default, low, high)``.

    A game's table (:func:`fairysim.sim.dispatch.builtin_table`) gives it its dispatch id;
    ``builtin_id`` -1 leaves it to be called through its function, as a user policy is."""
    if not all(isinstance(w, tuple) and isinstance(w[1], WeightRange) for w in weights.values()):
        raise ValueError(f"policy {name}: declare each weight as weight(default, low, high)")
    values = tuple(default for default, _ in weights.values())
    return Policy(
        name,
        function,
        values,
        tuple(weights),
        description,
        defaults=values,
        reads_view=reads_view,
        builtin_id=builtin_id,
        ranges=tuple(allowed for _, allowed in weights.values()),
    )


def load_user_policy(spec: str, option: str = "policies") -> Policy:
    """Import ``module:function``, check it and return it as a :class:`Policy`.

    The function may be a plain Python function or one decorated with :func:`policy`; either way
    it is compiled here from its Python source. The module is looked up on ``sys.path`` and in the
    current directory. Optional module attribute ``<function>_weights`` (a tuple or list of at
    most :data:`MAX_WEIGHTS` finite numbers) gives its weights, named ``w0``, ``w1``, ...

    Raises
    ------
    FairysimError
        Naming ``option``, in one line: a module that fails to import (whatever it raises, exit
        included), a missing function, parameters other than :data:`POLICY_PARAMETERS`, a
        function that does not compile, returns no integer or can raise (``raise`` or
        ``assert`` in it or in a jitted function it calls), or bad weights.
    """
    module, function = _import_function(spec, option)
    return _user_policy(module, function, spec, option)


def _import_function(spec: str, option: str) -> tuple[pytypes.ModuleType, Callable]:
    """The module and the function that ``module:function`` names (errors as
    :func:`load_user_policy`)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ParameterError(option, f"{spec!r} is neither a built-in policy nor module:function")
    cwd = str(Path.cwd())
    if cwd not in sys.path:
        sys.path.insert(0, cwd)
    try:
        module = _import_hearing_stops(module_name)
    except _StopHeardError:
        raise KeyboardInterrupt from None
    except BaseException as exc:  # the user's module, whatever it raises (sys.exit included)
        raise ParameterError(
            option, f"cannot import module {module_name!r} ({_one_line(exc)})"
        ) from None
    function = getattr(module, attr, None)
    if function is None:
        raise ParameterError(option, f"module {module_name!r} has no function {attr!r}")
    return module, function


def _user_policy(module: pytypes.ModuleType, function: Callable, spec: str, option: str) -> Policy:
    """``function`` of ``module`` checked and compiled as the user policy ``spec``."""
    attr = spec.partition(":")[2]
    weights = _user_weights(getattr(module, f"{attr}_weights", ()), spec, option)
    compiled = _as_policy_function(function, spec, option)
    names = tuple(f"w{i}" for i in range(len(weights)))
    return Policy(spec, compiled, weights, names, f"user policy {spec}", weights)


class _StopHeardError(Exception):
    """Ctrl-C or SIGTERM arrived while a user's module was importing."""


def _import_hearing_stops(module_name: str) -> Any:
    """Import ``module_name``, telling a real stop (a SIGINT or SIGTERM heard meanwhile, raised
    as :class:`_StopHeardError`) from a module that raises ``KeyboardInterrupt`` itself (a bad
    module, refused like any other)."""
    heard: list[int] = []
    saved: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGINT, signal.SIGTERM):
            previous = signal.getsignal(signum)
            if callable(previous):

                def hear(number: int, frame: Any, previous: Any = previous) -> None:
                    heard.append(number)
                    previous(number, frame)

                saved[signum] = previous
                signal.signal(signum, hear)
    try:
        return importlib.import_module(module_name)
    except BaseException:
        if heard:
            raise _StopHeardError from None
        raise
    finally:
        for signum, previous in saved.items():
            signal.signal(signum, previous)


def _clipped(text: str, limit: int = 160) -> str:
    """``text`` on one line (whitespace runs made one space), cut to ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _one_line(exc: BaseException) -> str:
    """``Type: message`` of ``exc``, clipped to one line."""
    return _clipped(f"{type(exc).__name__}: {exc}")


def _user_weights(raw: object, spec: str, option: str) -> tuple[float, ...]:
    where = f"{spec.partition(':')[2]}_weights"
    if not isinstance(raw, tuple | list):
        raise ParameterError(
            option, f"{where} must be a tuple or list of numbers, got {type(raw).__name__}"
        )
    if len(raw) > MAX_WEIGHTS:
        raise ParameterError(option, f"{where} has {len(raw)} weights; at most {MAX_WEIGHTS}")
    for i, value in enumerate(raw):
        if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
            raise ParameterError(option, f"{where}[{i}] must be a number, got {value!r}")
        try:
            finite = math.isfinite(value)
        except OverflowError:  # an int past a float's range, such as 10**400
            finite = False
        if not finite:
            got = _clipped(repr(value), 40)
            raise ParameterError(option, f"{where}[{i}] must be a finite float, got {got}")
    return tuple(float(w) for w in raw)


def _as_policy_function(function: Callable, spec: str, option: str) -> Callable:
    """Compile ``function`` as a policy after checking its parameters, its return type and that
    it cannot raise.

    It is compiled first on the argument types alone, so numba infers what it returns: a float
    would otherwise be truncated to an index without a word. It is compiled with numpy's error
    model, so a division by zero gives inf (or 0 for integers) instead of raising.
    """
    py_func = getattr(function, "py_func", function)
    if not isinstance(py_func, pytypes.FunctionType):
        raise ParameterError(option, f"{spec} is not a Python function")
    _check_parameters(py_func, spec, option)
    site = _raise_site(py_func, set())
    if site:
        raise ParameterError(
            option,
            f"{spec} can raise an exception ({site}); a policy must not raise or assert, since "
            "an exception cannot leave a policy called by the compiled engine",
        )
    try:
        typed = nb.njit(POLICY_SIGNATURE.args, error_model="numpy")(py_func)
    except Exception as exc:  # any compile failure is the user's function, reported in one line
        raise ParameterError(
            option,
            f"{spec} does not compile as a policy "
            f"({', '.join(POLICY_PARAMETERS)}) -> int: {_compile_reason(exc)}",
        ) from None
    returns = typed.nopython_signatures[0].return_type
    if not isinstance(returns, types.Integer):
        raise ParameterError(
            option,
            f"{spec} returns {returns}; a policy returns the integer index of its choice",
        )
    if returns != POLICY_SIGNATURE.return_type:  # int32, literal: cast
        typed = nb.njit(POLICY_SIGNATURE, error_model="numpy")(py_func)
    return _guarded(typed)


def _guarded(typed: Callable) -> Callable:
    """``typed`` answering :data:`~fairysim.runtime.errors.POLICY_RAISED` where it raises.

    A library call inside a policy can still raise (``np.empty`` of a negative size, a typed
    dict's missing key). Raised inside the compiled engine, from a worker thread, an exception is
    lost or surfaces as an unrelated ``SystemError``; caught here, it becomes an illegal answer
    that the engine records with its game, seat and decision like any other.
    """

    @nb.njit(POLICY_SIGNATURE)
    def guarded(decision, view, choices, n_choices, weights, rng):
        try:
            return typed(decision, view, choices, n_choices, weights, rng)
        except Exception:
            return POLICY_RAISED

    return guarded


def _check_parameters(py_func: Callable, spec: str, option: str) -> None:
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    parameters = list(inspect.signature(py_func).parameters.values())
    if len(parameters) != len(POLICY_PARAMETERS) or any(
        p.kind not in positional for p in parameters
    ):
        given = ", ".join(str(p) for p in parameters)
        raise ParameterError(
            option,
            f"{spec} takes ({given}); a policy takes the {len(POLICY_PARAMETERS)} parameters "
            f"({', '.join(POLICY_PARAMETERS)})",
        )


def _compile_reason(exc: Exception) -> str:
    """The line of a numba error that says what is wrong (numba starts with the failed step)."""
    lines = [line for line in str(exc).splitlines() if line.strip()]
    reasons = [line for line in lines if not line.startswith("Failed in ")]
    return _clipped((reasons or lines or [type(exc).__name__])[0])


def _raise_site(py_func: Callable, seen: set[int]) -> str | None:
    """``file:line`` of a ``raise`` or ``assert`` in ``py_func`` or in a jitted function it calls
    (through a global, a closure variable or a module attribute); None when there is none."""
    if id(py_func) in seen:
        return None
    seen.add(id(py_func))
    try:
        func_ir = run_frontend(py_func)
    except Exception:  # not compilable at all: the compile step reports it
        return None
    statements = [s for block in func_ir.blocks.values() for s in block.body]
    for statement in statements:
        if isinstance(statement, _RAISE_STATEMENTS):
            return f"{Path(statement.loc.filename).name}:{statement.loc.line}"
    for callee in _jitted_callees(statements):
        site = _raise_site(callee.py_func, seen)
        if site:
            return f"{site}, in {callee.py_func.__name__}"
    return None


def _jitted_callees(statements: list[ir.Stmt]) -> list:
    """Jitted functions the statements refer to: a global or closure variable, or an attribute
    of a module held in one (``helpers.score``)."""
    held: dict[str, object] = {}
    found = []
    for statement in statements:
        if not isinstance(statement, ir.Assign):
            continue
        value = statement.value
        if isinstance(value, ir.Global | ir.FreeVar):
            held[statement.target.name] = value.value
            found.append(value.value)
        elif isinstance(value, ir.Expr) and value.op == "getattr":
            module = held.get(value.value.name)
            if isinstance(module, pytypes.ModuleType):
                found.append(getattr(module, value.attr, None))
    return [f for f in found if isinstance(f, nb.core.registry.CPUDispatcher)]


_RESOLVED_ONCE: ContextVar[dict[tuple[str, int], Policy] | None] = ContextVar(
    "fairysim_policies_resolved_once", default=None
)
"""The ``module:function`` policies resolved within :func:`policies_resolved_once`, by spec and
registry; None outside it."""


@contextmanager
def policies_resolved_once() -> Iterator[None]:
    """Within it, each ``module:function`` policy is checked and compiled once, however many
    setups name it (a tournament's (mix, rotation)s, a comparison's arms, a study's player
    counts); resolved per setup, a user policy compiled again for each. An analysis call opens
    its own, so a policy redefined between calls (a notebook cell run again) is compiled afresh
    by the next call; a nested one shares the outermost's."""
    if _RESOLVED_ONCE.get() is not None:
        yield
        return
    token = _RESOLVED_ONCE.set({})
    try:
        yield
    finally:
        _RESOLVED_ONCE.reset(token)


def resolve_policies(
    policies: str | Policy | Sequence[str | Policy],
    players: int,
    registry: Mapping[str, Policy],
    option: str = "policies",
) -> tuple[Policy, ...]:
    """One :class:`Policy` per seat from names, ``module:function`` specs or Policy objects.

    A single name (or a comma-separated string) is accepted; one entry is used for every seat.

    Raises
    ------
    FairysimError
        Naming ``option`` for an unknown name, a user policy that fails its checks or the wrong
        number of policies; naming ``policies`` (the Python argument) for an object that is
        neither a name nor a :class:`Policy`, or a list holding one.
    """
    if isinstance(policies, str):
        items: list[str | Policy] = [p.strip() for p in policies.split(",")]
    elif isinstance(policies, Policy):
        items = [policies]
    elif isinstance(policies, Sequence) and not isinstance(policies, bytes):
        items = list(policies)
    else:
        raise FairysimError(
            "policies",
            "must be a policy name, a Policy or a list of them (one per seat), "
            f"got {_shown_type(policies)}",
        )
    for item in items:
        if not isinstance(item, str | Policy):
            raise FairysimError(
                "policies", f"each policy must be a name or a Policy, got {_shown_type(item)}"
            )
    if len(items) == 1:
        items = items * players
    if len(items) != players:
        raise ParameterError(
            option, f"gave {len(items)} policies for {players} players; give 1 or {players}"
        )
    resolved: list[Policy] = []
    shared = _RESOLVED_ONCE.get()
    cache: dict[tuple[str, int], Policy] = {} if shared is None else shared
    for item in items:
        if isinstance(item, Policy):
            resolved.append(_checked_builtin_id(item, registry))
        elif not item:
            raise ParameterError(option, "an empty policy name")
        elif item in registry:
            resolved.append(registry[item])
        elif ":" in item:
            key = (item, id(registry))
            if key not in cache:
                module, function = _import_function(item, option)
                # A path to a built-in's own function is that built-in, so that whatever a game
                # or one of its forms allows or refuses by name it allows or refuses here too.
                named = _builtin_of(function, registry)
                cache[key] = named or _user_policy(module, function, item, option)
            resolved.append(cache[key])
        else:
            raise ParameterError(
                option,
                f"unknown policy {item!r}; built-ins are {', '.join(registry)}, "
                "or give module:function",
            )
    return tuple(resolved)


def _checked_builtin_id(item: Policy, registry: Mapping[str, Policy]) -> Policy:
    """``item``, refused where it carries a built-in id that is not this game's built-in of that
    function: the engine would dispatch the id, and play another policy than ``item``'s own.

    Raises
    ------
    FairysimError
        Naming ``policies`` (the Python argument).
    """
    if item.builtin_id < 0:
        return item
    target = getattr(item.function, "py_func", item.function)
    for builtin_policy in registry.values():
        if builtin_policy.builtin_id == item.builtin_id:
            if getattr(builtin_policy.function, "py_func", builtin_policy.function) is target:
                return item
            break
    raise FairysimError(
        "policies",
        f"policy {item.name} carries built-in id {item.builtin_id}, which is not its function "
        f"among this game's built-ins ({', '.join(registry)}); give -1 to call it as a user "
        "policy",
    )


def _builtin_of(function: object, registry: Mapping[str, Policy]) -> Policy | None:
    """The built-in of ``registry`` whose compiled function ``function`` is, or wraps; None."""
    target = getattr(function, "py_func", function)
    for builtin_policy in registry.values():
        if getattr(builtin_policy.function, "py_func", builtin_policy.function) is target:
            return builtin_policy
    return None


def _shown_type(value: object) -> str:
    """``None`` or ``an object of type dict`` (a repr could run to many lines)."""
    return "None" if value is None else f"an object of type {type(value).__name__}"


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
