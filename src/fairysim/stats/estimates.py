"""Game-agnostic statistics on tidy results (one row per game and seat).

The module runs past the project's ~600 lines because it is the one place every report, sweep
and notebook takes its statistics from: small independent functions, each with its docstring and
example, that share the interval and win-share conventions below.

Everything here works on the tidy frames that every game's ``simulate()`` returns: columns
``game``, ``seat``, ``win_share`` and, where a function needs them, ``score``, ``players`` and
per-round trace columns. Distributions, intervals and tests come from scipy and statsmodels
(the Wilson interval is statsmodels' ``proportion_confint``, the chi-square tail scipy's
``chi2.sf``); corrected families with their simultaneous intervals live in
:mod:`fairysim.stats.corrections`.

Win shares and ties
-------------------
A shared win between ``k`` players counts as a win share of ``1/k`` for each of them (RULINGS.md),
so a "number of wins" is the *sum of win shares* and may be fractional. The Wilson interval and
the chi-square test below are used with these fractional counts as they are: ties are rare in
the games simulated here, and splitting a tied win is the natural way to keep the win shares of a
game summing to 1. The intervals are then very slightly conservative (a split win has less
variance than a whole one).
"""

from __future__ import annotations

import gc
import math
import re
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

Z_95 = 1.959963984540054
"""Two-sided 95 % standard normal quantile (``Phi^-1(0.975)``)."""

GAME_COLUMN = "game"
SEAT_COLUMN = "seat"


# --------------------------------------------------------------------------------------------
# Intervals and significance


