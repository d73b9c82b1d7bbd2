"""Scratch arrays on a jitted function's stack, for kernels and policies of every game."""

from __future__ import annotations

from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array


def stack_array(typingctx, size, dtype):
    """The typing of an uninitialised ``dtype[size]`` on the calling function's stack."""
    if not isinstance(size, types.IntegerLiteral):
        return None
    n = size.literal_value
    array_type = types.Array(dtype, 1, "C")

    def codegen(context, builder, signature, args):
        item = context.get_value_type(dtype)
        intp = context.get_value_type(types.intp)
        with builder.goto_entry_block():  # one slot per call site, not per loop iteration
            data = builder.alloca(ir.ArrayType(item, n))
        array = context.make_array(array_type)(context, builder)
        populate_array(
            array,
            data=builder.bitcast(data, item.as_pointer()),
            shape=[intp(n)],
            strides=[intp(context.get_abi_sizeof(item))],
            itemsize=intp(context.get_abi_sizeof(item)),
            meminfo=None,
        )
        return array._getvalue()

    return array_type(size), codegen


@intrinsic
def stack_int64(typingctx, size):
    """An uninitialised ``int64[size]`` on the calling function's stack (``size`` a constant).

    Policies need a few small scratch arrays per decision; ``np.empty`` would be a heap allocation
    plus atomic reference counting on every helper call, more than the rest of a greedy decision.
    The array has no owner record (numba does not count references to it) and lives until the
    function that called this returns: never return it or keep it.
    """
    return stack_array(typingctx, size, types.int64)


@intrinsic
def stack_float64(typingctx, size):
    """An uninitialised ``float64[size]`` on the calling function's stack, as
    :func:`stack_int64`."""
    return stack_array(typingctx, size, types.float64)


__all__ = ["stack_float64", "stack_int64"]
