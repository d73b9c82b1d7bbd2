"""Fairy Concerto card data: tokens, score, pianist and harpist cards (``data/cards.toml``).

The rulebook does not print the score, pianist or harpist cards (ruling C9): the shipped file is a
provisional set, and any other file with the same layout can replace it (``--cards FILE``). A
malformed file is refused with a :class:`fairysim.runtime.errors.CardFileError` naming the file, the
card and the problem.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from fairysim.runtime.errors import CardFileError, FairysimError, ParameterError
from fairysim.sim.concerto.rules import (
    KINDS,
    MIN_TOKENS,
    N_HARPISTS,
    N_KINDS,
    N_PIANISTS,
    N_SCORE_CARDS,
    P_SCORE_CARDS,
    PART_NAMES,
    POINTS_PER_SCORE_CARD,
    card_complete,
    contest_parts,
    kind_index,
    orchestra_counts,
    soloist_index,
)
from fairysim.sim.datafile import (
    check_keys,
    read_toml,
    require_bool,
    require_int,
    require_list,
    require_table,
    require_text,
    shown,
)

DEFAULT_CARDS = Path(__file__).parent / "data" / "cards.toml"
MAX_TOKENS_PER_KIND = 40
"""Most tokens of one kind a card file may put in the bag."""
MAX_ID_CHARS = 16
"""Longest card id (``S01``, ``P1``): ids are options (``--pianist``) and report labels."""
MAX_NAME_CHARS = 60
"""Longest card name."""

TABLES = ("provisional", "tokens", "score_card", "pianist", "harpist")
"""The top-level keys of a card file; any other is refused (a misspelt table or key)."""
SCORE_CARD_KEYS = ("id", "name", "need")
SET_CARD_KEYS = ("id", "name", "kinds")
"""The keys of a ``[[score_card]]`` and of a ``[[pianist]]`` or ``[[harpist]]`` card."""


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

    DRAWN_FIELDS: ClassVar[tuple[str, ...]] = ("tokens",)
    """Fields that decide what the engine draws: the bag's token counts (a score or set card
    added or removed changes an array's shape, which counts too); the others are values read in
    play."""

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

    def pianist_index(self, card_id: str, option: str = "pianist") -> int:
        """Position of pianist card ``card_id``; error naming ``option`` if unknown."""
        return _lookup(self.pianist_ids, card_id, option)

    def harpist_index(self, card_id: str, option: str = "harpist") -> int:
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
    key = str(card_id).strip()
    for i, x in enumerate(ids):
        if x.lower() == key.lower():
            return i
    raise ParameterError(
        option, f"unknown card {shown(card_id)}; the card file has {', '.join(ids)}"
    )


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
    fairysim.runtime.errors.CardFileError
        Naming the file, the card and the problem (unknown table or key, a value of the wrong
        type, unknown kind, wrong number of cards, a need or set past what the bag holds,
        duplicate id, ...).
    """
    if path is None:
        return _default_cards()
    return _parse_cards(Path(path))


@cache
def _default_cards() -> ConcertoCards:
    return _parse_cards(DEFAULT_CARDS)


def _parse_cards(path: Path) -> ConcertoCards:
    data = read_toml(path)
    provisional = require_bool(data.get("provisional", False), "provisional", path)
    tokens = _tokens(require_table(data, "tokens", path), path)
    seen: set[str] = set()
    score_ids: list[str] = []
    score_names: list[str] = []
    need = np.zeros((N_SCORE_CARDS, N_KINDS), dtype=np.int64)
    for i, card in enumerate(_card_list(data, "score_card", N_SCORE_CARDS, path)):
        card_id = _card_id(card, "score_card", i, seen, path)
        where = f"score card {card_id}"
        check_keys(card, SCORE_CARD_KEYS, where, path)
        table = card.get("need")
        if not isinstance(table, dict) or not table:
            raise CardFileError(str(path), f"{where}: needs a table need = {{ kind = count }}")
        need[i] = _need(table, where, tokens, path)
        score_ids.append(card_id)
        score_names.append(_card_name(card, where, path))
    pianist_ids, pianist_sets = _set_cards(data, "pianist", N_PIANISTS, tokens, seen, path)
    harpist_ids, harpist_sets = _set_cards(data, "harpist", N_HARPISTS, tokens, seen, path)
    check_keys(data, TABLES, "the file", path, "table or key")
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


def _kind(name: Any, where: str, path: Path) -> int:
    try:
        return kind_index(str(name))
    except ValueError:
        raise CardFileError(
            str(path), f"{where}: unknown kind {shown(name)} (kinds are {', '.join(KINDS)})"
        ) from None


def _kinds_once(table: dict[str, Any], where: str, path: Path) -> list[tuple[int, Any]]:
    """``(kind index, value)`` of a ``{ kind = ... }`` table; a kind given twice (``horn`` and
    its alias ``"horn player"``) is refused rather than one silently replacing the other."""
    items = []
    given: set[int] = set()
    for name, value in table.items():
        k = _kind(name, where, path)
        if k in given:
            raise CardFileError(str(path), f"{where}: gives {KINDS[k]} twice")
        given.add(k)
        items.append((k, value))
    return items


