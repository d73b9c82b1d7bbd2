"""``fairysim report NAME``: run a game's standard study and write its HTML report.

One command per report that a game's analysis declares (:mod:`fairysim.analysis.report.registry`,
read without importing an engine); the options every report shares are declared once here, the
report adds its own (:class:`~fairysim.analysis.report.registry.ReportOption`).
``fairysim report all`` writes every report, each at its defaults, into its own folder, and
``index.html`` linking them (:mod:`fairysim.analysis.report.index`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fairysim.analysis.report.registry import PRECISION_CAP, REPORT_SEED, ReportSpec, reports
from fairysim.cli.by_game import Param, game_group, make_command, option
from fairysim.cli.common import (
    POLICY_FLAG,
    ProgressBar,
    check_threads,
    handle_errors,
    stdout_console,
)
from fairysim.cli.simulate import load_card_option
from fairysim.runtime.errors import FairysimError
from fairysim.sim.game import GameSpec, get_game


def report_params(spec: GameSpec, report: ReportSpec) -> list[Param]:
    """The options of ``fairysim report <name>``."""
    cap = PRECISION_CAP * report.games_default
    if report.precision_default is None:
        games_default = f"default: {report.games_default:,}"
        precision_default = ""
    else:
        games_default = (
            f"instead of --precision; default: played to --precision "
            f"{report.precision_default:g}, at most {cap:,} games per run"
        )
        precision_default = f" (default: {report.precision_default:g})"
    params = [
        option(
            "games",
            int | None,
            None,
            "--games",
            f"{report.games_help}, a fixed count ({games_default}).",
        ),
        option(
            "seed",
            int | None,
            None,
            "--seed",
            f"Seed of every run of the report (default: {REPORT_SEED}).",
        ),
        option(
            "precision",
            float | None,
            None,
            "--precision",
            "Instead of --games: play the study at 1,000 games per run, doubling, until "
            f"{report.precision_watched} has a corrected half-width at or below "
            "this (win-share units, 0.01 = 1 percentage point), the 5% error rate split over "
            f"the looks{precision_default}.",
        ),
        option(
            "max_games",
            int | None,
            None,
            "--max-games",
            f"Cap on the games per run --precision may play (default: {cap:,}).",
        ),
    ]
    for extra in report.options:
        annotation = str if extra.kind == "policy" else int | None
        help = extra.help
        if extra.games_default is not None:
            help = f"{help.rstrip('.')} (default: {extra.games_default:,})."
        params.append(option(extra.name, annotation, extra.default, extra.option, help))
    if report.takes_cards:
        params.append(option("cards", Path | None, None, "--cards", spec.cards_help))
    params += [
        option(
            "out_dir",
            str,
            str(Path("results") / report.name),
            "--out-dir",
            "Folder for the report (created if missing).",
        ),
        option("threads", int | None, None, "--threads", "Numba threads (default: all cores)."),
    ]
    return params


def run_report(spec: GameSpec, report: ReportSpec, **options: Any) -> None:
    """Check every option, then play the report's games and write it."""
    from fairysim.sim.batch import check_games

    # The report owns its defaults (sized to its run time): pass only what the user gave.
    given = seed_option(options["seed"])
    if options["games"] is not None:
        given["games"] = check_games(options["games"], "--games")
    threads = check_threads(options["threads"])
    given |= precision_options(report, options)
    if report.takes_cards:
        given["cards"] = load_card_option(spec, options["cards"])
    for extra in report.options:
        value = options[extra.name]
        if extra.kind == "games" and value is not None:
            given[extra.name] = check_games(value, extra.option)
        elif extra.kind == "games_or_zero" and value is not None:
            given[extra.name] = 0 if value == 0 else check_games(value, extra.option)
        elif extra.kind == "policy":
            if "," in value:
                raise FairysimError(extra.option, "give one policy: every seat plays it")
            # Resolves (for module:function, imports and compiles) the policy before any game.
            spec.make_setup(policies=value, seed=0, cards=given.get("cards"))
            given[extra.name] = value
    out_dir = prepare_out_dir(options["out_dir"])
    write = report.load_writer()
    with ProgressBar("report") as progress:
        html = write(out_dir, threads=threads, progress=progress, **given)
    stdout_console().print(f"Report written to {html}", soft_wrap=True)


