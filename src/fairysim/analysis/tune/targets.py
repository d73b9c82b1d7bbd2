"""The targets file of ``fairysim tune``: what to judge, what may change, and the bands.

A targets file is TOML (docs/tune.md)::

    players = [4]                 # player counts every target is judged at
    policies = ["greedy"]         # every target must hold under each of these
    setup = { fan = "III" }       # optional make_setup choices (the game's setup axes)

    [vary]                        # the numbers tune may change: dotted paths into the card file
    "grande_finale_medals.gold" = { min = 5, max = 100, step = 5 }
    "medals.gold[6]" = { values = [12, 14, 16, 18, 20] }

    [targets]
    finale_decides = { between = [0.25, 0.45] }
    turn_order_gap = { max = 0.01 }

Everything is checked before any game is played, and every value a ``[vary]`` entry allows is
put in the card file alone and read back by the game's own card-file checks (its
``load_cards``, then its ``make_setup`` at every listed player count): a range the checks refuse
is an error naming the targets file and the key, never a failed candidate halfway through a
search. A bad file is one :class:`~fairysim.runtime.errors.FairysimError` naming the file and
the key.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from fairysim.analysis.tune.cardpaths import (
    PathError,
    Step,
    changed_text,
    is_number,
    parse_path,
    read_document,
    value_at,
)
from fairysim.analysis.tune.measures import COMMON, Measure, measures_for, table_variants
from fairysim.runtime.errors import FairysimError
from fairysim.sim.datafile import read_toml
from fairysim.sim.game import GameSpec

TOP_KEYS = ("players", "policies", "setup", "vary", "targets")
"""The keys a targets file may have."""

BANDS = ("between", "max", "min")
"""How a target states its band."""

MAX_VALUES = 1000
"""Most values one ``[vary]`` entry may allow (a grid finer than this is a typo)."""

Number = int | float


@dataclass(frozen=True)
class Vary:
    """One number tune may change: its ``key`` as written, its path, the value in the base
    card file and the other values allowed."""

    key: str
    steps: tuple[Step, ...]
    base: Number
    values: tuple[Number, ...]

    @property
    def choices(self) -> tuple[Number, ...]:
        """The base value first, then the alternatives (a search's choice 0 changes nothing)."""
        return (self.base, *self.values)


@dataclass(frozen=True)
class Target:
    """A measure and its band ``[low, high]`` (None: open on that side)."""

    measure: str
    low: float | None
    high: float | None

    @property
    def text(self) -> str:
        """The band in words, in the measure's own units (the files' ``band``)."""
        return self.words(lambda value: f"{value:g}")

    def words(self, shown: Callable[[float], str]) -> str:
        """The band in words, each edge written by ``shown`` (a page's percent)."""
        if self.low is not None and self.high is not None:
            return f"between {shown(self.low)} and {shown(self.high)}"
        if self.high is not None:
            return f"at most {shown(self.high)}"
        return f"at least {shown(self.low)}"

    @property
    def scale(self) -> float:
        """The unit distances to the band are counted in: the band's width, or the size of its
        one edge (1 where that is 0)."""
        if self.low is not None and self.high is not None and self.high > self.low:
            return self.high - self.low
        edge = self.high if self.high is not None else self.low
        return abs(edge) if edge else 1.0

    def distance(self, value: float) -> float:
        """How far ``value`` lies outside the band, in :attr:`scale` units (0 inside)."""
        if not math.isfinite(value):
            return math.inf
        below = self.low - value if self.low is not None else 0.0
        above = value - self.high if self.high is not None else 0.0
        return max(0.0, below, above) / self.scale

    def met(self, low: float, high: float) -> bool:
        """Whether the interval ``[low, high]`` lies inside the band."""
        if not (math.isfinite(low) and math.isfinite(high)):
            return False
        return (self.low is None or low >= self.low) and (self.high is None or high <= self.high)

    def edges(self) -> list[float]:
        """The band's finite edges."""
        return [edge for edge in (self.low, self.high) if edge is not None]


@dataclass(frozen=True)
class TuneTargets:
    """A checked targets file and the base card file it varies."""

    source: str
    game: str
    players: tuple[int, ...]
    policies: tuple[str, ...]
    setup: Mapping[str, Any]
    vary: tuple[Vary, ...]
    targets: tuple[Target, ...]
    cards: str
    document: Any = field(repr=False, compare=False)
    pair: tuple[str, str] | None = None
    """The strongest and the weakest listed policy on the game's skill ladder, where a target
    is read between two policies (``skill_gap``)."""
    measures: Mapping[str, Measure] = field(repr=False, compare=False, default_factory=dict)

    def changes(self, choice: Sequence[int]) -> dict[tuple[Step, ...], Number]:
        """The card changes of a candidate: ``choice[k]`` indexes ``vary[k].choices``."""
        return {
            vary.steps: vary.choices[index]
            for vary, index in zip(self.vary, choice, strict=True)
            if index
        }

    def cards_text(self, choice: Sequence[int]) -> str:
        """The base card file with a candidate's changes."""
        return changed_text(self.document, self.changes(choice))

    def flags(self) -> dict[str, Any]:
        """The ``play_chunks`` flags the targets' measures need."""
        out: dict[str, Any] = {}
        for target in self.targets:
            out.update(self.measures[target.measure].flags)
        return out


class _Where:
    """Errors naming the targets file and a key of it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self, key: str, message: str) -> FairysimError:
        return FairysimError(str(self.path), f"{key}: {message}")


def load_targets(spec: GameSpec, path: str | Path, cards: str | Path | None = None) -> TuneTargets:
    """Read and check the targets file at ``path`` for ``spec``'s game, against the card file
    ``cards`` (the game's shipped one for None).

    Raises
    ------
    FairysimError
        Naming the file and the key at fault, before any game is played.
    """
    path = Path(path)
    where = _Where(path)
    data = read_toml(path)
    for key in data:
        if key not in TOP_KEYS:
            raise where(key, f"unknown key; a targets file has {', '.join(TOP_KEYS)}")
    base_cards = spec.load_cards(cards)
    players = _players(spec, data.get("players", [spec.default_players]), where)
    policies = _policies(spec, data.get("policies", ["greedy"]), where)
    setup = _setup(spec, data.get("setup", {}), where)
    try:
        spec.make_setup(players=players[0], policies=policies[0], seed=0, cards=base_cards, **setup)
    except FairysimError as error:
        raise where("setup", error.message) from None
    measures = measures_for(spec)
    given = _card_targets(data.get("targets"), measures)
    measures = _bind_cards(spec, given, measures, players, policies, base_cards, setup, where)
    targets = _targets(given, measures, players, where, _absent(spec))
    pair = _pair(spec, policies, targets, measures, where)
    document = read_document(base_cards.source)
    vary = _vary(data.get("vary"), document, where)
    checked = TuneTargets(
        source=str(path),
        game=spec.name,
        players=players,
        policies=policies,
        setup=setup,
        vary=vary,
        targets=targets,
        cards=str(base_cards.source),
        document=document,
        measures=measures,
        pair=pair,
    )
    check_values(spec, checked, where)
    return checked


def _players(spec: GameSpec, given: Any, where: _Where) -> tuple[int, ...]:
    given = given if isinstance(given, list) else [given]
    if not given:
        raise where("players", "give at least one player count")
    counts = []
    for count in given:
        try:
            counts.append(spec.check_players(count, text=False))
        except FairysimError as error:
            raise where("players", error.message) from None
    return tuple(dict.fromkeys(counts))


def _policies(spec: GameSpec, given: Any, where: _Where) -> tuple[str, ...]:
    given = given if isinstance(given, list) else [given]
    if not given:
        raise where("policies", "give at least one policy")
    known = list(spec.policies)
    for policy in given:
        if policy not in known:
            raise where("policies", f"unknown policy {policy!r}; they are {', '.join(known)}")
    return tuple(dict.fromkeys(given))


def _setup(spec: GameSpec, given: Any, where: _Where) -> dict[str, Any]:
    if not isinstance(given, dict):
        raise where("setup", "must be a table of the game's setup choices")
    axes = [axis.name for axis in spec.axes]
    for key in given:
        if key not in axes:
            raise where(f"setup.{key}", f"unknown setup choice; they are {', '.join(axes)}")
    return dict(given)


def _absent(spec: GameSpec) -> dict[str, str]:
    """Why the game lacks each measure of every game it lacks, by name."""
    return {
        m.name: f"{spec.title} has no {m.name}: {m.absent}"
        for m in COMMON
        if not m.available(spec) and m.absent
    }


def _targets(
    given: Any,
    measures: Mapping[str, Measure],
    players: tuple[int, ...],
    where: _Where,
    absent: Mapping[str, str],
) -> tuple[Target, ...]:
    if not isinstance(given, dict) or not given:
        raise where("targets", "give at least one target (a measure and its band)")
    out = []
    for name, band in given.items():
        key = f"targets.{name}"
        measure = measures.get(name)
        head = str(name).partition(".")[0]
        if measure is None and head in absent:
            raise where(key, absent[head])
        if measure is None:
            raise where(key, f"unknown measure; this game's are {', '.join(measures)}")
        if min(players) < measure.min_players:
            raise where(key, f"needs at least {measure.min_players} players at every count")
        if measure.max_players is not None and max(players) > measure.max_players:
            raise where(key, f"is measured at {measure.max_players} player(s) at most")
        if not isinstance(band, dict) or len(band) != 1 or next(iter(band)) not in BANDS:
            raise where(key, "must be one of { between = [lo, hi] }, { max = x }, { min = x }")
        ((kind, value),) = band.items()
        if kind == "between":
            if not (isinstance(value, list) and len(value) == 2 and all(map(is_number, value))):
                raise where(key, "between must be two numbers [lo, hi]")
            low, high = float(value[0]), float(value[1])
            if low > high:
                raise where(key, f"between [{low:g}, {high:g}] has lo > hi")
        elif not is_number(value):
            raise where(key, f"{kind} must be a number, got {value!r}")
        else:
            low = float(value) if kind == "min" else None
            high = float(value) if kind == "max" else None
        out.append(Target(name, low, high))
    return tuple(out)


def _card_targets(given: Any, measures: Mapping[str, Measure]) -> Any:
    """The targets table with ``forced_effect.8 = {...}`` (TOML's dotted key, a table of
    cards) flattened to ``"forced_effect.8" = {...}``, for every measure that names a card
    (one the game lacks too, so that its error names the card's key)."""
    if not isinstance(given, dict):
        return given
    naming = {m.name for m in (*COMMON, *measures.values()) if m.names_card}
    out: dict[str, Any] = {}
    for name, band in given.items():
        cards = isinstance(band, dict) and not set(band) & set(BANDS)
        if name in naming and cards and band:
            out.update({f"{name}.{card}": value for card, value in band.items()})
        else:
            out[name] = band
    return out


def _named_cards(spec: GameSpec, measure: Measure, setup: Any) -> list[tuple[Any, str]]:
    """The ``(key, label)`` of every card a card-naming measure can name at ``setup``: the
    card-effect study's cards (their ids) or the table-card study's (their labels)."""
    if measure.table:
        return [(label, label) for label, _ in table_variants(spec, setup)]
    from fairysim.analysis.studies.card_effects import effect_cards

    return list(effect_cards(spec, setup))


def _bind_cards(
    spec: GameSpec,
    given: Any,
    measures: Mapping[str, Measure],
    players: tuple[int, ...],
    policies: tuple[str, ...],
    cards: Any,
    setup: Mapping[str, Any],
    where: _Where,
) -> dict[str, Measure]:
    """``measures`` with a bound measure for each ``<measure>.<card>`` target of a measure that
    names a card: the card named by its label (case aside) or its key (a forced card's id)
    among the cards the game declares at every listed player count."""
    out = dict(measures)
    if not isinstance(given, dict):
        return out
    for name in given:
        head, dot, card = str(name).partition(".")
        measure = measures.get(head)
        if measure is None or not measure.names_card:
            continue
        key = f"targets.{name}"
        if not dot or not card.strip():
            example = "by its label in the report" if measure.table else f"e.g. {head}.1"
            raise where(key, f"name the card: {head}.<card>, {example}")
        found, label = None, ""
        for count in players:
            base = spec.make_setup(
                players=count, policies=policies[0], seed=0, cards=cards, **setup
            )
            declared = _named_cards(spec, measure, base)
            match = [(c, n) for c, n in declared if n.lower() == card.strip().lower()]
            match = match or [(c, n) for c, n in declared if str(c) == card.strip()]
            if not match:
                labels = ", ".join(n for _, n in declared)
                kind = "table card" if measure.table else "card"
                raise where(key, f"{card!r} is no {kind} of this game at {count} players: {labels}")
            found, label = match[0]
        if measure.table:
            out[name] = replace(
                measure, name=name, label=f"table-card effect of {label}", table_card=found
            )
        else:
            out[name] = replace(
                measure, name=name, label=f"forced-card effect of {label}", card=found
            )
    return out


def _pair(
    spec: GameSpec,
    policies: tuple[str, ...],
    targets: tuple[Target, ...],
    measures: Mapping[str, Measure],
    where: _Where,
) -> tuple[str, str] | None:
    """The (stronger, weaker) policies a pair measure is read between: the listed policies
    highest and lowest on the game's skill ladder."""
    wanted = [t.measure for t in targets if measures[t.measure].pair]
    if not wanted:
        return None
    ranked = [p for p in spec.ladder if p in policies]
    if len(ranked) < 2:
        raise where(
            f"targets.{wanted[0]}",
            "needs two listed policies on the game's skill ladder "
            f"({', '.join(spec.ladder)}) to seat the stronger against the weaker",
        )
    return ranked[-1], ranked[0]


def _grid(spec: Any, key: str, base: Number, where: _Where) -> list[Number]:
    if not isinstance(spec, dict):
        raise where(key, "must be { min, max, step } or { values = [...] }")
    if set(spec) == {"values"}:
        values = spec["values"]
        if not isinstance(values, list) or not values or not all(map(is_number, values)):
            raise where(key, "values must be a non-empty list of numbers")
    elif set(spec) == {"min", "max", "step"}:
        low, high, step = spec["min"], spec["max"], spec["step"]
        if not all(map(is_number, (low, high, step))):
            raise where(key, "min, max and step must be numbers")
        if step <= 0:
            raise where(key, f"step must be above 0, got {step!r}")
        if low > high:
            raise where(key, f"min {low!r} is above max {high!r}")
        count = math.floor((high - low) / step + 1e-9) + 1
        if count > MAX_VALUES:
            raise where(key, f"allows {count} values; at most {MAX_VALUES}")
        values = [round(low + k * step, 10) for k in range(count)]
    else:
        raise where(key, f"must be {{ min, max, step }} or {{ values = [...] }}, got {spec!r}")
    if len(values) > MAX_VALUES:
        raise where(key, f"allows {len(values)} values; at most {MAX_VALUES}")
    if isinstance(base, int):
        values = [int(v) if float(v).is_integer() else v for v in values]
    return list(dict.fromkeys(values))


def _vary(given: Any, document: Any, where: _Where) -> tuple[Vary, ...]:
    if not isinstance(given, dict) or not given:
        raise where("vary", "give at least one number to vary")
    out: list[Vary] = []
    seen: dict[tuple[Step, ...], str] = {}
    for key, spec in given.items():
        label = f"vary.{key!r}"
        try:
            steps = parse_path(key)
            base = value_at(document, steps)
        except PathError as error:
            raise where(label, f"unknown path: {error}") from None
        if not is_number(base):
            raise where(label, f"is not a number in the card file (it holds {base!r})")
        base = base.unwrap() if hasattr(base, "unwrap") else base
        if steps in seen:
            raise where(label, f"names the same number as {seen[steps]!r}")
        seen[steps] = key
        values = [v for v in _grid(spec, label, base, where) if v != base]
        if not values:
            raise where(label, f"allows no value but the card file's own ({base!r})")
        out.append(Vary(key, steps, base, tuple(values)))
    return tuple(out)


def check_values(spec: GameSpec, targets: TuneTargets, where: _Where) -> None:
    """Put every value each ``[vary]`` entry allows into the card file alone and read it back
    through the game's card checks and its setup at every player count."""
    with tempfile.TemporaryDirectory(prefix="fairysim-tune-") as folder:
        for k, vary in enumerate(targets.vary):
            for index in range(1, len(vary.choices)):
                choice = [0] * len(targets.vary)
                choice[k] = index
                try:
                    cards = cards_from_text(spec, targets.cards_text(choice), Path(folder))
                    for players in targets.players:
                        spec.make_setup(
                            players=players,
                            policies=targets.policies[0],
                            seed=0,
                            cards=cards,
                            **targets.setup,
                        )
                except FairysimError as error:
                    raise where(
                        f"vary.{vary.key!r}",
                        f"{vary.choices[index]!r} is refused by the card checks ({error.message})",
                    ) from None


def cards_from_text(spec: GameSpec, text: str, folder: Path, name: str = "candidate") -> Any:
    """The game's card set of the card file ``text`` (written to ``folder/<name>.toml`` and
    read by the game's ``load_cards``, with all its checks)."""
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return spec.load_cards(path)


__all__ = [
    "BANDS",
    "TOP_KEYS",
    "Target",
    "TuneTargets",
    "Vary",
    "cards_from_text",
    "load_targets",
]