def _tokens(table: dict[str, Any], path: Path) -> np.ndarray:
    """The bag by kind from ``[tokens]``: each kind at most :data:`MAX_TOKENS_PER_KIND`, the whole
    bag at least :data:`.rules.MIN_TOKENS`."""
    tokens = np.zeros(N_KINDS, dtype=np.int64)
    for k, count in _kinds_once(table, "[tokens]", path):
        tokens[k] = require_int(count, f"[tokens] {KINDS[k]}", path, maximum=MAX_TOKENS_PER_KIND)
    if tokens.sum() < MIN_TOKENS:
        raise CardFileError(
            str(path),
            f"[tokens] holds {tokens.sum()} tokens; 4 players need at least {MIN_TOKENS}",
        )
    return tokens


def _need(table: dict[str, Any], where: str, tokens: np.ndarray, path: Path) -> np.ndarray:
    """A score card's ``need`` by kind: each at most what the bag holds, at least one token."""
    need = np.zeros(N_KINDS, dtype=np.int64)
    for k, count in _kinds_once(table, where, path):
        if isinstance(count, bool) or not isinstance(count, int):
            raise CardFileError(str(path), f"{where}: need of {KINDS[k]} must be an integer")
        if count < 0:
            raise CardFileError(str(path), f"{where}: negative need {count} for {KINDS[k]}")
        if count > tokens[k]:
            raise CardFileError(
                str(path), f"{where}: needs {shown(count)} {KINDS[k]} but the bag holds {tokens[k]}"
            )
        need[k] = count
    if need.sum() == 0:
        raise CardFileError(str(path), f"{where}: needs no token at all")
    return need


def _set_cards(
    data: dict[str, Any], key: str, count: int, tokens: np.ndarray, seen: set[str], path: Path
) -> tuple[list[str], np.ndarray]:
    """Ids and ``int64[count, N_KINDS]`` sets of the pianist or harpist cards; a set may not need
    more tokens of a kind than the bag holds."""
    ids: list[str] = []
    sets = np.zeros((count, N_KINDS), dtype=np.int64)
    for i, card in enumerate(_card_list(data, key, count, path)):
        card_id = _card_id(card, key, i, seen, path)
        where = f"{key} card {card_id}"
        check_keys(card, SET_CARD_KEYS, where, path)
        if card.get("kinds") is None:
            raise CardFileError(str(path), f"{where}: needs a list kinds = [...] of one set")
        kinds = require_list(card["kinds"], f"{where}: kinds", path, int(tokens.sum()))
        for name in kinds:
            k = _kind(name, where, path)
            if sets[i, k] == tokens[k]:
                raise CardFileError(
                    str(path),
                    f"{where}: a set needs more {KINDS[k]} than the {tokens[k]} in the bag",
                )
            sets[i, k] += 1
        _card_name(card, where, path)
        ids.append(card_id)
    return ids, sets


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
    if card.get("id") is None:
        raise CardFileError(str(path), f"[[{key}]] number {i + 1} has no id")
    card_id = require_text(card["id"], f"[[{key}]] number {i + 1}: id", path, MAX_ID_CHARS)
    if card_id.lower() in seen:
        raise CardFileError(str(path), f"[[{key}]] {card_id}: duplicate id {card_id!r}")
    seen.add(card_id.lower())
    return card_id


def _card_name(card: dict[str, Any], where: str, path: Path) -> str:
    if "name" not in card:
        return ""
    return require_text(card["name"], f"{where}: name", path, MAX_NAME_CHARS)


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


# --- Scoring by hand: the inputs of score_orchestra, checked against a card set -------------------

SETUP_KEYS = ("popularity", "soloist", "pianist", "harpist")
"""The keys of a setup given to :func:`fairysim.sim.concerto.score_orchestra`."""


def check_orchestra(counts: Any, cards: ConcertoCards, option: str = "counts") -> np.ndarray:
    """``int64[N_KINDS]`` counts of an orchestra given by hand, each at most what the bag holds.

    Parameters
    ----------
    counts : mapping, sequence of 5 ints, or iterable of kind names
        As :func:`.rules.orchestra_counts` takes them.
    cards : ConcertoCards
        The card set whose bag bounds every count (no orchestra holds more of a kind).
    option : str
        How errors name the argument.

    Raises
    ------
    FairysimError
        Naming ``option``: a count that is not a whole number, negative or more than the bag
        holds (checked before it is stored, so a huge count is refused, not wrapped), an unknown
        kind, or an argument of another type.
    """
    if isinstance(counts, str | bytes) or not isinstance(counts, Mapping | Iterable):
        raise FairysimError(
            option,
            "give a mapping {kind: count}, five counts or a list of kind names, "
            f"got {shown(counts)}",
        )
    values = list(counts.values()) if isinstance(counts, Mapping) else list(counts)
    counted = isinstance(counts, Mapping) or (
        len(values) == N_KINDS and all(isinstance(x, int | np.integer) for x in values)
    )
    if counted:
        for value in values:
            if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
                raise FairysimError(option, f"a count must be a whole number, got {shown(value)}")
            if not 0 <= value <= MAX_TOKENS_PER_KIND:
                raise FairysimError(
                    option, f"a count must be from 0 to {MAX_TOKENS_PER_KIND}, got {shown(value)}"
                )
    try:
        c = orchestra_counts(dict(counts) if isinstance(counts, Mapping) else values)
    except ValueError as exc:
        raise FairysimError(option, str(exc)) from None
    for k in range(N_KINDS):
        if c[k] > cards.tokens[k]:
            raise FairysimError(
                option,
                f"{c[k]} {KINDS[k]} but the bag of {Path(cards.source).name} holds "
                f"{cards.tokens[k]}",
            )
    return c


