"""Fantastique card data: the fan-card deck and the medal rows, read from ``data/cards.toml``."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import ClassVar

import numpy as np

from fairysim.runtime.errors import CardFileError
from fairysim.sim.datafile import check_keys, read_toml, require_int, require_table
from fairysim.sim.fantastique.rules import MAX_MEDAL_POINTS, MEDAL_ROWS, N_VALUES, ROUNDS

DEFAULT_CARDS = Path(__file__).parent / "data" / "cards.toml"

MAX_CARDS_PER_VALUE = 1000
"""Most fan cards of one value a card file may ask for (the rulebook deck has at most 10)."""


FINALE_MEDALS = ("gold", "silver")
"""The Grande Finale medals, in the order of :attr:`FantastiqueCards.finale_medals`."""

TABLES = ("fan_cards", "medals", "grande_finale_medals")
"""The tables of a card file; any other top-level key is refused (a misspelt table)."""


@dataclass(frozen=True)
class FantastiqueCards:
    """The components that vary between printings or variants.

    Attributes
    ----------
    deck_counts : int64[N_VALUES + 1]
        ``deck_counts[v]`` fan cards of value ``v`` (slot 0 unused, always 0).
    medal_values : int64[3, ROUNDS]
        Rows gold, silver, bronze; each row in the order it is handed out (points).
    finale_medals : int64[2]
        Points of the Gold and Silver Grande Finale medals.
    source : str
        The file these came from.
    """

    DRAWN_FIELDS: ClassVar[tuple[str, ...]] = ("deck_counts",)
    """Fields that decide what the engine draws (the fan cards' counts, the deck it shuffles);
    the others are values read in play."""

    deck_counts: np.ndarray
    medal_values: np.ndarray
    finale_medals: np.ndarray
    source: str = field(default=str(DEFAULT_CARDS))

    @property
    def total_cards(self) -> int:
        """Number of fan cards in the deck."""
        return int(self.deck_counts.sum())

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The data the engine reads (not the path): what a sweep's manifest pins by digest."""
        return (self.deck_counts, self.medal_values, self.finale_medals)


def load_cards(path: str | Path | None = None) -> FantastiqueCards:
    """Read and validate a Fantastique card file (the shipped one when ``path`` is None).

    Raises
    ------
    fairysim.runtime.errors.CardFileError
        Naming the file and the problem: unknown table or key, a value of the wrong type, a count
        or medal past :data:`MAX_CARDS_PER_VALUE` or :data:`MAX_MEDAL_POINTS`.
    """
    if path is None:
        return _default_cards()
    return _parse_cards(Path(path))


@cache
def _default_cards() -> FantastiqueCards:
    return _parse_cards(DEFAULT_CARDS)


def _parse_cards(path: Path) -> FantastiqueCards:
    data = read_toml(path)
    fan_cards = require_table(data, "fan_cards", path)
    values = [str(v) for v in range(1, N_VALUES + 1)]
    check_keys(fan_cards, values, "[fan_cards]", path)
    deck = np.zeros(N_VALUES + 1, dtype=np.int64)
    for key, count in fan_cards.items():
        deck[int(key)] = require_int(count, f"[fan_cards] {key}", path, maximum=MAX_CARDS_PER_VALUE)
    medals = require_table(data, "medals", path)
    check_keys(medals, MEDAL_ROWS, "[medals]", path)
    medal_values = np.zeros((len(MEDAL_ROWS), ROUNDS), dtype=np.int64)
    for row, name in enumerate(MEDAL_ROWS):
        values = medals.get(name)
        if not isinstance(values, list) or len(values) != ROUNDS:
            raise CardFileError(str(path), f"[medals] {name} must list {ROUNDS} medal values")
        for i, value in enumerate(values):
            medal_values[row, i] = require_int(
                value, f"[medals] {name}[{i}]", path, maximum=MAX_MEDAL_POINTS
            )
    finale = require_table(data, "grande_finale_medals", path)
    check_keys(finale, FINALE_MEDALS, "[grande_finale_medals]", path)
    finale_medals = np.array(
        [
            require_int(
                finale.get(name),
                f"[grande_finale_medals] {name}",
                path,
                maximum=MAX_MEDAL_POINTS,
            )
            for name in FINALE_MEDALS
        ],
        dtype=np.int64,
    )
    check_keys(data, TABLES, "the file", path, "table or key")
    return FantastiqueCards(deck, medal_values, finale_medals, str(path))
