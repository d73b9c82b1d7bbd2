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
declares one, and the turn-order spread, here the win share of the first to act minus that of
the last (a per-game contrast, so it has a paired difference; the range over positions has
none). A pooled metric that the rules fix (win shares of a game sum to 1) is left out.

Every difference reported is one test (two-sided t on the paired differences, ``G - 1`` degrees
of freedom); the p-values of all of them, over all variants, are corrected together with Holm's
method (``statsmodels.stats.multitest.multipletests``), and every interval is drawn at the
Bonferroni level ``0.05 / m``. Holm rejects whatever Bonferroni rejects, so an interval that
excludes zero always reads "differs"; where Holm separates a difference whose Bonferroni interval
still touches zero the verdict says so. ``se_ratio`` is the paired standard error over the
unpaired one (two independent runs of ``G`` games each), how much the pairing narrowed the
interval.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from fairysim.analysis.studies.variants import (
    Arm,
    build_arm,
    check_distinct,
    describe,
    parse_setup,
    same_cards,
)
from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.sim.batch import DEFAULT_CHUNK_GAMES, Progress, check_games
from fairysim.sim.game import GameSpec, get_game
from fairysim.sim.policy import policies_resolved_once
from fairysim.stats.estimates import multipletests
from fairysim.stats.precision import StudyPrecision, check_precision, study_to_precision

ALPHA = 0.05
"""Family-wise error rate of all the differences one comparison reports."""

PRECISION_MAX_GAMES = 160_000
"""Cap on the games per setup of :func:`compare_to_precision` unless given."""

POOLED = "pooled"
POSITION = "turn position"
SEAT = "seat"

SPREAD = "turn_order_spread"
LENGTH = "game_length"


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


def _as_arm(
    spec: GameSpec, given: str | Mapping[str, Any], *, players: int, seed: int, option: str, label
) -> Arm:
    options = parse_setup(given, option) if isinstance(given, str) else dict(given)
    if label is None:
        label = describe(options)
    return build_arm(spec, options, players=players, seed=seed, option=option, label=label)


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


def positions(spec: GameSpec, rows: pd.DataFrame, players: int) -> np.ndarray:
    """Each (game, seat)'s turn position, shape ``(games, players)``, read as the spec says."""
    from fairysim.stats.turn_order import positions_of

    return positions_of(rows, spec.turn_order).reshape(-1, players)


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
    """Per-game values of every (group, index, metric) of one arm."""
    pos = positions(spec, rows, players)
    out: dict[tuple[str, int | None, str], np.ndarray] = {}
    for metric in metrics(spec):
        values = rows[metric.name].to_numpy(np.float64).reshape(-1, players)
        by_pos = _by_position(values, pos)
        for p in range(players):
            out[(POSITION, p, metric.name)] = by_pos[:, p]
        if seats_apart:
            for s in range(players):
                out[(SEAT, s, metric.name)] = values[:, s]
        if players > 1:
            out[(POOLED, None, metric.name)] = values.mean(axis=1)
        if metric.name == "win_share" and players > 1:
            out[(POOLED, None, SPREAD)] = by_pos[:, 0] - by_pos[:, players - 1]
    if spec.length_column is not None:
        length = rows[spec.length_column].to_numpy(np.float64).reshape(-1, players)[:, 0]
        out[(POOLED, None, LENGTH)] = length
    return out


def _labels(spec: GameSpec) -> dict[str, Metric]:
    labels = {m.name: m for m in metrics(spec)}
    labels[SPREAD] = Metric(SPREAD, "turn-order spread (first minus last)", "share")
    labels[LENGTH] = Metric(LENGTH, f"game length ({spec.length_column})", "per game")
    return labels


def paired_row(base: np.ndarray, variant: np.ndarray) -> dict[str, float]:
    """Means, the paired difference and its standard error, the unpaired standard error, and the
    uncorrected two-sided t-test p-value of ``variant - base`` over games."""
    n = base.size
    diff = variant - base
    mean = float(diff.mean())
    se = float(diff.std(ddof=1) / np.sqrt(n)) if n > 1 else np.nan
    se_unpaired = (
        float(np.sqrt(base.var(ddof=1) / n + variant.var(ddof=1) / n)) if n > 1 else np.nan
    )
    if not np.isfinite(se):
        p = np.nan
    elif se == 0.0:
        p = 1.0 if mean == 0.0 else 0.0  # every game moved by exactly the same amount
    else:
        p = float(2 * sps.t.sf(abs(mean / se), df=n - 1))
    return {
        "baseline_mean": float(base.mean()),
        "variant_mean": float(variant.mean()),
        "difference": mean,
        "se": se,
        "se_unpaired": se_unpaired,
        "se_ratio": se / se_unpaired if se_unpaired > 0 else np.nan,
        "p": p,
        "games": n,
    }