def check_setup(setup: Any, cards: ConcertoCards, option: str = "setup") -> tuple[int, ...]:
    """``(popularity kind, soloist, pianist card, harpist card)`` indices of a setup given by
    hand: a mapping with keys among :data:`SETUP_KEYS`; a key left out is the first kind, soloist
    ``A`` or the card set's first pianist or harpist card.

    Raises
    ------
    FairysimError
        Naming ``option`` (with the key): a key outside :data:`SETUP_KEYS` (a misspelt key is
        refused, not replaced by a default), an unknown kind, soloist or card.
    """
    if not isinstance(setup, Mapping):
        raise FairysimError(
            option, f"give a mapping with keys {', '.join(SETUP_KEYS)}, got {shown(setup)}"
        )
    for key in setup:
        if key not in SETUP_KEYS:
            raise FairysimError(
                option, f"unknown key {shown(key)}; the keys are {', '.join(SETUP_KEYS)}"
            )
    try:
        popularity = kind_index(setup.get("popularity", KINDS[0]))
    except ValueError as exc:
        raise FairysimError(f"{option}['popularity']", str(exc)) from None
    try:
        soloist = soloist_index(setup.get("soloist", "A"))
    except ValueError as exc:
        raise FairysimError(f"{option}['soloist']", str(exc)) from None
    pianist = cards.pianist_index(
        setup.get("pianist", cards.pianist_ids[0]), f"{option}['pianist']"
    )
    harpist = cards.harpist_index(
        setup.get("harpist", cards.harpist_ids[0]), f"{option}['harpist']"
    )
    return popularity, soloist, pianist, harpist


def check_score_cards(score_cards: Any, cards: ConcertoCards, option: str = "score_cards") -> list:
    """Indices of the score cards held face up, given by id; each card at most once.

    Raises
    ------
    FairysimError
        Naming ``option``: an unknown id, one held twice, or a single string instead of a list.
    """
    if isinstance(score_cards, str | bytes) or not isinstance(score_cards, Iterable):
        raise FairysimError(option, f"give a list of score card ids, got {shown(score_cards)}")
    indices = [cards.score_index(card_id, option) for card_id in score_cards]
    for i in indices:
        if indices.count(i) > 1:
            raise FairysimError(option, f"score card {cards.score_ids[i]} is held twice")
    return indices


def score_orchestra(
    counts,
    setup: dict[str, Any],
    score_cards: Sequence[str] = (),
    cards: str | Path | ConcertoCards | None = None,
) -> dict[str, int]:
    """Score one orchestra by hand (rulings C5; honors need the other orchestras, so they are 0).

    Parameters
    ----------
    counts : mapping, sequence of 5 ints, or iterable of kind names
        The orchestra (composers on score cards included).
    setup : dict
        ``popularity`` (kind name), ``soloist`` (``"A"`` .. ``"D"``), ``pianist`` and ``harpist``
        (card ids of the card file).
    score_cards : sequence of str
        Ids of the score cards held face up.
    cards : path or ConcertoCards, optional
        Card file (the shipped provisional set when None).

    Returns
    -------
    dict
        Points per part of :data:`.rules.PART_NAMES` and ``total``.

    Raises
    ------
    FairysimError
        Naming ``counts``, ``setup`` (a key outside popularity, soloist, pianist, harpist is
        refused) or ``score_cards``; see :func:`.cards.check_orchestra`,
        :func:`.cards.check_setup` and :func:`.cards.check_score_cards`.

    Examples
    --------
    >>> score_orchestra([2, 2, 2, 5, 1], {"popularity": "horn", "soloist": "C",
    ...                 "pianist": "P1", "harpist": "H1"})["soloist"]
    9
    """
    card_set = cards if isinstance(cards, ConcertoCards) else load_cards(cards)
    c = check_orchestra(counts, card_set)
    pop, soloist, pianist, harpist = check_setup(setup, card_set)
    held = check_score_cards(score_cards, card_set)
    parts = np.zeros(len(PART_NAMES), dtype=np.int64)
    contest_parts(
        c, pop, soloist, card_set.pianist_sets[pianist], card_set.harpist_sets[harpist], parts
    )
    done = sum(bool(card_complete(card_set.score_need[i], c)) for i in held)
    parts[P_SCORE_CARDS] = POINTS_PER_SCORE_CARD * done
    result = {name: int(parts[i]) for i, name in enumerate(PART_NAMES)}
    result["total"] = int(parts.sum())
    return result
