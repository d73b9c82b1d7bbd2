"""Which mixes a tournament plays: every one, or past :data:`MAX_MIXES` a balanced sample.

A tournament (:mod:`fairysim.analysis.tournament.play`) plays each mix N times with its seats
rotated, and the choice of mixes is the part of it with mathematics of its own: a cyclic block
design, how evenly it seats the entries and when no sample is good enough to play. It lives here,
apart from the playing and the statistics, so that it reads, and is tested, as one piece over
plain entry indices, without a game.

- **Mixes.** Every multiset of the P entries over the N seats that holds at least two distinct
  entries: ``C(P + N - 1, N) - P`` mixes (3 policies at 4 players: 12), when that is at most
  :data:`MAX_MIXES`. Beyond it, a balanced sample (:func:`balanced_mixes`, below).
- **Balanced sample.** Where every multiset would be more than :data:`MAX_MIXES` mixes (10 policies
  at 4 players, 8 at 5, 14 at 3), the tournament plays a cyclic block design instead: tables of N
  distinct entries, built the classical way from base blocks developed modulo P (Bose's difference
  method). The entries are laid on ``Z_P`` in an order drawn from the seed; a base block ``B`` (N
  points of ``Z_P``) gives the P mixes ``B + t``, ``t = 0 .. P - 1``. Within one development every
  entry sits at N of its P tables, so every entry plays equally often and, with the tournament's
  rotation, occupies every seat equally often, exactly. Two entries ``d`` apart on ``Z_P`` meet once
  for each pair of the base blocks' points ``d`` apart (either way round), so every ordered pair of
  distinct entries meets equally often exactly when the base blocks hold every difference equally
  often (a difference family). The base blocks are chosen one at a time, each the one that evens out
  the difference counts most (ties broken by the seed), then swapped for others while that evens
  them further, and the sample is the fewest base blocks at which every pair meets equally often;
  where no number of them up to the budget (``MAX_MIXES // P`` base blocks) gets there, the number
  whose meetings differ least relative to the fewest (every pair meeting at least once). How close
  it came is in :class:`MixDesign` (``pair_meetings`` min and max per deal), in the metadata and
  printed. Measured at seeds 0-2: exact for 10-14, 16, 18 and 25 policies at 4 players, 8-12 and 20
  at 5, 14-17, 20 and 22 at 3; near elsewhere (30 policies at 4 players meet 24 to 28 times per
  deal, 50 at 5 meet 15 to 20, 20 to 25 at seed 1). A base block is used once (a repeat would replay
  the same tables on the same deals). Every pair meets in some mix or the tournament is refused with
  one line (72 policies at 4 players, 53 at 3). Deterministic for the seed. A sampled mix holds N
  distinct entries: no sampled table holds two copies of one entry.
- **Rotation.** The tournament plays a mix ``(a_0 .. a_{N-1})`` N times, rotation ``r`` putting
  ``a_{(s + r) mod N}`` at seat ``s``; :func:`mix_balance` counts meetings and seats over those
  N tables.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from fairysim.runtime.errors import ParameterError

MAX_MIXES = 500
"""The most mixes a tournament plays (every mix is played N times G games): beyond it, a
balanced sample of at most this many (:func:`balanced_mixes`)."""

SAMPLE_CANDIDATES = 20_000
"""Base blocks the balanced sample chooses among (all of them where there are fewer; else this
many drawn from the seed)."""


@dataclass(frozen=True)
class MixDesign:
    """The mixes a tournament plays and how balanced they are.

    Attributes
    ----------
    mixes : tuple of tuple of int
        Each mix as sorted entry indices.
    kind : str
        ``"every mix"`` (the full enumeration) or ``"balanced sample"`` (:func:`balanced_mixes`).
    every : int
        How many mixes the full enumeration has.
    pair_meetings : tuple of int
        The fewest and most meetings (two seats at one table) of one ordered pair of distinct
        entries per deal (game index, over every (mix, rotation)): equal when every pair
        meets equally often.
    seat_games : tuple of int
        The fewest and most times per deal that one entry occupies one seat (the same for
        every seat of an entry, by the rotation): equal when every entry plays equally often.
    """

    mixes: tuple[tuple[int, ...], ...]
    kind: str
    every: int
    pair_meetings: tuple[int, int]
    seat_games: tuple[int, int]

    def describe(self) -> str:
        """One line: which mixes, and how balanced."""
        low, high = self.pair_meetings
        meets = (
            f"every ordered pair of entries meets {low} times"
            if low == high
            else f"an ordered pair of entries meets {low} to {high} times"
        )
        seats = self.seat_games
        sits = (
            f"each entry at each seat {seats[0]} times"
            if seats[0] == seats[1]
            else f"an entry at each seat {seats[0]} to {seats[1]} times"
        )
        head = (
            f"every mix ({len(self.mixes)})"
            if self.kind == "every mix"
            else f"a balanced sample of {len(self.mixes)} of the {self.every:,} mixes "
            "(cyclic block design, fairysim.analysis.tournament.play.balanced_mixes)"
        )
        return f"Mixes: {head}; per deal, {meets} and {sits}."

    def meta(self) -> dict[str, Any]:
        """What the saved metadata says of the design."""
        return {
            "kind": self.kind,
            "mixes": len(self.mixes),
            "every": self.every,
            "pair_meetings": list(self.pair_meetings),
            "seat_games": list(self.seat_games),
        }


def tournament_mixes(entries: int, players: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ``entries`` over ``players`` seats with two distinct entries or more."""
    return tuple(
        mix
        for mix in itertools.combinations_with_replacement(range(entries), players)
        if len(set(mix)) > 1
    )