def correct(rows: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Holm-corrected p-values, Bonferroni-level intervals and the verdict of every row."""
    rows = rows.copy()
    finite = rows["p"].notna()
    m = int(finite.sum())
    rows["p_holm"] = np.nan
    rows["separated"] = False
    if m:
        reject, p_holm, _, _ = multipletests(rows.loc[finite, "p"], alpha=alpha, method="holm")
        rows.loc[finite, "p_holm"] = p_holm
        rows.loc[finite, "separated"] = reject
    level = 1 - alpha / max(m, 1)
    quantile = sps.t.ppf(1 - (1 - level) / 2, df=np.maximum(rows["games"] - 1, 1))
    rows["low"] = rows["difference"] - quantile * rows["se"]
    rows["high"] = rows["difference"] + quantile * rows["se"]
    rows["level"] = level
    rows["tests"] = m
    rows["verdict"] = [verdict(r) for r in rows.itertuples()]
    return rows


def verdict(row: Any) -> str:
    """Words for one corrected difference: ``higher``/``lower`` only where Holm separates it."""
    if not row.separated:
        return "not separated from the baseline"
    word = "higher than the baseline" if row.difference > 0 else "lower than the baseline"
    if row.low <= 0 <= row.high:
        return f"{word} (Holm; the Bonferroni interval touches 0)"
    return word


@policies_resolved_once()
def compare(
    game: str | GameSpec,
    *,
    baseline: str | Mapping[str, Any],
    variants: Sequence[str | Mapping[str, Any]],
    players: int | None = None,
    games: int = 10_000,
    seed: int = 0,
    labels: Sequence[str] | None = None,
    rank_by: str = "score",
    rank_position: int | None = None,
    allow_identical: bool = False,
    alpha: float = ALPHA,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Comparison:
    """Play a baseline and each variant on the same seeds and compare them game by game.

    Parameters
    ----------
    game : str or GameSpec
        A registered game.
    baseline, variants : str or mapping
        Setups as ``"key=value;key=value"`` text or dicts of the same keys (see
        :mod:`fairysim.analysis.studies.variants`): the game's ``make_setup`` keywords but ``seed``,
        and ``weights``.
    players : int, optional
        Player count (default: the game's).
    games, seed : int
        Games ``0 .. games-1`` of ``seed``, for every setup.
    labels : sequence of str, optional
        A name per variant (default: its options as text).
    rank_by : str
        The metric the ranking table sorts by (``score``, ``win_share``, a score part,
        ``turn_order_spread`` or ``game_length``).
    rank_position : int, optional
        Rank by that metric at this turn position (default: pooled; position 0 for one
        player, where nothing is pooled).
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
    games = check_games(games, "games")
    if not variants:
        raise ParameterError("variants", "give at least one variant")
    if labels is not None and len(labels) != len(variants):
        raise FairysimError("labels", f"gave {len(labels)} labels for {len(variants)} variants")
    base = _as_arm(spec, baseline, players=players, seed=seed, option="baseline", label="baseline")
    arms = []
    for k, given in enumerate(variants):
        label = None if labels is None else labels[k]
        arm = _as_arm(spec, given, players=players, seed=seed, option="variants", label=label)
        if not allow_identical:
            check_distinct(base, arm, "variants")
        arms.append(arm)
    if len({a.label for a in arms}) != len(arms):
        raise ParameterError("variants", "two variants have the same label")
    if players == 1 and rank_position is None:
        rank_position = 0  # one seat: its only turn position is the whole table
    _check_rank(spec, rank_by, rank_position, players)

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
        pairing.append(_pairing(arm, base, same_order, games, drawn))
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
                    "metric": name,
                    "label": metric.label,
                    "unit": metric.unit,
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
        "baseline": {"options": base.options, "config": base.config},
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


def _check_rank(spec: GameSpec, rank_by: str, position: int | None, players: int) -> None:
    known = [m.name for m in metrics(spec)] + [SPREAD] * (players > 1)
    known += [LENGTH] * (spec.length_column is not None)
    if rank_by not in known:
        raise ParameterError("rank_by", f"must be one of {', '.join(known)}, got {rank_by!r}")
    if position is not None:
        if rank_by in (SPREAD, LENGTH):
            raise ParameterError("rank_position", f"{rank_by} is a per-game metric (pooled)")
        if not 0 <= position < players:
            raise ParameterError(
                "rank_position", f"turn positions are 0..{players - 1}, got {position}"
            )
    elif rank_by == "win_share" and players > 1:
        raise ParameterError(
            "rank_by",
            "a game's win shares sum to 1, so pooled win share never moves: give {rank_position}",
            mentions=("rank_position",),
        )


def _pairing(arm: Arm, base: Arm, same_order: int, games: int, drawn: int) -> dict[str, Any]:
    """What is paired between ``arm`` and ``base``; ``drawn`` is the player count where the
    turn order is drawn each game (0 where it is the seat index)."""
    cards = same_cards(base, arm)
    if cards:
        text = (
            "same card data, same seeds and game indices: every rule draw comes from the "
            "baseline's numbers in the same order, so the games share their deals as far as "
            "the setup draws the same things (a setup that draws more or fewer cards or items "
            "moves every later draw, the start seat included)"
        )
    else:
        text = (
            "the card data differ: both are played on the same seeds and game indices, but "
            "other card counts shuffle differently, so deals are paired only as far as the "
            "change leaves the engine's draws alike"
        )
    return {
        "variant": arm.label,
        "same_cards": cards,
        "same_turn_order_games": same_order,
        "games": games,
        "pairing": f"{text}; the turn order is the baseline's in {same_order:,} of {games:,} games"
        + (f" (by chance alone about 1 in {drawn})" if drawn > 1 and same_order < games else ""),
    }


def rank(
    differences: pd.DataFrame,
    values: Mapping[str, Mapping[tuple[str, int | None, str], np.ndarray]],
    rank_by: str,
    position: int | None,
    labels: Sequence[str],
    alpha: float = ALPHA,
) -> pd.DataFrame:
    """One row per variant, sorted by its difference on ``rank_by``, worded from Holm-corrected
    tests: against the baseline (the family of every difference reported) and against the
    variant ranked next (the family of every pair of variants, paired on the same games)."""
    group, index = (POOLED, -1) if position is None else (POSITION, position)
    key = (group, None if position is None else position, rank_by)
    rows = differences[
        (differences["group"] == group)
        & (differences["index"] == index)
        & (differences["metric"] == rank_by)
    ].set_index("variant")
    missing = [label for label in labels if label not in rows.index]
    if missing:  # the same in every game of both setups: left out of the tests
        same = {"difference": 0.0, "low": 0.0, "high": 0.0, "p_holm": np.nan}
        same["verdict"] = "the same in every game"
        rows = pd.concat([rows, pd.DataFrame([same] * len(missing), index=missing)])
    ordered = sorted(labels, key=lambda label: -rows.loc[label, "difference"])
    pairs = [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]
    pair_p = {}
    if pairs:
        ps = [paired_row(values[b][key], values[a][key])["p"] for a, b in pairs]
        finite = [p if np.isfinite(p) else 1.0 for p in ps]
        reject = multipletests(finite, alpha=alpha, method="holm")[0]
        pair_p = dict(zip(pairs, reject, strict=True))
    out = []
    for r, label in enumerate(ordered):
        row = rows.loc[label]
        below = ordered[r + 1] if r + 1 < len(ordered) else None
        above_all = all(pair_p.get((label, other), False) for other in ordered[r + 1 :])
        out.append(
            {
                "rank": r + 1,
                "variant": label,
                "metric": rank_by,
                "group": group,
                "index": index,
                "difference": row["difference"],
                "low": row["low"],
                "high": row["high"],
                "p_holm": row["p_holm"],
                "versus_baseline": row["verdict"],
                "versus_next": (
                    ""
                    if below is None
                    else "above the next"
                    if pair_p[(label, below)]
                    else "not separated from the next"
                ),
                "above_all_below": bool(above_all and below is not None),
            }
        )
    return pd.DataFrame.from_records(out)


def ranking_sentence(ranking: pd.DataFrame) -> str:
    """The ranking in words: a variant is "highest" only if separated from every other."""
    if ranking.empty:
        return "No variant was ranked."
    top = ranking.iloc[0]
    metric = str(top["metric"]).replace("_", " ")
    if (ranking["versus_baseline"] == "the same in every game").all():
        return f"{metric.capitalize()} is the same in every game of every setup: nothing to rank."
    if len(ranking) == 1:
        return f"{top['variant']} on {metric}: {top['versus_baseline']}."
    if top["above_all_below"]:
        return (
            f"{top['variant']} is highest on {metric}, separated from every other variant "
            "(Holm-corrected paired tests)."
        )
    return (
        f"No variant is separated from every other on {metric}: the order among the top "
        "variants is not established (Holm-corrected paired tests)."
    )


__all__ = [
    "ALPHA",
    "Comparison",
    "compare",
    "compare_to_precision",
    "correct",
    "paired_row",
    "positions",
    "ranking_sentence",
    "share_half_width",
]
