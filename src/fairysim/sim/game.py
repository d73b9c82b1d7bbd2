"""The game contract: what every game declares, and the registry that lists the games.

A game is one registered unit, as pgx's ``Env`` and OpenSpiel's registered games are: the command
line, sweeps, the benchmark and the contract test reach a game only through its :class:`GameSpec`,
so a new game is one package and one registration line.

A spec is a frozen dataclass of plain data plus ``"module:attribute"`` strings for the heavy
entry points (the jitted engine, the policies), resolved on first use. Declaring
data rather than implementing a Protocol is what keeps ``fairysim --help`` instant: the spec
module of a game imports neither numba nor pandas, and a command loads a game's engine only when
it runs. This module imports nothing heavy either.

The one object with behaviour is a run's setup: :class:`GameSetup` declares what every setup
offers (the rows, labels, headline and saved configuration that ``simulate``, sweeps and reports
read) and writes it once, with the checks every game makes; a game's setup fills in its own.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.runtime.plugins import import_declarations

BUILTIN_GAME_SPECS = (
    "fairysim.sim.fantastique.spec",
    "fairysim.sim.concerto.spec",
    "fairysim.sim.fairyland.spec",
)
"""The spec modules of the games that ship with fairysim; each registers its game on import.
A game outside the package registers through the ``fairysim.games`` entry-point group (the
entry point names its spec module) or by calling :func:`register` itself."""

ENTRY_POINT_GROUP = "fairysim.games"


def load_entry(path: str) -> Any:
    """The object named by ``"package.module:attribute"`` (imported on first use)."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class SetupAxis:
    """One setup choice of a game besides the player count and the lineup (Fantastique's fan,
    Concerto's soloist card).

    Attributes
    ----------
    name : str
        Keyword of the game's ``make_setup`` (a command line's option is named after it; its
        wording is the analysis layer's).
    values : tuple of str
        Allowed values; empty when the card data lists them (see ``values_from``) or when any
        text is allowed (a file path: ``make_setup`` checks it).
    values_from : str, optional
        Attribute of the game's card set that lists the allowed values (``pianist_ids``).
    default : str, optional
        The value when none is given; None means drawn at random for every game.
    column : str, optional
        Result column holding the axis (default: ``name``).
    sweep_keyword : str, optional
        The :func:`fairysim.sweep.run_sweep` keyword for a list of values (default:
        ``column``).
    """

    name: str
    values: tuple[str, ...] = ()
    values_from: str | None = None
    default: str | None = None
    column: str | None = None
    sweep_keyword: str | None = None

    @property
    def result_column(self) -> str:
        """The result column holding the axis."""
        return self.column or self.name

    @property
    def sweep_keyword_name(self) -> str:
        """The :func:`run_sweep` keyword for this axis."""
        return self.sweep_keyword or self.result_column

    def allowed(self, cards: Any = None) -> tuple[str, ...]:
        """The allowed values, read from ``cards`` where the card data lists them."""
        if self.values_from is not None:
            return tuple(getattr(cards, self.values_from))
        return self.values

    def parse(self, text: Any, cards: Any = None, option: str | None = None) -> str:
        """One value, matched case-insensitively against :meth:`allowed` (any text where the
        axis lists no values); an error names the parameter ``option`` (default: the axis's
        :attr:`name`), which a command line words as its flag."""
        allowed = self.allowed(cards)
        if not allowed and self.values_from is None:
            return str(text).strip()
        by_key = {value.casefold(): value for value in allowed}
        value = by_key.get(str(text).strip().casefold())
        if value is None:
            raise ParameterError(
                option or self.name, f"must be one of {', '.join(allowed)}, got {text!r}"
            )
        return value


@dataclass(frozen=True)
class Flag:
    """An on/off keyword of the game's ``play_chunks`` (``trace``), which ``simulate`` offers as
    an option named after it."""

    name: str


@dataclass(frozen=True)
class TurnOrder:
    """Where a game's rows say each seat's turn position (0 = the seat that acts first): what
    seat advantage and ``fairysim compare`` report by, since seat advantage is by turn order.

    ``column`` names a per-seat array of the engine's output holding the position (0 = the
    seat that acts first, an index; results files add ``turn_position`` counted from 1);
    ``start_seat`` a per-game array holding the seat that starts, the position being ``(seat -
    start) mod players``; with neither, the seat index is the turn order. ``ruling`` cites the
    rule that fixes it. How a table words the order is the analysis layer's.
    """

    column: str | None = None
    start_seat: str | None = None
    ruling: str = ""

    @property
    def drawn(self) -> bool:
        """Whether the order is drawn per game (a column says it), not the seat index."""
        return self.column is not None or self.start_seat is not None


