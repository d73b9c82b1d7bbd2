"""Cards measured on the whole table: each card a what-if variant against the setup as shipped.

Some cards no seat can be dealt, so the forced-card study
(:mod:`fairysim.analysis.studies.card_effects`) has nothing to force: Fairy Land's ogre is never
held (L6), and Fairy Concerto's soloist, pianist and harpist cards are the table's (PC3). A game
declares how such cards are measured
(:class:`~fairysim.analysis.studies.card_studies.TableCards`): each card is a setup variant (Fairy
Land's type removed from the forest, ruling PL12; Concerto's contest card fixed for every game)
played as a what-if (:func:`fairysim.analysis.studies.what_if.compare`) against the
shipped setup on the same seeds, games ``0 .. G-1``. The game's ruling says what stays paired; the
turn order's agreement is measured.

The effect has no single seat: every seat meets the change. It is reported per turn position,
the paired difference of that position's win share (the spec's
:class:`~fairysim.sim.game.TurnOrder`: Fairy Land's drawn turn position, L18; Concerto's seat
index, C4), and pooled over the table: the turn-order spread (the largest distance of a turn
position's win share from the fair share, :func:`~.what_if.spread_contrast`), the mean
score and the game's length where the game declares one, each game one paired difference (the
game is the cluster). A pooled win share never moves (a game's shares sum to 1). Every row of
every card and player count is one family corrected with Holm's method
(:func:`fairysim.stats.corrections.with_correction`), so a card is said to raise or lower a
number only where its corrected interval excludes 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from fairysim.analysis.studies.card_studies import TableCards, table_cards_of
from fairysim.analysis.studies.what_if import (
    LENGTH,
    POOLED,
    POSITION,
    SPREAD,
    arrays_groups,
    compare,
)
from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.runtime.stages import tell
from fairysim.sim.batch import Progress, check_games
from fairysim.sim.game import GameSpec, get_game, load_entry
from fairysim.sim.policy import policies_resolved_once
from fairysim.stats.corrections import with_correction

PREFIX = "effect_"
"""Prefix of the corrected columns."""

SHOWN = ((POSITION, "win_share"), (POOLED, SPREAD), (POOLED, "score"), (POOLED, LENGTH))
"""The (group, metric) rows a removal study reports, in the order a table shows them."""

NOT_SHOWN = "no change shown"
RULES = "the same change in every game"


@dataclass
class TableCardStudy:
    """The tables of one table-card study.

    ``differences`` has a row per (player count, card, row of :data:`SHOWN`): ``players``,
    ``table``, ``label`` (the card), ``options`` (the variant's setup), ``group`` (``turn
    position`` or ``pooled``), ``index`` (the turn position, -1 pooled), ``metric``,
    ``metric_label``, ``unit``,
    ``baseline_mean``, ``variant_mean``, ``difference`` (the variant minus the shipped setup),
    ``se``, ``se_ratio`` (paired over unpaired), ``games``, the corrected ``effect_*`` columns and
    ``verdict``; sorted by player count, the cards by their spread difference (largest first),
    then the turn positions by difference (largest first) before the pooled rows. ``pairing``
    has a row per (player count, card): the games whose turn order is the shipped game's.
    ``meta`` the study's description.
    """

    differences: pd.DataFrame
    pairing: pd.DataFrame
    meta: dict[str, Any]


@policies_resolved_once()
def table_card_studies(game: str | GameSpec, *, games: int, **options: Any) -> list[TableCardStudy]:
    """:func:`table_card_study` of every
    :class:`~fairysim.analysis.studies.card_studies.TableCards` the game declares (none: an
    empty list), each on its ``games_share`` of ``games`` (a report's ``--card-games``) an arm."""
    spec = game if isinstance(game, GameSpec) else get_game(game, "GAME")
    games = check_games(games, "card_games")
    return [
        table_card_study(
            spec, declared, games=max(2, round(games * declared.games_share)), **options
        )
        for declared in table_cards_of(spec)
    ]


@policies_resolved_once()
def table_card_study(
    game: str | GameSpec,
    declared: TableCards | None = None,
    *,
    players: int | Sequence[int],
    games: int,
    seed: int = 1,
    policies: Any = "greedy",
    cards: Any = None,
    threads: int | None = None,
    progress: Progress | None = None,
    method: str = "holm",
    **axes: Any,
) -> TableCardStudy:
    """Each declared card's variant against the shipped setup, on the same games.

    Parameters
    ----------
    game : str or GameSpec
        A game that declares :class:`~fairysim.analysis.studies.card_studies.TableCards`.
    declared : TableCards, optional
        Which of its declarations (default: the first).
    players : int or sequence of int
        Player counts, each compared on its own; all rows are one corrected family.
    games, seed, policies, cards, axes
        The baseline, as ``make_setup`` takes it; ``games`` games per arm (the shipped setup
        and one arm per card), all on ``seed``.
    method : {"holm", "fdr_bh"}
        The family's correction.

    Returns
    -------
    TableCardStudy

    Raises
    ------
    FairysimError
        Naming the option at fault (``GAME`` for a game that declares none, ``--games`` and
        whatever ``make_setup`` names).
    """
    spec = game if isinstance(game, GameSpec) else get_game(game, "GAME")
    if declared is None:
        declared_cards = table_cards_of(spec)
        if not declared_cards:
            raise FairysimError("GAME", f"{spec.name} declares no table-card study")
        declared = declared_cards[0]
    games = check_games(games, "games")
    counts = [players] if isinstance(players, int | str) else list(players)
    baseline = {"policies": policies, **axes}
    if cards is not None:
        baseline["cards"] = cards
    frames, pairing = [], []
    for n in counts:
        base = spec.make_setup(players=n, seed=seed, **baseline)
        variants = card_variants(declared, base)
        if not variants:
            continue
        tell(f"{declared.name}, {base.players} players, {len(variants)} cards")
        result = compare(
            spec,
            baseline=baseline,
            variants=[{**baseline, **options} for _, options in variants],
            labels=[label for label, _ in variants],
            players=base.players,
            games=games,
            seed=seed,
            threads=threads,
            progress=progress,
        )
        text = {label: _options_text(options) for label, options in variants}
        frames.append(
            _shown(result.differences, text).assign(players=base.players, table=base.table())
        )
        pairing.append(
            result.pairing.rename(columns={"variant": "label"}).assign(players=base.players)
        )
    if not frames:
        raise ParameterError("cards", f"the card file holds no card {declared.name} measures")
    table = with_correction(
        pd.concat(frames, ignore_index=True), "difference", "se", method=method, prefix=PREFIX
    )
    table["verdict"] = [_verdict(r, declared) for r in table.itertuples(index=False)]
    meta = {
        "game": spec.name,
        "players": [int(n) for n in table["players"].unique()],
        "games": games,
        "seed": seed,
        "policies": policies if isinstance(policies, str) else list(map(str, policies)),
        "setup": {k: str(v) for k, v in axes.items()},
        "name": declared.name,
        "heading": declared.heading,
        "intervention": declared.intervention,
        "paired": declared.paired,
        "shipped": declared.shipped,
        "raises": declared.raises,
        "lowers": declared.lowers,
        "ruling": declared.ruling,
        "method": method,
    }
    return TableCardStudy(_sorted(table), pd.concat(pairing, ignore_index=True), meta)


def card_variants(declared: TableCards, setup: Any) -> list[tuple[str, dict[str, Any]]]:
    """The ``(label, options)`` of every card ``declared`` measures at ``setup`` (its
    ``variants`` entry point): the labels the study's rows carry, the ``make_setup`` keywords
    that make each card's variant."""
    return list(load_entry(declared.variants)(setup))


def position_differences(
    spec: GameSpec,
    shipped: Mapping[str, np.ndarray],
    variant: Mapping[str, np.ndarray],
    players: int,
) -> np.ndarray:
    """Per game, each turn position's win share with a card's variant minus as shipped, shape
    ``(games, players)``, of two runs as plain arrays on the same games: the per-game values
    (:func:`~.what_if.arrays_groups`, those :func:`~.what_if.compare` takes of the rows) whose
    paired differences are the study's ``(turn position, win_share)`` rows."""
    keys = [(POSITION, p, "win_share") for p in range(players)]
    before = arrays_groups(spec, shipped, players, ["win_share"])
    after = arrays_groups(spec, variant, players, ["win_share"])
    return np.column_stack([after[key] - before[key] for key in keys])


def _options_text(options: dict[str, Any]) -> str:
    return ";".join(f"{key}={value}" for key, value in options.items())


def _shown(differences: pd.DataFrame, options: dict[str, str]) -> pd.DataFrame:
    """The rows of :data:`SHOWN` of one comparison, named as the study names them."""
    keep = np.zeros(len(differences), bool)
    for group, metric in SHOWN:
        keep |= (differences["group"] == group).to_numpy() & (
            differences["metric"] == metric
        ).to_numpy()
    rows = differences[keep].rename(columns={"label": "metric_label"})
    rows = rows.rename(columns={"variant": "label"})
    rows = rows.assign(options=rows["label"].map(options))
    return rows[
        [
            "label",
            "options",
            "group",
            "index",
            "metric",
            "metric_label",
            "unit",
            "baseline_mean",
            "variant_mean",
            "difference",
            "se",
            "se_ratio",
            "games",
        ]
    ].reset_index(drop=True)


def _verdict(row: Any, declared: TableCards) -> str:
    if row.se == 0 and row.difference != 0:
        return RULES  # the variant fixes it (a shorter deck, a shorter game): no test needed
    if not getattr(row, f"{PREFIX}significant"):
        return NOT_SHOWN
    return declared.raises if row.difference > 0 else declared.lowers


def _sorted(table: pd.DataFrame) -> pd.DataFrame:
    """Player count; its cards by their turn-order spread difference, largest first; the turn
    positions by difference, largest first; then the pooled rows in :data:`SHOWN`'s order."""
    spread = table[(table["group"] == POOLED) & (table["metric"] == SPREAD)]
    keys = zip(spread["players"], spread["label"], strict=True)
    by_card = dict(zip(keys, spread["difference"], strict=True))
    order = {key: k for k, key in enumerate(SHOWN)}
    keyed = table.assign(
        _card=[
            -by_card.get(key, 0.0) for key in zip(table["players"], table["label"], strict=True)
        ],
        _row=[order[(g, m)] for g, m in zip(table["group"], table["metric"], strict=True)],
        _sort=np.where(table["group"] == POSITION, -table["difference"], 0.0),
    )
    keyed = keyed.sort_values(["players", "_card", "label", "_row", "_sort"], kind="stable")
    return keyed.drop(columns=["_card", "_row", "_sort"]).reset_index(drop=True)


__all__ = [
    "TableCardStudy",
    "card_variants",
    "position_differences",
    "table_card_studies",
    "table_card_study",
]
