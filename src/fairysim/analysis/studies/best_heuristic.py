"""Which of a game's heuristics is its best heuristic, chosen by a measured tournament.

A report's skill ladder, its checks under strong play and its card-effect checks all seat "the
best heuristic". Which policy that is is measured here, not declared: every built-in heuristic
the game plays at the report's player count (its policies but ``random`` and the search player)
meets every other in one rotated-seat tournament (:func:`fairysim.analysis.tournament.play.
play_tournament`: every mix of them over the seats, every rotation of each mix, on the same
deals). The candidates are ranked by their Bradley-Terry ratings, and the top two are compared
head to head: the share of their meetings at one table that the top one finishes above the
runner-up, with its standard error clustered by deal, tested against 1/2 in one Holm family
over every pair of candidates (:func:`fairysim.stats.corrections.with_correction`). Where that
interval excludes 1/2 the top two are separated and the top one is the best heuristic; where it
does not they are not separated and the rule is stated: the higher rating is taken.

:func:`with_best_heuristic` gives the game's spec with that policy as its ladder's top rung, so
every study that seats the best heuristic seats the measured one.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from fairysim.analysis.tournament.play import pair_results, play_tournament, ratings
from fairysim.runtime.errors import FairysimError
from fairysim.sim.game import GameSpec
from fairysim.sim.search import playout_policy
from fairysim.stats.corrections import with_correction

TOURNAMENT_GAMES = 1_000
"""Games per (mix, rotation) of the best-heuristic tournament unless a report says otherwise."""

EXCLUDED = ("random",)
"""Built-ins that are no heuristic a ladder's top rung could be (besides the search player)."""

NOT_SEPARATED_RULE = "the higher Bradley-Terry rating"
"""How the best heuristic is picked where the top two are not separated."""


@dataclass
class BestHeuristic:
    """The tournament that chose a game's best heuristic.

    Attributes
    ----------
    chosen : str
        The best heuristic.
    declared : str
        The top rung the game declares (``GameSpec.ladder``), for comparison.
    players : int
        Seats at every table of the tournament.
    games : int
        Games per (mix, rotation).
    mixes : int
        Mixes played (each at every rotation).
    ratings : pandas.DataFrame
        Bradley-Terry log-strength per candidate with its 95% bootstrap interval, strongest
        first (:func:`~fairysim.analysis.tournament.play.ratings`).
    pairs : pandas.DataFrame
        Every pair of candidates: ``a``, ``b``, ``share`` (how often ``a`` finishes above
        ``b`` when they meet at one table, equal ranks half), ``se`` clustered by deal,
        ``meetings``, ``deals`` and the corrected columns against 1/2 (one Holm family).
    separated : bool
        Whether the top two's corrected interval excludes 1/2.
    rule : str
        How the best heuristic was picked: by separation, or :data:`NOT_SEPARATED_RULE`.
    meta : dict
        Seed and configuration.
    """

    chosen: str
    declared: str
    players: int
    games: int
    mixes: int
    ratings: pd.DataFrame
    pairs: pd.DataFrame
    separated: bool
    rule: str
    meta: dict[str, Any] = field(default_factory=dict)

    def top_pair(self) -> pd.Series:
        """The comparison of the top two, oriented so that ``a`` is the chosen one."""
        first, second = self.ratings["policy"].iloc[:2]
        return oriented(self.pairs, first, second)


def heuristics(spec: GameSpec, players: int, **setup: Any) -> list[str]:
    """The game's built-in heuristics that play at ``players`` seats: every built-in but
    :data:`EXCLUDED` and the search player, in the game's own order."""
    names = []
    for name in spec.policies:
        if name in EXCLUDED or name == spec.search:
            continue
        try:
            spec.make_setup(players=players, policies=name, seed=0, **setup)
        except FairysimError:
            continue  # a built-in of another form (Fairy Concerto's solo lookahead)
        names.append(name)
    return names


def best_heuristic_tournament(
    spec: GameSpec,
    *,
    players: int,
    games: int = TOURNAMENT_GAMES,
    seed: int = 0,
    cards: Any = None,
    threads: int | None = None,
    candidates: Sequence[str] | None = None,
    declared_only: bool = False,
    **axes: Any,
) -> BestHeuristic:
    """Play the candidates' tournament and choose the best heuristic (module docstring).

    Parameters
    ----------
    spec : GameSpec
        The game (it declares a ladder).
    players : int
        Seats at every table (the report's default player count).
    games : int
        Games per (mix, rotation).
    seed, cards, threads, axes
        As :func:`~fairysim.analysis.tournament.play.play_tournament` takes them.
    candidates : sequence of str, optional
        The heuristics compared (default :func:`heuristics`).
    declared_only : bool
        Play nothing: the game's declared top rung stands, recorded as unmeasured.

    Returns
    -------
    BestHeuristic
    """
    declared = spec.ladder[-1]
    if declared_only:
        rule = "the game's declared top rung (no tournament played)"
        return BestHeuristic(declared, declared, players, 0, 0, pd.DataFrame(), pd.DataFrame(),
                             False, rule, {"seed": seed, "candidates": []})  # fmt: skip
    names = list(candidates) if candidates is not None else heuristics(spec, players, cards=cards)
    if len(names) < 2:
        only = names[0] if names else declared
        rule = "the only heuristic the game plays at this count"
        return BestHeuristic(
            only, declared, players, 0, 0, pd.DataFrame(), pd.DataFrame(), False, rule
        )
    t = play_tournament(
        spec,
        policies=names,
        players=players,
        games=games,
        seed=seed,
        cards=cards,
        threads=threads,
        **axes,
    )
    results = pair_results(t)
    rated = ratings(t, results)
    pairs = pair_family(results, list(t.entries))
    first, separated, rule = choose(rated, pairs)
    meta = {
        "seed": seed,
        "candidates": names,
        "games_per_pairing": t.games,
        "search_playout": search_playout(spec),
    }
    return BestHeuristic(
        first, declared, t.players, t.games, len(t.mixes), rated, pairs, separated, rule, meta
    )