def mix_balance(
    mixes: Sequence[Sequence[int]], entries: int
) -> tuple[tuple[int, int], tuple[int, int]]:
    """``(pair_meetings, seat_games)`` of :class:`MixDesign`, per deal: the rotation plays a
    mix at N tables, so entry ``i`` (``m_i`` times in the mix) occupies each seat ``m_i``
    times and meets entry ``j`` at ``N * m_i * m_j`` ordered seat pairs."""
    meet = np.zeros((entries, entries), np.int64)
    sit = np.zeros(entries, np.int64)
    for mix in mixes:
        count = np.bincount(np.asarray(mix), minlength=entries)
        meet += len(mix) * np.outer(count, count)
        sit += count
    off = meet[~np.eye(entries, dtype=bool)]
    return (int(off.min()), int(off.max())), (int(sit.min()), int(sit.max()))


def _periodic(block: tuple[int, ...], p: int) -> bool:
    """Whether a translate of ``block`` by one of its own differences is ``block`` again (a
    union of cosets): such a block develops into fewer than P distinct tables, so it is left
    out rather than replaying tables on the same deals."""
    members = set(block)
    return any(
        {(x + t) % p for x in block} == members for t in ((b - block[0]) % p for b in block[1:])
    )


def _canonical(block: Sequence[int], p: int) -> tuple[int, ...]:
    """The smallest translate of ``block`` (mod ``p``) that holds 0: one per development."""
    return min(tuple(sorted((x - b) % p for x in block)) for b in block)


