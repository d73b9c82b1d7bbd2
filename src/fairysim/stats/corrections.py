"""Corrected families of comparisons: adjusted p-values, verdicts and the intervals beside them.

A report compares many things at once (seats, fans, setups). Each family is corrected with
statsmodels' ``multipletests`` and every comparison gets the interval whose verdict is the
corrected one, so a shown interval excludes the null exactly when the verdict says
"significant".

Interval constructions
----------------------
``holm`` (default, family-wise error): Holm's step-down test decides the comparison at sorted
step ``j`` (0-based) at level ``alpha / (m - j)``. A rejected comparison gets the normal interval
at the level of its own step; a comparison not rejected gets the interval at the level of the
first step that did not reject, ``alpha / (m - r)`` with ``r`` rejections. Since every rejected
p-value is at most its step's level and every other one exceeds ``alpha / (m - r)``, the interval
and the verdict always agree. These are the Bonferroni intervals of the step that decides each
comparison, never narrower than Bonferroni's ``alpha / m`` for the first step.

``fdr_bh`` (false discovery rate, for large families): Benjamini-Yekutieli's (2005) FCR-adjusted
intervals at level ``q R / m`` for the ``R`` selected (rejected) comparisons; the same level is
used to show the others (``max(R, 1)`` for ``R = 0``), where it always covers the null, since a
comparison BH does not select has ``p > q (R + 1) / m``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

METHODS = ("holm", "fdr_bh")
"""Corrections a family may use, as statsmodels names them."""


def correct_family(
    estimates: Any,
    ses: Any,
    *,
    null: Any = 0.0,
    method: str = "holm",
    alpha: float = 0.05,
    names: Any = None,
) -> pd.DataFrame:
    """One family of normal comparisons, corrected.

    Parameters
    ----------
    estimates, ses : array-like of float
        Each comparison's estimate and its standard error, in the same units (e.g. share of
        games). A comparison without a positive finite standard error is left out of the family
        and is never significant.
    null : float or array-like, default 0
        The value each estimate is tested against (0 for a difference, ``1/players`` for a
        seat's win share).
    method : {"holm", "fdr_bh"}, default "holm"
        See the module notes.
    alpha : float, default 0.05
        Family-wise error (Holm) or false discovery rate ``q`` (BH).
    names : array-like, optional
        Labels of the comparisons, kept as a ``name`` column.

    Returns
    -------
    pandas.DataFrame
        One row per comparison in input order: ``estimate``, ``se``, ``null``, ``p_value``
        (two-sided normal), ``p_adjusted``, ``significant``, ``level`` (the two-sided error
        rate of its interval), ``low``, ``high`` and ``method``.

    Examples
    --------
    >>> t = correct_family([0.03, 0.001], [0.01, 0.01])
    >>> t["significant"].tolist(), bool(t["low"][0] > 0), bool(t["low"][1] < 0 < t["high"][1])
    ([True, False], True, True)
    """
    from scipy.stats import norm

    from fairysim.stats.estimates import multipletests

    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    est = np.asarray(estimates, dtype=np.float64).ravel()
    se = np.asarray(ses, dtype=np.float64).ravel()
    null = np.broadcast_to(np.asarray(null, dtype=np.float64), est.shape)
    tested = np.isfinite(est) & np.isfinite(se) & (se > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.abs(est - null) / se
    p = np.where(tested, 2.0 * norm.sf(t), np.nan)
    p_adj = np.full(est.shape, np.nan)
    reject = np.zeros(est.shape, bool)
    level = np.full(est.shape, np.nan)
    m = int(tested.sum())
    if m:
        rej, adj, _, _ = multipletests(p[tested], alpha=alpha, method=method)
        p_adj[tested], reject[tested] = adj, rej
        r = int(rej.sum())
        if method == "holm":
            order = np.argsort(p[tested], kind="stable")
            step_level = np.empty(m)
            step_level[order] = alpha / (m - np.minimum(np.arange(m), r))
            level[tested] = step_level
        else:
            level[tested] = alpha * max(r, 1) / m
    z = norm.isf(level / 2.0)
    # Rounding guard: at |t| within a hair of its critical value, the verdict decides.
    z = np.where(reject & (z >= t), t * (1 - 1e-12), z)
    z = np.where(tested & ~reject & (z <= t), t * (1 + 1e-12), z)
    low = np.where(tested, est - z * se, np.nan)
    high = np.where(tested, est + z * se, np.nan)
    out = pd.DataFrame(
        {
            "estimate": est,
            "se": se,
            "null": null,
            "p_value": p,
            "p_adjusted": p_adj,
            "significant": reject,
            "level": level,
            "low": low,
            "high": high,
            "method": method,
        }
    )
    if names is not None:
        out.insert(0, "name", list(names))
    return out


CORRECTED = ("null", "p_value", "p_adjusted", "level", "low", "high", "significant")
"""Columns :func:`with_correction` adds to a table, each after its prefix."""


def with_correction(
    table: pd.DataFrame,
    value: str,
    se: str = "se",
    *,
    null: Any = 0.0,
    method: str = "holm",
    prefix: str = "",
    alpha: float = 0.05,
) -> pd.DataFrame:
    """``table`` with its rows corrected as one family of comparisons (:func:`correct_family`).

    Parameters
    ----------
    table : pandas.DataFrame
        One comparison per row.
    value, se : str
        Columns of the estimate and its standard error.
    null : float, array-like or str, default 0
        The reference of each comparison, or the name of a column holding it.
    method : {"holm", "fdr_bh"}, default "holm"
        The correction.
    prefix : str, default ""
        Put before the added column names (``"lift_"`` gives ``lift_low``, ...), for a table
        holding more than one family.
    alpha : float, default 0.05
        Error rate of the family (a run played to a precision passes its look's share,
        :mod:`fairysim.stats.precision`).

    Returns
    -------
    pandas.DataFrame
        A copy with the columns of :data:`CORRECTED`, prefixed; a page checks that each
        row's interval and verdict agree.
    """
    out = table.copy()
    if out.empty:
        for column in CORRECTED:
            out[prefix + column] = pd.Series(dtype=bool if column == "significant" else float)
        return out
    reference = out[null].to_numpy(np.float64) if isinstance(null, str) else null
    family = correct_family(
        out[value].to_numpy(np.float64),
        out[se].to_numpy(np.float64),
        null=reference,
        method=method,
        alpha=alpha,
    )
    for column in CORRECTED:
        out[prefix + column] = family[column].to_numpy()
    return out


def verdict_prefixes(table: pd.DataFrame) -> list[str]:
    """The prefixes of the corrected families a table holds (``""`` for ``low``/``high``/
    ``significant``, ``"lift_"`` for ``lift_low``/...): every ``<prefix>significant`` column
    with its ``<prefix>low`` and ``<prefix>high``."""
    found = []
    for column in table.columns:
        name = str(column)
        if name.endswith("significant"):
            prefix = name[: -len("significant")]
            if f"{prefix}low" in table.columns and f"{prefix}high" in table.columns:
                found.append(prefix)
    return found


def interval_agrees(table: pd.DataFrame, prefix: str = "") -> pd.Series:
    """True on every row whose interval excludes its null exactly when it is significant.

    Parameters
    ----------
    table : pandas.DataFrame
        A table with ``low``, ``high``, ``significant`` and ``null`` (0 where absent), as
        :func:`correct_family` and :func:`with_correction` write them.
    prefix : str, default ""
        The family's column prefix (:func:`verdict_prefixes`).

    Returns
    -------
    pandas.Series of bool
        A report checks ``interval_agrees(t).all()`` on every table it writes.
    """
    null_column = f"{prefix}null"
    null = table[null_column] if null_column in table.columns else 0.0
    low, high = table[f"{prefix}low"], table[f"{prefix}high"]
    excludes = (low > null) | (high < null)
    return excludes.fillna(False).astype(bool) == table[f"{prefix}significant"].astype(bool)


__all__ = [
    "CORRECTED",
    "METHODS",
    "correct_family",
    "interval_agrees",
    "verdict_prefixes",
    "with_correction",
]
