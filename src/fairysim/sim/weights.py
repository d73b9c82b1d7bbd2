"""A policy's weights set from text: ``[seat or policy:]name=value`` items, as ``--weights`` and a
what-if setup's ``weights=`` give them."""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.sim.policy import Policy


def apply_weights(policies: Sequence[Policy], spec: str | None) -> tuple[Policy, ...]:
    """Seat policies with the weights of ``--weights`` changed.

    Parameters
    ----------
    policies : sequence of Policy
        One per seat.
    spec : str or None
        Comma-separated ``[TARGET:]NAME=VALUE`` items. Without a target, the weight ``NAME`` is
        set on every seat whose policy has it; a target is a seat number (0 = first seat, as in
        the results) or a policy name (``hoarder``, ``mymodule:my_policy``), and the item then
        changes only those seats.

    Returns
    -------
    tuple of Policy
        The seats' policies, with their new weights.

    Raises
    ------
    FairysimError
        Naming ``--weights`` for a malformed item, an unknown seat, policy or weight.

    Examples
    --------
    >>> from fairysim.sim.policy import builtin, weight
    >>> greedy = builtin("greedy", print, "takes the most", 0)
    >>> hoarder = builtin("hoarder", print, "keeps cards", 1, finale=weight(1.0, 0.0, 5.0))
    >>> apply_weights([greedy, hoarder], "hoarder:finale=2")[1].weights
    (2.0,)
    """
    seats = list(policies)
    if spec is None:
        return tuple(seats)
    given: dict[tuple[str, str], str] = {}
    for item in spec.split(","):
        key, sep, raw = item.strip().partition("=")
        target, _, name = key.strip().rpartition(":")
        name = name.strip()
        if not sep or not name:
            raise ParameterError("weights", f"{item.strip()!r} is not [seat or policy:]name=value")
        # The same weight of the same seats twice: which one the user meant is not for us to
        # guess (a later item for other seats, '1:w0=3' after 'w0=2', is fine).
        if (target.strip(), name) in given:
            first = given[target.strip(), name]
            raise ParameterError(
                "weights", f"{item.strip()!r} sets the same weight as {first!r}; give it once"
            )
        given[target.strip(), name] = item.strip()
        chosen = _weight_targets(seats, target.strip(), name, item.strip())
        value = _weight_value(seats, chosen, name, raw.strip(), item.strip())
        for seat in chosen:
            seats[seat] = seats[seat].with_weights(**{name: value})
    return tuple(seats)


def _weight_value(
    seats: Sequence[Policy], chosen: Sequence[int], name: str, raw: str, item: str
) -> float | str:
    """The value of ``name=raw``: a number, or a label of a labelled weight of the chosen seats
    (``default=greedy``), left for :meth:`Policy.with_weights` to look up."""
    try:
        value = float(raw)
    except ValueError:
        for seat in chosen:
            policy = seats[seat]
            if name in policy.weight_names and policy.ranges:
                labels = policy.ranges[policy.weight_names.index(name)].labels
                if raw in labels:
                    return raw
                if labels:
                    raise ParameterError(
                        "weights", f"{item!r}: {raw!r} is not one of {', '.join(labels)}"
                    ) from None
        raise ParameterError("weights", f"{item!r}: {raw!r} is not a number") from None
    if not math.isfinite(value):
        raise ParameterError("weights", f"{item!r}: the value must be finite")
    return value


def _weight_targets(seats: Sequence[Policy], target: str, name: str, item: str) -> list[int]:
    if target.isdigit():
        seat = int(target)
        if seat >= len(seats):
            raise ParameterError(
                "weights", f"{item!r}: there is no seat {seat} (seats are 0..{len(seats) - 1})"
            )
        return [seat]
    if target:
        chosen = [s for s, p in enumerate(seats) if p.name == target]
        if not chosen:
            played = ", ".join(dict.fromkeys(p.name for p in seats))
            raise ParameterError(
                "weights", f"{item!r}: no seat plays policy {target!r} (the seats play {played})"
            )
        return chosen
    chosen = [s for s, p in enumerate(seats) if name in p.weight_names]
    if not chosen:
        raise ParameterError(
            "weights", f"{item!r}: no seat's policy has a weight {name!r} ({_weights_of(seats)})"
        )
    return chosen


def _weights_of(seats: Sequence[Policy]) -> str:
    """The weights the seats' policies have, as an error lists the valid names."""
    named = {p.name: p.weight_names for p in seats}
    said = [f"{name} has {', '.join(weights)}" for name, weights in named.items() if weights]
    return "; ".join(said) if said else "no seat's policy has weights"


WEIGHTS_FILE_OPTION = "weights_file"
"""The parameter an error about a weights file names (the command line says ``--weights-file``)."""


def weights_file_text(policy: Policy, header: Sequence[str] = ()) -> str:
    """A weights file (TOML) holding ``policy``'s weights under its name: one table per
    policy, one key per weight, a labelled weight by its label. ``header`` lines become
    comments. :func:`load_weights_file` reads it back to the same weights."""
    lines = [f"# {line}" for line in header]
    lines.append(f"[{json.dumps(policy.name)}]")
    ranges = policy.ranges or (None,) * len(policy.weights)
    for name, value, allowed in zip(policy.weight_names, policy.weights, ranges, strict=True):
        shown = json.dumps(allowed.shown(value)) if allowed and allowed.labels else repr(value)
        lines.append(f"{name} = {shown}")
    return "\n".join(lines) + "\n"


def load_weights_file(path: str | Path, option: str = WEIGHTS_FILE_OPTION) -> str:
    """A weights file as ``--weights`` text (``balancer:finale=3.1,balancer:pick=2``), for
    :func:`apply_weights`: each ``[policy]`` table's weights set on the seats playing that
    policy, and nowhere else.

    Raises
    ------
    FairysimError
        Naming ``option``: a missing or unreadable file, TOML that does not parse, a key outside
        a ``[policy]`` table, a value that is neither a number nor a label.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ParameterError(option, f"cannot read {path} ({error.strerror or error})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ParameterError(option, f"{path} is not TOML ({error})") from None
    items = []
    for policy, table in data.items():
        if not isinstance(table, Mapping):
            raise ParameterError(
                option, f"{path}: {policy} = ... is outside a [policy] table of weights"
            )
        for name, value in table.items():
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise ParameterError(
                    option, f"{path}: [{policy}] {name} must be a number or a label"
                )
            items.append(
                f"{policy}:{name}={value!r}"
                if isinstance(value, float)
                else f"{policy}:{name}={value}"
            )
    if not items:
        raise ParameterError(option, f"{path} sets no weight")
    return ",".join(items)


def apply_weights_file(
    policies: Sequence[Policy], path: str | Path | None, option: str = WEIGHTS_FILE_OPTION
) -> tuple[Policy, ...]:
    """Seat policies with the weights of a weights file (:func:`load_weights_file`) set on the
    seats that play each policy it names; errors name ``option`` and the file."""
    if path is None:
        return tuple(policies)
    text = load_weights_file(path, option)
    try:
        return apply_weights(policies, text)
    except FairysimError as error:
        raise ParameterError(option, f"{path}: {error.message}") from None


__all__ = [
    "WEIGHTS_FILE_OPTION",
    "apply_weights",
    "apply_weights_file",
    "load_weights_file",
    "weights_file_text",
]
