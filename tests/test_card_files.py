"""Card and court files of every game: a file either loads within the game's limits or is refused
with one :class:`CardFileError` line naming the file, never another exception.

The property-based part generates TOML documents three ways: the shipped file with values
replaced, keys added and tables removed (valid structure, random values and keys); whole random
documents; and random bytes spliced into the shipped text. It runs pure Python (no engine), a
bounded number of examples by default and many more under ``-m slow``.
"""

from __future__ import annotations

import copy
import json
import math
import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairysim.runtime.errors import CardFileError
from fairysim.sim.concerto import cards as concerto_cards
from fairysim.sim.datafile import MAX_CARD_FILE_BYTES
from fairysim.sim.fairyland import cards as fairyland_cards
from fairysim.sim.fairyland import rules as fairyland_rules
from fairysim.sim.fantastique import cards as fantastique_cards

FILES = {
    "fantastique": (fantastique_cards.load_cards, fantastique_cards.DEFAULT_CARDS),
    "concerto": (concerto_cards.load_cards, concerto_cards.DEFAULT_CARDS),
    "fairyland": (fairyland_cards.load_cards, fairyland_cards.DEFAULT_CARDS),
    "fairyland-court": (fairyland_cards.load_court, fairyland_cards.DEFAULT_COURT),
}
"""Each kind of data file a user may pass: its loader and the shipped file."""

