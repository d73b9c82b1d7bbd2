"""What every game's study does before and while it plays its runs: check the player counts,
read the card file, and show one progress bar over all the runs.

Game-independent: a study passes its game's limits, card class and loader.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from fairysim.jit import ahead as compile_ahead
from fairysim.runtime.errors import CardFileError, ParameterError
from fairysim.sim.batch import Progress

Cards = TypeVar("Cards")


def check_player_counts(
    players: Sequence[int], minimum: int, maximum: int, study: str | None = None
) -> tuple[int, ...]:
    """The player counts a study plays, each once, in the order given.

    Parameters
    ----------
    players : sequence of int
        Player counts asked for.
    minimum, maximum : int
        The counts the study covers.
    study : str, optional
        The study's name, when its limits are narrower than the game's (e.g.
        ``"card-balance study"``), for the error.

    Returns
    -------
    tuple of int
        ``players`` without repeats.

    Raises
    ------
    FairysimError
        Naming ``--players`` when none is given or one is out of range.
    """
    values = tuple(dict.fromkeys(int(p) for p in players))
    if not values or any(not minimum <= p <= maximum for p in values):
        limits = (
            f"player counts must be {minimum} to {maximum}"
            if study is None
            else f"the {study} covers {minimum} to {maximum} players"
        )
        raise ParameterError("players", f"{limits}, got {list(players)}")
    return values


def load_card_set(
    cards: str | Path | Cards | None,
    card_type: type[Cards],
    load_cards: Callable[[str | Path | None], Cards],
) -> Cards:
    """The card set a study plays: ``cards`` when it is already loaded, else the file it names
    (the shipped one for None).

    Parameters
    ----------
    cards : path, card set or None
        What the user gave.
    card_type : type
        The game's card-set class.
    load_cards : callable
        The game's card-file reader.

    Returns
    -------
    The card set.

    Raises
    ------
    FairysimError
        Naming ``--cards`` when the file is missing or malformed: it is the user's option to fix.
    """
    if isinstance(cards, card_type):
        return cards
    try:
        return load_cards(cards)
    except CardFileError as error:
        raise ParameterError("cards", str(error)) from None


class ProgressTracker:
    """One progress bar over several runs: each run reports its own games done.

    Parameters
    ----------
    progress : callable or None
        ``progress(games_done, games_total)`` over the whole study.
    total : int
        Games of every run together.
    """

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress = progress
        self.total = total
        self.finished = 0

    def run(self) -> Progress | None:
        """The progress callback of the next run (None when nobody listens)."""
        if self.progress is None:
            return None
        progress = self.progress

        def report(done: int, _total: int) -> None:
            progress(self.finished + done, self.total)

        return report

    def done(self, games: int) -> None:
        """Count a finished run's games."""
        self.finished += games


__all__ = [
    "ProgressTracker",
    "best_heuristic",
    "card_and_ladder_studies",
    "check_player_counts",
    "check_players",
    "load_card_set",
    "under_best_heuristic",
]


Study = TypeVar("Study")


def card_and_ladder_studies(
    spec: Any,
    *,
    players: Sequence[int],
    seed: int,
    card_games: int,
    ladder_games: int,
    search_games: int = 0,
    policy: str = "greedy",
    cards: Any = None,
    threads: int | None = None,
    **axes: Any,
) -> tuple[Any, Any]:
    """The two studies every report adds to its own: the card effects
    (:func:`~fairysim.analysis.studies.card_effects.card_effects`, ``policy`` at every seat) and the
    skill ladder (:func:`~fairysim.analysis.studies.ladder.ladder_study`, its search rung on
    ``search_games``), on the report's player counts, seed, cards and setup ``axes``.

    Where the game declares cards measured on the whole table, the effects carry those studies
    too (:func:`~fairysim.analysis.studies.table_cards.table_card_studies`, ``card_games`` games an
    arm).

    Where ``policy`` is not the ladder's best heuristic, the card effects are played again
    under it at one player count (the game's default where the report plays it, else the
    first), and the effects' ``checks`` say where a verdict changes
    (:func:`~fairysim.analysis.studies.card_effects.verdict_changes`).
    """
    from fairysim.analysis.studies.card_effects import card_effects, verdict_changes
    from fairysim.analysis.studies.card_studies import table_cards_of
    from fairysim.analysis.studies.ladder import ladder_study

    shared = {"seed": seed, "cards": cards, "threads": threads, **axes}
    effects = card_effects(spec, players=players, games=card_games, policies=policy, **shared)
    if table_cards_of(spec):
        from fairysim.analysis.studies.table_cards import table_card_studies

        effects.table_cards = table_card_studies(
            spec, players=players, games=card_games, policies=policy, **shared
        )
    ladder = ladder_study(
        spec, players=players, games=ladder_games, search_games=search_games, **shared
    )
    best = best_heuristic(spec, policy)
    if best is not None:
        check = check_players(spec, players)
        strong = card_effects(spec, players=check, games=card_games, policies=best, **shared)
        effects.checks = verdict_changes(effects, strong)
        effects.under_best = strong
    return effects, ladder


def search_ahead(spec: Any, players: int | Sequence[int], search_games: int) -> None:
    """Where a report plays ``spec``'s search player (``search_games`` above 0), start compiling
    its searching kernel for ``players`` in the background (:mod:`fairysim.jit.ahead`): the
    search's games come last and wait for it."""
    if spec.search and search_games:
        counts = [players] if isinstance(players, int) else list(players)
        compile_ahead.start(spec.name, sorted(set(counts)))


def best_heuristic(spec: Any, policy: str) -> str | None:
    """The game's best heuristic (the top rung of ``spec.ladder``) a report checks its verdicts
    under, or None where the report already plays it (or the game declares no ladder)."""
    best = spec.ladder[-1] if spec.ladder else policy
    return None if best == policy else best


def under_best_heuristic(
    spec: Any,
    check: Callable[..., Study],
    *,
    policy: str,
    players: Sequence[int],
    games: int,
    seed: int,
    cards: Any = None,
    threads: int | None = None,
) -> Study | None:
    """A report's check of its headline verdicts under the best heuristic (a game's check
    function, :func:`fairysim.analysis.studies.heuristic_check.heuristic_check`) at
    :func:`check_players`, ``games`` per arm under each policy; None where the report already
    plays the best heuristic."""
    best = best_heuristic(spec, policy)
    if best is None:
        return None
    count = check_players(spec, players)
    return check(games, seed, count, policy, best, cards=cards, threads=threads)


def check_players(spec: Any, players: Sequence[int]) -> int:
    """The one player count a report checks its verdicts at under the best heuristic: the
    game's default where the report plays it, else the first it plays."""
    counts = list(players)
    return spec.default_players if spec.default_players in counts else counts[0]
