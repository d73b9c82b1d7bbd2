"""The Fairy Land study behind ``fairysim report fairyland``: card and item balance, what auctions
cost and win, what the Queen's Court changes, game length and seat advantage by turn position.

:func:`fairyland_study` plays one run per (court, player count) with
:func:`fairysim.sim.fairyland.simulate`, every seat playing one policy and every run sharing one
seed. The forest, the starting seat and the court deck's positions of game ``i`` do not depend
on the court (PL6, PL9), so the three courts (``random``: 9 of the 19 PROVISIONAL items drawn
each game, L13; ``starred``: the 9 first-game items; ``none``: a court of no effect) are
compared game by game (paired differences on common random numbers). The card balance and the
seat advantage are measured on the ``random`` court, the game as the rulebook sets it up, and so
are the auctions, logged one by one on the first games of each player count
(:func:`fairysim.sim.fairyland.play_auctions`: the same games as the run's).

Every family of comparisons is corrected for its size (Holm, :data:`CORRECTION`) before the
report calls anything "significant", and the intervals kept beside each verdict are the
corrected ones (:func:`fairysim.stats.corrections.with_correction`): the card lifts per player
count, the pooled card lifts, the court effects and the turn positions are four families.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fairysim import __version__
from fairysim.analysis.fairyland.runs import GAME_MEASURES, card_rows, game_rows
from fairysim.analysis.studies.balance import BalanceCard, BalanceRows, balance_card
from fairysim.analysis.studies.base import ProgressTracker, check_player_counts, load_card_set
from fairysim.runtime.errors import FairysimError
from fairysim.sim.batch import Progress, check_games
from fairysim.sim.fairyland import (
    COURTS,
    FairyLandCards,
    load_cards,
    load_court,
    make_setup,
    play_auctions,
)
from fairysim.sim.fairyland.cards import DEFAULT_CARDS

# The function, not the module: once ``make_setup`` has loaded the package's ``simulate``
# module, the package attribute ``simulate`` names that module.
from fairysim.sim.fairyland.runs import simulate
from fairysim.sim.fairyland.spec import ENGINE_VERSION, MAX_PLAYERS, MIN_PLAYERS, SPEC
from fairysim.stats.corrections import with_correction
from fairysim.stats.estimates import Z_95, normal_p_value, paired_difference, wilson_interval

PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
"""Player counts of the study."""

BALANCE_COURT, STARRED_COURT, NO_COURT = COURTS
"""The rulebook's court (9 of 19 drawn), the first-game court and the court of no effect."""

COMPARISONS = ((BALANCE_COURT, NO_COURT), (STARRED_COURT, NO_COURT), (BALANCE_COURT, STARRED_COURT))
"""Court pairs compared game by game: each court against the court of no effect (what the items
add), and the two courts of items against each other."""

CORRECTION = "holm"
"""Multiple-comparison correction of every family of tests (statsmodels' name)."""

SIZE_CAP = 6
"""Clearings of this many cards or more share one row of the price table (a clearing of 6 is
emptied at Sunset, L9, so larger ones are only met at the Dawn of the turn they are explored)."""


