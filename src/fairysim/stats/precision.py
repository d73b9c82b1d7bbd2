"""Play until every win share is as precise as asked: ``--precision H``.

Stopping rule
-------------
The run looks at its data after ``first_look`` games, then each time the count doubles, and
last at ``max_games``: ``K`` looks in all, known before the first game (:class:`StoppingRule`).
Each look's intervals are at error rate ``alpha / K`` (the error rate split evenly over the
looks, a Bonferroni bound; a doubling schedule, not a confidence sequence), so the chance that
any interval of any look misses the truth is at most ``alpha``, whatever look the run stops at.
The run stops at the first look where every watched win share's interval has a half-width at
or below ``H``; that interval, wider than a plain 95 % one, is the one reported. Game ``i``
depends only on ``(seed, i)`` and games are played once, in order, so a stopped run holds
exactly the games ``0 .. n - 1`` that a fixed run of ``n`` would.

What a command reports is one family: the win shares of its rows (turn positions; a mixed
lineup's entries, pooled over its seat rotations and clustered by deal, in ``simulate``; its
seats in a sweep cell) against the fair share, Holm-corrected at the look's error rate
(:func:`corrected_shares`), so an interval and its verdict agree and the stopping rule watches
the very intervals printed. ``simulate`` and ``sweep`` (per cell) watch these; ``report``
watches its balance card's turn-order family.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

FIRST_LOOK = 1000
"""Games before the first look."""

ALPHA = 0.05
"""Error rate over all looks together (and of a fixed run's family)."""

ChunkPlayer = Callable[[int, int], Iterable[Mapping[str, np.ndarray]]]
"""``play(first_game, n_games)`` yields chunks whose ``win_share`` has shape (games, seats)."""


def check_precision(precision: float, option: str = "precision") -> float:
    """``precision`` if it is a half-width in (0, 0.5] (win-share units), else raise naming
    ``option``."""
    from fairysim.runtime.errors import ParameterError

    if not 0 < precision <= 0.5:
        raise ParameterError(option, f"must be above 0 and at most 0.5, got {precision}")
    return float(precision)


def check_counts(
    games: int | None,
    precision: float | None,
    max_games: int | None,
    *,
    required: bool = False,
    default_precision: bool = False,
) -> None:
    """``games``, ``precision`` and ``max_games`` as every run takes them (``simulate``, a
    sweep, a tournament, a comparison, a report), or one error naming the parameter: not both
    of the first two (and, ``required``, one of them), a cap only with a precision.

    Parameters
    ----------
    games : int, optional
        A fixed game count.
    precision : float, optional
        Instead of ``games``: the half-width to play to, in (0, 0.5] (win-share units).
    max_games : int, optional
        The cap on the games ``precision`` may play.
    required : bool
        Whether the run has no count of its own, so one of ``games`` and ``precision`` is
        needed.
    default_precision : bool
        Whether the run plays to a precision of its own given neither (a report's), so a cap
        alone caps that, and a cap beside ``games`` is refused as capping a fixed count.
    """
    from fairysim.runtime.errors import ParameterError

    both = ("games", "precision")
    if games is not None:
        check_interval_games(games, "games")
        if precision is not None:
            raise ParameterError(
                "precision", "give {games} or {precision}, not both", mentions=both
            )
    elif required and precision is None:
        raise ParameterError("games", "give {games} or {precision}", mentions=both)
    if precision is not None:
        check_precision(precision)
    if max_games is not None:
        if precision is None and games is not None and default_precision:
            raise ParameterError(
                "max_games", "caps {precision}; {games} plays a fixed count", mentions=both
            )
        if precision is None and not default_precision:
            raise ParameterError(
                "max_games",
                "only caps {precision}; give {precision} too",
                mentions=("precision",),
            )
        check_interval_games(max_games, "max_games")


def look_schedule(first_look: int, max_games: int) -> list[int]:
    """Game counts at which the run looks: ``first_look``, doubling, ending at ``max_games``.

    Examples
    --------
    >>> look_schedule(1000, 5000)
    [1000, 2000, 4000, 5000]
    """
    if first_look < 1 or max_games < 1:
        raise ValueError("first_look and max_games must be positive")
    looks = []
    n = min(first_look, max_games)
    while n < max_games:
        looks.append(n)
        n *= 2
    return [*looks, max_games]


@dataclass(frozen=True)
class StoppingRule:
    """The looks of a run to ``precision`` capped at ``max_games``, and the error rate of each.

    Examples
    --------
    >>> rule = StoppingRule(0.01, 5000)
    >>> rule.looks, rule.look_alpha, rule.next_look(2000), rule.next_look(5000)
    ([1000, 2000, 4000, 5000], 0.0125, 4000, None)
    """

    precision: float
    max_games: int
    first_look: int = FIRST_LOOK
    alpha: float = ALPHA

    @property
    def looks(self) -> list[int]:
        """Game counts of every look, planned before the first game."""
        return look_schedule(self.first_look, self.max_games)

    @property
    def look_alpha(self) -> float:
        """Error rate of each look's family: ``alpha`` split evenly over the looks."""
        return self.alpha / len(self.looks)

    @property
    def level(self) -> float:
        """Confidence level of each look's family, ``1 - alpha / K``."""
        return 1 - self.look_alpha

    def next_look(self, games: int) -> int | None:
        """The first look after ``games`` games, or None after the last."""
        return next((look for look in self.looks if look > games), None)

    def reached(self, half_width: float) -> bool:
        """Whether a widest half-width is at or below the precision asked."""
        return bool(half_width <= self.precision)


def corrected_shares(
    rows: pd.DataFrame, alpha: float = ALPHA, *, within: bool = True
) -> pd.DataFrame:
    """The win shares of a table's rows as one Holm-corrected family against the fair share.

    Parameters
    ----------
    rows : pandas.DataFrame
        One row per turn position (or seat, or lineup entry) of one run, with ``games`` and
        ``wins`` (the sum of win shares), and optionally ``se``, a standard error of the share
        computed elsewhere (a rotated lineup's, clustered by deal:
        :mod:`fairysim.sim.rotation`).
    alpha : float, default 0.05
        Error rate of the family: 0.05 for a fixed run, the look's share for a run played to a
        precision (:attr:`StoppingRule.look_alpha`).
    within : bool, default True
        Cut each interval to [0, 1] (:func:`within_shares`), as printed; False keeps the
        normal interval whole, as the stopping rule reads it (its half-width never changes
        with the cut).

    Returns
    -------
    pandas.DataFrame
        ``rows`` with ``win_share``, ``se``, ``fair`` (1 / rows), the columns of
        :func:`fairysim.stats.corrections.with_correction` (``low``/``high`` the corrected
        normal interval, ``significant`` its verdict against ``fair``) and ``half_width``. The
        standard error is the rows' ``se`` where given and positive, else the binomial one at
        the share smoothed as ``(wins + 1) / (games + 2)``, so a share of 0 or 1 still has a
        width (a split tie varies less than a whole
        win: the intervals are then slightly conservative).

    Examples
    --------
    >>> rows = pd.DataFrame({"games": [4000] * 4, "wins": [1100.0, 1000.0, 960.0, 940.0]})
    >>> table = corrected_shares(rows)
    >>> bool((table["half_width"] > 0.0134).all()), table["significant"].tolist()
    (True, [False, False, False, False])
    """
    from fairysim.stats.corrections import with_correction

    games = rows["games"].to_numpy(np.float64)
    wins = rows["wins"].to_numpy(np.float64)
    smoothed = (wins + 1) / (games + 2)
    se = np.sqrt(smoothed * (1 - smoothed) / games)
    if "se" in rows.columns:  # clustered (a rotated lineup's, by deal); binomial where it is 0
        given = rows["se"].to_numpy(np.float64)
        se = np.where(given > 0, given, se)
    table = rows.assign(win_share=wins / games, se=se, fair=1 / len(rows))
    table = with_correction(table, "win_share", "se", null="fair", method="holm", alpha=alpha)
    table["half_width"] = (table["high"] - table["low"]) / 2
    return within_shares(table) if within else table


def within_shares(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its share intervals ``low``/``high`` cut to [0, 1]: a share lies there, so
    the cut interval covers it whenever the whole one does (the same confidence). Only a run of
    a few games has a normal interval reaching past either end."""
    return table.assign(low=table["low"].clip(lower=0.0), high=table["high"].clip(upper=1.0))


MIN_GAMES = 2
"""The fewest games of a run whose numbers carry intervals: an interval measures the spread
between games (a standard error clustered by game divides by the games less one)."""


def check_interval_games(games: int, option: str = "games") -> int:
    """``games`` if it is a whole number of games (:func:`fairysim.sim.batch.check_games`) of at
    least :data:`MIN_GAMES`, else raise naming ``option``."""
    from fairysim.runtime.errors import ParameterError
    from fairysim.sim.batch import check_games

    games = check_games(games, option)
    if games < MIN_GAMES:
        raise ParameterError(
            option,
            f"must be at least {MIN_GAMES} games: an interval measures the spread between "
            f"games, got {games}",
        )
    return games


def corrected_intervals(
    games: np.ndarray, wins: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray]:
    """The intervals of :func:`corrected_shares` for ``run_to_precision``'s ``intervals``."""
    table = corrected_shares(
        pd.DataFrame({"games": np.broadcast_to(games, wins.shape), "wins": wins}),
        alpha,
        within=False,
    )
    return table["low"].to_numpy(), table["high"].to_numpy()


def wilson_intervals(
    games: np.ndarray, wins: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray]:
    """Each share's own Wilson interval at error rate ``alpha`` (no correction)."""
    from scipy.stats import norm

    from fairysim.stats.estimates import wilson_interval

    return wilson_interval(wins, np.broadcast_to(games, wins.shape), float(norm.isf(alpha / 2)))


Intervals = Callable[[np.ndarray, np.ndarray, float], tuple[np.ndarray, np.ndarray]]
"""``intervals(games, wins, alpha)``: each share's interval, the family at error rate alpha."""


@dataclass
class PrecisionRun:
    """What a run to precision reached.

    Attributes
    ----------
    games : int
        Games played (every figure rests on all of them).
    wins : numpy.ndarray
        Sum of win shares per seat.
    low, high : numpy.ndarray
        Each seat's Wilson interval at ``level``.
    level : float
        Confidence level of the intervals, ``1 - alpha / looks_planned``.
    reached : bool
        Whether every half-width is at or below the precision asked.
    precision : float
        The half-width asked (share of games).
    looks : list of int
        The game counts looked at.
    half_widths : list of float
        The widest half-width at each look.
    planned : list of int
        Every look planned before the first game (``level`` splits the error rate over them).
    watched, note : str
        What the stopping rule watched, and how its intervals were made, for the message
        (``"turn-position win share"``, ``", Holm-corrected over 4 rows"``).
    """

    games: int
    wins: np.ndarray
    low: np.ndarray
    high: np.ndarray
    level: float
    reached: bool
    precision: float
    looks: list[int] = field(default_factory=list)
    half_widths: list[float] = field(default_factory=list)
    planned: list[int] = field(default_factory=list)
    watched: str = "win share"
    note: str = ""
    unit: str = "games"
    """What ``games`` counts, for the message (``deals`` for a rotated lineup)."""

    @property
    def look_alpha(self) -> float:
        """Error rate of each look's family (``1 - level``)."""
        return 1 - self.level

    @property
    def win_share(self) -> np.ndarray:
        """Win share per seat."""
        return self.wins / self.games

    def message(self) -> str:
        """One line saying what was reached."""
        widest = self.half_widths[-1]
        planned = len(self.planned or self.looks)
        alpha = (1 - self.level) * planned
        if self.reached:
            return (
                f"precision reached: every {self.watched} within +/-{widest:.4f} "
                f"(asked {self.precision:.4f}; {self.level:.2%} intervals{self.note}, a "
                f"{alpha:.0%} error rate split over the {planned} looks planned) after "
                f"{self.games:,} {self.unit}"
            )
        return (
            f"--max-games {self.games:,} reached before --precision {self.precision:g}: "
            f"widest {self.watched} half-width {widest:.4f} ({self.level:.2%}{self.note})"
        )


def run_to_precision(
    play: ChunkPlayer,
    precision: float,
    max_games: int,
    *,
    first_look: int = FIRST_LOOK,
    alpha: float = ALPHA,
    value: str = "win_share",
    on_chunk: Callable[[int, Mapping[str, np.ndarray]], None] | None = None,
    intervals: Intervals = wilson_intervals,
) -> PrecisionRun:
    """Play in chunks until every win share's half-width is at most ``precision``.

    Parameters
    ----------
    play : callable
        ``play(first_game, n_games)`` yields the chunks of games ``first_game ..
        first_game + n_games - 1``, each a mapping with ``value`` of shape (games, seats).
    precision : float
        Half-width asked, in win-share units (0.01 = one percentage point), in (0, 0.5].
    max_games : int
        Cap on games played.
    first_look : int, default 1000
        Games before the first look.
    alpha : float, default 0.05
        Error rate over all looks together.
    value : str, default "win_share"
        The column read from each chunk.
    on_chunk : callable, optional
        Called with ``(first_game, chunk)`` for every chunk (e.g. to fold a summary).
    intervals : callable, default :func:`wilson_intervals`
        ``intervals(games, wins, alpha)`` the watched intervals at a look's error rate
        (:func:`corrected_intervals`: the family Holm-corrected, as ``simulate`` prints it).

    Returns
    -------
    PrecisionRun
    """
    if not 0 < precision <= 0.5:
        raise ValueError(f"precision must be in (0, 0.5], got {precision}")
    rule = StoppingRule(precision, max_games, first_look, alpha)
    games, wins = 0, None
    run = PrecisionRun(0, np.zeros(0), np.zeros(0), np.zeros(0), rule.level, False, precision)
    for look in rule.looks:
        for chunk in play(games, look - games):
            shares = np.asarray(chunk[value], dtype=np.float64)
            if on_chunk is not None:
                on_chunk(games, chunk)
            wins = shares.sum(axis=0) if wins is None else wins + shares.sum(axis=0)
            games += len(shares)
        low, high = intervals(np.asarray(games), wins, rule.look_alpha)
        half = float(np.max((high - low) / 2))
        run.looks.append(games)
        run.half_widths.append(half)
        run.games, run.wins, run.low, run.high = games, wins, low, high
        if rule.reached(half):
            run.reached = True
            break
    run.planned = rule.looks
    return run


@dataclass
class StudyPrecision:
    """What a study played to precision reached (:func:`study_to_precision`).

    Attributes
    ----------
    games : int
        Games per run of the study at its last look.
    level : float
        Confidence level of the study's watched intervals, ``1 - alpha / looks_planned``.
    reached : bool
        Whether the widest watched half-width is at or below the precision asked.
    precision : float
        The half-width asked (share of games).
    looks : list of int
        The game counts looked at.
    half_widths : list of float
        The widest watched half-width at each look.
    watched : str
        What the stopping rule watches, in words ("turn-order win share" for a report).
    planned : list of int
        The game counts of every look planned before the first game (``level`` splits the
        error rate over these).
    """

    games: int
    level: float
    reached: bool
    precision: float
    looks: list[int] = field(default_factory=list)
    half_widths: list[float] = field(default_factory=list)
    watched: str = "turn-order win share"
    planned: list[int] = field(default_factory=list)

    def message(self) -> str:
        """One line saying what was reached."""
        widest = self.half_widths[-1]
        if self.reached:
            return (
                f"precision reached: every {self.watched} within +/-{widest:.4f} "
                f"(asked {self.precision:.4f}, corrected, at {self.level:.2%} for the "
                f"{len(self.planned or self.looks)} looks planned) with {self.games:,} games "
                "per run"
            )
        return (
            f"--max-games {self.games:,} reached before --precision {self.precision:g}: "
            f"widest {self.watched} half-width {widest:.4f} (corrected, at {self.level:.2%})"
        )


def study_to_precision(
    run: Callable[[int, float], Any],
    half_width: Callable[[Any], float],
    precision: float,
    max_games: int,
    *,
    first_look: int = 1000,
    alpha: float = 0.05,
    watched: str = "turn-order win share",
) -> tuple[Any, StudyPrecision]:
    """Play a whole study at doubling game counts until its watched intervals are narrow enough.

    The same stopping rule as :func:`run_to_precision`, for a study of many runs: the looks are
    fixed before the first game (``first_look``, doubling, ``max_games``), each look plays the
    study with ``n`` games per run and its watched intervals at error rate ``alpha / K``, and
    the first look whose widest half-width is at most ``precision`` is the study reported. A
    report's or a comparison's runs are not played incrementally: each look plays games ``0 ..
    n - 1`` afresh (game ``i`` depends only on the seed and ``i``, so it holds the same games as
    a fixed run of ``n``); the looks before the last cost at most as much again as the last. A
    ``run`` may instead keep the last look's games and play only ``n_prev .. n - 1`` (a
    tournament does, :mod:`fairysim.analysis.tournament.play`): the same games, played once.

    Parameters
    ----------
    run : callable
        ``run(games, alpha)`` plays the study with ``games`` per run (afresh, or extending the
        last look's), its watched family at error rate ``alpha``; called with rising
        ``games``.
    half_width : callable
        ``half_width(study)`` the widest half-width the stopping rule watches (share of games).
    precision : float
        Half-width asked, in (0, 0.5].
    max_games : int
        Cap on games per run.
    first_look : int, default 1000
        Games per run at the first look.
    alpha : float, default 0.05
        Error rate over all looks together.
    watched : str
        What ``half_width`` measures, in words, for the message.

    Returns
    -------
    study, StudyPrecision
        The study of the last look, and what it reached.
    """
    if not 0 < precision <= 0.5:
        raise ValueError(f"precision must be in (0, 0.5], got {precision}")
    rule = StoppingRule(precision, max_games, first_look, alpha)
    reached = StudyPrecision(0, rule.level, False, precision, watched=watched, planned=rule.looks)
    study = None
    for look in rule.looks:
        study = run(look, rule.look_alpha)
        widest = float(half_width(study))
        reached.looks.append(look)
        reached.half_widths.append(widest)
        reached.games = look
        if rule.reached(widest):
            reached.reached = True
            break
    return study, reached


__all__ = [
    "ALPHA",
    "FIRST_LOOK",
    "MIN_GAMES",
    "ChunkPlayer",
    "Intervals",
    "PrecisionRun",
    "StoppingRule",
    "StudyPrecision",
    "check_counts",
    "check_interval_games",
    "check_precision",
    "corrected_intervals",
    "corrected_shares",
    "look_schedule",
    "run_to_precision",
    "study_to_precision",
    "wilson_intervals",
    "within_shares",
]
