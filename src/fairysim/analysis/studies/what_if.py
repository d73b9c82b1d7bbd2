"""What-if: a baseline and its variants played on the same seeds, compared game by game.

Both setups play games ``0 .. G-1`` of one ``seed``. Every engine draws a game's deal, start
seat and reshuffles from a stream keyed by ``(seed, game)`` alone, and each seat's policy from a
stream of its own, so a change to a policy, a weight or a setup axis replays the very deals of
the baseline. A card file that changes the card counts shuffles other cards with the same
numbers: the deals then differ, and what stays paired is the
seed and game index (the policies' streams, and whatever the engine draws before the change
matters); :func:`compare` says per variant whether the card data are the same and in how many
games the turn order is.

For every game the difference ``variant - baseline`` is taken per turn position (the seat that
acts first, second, ...: the spec's :class:`~fairysim.sim.game.TurnOrder`), per seat where the
lineup tells seats apart, and pooled over the table (the mean over seats). Each game gives one
paired difference per row, so the standard error is the per-game differences' (the game is the
cluster). Metrics: win share, score, each declared score part, the game's length where the spec
declares one, and the turn-order spread: the largest distance of a turn position's win share
from the fair share ``1 / players``. The spread is a maximum over positions, so each setup's
spread is taken at the position its own games put farthest from fair (sign included), which
makes it a per-game contrast ``±(win share at that position - 1 / players)`` whose mean is the
spread and whose paired difference has a t-test; the test holds the farthest position as
estimated (where two positions are about as far from fair, the spread is slightly overstated).
A pooled metric that the rules fix (win shares of a game sum to 1) is left out.

What changes who wins is the question a comparison answers first: the rows with
``question == "who wins"`` (the turn-order spread and the win share of every turn position and
every seat) are its headline (:func:`headline`) and what the ranking sorts by default (the
turn-order spread, lowest first: closest to fair); score and its parts are supporting rows.

Every difference reported is one test (two-sided t on the paired differences, ``G - 1`` degrees
of freedom); the p-values of all of them, over all variants (the family: every difference of the
comparison, who-wins and supporting rows alike), are corrected together with Holm's
method (``statsmodels.stats.multitest.multipletests``), and every interval is drawn at the
Bonferroni level ``0.05 / m``. Holm rejects whatever Bonferroni rejects, so an interval that
excludes zero always reads "differs"; where Holm separates a difference whose Bonferroni interval
still touches zero the verdict says so. ``se_ratio`` is the paired standard error over the
unpaired one (two independent runs of ``G`` games each), how much the pairing narrowed the
interval.

One module past 600 lines: the pairing, the per-game contrasts and the tables they feed are one
computation, each step reading the arrays the one before it made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fairysim.analysis.studies.variants import (
    LABEL_KEY,
    Arm,
    build_arm,
    card_file_variants,
    check_distinct,
    parse_setup,
    short_label,
)
from fairysim.analysis.studies.what_if_paired import (
    ALPHA,
    LENGTH,
    POOLED,
    POSITION,
    SEAT,
    SPREAD,
    SUPPORTING,
    WHO_WINS,
    correct,
    paired_row,
    position_words,
    spread_contrast,
)
from fairysim.analysis.studies.what_if_pairing import pairing_note, pairing_row
from fairysim.analysis.studies.what_if_ranking import (
    check_rank,
    counted,
    metric_words,
    pairs_family,
    rank,
    ranking_sentence,
)
from fairysim.runtime.errors import ParameterError
from fairysim.sim.batch import DEFAULT_CHUNK_GAMES, Progress, check_games
from fairysim.sim.game import GameSpec, get_game
from fairysim.sim.policy import policies_resolved_once
from fairysim.sim.weights import load_weights_file
from fairysim.stats.precision import StudyPrecision, check_precision, study_to_precision

GAMES = 10_000
"""Games per setup of :func:`compare` without ``games``."""

PRECISION_MAX_GAMES = 160_000
"""Cap on the games per setup of :func:`compare_to_precision` unless given."""


@dataclass(frozen=True)
class Metric:
    """One quantity compared: its result column (or a derived name), label and unit."""

    name: str
    label: str
    unit: str


@dataclass
class Comparison:
    """The tables of one comparison (every frame carries ``attrs["fairysim"]``).

    ``differences`` has a row per (variant, group, index, metric); ``ranking`` one per variant;
    ``pairing`` one per variant saying what is paired; ``meta`` the run's description.
    """

    differences: pd.DataFrame
    ranking: pd.DataFrame
    pairing: pd.DataFrame
    meta: dict[str, Any]


def _options(given: str | Mapping[str, Any] | None, option: str) -> dict[str, Any]:
    if given is None:
        return {}
    return parse_setup(given, option) if isinstance(given, str) else dict(given)


def shared_weights_file(
    spec: GameSpec,
    setups: Sequence[tuple[dict[str, Any], str]],
    path: str | Path,
    *,
    players: int,
    seed: int,
) -> None:
    """Set the weights file ``path`` on every setup (options, the parameter it came from) that
    names none of its own and seats a policy the file names; a file that names no policy any
    setup seats is refused (its weights would change nothing)."""
    named = {item.split(":", 1)[0] for item in load_weights_file(path, "weights_file").split(",")}
    used = False
    for options, option in setups:
        if "weights_file" in options:
            continue
        probe = build_arm(spec, options, players=players, seed=seed, option=option, label="")
        if named & {policy.name for policy in probe.setup.policies}:
            options["weights_file"] = str(path)
            used = True
    if not used:
        raise ParameterError(
            "weights_file", f"{path}: names {', '.join(sorted(named))}, which no setup seats"
        )


def given_variants(
    baseline: Mapping[str, Any],
    variants: Sequence[str | Mapping[str, Any]],
    variant_cards: Any,
    labels: Sequence[str | None] | None,
) -> list[tuple[dict[str, Any], str | None]]:
    """Each variant's options and the label given for it: ``variants`` in order (``labels[k]``
    each), then one per card file of ``variant_cards`` in file-name order (the file's name); no
    label means one derived from what the setup changes (:func:`~.variants.short_label`)."""
    given = [_options(v, "variants") for v in variants]
    if labels is not None and len(labels) != len(given):
        raise ParameterError(
            "labels",
            f"gave {counted(len(labels), 'label')} for {counted(len(given), 'variant')} "
            "(one per {variants}; "
            "card files are labelled by their names)",
            mentions=("variants",),
        )
    out = []
    for k, options in enumerate(given):
        label = None if labels is None else labels[k]
        if label is not None and LABEL_KEY in options:
            raise ParameterError(
                "labels", f"variant {k + 1} has a label= too; give one of them", mentions=()
            )
        out.append((options, label))
    if variant_cards is not None:
        for stem, options in card_file_variants(variant_cards, "variant_cards", baseline):
            out.append((options, stem))
    if not out:
        raise ParameterError(
            "variants", "give at least one variant or {variant_cards}", mentions=("variant_cards",)
        )
    return out


def _arms(
    spec: GameSpec,
    base: Arm,
    given: list[tuple[dict[str, Any], str | None]],
    *,
    players: int,
    seed: int,
    allow_identical: bool,
) -> list[Arm]:
    """The variants' arms, each labelled (a derived label made unique with ``#2``...)."""
    arms: list[Arm] = []
    for options, label in given:
        derived = label is None and LABEL_KEY not in options
        name = short_label(options, base.options) if derived else label
        arm = build_arm(spec, options, players=players, seed=seed, option="variants", label=name)
        if not allow_identical:
            check_distinct(base, arm, "variants")
        taken = {a.label for a in arms} | {base.label}
        if arm.label in taken:
            if not derived:
                raise ParameterError("labels", f"two setups are labelled {arm.label!r}")
            k = 2
            while f"{arm.label} #{k}" in taken:
                k += 1
            arm = Arm(f"{arm.label} #{k}", arm.options, arm.setup)
        arms.append(arm)
    return arms


def play_arm(
    spec: GameSpec, arm: Arm, games: int, threads: int | None, progress: Progress | None
) -> pd.DataFrame:
    """The tidy rows of ``games`` games of ``arm``, through the game contract."""
    chunk_frame = spec.entry("chunk_frame")
    frames = [
        chunk_frame(arm.setup, first, arrays)
        for first, arrays in spec.play_chunks(
            arm.setup,
            games,
            chunk_games=DEFAULT_CHUNK_GAMES,
            threads=threads,
            progress=progress,
        )
    ]
    return pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]


