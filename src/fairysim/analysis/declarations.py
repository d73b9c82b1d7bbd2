"""The analysis layer's declaration modules: one per game (``analysis/<game>/declaration.py``),
each registering on import what the analysis and the command line know of its game: its reports
(:mod:`fairysim.analysis.report.registry`), its command-line wording
(:mod:`fairysim.analysis.wording`) and how its card studies measure its cards
(:mod:`fairysim.analysis.studies.card_studies`).

A declaration module is plain data and imports no engine, pandas or numba, so ``fairysim
--help`` and ``fairysim report --help`` read every game's. A game outside the package declares
through the ``fairysim.reports`` entry-point group (the entry point names its declaration module)
or by calling the register functions itself.
"""

from __future__ import annotations

from functools import cache

from fairysim.runtime.plugins import import_declarations

BUILTIN_DECLARATIONS = (
    "fairysim.analysis.fantastique.declaration",
    "fairysim.analysis.concerto.declaration",
    "fairysim.analysis.fairyland.declaration",
)
"""The declaration modules of the games that ship with fairysim; each registers its game's
reports, wording and card studies on import."""

ENTRY_POINT_GROUP = "fairysim.reports"


@cache
def declaration_modules() -> tuple[str, ...]:
    """Every declaration module, imported once (each registers what it declares), in order: the
    built-in ones, then those the plugins' entry points name."""
    return tuple(import_declarations(BUILTIN_DECLARATIONS, ENTRY_POINT_GROUP))


__all__ = ["BUILTIN_DECLARATIONS", "ENTRY_POINT_GROUP", "declaration_modules"]