def seed_option(seed: int | None) -> dict[str, Any]:
    """``{"seed": seed}`` checked, or ``{}`` where the user gave none (the report's own)."""
    from fairysim.sim.rng import check_seed

    if seed is None:
        return {}
    try:
        return {"seed": check_seed(seed)}
    except ValueError as error:
        raise FairysimError("--seed", str(error)) from None


def precision_options(report: ReportSpec, options: dict[str, Any]) -> dict[str, Any]:
    """``--precision`` and ``--max-games`` as the writer takes them, checked; a report whose
    study has no balance card refuses them."""
    from fairysim.stats.precision import check_counts

    given: dict[str, Any] = {}
    precision, cap = options["precision"], options["max_games"]
    if precision is None and cap is None:
        return given
    name = "--precision" if precision is not None else "--max-games"
    if not report.plays_to_precision:
        raise FairysimError(name, f"the {report.name} report plays a fixed count: give --games")
    check_counts(
        options["games"], precision, cap, default_precision=report.precision_default is not None
    )
    if precision is not None:
        given["precision"] = float(precision)
    if cap is not None:
        given["max_games"] = cap
    return given


def prepare_out_dir(out_dir: str | Path, option_name: str = "--out-dir") -> Path:
    """Create ``out_dir`` (and its parents) if needed, or raise naming ``option_name``.

    Parameters
    ----------
    out_dir : str or Path
        The folder a command writes into (the empty string is refused, not taken for the
        current folder).
    option_name : str
        Named in the error.

    Returns
    -------
    Path
        ``out_dir``, now an existing folder.
    """
    from fairysim.runtime.files import folder_option, probe_folder

    out_dir = folder_option(out_dir, option_name)
    if out_dir.exists() and not out_dir.is_dir():
        raise FairysimError(option_name, f"{out_dir} exists and is not a folder")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise FairysimError(option_name, f"cannot create {out_dir} ({error.strerror})") from None
    probe_folder(out_dir, option_name)
    return out_dir


ALL = "all"
"""The ``report`` subcommand that writes every report."""


def all_params() -> list[Param]:
    """The options of ``fairysim report all``."""
    return [
        option(
            "seed",
            int | None,
            None,
            "--seed",
            f"Seed of every run of every report (default: {REPORT_SEED}).",
        ),
        option(
            "out_dir",
            str,
            "results",
            "--out-dir",
            "Folder for index.html and one folder per report (created if missing).",
        ),
        option("threads", int | None, None, "--threads", "Numba threads (default: all cores)."),
    ]


def run_all(**options: Any) -> None:
    """Check every option, write every report at its defaults, then the index."""
    from fairysim.analysis.report.index import WrittenReport, write_index

    given = seed_option(options["seed"])
    threads = check_threads(options["threads"])
    root = prepare_out_dir(options["out_dir"])
    written = []
    for name, report in reports().items():
        write = report.load_writer()
        with ProgressBar(f"report {name}") as progress:
            html = write(root / name, threads=threads, progress=progress, **given)
        stdout_console().print(f"Report written to {html}", soft_wrap=True)
        written.append(WrittenReport(name, Path(html)))
    index = write_index(root, written)
    stdout_console().print(f"Index written to {index}", soft_wrap=True)


def report_command(name: str) -> Any:
    """The ``report`` command called ``name``."""
    if name == ALL:
        return make_command(
            handle_errors(run_all, flags=POLICY_FLAG),
            all_params(),
            "Write every report at its defaults, one folder each, and index.html linking them.",
        )
    report = reports()[name]
    spec = get_game(report.game)

    def body(**options: Any) -> None:
        run_report(spec, report, **options)

    return make_command(
        handle_errors(body, flags=POLICY_FLAG), report_params(spec, report), report.help
    )


app = game_group(
    "Run a game's standard balance study and write a designer report (HTML and figures).",
    report_command,
    lambda: [*reports(), ALL],
)
