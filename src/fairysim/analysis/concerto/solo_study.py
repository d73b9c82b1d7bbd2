"""Fairy Concerto solo against Pahha: the study behind ``fairysim report concerto-solo``.

:func:`solo_study` plays every solo policy against Pahha with
:func:`fairysim.sim.concerto.simulate` and measures win rates with 95% Wilson intervals, by
setup (soloist x pianist x harpist), the distribution of margins, and the gain of every policy
over ``greedy`` paired on identical deals. The report
(:mod:`fairysim.analysis.concerto.solo_report`) only lays its tables out.

You win only with a strictly higher total than Pahha (C8). Every run uses the same seed, so game
``i`` deals the same tokens, score cards and setup in every run (the deal never depends on the
policies): policies are compared game by game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

from fairysim import __version__
from fairysim.analysis.concerto.runs import SETUP_COLUMNS
from fairysim.analysis.studies.base import ProgressTracker, load_card_set
from fairysim.jit import ahead as compile_ahead
from fairysim.runtime.errors import ParameterError
from fairysim.sim.batch import Progress, check_games
from fairysim.sim.concerto import POLICIES, ConcertoCards, load_cards, simulate
from fairysim.sim.concerto.policies import SOLO_POLICIES
from fairysim.sim.concerto.spec import SPEC
from fairysim.stats.corrections import with_correction
from fairysim.stats.estimates import paired_difference, wilson_interval, win_rates

BASELINE_POLICY = "greedy"
"""The solo policy every other one is paired against."""


@dataclass
class SoloStudy:
    """Tables of a :func:`solo_study` (win shares are shares of games, margins in points).

    Attributes
    ----------
    policies : pandas.DataFrame
        One row per policy: ``policy``, ``games``, ``wins``, ``win_share`` with Wilson ``low``/
        ``high``, ``mean_score``, ``pahha_score``, ``mean_margin`` (your score minus Pahha's),
        and the paired ``gain`` over greedy on the games both played (share of games) with
        ``gain_se`` and ``gain_games``; the gains are one Holm family (greedy itself is not
        tested): ``gain_low``/``gain_high`` are the corrected intervals, ``gain_significant``
        the verdicts, with ``gain_p_value`` and ``gain_p_adjusted``.
    lookahead : pandas.DataFrame
        The lookahead policy against greedy on identical deals (one row; empty without
        lookahead): ``games``, both win shares, ``gain`` in win share and ``margin_gain`` in
        points, each with ``_se`` and its corrected ``_low``, ``_high`` and ``_significant``
        (:func:`~fairysim.stats.corrections.with_correction`, one family per measure).
    setups : pandas.DataFrame
        Per (policy, soloist, pianist, harpist): ``games``, ``wins``, ``win_share`` with Wilson
        ``low``/``high`` and ``mean_margin``; for the fast policies and lookahead.
    setup_cards : pandas.DataFrame
        Per (policy, contest, card): the same, setup cards taken one at a time.
    margins : pandas.DataFrame
        Margin distribution per (policy, margin): ``games`` and ``share``.
    margin_summary : pandas.DataFrame
        Per policy: ``games``, ``mean``, ``sd``, quantiles ``p05`` .. ``p95`` and ``tied``
        (share of games tied with Pahha, a loss by ruling C8).
    best_heuristic : pandas.DataFrame
        The heuristic with the highest win rate against Pahha (:func:`best_heuristic_rows`)
        against every other heuristic played: ``a`` (the top one), ``b``, ``games`` (deals both
        played), ``gain`` (``a``'s win share minus ``b``'s, paired game by game) with
        ``gain_se`` and the corrected columns, one Holm family; empty with fewer than two.
    cards : ConcertoCards
        The card set played.
    meta : dict
        ``games`` (fast policies), ``lookahead_games``, ``search_games`` (0: not played),
        ``seed``, ``policies``, ``cards``,
        ``cards_label``, ``cards_provisional``, ``package_version``, ``engine_version``.
    """

    policies: pd.DataFrame
    lookahead: pd.DataFrame
    setups: pd.DataFrame
    setup_cards: pd.DataFrame
    margins: pd.DataFrame
    margin_summary: pd.DataFrame
    cards: ConcertoCards
    meta: dict[str, Any] = field(default_factory=dict)
    best_heuristic: pd.DataFrame = field(default_factory=pd.DataFrame)

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by name, in report order."""
        return {
            "policies": self.policies,
            "lookahead": self.lookahead,
            "setups": self.setups,
            "setup_cards": self.setup_cards,
            "margins": self.margins,
            "margin_summary": self.margin_summary,
        }


SLOW_POLICIES = ("lookahead", SPEC.search)
"""Solo policies that play fewer games than ``games`` (Monte Carlo play-outs at every decision
make them hundreds of times slower than greedy): ``lookahead_games`` of lookahead,
``search_games`` of the search player."""

NOT_HEURISTICS = ("random", *SLOW_POLICIES)
"""Solo policies that are no candidate for the best heuristic: random, and the two that search
by play-outs (the search rung sits above the best heuristic)."""


def solo_runs(
    games: int,
    seed: int,
    lookahead_games: int | None = None,
    policies: Sequence[str] = SOLO_POLICIES,
    cards: str | Path | ConcertoCards | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    search_games: int | None = None,
    kept: dict[tuple[str, int], pd.DataFrame] | None = None,
) -> dict[str, pd.DataFrame]:
    """Play every solo policy on the same deals and keep your row of every game.

    Parameters
    ----------
    games : int
        Games per policy.
    seed : int
        Seed shared by every run (identical deals game by game).
    lookahead_games : int, optional
        Games of lookahead (default ``games``).
    policies : sequence of str
        Solo policies; ``greedy`` is added first when missing (it is the baseline).
    cards : path or ConcertoCards, optional
        Card file.
    threads : int, optional
        numba threads.
    progress : callable, optional
        ``progress(games_done, games_total)`` over all runs.
    search_games : int, optional
        Games of the search player (default ``lookahead_games``); 0 leaves it out.
    kept : dict, optional
        Runs already played, by ``(policy, games)``: taken from here instead of played again,
        and every run played is added (a study played to a precision keeps its slow policies'
        fixed runs from one look to the next; game ``i`` depends only on the seed and ``i``,
        so a kept run is the run it would play).

    Returns
    -------
    dict of str to pandas.DataFrame
        Per policy, one row per game indexed by ``game``: ``win`` (1 or 0), ``score``,
        ``pahha_score``, ``margin`` and the setup ``soloist_card``, ``pianist_card``,
        ``harpist_card``, ``popularity_kind`` (categorical).
    """
    games = check_games(games)
    lookahead_games = games if lookahead_games is None else check_games(lookahead_games)
    if search_games is None:
        search_games = lookahead_games
    elif search_games != 0:
        search_games = check_games(search_games, "search_games")
    names = _check_solo_policies(policies)
    if search_games == 0:
        names = tuple(name for name in names if name != SPEC.search)
    card_set = load_card_set(cards, ConcertoCards, load_cards)
    slow = {"lookahead": lookahead_games, SPEC.search: search_games}
    sizes = {p: slow.get(p, games) for p in names}
    kept = {} if kept is None else kept
    tracker = ProgressTracker(
        progress, sum(n for name, n in sizes.items() if (name, n) not in kept)
    )
    runs = {}
    for name in names:
        if (name, sizes[name]) in kept:
            runs[name] = kept[(name, sizes[name])]
            continue
        if name == SPEC.search:  # its kernel may be compiling in the background (compile_ahead)
            compile_ahead.wait(SPEC.name, SPEC.title)
        df = simulate(
            players=1,
            policies=name,
            games=sizes[name],
            seed=seed,
            cards=card_set,
            threads=threads,
            progress=tracker.run(),
        )
        tracker.done(sizes[name])
        runs[name] = _solo_rows(df)
        runs[name].attrs["fairysim"] = df.attrs["fairysim"]
        kept[(name, sizes[name])] = runs[name]
        del df
    return runs


def _solo_rows(df: pd.DataFrame) -> pd.DataFrame:
    you = df[df["seat"] == 0].set_index("game").sort_index()
    pahha = df[df["seat"] == 1].set_index("game").sort_index()
    return pd.DataFrame(
        {
            "win": you["win_share"].astype(np.float64),
            "score": you["score"].astype(np.int64),
            "pahha_score": pahha["score"].astype(np.int64),
            "margin": you["margin"].astype(np.int64),
            "soloist_card": you["soloist_card"],
            "pianist_card": you["pianist_card"],
            "harpist_card": you["harpist_card"],
            "popularity_kind": you["popularity_kind"],
        }
    )


def solo_study(
    games: int,
    seed: int,
    lookahead_games: int | None = None,
    policies: Sequence[str] = SOLO_POLICIES,
    cards: str | Path | ConcertoCards | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    search_games: int | None = None,
    alpha: float = 0.05,
    kept: dict[tuple[str, int], pd.DataFrame] | None = None,
) -> SoloStudy:
    """Solo win rates against Pahha: per policy, per setup, margins, and gains over greedy.

    Parameters
    ----------
    games : int
        Games per fast policy (every policy but those of :data:`SLOW_POLICIES`).
    seed : int
        Seed shared by every run, so every policy plays the same deals (and setups) in game
        ``i``; gains over greedy are paired game by game.
    lookahead_games : int, optional
        Games of the lookahead policy (default ``games``); they are games ``0 ..
        lookahead_games - 1``, so the gain over greedy is paired on the first
        ``min(games, lookahead_games)`` deals.
    policies : sequence of str, default all solo policies
        Built-in names or ``module:function``; ``greedy`` is always played.
    cards : path or ConcertoCards, optional
        Card file (the shipped provisional set by default).
    threads : int, optional
        numba threads; never changes the numbers.
    progress : callable, optional
        ``progress(games_done, games_total)`` over all runs.
    search_games : int, optional
        Games of the search player (default ``lookahead_games``), games ``0 ..
        search_games - 1`` like lookahead's; 0 leaves it out.
    alpha : float, default 0.05
        Error rate of each policy's win-rate interval and of the gains' family (lower where
        ``--precision`` splits it over its looks, :func:`fairysim.stats.precision.
        study_to_precision`).
    kept : dict, optional
        Runs kept from an earlier look (:func:`solo_runs`).

    Returns
    -------
    SoloStudy

    Examples
    --------
    >>> study = solo_study(games=300, seed=1, lookahead_games=30, policies=("greedy", "random"))
    >>> list(study.policies.policy)
    ['greedy', 'random']
    """
    card_set = load_card_set(cards, ConcertoCards, load_cards)
    runs = solo_runs(
        games, seed, lookahead_games, policies, card_set, threads, progress, search_games, kept
    )
    return summarise_solo(runs, card_set, seed, alpha)


def summarise_solo(
    runs: dict[str, pd.DataFrame],
    cards: ConcertoCards | None = None,
    seed: int | None = None,
    alpha: float = 0.05,
) -> SoloStudy:
    """The tables of a :class:`SoloStudy` from runs of :func:`solo_runs`.

    Parameters
    ----------
    runs : dict of str to pandas.DataFrame
        Per policy, your row of every game (``greedy`` among them).
    cards : ConcertoCards, optional
        The card set played (for the report's labels).
    seed : int, optional
        The runs' seed (recorded in ``meta``).
    alpha : float, default 0.05
        Error rate of each win-rate interval and of the gains' family.

    Returns
    -------
    SoloStudy
    """
    card_set = load_cards() if cards is None else cards
    if BASELINE_POLICY not in runs:
        raise ParameterError("policies", "the solo study needs a greedy run as its baseline")
    base = runs[BASELINE_POLICY]
    policy_rows, setups, setup_cards, margins, margin_summary = [], [], [], [], []
    for name, run in runs.items():
        n = len(run)
        wins = float(run["win"].sum())
        low, high = wilson_interval(wins, n, z=float(norm.isf(alpha / 2)))
        row = {
            "policy": name,
            "games": n,
            "wins": wins,
            "win_share": wins / n,
            "low": float(low),
            "high": float(high),
            "mean_score": float(run["score"].mean()),
            "pahha_score": float(run["pahha_score"].mean()),
            "mean_margin": float(run["margin"].mean()),
        }
        if name == BASELINE_POLICY:
            row.update(gain=math.nan, gain_se=math.nan, gain_games=n)
        else:
            d = paired_difference(run["win"], base["win"])
            row.update(gain=d.mean, gain_se=d.se, gain_games=d.n)
        policy_rows.append(row)
        setups.append(_setup_rates(run, name, list(SETUP_COLUMNS)))
        for column in SETUP_COLUMNS:
            part = _setup_rates(run, name, [column])
            part.insert(1, "contest", column.removesuffix("_card"))
            setup_cards.append(part.rename(columns={column: "card"}))
        margins.append(_margin_distribution(run, name))
        margin_summary.append(_margin_summary(run, name))
    lookahead = _lookahead_gain(runs)
    best = best_heuristic_rows(runs, alpha)
    engine_version = base.attrs.get("fairysim", {}).get("config", {}).get("engine_version")
    meta = {
        "games": len(base),
        "lookahead_games": len(runs["lookahead"]) if "lookahead" in runs else None,
        "search_games": len(runs[SPEC.search]) if SPEC.search in runs else 0,
        "seed": seed,
        "alpha": alpha,
        "policies": list(runs),
        "best_heuristic": str(best["a"].iloc[0]) if len(best) else None,
        "cards": card_set.source,
        "cards_label": card_set.label,
        "cards_provisional": card_set.provisional,
        "package_version": __version__,
        "engine_version": engine_version,
    }
    policies = with_correction(
        pd.DataFrame(policy_rows), "gain", "gain_se", prefix="gain_", alpha=alpha
    )
    return SoloStudy(
        policies=policies,
        lookahead=lookahead,
        setups=pd.concat(setups, ignore_index=True),
        setup_cards=pd.concat(setup_cards, ignore_index=True),
        margins=pd.concat(margins, ignore_index=True),
        margin_summary=pd.DataFrame(margin_summary),
        cards=card_set,
        meta=meta,
        best_heuristic=best,
    )


def best_heuristic_rows(runs: dict[str, pd.DataFrame], alpha: float = 0.05) -> pd.DataFrame:
    """The best heuristic against Pahha, by a corrected comparison: among the heuristics played
    (every policy but :data:`NOT_HEURISTICS`), the one with the highest win rate, compared with
    each other one on the deals both played (paired differences of win share), the comparisons
    one Holm family at error rate ``alpha``. Its first row is the runner-up (the next highest
    win rate): where that row is not significant, the top two are not separated and the top one
    stands by the stated rule, the higher win rate."""
    names = [name for name in runs if name not in NOT_HEURISTICS]
    columns = ["a", "b", "games", "a_win_share", "b_win_share", "gain", "gain_se"]
    if len(names) < 2:
        return pd.DataFrame(columns=columns)
    rates = {name: float(runs[name]["win"].mean()) for name in names}
    ordered = sorted(names, key=lambda name: -rates[name])
    top = runs[ordered[0]]
    rows = []
    for name in ordered[1:]:
        d = paired_difference(top["win"], runs[name]["win"])
        common = top.index.intersection(runs[name].index)
        rows.append(
            {
                "a": ordered[0],
                "b": name,
                "games": d.n,
                "a_win_share": float(top.loc[common, "win"].mean()),
                "b_win_share": float(runs[name].loc[common, "win"].mean()),
                "gain": d.mean,
                "gain_se": d.se,
            }
        )
    return with_correction(pd.DataFrame(rows, columns=columns), "gain", "gain_se", alpha=alpha)


def fast_policy_half_width(study: SoloStudy) -> float:
    """The widest half-width of the win rates of the policies that play ``games`` (every
    policy but :data:`SLOW_POLICIES`), at the study's error rate: what ``--precision`` watches."""
    p = study.policies[~study.policies["policy"].isin(SLOW_POLICIES)]
    return float(((p["high"] - p["low"]) / 2).max())


def _setup_rates(run: pd.DataFrame, name: str, by: list[str]) -> pd.DataFrame:
    rates = win_rates(run, by=by, value="win")
    margin = run.groupby(by, observed=True, sort=True)["margin"].mean().reset_index(drop=True)
    rates["mean_margin"] = margin.to_numpy()
    for column in by:
        rates[column] = rates[column].astype(str)
    rates.insert(0, "policy", name)
    return rates


def _margin_distribution(run: pd.DataFrame, name: str) -> pd.DataFrame:
    counts = run["margin"].value_counts().sort_index()
    return pd.DataFrame(
        {
            "policy": name,
            "margin": counts.index.to_numpy(np.int64),
            "games": counts.to_numpy(np.int64),
            "share": counts.to_numpy(np.float64) / len(run),
        }
    )


def _margin_summary(run: pd.DataFrame, name: str) -> dict[str, Any]:
    m = run["margin"].to_numpy(np.float64)
    q = np.quantile(m, [0.05, 0.25, 0.5, 0.75, 0.95])
    return {
        "policy": name,
        "games": len(m),
        "mean": float(m.mean()),
        "sd": float(m.std(ddof=1)) if len(m) > 1 else math.nan,
        "p05": q[0],
        "p25": q[1],
        "median": q[2],
        "p75": q[3],
        "p95": q[4],
        "tied": float((m == 0).mean()),
        "won": float((m > 0).mean()),
    }


def _lookahead_gain(runs: dict[str, pd.DataFrame]) -> pd.DataFrame:
    columns = [
        "policy",
        "games",
        "greedy_win_share",
        "policy_win_share",
        "gain",
        "gain_se",
        "greedy_margin",
        "policy_margin",
        "margin_gain",
        "margin_gain_se",
    ]
    rows = []
    base = runs[BASELINE_POLICY]
    for name in SLOW_POLICIES:
        if name not in runs:
            continue
        run = runs[name]
        common = base.index.intersection(run.index)
        win = paired_difference(run["win"], base["win"])
        margin = paired_difference(run["margin"], base["margin"])
        rows.append(
            {
                "policy": name,
                "games": win.n,
                "greedy_win_share": float(base.loc[common, "win"].mean()),
                "policy_win_share": float(run.loc[common, "win"].mean()),
                "gain": win.mean,
                "gain_se": win.se,
                "greedy_margin": float(base.loc[common, "margin"].mean()),
                "policy_margin": float(run.loc[common, "margin"].mean()),
                "margin_gain": margin.mean,
                "margin_gain_se": margin.se,
            }
        )
    table = with_correction(pd.DataFrame(rows, columns=columns), "gain", "gain_se", prefix="gain_")
    return with_correction(table, "margin_gain", "margin_gain_se", prefix="margin_gain_")


def _check_solo_policies(policies: Sequence[str]) -> tuple[str, ...]:
    names = [p.strip() for p in (policies.split(",") if isinstance(policies, str) else policies)]
    if not names or any(not p for p in names):
        raise ParameterError("policies", "give at least one solo policy")
    for name in names:
        if name not in POLICIES and ":" not in name:
            raise ParameterError(
                "policies",
                f"unknown policy {name!r}; built-ins are {', '.join(POLICIES)}, "
                "or give module:function",
            )
    ordered = [BASELINE_POLICY, *(p for p in names if p != BASELINE_POLICY)]
    return tuple(dict.fromkeys(ordered))


__all__ = [
    "BASELINE_POLICY",
    "SLOW_POLICIES",
    "SoloStudy",
    "solo_runs",
    "solo_study",
    "summarise_solo",
]