FAST = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""The default suite: few examples, the same ones every run."""
SLOW = settings(FAST, max_examples=1500, derandomize=False)
"""``-m slow``: many more, new ones each run."""

MAX_MESSAGE_CHARS = 400


# --- What every card file must do ---------------------------------------------------------------


def check_limits(kind: str, cards) -> None:
    """A loaded file holds only values inside the limits its engines are sized for."""
    if kind == "fantastique":
        assert cards.deck_counts[0] == 0
        assert cards.deck_counts.min() >= 0
        assert cards.deck_counts.max() <= fantastique_cards.MAX_CARDS_PER_VALUE
        for points in (cards.medal_values, cards.finale_medals):
            assert points.min() >= 0 and points.max() <= fantastique_cards.MAX_MEDAL_POINTS
    elif kind == "concerto":
        check_concerto_limits(cards)
    elif kind == "fairyland":
        check_fairyland_limits(cards)
    else:
        check_court_limits(cards)


def check_concerto_limits(cards) -> None:
    assert (cards.tokens >= 0).all() and (cards.tokens <= concerto_cards.MAX_TOKENS_PER_KIND).all()
    assert (cards.score_need >= 0).all() and (cards.score_need <= cards.tokens).all()
    assert (cards.score_need.sum(axis=1) > 0).all()
    for sets in (cards.pianist_sets, cards.harpist_sets):
        assert (sets >= 0).all() and (sets <= cards.tokens).all() and (sets.sum(axis=1) > 0).all()
    assert isinstance(cards.provisional, bool)
    for card_id in (*cards.score_ids, *cards.pianist_ids, *cards.harpist_ids):
        assert card_id.isprintable() and 0 < len(card_id) <= concerto_cards.MAX_ID_CHARS


def check_fairyland_limits(cards) -> None:
    assert (cards.forest >= 0).all()
    assert cards.forest[: fairyland_rules.FIRST_FOREST_TYPE].sum() == 0  # house fairies
    assert fairyland_rules.MIN_FOREST <= cards.total_forest <= fairyland_rules.MAX_FOREST
    assert (cards.majority >= 0).all()
    assert (cards.majority <= fairyland_cards.MAX_MAJORITY_POINTS).all()
    assert (cards.face_value >= 1).all()
    assert (cards.face_value <= fairyland_cards.MAX_FAIRY_VALUE).all()
    for crests in (cards.crests, cards.crests_two_players):
        assert 0 <= crests <= fairyland_cards.MAX_CRESTS


def check_court_limits(court) -> None:
    assert fairyland_rules.COURT_DECK_SIZE <= court.n_items <= fairyland_rules.MAX_COURT_ITEMS
    assert court.table.shape == (court.n_items, fairyland_rules.ITEM_FIELDS)
    assert (court.table >= 0).all()
    assert len({item_id.lower() for item_id in court.ids}) == court.n_items
    for item_id, name in zip(court.ids, court.names, strict=True):
        assert item_id.isprintable() and 0 < len(item_id) <= fairyland_cards.MAX_ITEM_ID_CHARS
        assert name.isprintable() and 0 < len(name) <= fairyland_cards.MAX_ITEM_NAME_CHARS
    assert isinstance(court.provisional, bool)
    assert all(isinstance(starred, bool) for starred in court.starred)
    for item in range(court.n_items):
        assert court.primitive(item) in fairyland_rules.PRIMITIVES


def loads_or_refuses_in_one_line(kind: str, path: Path, content: bytes) -> None:
    """Write ``content`` to ``path`` and load it: success within the limits, or CardFileError."""
    path.write_bytes(content)
    load, _ = FILES[kind]
    try:
        cards = load(path)
    except CardFileError as exc:
        message = str(exc)
        assert message.startswith(f"{path}: "), message
        assert message.isprintable(), repr(message)  # one line: no newline, no control character
        assert len(message) <= MAX_MESSAGE_CHARS, message
        return
    check_limits(kind, cards)


# --- Writing TOML (tests only: the package only reads it) ---------------------------------------


def toml_value(value) -> str:
    """``value`` as a TOML value (tables inline, so any nesting fits on one line)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{toml_string(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, less JSON's surrogate pairs (so non-ASCII
    stays as is) and plus DEL, which TOML wants escaped."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_document(data: dict) -> bytes:
    return "".join(f"{toml_string(k)} = {toml_value(v)}\n" for k, v in data.items()).encode()


def shipped(kind: str) -> dict:
    with FILES[kind][1].open("rb") as handle:
        return tomllib.load(handle)


def test_the_toml_writer_round_trips_the_shipped_files():
    for kind in FILES:
        assert tomllib.loads(toml_document(shipped(kind)).decode()) == shipped(kind)


@FAST
@given(text=st.text())
def test_the_toml_writer_round_trips_any_string(text):
    """Generated documents are valid TOML wherever meant to be, so they reach the card checks."""
    assert tomllib.loads(f"{toml_string(text)} = {toml_string(text)}") == {text: text}


# --- Strategies -----------------------------------------------------------------------------------

KNOWN_NAMES = sorted(
    {
        *fantastique_cards.TABLES,
        "gold",
        "silver",
        "bronze",
        *(str(v) for v in range(10)),
        *concerto_cards.TABLES,
        *concerto_cards.SCORE_CARD_KEYS,
        *concerto_cards.SET_CARD_KEYS,
        "trumpeter",
        "drummer",
        "violinist",
        "horn",
        "horn player",
        "composer",
        *("forest", "majority", "house", "fairy_values", "crests", "crests_two_players"),
        *fairyland_cards.FOREST_NAMES,
        *("provisional", "item", "id", "name", "starred", "effect"),
        *("bonus", "points", "cards", "at_least", "goblins", "fairies"),
        *fairyland_rules.PRIMITIVES,
        *fairyland_rules.CARD_GROUPS,
    }
)
"""Keys and strings the loaders look for: random documents use them often, so they reach past
the first check."""

keys = st.sampled_from(KNOWN_NAMES) | st.text(max_size=12)
scalars = (
    st.booleans()
    | st.integers(min_value=-3, max_value=50)
    | st.integers()
    | st.sampled_from([2**63, -(2**63) - 1, 2**64, 10**30])
    | st.floats()
    | st.sampled_from(KNOWN_NAMES)
    | st.text(max_size=20)
)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=6) | st.dictionaries(keys, children, max_size=5),
    max_leaves=20,
)


@st.composite
def mutated(draw, base: dict) -> dict:
    """``base`` with 1-4 edits at random places (mostly deep inside a table, where a file's values
    are): a value replaced, a key or item removed, a key or item added."""
    doc = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 4))):
        node = doc
        while True:
            slots = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not slots:
                break
            slot = draw(st.sampled_from(slots))
            child = node[slot]
            if isinstance(child, dict | list) and child and draw(st.integers(0, 3)):
                node = child
                continue
            action = draw(st.sampled_from(("replace", "remove", "add")))
            if action == "replace":
                node[slot] = draw(values)
            elif action == "remove":
                del node[slot]
            elif isinstance(node, dict):
                node[draw(keys)] = draw(values)
            else:
                node.append(draw(values))
            break
    return doc


