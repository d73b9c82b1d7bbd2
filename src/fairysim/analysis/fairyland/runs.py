"""One Fairy Land run's tidy rows as the study keeps them: which card types each seat collected,
per-game measures paired across courts, and wins by turn position.

A seat *collects* a card type when it ends the game owning at least one card of it (special
fairies in hand or played count, ``n_<card>`` of :data:`fairysim.sim.fairyland.SEAT_COLUMNS`),
when it took at least one ogre during the game (``ogres_gained``: ogres never stay, L6; a
Warrior's are never taken, L5), or, for a Queen's Court item, when it holds or used that item at
the end. A court item is judged only on the games whose court deck held it (9 of the court's
items are drawn each game, L2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from fairysim.sim.fairyland.cards import Court
from fairysim.sim.fairyland.rules import ANIMALS, CARD_NAMES, FLOWERS, SPECIAL_FAIRIES
from fairysim.sim.fairyland.spec import COLLECTED_NAMES, FOREST_LABELS
from fairysim.stats.estimates import flag_difference, wilson_interval
from fairysim.stats.run_arrays import run_players, seat_arrays

GROUPS = ("animal", "flower", "special fairy", "goblin", "ogre", "pendant", "court item")
"""Kinds of card type, in the order the report lists them."""

GROUP_OF = {
    **{CARD_NAMES[t]: "animal" for t in ANIMALS},
    **{CARD_NAMES[t]: "flower" for t in FLOWERS},
    **{CARD_NAMES[t]: "special fairy" for t in SPECIAL_FAIRIES},
    "goblin": "goblin",
    "ogre": "ogre",
    "lost_half": "pendant",
}
"""The kind of every forest card type (the Lost Half of the Royal Pendant is the forest's one
item, rulebook "What is in the Forest?")."""


MASK_COLUMNS = ("items_held_mask", "items_used_mask", "court_items")
GAME_COLUMNS = (
    "score",
    "win_share",
    "turn_position",
    "turns",
    "auctions",
    "unbid_clearings",
    "queen_visits",
    "druid_visits",
    "value_paid",
    "items_points",
)
"""Per-seat columns :func:`game_rows` reads."""


@dataclass(frozen=True)
class GameMeasure:
    """A per-game measure the courts are compared on (:func:`game_rows` makes its column).

    ``unit`` is ``"share"`` for a share of games (0..1, differences shown in percentage
    points), else what the measure counts (``"points"``, ``"auctions"`` ...); ``short`` names
    it in a sentence.
    """

    column: str
    label: str
    unit: str
    short: str


GAME_MEASURES = (
    GameMeasure("mean_score", "mean score of a seat", "points", "seat score"),
    GameMeasure("winning_score", "winner's score", "points", "winner's score"),
    GameMeasure("margin", "winning margin (winner minus runner-up)", "points", "margin"),
    GameMeasure("items_points", "item points of a seat", "points", "item points"),
    GameMeasure("queen_visits", "Queen visits per game (all seats)", "visits", "Queen visits"),
    GameMeasure(
        "value_paid", "fairy value played per game (all seats)", "fairy value", "fairy value played"
    ),
    GameMeasure("auctions", "auctions per game", "auctions", "auctions"),
    GameMeasure("unbid", "unbid clearings per game", "clearings", "unbid clearings"),
    GameMeasure("starter_wins", "starting player's win share", "share", "starter's win share"),
)
"""What the court comparison pairs game by game, in report order."""


def card_types(court: Court) -> pd.DataFrame:
    """Every card type the card balance covers, in report order.

    Parameters
    ----------
    court : Court
        The court whose items are judged (bit ``i`` of the item masks is its item ``i``).

    Returns
    -------
    pandas.DataFrame
        One row per type: ``card`` (the card or court file's id), ``label`` (display name),
        ``group`` (one of :data:`GROUPS`) and ``item`` (the court item's index, -1 for a forest
        card).
    """
    rows = [
        {"card": name, "label": FOREST_LABELS[name], "group": GROUP_OF[name], "item": -1}
        for name in (*COLLECTED_NAMES, "ogre")
    ]
    rows += [
        {"card": card_id, "label": name, "group": "court item", "item": i}
        for i, (card_id, name) in enumerate(zip(court.ids, court.names, strict=True))
    ]
    table = pd.DataFrame(rows)
    order = {group: k for k, group in enumerate(GROUPS)}
    return table.sort_values("group", key=lambda g: g.map(order), kind="stable").reset_index(
        drop=True
    )


def collected_counts(df: pd.DataFrame, court: Court) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """How many of each card type every seat collected, and in which games each court item was
    drawn.

    Parameters
    ----------
    df : pandas.DataFrame
        One run's tidy rows (one player count; any court whose items ``court`` describes).
    court : Court
        The run's court.

    Returns
    -------
    counts : dict of str to numpy.ndarray
        ``card -> (games, seats)`` counts: forest cards owned at the end, ogres taken, and 0 or
        1 for a court item held or used.
    offered : numpy.ndarray of bool
        ``(games, n_items)``: item ``i`` was in game ``g``'s court deck.
    """
    columns = [f"n_{name}" for name in COLLECTED_NAMES]
    _, a = seat_arrays(df, [*columns, "ogres_gained", *MASK_COLUMNS])
    counts = {name: a[f"n_{name}"].astype(np.int64) for name in COLLECTED_NAMES}
    counts["ogre"] = a["ogres_gained"].astype(np.int64)
    owned = a["items_held_mask"].astype(np.int64) | a["items_used_mask"].astype(np.int64)
    court_bits = a["court_items"][:, 0].astype(np.int64)
    offered = np.column_stack([(court_bits >> i) & 1 for i in range(court.n_items)]).astype(bool)
    for i, card_id in enumerate(court.ids):
        counts[card_id] = (owned >> i) & 1
    return counts, offered


def card_rows(df: pd.DataFrame, court: Court) -> pd.DataFrame:
    """Card balance of one run: how often a seat collects each card type, and the win share of
    the seats that do against the seats that do not.

    Parameters
    ----------
    df : pandas.DataFrame
        One run's tidy rows.
    court : Court
        The run's court (its items are the court items judged).

    Returns
    -------
    pandas.DataFrame
        One row per card type (:func:`card_types` order): ``players``, ``card``, ``label``,
        ``group``, ``seat_games`` (seat-games judged: every seat of every game, for a court item
        those of the games it was drawn in), ``collected`` (seat-games that collected it),
        ``collect_share`` with Wilson ``collect_low``/``collect_high``, ``mean_count`` (cards
        per seat), ``collectors_win_share`` and ``others_win_share``, and ``lift`` (the first
        minus the second, share of games) with its game-clustered ``se``, 95% ``low``/``high``
        and ``p_value`` (:func:`fairysim.stats.estimates.flag_difference`).

    Notes
    -----
    The lift is an association, not the effect of the card alone: a seat that wins many
    auctions collects more of everything, and a card that scores only in a majority rewards the
    seat that already leads in it.
    """
    players = run_players(df)
    games, a = seat_arrays(df, ["win_share"])
    win = a["win_share"].astype(np.float64)
    game_of = np.broadcast_to(games[:, None], win.shape)
    counts, offered = collected_counts(df, court)
    rows = []
    for t in card_types(court).itertuples(index=False):
        judged = (
            np.ones(win.shape[0], bool) if t.item < 0 else offered[:, t.item]
        )  # games it could be collected in
        count = counts[t.card][judged]
        w = win[judged].ravel()
        flag = count.ravel() > 0
        n, k = flag.size, int(flag.sum())
        low, high = wilson_interval(k, n)
        lift, se, lift_low, lift_high, p = flag_difference(w, flag, game_of[judged].ravel())
        rows.append(
            {
                "players": players,
                "card": t.card,
                "label": t.label,
                "group": t.group,
                "seat_games": n,
                "collected": k,
                "collect_share": k / n if n else np.nan,
                "collect_low": float(low),
                "collect_high": float(high),
                "mean_count": float(count.mean()) if n else np.nan,
                "collectors_win_share": float(w[flag].mean()) if k else np.nan,
                "others_win_share": float(w[~flag].mean()) if k < n else np.nan,
                "lift": lift,
                "se": se,
                "low": lift_low,
                "high": lift_high,
                "p_value": p,
            }
        )
    return pd.DataFrame(rows)


def game_rows(df: pd.DataFrame) -> pd.DataFrame:
    """The per-game measures of :data:`GAME_MEASURES` for one run.

    Parameters
    ----------
    df : pandas.DataFrame
        One run's tidy rows (one player count, one court).

    Returns
    -------
    pandas.DataFrame
        One row per game: ``players``, ``court``, ``game``, ``turns`` and every
        :data:`GAME_MEASURES` column (points, counts, or 0/1 for ``starter_wins``: the seat
        first to act won, L18).
    """
    players = run_players(df)
    games, a = seat_arrays(df, list(GAME_COLUMNS))
    score = a["score"].astype(np.float64)
    ordered = np.sort(score, axis=1)
    starter = a["turn_position"] == 1  # the rows count turn positions from 1
    return pd.DataFrame(
        {
            "players": players,
            "court": str(df["court"].iloc[0]),
            "game": games,
            "turns": a["turns"][:, 0].astype(np.int64),
            "mean_score": score.mean(axis=1),
            "winning_score": ordered[:, -1],
            "margin": ordered[:, -1] - ordered[:, -2],
            "items_points": a["items_points"].astype(np.float64).mean(axis=1),
            "queen_visits": a["queen_visits"].sum(axis=1).astype(np.int64),
            "value_paid": a["value_paid"].sum(axis=1).astype(np.int64),
            "auctions": a["auctions"][:, 0].astype(np.int64),
            "unbid": a["unbid_clearings"][:, 0].astype(np.int64),
            "starter_wins": (a["win_share"] * starter).sum(axis=1),
        }
    )


__all__ = [
    "GAME_MEASURES",
    "GROUPS",
    "GameMeasure",
    "card_rows",
    "card_types",
    "collected_counts",
    "game_rows",
]
