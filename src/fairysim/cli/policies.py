"""``fairysim policies GAME``: the built-in policies, their weights and what they do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.table import Table

from fairysim.cli.by_game import game_group, game_names, make_command, spec_of
from fairysim.cli.common import handle_errors, stdout_console

if TYPE_CHECKING:
    from fairysim.sim.policy import Policy


def policies_command(name: str) -> Any:
    """The ``policies`` command of game ``name``."""
    spec = spec_of(name)

    def body() -> None:
        console = stdout_console()
        console.print(policy_table(f"{spec.title} policies", spec.policies))
        if spec.policies_note:
            console.print(spec.policies_note, soft_wrap=True)

    return make_command(
        handle_errors(body),
        [],
        f"List {spec.title}'s built-in policies (names for --policy, weights for --weights).",
    )


def policy_table(title: str, policies: Mapping[str, Policy]) -> Table:
    """A rich table of policies: name, default weights and description.

    Parameters
    ----------
    title : str
        Table title.
    policies : mapping of str to Policy
        A game's built-in policies by name.

    Returns
    -------
    rich.table.Table
        One row per policy; weights as ``name=value``.
    """
    table = Table(title=title)
    table.add_column("policy")
    table.add_column("weights (allowed range)")
    table.add_column("description")
    for name, policy in policies.items():
        ranges = policy.ranges or (None,) * len(policy.weights)
        weights = ", ".join(
            f"{w}={v:g}"
            if r is None
            else f"{w}={r.shown(v)} ({'/'.join(r.labels) or f'{r.low:g}..{r.high:g}'})"
            for w, v, r in zip(policy.weight_names, policy.weights, ranges, strict=True)
        )
        table.add_row(name, weights or "-", policy.description)
    return table


app = game_group(
    "List the built-in policies of a game with their default weights.",
    policies_command,
    game_names,
)
