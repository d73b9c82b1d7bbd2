"""How reports write numbers and verdicts: shares as percentages, differences as percentage
points, 95% intervals, and the plain words for a significance test.

Game-independent; every report's tables and sentences use these, so the same number reads the
same way everywhere: a share "24.8%", a difference of shares "+1.3 pp" (never "-0.0": a
difference that rounds to zero prints "0.0 pp"), an interval of shares "[22.8%, 27.1%]" and one of
differences "[-1.2, +3.4] pp".
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
    return f"{signed(value, digits)} pp"


def signed(value: float, digits: int = 1) -> str:
    """A difference of shares in percentage points without the unit, signed, never "-0.0":
    ``0.031 -> "+3.1"``, ``-0.00001 -> "0.0"``; ``"n/a"`` for nan.

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
    return text[1:] if float(text) == 0 else text


def fmt_interval(low: float, high: float, points: bool = False, digits: int = 1) -> str:
    """A 95% interval as text: ``"[24.1%, 30.2%]"`` or ``"[-1.0, +2.3] pp"``.

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
    if points:
        low_text = signed(low, _bound_digits(low, digits))
        return f"[{low_text}, {signed(high, _bound_digits(high, digits))}] pp"
    return f"[{fmt_percent(low, digits)}, {fmt_percent(high, digits)}]"


def _bound_digits(value: float, digits: int) -> int:
    """Decimals that keep a bound near 0 apart from 0 (``+0.02`` rather than ``0.0``), so an
    interval that excludes 0 never reads as touching it; at most three more than ``digits``, and
    ``digits`` for a bound that rounds to 0 even then."""
    if value is None or not math.isfinite(float(value)) or float(value) == 0:
        return digits
    for more in range(digits, digits + 4):
        if round(100 * abs(float(value)), more) != 0:
            return more
    return digits


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


def games_in_words(games: int, runs: int = 1) -> str:
    """The games behind a number: ``"16,000 games"``, or ``"16,000 games, each in 6 runs"``
    where the same deals were replayed in several runs (a clustered interval counts each game
    once, so every page names the distinct games).

    Parameters
    ----------
    games : int
        Distinct games (deals).
    runs : int, default 1
        Runs that replayed them.

    Returns
    -------
    str
    """
    return f"{int(games):,} games" + (f", each in {int(runs)} runs" if runs > 1 else "")


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


__all__ = [
    "fmt_interval",
    "fmt_intervals",
    "fmt_p",
    "fmt_percent",
    "fmt_points",
    "games_in_words",
    "signed",
    "verdict",
]
