"""``fairysim policies GAME``: the built-in policies, their weights and what they do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.table import Table

from fairysim.cli.by_game import game_group, game_names, make_command, spec_of, wording
from fairysim.cli.common import handle_errors, stdout_console

if TYPE_CHECKING:
    from fairysim.sim.policy import Policy


def policies_command(name: str) -> Any:
    """The ``policies`` command of game ``name``."""
    spec = spec_of(name)

    def body() -> None:
        console = stdout_console()
        words = wording(spec)
        console.print(policy_table(f"{spec.title} policies", spec.policies))
        for line in weight_lines(spec.policies, words.weights):
            console.print(line, soft_wrap=True, markup=False, highlight=False)
        if words.policies_note:
            console.print(words.policies_note, soft_wrap=True)

    return make_command(
        handle_errors(body),
        [],
        f"List {spec.title}'s built-in policies (names for --policy, weights for --weights).",
    )


def policy_table(title: str, policies: Mapping[str, Policy]) -> Table:
    """A rich table of policies: name, what it does and the names of its weights (each said
    in a sentence under the table, :func:`weight_lines`).

    Parameters
    ----------
    title : str
        Table title.
    policies : mapping of str to Policy
        A game's built-in policies by name.

    Returns
    -------
    rich.table.Table
        One row per policy.
    """
    table = Table(title=title)
    table.add_column("policy")
    table.add_column("description")
    table.add_column("weights")
    for name, policy in policies.items():
        table.add_row(name, policy.description, ", ".join(policy.weight_names) or "-")
    return table


def weight_lines(
    policies: Mapping[str, Policy], sentences: Mapping[str, Mapping[str, str]]
) -> list[str]:
    """What each weight of each policy does, one line a weight under its policy's name:
    ``name=default (range): sentence``, as ``--weights name=value`` sets it."""
    lines = []
    for name, policy in policies.items():
        if not policy.weight_names:
            continue
        if not lines:
            lines.append("Weights (set with --weights name=value or policy:name=value):")
        lines.append(f"{name}:")
        ranges = policy.ranges or (None,) * len(policy.weights)
        said = sentences.get(name, {})
        for weight, value, allowed in zip(policy.weight_names, policy.weights, ranges, strict=True):
            shown = f"{value:g}" if allowed is None else allowed.shown(value)
            span = "" if allowed is None else f" ({span_of(allowed)})"
            lines.append(f"  {weight}={shown}{span}: {said.get(weight, 'not described')}")
    return lines


def span_of(allowed: Any) -> str:
    """A weight's allowed values: its choices (``random/greedy``) or ``low to high``."""
    return "/".join(allowed.labels) if allowed.labels else f"{allowed.low:g} to {allowed.high:g}"


app = game_group(
    "List the built-in policies of a game with their default weights.",
    policies_command,
    game_names,
)
