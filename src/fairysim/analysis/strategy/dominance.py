"""Whether a response is a dominant strategy: it beats every other policy at the table by more
than a band, at every turn position.

The response sits in its arena (:mod:`.arena`): one seat among the field's policies, every seat
rotated on identical deals, on deals neither its search nor its validation played. For every
game and every other seat the response meets, it scores 1 where it ranks above that seat, 1/2
on an equal rank and 0 below (the tournament's head-to-head score). A cell is (opponent policy,
the response's turn position): its share is the mean of the per-deal means of its scores (a
deal's rotations are one observation, deals independent), its interval normal at the
Bonferroni level ``alpha / cells``, so that every cell's interval holds at once.

The verdict:

- **dominant**: every cell's interval lies above ``1/2 + band``: at every turn position the
  response ranks above each other policy more often than ``1/2 + band`` of their meetings;
- **not dominant**: some cell's interval lies below ``1/2 + band``: at that position the
  response does not beat that policy by the band;
- **undecided**: neither (some interval straddles the band's edge).

Bonferroni's simultaneous intervals make both claims hold together at ``alpha``. The band is a
stated size (:data:`BAND`), not a test of "better than 1/2": a response a shade better than the
heuristic it was searched from is not a dominant strategy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from fairysim.analysis.strategy.arena import Arena
from fairysim.sim.batch import DEFAULT_CHUNK_GAMES
from fairysim.sim.rotation import entry_at_seat, play_rotations, rotated_setups
from fairysim.stats.turn_order import ordinal, positions_of_arrays

BAND = 0.10
"""How far above 1/2 the response's head-to-head share must be at every cell to be dominant
(it ranks above each other policy in more than 60% of their meetings)."""

ALPHA = 0.05
"""Family-wise error rate of the cells' simultaneous intervals."""

VERDICTS = ("dominant", "not dominant", "undecided")


@dataclass
class Dominance:
    """The cells and the verdict.

    Attributes
    ----------
    cells : pandas.DataFrame
        One row per (opponent, turn position of the response): ``opponent``,
        ``turn_position`` (1 = first to act), ``turn`` ("1st"), ``share``, ``se``, ``low``,
        ``high`` (at ``level``), ``deals``, ``meetings``, ``above_band`` (the interval above
        ``1/2 + band``) and ``below_band`` (below it).
    verdict : str
        One of :data:`VERDICTS`.
    """

    cells: pd.DataFrame
    verdict: str
    band: float
    alpha: float
    level: float
    deals: int
    first_game: int
    weights: dict[str, float]

    @property
    def weakest(self) -> pd.Series:
        """The cell with the lowest interval's lower end (where dominance is closest to
        failing)."""
        return self.cells.loc[self.cells["low"].idxmin()]


def dominance(
    arena: Arena,
    weights: Mapping[str, float],
    first_game: int,
    deals: int,
    *,
    band: float = BAND,
    alpha: float = ALPHA,
) -> Dominance:
    """Play the response (P with ``weights``) in ``arena`` on deals ``first_game ..
    first_game + deals - 1`` and judge whether it dominates (module docstring)."""
    response = arena.policy.with_weights(**weights) if weights else arena.policy
    spec, n = arena.spec, arena.players
    labels = _labels(arena)
    sums: dict[tuple[str, int], list[np.ndarray]] = {}
    counts: dict[tuple[str, int], list[np.ndarray]] = {}
    for block, first, count in arena.blocks(first_game, deals):
        lineup = arena.lineup(response, block)
        names = ["", *(labels[id(p)] for p in lineup[1:])]
        setup = spec.make_setup(
            players=n, policies=list(lineup), seed=arena.seed, cards=arena.cards, **dict(arena.axes)
        )
        for _, rotations in play_rotations(
            spec, rotated_setups(setup), count, first_game=first,
            chunk_games=DEFAULT_CHUNK_GAMES, threads=arena.threads,
        ):  # fmt: skip
            games = len(rotations[0]["rank"])
            chunk_sum: dict[tuple[str, int], np.ndarray] = {}
            chunk_count: dict[tuple[str, int], np.ndarray] = {}
            for r, arrays in enumerate(rotations):
                entries = entry_at_seat(n, r)
                ranks = np.asarray(arrays["rank"])[:, :n]
                positions = positions_of_arrays(arrays, spec.turn_order, n)
                mine = int(np.flatnonzero(entries == 0)[0])
                for seat in range(n):
                    if seat == mine:
                        continue
                    score = np.where(
                        ranks[:, mine] < ranks[:, seat],
                        1.0,
                        np.where(ranks[:, mine] == ranks[:, seat], 0.5, 0.0),
                    )
                    for position in range(n):
                        at = positions[:, mine] == position
                        key = (names[entries[seat]], position)
                        chunk_sum.setdefault(key, np.zeros(games))
                        chunk_count.setdefault(key, np.zeros(games))
                        chunk_sum[key] += np.where(at, score, 0.0)
                        chunk_count[key] += at
            for key in chunk_sum:
                sums.setdefault(key, []).append(chunk_sum[key])
                counts.setdefault(key, []).append(chunk_count[key])
    cells = _cells(sums, counts, band, alpha)
    if cells["above_band"].all():
        verdict = "dominant"
    elif cells["below_band"].any():
        verdict = "not dominant"
    else:
        verdict = "undecided"
    return Dominance(
        cells, verdict, band, alpha, float(cells["level"].iloc[0]), deals, first_game,
        dict(weights),
    )  # fmt: skip


def _labels(arena: Arena) -> dict[int, str]:
    """Each field policy's label: its name, or where the name is P's or another field policy's
    too, the name with "(defaults)" or its weights."""
    names = [p.name for p in arena.field]

    def label(policy: Any) -> str:
        if names.count(policy.name) == 1 and policy.name != arena.policy.name:
            return policy.name
        if policy.weights == policy.defaults:
            return f"{policy.name} (defaults)"
        shown = zip(policy.weight_names, policy.weights, strict=True)
        return f"{policy.name} ({', '.join(f'{k} {v:.3g}' for k, v in shown)})"

    return {id(p): label(p) for p in arena.field}


def _cells(
    sums: dict[tuple[str, int], list[np.ndarray]],
    counts: dict[tuple[str, int], list[np.ndarray]],
    band: float,
    alpha: float,
) -> pd.DataFrame:
    """The cells' shares and simultaneous intervals, clustered by deal."""
    keys = sorted(sums, key=lambda k: (k[0], k[1]))
    level = 1 - alpha / max(len(keys), 1)
    z = float(sps.norm.ppf(1 - (1 - level) / 2))
    rows = []
    for opponent, position in keys:
        total = np.concatenate(sums[opponent, position])
        seen = np.concatenate(counts[opponent, position])
        per_deal = total[seen > 0] / seen[seen > 0]
        deals = len(per_deal)
        share = float(per_deal.mean()) if deals else float("nan")
        se = float(per_deal.std(ddof=1) / np.sqrt(deals)) if deals > 1 else float("nan")
        low, high = max(share - z * se, 0.0), min(share + z * se, 1.0)
        rows.append(
            {
                "opponent": opponent,
                "turn_position": position + 1,
                "turn": ordinal(position),
                "share": share,
                "se": se,
                "low": low,
                "high": high,
                "level": level,
                "deals": deals,
                "meetings": int(seen.sum()),
                "above_band": bool(low > 0.5 + band),
                "below_band": bool(high < 0.5 + band),
            }
        )
    return pd.DataFrame(rows)


__all__ = ["ALPHA", "BAND", "VERDICTS", "Dominance", "dominance"]
