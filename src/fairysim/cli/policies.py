"""``fairysim policies <game>``: the built-in policies, their weights and what they do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from fairysim.cli.common import handle_errors, stdout_console
from fairysim.cli.concerto import policies_concerto

if TYPE_CHECKING:
    from fairysim.sim.policy import Policy

app = typer.Typer(
    help="List the built-in policies of a game with their default weights.",
    no_args_is_help=True,
)


@app.command("fantastique")
@handle_errors
def fantastique() -> None:
    """List Fantastique's built-in policies (names for --policy, weights for --weights)."""
    from fairysim.sim.fantastique import POLICIES

    stdout_console().print(policy_table("Fantastique policies", POLICIES))


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
    table.add_column("weights")
    table.add_column("description")
    for name, policy in policies.items():
        weights = ", ".join(
            f"{w}={v:g}" for w, v in zip(policy.weight_names, policy.weights, strict=True)
        )
        table.add_row(name, weights or "-", policy.description)
    return table


app.command("concerto")(policies_concerto)