def wilson_interval(
    successes: float | np.ndarray | pd.Series,
    n: float | np.ndarray | pd.Series,
    z: float = Z_95,
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a proportion.

    Parameters
    ----------
    successes : float or array-like
        Number of successes; for win rates the *sum of win shares* (a tied win between ``k``
        players counts ``1/k`` for each), so it may be fractional.
    n : float or array-like
        Number of trials (games), same shape as ``successes``.
    z : float, default :data:`Z_95`
        Normal quantile of the two-sided confidence level (1.96 for 95 %).

    Returns
    -------
    low, high : numpy.ndarray
        Interval bounds as shares (0..1). ``nan`` where ``n`` is 0.

    Notes
    -----
    statsmodels' ``proportion_confint(method="wilson")`` at level ``1 - 2 P(Z > z)``.
    Unlike the normal (Wald) interval it stays inside [0, 1] and is sensible at 0 or n
    successes, which matters for rare events such as a seat that almost never wins.

    Examples
    --------
    >>> low, high = wilson_interval(5, 10)
    >>> round(float(low), 4), round(float(high), 4)
    (0.2366, 0.7634)
    """
    from scipy.stats import norm
    from statsmodels.stats.proportion import proportion_confint

    s, n = np.broadcast_arrays(
        np.asarray(successes, dtype=np.float64), np.asarray(n, dtype=np.float64)
    )
    alpha = 2.0 * float(norm.sf(z))
    low = np.full(s.shape, np.nan)
    high = np.full(s.shape, np.nan)
    ok = n > 0
    if ok.any():
        lo, hi = proportion_confint(s[ok], n[ok], alpha=alpha, method="wilson")
        # At 0 (or n) successes the bound is exactly 0 (or 1); rounding would leave ~1e-19.
        low[ok] = np.where(s[ok] <= 0, 0.0, np.clip(lo, 0.0, 1.0))
        high[ok] = np.where(s[ok] >= n[ok], 1.0, np.clip(hi, 0.0, 1.0))
    if low.ndim == 0:
        return low[()], high[()]
    return low, high


def excludes(low: Any, high: Any, value: float = 0.0) -> Any:
    """True where the interval ``[low, high]`` does not contain ``value``.

    Parameters
    ----------
    low, high : float or array-like
        Interval bounds.
    value : float, default 0
        Reference value (0 for a difference, ``1/players`` for a seat's win share).

    Returns
    -------
    bool or numpy.ndarray of bool
        False where a bound is ``nan`` (an interval that could not be computed is never called
        significant).
    """
    low = np.asarray(low, dtype=np.float64)
    high = np.asarray(high, dtype=np.float64)
    out = (low > value) | (high < value)
    return bool(out) if out.ndim == 0 else out


def significance_label(low: float, high: float, value: float = 0.0) -> str:
    """``"significant"`` or ``"not significant"``: the plain words reports use.

    Parameters
    ----------
    low, high : float
        95 % interval bounds.
    value : float, default 0
        Reference value the interval is tested against.

    Returns
    -------
    str
        ``"not significant"`` when the interval covers ``value`` (or is undefined).
    """
    return "significant" if excludes(low, high, value) else "not significant"


@dataclass(frozen=True)
class PairedDifference:
    """Mean of ``a - b`` over common games, with its standard error and 95 % interval.

    Attributes
    ----------
    mean : float
        Mean paired difference, in the units of the inputs (share of games for win shares,
        points for scores).
    se : float
        Standard error of the mean (sample standard deviation / sqrt(n)).
    low, high : float
        Normal-approximation confidence interval ``mean -/+ z * se``.
    n : int
        Number of common games used.
    """

    mean: float
    se: float
    low: float
    high: float
    n: int

    @property
    def significant(self) -> bool:
        """True when the interval excludes 0."""
        return bool(excludes(self.low, self.high, 0.0))

    @property
    def verdict(self) -> str:
        """``"significant"`` or ``"not significant"`` (the interval covers 0)."""
        return significance_label(self.low, self.high, 0.0)

    def to_dict(self) -> dict[str, Any]:
        """The fields plus ``significant``, e.g. for one row of a table."""
        return {**asdict(self), "significant": self.significant}


def paired_difference(a: pd.Series, b: pd.Series, z: float = Z_95) -> PairedDifference:
    """Paired difference of two lineups on the games they have in common.

    Two runs with the same seed deal identical cards in game ``i`` (common random numbers), so
    comparing them game by game removes the luck of the deal from the comparison and gives a
    much narrower interval than comparing two independent win rates.

    Parameters
    ----------
    a, b : pandas.Series
        One value per game (e.g. seat 0's win share), indexed by game. Only games present and
        not ``nan`` in both are used.
    z : float, default :data:`Z_95`
        Normal quantile of the two-sided confidence level.

    Returns
    -------
    PairedDifference
        ``mean`` of ``a - b``, its ``se``, interval ``low``/``high``, ``n`` games and
        ``significant`` (interval excludes 0). With fewer than 2 common games the standard
        error and interval are ``nan`` and the difference is not significant.

    Examples
    --------
    >>> a = pd.Series([1.0, 0.0, 1.0, 1.0], index=[0, 1, 2, 3])
    >>> b = pd.Series([0.0, 0.0, 1.0, 0.0], index=[0, 1, 2, 3])
    >>> paired_difference(a, b).mean
    0.5
    """
    joined = pd.concat({"a": a, "b": b}, axis=1, join="inner").dropna()
    diff = joined["a"].to_numpy(np.float64) - joined["b"].to_numpy(np.float64)
    n = int(diff.size)
    if n == 0:
        return PairedDifference(math.nan, math.nan, math.nan, math.nan, 0)
    mean = float(diff.mean())
    if n < 2:
        return PairedDifference(mean, math.nan, math.nan, math.nan, n)
    se = float(diff.std(ddof=1) / math.sqrt(n))
    return PairedDifference(mean, se, mean - z * se, mean + z * se, n)


def chi2_sf(x: float, dof: int) -> float:
    """Upper tail ``P(X >= x)`` of the chi-square distribution (scipy's ``chi2.sf``).

    Parameters
    ----------
    x : float
        Test statistic (>= 0).
    dof : int
        Degrees of freedom (>= 1).

    Returns
    -------
    float
        The p-value of ``x``; ``nan`` for a ``nan`` statistic.

    Examples
    --------
    >>> round(chi2_sf(3.841458820694124, 1), 6)
    0.05
    """
    from scipy.stats import chi2

    if dof < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {dof}")
    return float(chi2.sf(x, dof))


# --------------------------------------------------------------------------------------------
# Many comparisons: p-values and their correction


CORRECTIONS = ("holm", "fdr_bh")
"""Multiple-comparison corrections reports may use: Holm (family-wise error) or
Benjamini-Hochberg (false discovery rate), as statsmodels names them."""


def normal_p_value(mean: Any, se: Any) -> np.ndarray:
    """Two-sided p-value of an estimate against 0 under the normal approximation.

    Parameters
    ----------
    mean, se : float or array-like
        Estimates and their standard errors (same shape).

    Returns
    -------
    numpy.ndarray
        ``2 * P(Z >= |mean / se|)``; ``nan`` where ``se`` is ``nan`` or not positive, so an
        estimate without a standard error is never called significant. It is below 0.05
        exactly where the interval ``mean -/+ 1.96 se`` excludes 0.

    Examples
    --------
    >>> round(float(normal_p_value(1.959963984540054, 1.0)), 6)
    0.05
    """
    from scipy.stats import norm

    mean = np.asarray(mean, dtype=np.float64)
    se = np.asarray(se, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.abs(mean / se)
    return np.where(se > 0, 2.0 * norm.sf(z), np.nan)


def proportion_p_value(successes: Any, n: Any, value: Any) -> np.ndarray:
    """Two-sided score-test p-value of a proportion against ``value`` (statsmodels'
    ``proportions_ztest`` with the variance at ``value``).

    The score test is the one the Wilson interval inverts: the p-value is below 0.05 exactly
    where the 95 % :func:`wilson_interval` excludes ``value``.

    Parameters
    ----------
    successes, n : float or array-like
        Successes (a sum of win shares may be fractional) and trials.
    value : float or array-like
        The proportion tested against (e.g. the fair share ``1/players``), strictly between 0
        and 1.

    Returns
    -------
    numpy.ndarray
        p-values; ``nan`` where ``n`` is 0.
    """
    from statsmodels.stats.proportion import proportions_ztest

    s, n, v = np.broadcast_arrays(
        np.asarray(successes, np.float64), np.asarray(n, np.float64), np.asarray(value, np.float64)
    )
    out = np.full(s.shape, np.nan)
    for i in np.ndindex(s.shape):
        if n[i] > 0:
            out[i] = proportions_ztest(s[i], n[i], v[i], prop_var=v[i])[1]
    return out


def _no_collection(generation: int = 2) -> int:
    return 0


def multipletests(p_values: Any, alpha: float = 0.05, method: str = "holm") -> tuple:
    """statsmodels' ``multipletests``, less the ``gc.collect()`` its Holm branch runs on every
    call (statsmodels 0.15): a full collection of a process that holds numba's compiled engines
    takes 50-170 ms, 35 of them about 6 s of a Fantastique report's 49. The correction is
    statsmodels' own; ``gc.collect`` does nothing for the length of the call (microseconds).

    Returns
    -------
    tuple
        ``(reject, p_adjusted, alpha_sidak, alpha_bonferroni)``, as statsmodels returns them.
    """
    from statsmodels.stats import multitest

    collect = gc.collect
    gc.collect = _no_collection
    try:
        return multitest.multipletests(p_values, alpha=alpha, method=method)
    finally:
        gc.collect = collect


def adjust_p_values(p_values: Any, method: str = "holm") -> np.ndarray:
    """p-values adjusted for the number of comparisons (statsmodels' ``multipletests``).

    Parameters
    ----------
    p_values : array-like
        One p-value per comparison of the family; ``nan`` ones are left out of the family
        (nothing was tested) and stay ``nan``.
    method : {"holm", "fdr_bh"}, default "holm"
        Holm's step-down correction (controls the chance of any false "significant") or
        Benjamini-Hochberg's (controls the share of false ones among the "significant").

    Returns
    -------
    numpy.ndarray
        Adjusted p-values, same shape; compare them with 0.05.

    Examples
    --------
    >>> adjust_p_values([0.01, 0.04, 0.03]).round(2).tolist()
    [0.03, 0.06, 0.06]
    """
    if method not in CORRECTIONS:
        raise ValueError(f"method must be one of {CORRECTIONS}, got {method!r}")
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    tested = np.isfinite(p)
    if tested.any():
        out[tested] = multipletests(p[tested], method=method)[1]
    return out


def correct_verdicts(
    table: pd.DataFrame, p_column: str = "p_value", method: str = "holm", alpha: float = 0.05
) -> pd.DataFrame:
    """A table of comparisons with ``p_adjusted`` and ``significant`` after the correction.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per comparison of one family, with a p-value column.
    p_column : str, default ``"p_value"``
        The uncorrected p-values.
    method : {"holm", "fdr_bh"}, default "holm"
        See :func:`adjust_p_values`.
    alpha : float, default 0.05
        Level of the corrected test.

    Returns
    -------
    pandas.DataFrame
        A copy with ``p_adjusted`` and ``significant`` (``p_adjusted < alpha``; False where
        nothing was tested), replacing any ``significant`` column the table had: the words of a
        report then follow the corrected test, not the single 95 % interval.
    """
    out = table.copy()
    out["p_adjusted"] = adjust_p_values(out[p_column].to_numpy(np.float64), method)
    out["significant"] = (out["p_adjusted"] < alpha).to_numpy(bool)
    return out


def flag_difference(
    values: Any, flag: Any, groups: Any, z: float = Z_95
) -> tuple[float, float, float, float, float]:
    """Mean of ``values`` where ``flag`` is set minus the mean where it is not, with a standard
    error clustered by ``groups`` (statsmodels OLS on the flag, cluster-robust covariance).

    Rows of one group (the seats of one game) are not independent: one seat's win is the
    others' loss. Clustering by game takes that into account instead of counting seats as
    independent draws.

    Parameters
    ----------
    values : array-like of float
        One value per row (e.g. a seat's win share).
    flag : array-like of bool
        The rows of the first group (e.g. seats that collected a card).
    groups : array-like of int
        Cluster of each row (e.g. the game).

    Returns
    -------
    difference, se, low, high, p_value : float
        In the units of ``values``; all ``nan`` when every row or no row is flagged, and all
        but the difference ``nan`` when the clustered variance is not positive (e.g. the flag is
        set in one cluster only).
    """
    import statsmodels.api as sm

    y = np.asarray(values, dtype=np.float64)
    x = np.asarray(flag, dtype=np.float64)
    if x.size == 0 or x.min() == x.max():
        return math.nan, math.nan, math.nan, math.nan, math.nan
    design = np.column_stack([np.ones_like(x), x])
    with warnings.catch_warnings():
        # A flag set in a single cluster has no clustered variance: sqrt of a negative
        # rounding error, reported below as no interval.
        warnings.simplefilter("ignore", RuntimeWarning)
        fit = sm.OLS(y, design).fit(cov_type="cluster", cov_kwds={"groups": np.asarray(groups)})
        diff, se = float(fit.params[1]), float(fit.bse[1])
    if not se > 0:
        return diff, math.nan, math.nan, math.nan, math.nan
    return diff, se, diff - z * se, diff + z * se, float(normal_p_value(diff, se))


# --------------------------------------------------------------------------------------------
# Win rates and seat advantage


def win_rates(
    df: pd.DataFrame,
    by: str | Sequence[str] = ("policy",),
    value: str = "win_share",
    z: float = Z_95,
) -> pd.DataFrame:
    """Mean win share per group with a Wilson interval.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy results, one row per (game, seat).
    by : str or sequence of str, default ``("policy",)``
        Grouping columns (``"seat"``, ``"policy"``, ``["fan", "players", "seat"]`` ...).
    value : str, default ``"win_share"``
        Column holding each row's share of the win (1, 0, or ``1/k`` for a ``k``-way tie).
    z : float, default :data:`Z_95`
        Normal quantile of the interval.

    Returns
    -------
    pandas.DataFrame
        One row per group: the ``by`` columns, ``games`` (rows in the group; one row per game
        when grouping by seat), ``wins`` (sum of win shares), ``win_share`` (share of games
        won, 0..1) and its 95 % Wilson interval ``low``, ``high``.

    Notes
    -----
    When a group holds several seats of the same game (e.g. ``by="policy"`` with two greedy
    seats), the rows are not independent: their win shares are negatively correlated (one
    seat's win is the other's loss), so the interval is then a slight over-estimate of the
    uncertainty. Group by seat for exact per-game counting.
    """
    keys = _as_list(by)
    grouped = df.groupby(keys, observed=True, sort=True)[value]
    out = grouped.agg(games="size", wins="sum").reset_index()
    out["win_share"] = out["wins"] / out["games"]
    out["low"], out["high"] = wilson_interval(out["wins"], out["games"], z)
    return out


def max_gap(rates: pd.DataFrame, value: str = "win_share") -> float:
    """Balance: the largest pairwise gap between the win shares of a table's rows.

    Parameters
    ----------
    rates : pandas.DataFrame
        A table such as :func:`win_rates` returns.
    value : str, default ``"win_share"``
        Column compared.

    Returns
    -------
    float
        ``max - min`` of the column (share of games); 0 for a perfectly balanced table.
    """
    if rates.empty:
        return math.nan
    return float(rates[value].max() - rates[value].min())


def seat_advantage(
    df: pd.DataFrame,
    by: str | Sequence[str] = (),
    value: str = "win_share",
    z: float = Z_95,
) -> pd.DataFrame:
    """Each seat's win share against the fair share ``1/players``.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy results with ``seat`` and ``players`` columns (``players`` is inferred from the
        number of distinct seats when absent).
    by : str or sequence of str, default ``()``
        Extra grouping columns (e.g. ``"fan"``); results are always split by player count.
    value : str, default ``"win_share"``
        Win share column.
    z : float, default :data:`Z_95`
        Normal quantile of the interval.

    Returns
    -------
    pandas.DataFrame
        One row per (``by``, players, seat): ``games``, ``wins``, ``win_share`` with Wilson
        ``low``/``high``, ``fair`` (= 1/players), ``advantage`` (= win_share - fair, share of
        games) and ``significant`` (the interval excludes the fair share).
    """
    frame = _with_players(df)
    keys = [*_as_list(by), "players", SEAT_COLUMN]
    counts = frame.groupby(keys, observed=True, sort=True)[value].agg(games="size", wins="sum")
    return seat_advantage_counts(counts.reset_index(), z)


def seat_advantage_counts(counts: pd.DataFrame, z: float = Z_95) -> pd.DataFrame:
    """:func:`seat_advantage` from counted wins, e.g. pooled over several runs.

    Parameters
    ----------
    counts : pandas.DataFrame
        One row per seat (and any grouping columns) with ``players``, ``seat``, ``games`` and
        ``wins`` (sum of win shares).
    z : float, default :data:`Z_95`
        Normal quantile of the interval.

    Returns
    -------
    pandas.DataFrame
        ``counts`` plus ``win_share``, Wilson ``low``/``high``, ``fair`` (1/players),
        ``advantage`` (win_share - fair, share of games) and ``significant`` (the interval
        excludes the fair share).
    """
    out = counts.copy()
    out["win_share"] = out["wins"] / out["games"]
    out["low"], out["high"] = wilson_interval(out["wins"], out["games"], z)
    out["fair"] = 1.0 / out["players"].astype(np.float64)
    out["advantage"] = out["win_share"] - out["fair"]
    out["significant"] = (out["low"] > out["fair"]) | (out["high"] < out["fair"])
    return out


def seat_test(
    df: pd.DataFrame,
    by: str | Sequence[str] = (),
    value: str = "win_share",
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Chi-square test that every seat wins equally often.

    Pearson's statistic on the seat that won each game: with ``G`` games, ``k`` players and
    ``W_s`` the sum of seat ``s``'s win shares, ``chi2 = sum_s (W_s - G/k)^2 / (G/k)`` on
    ``k - 1`` degrees of freedom. Tied wins are split (see the module notes).

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy results with ``game``, ``seat`` and ``players`` (inferred when absent).
    by : str or sequence of str, default ``()``
        Extra grouping columns; results are always split by player count.
    value : str, default ``"win_share"``
        Win share column.
    alpha : float, default 0.05
        Significance level for the ``significant`` column.

    Returns
    -------
    pandas.DataFrame
        One row per (``by``, players): ``games``, ``chi2``, ``dof``, ``p_value`` and
        ``significant`` (``p_value < alpha``): True means the seats are not equally strong.
    """
    return seat_test_counts(seat_advantage(df, by, value), by, alpha)


def seat_test_counts(
    seats: pd.DataFrame, by: str | Sequence[str] = (), alpha: float = 0.05
) -> pd.DataFrame:
    """:func:`seat_test` from an already counted seat table.

    Parameters
    ----------
    seats : pandas.DataFrame
        A table like :func:`seat_advantage` returns: ``players``, ``seat``, ``games`` and
        ``wins`` (sum of win shares) per seat, plus the ``by`` columns. Useful to test tables
        pooled over several runs without keeping their rows.
    by : str or sequence of str, default ``()``
        Extra grouping columns.
    alpha : float, default 0.05
        Significance level for the ``significant`` column.

    Returns
    -------
    pandas.DataFrame
        One row per (``by``, players): ``games``, ``chi2``, ``dof``, ``p_value``,
        ``significant``.
    """
    keys = [*_as_list(by), "players"]
    rows = []
    for key, group in seats.groupby(keys, observed=True, sort=True):
        players = int(group["players"].iloc[0])
        games = int(group["games"].max())
        expected = games / players
        wins = np.zeros(players)
        wins[group[SEAT_COLUMN].to_numpy(np.int64)] = group["wins"].to_numpy(np.float64)
        chi2 = float(np.sum((wins - expected) ** 2) / expected) if expected > 0 else math.nan
        p_value = chi2_sf(chi2, players - 1) if players > 1 else math.nan
        rows.append(
            {
                **dict(zip(keys, key if isinstance(key, tuple) else (key,), strict=True)),
                "games": games,
                "chi2": chi2,
                "dof": players - 1,
                "p_value": p_value,
                "significant": bool(p_value < alpha),
            }
        )
    columns = [*keys, "games", "chi2", "dof", "p_value", "significant"]
    return pd.DataFrame(rows, columns=columns)


# --------------------------------------------------------------------------------------------
# Per-game measures: decisiveness and lead changes


def game_blocks(
    df: pd.DataFrame, columns: Sequence[str], by: str | Sequence[str] = ()
) -> Iterator[tuple[dict[str, Any], np.ndarray, np.ndarray]]:
    """Reshape tidy rows into per-game arrays, one block per group and player count.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy results (one row per game and seat; every game of a block has the same seats).
    columns : sequence of str
        Per-seat columns to gather.
    by : str or sequence of str, default ``()``
        Grouping columns that tell runs apart (game indices repeat between runs, e.g. one run
        per fan). Player count is always a grouping key.

    Yields
    ------
    key : dict
        The group's ``by`` values and ``players``.
    games : numpy.ndarray
        Game indices, shape ``(n_games,)``, ascending.
    values : numpy.ndarray
        float64, shape ``(n_games, players, len(columns))``, seats in order 0..players-1.
    """
    frame = _with_players(df)
    keys = [*_as_list(by), "players"]
    for key, group in frame.groupby(keys, observed=True, sort=True):
        key_values = key if isinstance(key, tuple) else (key,)
        players = int(key_values[-1])
        games = group[GAME_COLUMN].to_numpy()
        seats = group[SEAT_COLUMN].to_numpy()
        # simulate() already yields rows sorted by (game, seat); sort only when needed.
        if not (np.all(np.diff(games) >= 0) and _seats_tiled(seats, players)):
            group = group.sort_values([GAME_COLUMN, SEAT_COLUMN], kind="stable")
            games = group[GAME_COLUMN].to_numpy()
            seats = group[SEAT_COLUMN].to_numpy()
        if len(group) % players or not _seats_tiled(seats, players):
            where = dict(zip(keys, key_values, strict=True))
            raise ValueError(
                f"group {where}: every game needs exactly one row per seat 0..{players - 1}"
            )
        values = group[list(columns)].to_numpy(np.float64).reshape(-1, players, len(columns))
        yield dict(zip(keys, key_values, strict=True)), games[::players], values


def winning_margins(
    df: pd.DataFrame, by: str | Sequence[str] = (), score: str = "score"
) -> pd.DataFrame:
    """Winning margin of every game: winner's score minus runner-up's score.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy results with ``game``, ``seat``, ``players`` and a score column.
    by : str or sequence of str, default ``()``
        Columns that tell runs apart (e.g. ``["fan", "policy_lineup"]``).
    score : str, default ``"score"``
        Score column (points).

    Returns
    -------
    pandas.DataFrame
        One row per game: the ``by`` columns, ``players``, ``game`` and ``margin`` (points,
        highest minus second-highest score; 0 when the top score is tied and a tie-break or a
        shared win decided the game).
    """
    keys = [*_as_list(by), "players"]
    parts = []
    for key, games, values in game_blocks(df, [score], by):
        ordered = np.sort(values[:, :, 0], axis=1)
        part = pd.DataFrame({GAME_COLUMN: games, "margin": ordered[:, -1] - ordered[:, -2]})
        for name, v in key.items():
            part.insert(0, name, v)
        parts.append(part)
    return _concat(parts, [*keys, GAME_COLUMN, "margin"])


def decisiveness(
    df: pd.DataFrame, by: str | Sequence[str] = (), score: str = "score"
) -> pd.DataFrame:
    """How clearly games are won: summary of :func:`winning_margins`.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy results.
    by : str or sequence of str, default ``()``
        Columns that tell runs apart; player count is always a key.
    score : str, default ``"score"``
        Score column (points).

    Returns
    -------
    pandas.DataFrame
        One row per group: ``games``, ``mean_margin`` and ``median_margin`` (points) and
        ``tied_on_points`` (share of games whose top score was tied, 0..1).
    """
    margins = winning_margins(df, by, score)
    keys = [*_as_list(by), "players"]
    grouped = margins.groupby(keys, observed=True, sort=True)["margin"]
    out = grouped.agg(games="size", mean_margin="mean", median_margin="median").reset_index()
    out["tied_on_points"] = grouped.apply(lambda m: float((m == 0).mean())).to_numpy()
    return out


def trace_prefix(df: pd.DataFrame) -> str:
    """The per-round trace prefix that the game of ``df`` declares
    (:attr:`~fairysim.sim.game.GameSpec.trace_prefix`), read from the frame's
    ``attrs["fairysim"]["game"]`` (set by ``simulate`` and saved runs).

    Raises
    ------
    ValueError
        Where the frame does not say its game, or its game records no trace.
    """
    from fairysim.sim.game import games

    game = (df.attrs.get("fairysim") or {}).get("game")
    spec = games().get(game) if isinstance(game, str) else None
    if spec is None:
        raise ValueError("the frame does not say its game: give the trace column prefix")
    if spec.trace_prefix is None:
        raise ValueError(f"{spec.title}'s engine records no per-round totals")
    return spec.trace_prefix


def trace_columns(df: pd.DataFrame, prefix: str | None = None) -> list[str]:
    """The per-round trace columns ``prefix1 .. prefixN`` of a frame.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy results.
    prefix : str, optional
        Column prefix; default: the one the frame's game declares (:func:`trace_prefix`).

    Returns
    -------
    list of str
        Matching columns in round order (``_2`` before ``_10``).
    """
    prefix = trace_prefix(df) if prefix is None else prefix
    pattern = re.compile(re.escape(prefix) + r"(\d+)$")
    found = [(int(m.group(1)), c) for c in df.columns if (m := pattern.match(str(c)))]
    return [c for _, c in sorted(found)]


def lead_changes(
    df: pd.DataFrame, by: str | Sequence[str] = (), prefix: str | None = None
) -> pd.DataFrame:
    """Number of lead changes of every game, from per-round running totals.

    The leader after a round is the seat with the strictly highest running total. A lead change
    is counted when a seat takes the sole lead from a different seat that held it earlier; a
    tie at the top does not change the lead (the last sole leader stays the reference), and
    the first sole leader is not a change.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy results with trace columns (``simulate(..., trace=True)``).
    by : str or sequence of str, default ``()``
        Columns that tell runs apart; player count is always a key.
    prefix : str, optional
        Prefix of the running-total columns (points after each round); default: the one the
        frame's game declares (:func:`trace_prefix`).

    Returns
    -------
    pandas.DataFrame
        One row per game: the ``by`` columns, ``players``, ``game`` and ``lead_changes``
        (count).
    """
    prefix = trace_prefix(df) if prefix is None else prefix
    columns = trace_columns(df, prefix)
    if not columns:
        raise ValueError(f"no trace columns {prefix}1.. in the frame; run simulate(trace=True)")
    keys = [*_as_list(by), "players"]
    parts = []
    for key, games, values in game_blocks(df, columns, by):
        parts.append(_lead_change_counts(values, key, games))
    return _concat(parts, [*keys, GAME_COLUMN, "lead_changes"])


def lead_change_summary(
    df: pd.DataFrame, by: str | Sequence[str] = (), prefix: str | None = None
) -> pd.DataFrame:
    """Summary of :func:`lead_changes` per group.

    Parameters
    ----------
    df : pandas.DataFrame
        Tidy results with trace columns.
    by : str or sequence of str, default ``()``
        Columns that tell runs apart; player count is always a key.
    prefix : str, optional
        Prefix of the running-total columns; default: the frame's game's.

    Returns
    -------
    pandas.DataFrame
        One row per group: ``games``, ``mean_lead_changes`` (changes per game) and
        ``no_lead_change`` (share of games the first sole leader was never overtaken, 0..1).
    """
    changes = lead_changes(df, by, prefix)
    keys = [*_as_list(by), "players"]
    grouped = changes.groupby(keys, observed=True, sort=True)["lead_changes"]
    out = grouped.agg(games="size", mean_lead_changes="mean").reset_index()
    out["no_lead_change"] = grouped.apply(lambda c: float((c == 0).mean())).to_numpy()
    return out


# --------------------------------------------------------------------------------------------
# Helpers


def sole_leaders(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each game's leader after each round, and whether that lead is its alone.

    Parameters
    ----------
    values : numpy.ndarray
        Running totals of shape (games, seats, rounds).

    Returns
    -------
    leader, sole : numpy.ndarray
        Of shape (games, rounds): the seat with the highest total (the first of a tie) and
        whether no other seat has as much.
    """
    top = values.max(axis=1, keepdims=True)
    sole = (values == top).sum(axis=1) == 1
    return values.argmax(axis=1), sole


def count_lead_changes(leader: np.ndarray, sole: np.ndarray) -> np.ndarray:
    """Lead changes per game (see :func:`lead_changes`), from :func:`sole_leaders`: a sole
    leader other than the last sole leader; a tie at the top changes nothing."""
    n, rounds = leader.shape
    last = np.full(n, -1, np.int64)
    count = np.zeros(n, np.int64)
    for r in range(rounds):
        count += sole[:, r] & (last >= 0) & (leader[:, r] != last)
        last = np.where(sole[:, r], leader[:, r], last)
    return count


def _lead_change_counts(values: np.ndarray, key: dict[str, Any], games: np.ndarray) -> pd.DataFrame:
    """Vectorised over games: walk the rounds keeping the last sole leader per game."""
    count = count_lead_changes(*sole_leaders(values))
    part = pd.DataFrame({GAME_COLUMN: games, "lead_changes": count})
    for name, v in reversed(key.items()):
        part.insert(0, name, v)
    return part


def _seats_tiled(seats: np.ndarray, players: int) -> bool:
    """True when ``seats`` is 0..players-1 repeated game after game."""
    if seats.size % players:
        return False
    expected = np.broadcast_to(np.arange(players), (seats.size // players, players))
    return bool(np.array_equal(seats.reshape(-1, players), expected))


def _with_players(df: pd.DataFrame) -> pd.DataFrame:
    """The frame with a ``players`` column (inferred from the distinct seats when absent)."""
    if "players" in df.columns:
        return df
    return df.assign(players=int(df[SEAT_COLUMN].nunique()))


def _as_list(by: str | Sequence[str] | None) -> list[str]:
    if by is None:
        return []
    if isinstance(by, str):
        return [by]
    return list(by)


def _concat(parts: list[pd.DataFrame], columns: list[str]) -> pd.DataFrame:
    if not parts:
        return pd.DataFrame(columns=columns)
    out = pd.concat(parts, ignore_index=True)
    return out[columns]


__all__ = [
    "CORRECTIONS",
    "Z_95",
    "PairedDifference",
    "adjust_p_values",
    "chi2_sf",
    "correct_verdicts",
    "count_lead_changes",
    "decisiveness",
    "excludes",
    "flag_difference",
    "game_blocks",
    "lead_change_summary",
    "lead_changes",
    "max_gap",
    "multipletests",
    "normal_p_value",
    "paired_difference",
    "proportion_p_value",
    "seat_advantage",
    "seat_advantage_counts",
    "seat_test",
    "seat_test_counts",
    "significance_label",
    "sole_leaders",
    "trace_columns",
    "trace_prefix",
    "wilson_interval",
    "win_rates",
    "winning_margins",
]
