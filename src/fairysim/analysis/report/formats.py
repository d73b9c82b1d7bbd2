"""How reports write numbers and verdicts: shares as percentages, differences as percentage
points, 95 % intervals, and the plain words for a significance test.

Game-independent; every report's tables and sentences use these, so the same number reads the
same way everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def fmt_percent(value: float, digits: int = 1) -> str:
    """A share as a percentage: ``0.273 -> "27.3%"``; ``"n/a"`` for nan.

    Parameters
    ----------
    value : float
        Share (0..1).
    digits : int, default 1
        Decimals.

    Returns
    -------
    str
    """
    if value is None or not math.isfinite(float(value)):
        return "n/a"
    return f"{100 * float(value):.{digits}f}%"


def fmt_points(value: float, digits: int = 1) -> str:
    """A difference of shares in signed percentage points: ``0.031 -> "+3.1 pp"``.

    Parameters
    ----------
    value : float
        Difference of two shares.
    digits : int, default 1
        Decimals.

    Returns
    -------
    str
    """
    if value is None or not math.isfinite(float(value)):
        return "n/a"
    return f"{100 * float(value):+.{digits}f} pp"


def fmt_interval(low: float, high: float, points: bool = False, digits: int = 1) -> str:
    """A 95 % interval as text: ``"[24.1%, 30.2%]"`` or ``"[-1.0 pp, +2.3 pp]"``.

    Parameters
    ----------
    low, high : float
        Bounds (shares, or differences of shares with ``points``).
    points : bool, default False
        Format as signed percentage points.
    digits : int, default 1
        Decimals.

    Returns
    -------
    str
    """
    f = fmt_points if points else fmt_percent
    return f"[{f(low, digits)}, {f(high, digits)}]"


def fmt_intervals(
    low: Iterable[float], high: Iterable[float], points: bool = False, digits: int = 1
) -> list[str]:
    """:func:`fmt_interval` of every pair of bounds, for a table column.

    Parameters
    ----------
    low, high : iterable of float
        Bounds, aligned (the same length).
    points : bool, default False
        Format as signed percentage points.
    digits : int, default 1
        Decimals.

    Returns
    -------
    list of str
    """
    return [fmt_interval(lo, hi, points, digits) for lo, hi in zip(low, high, strict=True)]


def verdict(significant: bool | float) -> str:
    """The plain words for a test's outcome: ``"significant"`` or ``"not significant"``.

    Parameters
    ----------
    significant : bool or float
        The test's flag; nan where nothing was tested (a baseline against itself).

    Returns
    -------
    str
        ``""`` for nan.
    """
    if isinstance(significant, float) and math.isnan(significant):
        return ""
    return "significant" if bool(significant) else "not significant"


__all__ = ["fmt_interval", "fmt_intervals", "fmt_percent", "fmt_points", "verdict"]
