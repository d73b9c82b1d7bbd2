"""High card as a player reads the rules: the toy game's reference engine."""

from __future__ import annotations

import numpy as np

from fairysim.sim.rng import DEAL_STREAM, FIRST_POLICY_STREAM, new_stream, randint

from .spec import TOPS


def deal(shoe, setup) -> int:
    """A card from the shoe, a removed value drawn again."""
    card = randint(shoe, TOPS[setup.deck]) + 1
    while card == setup.removed_card:
        card = randint(shoe, TOPS[setup.deck]) + 1
    return card


def play_games(setup, games: int, first_game: int = 0) -> dict[str, np.ndarray]:
    """Deal each seat a card, let it redraw once, the highest card wins (ties share)."""
    score = np.zeros((games, setup.players), np.int64)
    share = np.zeros((games, setup.players))
    for row, game in enumerate(range(first_game, first_game + games)):
        shoe = new_stream(setup.seed, game, DEAL_STREAM)
        hands = [deal(shoe, setup) for _ in range(setup.players)]
        for seat, policy in enumerate(setup.policies):
            offer = np.array([[0, hands[seat]], [1, hands[seat]]], np.int64)
            own_rng = new_stream(setup.seed, game, FIRST_POLICY_STREAM + seat)
            weights = np.asarray(policy.weights, dtype=np.float64)
            if policy.function(0, np.zeros(1, np.int64), offer, 2, weights, own_rng) == 1:
                hands[seat] = deal(shoe, setup)
        winners = [seat for seat, card in enumerate(hands) if card == max(hands)]
        score[row] = hands
        for seat in winners:
            share[row, seat] = 1 / len(winners)
    return {"score": score, "win_share": share}
