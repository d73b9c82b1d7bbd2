"""The best-response rung of a report: the best heuristic's weights searched against the
game's built-ins, and whether the response is a dominant strategy.

At the game's default player count, P is the game's best heuristic (the top heuristic rung of
its ladder, :func:`fairysim.analysis.studies.base.best_heuristic`) and the field is every
built-in the game accepts at that count but its search player (too slow for a search's budget):
P itself at its defaults among them, so a response must beat its own starting point too. The
search (:func:`.best_response.best_response`) evaluates ``evaluations`` candidates on
:data:`GAMES` deals each, validates on :data:`VALIDATION_GAMES` fresh deals, and the dominance
verdict (:mod:`.dominance`) is judged on :data:`DOMINANCE_GAMES` deals after those, which
neither the search nor the validation played.

:func:`rung_verdict` is the verdict as plain data for a page's first screen: the question, the
verdict word, the weakest cell's interval, the band and the weights.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from os import PathLike
from typing import Any

from fairysim.analysis.strategy.arena import make_arena
from fairysim.analysis.strategy.best_response import BestResponse, best_response
from fairysim.analysis.strategy.dominance import BAND, Dominance, dominance
from fairysim.runtime.errors import FairysimError
from fairysim.sim.game import GameSpec

EVALUATIONS = 12
"""Candidates a report's search evaluates unless told (``--response-evaluations``)."""

GAMES = 200
"""Deals each candidate of a report's search plays (every seat rotated)."""

VALIDATION_GAMES = 1_500
"""Fresh deals on which a report compares the response with the starting weights."""

DOMINANCE_GAMES = 1_500
"""Fresh deals after those on which a report judges dominance."""

QUESTION = "Is there a dominant strategy?"


@dataclass
class ResponseRung:
    """The rung: the search's result (with its validation) and the dominance verdict."""

    result: BestResponse
    dominance: Dominance
    field: tuple[str, ...]

    @property
    def players(self) -> int:
        return self.result.players


def rung_field(spec: GameSpec, players: int, cards: Any = None) -> tuple[str, ...]:
    """The built-ins the game accepts at ``players`` seats, its search player left out."""
    accepted = []
    for name in spec.policies:
        if name == spec.search:
            continue
        try:
            spec.make_setup(players=players, policies=name, seed=0, cards=cards)
        except FairysimError:
            continue
        accepted.append(name)
    return tuple(accepted)


def response_rung(
    spec: GameSpec,
    *,
    policy: str,
    players: int,
    seed: int,
    evaluations: int = EVALUATIONS,
    cards: Any = None,
    threads: int | None = None,
    axes: Mapping[str, Any] | None = None,
) -> ResponseRung | None:
    """Search ``policy``'s best response to the game's built-ins at ``players`` and judge its
    dominance; None where ``evaluations`` is 0 or the policy has no weight to search."""
    axes = dict(axes or {})
    if not evaluations:
        return None
    card_set = (
        spec.load_cards(cards) if cards is None or isinstance(cards, str | PathLike) else cards
    )
    field = rung_field(spec, players, card_set)
    if not spec.policies[policy].weights:
        return None
    result = best_response(
        spec,
        policy,
        list(field),
        players,
        cards=card_set,
        seed=seed,
        evaluations=evaluations,
        games=GAMES,
        validation_games=VALIDATION_GAMES,
        threads=threads,
        **axes,
    )
    arena = make_arena(spec, policy, list(field), players, seed=seed, cards=card_set, **axes)
    verdict = dominance(arena, result.weights, GAMES + VALIDATION_GAMES, DOMINANCE_GAMES)
    return ResponseRung(result, verdict, field)


def rung_verdict(rung: ResponseRung) -> dict[str, Any]:
    """The verdict as plain data for an answer card.

    Returns
    -------
    dict
        ``question``; ``verdict`` ("dominant", "not dominant" or "undecided"); ``policy`` (P)
        and ``weights`` (the response's searched weights) with ``start`` (P's defaults);
        ``players``; ``band`` (in share units); ``weakest`` (the cell closest to failing:
        ``opponent``, ``turn``, ``share``, ``low``, ``high``, ``level``); ``gain`` (the
        response over the defaults on fresh deals: ``estimate``, ``low``, ``high``, ``level``,
        ``significant``); ``deals`` (the dominance deals) and ``field``.
    """
    weakest = rung.dominance.weakest
    gain = rung.result.gain
    return {
        "question": QUESTION,
        "verdict": rung.dominance.verdict,
        "policy": rung.result.policy_name,
        "weights": dict(rung.result.weights),
        "start": dict(rung.result.start),
        "players": rung.players,
        "band": rung.dominance.band,
        "weakest": {
            "opponent": str(weakest["opponent"]),
            "turn": str(weakest["turn"]),
            "share": float(weakest["share"]),
            "low": float(weakest["low"]),
            "high": float(weakest["high"]),
            "level": float(weakest["level"]),
        },
        "gain": {
            "estimate": float(gain["estimate"]),
            "low": float(gain["low"]),
            "high": float(gain["high"]),
            "level": float(1 - gain["level"]) if "level" in gain else float("nan"),
            "significant": bool(gain["significant"]),
        },
        "deals": rung.dominance.deals,
        "field": list(rung.field),
    }


__all__ = [
    "BAND",
    "DOMINANCE_GAMES",
    "EVALUATIONS",
    "GAMES",
    "QUESTION",
    "VALIDATION_GAMES",
    "ResponseRung",
    "response_rung",
    "rung_field",
    "rung_verdict",
]
