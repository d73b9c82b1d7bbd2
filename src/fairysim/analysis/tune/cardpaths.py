"""Dotted paths into a card file, and card files with some of their numbers changed.

A path names one number of the TOML card file the way a designer reads it: tables and keys
joined by dots, an array entry by its index in brackets (``grande_finale_medals.gold``,
``medals.gold[6]``, ``score_card[3].need.horn``). A key that is not a plain word is quoted
(``"fan_cards"."8"`` or, as TOML allows bare digits, ``fan_cards.8``).

Changed card files are written with tomlkit, which keeps the file's comments and layout, so a
tuned file reads like the file it came from with only its numbers changed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomlkit

PATH_PART = re.compile(r'(?:"(?P<quoted>[^"]+)"|(?P<bare>[A-Za-z0-9_-]+))(?P<index>(?:\[\d+\])*)')
"""One dot-separated part of a path: a key (bare or quoted) and any array indices after it."""


class PathError(ValueError):
    """A path that is not written as a path, or that names nothing in the card file."""


Step = str | int


def parse_path(text: str) -> tuple[Step, ...]:
    """The keys and indices of ``text``, in order (``"medals.gold[6]"`` -> ``("medals",
    "gold", 6)``)."""
    steps: list[Step] = []
    rest = text.strip()
    if not rest:
        raise PathError("is empty")
    while rest:
        match = PATH_PART.match(rest)
        if match is None:
            raise PathError("is not a dotted path (keys joined by '.', indices as [n])")
        steps.append(match.group("quoted") or match.group("bare"))
        steps.extend(int(i) for i in re.findall(r"\[(\d+)\]", match.group("index")))
        rest = rest[match.end() :]
        if rest.startswith("."):
            rest = rest[1:]
            if not rest:
                raise PathError("ends with '.'")
        elif rest:
            raise PathError(f"has {rest[0]!r} where '.' or the end was expected")
    return tuple(steps)


def _child(node: Any, step: Step, done: str) -> Any:
    if isinstance(step, int):
        if not isinstance(node, list):
            raise PathError(f"{done or 'the file'} is not an array, so [{step}] names nothing")
        if not 0 <= step < len(node):
            raise PathError(f"{done} has {len(node)} entries, so [{step}] names nothing")
        return node[step]
    if not isinstance(node, Mapping):
        raise PathError(f"{done} is not a table, so .{step} names nothing")
    if step not in node:
        keys = ", ".join(str(k) for k in node)
        raise PathError(f"{done or 'the file'} has no key {step!r} (it has {keys})")
    return node[step]


def _shown(steps: tuple[Step, ...]) -> str:
    text = ""
    for step in steps:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else str(step))
    return text


def value_at(data: Any, steps: tuple[Step, ...]) -> Any:
    """The value ``steps`` lead to in ``data`` (a parsed card file)."""
    node = data
    for k, step in enumerate(steps):
        node = _child(node, step, _shown(steps[:k]))
    return node


def is_number(value: Any) -> bool:
    """Whether ``value`` is a TOML integer or float (a boolean is neither)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def read_document(path: str | Path) -> tomlkit.TOMLDocument:
    """The card file at ``path`` as a tomlkit document (comments kept)."""
    return tomlkit.parse(Path(path).read_text(encoding="utf-8"))


def changed_text(
    document: tomlkit.TOMLDocument, changes: Mapping[tuple[Step, ...], int | float]
) -> str:
    """The card file ``document`` with each path of ``changes`` set to its number.

    The numbers are set in ``document`` itself, the text written, and the items put back (a
    search writes a file per candidate: parsing a copy each time cost more than the games)."""
    saved = []
    try:
        for steps, number in changes.items():
            parent = value_at(document, steps[:-1])
            saved.append((parent, steps[-1], parent[steps[-1]]))
            parent[steps[-1]] = number
        return tomlkit.dumps(document)
    finally:
        for parent, key, item in reversed(saved):
            parent[key] = item


__all__ = [
    "PathError",
    "changed_text",
    "is_number",
    "parse_path",
    "read_document",
    "value_at",
]
