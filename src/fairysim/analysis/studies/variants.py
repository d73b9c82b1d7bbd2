"""A what-if's setups: the baseline and each variant as run options, parsed and checked.

A setup is written as ``key=value`` items joined by ``;``, for example
``"cards=my_cards.toml;policy=random,greedy,greedy,greedy"`` or ``"<axis>=<value>"`` for an
axis of the game's ``fairysim simulate``. The keys are the game's ``make_setup`` keywords other
than ``players`` and ``seed`` (``cards`` and its setup axes, read from the game's signature, so
no game is named here), ``policy`` (the lineup, one policy or one per seat, as ``--policy``;
``policies`` is read as ``policy``), ``weights`` (the ``--weights`` syntax of ``fairysim
simulate``: ``[seat or policy:]name=value`` items joined by ``,``), ``weights_file`` (a weights
file as ``--weights-file`` takes it, ``best-response``'s ``weights.toml``, set before
``weights``) and ``label`` (the name the setup is printed under, nothing the games read). ``;``
separates items
because policies and weights already use ``,``; only the first ``=`` of an item splits key from
value. An empty string is the game's defaults. ``players`` is allowed only with the run's player
count, and ``seed`` never: both setups share the run's ``--seed``, which is what pairs their
games.

Each error is a :class:`fairysim.runtime.errors.FairysimError` naming the option (``--baseline``,
``--variant``) and what is wrong, raised before any game is played.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.sim.game import GameSpec

EXTRA_KEYS = ("weights", "weights_file", "label")
"""Keys a setup takes besides the game's ``make_setup`` keywords."""

LABEL_KEY = "label"
"""The setup key that names a variant; it changes no game."""

SETUP_ALIASES = {"policy": "policies"}
"""Setup keys read as the ``make_setup`` keyword they stand for (``policy=`` is the vocabulary
of every command's ``--policy``; ``make_setup`` takes ``policies``)."""

FIXED_KEYS = ("seed",)
"""``make_setup`` keywords a setup may not set: the run's own (pairing needs one seed)."""


def setup_keys(spec: GameSpec) -> tuple[str, ...]:
    """The keys a setup of ``spec`` may set: ``make_setup``'s keyword-only parameters (less
    ``seed``) and :data:`EXTRA_KEYS`."""
    parameters = inspect.signature(spec.make_setup).parameters.values()
    keys = [
        p.name
        for p in parameters
        if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name not in FIXED_KEYS
    ]
    aliases = [alias for alias, key in SETUP_ALIASES.items() if key in keys and alias not in keys]
    return (*aliases, *keys, *EXTRA_KEYS)


def canonical(spec: GameSpec, options: Mapping[str, Any], option: str) -> dict[str, Any]:
    """``options`` with each alias (``policy``) as the ``make_setup`` keyword it stands for."""
    keys = setup_keys(spec)
    out: dict[str, Any] = {}
    for key, value in options.items():
        target = SETUP_ALIASES.get(key, key) if key in keys else key
        if target in out:
            raise ParameterError(option, f"{key!r} and {target!r} are one setting, given twice")
        out[target] = value
    return out


def parse_setup(text: str, option: str) -> dict[str, str]:
    """``"key=value;key=value"`` as a dict; errors name ``option``.

    >>> parse_setup("cards=my.toml; policy=random,greedy", "--variant")
    {'cards': 'my.toml', 'policy': 'random,greedy'}
    """
    items: dict[str, str] = {}
    for raw in str(text).split(";"):
        item = raw.strip()
        if not item:
            continue
        key, equals, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not equals or not key:
            raise ParameterError(option, f"{item!r} is not key=value (items are joined by ';')")
        if not value:
            raise ParameterError(option, f"{key!r} has no value")
        if key in items:
            raise ParameterError(option, f"{key!r} is given twice")
        items[key] = value
    return items


def check_keys(spec: GameSpec, options: Mapping[str, Any], option: str, players: int) -> None:
    """Refuse a key the game's setup does not take, ``seed``, and another player count."""
    allowed = setup_keys(spec)
    for key in options:
        if key in FIXED_KEYS:
            raise ParameterError(
                option,
                f"{key!r} cannot differ between setups: both are played on {{seed}}",
                mentions=("seed",),
            )
        if key not in allowed:
            raise ParameterError(
                option,
                f"unknown option {key!r} for {spec.title}; the options are {', '.join(allowed)}",
            )
    if "players" in options and str(options["players"]).strip() != str(players):
        raise ParameterError(
            option,
            f"changes the player count to {options['players']} (the run has {players}); "
            "a comparison pairs games of one player count",
        )