@dataclass(frozen=True)
class BenchSpec:
    """A benchmark case: ``setup`` holds the ``make_setup`` keywords (seed 1 is added), and
    ``lanes=False`` times a table that would run in lanes one game at a time instead.

    ``compile_apart=False`` marks a case whose kernels an earlier case of the game already
    compiles (the same kernel for another player count or policy): ``bench --compile`` times
    a cold compile of the other cases only. ``games`` caps the games of a timed run for a
    slow case (a searching seat); ``reference=False`` marks a case the reference engine cannot
    play (``rollout`` searches the fast engine's table), timed on the fast engine alone."""

    label: str
    setup: Mapping[str, Any]
    lanes: bool = True
    compile_apart: bool = True
    games: int | None = None
    reference: bool = True


@dataclass(frozen=True)
class GameSpec:
    """Everything the rest of fairysim needs to know of a game.

    Attributes
    ----------
    name, title : str
        Command-line name (``fantastique``) and display title (``Fantastique``).
    engine_version : int
        Bumped whenever the engine plays other games for the same seed (saved with results;
        sweeps refuse to mix versions).
    min_players, max_players, default_players : int
        Player counts.
    axes : tuple of SetupAxis
        Setup choices besides the player count.
    seat_columns : tuple of str
        Per-seat result columns that tasks sum and summaries average; must include
        ``score``, ``rank`` and ``win_share``.
    flags : tuple of Flag
        On/off keywords of ``play_chunks`` (``simulate`` offers each as an option).
    package : str
        The game's package; ``<package>:make_setup``, ``:play_chunks``, ``:load_cards``,
        ``:chunk_frame`` and ``:POLICIES`` are its entry points (see :class:`Game`).
    reference : str
        The reference engine's ``play_games(setup, games, first_game=0)`` (the spec in code).
    bench : tuple of BenchSpec
        The benchmark's cases, fast engine against reference engine.
    compile_seconds : int, optional
        About how long a first run compiles the game's kernels from a cold cache on 2 idle
        cores (its slowest form): the estimate the compile notice gives
        (:mod:`fairysim.jit.notice`). None gives no estimate.
    score_parts : tuple of str
        Per-seat columns that together make up ``score`` (what ``compare`` reports part by
        part); empty when the score has no parts.
    turn_order : TurnOrder
        Where the rows say each seat's turn position (seat advantage is by turn order).
    length_column : str, optional
        Per-game column holding the game's length (Fairy Land's ``turns``); None where every
        game has the same length.
    ladder : tuple of str
        Built-in policies from the weakest rung of its skill ladder to the strongest (random,
        one-step greedy, the best heuristic), what the analysis layer's ladder study plays.
    search : str
        The game's search player (``rollout``, :mod:`fairysim.sim.search`), the ladder's top
        rung above the best heuristic; ``""`` where the game has none.
    search_weights : mapping of int to mapping of str to float
        Weights the search rung plays with at some player counts, where its defaults are not
        enough to beat the best heuristic there (Fantastique's ``rollout`` at 2 players,
        docs/policies.md); :meth:`search_policy` applies them.
    ties : str
        How a game's tied winners count, as the table's title says it ("ties split").
    trace_prefix : str, optional
        Prefix of the per-round running-total columns the engine records when asked (a
        flag's rows: Fantastique's ``medal_points_round_1`` .. ``_7`` under ``--trace``), what
        lead changes and comebacks are read from; None where the engine records none.
    """

    name: str
    title: str
    engine_version: int
    min_players: int
    max_players: int
    default_players: int
    package: str
    reference: str
    bench: tuple[BenchSpec, ...]
    seat_columns: tuple[str, ...]
    axes: tuple[SetupAxis, ...] = ()
    flags: tuple[Flag, ...] = ()
    compile_seconds: int | None = None
    score_parts: tuple[str, ...] = ()
    turn_order: TurnOrder = TurnOrder()
    length_column: str | None = None
    ties: str = "ties split"
    ladder: tuple[str, ...] = ()
    search: str = ""
    search_weights: Mapping[int, Mapping[str, float]] = field(default_factory=dict, hash=False)
    trace_prefix: str | None = None
    _loaded: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def entry(self, name: str) -> Any:
        """The package attribute ``name`` (``make_setup``, ``POLICIES``), imported once."""
        if name not in self._loaded:
            self._loaded[name] = load_entry(f"{self.package}:{name}")
        return self._loaded[name]

    @property
    def make_setup(self) -> Callable[..., Any]:
        """``make_setup(*, players, policies, seed, cards, **axes)``: a validated setup."""
        return self.entry("make_setup")

    @property
    def play_chunks(self) -> Callable[..., Any]:
        """``play_chunks(setup, games, *, first_game, chunk_games, threads, progress, **flags)``."""
        return self.entry("play_chunks")

    @property
    def load_cards(self) -> Callable[..., Any]:
        """``load_cards(path=None)``: the card set (the shipped one for None). The card set has
        ``source`` (the file it came from) and ``arrays()``, a tuple of what the engine reads
        (numpy arrays, and the ids that name their rows): a sweep's manifest pins a card set by
        their digest, not by its path."""
        return self.entry("load_cards")

    @property
    def policies(self) -> Mapping[str, Any]:
        """The built-in policies by name."""
        return self.entry("POLICIES")

    def search_policy(self, players: int) -> str | Any:
        """The search rung's player at ``players`` players: :attr:`search` by name, or that
        built-in with :attr:`search_weights`' weights for the count where it declares some."""
        updates = self.search_weights.get(players)
        return self.policies[self.search].with_weights(**updates) if updates else self.search

    def search_weights_text(self, players: int) -> str:
        """:attr:`search_weights` at ``players`` as ``--weights`` writes them (``rollouts=16``);
        ``""`` where the search rung plays its defaults."""
        updates = self.search_weights.get(players, {})
        return ",".join(f"{key}={value:g}" for key, value in updates.items())

    def search_label(self, players: int) -> str:
        """:meth:`search_policy` as a table names it: ``rollout``, or ``rollout (rollouts=16)``."""
        shown = self.search_weights_text(players)
        return f"{self.search} ({shown})" if shown else self.search

    def check_players(self, players: Any, option: str = "players", *, text: bool = True) -> int:
        """``players`` as a whole number in the game's range, or an error naming ``option``.

        ``text`` takes a number written as text (a sweep's ``--players 2,4``); without it, as
        ``make_setup`` calls it, only an integer is a player count."""
        count = None
        if not isinstance(players, bool) and (text or not isinstance(players, str)):
            try:
                count = int(str(players).strip())
            except ValueError:
                count = None
        if count is None or not self.min_players <= count <= self.max_players:
            raise ParameterError(
                option,
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"got {players!r}",
            )
        return count


