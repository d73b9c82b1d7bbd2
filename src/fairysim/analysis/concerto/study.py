"""Fairy Concerto card balance for 2 to 4 players: the study behind ``fairysim report concerto``.

:func:`card_balance` plays one run per player count with :func:`fairysim.sim.concerto.simulate`
and measures score-card completion and the win rate of their holders, the spread each contest
card creates and how often its honor decides the game, the value of the popularity kind, the
balance card (seat advantage by seat index, the resolution order, ruling C4; winning margins;
comebacks and lead changes from each seat's standing after each round, ruling PC6) and where
the points come from. The holders' lifts, the popularity leaders' win shares and the turn-order
positions are each one corrected family (Holm). The report
(:mod:`fairysim.analysis.concerto.report`) only lays its tables out.

The per-run functions (:func:`score_card_rows`, :func:`contest_rows`, :func:`popularity_rows`,
:func:`part_rows`) take one run's tidy frame, so a notebook can apply
them to any run it makes. Winners and honors that decide are defined in
:mod:`fairysim.analysis.concerto.runs`.

The *spread* a contest card creates is, per game, the highest minus the lowest seat's points on
that card; the report gives its mean over the games the card is in play.

Every run uses the same seed, so game ``i`` deals the same tokens and score cards in every run
(the deal never depends on the policies).
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
from fairysim.analysis.concerto.cards import contest_cards
from fairysim.analysis.concerto.runs import (
    SETUP_COLUMNS,
    honor_decides_arrays,
    run_players,
    seat_arrays,
    winner_mask,
)
from fairysim.analysis.studies.balance import BalanceCard, BalanceRows, balance_card
from fairysim.analysis.studies.base import ProgressTracker, check_player_counts, load_card_set
from fairysim.sim.batch import Progress, check_games
from fairysim.sim.concerto import KINDS, ConcertoCards, load_cards, simulate
from fairysim.sim.concerto.cards import dominated_pairs
from fairysim.sim.concerto.rules import CONTESTS, PART_NAMES, POINTS_PER_SCORE_CARD
from fairysim.sim.concerto.spec import SPEC
from fairysim.stats.corrections import with_correction
from fairysim.stats.estimates import Z_95, excludes, wilson_interval

PLAYER_COUNTS = (2, 3, 4)
"""Player counts of the card-balance study (solo has its own study)."""


# --------------------------------------------------------------------------------------------
# Card balance of one run


def _difference(p1, n1, p2, n2) -> tuple[float, float, float, float]:
    """Difference of two proportions with the normal (unpooled) standard error."""
    if n1 == 0 or n2 == 0:
        return math.nan, math.nan, math.nan, math.nan
    diff = p1 - p2
    se = math.sqrt(max(p1 * (1 - p1), 0.0) / n1 + max(p2 * (1 - p2), 0.0) / n2)
    return diff, se, diff - Z_95 * se, diff + Z_95 * se


def score_card_rows(df: pd.DataFrame, cards: ConcertoCards | None = None) -> pd.DataFrame:
    """Score-card balance of one run: how often each card is held and completed, and whether
    its holders win more often.

    Parameters
    ----------
    df : pandas.DataFrame
        One run's tidy rows for 2-4 players (``held_mask``, ``completed_mask``, ``win_share``).
    cards : ConcertoCards, optional
        The run's card set (the shipped one by default); bit ``i`` of the masks is its card ``i``.

    Returns
    -------
    pandas.DataFrame
        One row per score card: ``players``, ``card``, ``asks_for``, ``seat_games`` (rows of the
        run), ``held`` (seat-games holding it at the end) and ``held_share``, ``completed``,
        ``completion`` (share of holders who completed it, 0..1) with Wilson
        ``completion_low``/``_high``, ``expected_points`` (5 x completion), ``holders_win_share``
        and ``others_win_share`` (win share of the seats that hold it and of those that do not)
        with Wilson intervals, and ``lift`` (holders minus others, share of games) with ``se``,
        ``lift_low``, ``lift_high`` and ``significant``.

    Notes
    -----
    The lift is an association, not a cause: a seat that drafts many composers holds more score
    cards, and a strong seat completes more of them. Seats of one game are not independent (one
    seat's win is the others' loss), so the intervals are approximate.
    """
    card_set = load_cards() if cards is None else cards
    players = run_players(df)
    _, a = seat_arrays(df, ["held_mask", "completed_mask", "win_share"])
    held_mask = a["held_mask"].astype(np.int64).ravel()
    done_mask = a["completed_mask"].astype(np.int64).ravel()
    win = a["win_share"].astype(np.float64).ravel()
    rows = []
    total = win.size
    for i, card in enumerate(card_set.score_ids):
        held = ((held_mask >> i) & 1).astype(bool)
        done = ((done_mask >> i) & 1).astype(bool)
        n_held = int(held.sum())
        n_done = int((done & held).sum())
        n_other = total - n_held
        c_low, c_high = wilson_interval(n_done, n_held)
        w_held = float(win[held].sum())
        w_other = float(win[~held].sum())
        h_low, h_high = wilson_interval(w_held, n_held)
        o_low, o_high = wilson_interval(w_other, n_other)
        p_held = w_held / n_held if n_held else math.nan
        p_other = w_other / n_other if n_other else math.nan
        lift, se, low, high = _difference(p_held, n_held, p_other, n_other)
        completion = n_done / n_held if n_held else math.nan
        rows.append(
            {
                "players": players,
                "card": card,
                "asks_for": card_set.describe_need(i),
                "seat_games": total,
                "held": n_held,
                "held_share": n_held / total,
                "completed": n_done,
                "completion": completion,
                "completion_low": float(c_low),
                "completion_high": float(c_high),
                "expected_points": POINTS_PER_SCORE_CARD * completion,
                "holders_win_share": p_held,
                "holders_low": float(h_low),
                "holders_high": float(h_high),
                "others_win_share": p_other,
                "others_low": float(o_low),
                "others_high": float(o_high),
                "lift": lift,
                "se": se,
                "lift_low": low,
                "lift_high": high,
                "significant": bool(excludes(low, high, 0.0)),
            }
        )
    return pd.DataFrame(rows)


def contest_rows(df: pd.DataFrame, cards: ConcertoCards | None = None) -> pd.DataFrame:
    """Contest-card balance of one run: the spread each card creates and how often its honor
    decides the game.

    Parameters
    ----------
    df : pandas.DataFrame
        One run's tidy rows (2-4 players; solo works too, Pahha counting as a seat).
    cards : ConcertoCards, optional
        The run's card set (the shipped one by default), for the pianist and harpist ids.

    Returns
    -------
    pandas.DataFrame
        One row per contest card (the conductor, soloists A-D, every pianist and harpist card):
        ``players``, ``contest``, ``card``, ``scores`` (what it counts), ``games`` (games it was
        in play), ``mean_points`` and ``sd_points`` (points of one seat on the card),
        ``mean_spread`` (highest minus lowest seat's points on it in a game, points) with its
        ``spread_se`` and normal 95% ``spread_low``/``spread_high``, ``honor_shared`` (share of
        games two or more seats share its honor), ``honor_none`` (share nobody scores on it),
        ``decides`` (share of games its honor decides, see
        :mod:`~fairysim.analysis.concerto.runs`) with Wilson ``decides_low``/``decides_high``.
    """
    card_set = load_cards() if cards is None else cards
    players = run_players(df)
    _, a = seat_arrays(df, ["score", *CONTESTS, *SETUP_COLUMNS])
    decides = honor_decides_arrays(a, players == 1)
    rows = []
    for card in contest_cards(card_set).itertuples(index=False):
        points = a[card.contest]
        in_play = (
            np.ones(len(points), bool)
            if card.index < 0
            else a[f"{card.contest}_card"][:, 0] == card.index
        )
        p = points[in_play].astype(np.float64)
        n = int(in_play.sum())
        spread = p.max(axis=1) - p.min(axis=1) if n else np.zeros(0)
        best = p.max(axis=1, keepdims=True) if n else np.zeros((0, 1))
        shared = ((p == best).sum(axis=1) > 1) & (best[:, 0] > 0)
        n_decides = int(decides[card.contest][in_play].sum())
        d_low, d_high = wilson_interval(n_decides, n)
        mean_spread = float(spread.mean()) if n else math.nan
        spread_se = float(spread.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
        rows.append(
            {
                "players": players,
                "contest": card.contest,
                "card": card.card,
                "scores": card.scores,
                "games": n,
                "mean_points": float(p.mean()) if n else math.nan,
                "sd_points": float(p.std(ddof=1)) if p.size > 1 else math.nan,
                "mean_spread": mean_spread,
                "spread_se": spread_se,
                "spread_low": mean_spread - Z_95 * spread_se,
                "spread_high": mean_spread + Z_95 * spread_se,
                "honor_shared": float(shared.mean()) if n else math.nan,
                "honor_none": float((best[:, 0] <= 0).mean()) if n else math.nan,
                "decides": n_decides / n if n else math.nan,
                "decides_low": float(d_low),
                "decides_high": float(d_high),
            }
        )
    return pd.DataFrame(rows)


def popularity_rows(df: pd.DataFrame) -> pd.DataFrame:
    """Value of the popularity kind in one run (2-4 players).

    A seat's popularity points are its tokens of the popularity kind (C5). The *leader* is the
    seat holding strictly the most of them; games where two seats tie for the most are left out
    of the leader's win share (``leader_games`` counts the rest).

    Parameters
    ----------
    df : pandas.DataFrame
        One run's tidy rows.

    Returns
    -------
    pandas.DataFrame
        One row for all games (``popularity_kind == "all"``) and one per kind drawn as the
        popularity token: ``players``, ``popularity_kind``, ``games``, ``mean_points`` (per
        seat), ``winner_points`` and ``other_points`` (mean popularity points of winning and
        other seats), ``score_share`` (popularity points over total score), ``leader_games``,
        ``leader_win_share`` with Wilson ``leader_low``/``leader_high`` and its standard error
        ``leader_se``, ``fair`` (1/players), ``advantage`` (leader win share minus fair share)
        and ``significant`` (this run alone; :func:`card_balance` corrects the study's whole
        table as one family).
    """
    players = run_players(df)
    _, a = seat_arrays(df, ["popularity", "score", "win_share", "popularity_kind"])
    pop = a["popularity"].astype(np.float64)
    score = a["score"].astype(np.float64)
    win = a["win_share"].astype(np.float64)
    kind = a["popularity_kind"][:, 0]
    if kind.dtype.kind in "OUS":  # kind names (a frame built by hand), not categorical codes
        kind = np.array([KINDS.index(str(k)) for k in kind], dtype=np.int64)
    winners = winner_mask(score, players == 1)
    top = pop.max(axis=1, keepdims=True)
    unique = (pop == top).sum(axis=1) == 1
    leader_win = win[np.arange(len(pop)), pop.argmax(axis=1)]
    rows = []
    groups = [("all", np.ones(len(pop), bool))]
    groups += [(name, kind == k) for k, name in enumerate(KINDS)]
    for name, mask in groups:
        n = int(mask.sum())
        if n == 0:
            continue
        lead = mask & unique
        n_lead = int(lead.sum())
        wins = float(leader_win[lead].sum())
        low, high = wilson_interval(wins, n_lead)
        share = wins / n_lead if n_lead else math.nan
        fair = 1.0 / players
        rows.append(
            {
                "players": players,
                "popularity_kind": name,
                "games": n,
                "mean_points": float(pop[mask].mean()),
                "winner_points": float(pop[mask][winners[mask]].mean()),
                "other_points": _mean_or_nan(pop[mask][~winners[mask]]),
                "score_share": float(pop[mask].sum() / score[mask].sum()),
                "leader_games": n_lead,
                "leader_win_share": share,
                "leader_low": float(low),
                "leader_high": float(high),
                "leader_se": math.sqrt(share * (1 - share) / n_lead) if n_lead else math.nan,
                "fair": fair,
                "advantage": share - fair,
                "significant": bool(excludes(low, high, fair)),
            }
        )
    return pd.DataFrame(rows)


def part_rows(df: pd.DataFrame) -> pd.DataFrame:
    """Where the points come from in one run: mean points of every part of the score.

    Parameters
    ----------
    df : pandas.DataFrame
        One run's tidy rows.

    Returns
    -------
    pandas.DataFrame
        One row per part of :data:`fairysim.sim.concerto.PART_NAMES` plus ``score``:
        ``players``, ``part``, ``mean`` (all seats), ``winners`` and ``others`` (mean points of
        winning and other seats), ``share`` (of the mean score).
    """
    players = run_players(df)
    _, a = seat_arrays(df, ["score", *PART_NAMES])
    winners = winner_mask(a["score"], players == 1)
    total = float(a["score"].mean())
    rows = []
    for part in (*PART_NAMES, "score"):
        v = a[part].astype(np.float64)
        rows.append(
            {
                "players": players,
                "part": part,
                "mean": float(v.mean()),
                "winners": float(v[winners].mean()),
                "others": _mean_or_nan(v[~winners]),
                "share": float(v.mean()) / total if total else math.nan,
            }
        )
    return pd.DataFrame(rows)


def _mean_or_nan(values: np.ndarray) -> float:
    return float(values.mean()) if values.size else math.nan


# --------------------------------------------------------------------------------------------
# The card-balance study


@dataclass
class CardBalance:
    """Tables of a :func:`card_balance` study (shares are shares of games or seat-games, 0..1).

    Attributes
    ----------
    score_cards : pandas.DataFrame
        Per (players, score card), see :func:`score_card_rows`.
    score_cards_pooled : pandas.DataFrame
        Per score card over all player counts: counts summed (completion with its Wilson
        interval on the summed counts, and ``completion_se``); ``lift`` averaged with equal weight
        over player counts (its ``se`` combines the runs' standard errors in quadrature, the
        runs being independent), corrected over the 26 cards as one Holm family: ``lift_low``,
        ``lift_high``, ``lift_significant``, ``lift_p_value``, ``lift_p_adjusted``.
    contests : pandas.DataFrame
        Per (players, contest card), see :func:`contest_rows`.
    contests_pooled : pandas.DataFrame
        Per contest card over all player counts: ``games`` summed, ``mean_points`` and
        ``decides`` (with Wilson interval and ``decides_se``) on the summed counts, and
        ``spread_<n>p`` per player
        count (the spread grows with the number of seats, so it is not pooled).
    popularity : pandas.DataFrame
        Per (players, popularity kind or ``all``), see :func:`popularity_rows`; the leaders'
        win shares against the fair share are one Holm family over the table:
        ``leader_low``/``leader_high`` are the corrected intervals, ``leader_significant`` the
        verdicts.
    parts : pandas.DataFrame
        Per (players, part), see :func:`part_rows`.
    balance : BalanceCard
        The balance card of every run (:mod:`fairysim.analysis.studies.balance`).
    cards : ConcertoCards
        The card set played.
    meta : dict
        ``games`` per player count, ``seed``, ``players``, ``policy``, ``cards`` (file),
        ``cards_label``, ``cards_provisional``, ``dominated`` (pairs of score cards where one
        asks for no more than the other), ``package_version``, ``engine_version``.
    """

    score_cards: pd.DataFrame
    score_cards_pooled: pd.DataFrame
    contests: pd.DataFrame
    contests_pooled: pd.DataFrame
    popularity: pd.DataFrame
    parts: pd.DataFrame
    balance: BalanceCard
    cards: ConcertoCards
    meta: dict[str, Any] = field(default_factory=dict)

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by name, in report order."""
        return {
            "score_cards_pooled": self.score_cards_pooled,
            "score_cards": self.score_cards,
            "contests_pooled": self.contests_pooled,
            "contests": self.contests,
            "popularity": self.popularity,
            "parts": self.parts,
            **self.balance.tables(),
        }


def card_balance(
    games: int,
    seed: int,
    players: Sequence[int] = PLAYER_COUNTS,
    policy: str = "greedy",
    cards: str | Path | ConcertoCards | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    alpha: float = 0.05,
) -> CardBalance:
    """Measure the balance of the score, contest and popularity cards for 2-4 players.

    Parameters
    ----------
    games : int
        Games per player count.
    seed : int
        Seed of every run.
    players : sequence of int, default (2, 3, 4)
        Player counts (2 to 4; solo is
        :func:`~fairysim.analysis.concerto.solo_study.solo_study`'s).
    policy : str, default ``"greedy"``
        The policy every seat plays (a built-in name or ``module:function``). Seat advantage
        is only meaningful when every seat plays the same policy.
    cards : path or ConcertoCards, optional
        Card file (the shipped provisional set by default).
    threads : int, optional
        numba threads (all by default); never changes the numbers.
    progress : callable, optional
        ``progress(games_done, games_total)`` over the whole study.
    alpha : float, default 0.05
        Error rate of the balance card's turn-order family (``--precision`` lowers it).

    Returns
    -------
    CardBalance

    Examples
    --------
    >>> balance = card_balance(games=200, seed=1, players=(3,))
    >>> len(balance.score_cards_pooled)
    26
    """
    games = check_games(games)
    players = check_player_counts(
        players, PLAYER_COUNTS[0], PLAYER_COUNTS[-1], "card-balance study"
    )
    card_set = load_card_set(cards, ConcertoCards, load_cards)
    total = games * len(players)
    tracker = ProgressTracker(progress, total)
    score_cards, contests, popularity, parts = [], [], [], []
    # Every run records each seat's standing after each round (ruling PC6), which the balance
    # card's comebacks and lead changes are read from.
    balance_rows = BalanceRows(SPEC.turn_order, trace_prefix=SPEC.trace_prefix)
    engine_version = None
    for n in players:
        df = simulate(
            players=n,
            policies=policy,
            games=games,
            seed=seed,
            cards=card_set,
            threads=threads,
            progress=tracker.run(),
            trace=True,
        )
        engine_version = df.attrs["fairysim"]["config"]["engine_version"]
        score_cards.append(score_card_rows(df, card_set))
        contests.append(contest_rows(df, card_set))
        popularity.append(popularity_rows(df))
        parts.append(part_rows(df))
        balance_rows.add(df)
        tracker.done(games)
        del df  # one run's rows at a time
    score_df = pd.concat(score_cards, ignore_index=True)
    contest_df = pd.concat(contests, ignore_index=True)
    popularity_df = pd.concat(popularity, ignore_index=True).drop(columns="significant")
    popularity_df = with_correction(
        popularity_df, "leader_win_share", "leader_se", null="fair", prefix="leader_"
    )
    meta = {
        "games": games,
        "seed": seed,
        "players": list(players),
        "policy": policy,
        "cards": card_set.source,
        "cards_label": card_set.label,
        "cards_provisional": card_set.provisional,
        "dominated": [list(p) for p in dominated_pairs(card_set)],
        "package_version": __version__,
        "engine_version": engine_version,
    }
    return CardBalance(
        score_cards=score_df,
        score_cards_pooled=_pool_score_cards(score_df),
        contests=contest_df,
        contests_pooled=_pool_contests(contest_df),
        popularity=popularity_df,
        parts=pd.concat(parts, ignore_index=True),
        balance=balance_card(balance_rows, alpha=alpha),
        cards=card_set,
        meta=meta,
    )


def _pool_score_cards(rows: pd.DataFrame) -> pd.DataFrame:
    out = []
    for card, g in rows.groupby("card", sort=False):
        held, done, seat_games = int(g["held"].sum()), int(g["completed"].sum()), g["seat_games"]
        low, high = wilson_interval(done, held)
        k = len(g)
        lift = float(g["lift"].mean())
        se = float(math.sqrt(np.nansum(np.square(g["se"].to_numpy(np.float64)))) / k)
        completion = done / held if held else math.nan
        out.append(
            {
                "card": card,
                "asks_for": g["asks_for"].iloc[0],
                "seat_games": int(seat_games.sum()),
                "held": held,
                "held_share": held / int(seat_games.sum()),
                "completed": done,
                "completion": completion,
                "completion_low": float(low),
                "completion_high": float(high),
                "expected_points": POINTS_PER_SCORE_CARD * completion,
                "completion_se": math.sqrt(completion * (1 - completion) / held)
                if held
                else math.nan,
                "lift": lift,
                "se": se,
            }
        )
    return with_correction(pd.DataFrame(out), "lift", "se", prefix="lift_")


def _pool_contests(rows: pd.DataFrame) -> pd.DataFrame:
    out = []
    for (contest, card), g in rows.groupby(["contest", "card"], sort=False):
        n = int(g["games"].sum())
        wins = float((g["decides"] * g["games"]).sum())
        low, high = wilson_interval(wins, n)
        row = {
            "contest": contest,
            "card": card,
            "scores": g["scores"].iloc[0],
            "games": n,
            "mean_points": float((g["mean_points"] * g["games"]).sum() / n) if n else math.nan,
            "decides": wins / n if n else math.nan,
            "decides_low": float(low),
            "decides_high": float(high),
            "decides_se": math.sqrt((wins / n) * (1 - wins / n) / n) if n else math.nan,
        }
        for r in g.itertuples(index=False):
            row[f"spread_{r.players}p"] = r.mean_spread
        out.append(row)
    return pd.DataFrame(out)


__all__ = [
    "PLAYER_COUNTS",
    "CardBalance",
    "card_balance",
    "contest_rows",
    "part_rows",
    "popularity_rows",
    "score_card_rows",
]
