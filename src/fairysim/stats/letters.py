"""Compact letter displays: a ranking that shows exactly what its corrected pairwise tests say.

Tied groups ("{A, B} > {C}") claim more than the tests give: B may not be separated from C, and
two items inside one brace may be. A compact letter display gives each item one or more letters
so that two items share a letter exactly when the correction does not separate them; every
"A > B" a reader can draw from it is a tested one.

The letters come from Piepho's insert-absorb algorithm (Piepho 2004, "An algorithm for a
letter-based representation of all-pairwise comparisons", J. Comput. Graph. Stat. 13:456-466):
start with one letter held by every item; for each separated pair, split every letter both hold
into a copy without the one and a copy without the other, then drop any letter whose items are a
subset of another's. A sweep then drops an item from a letter wherever every pair that letter
connects it to is also connected by another letter, so no letter is redundant. Letters are
named in the order of their best item's estimate, so "a" marks the leading items.
"""

from __future__ import annotations

import string
from collections.abc import Hashable, Iterable, Mapping

LETTER_NAMES = string.ascii_lowercase + string.ascii_uppercase
"""Names of the letters in order; a display needing more letters than this is refused."""


def compact_letters(
    estimates: Mapping[Hashable, float],
    separated: Iterable[tuple[Hashable, Hashable]],
    higher_is_better: bool = True,
) -> dict[Hashable, str]:
    """Each item's letters: two items share a letter exactly when they are not separated.

    Parameters
    ----------
    estimates : mapping
        Each item's estimate; it orders the items and names the letters ("a" holds the best).
    separated : iterable of pairs
        The pairs the corrected tests separate; every other pair of items counts as not
        separated.
    higher_is_better : bool, default True
        Whether the largest estimate is the best.

    Returns
    -------
    dict
        Item to its letters (``"a"``, ``"ab"``, ...), in the order of ``estimates``.

    Examples
    --------
    >>> compact_letters({"A": 3, "B": 2, "C": 1}, [("A", "C")])
    {'A': 'a', 'B': 'ab', 'C': 'b'}
    """
    order = sorted(estimates, key=lambda k: estimates[k], reverse=higher_is_better)
    rank = {item: i for i, item in enumerate(order)}
    pairs = {frozenset(p) for p in separated if p[0] in rank and p[1] in rank and p[0] != p[1]}
    columns: list[frozenset] = [frozenset(order)] if order else []
    for pair in sorted(pairs, key=lambda p: sorted(rank[k] for k in p)):
        i, j = sorted(pair, key=rank.__getitem__)
        split = []
        for column in columns:
            if i in column and j in column:
                split += [column - {i}, column - {j}]
            else:
                split.append(column)
        columns = _absorb(split)
    columns = _sweep(columns)
    columns.sort(key=lambda c: sorted(rank[k] for k in c))
    if len(columns) > len(LETTER_NAMES):
        raise ValueError(f"{len(columns)} letters needed; at most {len(LETTER_NAMES)} are named")
    return {
        item: "".join(LETTER_NAMES[n] for n, column in enumerate(columns) if item in column)
        for item in estimates
    }


def letters_agree(letters: Mapping[Hashable, str], separated: Iterable[tuple]) -> bool:
    """True when every pair of items shares a letter exactly when it is not separated."""
    pairs = {frozenset(p) for p in separated}
    items = list(letters)
    return all(
        (frozenset((a, b)) in pairs) != bool(set(letters[a]) & set(letters[b]))
        for n, a in enumerate(items)
        for b in items[n + 1 :]
    )


def _absorb(columns: list[frozenset]) -> list[frozenset]:
    """The columns without duplicates and without any column inside another."""
    unique = list(dict.fromkeys(c for c in columns if c))
    return [c for c in unique if not any(c < other for other in unique)]


def _sweep(columns: list[frozenset]) -> list[frozenset]:
    """Drop an item from a column wherever every pair that column connects it to is also
    connected by another column, then drop emptied or absorbed columns."""
    columns = list(columns)
    for n in range(len(columns)):
        for item in sorted(columns[n], key=str):
            others = columns[:n] + columns[n + 1 :]
            partners = columns[n] - {item}
            if all(any(item in o and k in o for o in others) for k in partners) and any(
                item in o for o in others
            ):
                columns[n] = columns[n] - {item}
    return _absorb(columns)


__all__ = ["LETTER_NAMES", "compact_letters", "letters_agree"]
