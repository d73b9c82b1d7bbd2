"""The standard report pipeline, written once: options, precision, the card-effect, ladder and
best-heuristic studies, the fixed sections and the reproduce command.

A game's report is a subclass of :class:`StandardReport` in its ``analysis/<game>/report.py``: it
names its declaration (:class:`~fairysim.analysis.report.registry.ReportSpec`), plays its own
study (:meth:`StandardReport.study`) and writes its own sections (the ``*_sections`` hooks); the
pipeline does the rest in the same order for every game::

    run block, precision note, the game's introduction, statistics note, balance card,
    the game's sections, card effects, the game's sections, seat advantage by turn order,
    skill ladder, replay commands, the game's closing sections, metadata

A part the game's study does not have is left out (a study without a balance card has no balance
card, turn-order or replay section; a report without ``--ladder-games`` plays no ladder, one
without ``--heuristic-games`` no best-heuristic check). :func:`play_study` plays a study with a
balance card to a precision. The report's own options and their defaults are its declaration's:
the writer reads every default from there, so ``--help`` states what the writer plays.

One module of about 600 lines: the pipeline is one ordered recipe (options, studies, page), and
splitting it would scatter the order a reader checks a report against.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from fairysim.analysis.report.answer import standard_questions
from fairysim.analysis.report.answer_card import AnswerCard, Question
from fairysim.analysis.report.best_heuristic import best_heuristic_section
from fairysim.analysis.report.card_effects import card_effect_section
from fairysim.analysis.report.ladder import ladder_section
from fairysim.analysis.report.page import Report
from fairysim.analysis.report.registry import PRECISION_CAP, REPORT_SEED, ReportSpec
from fairysim.analysis.report.response_rung import (
    dominance_question,
    response_command,
    response_section,
)
from fairysim.analysis.report.sections import (
    balance_section,
    games_option,
    precision_note,
    replay_section,
    run_block,
    statistics_note,
    turn_order_section,
)
from fairysim.analysis.studies.base import (
    card_and_ladder_studies,
    check_players,
    search_ahead,
    under_best_heuristic,
)
from fairysim.analysis.studies.best_heuristic import (
    best_heuristic_tournament,
    with_best_heuristic,
)
from fairysim.runtime.stages import tell
from fairysim.sim.batch import Progress
from fairysim.sim.game import GameSpec, get_game
from fairysim.stats.precision import check_counts, study_to_precision

METHODS_FOLD = (
    "How these numbers were made: games, seed, precision, the command that reproduces them, "
    "and how to read the intervals"
)
"""The summary line of the closed fold that holds the methods, under the answer card."""


@dataclass
class Studies:
    """What a report's page is built from: the game's study and the standard studies beside it.

    Attributes
    ----------
    study : Any
        The game's study (its ``meta`` records ``games``, ``seed`` and ``package_version``; a
        study with a balance card has ``balance``).
    effects : CardEffectStudy, optional
        The card-effect study; its section is left out without it.
    ladder : LadderStudy, optional
        The skill ladder; its section is left out without it.
    check : HeuristicCheck, optional
        The headline comparisons under the best heuristic, shown in the game's own section.
    response : ResponseRung, optional
        The best-response rung and its dominance verdict
        (:mod:`fairysim.analysis.strategy.rung`); its section is left out without it.
    extra : dict
        What else the game played for its sections (Fairy Land's two-player auctions).
    best : BestHeuristic, optional
        The tournament that chose the best heuristic the ladder and the check seat.
    """

    study: Any
    effects: Any = None
    ladder: Any = None
    check: Any = None
    extra: dict[str, Any] = field(default_factory=dict)
    best: Any = None
    response: Any = None
    run: ReportRun | None = None
    """The options the studies were played with (None: studies played in Python and passed to
    :meth:`StandardReport.build`, whose commands read the options from the studies' records)."""


@dataclass(frozen=True)
class ReportRun:
    """A report's options, every default filled in from its declaration.

    Attributes
    ----------
    seed : int
        Seed of every run.
    players : tuple of int
        Player counts of the study and of the standard studies.
    policy : str
        The policy the study seats (``"greedy"`` where the report takes none).
    cards : path, card set or None
        The card file (the shipped one for None).
    threads : int, optional
        numba threads; never changes the numbers.
    progress : callable, optional
        ``progress(games_done, games_total)`` over the game's study.
    options : dict
        Every option of the report by keyword (``card_games``, ``auction_games``), given or
        defaulted.
    spec : GameSpec, optional
        The game's spec with the measured best heuristic as its ladder's top rung, what the
        standard studies seat (None: the game's own spec).
    """

    seed: int
    players: tuple[int, ...]
    policy: str
    cards: Any
    threads: int | None
    progress: Progress | None
    options: Mapping[str, Any]
    spec: Any = None


def play_study(
    run: Callable[[int, float], Any],
    games: int | None,
    default_games: int,
    precision: float | None = None,
    max_games: int | None = None,
    default_precision: float | None = None,
    half_width: Callable[[Any], float] | None = None,
    watched: str = "turn-order win share",
) -> Any:
    """A report's study played until its watched intervals are precise (its balance card's
    turn-order win shares unless told otherwise), or at a fixed game count.

    Parameters
    ----------
    run : callable
        ``run(games, alpha)`` plays the study (``alpha``: its turn-order family's error rate).
    games : int or None
        Games per run the user gave (``--games``).
    default_games : int
        The report's own count.
    precision : float, optional
        ``--precision``: the widest corrected half-width of the balance card's turn-order win
        shares to reach (:func:`fairysim.stats.precision.study_to_precision`).
    max_games : int, optional
        ``--max-games``: the cap of games per run (default :data:`PRECISION_CAP` times
        ``default_games``).
    default_precision : float, optional
        The report's own precision (``ReportSpec.precision_default``), played where the user
        gives neither ``games`` nor ``precision``; without it the default is ``default_games``.
    half_width : callable, optional
        ``half_width(study)``: the widest half-width the stopping rule watches (default: the
        balance card's, ``study.balance.half_width()``).
    watched : str
        What ``half_width`` measures, in words, for the page's precision line.

    Returns
    -------
    The study
        Its ``meta`` records ``precision``, ``max_games`` and ``precision_reached`` (the line
        the report prints) when played to a precision.
    """
    check_counts(games, precision, max_games, default_precision=default_precision is not None)
    if games is not None:
        return run(games, 0.05)
    if precision is None:
        precision = default_precision
    if precision is None:
        return run(default_games, 0.05)
    cap = PRECISION_CAP * default_games if max_games is None else max_games
    if half_width is None:
        half_width = lambda s: s.balance.half_width()  # noqa: E731
    study, reached = study_to_precision(
        run, half_width, precision, cap, first_look=min(1000, cap), watched=watched
    )
    study.meta.update(
        precision=precision,
        max_games=cap,
        precision_reached=reached.message(),
        precision_looks=reached.looks,
        precision_watched=watched,
    )
    return study


class StandardReport:
    """The standard report pipeline; a game's report subclasses it.

    A subclass sets :attr:`declaration`, :attr:`title` and :attr:`players`, plays its study in
    :meth:`study` and writes its sections in :meth:`introduction`, :meth:`sections_before_effects`,
    :meth:`sections_after_effects` and :meth:`closing_sections`; it overrides the other hooks
    only where its page says something its own way.
    """

    declaration: ClassVar[ReportSpec]
    """The report's declaration (its name, options and defaults)."""
    title: ClassVar[str]
    """The page's title."""
    players: ClassVar[tuple[int, ...]] = ()
    """The player counts the report plays unless told others (from Python)."""
    axes: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    """The setup choices the card-effect and ladder studies play (Fantastique's fan I)."""
    check: ClassVar[Callable[..., Any] | None] = None
    """The game's check of its headline comparisons under the best heuristic
    (:func:`fairysim.analysis.studies.heuristic_check.heuristic_check`'s arguments), played where
    the declaration has ``--heuristic-games``."""
    own_defaults: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    """Keywords of the writer that have no command-line option, with their defaults."""

    @property
    def name(self) -> str:
        """The report's name (``fairysim report <name>``)."""
        return self.declaration.name

    @property
    def prefix(self) -> str:
        """The prefix of every file the report writes (``fantastique-``)."""
        return f"{self.name}-"

    @property
    def filename(self) -> str:
        """The report's page (``fantastique-report.html``)."""
        return f"{self.prefix}report.html"

    @property
    def spec(self) -> GameSpec:
        """The game's spec."""
        return get_game(self.declaration.game)

    # ----------------------------------------------------------------------------------------
    # Writing

    def write(
        self,
        out_dir: str | Path,
        *,
        games: int | None = None,
        seed: int | None = None,
        threads: int | None = None,
        progress: Progress | None = None,
        cards: Any = None,
        **options: Any,
    ) -> Path:
        """Play the report's studies and write its HTML page with its CSV, PNG and SVG files.

        Parameters
        ----------
        out_dir : str or Path
            Folder for the report (created if missing).
        games : int, optional
            The study's games per run, a fixed count; without it a report with a balance card
            plays to its precision (``precision``, default the declaration's), at most
            ``max_games`` per run (default :data:`~fairysim.analysis.report.registry.PRECISION_CAP`
            times the declaration's ``games_default``), and one without plays
            ``games_default``.
        seed : int, default :data:`~fairysim.analysis.report.registry.REPORT_SEED`
            Seed of every run.
        threads : int, optional
            numba threads; never changes the numbers.
        progress : callable, optional
            ``progress(games_done, games_total)`` over the game's study.
        cards : path or card set, optional
            Card file (the shipped one by default).
        **options
            The report's own options by keyword (``policy``, ``card_games``, ``ladder_games``,
            ``search_games``, ``heuristic_games``, ``auction_games``; see ``fairysim report
            <name> --help`` for each default), ``players`` (a report with a balance card) and
            :attr:`own_defaults`' keywords.

        Returns
        -------
        Path
            The HTML page, ``out_dir / <prefix>report.html``.

        Notes
        -----
        Nothing is written until every study and every figure is complete; then every file is
        staged beside its destination and renamed into place, the HTML last, so a failed or
        interrupted run never leaves a half-written report.
        """
        run = self.resolve(seed, threads, progress, cards, options)
        studies = replace(self.play(games, run), run=run)
        tell("figures and page")
        return self.build(studies).write(out_dir)

    def resolve(
        self,
        seed: int | None,
        threads: int | None,
        progress: Progress | None,
        cards: Any,
        options: Mapping[str, Any],
    ) -> ReportRun:
        """The report's options with every default filled in.

        Raises
        ------
        TypeError
            Naming a keyword the report does not take.
        """
        declared = self.declaration
        known = {extra.name: declared.default(extra.name) for extra in declared.options}
        if declared.balance_card:
            known |= {"players": self.players}
        if declared.plays_to_precision:
            known |= {"precision": None, "max_games": None}
        known |= dict(self.own_defaults)
        for key in options:
            if key not in known:
                raise TypeError(f"the {self.name} report takes no option {key!r}")
        values = known | {key: value for key, value in options.items() if value is not None}
        return ReportRun(
            seed=REPORT_SEED if seed is None else seed,
            players=tuple(values.get("players", self.players)),
            policy=values.get("policy", "greedy"),
            cards=cards,
            threads=threads,
            progress=progress,
            options=values,
        )

    def play(self, games: int | None, run: ReportRun) -> Studies:
        """Play the game's study, then the card-effect and ladder studies, the best-heuristic
        check and what else the game's sections show."""
        options = run.options
        # the search player's kernel compiles while the rest of the report plays
        search_ahead(self.spec, run.players, options.get("search_games", 0))
        declared = self.declaration
        if declared.plays_to_precision:
            study = play_study(
                lambda n, alpha: self.study_told(run, n, alpha),
                games,
                declared.games_default,
                options["precision"],
                options["max_games"],
                default_precision=declared.precision_default,
                half_width=None if declared.balance_card else self.precision_width,
                watched=self.precision_watched,
            )
        else:
            study = self.study_told(run, declared.games_default if games is None else games, 0.05)
        best = self.best_heuristic(run)
        if best is not None:
            run = replace(run, spec=with_best_heuristic(self.spec, best.chosen))
        effects, ladder = self.card_and_ladder(run)
        check = None
        if self.check is not None and "heuristic_games" in options:
            tell("verdicts checked under the best heuristic")
            check = under_best_heuristic(
                run.spec or self.spec,
                self.check,
                policy=run.policy,
                players=run.players,
                games=options["heuristic_games"],
                seed=run.seed,
                cards=run.cards,
                threads=run.threads,
            )
        tell(f"{self.spec.title}'s own sections")
        studies = Studies(study, effects, ladder, check, self.more(study, run), best)
        # --- best-response rung (issue 43): played last, shown after the ladder ---
        studies.response = self.response_rung(run)
        return studies

    def response_rung(self, run: ReportRun) -> Any:
        """The best-response rung (:func:`fairysim.analysis.strategy.rung.response_rung`): the
        best heuristic's response to the built-ins at the game's default player count, with
        the report's :attr:`axes`; None without ``--response-evaluations`` (or at 0)."""
        evaluations = run.options.get("response_evaluations", 0)
        if not evaluations or not self.spec.ladder:
            return None
        from fairysim.analysis.strategy.rung import response_rung

        tell(f"best response of {(run.spec or self.spec).ladder[-1]}, {evaluations:,} candidates")
        return response_rung(
            self.spec,
            policy=(run.spec or self.spec).ladder[-1],
            players=self.spec.default_players,
            seed=run.seed,
            evaluations=evaluations,
            cards=run.cards,
            threads=run.threads,
            axes=self.axes,
        )

    def study_told(self, run: ReportRun, games: int, alpha: float) -> Any:
        """:meth:`study`, told to the progress line (:mod:`fairysim.runtime.stages`)."""
        tell(f"balance card, {games:,} games a run")
        return self.study(run, games, alpha)

    def best_heuristic(self, run: ReportRun) -> Any:
        """The tournament among the game's heuristics that chooses its best heuristic
        (:func:`~fairysim.analysis.studies.best_heuristic.best_heuristic_tournament`), at the
        game's default player count where the report plays it; None where the report has no
        ``--best-heuristic-games`` or the game no ladder. With 0 games the declared top rung
        stands, said so on the page."""
        games = run.options.get("best_heuristic_games")
        if games is None or not self.spec.ladder:
            return None
        players = check_players(self.spec, [n for n in run.players if n >= 2] or run.players)
        tell(f"best heuristic tournament, {players} players")
        return best_heuristic_tournament(
            self.spec,
            players=players,
            games=games,
            seed=run.seed,
            cards=run.cards,
            threads=run.threads,
            declared_only=games == 0,
            **self.axes,
        )

    def card_and_ladder(self, run: ReportRun) -> tuple[Any, Any]:
        """The card-effect and skill-ladder studies (:func:`card_and_ladder_studies`), on the
        report's player counts and :attr:`axes`; ``(None, None)`` where the report has neither
        ``--card-games`` nor ``--ladder-games``."""
        options = run.options
        if "card_games" not in options or "ladder_games" not in options:
            return None, None
        return card_and_ladder_studies(
            run.spec or self.spec,
            players=run.players,
            seed=run.seed,
            card_games=options["card_games"],
            ladder_games=options["ladder_games"],
            search_games=options.get("search_games", 0),
            policy=run.policy,
            cards=run.cards,
            threads=run.threads,
            **self.axes,
        )

    # ----------------------------------------------------------------------------------------
    # The page

    def build(self, studies: Studies) -> Report:
        """Assemble the page of finished studies in memory (nothing is written); call
        :meth:`Report.write` to write it."""
        study = studies.study
        meta = study.meta
        report = self.new_page(study)
        answers = report.reserve()
        what, total = self.run_what(study)
        report.open_fold(METHODS_FOLD)
        command = self.command(study, studies.run)
        run_block(report, what, total, meta["seed"], meta["package_version"], command)
        precision_note(report, meta)
        self.introduction(report, studies)
        statistics_note(report, meta.get("correction", "holm"))
        report.close_fold()
        card = getattr(study, "balance", None)
        order = self.spec.turn_order
        if card is not None:
            balance_section(report, card, order, **self.balance_words(study))
        self.sections_before_effects(report, studies)
        if studies.effects is not None:
            more = {"card_games": 10 * studies.effects.meta["games"]}
            card_effect_section(report, studies.effects, self.command(study, studies.run, **more))
        self.sections_after_effects(report, studies)
        if card is not None:
            turn_order_section(report, card, order)
        if studies.best is not None:
            best_heuristic_section(report, studies.best)
        if studies.ladder is not None:
            more = {"ladder_games": 10 * studies.ladder.meta["games"]}
            ladder_section(report, studies.ladder, self.command(study, studies.run, **more))
        if studies.response is not None:  # the best-response rung (issue 43)
            cards = self.cards_option(study)
            response_section(report, studies.response, response_command(studies.response, cards))
        if card is not None:
            replay_section(report, card, lambda example: self.replay_command(study, example))
        self.closing_sections(report, studies)
        report.metadata(meta)
        card = AnswerCard(self.questions(studies))
        report.answers = card.questions
        for name, table in card.tables():
            report.data(name, table)
        report.fill(answers, card.html(report.anchor, report.prefix))
        return report

    def questions(self, studies: Studies) -> list[Question]:
        """The answer card's questions: turn order, the game's own (:meth:`own_questions`), the
        cards and skill (:func:`~fairysim.analysis.report.answer.standard_questions`), and
        whether the best-response rung found a dominant strategy."""
        policy = self.policy_of(studies.study.meta) or "greedy"
        questions = standard_questions(studies, policy, self.own_questions(studies))
        if studies.response is not None:
            questions.append(dominance_question(studies.response))
        return questions

    def command(self, study: Any, run: ReportRun | None = None, **changed: Any) -> str:
        """The command that writes the same report: its games and seed, then every option of
        the report's declaration whose value is not its default, and the card file; ``changed``
        replaces options (a section's rerun with ten times its games). Without ``run`` (a page
        built from studies played in Python) the options are read from the study's record."""
        meta = study.meta
        declared = self.declaration
        if run is not None:
            values = dict(run.options)
        else:
            values = {o.name: meta[o.name] for o in declared.options if o.name in meta}
            if self.policy_of(meta) is not None:
                values["policy"] = self.policy_of(meta)
        values |= changed
        text = f"fairysim report {self.name} {games_option(meta)} --seed {meta['seed']}"
        # the policy first, then the declaration's order, in every report
        for option in sorted(declared.options, key=lambda o: o.kind != "policy"):
            value = values.get(option.name)
            if value is not None and (
                option.name in changed or value != declared.default(option.name)
            ):
                text += f" {option.option} {value}"
        return text + self.cards_option(study)

    # ----------------------------------------------------------------------------------------
    # What a game supplies

    def study(self, run: ReportRun, games: int, alpha: float) -> Any:
        """The game's study at ``games`` per run, its turn-order family at error rate ``alpha``."""
        raise NotImplementedError

    precision_watched: ClassVar[str] = "turn-order win share"
    """What ``--precision`` watches, in words (the page's precision line)."""

    def precision_width(self, study: Any) -> float:
        """The widest half-width ``--precision`` watches in a study without a balance card
        (a report whose declaration has ``precision_watches`` says which)."""
        raise NotImplementedError

    def more(self, study: Any, run: ReportRun) -> dict[str, Any]:
        """What else the game's sections show, played after the standard studies (none here)."""
        return {}

    def new_page(self, study: Any) -> Report:
        """The empty page."""
        return Report(self.title, self.filename, self.prefix)

    def run_what(self, study: Any) -> tuple[str, int]:
        """How the games are laid out, for the run block, and the games played in all."""
        raise NotImplementedError

    def policy_of(self, meta: dict[str, Any]) -> str | None:
        """The policy the study seated (``--policy``); None where the report takes none."""
        return meta.get("policy")

    def cards_option(self, study: Any) -> str:
        """The ``--cards`` option that reproduces the study: empty for the shipped card file."""
        meta = study.meta
        return f" --cards {meta['cards']}" if "cards" in meta else ""

    def balance_words(self, study: Any) -> dict[str, str]:
        """Keywords of :func:`balance_section`: which runs the card reads, what a standing is."""
        return {}

    def replay_command(self, study: Any, example: dict[str, Any]) -> str:
        """The ``fairysim replay`` command of one of the balance card's example games."""
        raise NotImplementedError

    def own_questions(self, studies: Studies) -> list[Question]:
        """The game's own questions on the answer card, after turn order (none here): each a
        function of the studies returning a :class:`~fairysim.analysis.report.answer_card.Question`
        (for a best-heuristic check, :func:`~fairysim.analysis.report.answer.check_question`)."""
        return []

    def introduction(self, report: Report, studies: Studies) -> None:
        """The game's paragraphs between the run block and the statistics note (inside the
        methods' fold)."""

    def sections_before_effects(self, report: Report, studies: Studies) -> None:
        """The game's sections between the balance card and the card effects."""

    def sections_after_effects(self, report: Report, studies: Studies) -> None:
        """The game's sections between the card effects and seat advantage by turn order."""

    def closing_sections(self, report: Report, studies: Studies) -> None:
        """The game's sections after the replay commands (its files)."""


__all__ = ["ReportRun", "StandardReport", "Studies", "play_study"]