def per_game(rows: pd.DataFrame, column: str, players: int, dtype: Any) -> np.ndarray:
    """``column`` of the players' rows, shape ``(games, players)``: a game's rows are its
    players' and then any row a setup adds (an automated opponent's in a solo game), which is
    left out."""
    games = rows["game"].nunique()
    return rows[column].to_numpy(dtype).reshape(games, -1)[:, :players]


def positions(spec: GameSpec, rows: pd.DataFrame, players: int) -> np.ndarray:
    """Each (game, seat)'s turn position, shape ``(games, players)``, read as the spec says."""
    from fairysim.stats.turn_order import positions_of

    games = rows["game"].nunique()
    return positions_of(rows, spec.turn_order).reshape(games, -1)[:, :players]


def metrics(spec: GameSpec) -> list[Metric]:
    """The per-seat metrics compared: win share, score and the declared score parts."""
    parts = [
        Metric(p, p.removesuffix("_points").replace("_", " "), "points") for p in spec.score_parts
    ]
    return [Metric("win_share", "win share", "share"), Metric("score", "score", "points"), *parts]


def _by_position(values: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """``values[i, s]`` rearranged so that column ``p`` holds turn position ``p``'s value."""
    out = np.empty_like(values)
    np.put_along_axis(out, pos, values, axis=1)
    return out


def _groups(
    spec: GameSpec, rows: pd.DataFrame, players: int, seats_apart: bool
) -> dict[tuple[str, int | None, str], np.ndarray]:
    """Per-game values of every (group, index, metric) of one arm's tidy rows."""
    return group_values(
        spec,
        lambda column: per_game(rows, column, players, np.float64),
        positions(spec, rows, players),
        players,
        seats_apart,
    )


def arrays_groups(
    spec: GameSpec,
    arrays: Mapping[str, np.ndarray],
    players: int,
    names: Sequence[str] | None = None,
) -> dict[tuple[str, int | None, str], np.ndarray]:
    """:func:`group_values` of a run as plain arrays (``join_chunks`` of ``play_chunks``), the
    values its tidy rows give, for the metrics ``names`` (default: all), seats not apart: what
    ``fairysim tune`` reads of a comparison without building the rows."""
    from fairysim.stats.turn_order import positions_of_arrays

    def column(name: str) -> np.ndarray:
        values = np.asarray(arrays[name], np.float64)
        return values.reshape(len(values), -1)[:, :players]

    pos = positions_of_arrays(arrays, spec.turn_order, players)
    return group_values(spec, column, pos, players, False, names)


def group_values(
    spec: GameSpec,
    column: Callable[[str], np.ndarray],
    pos: np.ndarray,
    players: int,
    seats_apart: bool,
    names: Sequence[str] | None = None,
) -> dict[tuple[str, int | None, str], np.ndarray]:
    """Per-game values of every (group, index, metric) of one arm: ``column(name)`` gives a
    metric's values, shape ``(games, players)``, ``pos`` each seat's turn position; ``names``
    keeps those metrics (and the length where it is named) only."""
    out: dict[tuple[str, int | None, str], np.ndarray] = {}
    for metric in metrics(spec):
        if names is not None and metric.name not in names:
            continue
        values = column(metric.name)
        by_pos = _by_position(values, pos)
        for p in range(players):
            out[(POSITION, p, metric.name)] = by_pos[:, p]
        if seats_apart:
            for s in range(players):
                out[(SEAT, s, metric.name)] = values[:, s]
        if players > 1:
            out[(POOLED, None, metric.name)] = values.mean(axis=1)
        if metric.name == "win_share" and players > 1:
            out[(POOLED, None, SPREAD)] = spread_contrast(by_pos)
    if spec.length_column is not None and (names is None or LENGTH in names):
        out[(POOLED, None, LENGTH)] = column(spec.length_column)[:, 0]
    return out


def _labels(spec: GameSpec) -> dict[str, Metric]:
    labels = {m.name: m for m in metrics(spec)}
    labels[SPREAD] = Metric(SPREAD, "turn-order spread (farthest from fair)", "share")
    labels[LENGTH] = Metric(LENGTH, f"game length ({spec.length_column})", "per game")
    return labels


@policies_resolved_once()
def compare(
    game: str | GameSpec,
    *,
    baseline: str | Mapping[str, Any] | None = None,
    variants: Sequence[str | Mapping[str, Any]] = (),
    variant_cards: str | Any | None = None,
    labels: Sequence[str | None] | None = None,
    weights_file: str | Path | None = None,
    players: int | None = None,
    games: int | None = None,
    seed: int = 0,
    rank_by: str | None = None,
    rank_position: int | None = None,
    allow_identical: bool = False,
    alpha: float = ALPHA,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Comparison:
    """Play a baseline and each variant on the same seeds and compare them game by game.

    Every parameter is checked here, before a game is played, with an error naming the
    parameter (:class:`~fairysim.runtime.errors.ParameterError`).

    Parameters
    ----------
    game : str or GameSpec
        A registered game.
    baseline : str or mapping, optional
        The baseline setup as ``"key=value;key=value"`` text or a dict of the same keys (see
        :mod:`fairysim.analysis.studies.variants`): the game's ``make_setup`` keywords but
        ``seed``, ``policy``, ``weights`` and ``label`` (default: the game's defaults).
    variants : sequence of str or mapping
        Variant setups, the same way.
    variant_cards : path, optional
        A folder of card files: one variant per ``.toml`` file (the baseline with those cards),
        after ``variants``, labelled by the file's name.
    labels : sequence of str or None, optional
        A label per entry of ``variants`` (None: a setup's ``label=``, else one made from what
        it sets otherwise than the baseline, a card file by its name).
    weights_file : path, optional
        A weights file (``best-response``'s ``weights.toml``) set on every setup that names
        none of its own (``weights_file=``), so the baseline and the variants play the same
        searched weights.
    players : int, optional
        Player count (default: the game's).
    games : int, optional
        Games ``0 .. games-1`` of ``seed`` for every setup (default :data:`GAMES`).
    seed : int
        The seed every setup plays.
    rank_by : str, optional
        The metric the ranking sorts by: ``turn_order_spread`` (the default; lowest first),
        ``win_share`` (with ``rank_position``, and its default there), ``score``, a score part
        or ``game_length`` (highest first).
    rank_position : int, optional
        Rank by ``rank_by`` at this turn position, 1 = first to act (default: pooled; 1 for
        one player, where nothing is pooled).
    allow_identical : bool
        Let a variant equal the baseline (a self-comparison, to check the method: every
        difference is then exactly 0). The command line never allows it.
    alpha : float
        Family-wise error rate of the differences (:data:`ALPHA`; a run to precision gives
        each of its looks a share of it, :func:`compare_to_precision`).
    threads, progress
        As for :func:`fairysim.sim.run.simulate`.

    Returns
    -------
    Comparison
        ``differences``, ``ranking`` and ``pairing`` DataFrames (see the module docstring).
    """
    spec = game if isinstance(game, GameSpec) else get_game(game, "game")
    players = spec.check_players(spec.default_players if players is None else players)
    games = check_games(GAMES if games is None else games, "games")
    base_options = _options(baseline, "baseline")
    given = given_variants(base_options, variants, variant_cards, labels)
    if weights_file is not None:
        setups = [(base_options, "baseline")] + [(o, "variants") for o, _ in given]
        shared_weights_file(spec, setups, weights_file, players=players, seed=seed)
    base_label = str(base_options.get(LABEL_KEY, "baseline"))
    base = build_arm(
        spec, base_options, players=players, seed=seed, option="baseline", label=base_label
    )
    arms = _arms(spec, base, given, players=players, seed=seed, allow_identical=allow_identical)
    if rank_by is None:  # who wins: the turn order's fairness, or one position's win share
        rank_by = SPREAD if players > 1 and rank_position is None else "win_share"
    if players == 1 and rank_position is None:
        rank_position = 1  # one seat: its only turn position is the whole table
    check_rank(
        [m.name for m in metrics(spec)],
        rank_by,
        rank_position,
        players,
        spec.length_column is not None,
    )

    lineups = [tuple((p.name, p.weights) for p in a.setup.policies) for a in (base, *arms)]
    seats_apart = (
        players > 1
        and (spec.turn_order.column is not None or spec.turn_order.start_seat is not None)
        and any(len(set(lineup)) > 1 for lineup in lineups)
    )
    base_rows = play_arm(spec, base, games, threads, progress)
    base_values = _groups(spec, base_rows, players, seats_apart)
    base_pos = positions(spec, base_rows, players)
    names = _labels(spec)
    records, pairing, values, fixed = [], [], {}, []
    for arm in arms:
        rows = play_arm(spec, arm, games, threads, progress)
        arm_values = _groups(spec, rows, players, seats_apart)
        values[arm.label] = arm_values
        same_order = int((positions(spec, rows, players) == base_pos).all(axis=1).sum())
        drawn = players if spec.turn_order.column or spec.turn_order.start_seat else 0
        pairing.append(pairing_row(arm, base, same_order, games, drawn))
        for (group, index, name), b in base_values.items():
            v = arm_values[(group, index, name)]
            if group == POOLED and np.ptp(b) == 0 and np.ptp(v) == 0 and b[0] == v[0]:
                fixed.append((arm.label, name))  # fixed by the rules (win shares sum to 1)
                continue
            metric = names[name]
            records.append(
                {
                    "variant": arm.label,
                    "group": group,
                    "index": -1 if index is None else index,
                    "where": (
                        _farthest(base_values, arm_values, players)
                        if name == SPREAD
                        else _where(group, index, base, arm)
                    ),
                    "metric": name,
                    "label": metric.label,
                    "unit": metric.unit,
                    "question": WHO_WINS if metric.name in (SPREAD, "win_share") else SUPPORTING,
                    **paired_row(b, v),
                }
            )
    differences = correct(pd.DataFrame.from_records(records), alpha)
    ranking = rank(differences, values, rank_by, rank_position, [a.label for a in arms], alpha)
    meta = {
        "game": spec.name,
        "players": players,
        "games": games,
        "seed": seed,
        "baseline": {"label": base.label, "options": base.options, "config": base.config},
        "variants": [{"label": a.label, "options": a.options, "config": a.config} for a in arms],
        "alpha": alpha,
        "correction": "holm (p-values), bonferroni (intervals)",
        "rank_by": rank_by,
        "rank_position": rank_position,
        "fixed": [{"variant": label, "metric": name} for label, name in fixed],
    }
    result = Comparison(differences, ranking, pd.DataFrame.from_records(pairing), meta)
    for frame in (result.differences, result.ranking, result.pairing):
        frame.attrs["fairysim"] = meta
    return result


def _where(group: str, index: int | None, base: Arm, arm: Arm) -> str:
    """A row's place in words: ``1st to act``, ``seat 0 (hoarder)``, ``seat 0 (greedy ->
    random)`` where the lineups differ there, or ``pooled``."""
    if group == POSITION:
        return position_words(int(index))
    if group == SEAT:
        was, now = base.setup.policies[index], arm.setup.policies[index]
        entry = now.name if (was.name, was.weights) == (now.name, now.weights) else None
        if entry is None:
            entry = f"{was.name} -> {now.name}" if was.name != now.name else f"{now.name}, weights"
        return f"seat {index} ({entry})"
    return "all positions" if group == POOLED and index is None else POOLED


def _farthest(base: Mapping, variant: Mapping, players: int) -> str:
    """Where each setup's turn-order spread is taken: the turn position whose win share is
    farthest from the fair share, the baseline's then the variant's (``4th to act -> 1st``)."""
    where = []
    for values in (base, variant):
        shares = [values[(POSITION, p, "win_share")].mean() for p in range(players)]
        where.append(int(np.argmax(np.abs(np.asarray(shares) - 1.0 / players))))
    if where[0] == where[1]:
        return position_words(where[0])
    return f"{position_words(where[0])} -> {position_words(where[1])}"


def headline(differences: pd.DataFrame) -> pd.DataFrame:
    """The who-wins rows that the correction separates from the baseline, per variant (in the
    order the variants were given), largest change first."""
    rows = differences[(differences["question"] == WHO_WINS) & differences["separated"]]
    order = {label: k for k, label in enumerate(dict.fromkeys(differences["variant"]))}
    return (
        rows.assign(_v=rows["variant"].map(order), _size=-rows["difference"].abs())
        .sort_values(["_v", "_size"], kind="stable")
        .drop(columns=["_v", "_size"])
        .reset_index(drop=True)
    )


def share_half_width(result: Comparison) -> float:
    """The widest corrected half-width of the win-share differences (and the turn-order
    spread): what :func:`compare_to_precision` watches, in win-share units."""
    shares = result.differences[result.differences["unit"] == "share"]
    if shares.empty or not np.isfinite(shares["high"] - shares["low"]).any():
        return 0.0  # no win share moves (one seat's table of fixed shares): nothing to narrow
    return float(np.nanmax((shares["high"] - shares["low"]) / 2))


@policies_resolved_once()
def compare_to_precision(
    game: str | GameSpec,
    *,
    precision: float,
    max_games: int = PRECISION_MAX_GAMES,
    first_look: int = 1000,
    **options: Any,
) -> tuple[Comparison, StudyPrecision]:
    """:func:`compare` at doubling game counts until every win-share difference is precise.

    The stopping rule is :func:`fairysim.stats.precision.study_to_precision`'s: looks at
    ``first_look`` games, doubling, and ``max_games``, fixed before the first game; each look
    replays games ``0 .. n - 1`` of the seed (the very games a fixed run of ``n`` plays) with
    its differences corrected at ``ALPHA / looks``; the first look whose widest win-share
    half-width (``share_half_width``, per turn position, per seat and the spread) is at most
    ``precision`` is the comparison returned. ``options`` are :func:`compare`'s, less ``games``
    and ``alpha``.
    """
    for fixed in ("games", "alpha"):
        if fixed in options:
            raise TypeError(f"compare_to_precision sets {fixed} itself")
    check_precision(precision)
    max_games = check_games(max_games, "max_games")
    result, reached = study_to_precision(
        lambda games, alpha: compare(game, games=games, alpha=alpha, **options),
        share_half_width,
        precision,
        max_games,
        first_look=first_look,
        alpha=ALPHA,
        watched="win-share difference",
    )
    result.meta["precision"] = {
        "asked": precision,
        "reached": reached.reached,
        "looks": reached.looks,
        "half_widths": reached.half_widths,
        "max_games": max_games,
    }
    return result, reached


__all__ = [
    "ALPHA",
    "GAMES",
    "LENGTH",
    "POOLED",
    "POSITION",
    "SEAT",
    "SPREAD",
    "SUPPORTING",
    "WHO_WINS",
    "Comparison",
    "arrays_groups",
    "compare",
    "compare_to_precision",
    "correct",
    "group_values",
    "headline",
    "metric_words",
    "paired_row",
    "pairing_note",
    "pairs_family",
    "position_words",
    "positions",
    "rank",
    "ranking_sentence",
    "share_half_width",
    "spread_contrast",
]
