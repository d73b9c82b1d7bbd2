"""High card: a toy game that lives only under tests/ and plugs into fairysim through the game
contract (:mod:`fairysim.sim.game`), to prove that a game needs no line of ``src/``.

Each seat is dealt one card of value 1..top from a shoe (the ``deck`` axis: short = 1..6,
long = 1..13) and may throw it away once for a fresh one; the highest card wins, ties share.
Policies decide from ``choices`` rows ``(option, card)`` with option 0 = keep, 1 = redraw.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import DEFAULT_CHUNK_GAMES, run_chunks, tidy_frame, turn_columns
from fairysim.sim.game import GameSetup
from fairysim.sim.policy import builtin, weight
from fairysim.sim.rng import DEAL_STREAM, FIRST_POLICY_STREAM, new_stream, randint

from .spec import NAME, SPEC, TOPS

KEEP_OR_REDRAW = 0


def stand(decision, view, choices, n_choices, weights, rng):
    """Always keep the first card."""
    return 0


def redraw_low(decision, view, choices, n_choices, weights, rng):
    """Redraw a card below ``below``."""
    return 1 if choices[0, 1] < weights[0] else 0


def coin(decision, view, choices, n_choices, weights, rng):
    """Keep or redraw, one random draw each."""
    return randint(rng, n_choices)


POLICIES = {
    "coin": builtin("coin", coin, "keep or redraw at random", 0, reads_view=False),
    "stand": builtin("stand", stand, "always keep the first card", 1, reads_view=False),
    "redraw-low": builtin(
        "redraw-low", redraw_low, "redraw a low card", 2, below=weight(5.0, 1.0, 14.0)
    ),
}


@dataclass(frozen=True)
class Shoe:
    """The toy game's card data: the deck sizes, from no file at all."""

    source: str = "built-in"

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (np.asarray(list(TOPS.values()), dtype=np.int64),)


def load_cards(path: str | Path | None = None) -> Shoe:
    if path is not None:
        raise FairysimError("--cards", "high card has no card file")
    return Shoe()


@dataclass(frozen=True)
class HighCardSetup(GameSetup):
    """The toy game's setup: the contract's, with its deck (:class:`GameSetup`) and its
    card-effect intervention (``forced_card`` dealt to ``forced_seat`` in place of its card)."""

    deck: str
    forced_card: int = 0
    forced_seat: int = 0
    removed_card: int = 0
    game = NAME

    def choices(self) -> list[str]:
        return [f"{self.deck} deck"]

    def own_config(self) -> dict[str, Any]:
        removed = {"removed_card": self.removed_card} if self.removed_card else {}
        return {"deck": self.deck, **removed}


def make_setup(
    *, players=3, policies="stand", seed=0, cards=None, deck="long", removed_card=0
) -> HighCardSetup:
    deck = SPEC.axes[0].parse(deck)
    card_set = cards if isinstance(cards, Shoe) else load_cards(cards)
    return HighCardSetup.checked(
        players=players,
        policies=policies,
        seed=seed,
        cards=card_set,
        deck=deck,
        removed_card=int(removed_card),
    )


def effect_cards(setup: HighCardSetup) -> list[tuple[int, str]]:
    """Every card of the deck, for a card-effect study."""
    return [(v, f"card {v}") for v in range(1, TOPS[setup.deck] + 1)]


def removal_variants(setup: HighCardSetup) -> list[tuple[str, dict[str, int]]]:
    """The cards a removal study takes out of the shoe: the top two."""
    top = TOPS[setup.deck]
    return [(f"card {v}", {"removed_card": v}) for v in (top, top - 1)]


def draw(deal, top: int, removed: int) -> int:
    """One card of the shoe; a removed value is skipped at the draw (the next number of the
    same stream), so the values both shoes share come as often, in proportion."""
    while True:
        card = randint(deal, top) + 1
        if card != removed:
            return card


def play_game(setup: HighCardSetup, game: int, out: dict[str, np.ndarray], row: int) -> None:
    """The engine: one game into row ``row`` of ``out``."""
    top = TOPS[setup.deck]
    deal = new_stream(setup.seed, game, DEAL_STREAM)
    cards = np.array([draw(deal, top, setup.removed_card) for _ in range(setup.players)])
    if setup.forced_card:
        held = int(cards[setup.forced_seat] == setup.forced_card)
        out["forced_held"][row], out["forced_exchanged"][row] = held, 1 - held
        cards[setup.forced_seat] = setup.forced_card
    choices = np.zeros((2, 2), np.int64)
    for seat, policy in enumerate(setup.policies):
        rng = new_stream(setup.seed, game, FIRST_POLICY_STREAM + seat)
        choices[:, 0] = (0, 1)
        choices[:, 1] = cards[seat]
        weights = np.asarray(policy.weights, dtype=np.float64)
        view = np.zeros(1, np.int64)
        answer = int(policy.function(KEEP_OR_REDRAW, view, choices, 2, weights, rng))
        out["redrew"][row, seat] = answer
        if answer == 1:
            cards[seat] = draw(deal, top, setup.removed_card)
    best = cards.max()
    winners = cards == best
    out["score"][row] = cards
    out["rank"][row] = 1 + (cards[:, None] < cards[None, :]).sum(axis=1)
    out["win_share"][row] = np.where(winners, 1.0 / winners.sum(), 0.0)


def play_chunks(
    setup,
    games,
    *,
    first_game=0,
    chunk_games=DEFAULT_CHUNK_GAMES,
    threads=None,
    progress=None,
    lanes=True,
):
    def play_chunk(first: int, n: int) -> dict[str, np.ndarray]:
        out = {
            "score": np.zeros((n, setup.players), np.int64),
            "rank": np.zeros((n, setup.players), np.int64),
            "win_share": np.zeros((n, setup.players), np.float64),
            "redrew": np.zeros((n, setup.players), np.int64),
        }
        if setup.forced_card:
            out["forced_held"] = np.zeros(n, np.int64)
            out["forced_exchanged"] = np.zeros(n, np.int64)
        for row in range(n):
            play_game(setup, first + row, out, row)
        return out

    yield from run_chunks(play_chunk, games, chunk_games, progress, threads, first_game)


def chunk_frame(setup: HighCardSetup, first: int, arrays: dict[str, np.ndarray]) -> pd.DataFrame:
    return tidy_frame(
        first,
        arrays | turn_columns(setup.spec.turn_order, arrays, setup.players),
        setup.players,
        setup.policy_names,
        {"deck": setup.deck, "players": setup.players},
    )
