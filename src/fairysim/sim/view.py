"""The policy view of every game: named slots laid out one after another in an int64 array, and
read-only as a policy sees it."""

from __future__ import annotations

from numba.core import types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic


def view_offsets(fields: tuple[tuple[str, int], ...]) -> tuple[dict[str, int], int]:
    """Each field's first slot and the view's size, for ``(name, slots)`` fields in order.

    Examples
    --------
    >>> view_offsets((("round", 1), ("hand", 9), ("seat", 1)))
    ({'round': 0, 'hand': 1, 'seat': 10}, 11)
    """
    offsets: dict[str, int] = {}
    at = 0
    for name, size in fields:
        offsets[name] = at
        at += size
    return offsets, at


@intrinsic
def as_policy_sees(typingctx, array):
    """``array`` typed read-only, as a policy receives it (:data:`.policy.POLICY_SIGNATURE`): the
    same memory and the same code, no copy.

    An engine that answers for a built-in policy without calling it (a shortcut) hands the
    policy's judging functions its table's arrays; typed writable there and read-only in the
    policy, each judging function compiled twice, once per type (about 4 s of Fairy Land's
    first run). Passed through this, the engine's call reuses the policy's compile.
    """
    if not isinstance(array, types.Array):
        return None
    seen = array.copy(readonly=True)

    def codegen(context, builder, signature, args):
        return impl_ret_borrowed(context, builder, seen, args[0])

    return seen(array), codegen


__all__ = ["as_policy_sees", "view_offsets"]
