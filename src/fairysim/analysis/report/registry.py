"""The report registry: what ``fairysim report <name>`` offers, declared by each game's analysis.

A report is declared as plain data (:class:`ReportSpec`) in a light module of its game's analysis
package (``analysis/<game>/declaration.py``), which registers it on import with
:func:`register_report`; the heavy part, the study and the sections, is named by a
``"module:attribute"`` string and imported only when the report is written. So ``fairysim report
--help`` lists the reports and states their defaults without importing an engine, pandas or numba,
and the engine package (:mod:`fairysim.sim`) knows nothing of reports: editing a report's default
or its help text touches no module the kernels are compiled from.

A game outside the package registers its reports through the ``fairysim.reports`` entry-point
group (the entry point names its declaration module; :mod:`fairysim.analysis.declarations` imports
them) or by calling :func:`register_report`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from fairysim.analysis.declarations import declaration_modules
from fairysim.runtime.errors import FairysimError

REPORT_SEED = 0
"""Seed of every run of a report unless the user gives one."""

PRECISION_CAP = 8
"""Without ``--max-games``, ``--precision`` plays at most this many times a report's game count."""


@dataclass(frozen=True)
class ReportOption:
    """An option a report takes besides ``--games``, ``--seed``, ``--out-dir``, ``--threads``
    and ``--cards``: ``kind`` is ``"games"`` (a positive game count), ``"games_or_zero"`` (the
    same, or 0 to leave the part out) or ``"policy"`` (one policy every seat plays).
    ``games_default`` (or ``default``) is the writer's own value, which ``--help`` states."""

    name: str
    option: str
    help: str
    kind: str
    default: Any = None
    games_default: int | None = None


def ladder_games_option(default: int, setup: str = "") -> ReportOption:
    """A report's ``--ladder-games``: games per mirror table of its skill-ladder section
    (:mod:`fairysim.analysis.studies.ladder`); ``setup`` says what it plays on (", the random
    court")."""
    return ReportOption(
        "ladder_games",
        "--ladder-games",
        "Games per mirror table of the skill-ladder section (each rung at every seat, every "
        f"player count{setup}); its tournament plays a tenth of it per mix and rotation",
        kind="games",
        games_default=default,
    )


def search_games_option(default: int) -> ReportOption:
    """A report's ``--search-games``: games of the skill ladder's search rung
    (:mod:`fairysim.analysis.studies.ladder`), its mirror table and each seat of its rotation
    against the best heuristic, at every player count; 0 leaves the rung out."""
    return ReportOption(
        "search_games",
        "--search-games",
        "Games of the skill ladder's search rung at every player count: its mirror table, and "
        "each seat of one searching seat among the best heuristic (0 leaves it out)",
        kind="games_or_zero",
        games_default=default,
    )


RESPONSE_DEALS = (200, 1_500, 1_500)
"""Mirrors :mod:`fairysim.analysis.strategy.rung`'s ``GAMES``, ``VALIDATION_GAMES`` and
``DOMINANCE_GAMES`` (help text without importing the analysis; a test checks they agree)."""


def response_evaluations_option(default: int) -> ReportOption:
    """A report's ``--response-evaluations``: candidates of the best-response rung's search
    (:mod:`fairysim.analysis.strategy.rung`); 0 leaves the rung out."""
    search, validation, dominance = RESPONSE_DEALS
    return ReportOption(
        "response_evaluations",
        "--response-evaluations",
        "Candidates of the best-response rung: the best heuristic's weights searched against "
        f"the game's built-ins at its default player count ({search:,} deals each, every seat "
        f"rotated), the gain checked on {validation:,} fresh deals and whether it is a "
        f"dominant strategy on {dominance:,} more (0 leaves the rung out)",
        kind="games_or_zero",
        games_default=default,
    )


def card_games_option(default: int, arms: str) -> ReportOption:
    """A report's ``--card-games``: games per arm of its card-effect section
    (:mod:`fairysim.analysis.studies.card_effects`); ``arms`` says what the arms are."""
    return ReportOption(
        "card_games",
        "--card-games",
        f"Games per arm of the card-effect section: the baseline and one arm {arms}",
        kind="games",
        games_default=default,
    )


def best_heuristic_games_option(default: int) -> ReportOption:
    """A report's ``--best-heuristic-games``: games per mix and rotation of the tournament among
    the game's heuristics that chooses its best heuristic
    (:mod:`fairysim.analysis.studies.best_heuristic`); 0 takes the declared top rung unmeasured."""
    return ReportOption(
        "best_heuristic_games",
        "--best-heuristic-games",
        "Games per mix and rotation of the tournament among the game's heuristics (every mix "
        "of them over the seats, seats rotated, at the game's default player count) that "
        "chooses the best heuristic the ladder and the checks seat (0: the game's declared top "
        "rung, unmeasured)",
        kind="games_or_zero",
        games_default=default,
    )


