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
    text = f"{100 * float(value):+.{digits}f}"
    # a difference that rounds to zero has no sign: "0.0 pp", never "-0.0 pp"
    return f"{text.lstrip('+-') if float(text) == 0 else text} pp"


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
    return f"[{f(low, _bound_digits(low, digits))}, {f(high, _bound_digits(high, digits))}]"


def _bound_digits(bound: float, digits: int) -> int:
    """Decimals enough that a bound off zero does not print as zero (so "[-23.5 pp, -0.04 pp]"
    reads as the interval that excludes 0 it is), at most three more than asked."""
    value = 100 * float(bound) if bound is not None and math.isfinite(float(bound)) else 0.0
    shown = digits
    while value and round(value, shown) == 0 and shown < digits + 3:
        shown += 1
    return shown


def fmt_p(p: float) -> str:
    """A (corrected) p-value: ``"0.012"``, ``"< 0.0001"`` below that, ``"n/a"`` for nan; never
    a bare ``"0"``."""
    if p is None or not math.isfinite(float(p)):
        return "n/a"
    p = float(p)
    return (
        "< 0.0001" if p < 1e-4 else f"{p:.2g}" if p < 0.01 else f"{p:.3f}".rstrip("0").rstrip(".")
    )


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


__all__ = ["fmt_interval", "fmt_intervals", "fmt_p", "fmt_percent", "fmt_points", "verdict"]