def choose(rated: pd.DataFrame, pairs: pd.DataFrame) -> tuple[str, bool, str]:
    """The best heuristic from a tournament's ratings (strongest first) and its pairs
    (:func:`pair_family`): the top-rated one; whether the corrected head-to-head comparison
    separates it from the runner-up; and the rule that picked it."""
    first, second = rated["policy"].iloc[:2]
    separated = bool(oriented(pairs, first, second)["significant"])
    return first, separated, "separated from the runner-up" if separated else NOT_SEPARATED_RULE


def pair_family(results: pd.DataFrame, entries: list[str]) -> pd.DataFrame:
    """Every unordered pair of entries: how often the first finishes above the second when
    they meet (equal ranks half), its standard error clustered by deal, tested against 1/2 in
    one Holm family.

    Parameters
    ----------
    results : pandas.DataFrame
        :func:`~fairysim.analysis.tournament.play.pair_results`: ``game``, ``row``, ``col``,
        ``score``.
    entries : list of str
        The entries' labels, by index.
    """
    rows = []
    for i, j in itertools.combinations(range(len(entries)), 2):
        met = results[(results["row"] == i) & (results["col"] == j)]
        share, se = clustered_mean(met["score"].to_numpy(), met["game"].to_numpy())
        rows.append(
            {
                "a": entries[i],
                "b": entries[j],
                "share": share,
                "se": se,
                "meetings": len(met),
                "deals": int(met["game"].nunique()),
            }
        )
    return with_correction(pd.DataFrame(rows), "share", "se", null=0.5, method="holm")


def clustered_mean(values: np.ndarray, clusters: np.ndarray) -> tuple[float, float]:
    """The mean of ``values`` and its cluster-robust standard error (CR1: the sum over
    clusters of the squared residual sums, times ``G / (G - 1)``, over ``N**2``); nan where
    fewer than two clusters."""
    n = len(values)
    mean = float(values.mean()) if n else float("nan")
    _, index = np.unique(clusters, return_inverse=True)
    g = int(index.max()) + 1 if n else 0
    if g < 2:
        return mean, float("nan")
    sums = np.bincount(index, weights=values - mean, minlength=g)
    return mean, float(np.sqrt(g / (g - 1) * (sums**2).sum()) / n)


def oriented(pairs: pd.DataFrame, a: str, b: str) -> pd.Series:
    """The comparison of ``a`` with ``b`` from :func:`pair_family`, turned so that ``a`` comes
    first (share, bounds and null mirrored about 1/2 where the table holds it the other way)."""
    hit = pairs[(pairs["a"] == a) & (pairs["b"] == b)]
    if len(hit):
        return hit.iloc[0]
    row = pairs[(pairs["a"] == b) & (pairs["b"] == a)].iloc[0].copy()
    row["a"], row["b"] = a, b
    row["share"] = 1 - row["share"]
    row["low"], row["high"] = 1 - row["high"], 1 - row["low"]
    return row


def search_playout(spec: GameSpec) -> str:
    """The policy the game's search player plays out with at its default weights (``""``
    without a search player): declared in the engine, not chosen by the tournament."""
    if not spec.search:
        return ""
    policies = spec.policies
    return playout_policy(policies, policies[spec.search]).name


def with_best_heuristic(spec: GameSpec, best: str) -> GameSpec:
    """``spec`` with ``best`` as its ladder's top rung (the rungs below it kept, a rung equal
    to ``best`` dropped), so every study that seats the best heuristic seats it."""
    below = tuple(rung for rung in spec.ladder[:-1] if rung != best)
    return dataclasses.replace(spec, ladder=(*below, best))


__all__ = [
    "NOT_SEPARATED_RULE",
    "TOURNAMENT_GAMES",
    "BestHeuristic",
    "best_heuristic_tournament",
    "choose",
    "clustered_mean",
    "heuristics",
    "oriented",
    "pair_family",
    "with_best_heuristic",
]
