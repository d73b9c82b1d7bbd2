"""The weights a best-response search moves: which ones, between which bounds, from where.

A policy's weights are searched within its declared :class:`~fairysim.sim.policy.WeightRange`
(or a narrower range the user gives). A labelled weight (``rollout``'s play-out policy) picks one
of several things, not a point on a scale, so it stays at its value; an integer weight is
searched as a number and rounded. A user policy declares no ranges, so each of its searched
weights needs one given.

The search starts at the policy's weights (its defaults, or what ``--weights`` set), with a first
step per weight the size of that weight (a weight's scale is its value: 0.5 points per finale
card moves by about 0.5), at least a hundredth and at most a quarter of its range: a step of a
quarter of ``0 .. 100`` would start from weights no heuristic was written for.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from fairysim.runtime.errors import FairysimError
from fairysim.sim.policy import Policy

RANGE_OPTION = "--range"
"""What an error about a searched range names."""


@dataclass(frozen=True)
class WeightSpace:
    """The searched weights of one policy: ``names`` with their ``low``/``high`` bounds and
    ``integer`` flags; the start ``x0`` and the first steps ``steps``, in weight units."""

    policy: Policy
    names: tuple[str, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    integer: tuple[bool, ...]
    x0: tuple[float, ...]
    steps: tuple[float, ...]

    def weights(self, x: Any) -> dict[str, float]:
        """The weights of search point ``x``: clipped into the bounds, integers rounded."""
        out = {}
        for i, name in enumerate(self.names):
            value = min(max(float(x[i]), self.low[i]), self.high[i])
            out[name] = float(round(value)) if self.integer[i] else value
        return out

    def point(self, weights: Mapping[str, float]) -> np.ndarray:
        """The search point of ``weights`` (the inverse of :meth:`weights` on its image)."""
        return np.array([float(weights[name]) for name in self.names])

    def ranges_text(self) -> str:
        """The searched ranges as ``--range`` takes them (``finale=0:100,pick=0:100``)."""
        return ",".join(
            f"{n}={lo:g}:{hi:g}" for n, lo, hi in zip(self.names, self.low, self.high, strict=True)
        )


def parse_ranges(text: str | None, option: str = RANGE_OPTION) -> dict[str, tuple[float, float]]:
    """``name=low:high,...`` as a mapping; an error naming ``option`` for a malformed item."""
    ranges: dict[str, tuple[float, float]] = {}
    if not text:
        return ranges
    for item in text.split(","):
        name, sep, bounds = item.strip().partition("=")
        low, colon, high = bounds.partition(":")
        try:
            pair = (float(low), float(high))
        except ValueError:
            pair = None
        if not sep or not colon or not name.strip() or pair is None:
            raise FairysimError(option, f"{item.strip()!r} is not name=low:high")
        if name.strip() in ranges:
            raise FairysimError(option, f"{name.strip()!r} is given twice")
        ranges[name.strip()] = pair
    return ranges


def weight_space(
    policy: Policy,
    ranges: Mapping[str, tuple[float, float]] | None = None,
    option: str = RANGE_OPTION,
) -> WeightSpace:
    """The :class:`WeightSpace` of ``policy``: every weight but the labelled ones, within its
    declared range or the narrower one ``ranges`` gives.

    Raises
    ------
    FairysimError
        Naming ``--policy`` for a policy with no weight to search; naming ``option`` for a range
        of a weight the policy lacks or does not search, an empty or non-finite range, a range
        outside the weight's declared one, or a user policy's weight without a range.
    """
    ranges = dict(ranges or {})
    searched = [
        i for i in range(len(policy.weights)) if not (policy.ranges and policy.ranges[i].labels)
    ]
    if not searched:
        raise FairysimError(
            "--policy",
            f"policy {policy.name} has no weight to search"
            + (f" (only {', '.join(policy.weight_names)})" if policy.weight_names else ""),
        )
    for name in ranges:
        if name not in policy.weight_names:
            known = ", ".join(policy.weight_names[i] for i in searched)
            raise FairysimError(option, f"policy {policy.name} has no weight {name!r} ({known})")
        if policy.weight_names.index(name) not in searched:
            raise FairysimError(option, f"{name} picks one of several things; it is not searched")
    names, lows, highs, integers, x0, steps = [], [], [], [], [], []
    for i in searched:
        name = policy.weight_names[i]
        declared = policy.ranges[i] if policy.ranges else None
        if name in ranges:
            low, high = ranges[name]
        elif declared is not None:
            low, high = declared.low, declared.high
        else:
            raise FairysimError(
                option, f"policy {policy.name} declares no range for {name}: give {name}=low:high"
            )
        if not (math.isfinite(low) and math.isfinite(high)) or low >= high:
            raise FairysimError(option, f"{name}={low:g}:{high:g} is not a range (low < high)")
        if declared is not None and not (declared.low <= low and high <= declared.high):
            raise FairysimError(
                option,
                f"{name}={low:g}:{high:g} leaves what policy {policy.name} accepts "
                f"({declared.low:g} to {declared.high:g})",
            )
        start = min(max(policy.weights[i], low), high)
        width = high - low
        names.append(name)
        lows.append(float(low))
        highs.append(float(high))
        integers.append(bool(declared is not None and declared.integer))
        x0.append(float(start))
        steps.append(float(min(width / 4, max(abs(start), width / 100))))
    return WeightSpace(
        policy, tuple(names), tuple(lows), tuple(highs), tuple(integers), tuple(x0), tuple(steps)
    )


__all__ = ["RANGE_OPTION", "WeightSpace", "parse_ranges", "weight_space"]
