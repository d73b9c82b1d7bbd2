"""Borrowed array views: the same memory, without reference counting.

Numba counts references to every array with atomic instructions. In a game loop that passes a
table of small arrays through many inlined helpers and policy calls, those atomics were about
half of the run time (measured with perf on the Fantastique engine). A *borrowed* view has no
owner record (a null meminfo), so numba's reference counting skips it. The owner must outlive the
view: kernels borrow the arrays of a table they hold in a local variable for the whole block.
"""

from __future__ import annotations

import numba as nb
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def borrowed(typingctx, array):
    """A view of ``array`` that numba does not reference-count (the caller keeps ``array``
    alive while the view is in use)."""

    def codegen(context, builder, signature, args):
        view = context.make_array(array)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen


@intrinsic
def borrowed_fields(typingctx, record):
    """``record`` (a named tuple of arrays) with every array borrowed, as :func:`borrowed`."""

    def codegen(context, builder, signature, args):
        value = args[0]
        for i, member in enumerate(record.types):
            view = context.make_array(member)(
                context, builder, value=builder.extract_value(value, i)
            )
            view.meminfo = cgutils.get_null_value(view.meminfo.type)
            view.parent = cgutils.get_null_value(view.parent.type)
            value = builder.insert_value(value, view._getvalue(), i)
        return value

    return record(record), codegen


@nb.njit(cache=True)
def keep_alive(owner):
    """A use of ``owner`` placed after the loop that works on its borrowed views.

    Numba releases a variable after its last use; without this call the owner of the borrowed
    arrays could be freed while the loop still reads them.
    """
    return owner is not None
