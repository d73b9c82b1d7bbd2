"""Fairy Land card data: the forest deck and House cards (``data/cards.toml``, ruling L1) and the
Queen's Court (``data/court.toml``, ruling L13).

The rulebook does not print the 19 court items: the shipped court is provisional, every item one
effect primitive with parameters (docs/fairyland-court.md), and any file with the same layout can
replace it (``--court FILE``). A malformed file is refused with a one-line
:class:`fairysim.runtime.errors.CardFileError` naming the file, the item and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from fairysim.runtime.errors import CardFileError
from fairysim.sim.datafile import read_toml, require_int, require_table, require_text, shown
from fairysim.sim.fairyland.rules import (
    ANIMALS,
    BID_BONUS,
    BROOM,
    CARD_GROUPS,
    CARD_NAMES,
    COURT_DECK_SIZE,
    CRESTS,
    CRESTS_TWO_PLAYERS,
    DRUIDS_KEY,
    FIRST_ANIMAL,
    FIRST_FOREST_TYPE,
    FLAT_POINTS,
    FLOWERS,
    GOBLIN_TRAP,
    HORN_OF_RECALL,
    IT_AMOUNT,
    IT_AT_LEAST,
    IT_CARDS,
    IT_PRIMITIVE,
    ITEM_FIELDS,
    LOST_HALF,
    MAX_COURT_ITEMS,
    MAX_FLOWERS_OF_A_COLOUR,
    MAX_FOREST,
    MAX_HAND,
    MIN_FOREST,
    N_ANIMALS,
    N_CARD_TYPES,
    N_FAIRY_TYPES,
    N_HOUSE_FAIRIES,
    NET,
    OGRE_WARD,
    PENDANT_PAIR,
    POINTS_PER_CARD_TYPE,
    PRIMITIVES,
    SPECIAL_FACE_VALUE,
    SPECIAL_FAIRIES,
    VISIT_BONUS,
)

DEFAULT_CARDS = Path(__file__).parent / "data" / "cards.toml"
DEFAULT_COURT = Path(__file__).parent / "data" / "court.toml"
STARRED = "starred"
"""``--court starred``: the 9 starred items of the shipped court (the first-game court)."""
NO_EFFECT = "none"
"""``--court none``: a court of no effect (ruling PL9): as many items as the shipped court, each
an end-game item worth 0 points, so the Queen is visited and the deal drawn as with the shipped
court, and nothing she gives changes the game."""

MAX_FAIRY_VALUE = 20
MAX_CRESTS = 3
MAX_MAJORITY_POINTS = 100
MAX_ITEM_POINTS = 100
MAX_BONUS = 10
"""Bounds a card or court file must respect (they keep bids and choice lists small)."""
MAX_ITEM_ID_CHARS = 32
"""Longest court item id (ids are quoted in reports and error messages)."""
MAX_ITEM_NAME_CHARS = 64
"""Longest court item name (a figure's row label)."""

FOREST_NAMES = CARD_NAMES[FIRST_FOREST_TYPE:]
SINGLE_CARDS = (*SPECIAL_FAIRIES, LOST_HALF)
"""Forest cards of which a file may hold at most one (a hand holds each fairy type once)."""


@dataclass(frozen=True)
class FairyLandCards:
    """The forest deck and House cards of one card file.

    Attributes
    ----------
    forest : int64[N_CARD_TYPES]
        Copies of each card type in the forest deck (0 for the house fairies).
    majority : int64[N_ANIMALS]
        Points for the majority of each animal, in ``rules.ANIMALS`` order.
    face_value : int64[N_FAIRY_TYPES]
        Each fairy type's face value: the house fairies' from the file, specials 1.
    crests, crests_two_players : int
        Fairy Crests per seat with 3-4 and with 2 players.
    source : str
        The file these came from.
    """

    DRAWN_FIELDS: ClassVar[tuple[str, ...]] = ("forest",)
    """Fields that decide what the engine draws (the forest deck's counts, which it shuffles);
    the others are values read in play."""

    forest: np.ndarray
    majority: np.ndarray
    face_value: np.ndarray
    crests: int = CRESTS
    crests_two_players: int = CRESTS_TWO_PLAYERS
    source: str = field(default=str(DEFAULT_CARDS))

    @property
    def total_forest(self) -> int:
        """Cards in the forest deck before setup (84 in the rulebook's game)."""
        return int(self.forest.sum())

    def crests_for(self, players: int) -> int:
        """Fairy Crests each seat starts with at a table of ``players``."""
        return self.crests_two_players if players == 2 else self.crests

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The data the engine reads (not the path): what a sweep's manifest pins by digest."""
        crests = np.array([self.crests, self.crests_two_players], dtype=np.int64)
        return (self.forest, self.majority, self.face_value, crests)


@dataclass(frozen=True)
class Court:
    """The Queen's Court items of one court file (or its starred subset).

    Attributes
    ----------
    ids, names : tuple of str
        Item ``i`` of every array is ``ids[i]``.
    starred : tuple of bool
        The first-game items (setup hint).
    table : int64[n_items, ITEM_FIELDS]
        One row per item: primitive and parameters (``rules.IT_*``).
    provisional : bool
        The file declares itself a provisional stand-in (ruling L13).
    selection : str
        ``"all"``, ``"starred"`` or ``"none"``.
    source : str
    """

    ids: tuple[str, ...]
    names: tuple[str, ...]
    starred: tuple[bool, ...]
    table: np.ndarray
    provisional: bool = True
    selection: str = "all"
    source: str = field(default=str(DEFAULT_COURT))

    @property
    def n_items(self) -> int:
        """Items a game draws its court deck from."""
        return len(self.ids)

    def primitive(self, item: int) -> str:
        """The effect primitive of item ``item``."""
        return PRIMITIVES[int(self.table[item, IT_PRIMITIVE])]

    @property
    def label(self) -> str:
        """How reports name the court (with the provisional mark of ruling L13)."""
        if self.selection == NO_EFFECT:
            return "none (a court of no effect, ruling PL9)"
        name = Path(self.source).name
        if self.selection == STARRED:
            name = f"{name}, starred"
        return f"{name} (PROVISIONAL court, ruling L13)" if self.provisional else name


# --- The card file ------------------------------------------------------------------------------


def load_cards(path: str | Path | None = None) -> FairyLandCards:
    """Read and validate a Fairy Land card file (the shipped one when ``path`` is None).

    Raises
    ------
    fairysim.runtime.errors.CardFileError
        Naming the file, the card and the problem (unknown or missing card, wrong count, ...).
    """
    if path is None:
        return _default_cards()
    return _parse_cards(Path(path))


@cache
def _default_cards() -> FairyLandCards:
    return _parse_cards(DEFAULT_CARDS)


def _names_table(data: dict[str, Any], key: str, names: tuple[str, ...], path: Path):
    """Yield ``(type name, value)`` of table ``[key]``, which must name exactly ``names``."""
    table = require_table(data, key, path)
    for name in table:
        if name not in names:
            raise CardFileError(
                str(path), f"[{key}] {shown(name)}: unknown card (cards are {', '.join(names)})"
            )
    for name in names:
        if name not in table:
            raise CardFileError(str(path), f"[{key}] {name}: missing")
        yield name, table[name]


def _parse_cards(path: Path) -> FairyLandCards:
    data = read_toml(path)
    for key in data:
        if key not in ("forest", "majority", "house"):
            raise CardFileError(str(path), f"unknown table [{shown(key)}]")
    forest = np.zeros(N_CARD_TYPES, dtype=np.int64)
    for name, count in _names_table(data, "forest", FOREST_NAMES, path):
        t = CARD_NAMES.index(name)
        top = MAX_FOREST  # the whole forest's bound, checked per card before it is stored
        if t in SINGLE_CARDS:
            top = 1
        elif t in FLOWERS:
            top = MAX_FLOWERS_OF_A_COLOUR
        forest[t] = require_int(count, f"[forest] {name}", path, 0, top)
    total = int(forest.sum())
    if not MIN_FOREST <= total <= MAX_FOREST:
        raise CardFileError(
            str(path),
            f"[forest] holds {total} cards; the game needs {MIN_FOREST} to {MAX_FOREST}",
        )
    animal_names = CARD_NAMES[FIRST_ANIMAL : FIRST_ANIMAL + N_ANIMALS]
    majority = np.zeros(N_ANIMALS, dtype=np.int64)
    for name, points in _names_table(data, "majority", animal_names, path):
        majority[ANIMALS.index(CARD_NAMES.index(name))] = require_int(
            points, f"[majority] {name}", path, 0, MAX_MAJORITY_POINTS
        )
    house = require_table(data, "house", path)
    for key in house:
        if key not in ("fairy_values", "crests", "crests_two_players"):
            raise CardFileError(str(path), f"[house] {shown(key)}: unknown key")
    values = house.get("fairy_values")
    if not isinstance(values, list) or len(values) != N_HOUSE_FAIRIES:
        raise CardFileError(
            str(path), f"[house] fairy_values must list the {N_HOUSE_FAIRIES} fairies' values"
        )
    face_value = np.full(N_FAIRY_TYPES, SPECIAL_FACE_VALUE, dtype=np.int64)
    for i, v in enumerate(values):
        face_value[i] = require_int(v, f"[house] fairy_values[{i}]", path, 1, MAX_FAIRY_VALUE)
    crests = require_int(house.get("crests"), "[house] crests", path, 0, MAX_CRESTS)
    crests_two = require_int(
        house.get("crests_two_players"), "[house] crests_two_players", path, 0, MAX_CRESTS
    )
    return FairyLandCards(forest, majority, face_value, crests, crests_two, str(path))


# --- The court file -----------------------------------------------------------------------------

# Each primitive's parameters: name -> (item-table column, minimum, maximum); "cards" and
# "at_least" are read by _card_mask.
_PARAMETERS: dict[int, dict[str, tuple[int, int, int]]] = {
    BID_BONUS: {"bonus": (IT_AMOUNT, 1, MAX_BONUS)},
    VISIT_BONUS: {"bonus": (IT_AMOUNT, 1, MAX_BONUS)},
    POINTS_PER_CARD_TYPE: {
        "points": (IT_AMOUNT, 1, MAX_ITEM_POINTS),
        "at_least": (IT_AT_LEAST, 1, MAX_FOREST),
    },
    FLAT_POINTS: {"points": (IT_AMOUNT, 1, MAX_ITEM_POINTS)},
    PENDANT_PAIR: {"points": (IT_AMOUNT, 1, MAX_ITEM_POINTS)},
    OGRE_WARD: {},
    NET: {},
    BROOM: {},
    GOBLIN_TRAP: {"goblins": (IT_AMOUNT, 1, MAX_FOREST)},
    HORN_OF_RECALL: {"fairies": (IT_AMOUNT, 1, MAX_HAND)},
    DRUIDS_KEY: {},
}
_OPTIONAL = {"at_least"}
_ITEM_KEYS = {"id", "name", "starred", "effect"}


def load_court(court: str | Path | None = None) -> Court:
    """Read and validate a Queen's Court file.

    Parameters
    ----------
    court : None, ``"starred"``, ``"none"``, str or Path
        None: the shipped provisional court of 19 items (a game draws 9 of them, L2);
        ``"starred"``: its 9 starred items (the first-game court); ``"none"``: a court of no
        effect (ruling PL9); otherwise a court file laid out like ``data/court.toml``.

    Raises
    ------
    fairysim.runtime.errors.CardFileError
        Naming the file, the item and the problem (unknown primitive or key, wrong type,
        duplicate id, wrong number of items, ...).
    """
    if court is None:
        return _default_court()
    if isinstance(court, str) and court.strip().lower() == STARRED:
        return _starred_court()
    if isinstance(court, str) and court.strip().lower() == NO_EFFECT:
        return _no_effect_court()
    return _parse_court(Path(court))


@cache
def _default_court() -> Court:
    return _parse_court(DEFAULT_COURT)


@cache
def _starred_court() -> Court:
    full = _default_court()
    keep = [i for i, s in enumerate(full.starred) if s]
    if len(keep) != COURT_DECK_SIZE:
        raise CardFileError(
            full.source, f"marks {len(keep)} items starred; the first-game court has 9"
        )
    return Court(
        tuple(full.ids[i] for i in keep),
        tuple(full.names[i] for i in keep),
        tuple(True for _ in keep),
        full.table[keep].copy(),
        full.provisional,
        STARRED,
        full.source,
    )


@cache
def _no_effect_court() -> Court:
    """As many items as the shipped court (so a game's deal draws the same numbers, L2), each
    a ``flat_points`` item worth 0: an item the Queen gives and that does nothing (PL9)."""
    n = _default_court().n_items
    table = np.zeros((n, ITEM_FIELDS), dtype=np.int64)
    table[:, IT_PRIMITIVE] = FLAT_POINTS
    return Court(
        tuple(f"no_effect_{i + 1}" for i in range(n)),
        tuple(f"No effect {i + 1}" for i in range(n)),
        tuple(False for _ in range(n)),
        table,
        provisional=False,
        selection=NO_EFFECT,
        source=NO_EFFECT,
    )


def _card_mask(value: Any, where: str, path: Path) -> int:
    """Bitmask of the card types named by ``value`` (a card or group name, or a list of them).

    A card named twice (itself twice, or itself and a group holding it) is refused: the item
    would silently count it once, which is not what a file listing it twice seems to say.
    """
    names = value if isinstance(value, list) else [value]
    if not names:
        raise CardFileError(str(path), f"{where}: cards must name at least one card")
    mask = 0
    for name in names:
        if not isinstance(name, str):
            raise CardFileError(str(path), f"{where}: cards must be names, got {shown(name)}")
        key = name.strip().lower()
        if key in CARD_GROUPS:
            bits = sum(1 << t for t in set(CARD_GROUPS[key]))
        elif key in FOREST_NAMES:
            bits = 1 << CARD_NAMES.index(key)
        else:
            raise CardFileError(
                str(path),
                f"{where}: unknown card {shown(name)} (cards are {', '.join(FOREST_NAMES)}, or a "
                f"group: {', '.join(CARD_GROUPS)})",
            )
        if bits & mask:
            twice = [CARD_NAMES[t] for t in range(len(CARD_NAMES)) if bits & mask & (1 << t)]
            raise CardFileError(
                str(path), f"{where}: cards names {', '.join(twice)} more than once"
            )
        mask |= bits
    return mask


def _parse_item(item: dict[str, Any], i: int, seen: set[str], path: Path) -> tuple:
    if "id" not in item:
        raise CardFileError(str(path), f"[[item]] number {i + 1} has no id")
    item_id = require_text(item["id"], f"[[item]] number {i + 1}: id", path, MAX_ITEM_ID_CHARS)
    where = f"item {item_id}"
    if item_id.lower() in seen:
        raise CardFileError(str(path), f"{where}: duplicate id {item_id!r}")
    seen.add(item_id.lower())
    name = require_text(item.get("name", item_id), f"{where}: name", path, MAX_ITEM_NAME_CHARS)
    starred = item.get("starred", False)
    if not isinstance(starred, bool):
        raise CardFileError(
            str(path), f"{where}: starred must be true or false, got {shown(starred)}"
        )
    effect = item.get("effect")
    if effect not in PRIMITIVES:
        raise CardFileError(
            str(path),
            f"{where}: unknown effect {shown(effect)} (primitives are {', '.join(PRIMITIVES)})",
        )
    primitive = PRIMITIVES.index(effect)
    parameters = _PARAMETERS[primitive]
    row = np.zeros(ITEM_FIELDS, dtype=np.int64)
    row[IT_PRIMITIVE] = primitive
    for key in item:
        if key not in _ITEM_KEYS and key not in parameters and key != "cards":
            raise CardFileError(str(path), f"{where}: unknown key {shown(key)} for effect {effect}")
        if key == "cards" and primitive != POINTS_PER_CARD_TYPE:
            raise CardFileError(str(path), f"{where}: unknown key 'cards' for effect {effect}")
    for key, (column, low, high) in parameters.items():
        if key not in item:
            if key in _OPTIONAL:
                continue
            raise CardFileError(str(path), f"{where}: effect {effect} needs {key} = <integer>")
        row[column] = require_int(item[key], f"{where}: {key}", path, low, high)
    if primitive == POINTS_PER_CARD_TYPE:
        if "cards" not in item:
            raise CardFileError(str(path), f'{where}: effect {effect} needs cards = "..."')
        row[IT_CARDS] = _card_mask(item["cards"], where, path)
    return item_id, name, starred, row


def _parse_court(path: Path) -> Court:
    data = read_toml(path)
    for key in data:
        if key not in ("provisional", "item"):
            raise CardFileError(
                str(path),
                f"unknown key {shown(key)} (a court file has provisional and [[item]] entries)",
            )
    provisional = data.get("provisional", False)
    if not isinstance(provisional, bool):
        raise CardFileError(
            str(path), f"provisional must be true or false, got {shown(provisional)}"
        )
    items = data.get("item")
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
        raise CardFileError(str(path), "missing [[item]] entries")
    if not COURT_DECK_SIZE <= len(items) <= MAX_COURT_ITEMS:
        raise CardFileError(
            str(path),
            f"has {len(items)} items; a court needs {COURT_DECK_SIZE} to {MAX_COURT_ITEMS}",
        )
    seen: set[str] = set()
    parsed = [_parse_item(item, i, seen, path) for i, item in enumerate(items)]
    return Court(
        tuple(p[0] for p in parsed),
        tuple(p[1] for p in parsed),
        tuple(p[2] for p in parsed),
        np.array([p[3] for p in parsed], dtype=np.int64),
        provisional,
        "all",
        str(path),
    )
