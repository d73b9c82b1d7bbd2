"""The policy view of every game: named slots laid out one after another in an int64 array."""

from __future__ import annotations


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


__all__ = ["view_offsets"]
