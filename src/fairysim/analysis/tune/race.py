"""Candidates sized by the precision they need, raced so that hopeless ones stop early.

A search candidate plays its games in looks (:class:`Looks`): ``--search-games`` games a table
first (games ``0 .. G-1`` of the seed, the same games for every candidate), then doubling, last
at ``--max-search-games``, the schedule of :func:`fairysim.stats.precision.look_schedule`. At
every look each part of each reading gets a normal interval at error rate ``alpha / (K m)``
(``K`` looks, ``m`` the candidate's parts: Bonferroni over its looks and parts, as
:mod:`fairysim.stats.precision` splits its error rate over its looks), so the chance that any
interval of a candidate at any look misses its truth is at most ``alpha``. From them
(:func:`bracket`):

- each target is *decided* where its interval lies inside the band (met) or clear of it
  (missed);
- the candidate's distance to the targets is bracketed: *optimistic*, each measure at the point
  of its interval nearest the band, and *pessimistic*, at the farthest.

A candidate stops at the first look where its optimistic distance exceeds the smallest
pessimistic distance of any candidate so far (``hopeless``: it cannot come nearer the targets
than that one), where every target is decided (``decided``), at the cap (``cap``), or where
the games budget cannot pay the next look (``budget``). The candidates of one race (every single
change together, then each batch NSGA-II asks) play look by look, the survivors doubling their
games: successive halving. Every decision depends on the games played alone, and game ``i`` of a
seed on ``(seed, i)`` alone, so the same seed gives the same race whoever plays the blocks
(``--workers``). These intervals only choose which candidates are pursued; the verdict is the
final replay on fresh games (:func:`fairysim.analysis.tune.evaluate.corrected`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.stats import norm

from fairysim.analysis.tune.evaluate import Judged, changes, distance, point_rows, search_interval
from fairysim.analysis.tune.targets import Target, TuneTargets
from fairysim.stats.precision import ALPHA, look_schedule

Block = tuple[tuple[int, ...], int, int]
"""A candidate's block of games: its choice, the first game and how many games a table."""

PlayBlocks = Callable[[list[Block]], list[Judged]]
"""Plays a list of blocks (in parallel where it can) and returns their readings, in order."""


@dataclass(frozen=True)
class Looks:
    """The game counts a search candidate is looked at, a table: ``first``, doubling, ``cap``."""

    first: int
    cap: int
    alpha: float = ALPHA

    @property
    def counts(self) -> list[int]:
        """Every look's game count, planned before the first game."""
        return look_schedule(self.first, self.cap)

    def z(self, parts: int) -> float:
        """Standard errors of each interval of a candidate of ``parts`` means at any look."""
        return float(norm.isf(self.alpha / (2 * len(self.counts) * max(parts, 1))))


@dataclass(frozen=True)
class Evaluation:
    """What the search keeps of a candidate: its point distance to the targets, its changes,
    the rows it read (at its last look's intervals), the games it played (every table), the
    card checks' message where refused, its distance bracket and why it stopped."""

    distance: float
    changes: int
    rows: list[dict[str, Any]]
    games: int
    refused: str = ""
    optimistic: float = 0.0
    pessimistic: float = math.inf
    stop: str = ""


def reach(target: Target, low: float, high: float) -> tuple[float, float, bool]:
    """The nearest and farthest distance to ``target``'s band of a measure in ``[low, high]``,
    and whether the interval decides the target (inside the band, or clear of it)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return 0.0, math.inf, False
    far = max(target.distance(low), target.distance(high))
    clear = (target.low is not None and high < target.low) or (
        target.high is not None and low > target.high
    )
    near = min(target.distance(low), target.distance(high)) if clear else 0.0
    return near, far, clear or target.met(low, high)


@dataclass(frozen=True)
class Bracket:
    """A candidate at a look: its distance bracket and whether every target is decided."""

    optimistic: float
    pessimistic: float
    decided: bool
    z: float


def bracket(targets: TuneTargets, judged: Judged, looks: Looks) -> Bracket:
    """``judged``'s bracket at its look (:func:`reach` of every reading)."""
    if judged.refused:
        return Bracket(math.inf, math.inf, True, math.nan)
    z = looks.z(judged.parts)
    near = far = 0.0
    decided = True
    for (_, name), reading in judged.readings.items():
        target = next(t for t in targets.targets if t.measure == name)
        low, high = search_interval(reading, z)
        a, b, settled = reach(target, low, high)
        near, far, decided = near + a, far + b, decided and settled
    return Bracket(near, far, decided, z)


def _evaluation(
    targets: TuneTargets, judged: Judged, looks: Looks, games: int, stop: str
) -> Evaluation:
    """What the search keeps of a candidate that stopped after ``games`` games in all."""
    if judged.refused:
        return Evaluation(math.inf, changes(judged.choice), [], 0, judged.refused, stop="refused")
    seen = bracket(targets, judged, looks)
    rows = point_rows(targets, judged, seen.z)
    level = 1 - 2 * float(norm.sf(seen.z))
    for row in rows:
        row["level"] = level
    return Evaluation(
        distance(targets, judged),
        changes(judged.choice),
        rows,
        games,
        optimistic=seen.optimistic,
        pessimistic=seen.pessimistic,
        stop=stop,
    )


def race(
    choices: Sequence[tuple[int, ...]],
    play: PlayBlocks,
    targets: TuneTargets,
    looks: Looks,
    *,
    runs: int,
    best: float = math.inf,
    games_left: int | None = None,
) -> dict[tuple[int, ...], Evaluation]:
    """Play ``choices`` look by look until each stops (see the module's text).

    ``runs`` is the runs a candidate plays a table; ``best`` the smallest pessimistic distance
    of the candidates before this race; ``games_left`` the games the budget still pays (the
    first look of every choice must fit in it)."""
    judged: dict[tuple[int, ...], Judged] = {}
    out: dict[tuple[int, ...], Evaluation] = {}
    active = list(dict.fromkeys(tuple(c) for c in choices))
    spent, done = 0, 0
    for count in looks.counts:
        if not active:
            break
        cost = (count - done) * runs * len(active)
        if done and games_left is not None and spent + cost > games_left:
            for choice in active:
                out[choice] = _evaluation(targets, judged[choice], looks, done * runs, "budget")
            return out
        blocks = play([(choice, done, count - done) for choice in active])
        spent += cost
        for choice, block in zip(active, blocks, strict=True):
            judged[choice] = judged[choice].merged(block) if choice in judged else block
        seen = {c: bracket(targets, judged[c], looks) for c in active}
        best = min([best, *(b.pessimistic for b in seen.values())])
        survivors = []
        for choice in active:
            mark = seen[choice]
            stop = (
                "refused"
                if judged[choice].refused
                else "hopeless"
                if mark.optimistic > best
                else "decided"
                if mark.decided
                else "cap"
                if count == looks.cap
                else ""
            )
            if stop:
                out[choice] = _evaluation(targets, judged[choice], looks, count * runs, stop)
            else:
                survivors.append(choice)
        active, done = survivors, count
    return out


def smallest_pessimistic(evaluations: Sequence[Evaluation]) -> float:
    """The smallest pessimistic distance among ``evaluations`` (infinite for none)."""
    return float(np.min([e.pessimistic for e in evaluations], initial=math.inf))


__all__ = [
    "Block",
    "Bracket",
    "Evaluation",
    "Looks",
    "PlayBlocks",
    "bracket",
    "race",
    "reach",
    "smallest_pessimistic",
]
