"""A tournament's entries: each a policy with its weights, and a label that tells it apart.

An entry is given as a policy name (a built-in or ``module:function``), as ``NAME@FILE`` (the
policy with the weights of the ``[NAME]`` table of a weights file, ``best-response``'s
``weights.toml``), or from Python as a :class:`~fairysim.sim.policy.Policy` (with whatever
weights it carries). So a searched response and the same policy at its defaults sit in one
tournament as two entries: ``balancer,balancer@out/weights.toml``. A tournament-wide weights
file (``weights_file``, ``--weights-file``) sets the weights of every entry playing a policy it
names, before an entry's own file. The label is the entry as given (``balancer@out/weights.toml``)
or, for a Policy, its name; labels given twice get ``#2``, ``#3``
(:func:`fairysim.sim.rotation.entry_labels`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.sim.game import GameSpec
from fairysim.sim.policy import Policy, resolve_policies
from fairysim.sim.rotation import entry_labels
from fairysim.sim.weights import apply_weights, apply_weights_file, load_weights_file

WEIGHTS_MARK = "@"
"""What separates an entry's policy from its weights file (``balancer@weights.toml``)."""


@dataclass(frozen=True)
class Entries:
    """The entries of a tournament: ``labels`` (distinct) and the ``policies`` they seat."""

    labels: tuple[str, ...]
    policies: tuple[Policy, ...]

    def seat_weights(self, seated: Sequence[int]) -> str:
        """The weights of a lineup of entries as ``--weights`` text addressed by seat
        (``0:finale=3.1,...``), so that a worker rebuilding the lineup from names plays the same
        weights."""
        return ",".join(
            f"{seat}:{name}={value!r}"
            for seat, entry in enumerate(seated)
            for name, value in zip(
                self.policies[entry].weight_names, self.policies[entry].weights, strict=True
            )
        )


def entry_items(policies: str | Policy | Sequence[str | Policy]) -> list[str | Policy]:
    """The entries as a list: a string split at its commas, a Policy alone, or the sequence."""
    if isinstance(policies, str):
        return [p.strip() for p in policies.split(",")]
    if isinstance(policies, Policy):
        return [policies]
    return list(policies)


def resolve_entries(
    spec: GameSpec,
    items: Sequence[str | Policy],
    weights_file: str | None = None,
    option: str = "policies",
    labels: Sequence[str] | None = None,
) -> Entries:
    """Each entry as a :class:`Policy` with its weights, and its label (``labels`` where given,
    one per entry).

    Raises
    ------
    FairysimError
        Naming ``option`` for an unknown policy or an entry's weights file that cannot be read
        or has no table for the entry's policy; naming ``weights_file`` for the tournament-wide
        file.
    """
    names, files = [], []
    for item in items:
        if isinstance(item, str) and WEIGHTS_MARK in item:
            name, _, path = item.partition(WEIGHTS_MARK)
            if not name.strip() or not path.strip():
                raise ParameterError(option, f"{item!r} is not POLICY@WEIGHTS_FILE")
            names.append(name.strip())
            files.append(path.strip())
        else:
            names.append(item)
            files.append(None)
    resolved = resolve_policies(names, len(names), spec.policies, option)
    resolved = apply_weights_file(resolved, weights_file)
    policies = tuple(
        policy if path is None else _with_file(policy, path, option)
        for policy, path in zip(resolved, files, strict=True)
    )
    if labels is None:
        labels = [item if isinstance(item, str) else item.name for item in items]
    elif len(labels) != len(items):
        raise ParameterError(option, f"{len(labels)} labels for {len(items)} entries")
    return Entries(entry_labels(labels), policies)


def _with_file(policy: Policy, path: str, option: str) -> Policy:
    """``policy`` with the weights of its table in the weights file ``path``."""
    items = [
        item
        for item in load_weights_file(path, option).split(",")
        if item.partition("=")[0].rpartition(":")[0] == policy.name
    ]
    if not items:
        raise ParameterError(option, f"{path} has no [{policy.name}] table of weights")
    try:
        (weighted,) = apply_weights([policy], ",".join(items))
    except FairysimError as error:
        raise ParameterError(option, f"{path}: {error.message}") from None
    return weighted


__all__ = ["WEIGHTS_MARK", "Entries", "entry_items", "resolve_entries"]