@dataclass
class FairyLandStudy:
    """Tables of a :func:`fairyland_study` (shares are 0..1; differences of shares are in share
    units, shown as percentage points; points are game points).

    Attributes
    ----------
    cards : pandas.DataFrame
        Card balance per (players, card type), see :func:`.runs.card_rows`, with ``p_adjusted``
        and ``significant`` (Holm over every row).
    cards_pooled : pandas.DataFrame
        Per card type over all player counts, highest lift first: ``seat_games``,
        ``collected`` and ``collect_share`` with its Wilson interval on the summed counts,
        ``mean_count``, ``lift`` averaged with equal weight over the player counts of
        ``lift_players`` (runs are independent: ``se`` is the root sum of squares over the
        count), ``low``/``high``,
        ``p_value``, ``p_adjusted`` and ``significant`` (Holm over the card types).
    court_levels : pandas.DataFrame
        Per (players, court, measure of :data:`.runs.GAME_MEASURES`): ``games``, ``mean``,
        ``se``, normal 95% ``low``/``high``.
    court_effects : pandas.DataFrame
        Per (players, court pair of :data:`COMPARISONS`, measure): ``court``, ``baseline``,
        ``difference`` (court minus baseline, paired on the same games) with ``se``,
        ``low``/``high``, ``n`` games, ``p_value``, ``p_adjusted`` and ``significant`` (Holm
        over the whole table).
    length : pandas.DataFrame
        Game length per (players, court): ``games``; ``turns`` mean, min and max; ``auctions``
        mean with ``auctions_low``/``_high`` and its 10th, 50th and 90th percentiles;
        ``unbid`` (unbid clearings per game).
    auction_counts : pandas.DataFrame
        Games per (players, auctions in the game), random court: the distribution of game
        length in auctions.
    auctions : pandas.DataFrame
        Every auction of the logged games, see :func:`fairysim.sim.fairyland.play_auctions`.
    auction_prices : pandas.DataFrame
        Per (players, cards in the clearing, capped at :data:`SIZE_CAP`): ``auctions``,
        ``unbid_share`` with Wilson interval, ``won`` (auctions somebody won), ``price`` (fairy
        value played) and ``prize`` (points won) means with normal 95% intervals,
        ``explorer_share`` (of won auctions, the explorer won) with Wilson interval.
    auction_summary : pandas.DataFrame
        Per player count, the same measures over all auctions, plus ``games``,
        ``auctions_per_game`` and ``points_per_fairy`` (mean prize over mean price).
    balance : BalanceCard
        The random court's balance card (:mod:`fairysim.analysis.studies.balance`): win share by
        turn position (0 = the starting player, L18) with intervals clustered by game and Holm over
        every position of every player count, winning margins and game length in turns.
    meta : dict
        ``games`` per run, ``auction_games`` per player count, ``seed``, ``players``,
        ``policy``, ``courts``, ``court_label`` and ``court_provisional`` (ruling L13),
        ``correction``, ``package_version``, ``engine_version``, and ``cards`` when the card
        file is not the shipped one.
    """

    cards: pd.DataFrame
    cards_pooled: pd.DataFrame
    court_levels: pd.DataFrame
    court_effects: pd.DataFrame
    length: pd.DataFrame
    auction_counts: pd.DataFrame
    auctions: pd.DataFrame
    auction_prices: pd.DataFrame
    auction_summary: pd.DataFrame
    balance: BalanceCard
    meta: dict[str, Any] = field(default_factory=dict)

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by name, in report order (the report writes each as a CSV file)."""
        return {
            "cards_pooled": self.cards_pooled,
            "cards": self.cards,
            "auction_prices": self.auction_prices,
            "auction_summary": self.auction_summary,
            "auctions": self.auctions,
            "court_effects": self.court_effects,
            "court_levels": self.court_levels,
            "length": self.length,
            "auction_counts": self.auction_counts,
            **self.balance.tables(),
        }


def fairyland_study(
    games: int,
    seed: int,
    players: Sequence[int] = PLAYER_COUNTS,
    policy: str = "greedy",
    cards: str | Path | FairyLandCards | None = None,
    auction_games: int = 1_000,
    courts: Sequence[str] = COURTS,
    threads: int | None = None,
    progress: Progress | None = None,
    alpha: float = 0.05,
) -> FairyLandStudy:
    """Play the report's games and build its tables.

    Parameters
    ----------
    games : int
        Games per (court, player count) run of the fast engine.
    seed : int
        Seed of every run: game ``i`` has the same forest, starting seat and court deck
        positions in every run of a player count (PL6, PL9).
    players : sequence of int, default (2, 3, 4)
        Player counts.
    policy : str, default ``"greedy"``
        The policy every seat plays (a built-in name or ``module:function``).
    cards : path or FairyLandCards, optional
        Card file (forest deck and House cards); the rulebook's by default.
    auction_games : int, default 1,000
        Games per player count whose every auction is logged (the first games of the
        random-court run, played again with the log; at most ``games``).
    courts : sequence of str, default ("random", "starred", "none")
        Courts to play; ``random`` is always played (the card balance needs it).
    threads : int, optional
        numba threads (all by default); never changes the numbers.
    progress : callable, optional
        ``progress(games_done, games_total)`` over the whole study.
    alpha : float, default 0.05
        Error rate of the balance card's turn-order family (``--precision`` lowers it).

    Returns
    -------
    FairyLandStudy

    Examples
    --------
    >>> s = fairyland_study(games=100, seed=1, players=(3,), auction_games=2, courts=("random",))
    >>> int(s.cards_pooled["seat_games"].max())
    300
    """
    games = check_games(games)
    auction_games = check_games(auction_games, "auction_games")
    players = check_player_counts(players, MIN_PLAYERS, MAX_PLAYERS)
    courts = _check_courts(courts)
    card_set = load_card_set(cards, FairyLandCards, load_cards)
    setup_of = {
        n: make_setup(players=n, policies=policy, seed=seed, cards=card_set) for n in players
    }
    court_of = {name: load_court(None if name == BALANCE_COURT else name) for name in courts}
    logged = min(auction_games, games)
    tracker = ProgressTracker(progress, (games * len(courts) + logged) * len(players))
    card_parts, game_parts, auction_parts = [], [], []
    # The balance card's runs record each seat's standing after each round of turns (ruling
    # PL11), which its comebacks and lead changes are read from.
    balance_rows = BalanceRows(
        SPEC.turn_order, length_column=SPEC.length_column, trace_prefix=SPEC.trace_prefix
    )
    for n in players:
        for court in courts:
            df = simulate(
                players=n,
                policies=policy,
                games=games,
                seed=seed,
                cards=card_set,
                court=court,
                threads=threads,
                progress=tracker.run(),
                trace=court == BALANCE_COURT,
            )
            tracker.done(games)
            game_parts.append(game_rows(df))
            if court == BALANCE_COURT:
                card_parts.append(card_rows(df, court_of[court]))
                balance_rows.add(df, {"court": court})
            del df  # one run's rows at a time
        auction_parts.append(
            play_auctions(setup_of[n], logged, threads=threads, progress=tracker.run())
        )
        tracker.done(logged)
    cards_df = with_correction(pd.concat(card_parts, ignore_index=True), "lift", method=CORRECTION)
    per_game = pd.concat(game_parts, ignore_index=True)
    auctions = pd.concat(auction_parts, ignore_index=True)
    balance_court = court_of[BALANCE_COURT]
    meta = {
        "games": games,
        "auction_games": logged,
        "seed": seed,
        "players": list(players),
        "policy": policy,
        "courts": list(courts),
        "court_label": balance_court.label,
        "court_provisional": balance_court.provisional,
        "starred_label": load_court(STARRED_COURT).label,
        "correction": CORRECTION,
        "package_version": __version__,
        "engine_version": ENGINE_VERSION,
    }
    if Path(card_set.source) != DEFAULT_CARDS:
        meta["cards"] = card_set.source
    return FairyLandStudy(
        cards=cards_df,
        cards_pooled=pool_cards(cards_df),
        court_levels=court_levels(per_game),
        court_effects=court_effects(per_game),
        length=game_length(per_game),
        auction_counts=_auction_counts(per_game),
        auctions=auctions,
        auction_prices=auction_prices(auctions),
        auction_summary=auction_summary(auctions),
        balance=balance_card(balance_rows, method=CORRECTION, alpha=alpha),
        meta=meta,
    )


# --------------------------------------------------------------------------------------------
# Card balance


def pool_cards(rows: pd.DataFrame) -> pd.DataFrame:
    """Card balance over all player counts, highest lift first (see :class:`FairyLandStudy`).

    Parameters
    ----------
    rows : pandas.DataFrame
        :func:`.runs.card_rows` of several player counts.

    Returns
    -------
    pandas.DataFrame
        One row per card type, Holm-corrected over the card types; ``lift_players`` names the
        player counts the lift averages (a count where every seat or no seat collects the type
        has no lift), and a type without any lift sorts last.
    """
    out = []
    for card, g in rows.groupby("card", sort=False):
        n, k = int(g["seat_games"].sum()), int(g["collected"].sum())
        low, high = wilson_interval(k, n)
        # A player count where every seat (or none) collects it has no lift: left out.
        tested = g[np.isfinite(g["se"].to_numpy(np.float64))]
        lift = float(tested["lift"].mean()) if len(tested) else math.nan
        se = (
            float(math.sqrt(np.sum(np.square(tested["se"].to_numpy(np.float64)))) / len(tested))
            if len(tested)
            else math.nan
        )
        out.append(
            {
                "card": card,
                "label": g["label"].iloc[0],
                "group": g["group"].iloc[0],
                "lift_players": ", ".join(str(p) for p in tested["players"]),
                "seat_games": n,
                "collected": k,
                "collect_share": k / n if n else math.nan,
                "collect_low": float(low),
                "collect_high": float(high),
                "mean_count": float(g["mean_count"].mean()),
                "lift": lift,
                "se": se,
                "low": lift - Z_95 * se,
                "high": lift + Z_95 * se,
                "p_value": float(normal_p_value(lift, se)),
            }
        )
    pooled = with_correction(pd.DataFrame(out), "lift", method=CORRECTION)
    return pooled.sort_values(
        "lift", ascending=False, kind="stable", na_position="last"
    ).reset_index(drop=True)


def clearly_first(table: pd.DataFrame, value: str = "lift") -> bool:
    """True when the first row of a ranking is above every other row beyond doubt: its interval
    lies wholly above every other row's (non-overlapping 95% intervals differ at a level
    stricter than 5 %), and it is itself significant.

    Parameters
    ----------
    table : pandas.DataFrame
        Rows ranked by ``value``, highest first, with ``low``, ``high`` and ``significant``.
    value : str, default ``"lift"``
        The ranked column.

    Returns
    -------
    bool
        False with fewer than two rows.
    """
    if len(table) < 2:
        return False
    top, rest = table.iloc[0], table.iloc[1:]
    return bool(top["significant"]) and bool(top["low"] > rest["high"].max())


# --------------------------------------------------------------------------------------------
# The courts


def court_levels(per_game: pd.DataFrame) -> pd.DataFrame:
    """Mean of every per-game measure per (players, court), with a normal 95% interval.

    Parameters
    ----------
    per_game : pandas.DataFrame
        :func:`.runs.game_rows` of several runs.

    Returns
    -------
    pandas.DataFrame
        ``players``, ``court``, ``measure``, ``label``, ``unit``, ``games``, ``mean``, ``se``,
        ``low``, ``high``.
    """
    rows = []
    for (n, court), g in per_game.groupby(["players", "court"], sort=False):
        for m in GAME_MEASURES:
            v = g[m.column].to_numpy(np.float64)
            se = float(v.std(ddof=1) / math.sqrt(v.size)) if v.size > 1 else math.nan
            mean = float(v.mean())
            rows.append(
                {
                    "players": n,
                    "court": court,
                    "measure": m.column,
                    "label": m.label,
                    "unit": m.unit,
                    "games": v.size,
                    "mean": mean,
                    "se": se,
                    "low": mean - Z_95 * se,
                    "high": mean + Z_95 * se,
                }
            )
    return pd.DataFrame(rows)


def court_effects(per_game: pd.DataFrame, correction: str = CORRECTION) -> pd.DataFrame:
    """Every court pair of :data:`COMPARISONS` on every measure, paired game by game.

    Parameters
    ----------
    per_game : pandas.DataFrame
        :func:`.runs.game_rows` of the runs of several courts (same seed).
    correction : str, default :data:`CORRECTION`
        Multiple-comparison correction over the whole table.

    Returns
    -------
    pandas.DataFrame
        See :attr:`FairyLandStudy.court_effects`; empty when fewer than two courts were played.
    """
    columns = [
        "players", "court", "baseline", "measure", "label", "unit", "difference", "se", "low",
        "high", "n", "p_value",
    ]  # fmt: skip
    rows = []
    for n, g in per_game.groupby("players", sort=False):
        by_court = {court: part.set_index("game") for court, part in g.groupby("court")}
        for court, baseline in COMPARISONS:
            if court not in by_court or baseline not in by_court:
                continue
            for m in GAME_MEASURES:
                d = paired_difference(by_court[court][m.column], by_court[baseline][m.column])
                rows.append(
                    {
                        "players": n,
                        "court": court,
                        "baseline": baseline,
                        "measure": m.column,
                        "label": m.label,
                        "unit": m.unit,
                        "difference": d.mean,
                        "se": d.se,
                        "low": d.low,
                        "high": d.high,
                        "n": d.n,
                        "p_value": float(normal_p_value(d.mean, d.se)),
                    }
                )
    table = pd.DataFrame(rows, columns=columns)
    return with_correction(table, "difference", method=correction)


def game_length(per_game: pd.DataFrame) -> pd.DataFrame:
    """Game length per (players, court): turns and auctions (see :class:`FairyLandStudy`)."""
    rows = []
    for (n, court), g in per_game.groupby(["players", "court"], sort=False):
        auctions = g["auctions"].to_numpy(np.float64)
        mean = float(auctions.mean())
        se = float(auctions.std(ddof=1) / math.sqrt(auctions.size)) if auctions.size > 1 else 0.0
        p10, p50, p90 = np.percentile(auctions, [10, 50, 90])
        rows.append(
            {
                "players": n,
                "court": court,
                "games": len(g),
                "turns": float(g["turns"].mean()),
                "turns_min": int(g["turns"].min()),
                "turns_max": int(g["turns"].max()),
                "auctions": mean,
                "auctions_low": mean - Z_95 * se,
                "auctions_high": mean + Z_95 * se,
                "auctions_p10": float(p10),
                "auctions_p50": float(p50),
                "auctions_p90": float(p90),
                "unbid": float(g["unbid"].mean()),
            }
        )
    return pd.DataFrame(rows)


def _auction_counts(per_game: pd.DataFrame) -> pd.DataFrame:
    games = per_game[per_game["court"] == BALANCE_COURT]
    counts = games.groupby(["players", "auctions"]).size().rename("games").reset_index()
    counts["share"] = counts["games"] / counts.groupby("players")["games"].transform("sum")
    return counts


# --------------------------------------------------------------------------------------------
# Auctions


def _auction_measures(g: pd.DataFrame) -> dict[str, Any]:
    """Counts, shares and means of a group of auctions (:attr:`FairyLandStudy.auction_prices`)."""
    n = len(g)
    won = g[g["bid"]]
    k = len(won)
    unbid_low, unbid_high = wilson_interval(n - k, n)
    exp = float(won["explorer_won"].sum())
    exp_low, exp_high = wilson_interval(exp, k)
    row: dict[str, Any] = {
        "auctions": n,
        "unbid_share": (n - k) / n if n else math.nan,
        "unbid_low": float(unbid_low),
        "unbid_high": float(unbid_high),
        "won": k,
        "explorer_share": exp / k if k else math.nan,
        "explorer_low": float(exp_low),
        "explorer_high": float(exp_high),
    }
    for name in ("price", "prize", "fairies_paid"):
        v = won[name].to_numpy(np.float64)
        mean = float(v.mean()) if k else math.nan
        se = float(v.std(ddof=1) / math.sqrt(k)) if k > 1 else math.nan
        row |= {name: mean, f"{name}_low": mean - Z_95 * se, f"{name}_high": mean + Z_95 * se}
    return row


def auction_prices(auctions: pd.DataFrame) -> pd.DataFrame:
    """Price and prize by the cards in the clearing, per player count (see
    :attr:`FairyLandStudy.auction_prices`)."""
    size = auctions["cards"].clip(upper=SIZE_CAP)
    rows = []
    for (n, cards), g in auctions.assign(size=size).groupby(["players", "size"], sort=True):
        label = f"{cards}+" if cards >= SIZE_CAP else str(cards)
        rows.append(
            {"players": n, "cards": int(cards), "cards_label": label, **_auction_measures(g)}
        )
    return pd.DataFrame(rows)


def auction_summary(auctions: pd.DataFrame) -> pd.DataFrame:
    """Every auction of a player count together (see :attr:`FairyLandStudy.auction_summary`)."""
    rows = []
    for n, g in auctions.groupby("players", sort=True):
        row = {"players": n, "games": int(g["game"].nunique()), **_auction_measures(g)}
        row["auctions_per_game"] = row["auctions"] / row["games"] if row["games"] else math.nan
        row["points_per_fairy"] = row["prize"] / row["price"] if row["price"] else math.nan
        rows.append(row)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------------------------
# Seats by turn position


def _check_courts(courts: Sequence[str]) -> tuple[str, ...]:
    values = tuple(dict.fromkeys(str(c).strip().casefold() for c in courts))
    unknown = [c for c in values if c not in COURTS]
    if unknown or BALANCE_COURT not in values:
        raise FairysimError(
            "courts",
            f"the study compares the named courts {', '.join(COURTS)} and always plays "
            f"'{BALANCE_COURT}'; got {list(courts)}",
        )
    return tuple(c for c in COURTS if c in values)


__all__ = [
    "BALANCE_COURT",
    "COMPARISONS",
    "CORRECTION",
    "NO_COURT",
    "PLAYER_COUNTS",
    "STARRED_COURT",
    "FairyLandStudy",
    "auction_prices",
    "auction_summary",
    "clearly_first",
    "court_effects",
    "court_levels",
    "fairyland_study",
    "game_length",
    "pool_cards",
]
