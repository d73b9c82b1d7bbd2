"""Every auction of some Fairy Land games, recorded by replaying them with the reference engine:
the check of the fast engine's auction log (:func:`fairysim.sim.fairyland.play_auctions`).

:func:`record_auctions` wraps the reference's ``explore`` for the duration of the replay and
looks at the table before and after each auction; it changes no rule and no draw. What an
auction *wins* is the change in its winner's score, as the final scoring (L11, L13) would count
it at that moment, from the cards it takes (the ogres' losses included), applause left out; what
it *costs* is the fairy value the winner plays.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
import pandas as pd

from fairysim.sim.fairyland import reference
from fairysim.sim.fairyland.rules import ANIMALS, FLOWERS, GOBLIN, OGRE, SPECIAL_FAIRIES
from fairysim.sim.fairyland.runs import AUCTION_COLUMNS

PRIZE_PARTS_LEFT_OUT = ("applause",)
"""Score parts that do not count towards an auction's prize."""


def _prize_points(state) -> list[float]:
    """Each seat's score without applause, in points, as the final scoring counts it now."""
    parts = reference.final_scoring(state)
    return [
        sum(v for name, v in p.items() if name not in PRIZE_PARTS_LEFT_OUT) / 2.0 for p in parts
    ]


@contextmanager
def _recording(rows: list[dict]) -> Iterator[None]:
    """Replace the reference's ``explore`` by one that records each auction into ``rows``."""
    original: Callable = reference.explore

    def explore(state, explorer, c):
        clearing = Counter(state.clearings[c])
        if clearing.total() == 0:  # no auction on an empty clearing (L16)
            return original(state, explorer, c)
        paid = [(p.auctions_won, p.fairies_paid, p.value_paid) for p in state.players]
        before = _prize_points(state)
        original(state, explorer, c)
        winners = [p for p, was in zip(state.players, paid, strict=True) if p.auctions_won > was[0]]
        row = {
            "players": state.n,
            "game": state.game,
            "turn": state.turn,
            "explorer": explorer.seat,
            "winner": winners[0].seat if winners else -1,
            "cards": clearing.total(),
            "animals": sum(clearing[t] for t in ANIMALS),
            "flowers": sum(clearing[t] for t in FLOWERS),
            "goblins": clearing[GOBLIN],
            "ogres": clearing[OGRE],
            "fairies": sum(clearing[t] for t in SPECIAL_FAIRIES),
            "bid": bool(winners),
            "explorer_won": bool(winners) and winners[0] is explorer,
            "price": np.nan,
            "fairies_paid": np.nan,
            "prize": np.nan,
        }
        if winners:
            winner = winners[0]
            _, fairies, value = paid[winner.seat]
            row["price"] = float(winner.value_paid - value)
            row["fairies_paid"] = float(winner.fairies_paid - fairies)
            row["prize"] = _prize_points(state)[winner.seat] - before[winner.seat]
        rows.append(row)

    reference.explore = explore
    try:
        yield
    finally:
        reference.explore = original


def record_auctions(setup, games: int, first_game: int = 0) -> pd.DataFrame:
    """Replay games with the reference engine and record every auction.

    Parameters
    ----------
    setup : FairyLandSetup
        What to play (:func:`fairysim.sim.fairyland.make_setup`); the games are those of the
        fast engine for the same setup.
    games : int
        Games to replay.
    first_game : int, default 0
        Index of the first game.

    Returns
    -------
    pandas.DataFrame
        One row per auction, the columns and meanings of
        :func:`fairysim.sim.fairyland.play_auctions`.

    Notes
    -----
    Not thread-safe: the reference module's ``explore`` is swapped for the replay.
    """
    rows: list[dict] = []
    with _recording(rows):
        reference.play_games(setup, games, first_game)
    return pd.DataFrame(rows, columns=list(AUCTION_COLUMNS))
