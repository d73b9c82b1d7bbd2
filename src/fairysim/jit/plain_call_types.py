"""Type a call from a kernel to a game's jitted function by its arguments' plain types.

Numba types a constant argument as a literal (``Literal[int](-1)``, not ``int64``) and compiles
the called function once for each such type. Within one kernel that happens twice over: a call
that passes a constant (``cheapest_row(view, choices, n, -1, ...)``) gets its own compile of the
callee and all it calls, and a call whose argument is a variable first assigned a constant
(``high = 0``, raised later in the loop) is typed, and its callee compiled, with the literal
before type inference widens the variable to ``int64`` and compiles it again. On a cold cache
those copies were 9-10 s of Fairy Land's 69 s first run (its judging functions compiled two to
four times each).

:func:`install` has numba compile the jitted functions of the packages that ask for it
(:func:`type_plainly`) for the plain type of each argument (``types.unliteral``) when a kernel
calls them; the call then resolves to that compile as it does for any variable of the type. No
fairysim kernel reads a literal argument (the scratch arrays' sizes are constants of the
intrinsics, not arguments), so the games are what they were (``test_plain_call_types.py``, and
the engines' reference-equivalence and saved-run tests, compiled with it). A package asks for it
where its rates allow: Fairy Land's judging functions are called, not inlined, and its games ran
as fast typed plainly, while Fairy Concerto's engine, whose small helpers LLVM specializes for the
constants they are passed, ran 14% slower one game at a time (the performance log, "Compile time:
one compile per function"). Functions of other packages, numba's own overloads among them (some
of which need their literals), are typed as numba types them.

It is installed by :mod:`fairysim.sim` before any kernel is defined; ``FAIRYSIM_PLAIN_CALLS=0``
leaves numba as it is.
"""

from __future__ import annotations

import functools
import os
from typing import Any

ENV_SWITCH = "FAIRYSIM_PLAIN_CALLS"
"""Environment variable: ``0`` leaves numba's typing of calls unchanged."""

PACKAGES: set[str] = set()
"""Packages (``"fairysim.sim.fairyland"``) whose modules' functions are called plainly typed."""


def type_plainly(package: str) -> None:
    """Have calls to the jitted functions of ``package``'s modules typed by their arguments'
    plain types (a game package calls it with its ``__name__`` when it is imported)."""
    PACKAGES.add(package)


def _asked_for(module: str) -> bool:
    """Whether ``module`` is one of :data:`PACKAGES` or inside one."""
    return any(module == package or module.startswith(package + ".") for package in PACKAGES)


def install() -> bool:
    """Have numba compile the jitted functions of the packages in :data:`PACKAGES` for their
    arguments' plain types when a kernel calls them; say whether it is in effect.

    Idempotent. Leaves numba unchanged (and returns ``False``) when ``FAIRYSIM_PLAIN_CALLS=0``.
    """
    from numba.core import dispatcher, types

    numba_template = dispatcher.Dispatcher.get_call_template
    if getattr(numba_template, "plain_call_types", False):
        return True
    if os.environ.get(ENV_SWITCH, "1") == "0":
        return False

    @functools.wraps(numba_template)
    def get_call_template(self: Any, args: Any, kws: Any) -> Any:
        if PACKAGES and _asked_for(getattr(self.py_func, "__module__", None) or ""):
            args = tuple(types.unliteral(arg) for arg in args)
            kws = {name: types.unliteral(arg) for name, arg in kws.items()}
        return numba_template(self, args, kws)

    get_call_template.plain_call_types = True  # type: ignore[attr-defined]
    dispatcher.Dispatcher.get_call_template = get_call_template
    return True


def installed() -> bool:
    """Whether calls to the jitted functions of :data:`PACKAGES` are typed plainly in this
    process."""
    from numba.core import dispatcher

    return bool(getattr(dispatcher.Dispatcher.get_call_template, "plain_call_types", False))


__all__ = ["ENV_SWITCH", "PACKAGES", "install", "installed", "type_plainly"]
