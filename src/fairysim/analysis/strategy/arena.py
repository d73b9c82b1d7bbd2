"""Where a candidate plays: policy P at one seat, the field at the others, every seat rotated on
identical deals (the tournament's design, :mod:`fairysim.sim.rotation`).

The lineup is ``(P, f_k, f_k+1, ..)``: the field's F policies fill the other N-1 seats in the
order given, cycling. So that each of them sits at the table equally often whatever F and N (field
``greedy,hoarder`` at 4 players would otherwise seat greedy twice and hoarder once), the deals are
cut into F blocks as equal as they can be and block ``k`` starts the field at its ``k``-th policy
(``P, hoarder, greedy, hoarder`` in the second). Deal ``g`` is played once per seat rotation,
rotation ``r`` putting entry ``(s + r) mod N`` at seat ``s``, so P meets every seat on every deal,
and P's result on a deal is its mean over the N rotations
(:func:`fairysim.sim.rotation.entry_means`). Game ``g`` of a
seed depends on ``(seed, g)`` only, so every candidate plays the same deals (common random
numbers) and a range of game indices the search never played is fresh.

Weights travel in the engines' weight arrays, never as compile-time constants: a new candidate
compiles nothing (a test counts compiles).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import DEFAULT_CHUNK_GAMES
from fairysim.sim.game import GameSpec, get_game
from fairysim.sim.policy import Policy, resolve_policies
from fairysim.sim.rotation import entry_means, play_rotations, rotated_setups


@dataclass(frozen=True)
class Arena:
    """A checked table for P: the game, P, the field's policies, the player count, the seed, the
    card set and the setup axes."""

    spec: GameSpec
    policy: Policy
    field: tuple[Policy, ...]
    players: int
    seed: int
    cards: Any
    axes: tuple[tuple[str, Any], ...] = ()
    threads: int | None = None

    def others(self, block: int = 0) -> tuple[Policy, ...]:
        """The field's policies at seats 1 .. N-1 of rotation 0 in deal block ``block``,
        starting at the field's ``block``-th policy and cycling."""
        f = len(self.field)
        return tuple(self.field[(block + i) % f] for i in range(self.players - 1))

    def lineup(self, policy: Policy, block: int = 0) -> tuple[Policy, ...]:
        """Rotation 0's seats in deal block ``block`` with ``policy`` in P's place."""
        return (policy, *self.others(block))

    def blocks(self, first_game: int, deals: int) -> list[tuple[int, int, int]]:
        """``(block, first game, deals)`` of each field block of these deals (empty ones left
        out)."""
        bounds = np.linspace(0, deals, len(self.field) + 1).round().astype(int)
        return [
            (k, first_game + int(lo), int(hi - lo))
            for k, (lo, hi) in enumerate(pairwise(bounds))
            if hi > lo
        ]

    def play(
        self, weights: Mapping[str, float | str], first_game: int, deals: int
    ) -> dict[str, np.ndarray]:
        """P with ``weights`` changed, on deals ``first_game .. first_game + deals - 1``: per
        deal, P's seat columns averaged over the rotations (shape ``(deals,)`` each)."""
        candidate = self.policy.with_weights(**weights) if weights else self.policy
        parts: dict[str, list[np.ndarray]] = {name: [] for name in self.spec.seat_columns}
        for block, first, count in self.blocks(first_game, deals):
            setup = self.spec.make_setup(
                players=self.players,
                policies=list(self.lineup(candidate, block)),
                seed=self.seed,
                cards=self.cards,
                **dict(self.axes),
            )
            chunks = play_rotations(
                self.spec,
                rotated_setups(setup),
                count,
                first_game=first,
                chunk_games=DEFAULT_CHUNK_GAMES,
                threads=self.threads,
            )
            for _, rotations in chunks:
                means = entry_means(self.spec, rotations)
                for name in parts:
                    parts[name].append(means[name][:, 0])
        return {name: np.concatenate(values) for name, values in parts.items()}

    def task(self) -> ArenaTask:
        """This arena as plain data a worker process rebuilds it from."""
        return ArenaTask(
            self.spec.name,
            self.policy.name,
            tuple(self.policy.weights),
            tuple(p.name for p in self.field),
            tuple(tuple(p.weights) for p in self.field),
            self.players,
            self.seed,
            self.cards,
            self.axes,
        )


