"""Copy a callee's IR once per inlining, not once per block, while numba inlines it.

Every game's kernels inline their rules and policies with ``inline="always"``, nested several
deep. Before numba splices a callee into its caller it copies the callee's IR, and it copies it
one block at a time, each block with its own deep copy of the callee's whole variable scope
(``InlineWorker.inline_ir``; numba/numba#8989, open). A callee of B blocks and V variables costs
B x V copied variables per call site, and a callee that has itself inlined others has thousands
of both: on a cold cache this copying was about two thirds of the Fantastique engine's compile.

:func:`install` gives every copy numba makes inside one ``inline_ir`` call a single memo, so the
blocks of a copied callee share one copy of its scope, as the callee's own IR shares one scope.
Numba reads no block's scope between the copy and the splice except to rename the callee's
variables into the caller's scope, and then points every spliced block at the caller's scope, so
the IR it splices, and the machine code, are the same (the games are: ``test_inline_copy.py``
and the engines' reference-equivalence and saved-run tests, compiled with it). Numba compiles
under its global compiler lock, so one ``inline_ir`` runs at a time.

It is installed by :mod:`fairysim.sim` before any kernel is defined, and only where numba's
inliner still copies through its module's ``copy.deepcopy``; ``FAIRYSIM_INLINE_COPY=0`` leaves
numba as it is.
"""

from __future__ import annotations

import copy
import functools
import os
from typing import Any

ENV_SWITCH = "FAIRYSIM_INLINE_COPY"
"""Environment variable: ``0`` leaves numba's inliner unchanged."""


class _OneMemoCopy:
    """Stands in for the ``copy`` module inside numba's inliner: every ``deepcopy`` it is asked
    for shares one memo, so objects reached from several copied blocks are copied once."""

    def __init__(self) -> None:
        self.memo: dict[int, Any] = {}

    def deepcopy(self, value: Any, memo: dict[int, Any] | None = None) -> Any:
        return copy.deepcopy(value, self.memo if memo is None else memo)


def install() -> bool:
    """Make numba's inliner copy each callee with one memo; say whether it is in effect.

    Idempotent. Leaves numba unchanged (and returns ``False``) when ``FAIRYSIM_INLINE_COPY=0``
    or when the inliner no longer copies through its module's ``copy`` (a numba that has
    changed how it copies).
    """
    from numba.core import inline_closurecall

    worker = inline_closurecall.InlineWorker
    if getattr(worker.inline_ir, "one_memo_copy", False):
        return True
    if os.environ.get(ENV_SWITCH, "1") == "0" or inline_closurecall.copy is not copy:
        return False
    numba_inline_ir = worker.inline_ir

    @functools.wraps(numba_inline_ir)
    def inline_ir(self: Any, *args: Any, **kwargs: Any) -> Any:
        module_copy = inline_closurecall.copy
        inline_closurecall.copy = _OneMemoCopy()
        try:
            return numba_inline_ir(self, *args, **kwargs)
        finally:
            inline_closurecall.copy = module_copy

    inline_ir.one_memo_copy = True  # type: ignore[attr-defined]
    worker.inline_ir = inline_ir
    return True


def installed() -> bool:
    """Whether numba's inliner copies with one memo in this process."""
    from numba.core import inline_closurecall

    return bool(getattr(inline_closurecall.InlineWorker.inline_ir, "one_memo_copy", False))


__all__ = ["ENV_SWITCH", "install", "installed"]