@st.composite
def spliced(draw, text: bytes) -> bytes:
    """``text`` with a run of random bytes written over it or inserted at a random place."""
    at = draw(st.integers(0, len(text)))
    noise = draw(st.binary(min_size=1, max_size=16))
    if draw(st.booleans()):
        return text[:at] + noise + text[at + len(noise) :]
    return text[:at] + noise + text[at:]


def documents(kind: str):
    base = shipped(kind)
    return st.one_of(
        mutated(base).map(toml_document),
        st.dictionaries(keys, values, max_size=6).map(toml_document),
        spliced(FILES[kind][1].read_bytes()),
        st.binary(max_size=200),
    )


# --- The properties -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("card-fuzz")


@pytest.mark.parametrize("kind", FILES)
@FAST
@given(data=st.data())
def test_any_file_loads_or_is_refused_in_one_line(fuzz_dir, kind, data):
    content = data.draw(documents(kind))
    loads_or_refuses_in_one_line(kind, fuzz_dir / f"{kind}.toml", content)


@pytest.mark.slow
@pytest.mark.parametrize("kind", FILES)
@SLOW
@given(data=st.data())
def test_any_file_loads_or_is_refused_in_one_line_many_examples(fuzz_dir, kind, data):
    content = data.draw(documents(kind))
    loads_or_refuses_in_one_line(kind, fuzz_dir / f"{kind}-slow.toml", content)


@pytest.mark.parametrize("kind", FILES)
def test_the_shipped_file_written_back_loads_the_same_cards(tmp_path, kind):
    path = tmp_path / "copy.toml"
    path.write_bytes(toml_document(shipped(kind)))
    load, _ = FILES[kind]
    again, original = load(path), load()
    names = ("deck_counts", "medal_values", "tokens", "score_need", "pianist_sets", "forest")
    for name in (*names, "majority", "face_value", "table"):
        if hasattr(original, name):
            np.testing.assert_array_equal(getattr(again, name), getattr(original, name))
    for name in ("ids", "names", "starred", "provisional", "crests"):
        if hasattr(original, name):
            assert getattr(again, name) == getattr(original, name)


# --- Files that are not card files at all ---------------------------------------------------------

NOT_CARD_FILES = {
    "latin-1": ("provisional = true # caf\xe9\n".encode("latin-1"), "is not UTF-8 text (byte 0xe9"),
    "binary": (bytes(range(256)), "is not UTF-8 text (byte 0x80 at offset 128)"),
    "nul bytes": (b"[tokens]\x00\x00\n", "not valid TOML"),
    "utf-16": ("[tokens]\n".encode("utf-16"), "is not UTF-8 text (byte 0xff at offset 0)"),
    "deep nesting": (b"a = " + b"[" * 5000 + b"]" * 5000, "nested too deeply"),
    "too large": (b"# " + b"x" * MAX_CARD_FILE_BYTES + b"\n", "is larger than"),
    "multi-line syntax error": (b'a = """\nnever closed', "not valid TOML"),
}


@pytest.mark.parametrize("kind", FILES)
@pytest.mark.parametrize("name", NOT_CARD_FILES)
def test_files_that_are_not_card_files_are_refused_in_one_line(tmp_path, kind, name):
    content, message = NOT_CARD_FILES[name]
    path = tmp_path / "garbage.toml"
    path.write_bytes(content)
    with pytest.raises(CardFileError) as info:
        FILES[kind][0](path)
    text = str(info.value)
    assert text.startswith(f"{path}: ") and message in text, text
    assert text.isprintable(), repr(text)


@pytest.mark.parametrize("kind", FILES)
def test_a_directory_is_refused(tmp_path, kind):
    with pytest.raises(CardFileError, match="is a directory"):
        FILES[kind][0](tmp_path)