@dataclass(frozen=True)
class GameSetup:
    """A validated run configuration: everything that decides the numbers of a run.

    What the command line, sweeps, reports and ``simulate`` read of a setup is declared and
    written here once; a game's setup is a frozen subclass that sets :attr:`game`, adds its own
    setup choices as fields (Fantastique's fan, Fairy Land's court) and fills in only what is its
    own: :meth:`choices` (its setup in the headline), :meth:`own_config`, :meth:`preamble`,
    :meth:`footnotes`, :attr:`extra_rows` (result rows that are no player, solo Concerto's
    Pahha), :meth:`table` and :meth:`check` (a rule of its own that the choices must keep).
    The game's ``make_setup`` checks its own options and builds the setup with :meth:`checked`,
    which checks those every game has. A setup is a dataclass, so ``dataclasses.replace``
    (``--weights``) makes a new one, checked again by :meth:`check`.

    Attributes
    ----------
    players : int
        The player count, in the game's range.
    policies : tuple of Policy
        One per player (:func:`fairysim.sim.policy.resolve_policies`).
    seed : int
        The run's seed; game ``i`` depends on ``(seed, i)`` only.
    cards : card set
        The game's ``load_cards`` result (its ``source`` names the file).
    """

    players: int
    policies: tuple[Any, ...]
    seed: int
    cards: Any
    game: ClassVar[str]
    """The registered name of the game (:func:`get_game`)."""

    def __post_init__(self) -> None:
        self.check()

    @classmethod
    def checked(cls, *, players: Any, policies: Any, seed: Any, **fields: Any) -> Self:
        """The setup of these options, checked as every game checks them: the player count
        (:meth:`GameSpec.check_players`, naming ``--players``), the seed (``--seed``) and one
        policy per player (``--policy``: the game's built-ins or ``module:function``).
        ``fields`` are the game's own, which its ``make_setup`` has checked.

        Raises
        ------
        FairysimError
            Naming the option at fault.
        """
        # numba's modules load with the engine, never with the light spec modules
        from fairysim.sim.policy import resolve_policies
        from fairysim.sim.rng import check_seed

        spec = get_game(cls.game, "setup")
        count = spec.check_players(players, text=False)
        try:
            seed = check_seed(seed)
        except ValueError as exc:
            raise ParameterError("seed", str(exc)) from None
        seated = resolve_policies(policies, count, spec.policies)
        return cls(players=count, policies=seated, seed=seed, **fields)

    @property
    def spec(self) -> GameSpec:
        """The game's spec."""
        return get_game(self.game, "setup")

    def check(self) -> None:
        """Raise :class:`~fairysim.runtime.errors.FairysimError`, naming the option at fault, where
        the setup breaks a rule of the game's own (none here)."""

    @property
    def extra_rows(self) -> tuple[tuple[str, str], ...]:
        """``(policy name, row label)`` of each result row after the players' (none here)."""
        return ()

    @property
    def seats(self) -> int:
        """Rows per game: the players', then :attr:`extra_rows`."""
        return self.players + len(self.extra_rows)

    @property
    def policy_names(self) -> list[str]:
        """Each row's policy name."""
        return [p.name for p in self.policies] + [name for name, _ in self.extra_rows]

    def row_labels(self, policy_labels: Sequence[str]) -> list[str]:
        """The summary's row labels, given each player's policy label."""
        return [*policy_labels, *(label for _, label in self.extra_rows)]

    def table(self) -> str:
        """Who plays, as the headline says it."""
        return f"{self.players} players"

    def choices(self) -> list[str]:
        """The game's own setup choices, as the headline says them (``fan III``)."""
        return []

    def headline(self, games: int) -> str:
        """One line naming the run, printed above its summary."""
        parts = [self.spec.title, self.table(), *self.choices()]
        return ", ".join([*parts, f"{games:,} games", f"seed {self.seed}"])

    def preamble(self) -> list[str]:
        """Lines printed between the headline and the summary table."""
        return []

    def footnotes(self) -> list[str]:
        """Lines printed under the summary table."""
        return []

    def own_config(self) -> dict[str, Any]:
        """The game's own setup choices, JSON-friendly, for :meth:`config`."""
        return {}

    def config(self) -> dict[str, Any]:
        """JSON-friendly description saved with results."""
        return {
            "players": self.players,
            "policies": [p.name for p in self.policies],
            "weights": [list(p.weights) for p in self.policies],
            "seed": self.seed,
            "cards": self.cards.source,
            **self.own_config(),
            "engine_version": self.spec.engine_version,
        }


GAMES: dict[str, GameSpec] = {}
"""The registered games, by name, in registration order."""

_discovered = False


def register(spec: GameSpec) -> GameSpec:
    """Make ``spec`` a game of fairysim (its spec module calls this once, at import)."""
    GAMES[spec.name] = spec
    return spec


def _discover() -> None:
    """Import the built-in spec modules and those of installed plugins, once."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    import_declarations(BUILTIN_GAME_SPECS, ENTRY_POINT_GROUP)


def games() -> dict[str, GameSpec]:
    """Every registered game, by name."""
    _discover()
    return dict(GAMES)


def get_game(name: str, option: str = "GAME") -> GameSpec:
    """The registered game called ``name``, or an error naming ``option`` and the games."""
    known = games()
    if name not in known:
        raise FairysimError(option, f"unknown game {name!r}; the games are {', '.join(known)}")
    return known[name]


__all__ = [
    "GAMES",
    "BenchSpec",
    "Flag",
    "GameSetup",
    "GameSpec",
    "SetupAxis",
    "TurnOrder",
    "games",
    "get_game",
    "load_entry",
    "register",
]