@dataclasses.dataclass(frozen=True)
class Arm:
    """One side of a comparison: its label, the options it was given and its setup."""

    label: str
    options: dict[str, Any]
    setup: Any

    @property
    def config(self) -> dict[str, Any]:
        """The setup's saved configuration (with changed weights)."""
        return self.setup.config()


def build_arm(
    spec: GameSpec, options: Mapping[str, Any], *, players: int, seed: int, option: str, label: str
) -> Arm:
    """The validated setup of one arm; a bad value or file raises naming ``option``."""
    from fairysim.sim.weights import apply_weights, apply_weights_file

    check_keys(spec, options, option, players)
    if LABEL_KEY in options:
        label = check_label(options[LABEL_KEY], option)
    given = canonical(spec, options, option)
    kwargs = {k: v for k, v in given.items() if k not in EXTRA_KEYS and k != "players"}
    try:
        setup = spec.make_setup(players=players, seed=seed, **kwargs)
        policies = apply_weights_file(setup.policies, given.get("weights_file"))
        if given.get("weights"):
            policies = apply_weights(policies, str(given["weights"]))
        setup = dataclasses.replace(setup, policies=policies)
    except FairysimError as error:
        raise setup_error(option, error) from None
    return Arm(label, {k: v for k, v in options.items() if k != LABEL_KEY}, setup)


def setup_key_of(where: str) -> str:
    """The setup key a ``make_setup`` error is about: ``policies`` or ``--policy`` read as
    ``policy``, a setup axis's flag (``--<axis>``) as the axis; a file's path stays as it is."""
    name = where[2:].replace("-", "_") if where.startswith("--") else where
    keys = {key: alias for alias, key in SETUP_ALIASES.items()}
    return keys.get(name, name)


def setup_error(option: str, error: FairysimError) -> ParameterError:
    """``error`` from building a setup as one about parameter ``option``, naming the setup key
    at fault as a setup names it (``variants: policy: gave 2 policies ...``), not as an option of
    another command would."""
    where = setup_key_of(error.where)
    if isinstance(error, ParameterError):
        return ParameterError(option, f"{where}: {error.template}", mentions=error.mentions)
    return ParameterError(option, f"{where}: {error.message}")


MAX_LABEL_CHARS = 32
"""Longest label a variant is printed under (tables and figure legends stay readable)."""


def check_label(label: Any, option: str) -> str:
    """A label as given, stripped; refused when empty, longer than :data:`MAX_LABEL_CHARS`, or
    holding a ``;`` (which would read as another setup item)."""
    text = str(label).strip()
    if not text:
        raise ParameterError(option, "a label is empty")
    if len(text) > MAX_LABEL_CHARS:
        raise ParameterError(
            option, f"label {text!r} is {len(text)} characters; at most {MAX_LABEL_CHARS}"
        )
    return text


def short_label(options: Mapping[str, Any], baseline: Mapping[str, Any]) -> str:
    """A short name for a setup: the items it sets otherwise than ``baseline`` (a card file as
    its file name without its suffix) and ``key=default`` for a baseline item it leaves out,
    cut to :data:`MAX_LABEL_CHARS` characters; its own ``label`` where it has one.

    >>> short_label({"policy": "hoarder", "cards": "variants/rich.toml"}, {"policy": "hoarder"})
    'rich'
    >>> short_label({"board": "II", "weights": "finale=2"}, {})
    'board=II weights=finale=2'
    >>> short_label({"board": "III"}, {"policy": "hoarder"})
    'board=III policy=default'
    """
    if LABEL_KEY in options:
        return str(options[LABEL_KEY]).strip()
    items = []
    for key, value in options.items():
        if baseline.get(key) == value:
            continue
        items.append(Path(str(value)).stem if key == "cards" else f"{key}={value}")
    items += [f"{key}=default" for key in baseline if key not in options and key != LABEL_KEY]
    text = " ".join(items) or "(defaults)"
    if len(text) > MAX_LABEL_CHARS:
        text = text[: MAX_LABEL_CHARS - 1].rstrip() + "…"
    return text


def cards_digest(setup: Any) -> str:
    """A digest of what the engine reads from the setup's card set (its ``arrays()``)."""
    digest = hashlib.sha256()
    for array in setup.cards.arrays():
        data = np.ascontiguousarray(np.asarray(array))
        digest.update(str(data.dtype).encode() + str(data.shape).encode())
        digest.update(data.tobytes() if data.dtype != object else repr(data.tolist()).encode())
    return digest.hexdigest()


