"""The modules that declare fairysim's games and reports: the built-in ones, then those installed
packages name in an entry-point group (``fairysim.games``, ``fairysim.reports``)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from importlib.metadata import entry_points


def declaring_modules(builtin: Sequence[str], group: str) -> list[str]:
    """The modules ``builtin``, then each entry point's module of ``group``, in that order."""
    return [*builtin, *(entry.value.partition(":")[0] for entry in entry_points(group=group))]


def import_declarations(builtin: Sequence[str], group: str) -> list[str]:
    """Import :func:`declaring_modules` (each registers what it declares when imported) and
    return their names in order."""
    modules = declaring_modules(builtin, group)
    for module in modules:
        importlib.import_module(module)
    return modules


__all__ = ["declaring_modules", "import_declarations"]
