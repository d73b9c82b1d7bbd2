"""Fairy Concerto card data: tokens, score, pianist and harpist cards (``data/cards.toml``).

The rulebook does not print the score, pianist or harpist cards (ruling C9): the shipped file is a
provisional set, and any other file with the same layout can replace it (``--cards FILE``). A
malformed file is refused with a :class:`fairysim.errors.CardFileError` naming the file, the card
and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from fairysim.errors import CardFileError
from fairysim.sim.concerto.rules import (
    KINDS,
    MIN_TOKENS,
    N_HARPISTS,
    N_KINDS,
    N_PIANISTS,
    N_SCORE_CARDS,
    kind_index,
)
from fairysim.sim.datafile import read_toml, require_int

DEFAULT_CARDS = Path(__file__).parent / "data" / "cards.toml"
MAX_TOKENS_PER_KIND = 40


@dataclass(frozen=True)
class ConcertoCards:
    """The components of one card file.

    Attributes
    ----------
    tokens : int64[N_KINDS]
        Fairy tokens in the bag by kind.
    score_ids : tuple of str
        Score card ids, in file order; card ``i`` of every array is ``score_ids[i]``.
    score_need : int64[N_SCORE_CARDS, N_KINDS]
        Tokens of each kind a score card asks for.
    pianist_ids, harpist_ids : tuple of str
    pianist_sets, harpist_sets : int64[3, N_KINDS]
        Times each kind appears on the card (a set needs that many tokens of the kind).
    provisional : bool
        The file declares itself a provisional stand-in (ruling C9).
    source : str
        The file these came from.
    """

    tokens: np.ndarray
    score_ids: tuple[str, ...]
    score_need: np.ndarray
    pianist_ids: tuple[str, ...]
    pianist_sets: np.ndarray
    harpist_ids: tuple[str, ...]
    harpist_sets: np.ndarray
    score_names: tuple[str, ...] = ()
    provisional: bool = True
    source: str = field(default=str(DEFAULT_CARDS))

    @property
    def total_tokens(self) -> int:
        """Number of fairy tokens in the bag."""
        return int(self.tokens.sum())

    def arrays(self) -> tuple[np.ndarray | tuple[str, ...], ...]:
        """The data the engine reads (not the path), card ids last since a sweep names pianist
        and harpist cards by id: what a sweep's manifest pins by digest."""
        return (
            self.tokens,
            self.score_need,
            self.pianist_sets,
            self.harpist_sets,
            (*self.score_ids, *self.pianist_ids, *self.harpist_ids),
        )

    def score_index(self, card_id: str, option: str = "score card") -> int:
        """Position of score card ``card_id``."""
        return _lookup(self.score_ids, card_id, option)

    def pianist_index(self, card_id: str, option: str = "--pianist") -> int:
        """Position of pianist card ``card_id``; error naming ``option`` if unknown."""
        return _lookup(self.pianist_ids, card_id, option)

    def harpist_index(self, card_id: str, option: str = "--harpist") -> int:
        """Position of harpist card ``card_id``; error naming ``option`` if unknown."""
        return _lookup(self.harpist_ids, card_id, option)

    def describe_need(self, index: int) -> str:
        """``"2 trumpeter + 1 composer"`` for score card ``index``."""
        return " + ".join(f"{n} {KINDS[k]}" for k, n in enumerate(self.score_need[index]) if n > 0)

    @property
    def label(self) -> str:
        """How reports name the card set (with the provisional mark of ruling C9)."""
        name = Path(self.source).name
        return f"{name} (PROVISIONAL card set, ruling C9)" if self.provisional else name


def _lookup(ids: tuple[str, ...], card_id: Any, option: str) -> int:
    from fairysim.errors import FairysimError

    key = str(card_id).strip()
    for i, x in enumerate(ids):
        if x.lower() == key.lower():
            return i
    raise FairysimError(option, f"unknown card {card_id!r}; the card file has {', '.join(ids)}")


def load_cards(path: str | Path | None = None) -> ConcertoCards:
    """Read and validate a Fairy Concerto card file (the shipped one when ``path`` is None).

    Parameters
    ----------
    path : str or Path, optional
        A TOML file laid out like ``data/cards.toml``.

    Returns
    -------
    ConcertoCards

    Raises
    ------
    fairysim.errors.CardFileError
        Naming the file, the card and the problem (unknown kind, wrong number of cards, negative
        need, duplicate id, ...).
    """
    if path is None:
        return _default_cards()
    return _parse_cards(Path(path))


@cache
def _default_cards() -> ConcertoCards:
    return _parse_cards(DEFAULT_CARDS)


def _kind(name: Any, where: str, path: Path) -> int:
    try:
        return kind_index(str(name))
    except ValueError:
        raise CardFileError(
            str(path), f"{where}: unknown kind {name!r} (kinds are {', '.join(KINDS)})"
        ) from None