@dataclass(frozen=True)
class ArenaTask:
    """An :class:`Arena` by names and weights (picklable: no compiled function in it)."""

    game: str
    policy: str
    weights: tuple[float, ...]
    field: tuple[str, ...]
    field_weights: tuple[tuple[float, ...], ...]
    players: int
    seed: int
    cards: Any
    axes: tuple[tuple[str, Any], ...]

    def arena(self, threads: int | None = None) -> Arena:
        """The arena, its policies resolved again in this process."""
        spec = get_game(self.game, "game")
        names = [self.policy, *self.field]
        resolved = resolve_policies(names, len(names), spec.policies)
        weights = [self.weights, *self.field_weights]
        policy, *field = (
            dataclasses.replace(p, weights=w) for p, w in zip(resolved, weights, strict=True)
        )
        return Arena(
            spec, policy, tuple(field), self.players, self.seed, self.cards, self.axes, threads
        )


def play_candidate(
    task: ArenaTask,
    weights: Mapping[str, float],
    first_game: int,
    deals: int,
    threads: int | None = None,
) -> dict[str, np.ndarray]:
    """:meth:`Arena.play` in a worker process (a Dask task)."""
    return task.arena(threads).play(weights, first_game, deals)


def make_arena(
    game: str | GameSpec,
    policy: str | Policy,
    field: str | Policy | Sequence[str | Policy],
    players: int,
    *,
    seed: int = 0,
    cards: Any = None,
    threads: int | None = None,
    **axes: Any,
) -> Arena:
    """The checked :class:`Arena`: every policy known, P and the field accepted at ``players``.

    Raises
    ------
    FairysimError
        Naming ``GAME``, ``--players``, ``--policy`` (P unknown or refused at this table),
        ``--field`` (an empty field, an unknown or refused policy), ``--seed``, ``--cards`` or an
        axis's option.
    """
    spec = game if isinstance(game, GameSpec) else get_game(game, "GAME")
    players = spec.check_players(players, "--players")
    if players < 2:
        raise FairysimError("--players", f"a best response needs an opponent, got {players}")
    card_set = cards if cards is not None and not _is_path(cards) else spec.load_cards(cards)
    (chosen,) = _resolved(spec, policy, "--policy")
    if isinstance(field, str):
        field = [name.strip() for name in field.split(",")]
    elif isinstance(field, Policy):
        field = [field]
    field_policies = _resolved(spec, list(field), "--field")
    arena = Arena(
        spec, chosen, field_policies, players, seed, card_set, tuple(axes.items()), threads
    )
    # The lineup once through the game's own checks: a policy the game refuses at this count (a
    # solo-only policy) or an axis it refuses fails here, before the first game.
    lineups = [("--policy", [chosen] * players)]
    lineups += [("--field", list(arena.lineup(chosen, k))) for k in range(len(field_policies))]
    for where, lineup in lineups:
        try:
            spec.make_setup(players=players, policies=lineup, seed=seed, cards=card_set, **axes)
        except FairysimError as error:
            if error.where in ("--policy", "policies"):
                raise FairysimError(where, error.message) from None
            raise
    return arena


def _resolved(spec: GameSpec, policies: Any, option: str) -> tuple[Policy, ...]:
    """Each of ``policies`` as a :class:`Policy`, errors naming ``option``."""
    items = policies if isinstance(policies, list) else [policies]
    if not items or any(isinstance(p, str) and not p.strip() for p in items):
        raise FairysimError(option, "an empty policy name")
    try:
        return resolve_policies(items, len(items), spec.policies, option)
    except FairysimError as error:
        if error.where == "policies":
            raise FairysimError(option, error.message) from None
        raise


def _is_path(cards: Any) -> bool:
    import os

    return isinstance(cards, str | os.PathLike)


__all__ = ["Arena", "ArenaTask", "make_arena", "play_candidate"]