@functools.lru_cache(maxsize=32)
def balanced_mixes(entries: int, players: int, seed: int = 0) -> tuple[tuple[int, ...], ...]:
    """A balanced sample of at most :data:`MAX_MIXES` mixes of ``players`` distinct entries.

    The cyclic block design of the module docstring: entries laid on ``Z_P`` in an order drawn
    from ``seed``, base blocks (N points of ``Z_P``, none a union of cosets, one per
    translation class) chosen greedily to even out how often each distance ``d`` (``1 ..
    P // 2``) occurs between two of their points, each developed into its P translates. A pair
    ``d`` apart meets once per occurrence of ``d``, twice where ``d = P / 2`` (the translates
    ``t`` and ``t + P / 2`` give the same pair). Returns the fewest base blocks at which every
    distance is covered equally; else the count that evens them out best relative to the
    least covered, with every pair meeting at least once; else ``()`` (no sample of
    :data:`MAX_MIXES` mixes seats every pair together). Sorted; deterministic for the seed.
    """
    p, n = entries, players
    if n > p:
        return ()
    rng = np.random.default_rng([seed, 0xBA1A])
    order = rng.permutation(p)
    if comb(p - 1, n - 1) <= SAMPLE_CANDIDATES:
        drawn = itertools.combinations(range(1, p), n - 1)
    else:
        drawn = (
            np.sort(rng.choice(np.arange(1, p), n - 1, replace=False))
            for _ in range(SAMPLE_CANDIDATES)
        )
    bases = sorted({_canonical((0, *map(int, rest)), p) for rest in drawn})
    bases = [block for block in bases if not _periodic(block, p)]
    classes = p // 2
    counts = np.zeros((len(bases), classes))
    for row, block in enumerate(bases):
        for a, b in itertools.combinations(block, 2):
            d = (b - a) % p
            counts[row, min(d, p - d) - 1] += 1
    if p % 2 == 0:
        counts[:, -1] *= 2
    tie = rng.random(len(bases))

    def square(c: np.ndarray) -> np.ndarray:
        return ((c - c.mean(axis=-1, keepdims=True)) ** 2).sum(axis=-1)

    chosen: list[int] = []
    covered = np.zeros(classes)
    best: tuple[float, int, list[int]] | None = None
    for k in range(1, MAX_MIXES // p + 1):
        # Add the base block that evens the distance counts most, then swap chosen ones for
        # others while that evens them further (a few passes).
        trial = covered + counts
        scores = square(trial)
        scores[chosen] = np.inf  # each base block once: a repeat would replay the same tables
        pick = int(np.lexsort((tie, trial.max(axis=1) - trial.min(axis=1), scores))[0])
        if not np.isfinite(scores[pick]):
            break
        chosen.append(pick)
        covered = trial[pick]
        for _ in range(3):
            if covered.max() == covered.min():
                break
            improved = False
            for slot, old in enumerate(chosen):
                trial = covered - counts[old] + counts
                scores = square(trial)
                scores[[c for c in chosen if c != old]] = np.inf
                swap = int(np.lexsort((tie, scores))[0])
                if scores[swap] < square(covered) - 1e-9:
                    chosen[slot], covered, improved = swap, trial[swap], True
            if not improved:
                break
        if covered.min() >= 1:
            relative = float((covered.max() - covered.min()) / covered.min())
            if best is None or relative < best[0]:
                best = (relative, k, list(chosen))
            if relative == 0:
                break
    if best is None:
        return ()
    return tuple(
        sorted(
            tuple(sorted(int(order[(x + t) % p]) for x in bases[row]))
            for row in best[2]
            for t in range(p)
        )
    )


def tournament_design(entries: int, players: int, seed: int = 0) -> MixDesign:
    """Every mix where there are at most :data:`MAX_MIXES`, else :func:`balanced_mixes`;
    refused with one line where no sample seats every pair together."""
    every = comb(entries + players - 1, players) - entries
    if every <= MAX_MIXES:
        mixes, kind = tournament_mixes(entries, players), "every mix"
    else:
        mixes, kind = balanced_mixes(entries, players, seed), "balanced sample"
        if not mixes:
            raise ParameterError(
                "policies",
                f"{entries} policies at {players} players make {every:,} mixes, and no "
                f"balanced sample of {MAX_MIXES} seats every pair together; give fewer policies",
            )
    pair_meetings, seat_games = mix_balance(mixes, entries)
    return MixDesign(mixes, kind, every, pair_meetings, seat_games)


__all__ = [
    "MAX_MIXES",
    "SAMPLE_CANDIDATES",
    "MixDesign",
    "balanced_mixes",
    "mix_balance",
    "tournament_design",
    "tournament_mixes",
]