def heuristic_games_option(default: int, arms: str) -> ReportOption:
    """A report's ``--heuristic-games``: games per arm of the check of its headline verdicts under
    the best heuristic (:mod:`fairysim.analysis.studies.heuristic_check`); ``arms`` says what an arm
    is and what is compared."""
    return ReportOption(
        "heuristic_games",
        "--heuristic-games",
        f"Games {arms}, under --policy and again under the best heuristic (the top heuristic "
        "rung of the ladder), each at every seat, at one player count (the game's default where "
        "the report plays it)",
        kind="games",
        games_default=default,
    )


def policy_option(help: str) -> ReportOption:
    """A report's ``--policy``: the one policy its study seats (greedy unless given)."""
    return ReportOption("policy", "--policy", help, kind="policy", default="greedy")


@dataclass(frozen=True)
class ReportSpec:
    """A report of a game: ``fairysim report <name>``.

    ``writer`` names ``write(out_dir, *, threads, progress, **given)``, which returns the path
    of the HTML page; ``given`` holds only the options the user gave (``games``, ``seed``,
    ``cards`` where ``takes_cards``, and ``options``): the report owns its defaults, sized to
    its run time. ``games_help`` says what ``--games`` counts and ``games_default`` is the
    report's own count (what its writer plays, so that ``--help`` states it).
    ``precision_default`` is the half-width a report with a balance card plays to where the
    user gives neither ``--games`` nor ``--precision`` (its writer's default, sized to about a
    minute warm on two cores); ``games_default`` is then the scale of its cap. None: the
    report plays ``games_default``. ``balance_card`` says whether its study has a balance card,
    what ``--precision`` reads; ``precision_watches`` names what it reads instead in a report
    without one (the solo report's win rates); a report with neither refuses ``--precision``.
    """

    name: str
    game: str
    """The registered game the report plays (:func:`fairysim.sim.game.get_game`)."""
    help: str
    writer: str
    games_help: str
    games_default: int
    takes_cards: bool = False
    options: tuple[ReportOption, ...] = ()
    precision_default: float | None = None
    balance_card: bool = True
    precision_watches: str = ""

    @property
    def plays_to_precision(self) -> bool:
        """Whether ``--precision`` has intervals to watch (a balance card, or
        ``precision_watches``)."""
        return self.balance_card or bool(self.precision_watches)

    @property
    def precision_watched(self) -> str:
        """What ``--precision`` watches, in words."""
        return self.precision_watches or "every turn-order win share of its balance card"

    def option(self, name: str) -> ReportOption | None:
        """The report's own option called ``name`` (``card_games``), None where it has none."""
        return next((extra for extra in self.options if extra.name == name), None)

    def default(self, name: str) -> Any:
        """The writer's default of its own option ``name``: the option's game count or value.

        Raises
        ------
        KeyError
            Where the report has no such option.
        """
        extra = self.option(name)
        if extra is None:
            raise KeyError(name)
        return extra.default if extra.games_default is None else extra.games_default

    def load_writer(self) -> Any:
        """The writer function (imported on first use)."""
        module, _, attribute = self.writer.partition(":")
        return getattr(importlib.import_module(module), attribute)


REPORTS: dict[str, ReportSpec] = {}
"""The registered reports, by name, in registration order."""

_discovered = False


def register_report(spec: ReportSpec) -> ReportSpec:
    """Make ``spec`` a report of fairysim (its declaration module calls this once, at import)."""
    REPORTS[spec.name] = spec
    return spec


def _discover() -> None:
    """Import the built-in declaration modules and those of installed plugins, once."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    modules = declaration_modules()
    # In the order the modules are listed (a module imported earlier registered its reports
    # first), then any registered outside a declaration module.
    ordered: dict[str, ReportSpec] = {}
    for module in modules:
        for value in vars(importlib.import_module(module)).values():
            if isinstance(value, ReportSpec) and REPORTS.get(value.name) is value:
                ordered[value.name] = value
    rest = {name: spec for name, spec in REPORTS.items() if name not in ordered}
    REPORTS.clear()
    REPORTS.update(ordered | rest)


def reports() -> dict[str, ReportSpec]:
    """Every registered report, by name, in the order of the declaration modules
    (:func:`~fairysim.analysis.declarations.declaration_modules`: the built-in ones, then the
    plugins'), what ``fairysim report --help`` lists and ``fairysim report all`` writes."""
    _discover()
    return dict(REPORTS)


def get_report(name: str, option: str = "REPORT") -> ReportSpec:
    """The registered report called ``name``, or an error naming ``option`` and the reports."""
    known = reports()
    if name not in known:
        raise FairysimError(option, f"unknown report {name!r}; the reports are {', '.join(known)}")
    return known[name]


__all__ = [
    "PRECISION_CAP",
    "REPORTS",
    "REPORT_SEED",
    "ReportOption",
    "ReportSpec",
    "card_games_option",
    "get_report",
    "heuristic_games_option",
    "ladder_games_option",
    "policy_option",
    "register_report",
    "reports",
    "search_games_option",
]