def _card_list(data: dict[str, Any], key: str, count: int, path: Path) -> list[dict[str, Any]]:
    cards = data.get(key)
    if not isinstance(cards, list) or not all(isinstance(c, dict) for c in cards):
        raise CardFileError(str(path), f"missing [[{key}]] cards")
    if len(cards) != count:
        raise CardFileError(
            str(path), f"has {len(cards)} [[{key}]] cards; the game has exactly {count}"
        )
    return cards


def _card_id(card: dict[str, Any], key: str, i: int, seen: set[str], path: Path) -> str:
    card_id = card.get("id")
    if not isinstance(card_id, str) or not card_id.strip():
        raise CardFileError(str(path), f"[[{key}]] number {i + 1} has no id")
    card_id = card_id.strip()
    if card_id.lower() in seen:
        raise CardFileError(str(path), f"[[{key}]] {card_id}: duplicate id {card_id!r}")
    seen.add(card_id.lower())
    return card_id


def _parse_cards(path: Path) -> ConcertoCards:
    data = read_toml(path)
    provisional = bool(data.get("provisional", False))

    tokens_table = data.get("tokens")
    if not isinstance(tokens_table, dict):
        raise CardFileError(str(path), "missing table [tokens]")
    tokens = np.zeros(N_KINDS, dtype=np.int64)
    for name, count in tokens_table.items():
        k = _kind(name, "[tokens]", path)
        tokens[k] = require_int(count, f"[tokens] {name}", path)
        if tokens[k] > MAX_TOKENS_PER_KIND:
            raise CardFileError(str(path), f"[tokens] {name}: at most {MAX_TOKENS_PER_KIND}")
    if tokens.sum() < MIN_TOKENS:
        raise CardFileError(
            str(path),
            f"[tokens] holds {tokens.sum()} tokens; 4 players need at least {MIN_TOKENS}",
        )

    seen: set[str] = set()
    score_ids: list[str] = []
    score_names: list[str] = []
    need = np.zeros((N_SCORE_CARDS, N_KINDS), dtype=np.int64)
    for i, card in enumerate(_card_list(data, "score_card", N_SCORE_CARDS, path)):
        card_id = _card_id(card, "score_card", i, seen, path)
        where = f"score card {card_id}"
        table = card.get("need")
        if not isinstance(table, dict) or not table:
            raise CardFileError(str(path), f"{where}: needs a table need = {{ kind = count }}")
        for name, count in table.items():
            k = _kind(name, where, path)
            if isinstance(count, bool) or not isinstance(count, int):
                raise CardFileError(str(path), f"{where}: need of {name} must be an integer")
            if count < 0:
                raise CardFileError(str(path), f"{where}: negative need {count} for {name}")
            if count > tokens[k]:
                raise CardFileError(
                    str(path), f"{where}: needs {count} {KINDS[k]} but the bag holds {tokens[k]}"
                )
            need[i, k] = count
        if need[i].sum() == 0:
            raise CardFileError(str(path), f"{where}: needs no token at all")
        score_ids.append(card_id)
        score_names.append(str(card.get("name", "")))

    def set_cards(key: str, count: int) -> tuple[list[str], np.ndarray]:
        ids: list[str] = []
        sets = np.zeros((count, N_KINDS), dtype=np.int64)
        for i, card in enumerate(_card_list(data, key, count, path)):
            card_id = _card_id(card, key, i, seen, path)
            where = f"{key} card {card_id}"
            kinds = card.get("kinds")
            if not isinstance(kinds, list) or not kinds:
                raise CardFileError(str(path), f"{where}: needs a list kinds = [...] of one set")
            for name in kinds:
                sets[i, _kind(name, where, path)] += 1
            ids.append(card_id)
        return ids, sets

    pianist_ids, pianist_sets = set_cards("pianist", N_PIANISTS)
    harpist_ids, harpist_sets = set_cards("harpist", N_HARPISTS)
    return ConcertoCards(
        tokens,
        tuple(score_ids),
        need,
        tuple(pianist_ids),
        pianist_sets,
        tuple(harpist_ids),
        harpist_sets,
        tuple(score_names),
        provisional,
        str(path),
    )


def dominated_pairs(cards: ConcertoCards) -> list[tuple[str, str]]:
    """Pairs ``(easier, harder)`` of score cards where one asks for no more of any kind than the
    other (same 5 points, so the harder one is dominated). The shipped set has none."""
    pairs = []
    need = cards.score_need
    for i in range(len(need)):
        for j in range(len(need)):
            if i != j and (need[i] <= need[j]).all():
                pairs.append((cards.score_ids[i], cards.score_ids[j]))
    return pairs