def play_key(arm: Arm) -> tuple[str, str]:
    """What decides an arm's games: its configuration less the card file's path, and the
    digest of the card set's contents (two paths to the same cards play the same games)."""
    import json

    config = {k: v for k, v in arm.config.items() if k != "cards"}
    weights = [list(p.weights) for p in arm.setup.policies]
    return json.dumps({**config, "weights": weights}, sort_keys=True, default=str), cards_digest(
        arm.setup
    )


def check_distinct(baseline: Arm, variant: Arm, option: str) -> None:
    """Refuse a variant that plays the very games of the baseline."""
    if play_key(baseline) == play_key(variant):
        raise ParameterError(
            option,
            f"{variant.label!r} is the baseline's setup (same configuration and cards); "
            "nothing would differ",
        )


def same_cards(baseline: Arm, variant: Arm) -> bool:
    """Whether both arms' engines read the same card data."""
    return cards_digest(baseline.setup) == cards_digest(variant.setup)


@dataclasses.dataclass(frozen=True)
class CardChange:
    """What differs between two arms' card data.

    ``counts`` and ``values`` name the card set's fields that differ, split by the card set's
    ``DRAWN_FIELDS`` (what the engine shuffles and deals: the number of each card); a field
    whose array changes shape (a card added or removed) counts as a count. ``declared`` says
    whether the card set declares its drawn fields at all (without it no split is claimed).
    """

    counts: tuple[str, ...]
    values: tuple[str, ...]
    declared: bool

    @property
    def same(self) -> bool:
        return not self.counts and not self.values


def _field_arrays(cards: Any) -> dict[str, Any]:
    if not dataclasses.is_dataclass(cards):
        return {"cards": tuple(np.asarray(a).tolist() for a in cards.arrays())}
    return {f.name: getattr(cards, f.name) for f in dataclasses.fields(cards) if f.name != "source"}


def card_change(baseline: Arm, variant: Arm) -> CardChange:
    """Which card fields differ between the arms, counts apart from values."""
    base, other = baseline.setup.cards, variant.setup.cards
    drawn = getattr(type(base), "DRAWN_FIELDS", None)
    base_fields, other_fields = _field_arrays(base), _field_arrays(other)
    counts, values = [], []
    for name, mine in base_fields.items():
        theirs = other_fields.get(name)
        a, b = np.asarray(mine, dtype=object), np.asarray(theirs, dtype=object)
        if a.shape == b.shape and bool((a == b).all()):
            continue
        is_count = drawn is None or name in drawn or a.shape != b.shape
        (counts if is_count else values).append(name)
    return CardChange(tuple(counts), tuple(values), drawn is not None)


CARD_FILE_SUFFIX = ".toml"
"""The suffix of a card file (every game's shipped ``data/cards.toml``)."""


def card_file_variants(
    folder: str | Path, option: str, base: Mapping[str, Any] | None = None
) -> list[tuple[str, dict[str, Any]]]:
    """One variant per card file in ``folder``, labelled by the file's name without its suffix.

    Each variant is ``base`` (the baseline's other options, so only the cards differ) with
    ``cards`` set to the file. The files are taken in name order, so a folder gives the same
    variants, in the same order, on every machine. An error names ``option``: a path that is no
    folder, or a folder without a ``.toml`` file.

    >>> card_file_variants("no/such/folder", "variant_cards")
    Traceback (most recent call last):
    ...
    fairysim.runtime.errors.ParameterError: variant_cards: no/such/folder is not a folder
    """
    path = Path(folder)
    if not path.is_dir():
        raise ParameterError(option, f"{folder} is not a folder")
    files = sorted(p for p in path.iterdir() if p.suffix == CARD_FILE_SUFFIX and p.is_file())
    if not files:
        raise ParameterError(option, f"{folder} holds no {CARD_FILE_SUFFIX} card file")
    options = {k: v for k, v in (base or {}).items() if k != "cards"}
    return [(f.stem, {**options, "cards": str(f)}) for f in files]


def describe(options: Mapping[str, Any]) -> str:
    """A setup's options as the ``key=value;...`` text it would be given as."""
    return ";".join(f"{k}={v}" for k, v in options.items()) or "(defaults)"


__all__ = [
    "Arm",
    "CardChange",
    "build_arm",
    "card_change",
    "card_file_variants",
    "check_distinct",
    "check_keys",
    "check_label",
    "describe",
    "parse_setup",
    "same_cards",
    "setup_error",
    "setup_keys",
    "short_label",
]
