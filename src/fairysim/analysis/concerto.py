"""Fairy Concerto analyses: solo win rates against Pahha, and card balance for 2-4 players.

Two studies, each a plain function that plays its runs with
:func:`fairysim.sim.concerto.simulate` and returns a dataclass of tables (the HTML reports of
:mod:`fairysim.analysis.concerto_report` only lay them out):

* :func:`solo_study`: every solo policy against Pahha with 95 % Wilson intervals, by setup
  (soloist x pianist x harpist), the distribution of margins, and the gain of every policy over
  ``greedy`` paired on identical deals.
* :func:`card_balance`: for 2, 3 and 4 players, score-card completion and the win rate of their
  holders, the spread each contest card creates and how often its honor decides the game, the
  value of the popularity kind, seat advantage and where the points come from.

The per-run functions (:func:`score_card_rows`, :func:`contest_rows`, :func:`honor_decides`,
:func:`popularity_rows`, :func:`part_rows`) take one run's tidy frame, so a notebook can apply
them to any run it makes.

Definitions
-----------
*Winners* of a game are the seats with the highest score (a shared win counts ``1/k`` for each
of ``k`` tied seats); in solo you win only with a strictly higher total than Pahha (C8).

A contest card's *honor decides* a game when taking away the honor tokens that card awarded
(2 points to every seat with the highest score on that card, when that score is above 0, C6)
changes the set of winners. An honor shared by the winner and the runner-up therefore never
decides a game; an honor that lifts a seat from behind into the lead (or into a tie for it),
or that separates two seats otherwise tied, does.

The *spread* a contest card creates is, per game, the highest minus the lowest seat's points on
that card; the report gives its mean over the games the card is in play.

Every run of a study uses the same seed, so game ``i`` deals the same tokens, score cards and
setup in every run (the deal never depends on the policies): policies are compared game by game.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fairysim import __version__
from fairysim.analysis.stats import (
    Z_95,
    excludes,
    paired_difference,
    seat_advantage_counts,
    seat_test_counts,
    wilson_interval,
    win_rates,
)
from fairysim.errors import FairysimError
from fairysim.sim.batch import Progress, check_games
from fairysim.sim.concerto import KINDS, POLICIES, ConcertoCards, load_cards, simulate
from fairysim.sim.concerto.cards import dominated_pairs
from fairysim.sim.concerto.policies import SOLO_POLICIES
from fairysim.sim.concerto.rules import (
    CONTESTS,
    HONOR_POINTS,
    PART_NAMES,
    POINTS_PER_SCORE_CARD,
    SOLOIST_NAMES,
    SOLOISTS,
)

PLAYER_COUNTS = (2, 3, 4)
"""Player counts of the card-balance study (solo has its own study)."""

BASELINE_POLICY = "greedy"
"""The solo policy every other one is paired against."""

SOLOIST_RULES = {
    "A": "4 x the fewest tokens of a kind present",
    "B": "3 x (most - fewest of a kind present)",
    "C": "3 x the most kinds sharing one count",
    "D": "3 x the number of distinct counts",
}
"""What each soloist card scores (ruling C5), for tables and figures."""

SETUP_COLUMNS = ("soloist_card", "pianist_card", "harpist_card")
"""The three setup cards a solo game is dealt (the "setup combination")."""


# --------------------------------------------------------------------------------------------
# Card descriptions


def describe_set(multiplicity: Sequence[int] | np.ndarray) -> str:
    """A pianist or harpist set in words: ``[0, 2, 0, 0, 0] -> "2 drummer"``.

    Parameters
    ----------
    multiplicity : sequence of int
        Times each kind of :data:`fairysim.sim.concerto.KINDS` appears on the card.

    Returns
    -------
    str
        ``"trumpeter + violinist"``, ``"2 horn + violinist"``, ...
    """
    parts = []
    for kind, times in zip(KINDS, multiplicity, strict=True):
        if times == 1:
            parts.append(kind)
        elif times > 1:
            parts.append(f"{int(times)} {kind}")
    return " + ".join(parts)


def contest_cards(cards: ConcertoCards) -> pd.DataFrame:
    """Every contest card of a card set: the conductor, soloists A-D, pianists, harpists.

    Parameters
    ----------
    cards : ConcertoCards
        The card set.

    Returns
    -------
    pandas.DataFrame
        ``contest`` (``conductor``, ``soloist``, ``pianist``, ``harpist``), ``card`` (id; the
        conductor card is ``conductor``), ``index`` (code in the results' setup column; -1 for
        the conductor, which is always in play) and ``scores`` (what it counts, in words).
    """
    rows = [("conductor", "conductor", -1, "2 x the most tokens of one kind")]
    rows += [("soloist", s, i, SOLOIST_RULES[s]) for i, s in enumerate(SOLOISTS)]
    for contest, ids, sets in (
        ("pianist", cards.pianist_ids, cards.pianist_sets),
        ("harpist", cards.harpist_ids, cards.harpist_sets),
    ):
        rows += [
            (contest, card, i, f"3 per set of {describe_set(sets[i])}")
            for i, card in enumerate(ids)
        ]
    return pd.DataFrame(rows, columns=["contest", "card", "index", "scores"])


def card_table(cards: ConcertoCards) -> pd.DataFrame:
    """The card set as one table (for reports: what exactly was simulated).

    Parameters
    ----------
    cards : ConcertoCards
        The card set.

    Returns
    -------
    pandas.DataFrame
        One row per score, pianist and harpist card: ``type``, ``card``, ``name``, ``asks for``
        (a score card's requirement, or the kinds of one set) and ``tokens`` (how many tokens
        that is).
    """
    rows = []
    for i, card in enumerate(cards.score_ids):
        name = cards.score_names[i] if i < len(cards.score_names) else ""
        rows.append(("score", card, name, cards.describe_need(i), int(cards.score_need[i].sum())))
    for kind, ids, sets in (
        ("pianist", cards.pianist_ids, cards.pianist_sets),
        ("harpist", cards.harpist_ids, cards.harpist_sets),
    ):
        for i, card in enumerate(ids):
            rows.append((kind, card, "", describe_set(sets[i]), int(sets[i].sum())))
    return pd.DataFrame(rows, columns=["type", "card", "name", "asks for", "tokens"])


# --------------------------------------------------------------------------------------------
# One run's rows as per-game arrays


def seat_arrays(
    df: pd.DataFrame, columns: Sequence[str]
) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Reshape one run's tidy rows into ``(games, seats)`` arrays.

    Unlike :func:`fairysim.analysis.stats.game_blocks` this counts seats from the rows, so it
    also fits solo runs, where every game has two rows (you and Pahha) for ``players == 1``.

    Parameters
    ----------
    df : pandas.DataFrame
        Rows of a single run (one player count), every game with seats ``0 .. seats - 1``.
    columns : sequence of str
        Per-seat columns to gather; categorical columns come back as their integer codes.

    Returns
    -------
    games : numpy.ndarray
        Game indices, ascending.
    arrays : dict of str to numpy.ndarray
        One ``(games, seats)`` array per column, in its own dtype.
    """
    if df.empty:
        raise ValueError("no rows to analyse")
    seats = int(df["seat"].max()) + 1
    frame = df
    game = frame["game"].to_numpy()
    seat = frame["seat"].to_numpy()
    tiled = len(frame) % seats == 0 and np.array_equal(
        seat.reshape(-1, seats), np.broadcast_to(np.arange(seats), (len(frame) // seats, seats))
    )
    # simulate() returns rows sorted by (game, seat): sort only frames that were reordered.
    if not (tiled and np.all(np.diff(game) >= 0)):
        frame = frame.sort_values(["game", "seat"], kind="stable")
        seat = frame["seat"].to_numpy()
        if len(frame) % seats or not np.array_equal(
            seat.reshape(-1, seats),
            np.broadcast_to(np.arange(seats), (len(frame) // seats, seats)),
        ):
            raise ValueError(f"every game needs exactly one row per seat 0..{seats - 1}")
    arrays = {}
    for name in columns:
        column = frame[name]
        values = (
            column.cat.codes.to_numpy() if isinstance(column.dtype, pd.CategoricalDtype) else column
        )
        arrays[name] = np.asarray(values).reshape(-1, seats)
    return frame["game"].to_numpy()[::seats], arrays


def run_players(df: pd.DataFrame) -> int:
    """The player count of a single run (``players`` column), or an error if it mixes several."""
    values = df["players"].unique()
    if len(values) != 1:
        raise ValueError(f"give the rows of one player count at a time, got {sorted(values)}")
    return int(values[0])


def winner_mask(score: np.ndarray, solo: bool) -> np.ndarray:
    """Which seats win each game.

    Parameters
    ----------
    score : numpy.ndarray
        ``(games, seats)`` final scores.
    solo : bool
        Solo rules: seat 0 (you) wins only with a strictly higher score than seat 1 (Pahha).

    Returns
    -------
    numpy.ndarray of bool
        ``(games, seats)``: True for every seat with the highest score (all tied seats share).
    """
    if solo:
        you = score[:, 0] > score[:, 1]
        return np.column_stack([you, ~you])
    return score == score.max(axis=1, keepdims=True)


def contest_honors(points: np.ndarray) -> np.ndarray:
    """Honor points one contest card awards (C6): 2 to every seat with the best score on it,
    provided that score is above 0.

    Parameters
    ----------
    points : numpy.ndarray
        ``(games, seats)`` points of every seat on the card.

    Returns
    -------
    numpy.ndarray
        ``(games, seats)`` honor points (0 or 2).
    """
    best = points.max(axis=1, keepdims=True)
    return np.where((points == best) & (best > 0), HONOR_POINTS, 0)


def honor_decides(df: pd.DataFrame) -> pd.DataFrame:
    """Per game: does the honor of each contest card decide who wins?

    Parameters
    ----------
    df : pandas.DataFrame
        One run's tidy rows (any form, solo included).

    Returns
    -------
    pandas.DataFrame
        One row per game: ``game``, then one bool column per contest (``conductor``,
        ``soloist``, ``pianist``, ``harpist``) that is True when removing that card's honor
        tokens from the final scores changes the set of winners (see the module notes), and
        ``any`` (at least one of them does).

    Examples
    --------
    >>> from fairysim.sim.concerto import simulate
    >>> decides = honor_decides(simulate(players=3, games=200, seed=1))
    >>> list(decides.columns)
    ['game', 'conductor', 'soloist', 'pianist', 'harpist', 'any']
    """
    solo = run_players(df) == 1
    games, a = seat_arrays(df, ["score", *CONTESTS])
    decides = _honor_decides(a, solo)
    out = pd.DataFrame({"game": games, **decides})
    out["any"] = np.logical_or.reduce([decides[c] for c in CONTESTS])
    return out


def _honor_decides(a: dict[str, np.ndarray], solo: bool) -> dict[str, np.ndarray]:
    score = a["score"]
    winners = winner_mask(score, solo)
    out = {}
    for contest in CONTESTS:
        without = score - contest_honors(a[contest])
        out[contest] = (winner_mask(without, solo) != winners).any(axis=1)
    return out


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
        ``spread_se`` and normal 95 % ``spread_low``/``spread_high``, ``honor_shared`` (share of
        games two or more seats share its honor), ``honor_none`` (share nobody scores on it),
        ``decides`` (share of games its honor decides, see the module notes) with Wilson
        ``decides_low``/``decides_high``.
    """
    card_set = load_cards() if cards is None else cards
    players = run_players(df)
    _, a = seat_arrays(df, ["score", *CONTESTS, *SETUP_COLUMNS])
    decides = _honor_decides(a, players == 1)
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
        ``leader_win_share`` with Wilson ``leader_low``/``leader_high``, ``fair`` (1/players),
        ``advantage`` (leader win share minus fair share) and ``significant``.
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


def seat_win_counts(df: pd.DataFrame) -> pd.DataFrame:
    """Games and wins (sum of win shares) per seat of one run, for
    :func:`fairysim.analysis.stats.seat_advantage_counts`.

    Parameters
    ----------
    df : pandas.DataFrame
        One run's tidy rows (2-4 players).

    Returns
    -------
    pandas.DataFrame
        ``players``, ``seat``, ``games``, ``wins``.
    """
    players = run_players(df)
    _, a = seat_arrays(df, ["win_share"])
    win = a["win_share"].astype(np.float64)
    return pd.DataFrame(
        {
            "players": players,
            "seat": np.arange(win.shape[1]),
            "games": len(win),
            "wins": win.sum(axis=0),
        }
    )


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
        interval on the summed counts); ``lift`` averaged with equal weight over player counts
        (its ``se`` combines the runs' standard errors in quadrature, the runs being
        independent).
    contests : pandas.DataFrame
        Per (players, contest card), see :func:`contest_rows`.
    contests_pooled : pandas.DataFrame
        Per contest card over all player counts: ``games`` summed, ``mean_points`` and
        ``decides`` (with Wilson interval) on the summed counts, and ``spread_<n>p`` per player
        count (the spread grows with the number of seats, so it is not pooled).
    popularity : pandas.DataFrame
        Per (players, popularity kind or ``all``), see :func:`popularity_rows`.
    parts : pandas.DataFrame
        Per (players, part), see :func:`part_rows`.
    seats : pandas.DataFrame
        Seat advantage per (players, seat), see
        :func:`fairysim.analysis.stats.seat_advantage_counts`.
    seat_tests : pandas.DataFrame
        Chi-square test of equal seats per player count.
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
    seats: pd.DataFrame
    seat_tests: pd.DataFrame
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
            "seats": self.seats,
            "seat_tests": self.seat_tests,
        }


def card_balance(
    games: int,
    seed: int,
    players: Sequence[int] = PLAYER_COUNTS,
    policy: str = "greedy",
    cards: str | Path | ConcertoCards | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> CardBalance:
    """Measure the balance of the score, contest and popularity cards for 2-4 players.

    Parameters
    ----------
    games : int
        Games per player count.
    seed : int
        Seed of every run.
    players : sequence of int, default (2, 3, 4)
        Player counts (2 to 4; solo is :func:`solo_study`'s).
    policy : str, default ``"greedy"``
        The policy every seat plays (a built-in name or ``module:function``). Seat advantage
        is only meaningful when every seat plays the same policy.
    cards : path or ConcertoCards, optional
        Card file (the shipped provisional set by default).
    threads : int, optional
        numba threads (all by default); never changes the numbers.
    progress : callable, optional
        ``progress(games_done, games_total)`` over the whole study.

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
    players = _check_players(players)
    card_set = cards if isinstance(cards, ConcertoCards) else _load(cards)
    total = games * len(players)
    tracker = _Tracker(progress, total)
    score_cards, contests, popularity, parts, seat_counts = [], [], [], [], []
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
        )
        engine_version = df.attrs["fairysim"]["config"]["engine_version"]
        score_cards.append(score_card_rows(df, card_set))
        contests.append(contest_rows(df, card_set))
        popularity.append(popularity_rows(df))
        parts.append(part_rows(df))
        seat_counts.append(seat_win_counts(df))
        tracker.done(games)
        del df  # one run's rows at a time
    score_df = pd.concat(score_cards, ignore_index=True)
    contest_df = pd.concat(contests, ignore_index=True)
    seats = seat_advantage_counts(pd.concat(seat_counts, ignore_index=True))
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
        popularity=pd.concat(popularity, ignore_index=True),
        parts=pd.concat(parts, ignore_index=True),
        seats=seats,
        seat_tests=seat_test_counts(seats),
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
                "lift": lift,
                "se": se,
                "lift_low": lift - Z_95 * se,
                "lift_high": lift + Z_95 * se,
                "significant": bool(excludes(lift - Z_95 * se, lift + Z_95 * se, 0.0)),
            }
        )
    return pd.DataFrame(out)


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
        }
        for r in g.itertuples(index=False):
            row[f"spread_{r.players}p"] = r.mean_spread
        out.append(row)
    return pd.DataFrame(out)


# --------------------------------------------------------------------------------------------
# The solo study


@dataclass
class SoloStudy:
    """Tables of a :func:`solo_study` (win shares are shares of games, margins in points).

    Attributes
    ----------
    policies : pandas.DataFrame
        One row per policy: ``policy``, ``games``, ``wins``, ``win_share`` with Wilson ``low``/
        ``high``, ``mean_score``, ``pahha_score``, ``mean_margin`` (your score minus Pahha's),
        and the paired ``gain`` over greedy on the games both played (share of games) with
        ``gain_se``, ``gain_low``, ``gain_high``, ``gain_games`` and ``significant`` (nan for
        greedy itself).
    lookahead : pandas.DataFrame
        The lookahead policy against greedy on identical deals (one row; empty without
        lookahead): ``games``, both win shares, ``gain`` in win share and ``margin_gain`` in
        points, each with ``_se``, ``_low``, ``_high`` and a verdict.
    setups : pandas.DataFrame
        Per (policy, soloist, pianist, harpist): ``games``, ``wins``, ``win_share`` with Wilson
        ``low``/``high`` and ``mean_margin``; for the fast policies and lookahead.
    setup_cards : pandas.DataFrame
        Per (policy, contest, card): the same, setup cards taken one at a time.
    margins : pandas.DataFrame
        Margin distribution per (policy, margin): ``games`` and ``share``.
    margin_summary : pandas.DataFrame
        Per policy: ``games``, ``mean``, ``sd``, quantiles ``p05`` .. ``p95`` and ``tied``
        (share of games tied with Pahha, a loss by ruling C8).
    cards : ConcertoCards
        The card set played.
    meta : dict
        ``games`` (fast policies), ``lookahead_games``, ``seed``, ``policies``, ``cards``,
        ``cards_label``, ``cards_provisional``, ``package_version``, ``engine_version``.
    """

    policies: pd.DataFrame
    lookahead: pd.DataFrame
    setups: pd.DataFrame
    setup_cards: pd.DataFrame
    margins: pd.DataFrame
    margin_summary: pd.DataFrame
    cards: ConcertoCards
    meta: dict[str, Any] = field(default_factory=dict)

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by name, in report order."""
        return {
            "policies": self.policies,
            "lookahead": self.lookahead,
            "setups": self.setups,
            "setup_cards": self.setup_cards,
            "margins": self.margins,
            "margin_summary": self.margin_summary,
        }


SLOW_POLICIES = ("lookahead",)
"""Solo policies that play ``lookahead_games`` games instead of ``games`` (Monte Carlo
rollouts at every decision make them about 20 times slower than greedy)."""


def solo_runs(
    games: int,
    seed: int,
    lookahead_games: int | None = None,
    policies: Sequence[str] = SOLO_POLICIES,
    cards: str | Path | ConcertoCards | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> dict[str, pd.DataFrame]:
    """Play every solo policy on the same deals and keep your row of every game.

    Parameters
    ----------
    games : int
        Games per policy.
    seed : int
        Seed shared by every run (identical deals game by game).
    lookahead_games : int, optional
        Games for the slow policies of :data:`SLOW_POLICIES` (default ``games``).
    policies : sequence of str
        Solo policies; ``greedy`` is added first when missing (it is the baseline).
    cards : path or ConcertoCards, optional
        Card file.
    threads : int, optional
        numba threads.
    progress : callable, optional
        ``progress(games_done, games_total)`` over all runs.

    Returns
    -------
    dict of str to pandas.DataFrame
        Per policy, one row per game indexed by ``game``: ``win`` (1 or 0), ``score``,
        ``pahha_score``, ``margin`` and the setup ``soloist_card``, ``pianist_card``,
        ``harpist_card``, ``popularity_kind`` (categorical).
    """
    games = check_games(games)
    lookahead_games = games if lookahead_games is None else check_games(lookahead_games)
    names = _check_solo_policies(policies)
    card_set = cards if isinstance(cards, ConcertoCards) else _load(cards)
    sizes = {p: lookahead_games if p in SLOW_POLICIES else games for p in names}
    tracker = _Tracker(progress, sum(sizes.values()))
    runs = {}
    for name in names:
        df = simulate(
            players=1,
            policies=name,
            games=sizes[name],
            seed=seed,
            cards=card_set,
            threads=threads,
            progress=tracker.run(),
        )
        tracker.done(sizes[name])
        runs[name] = _solo_rows(df)
        runs[name].attrs["fairysim"] = df.attrs["fairysim"]
        del df
    return runs


def _solo_rows(df: pd.DataFrame) -> pd.DataFrame:
    you = df[df["seat"] == 0].set_index("game").sort_index()
    pahha = df[df["seat"] == 1].set_index("game").sort_index()
    return pd.DataFrame(
        {
            "win": you["win_share"].astype(np.float64),
            "score": you["score"].astype(np.int64),
            "pahha_score": pahha["score"].astype(np.int64),
            "margin": you["margin"].astype(np.int64),
            "soloist_card": you["soloist_card"],
            "pianist_card": you["pianist_card"],
            "harpist_card": you["harpist_card"],
            "popularity_kind": you["popularity_kind"],
        }
    )


def solo_study(
    games: int,
    seed: int,
    lookahead_games: int | None = None,
    policies: Sequence[str] = SOLO_POLICIES,
    cards: str | Path | ConcertoCards | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> SoloStudy:
    """Solo win rates against Pahha: per policy, per setup, margins, and gains over greedy.

    Parameters
    ----------
    games : int
        Games per fast policy (every policy but those of :data:`SLOW_POLICIES`).
    seed : int
        Seed shared by every run, so every policy plays the same deals (and setups) in game
        ``i``; gains over greedy are paired game by game.
    lookahead_games : int, optional
        Games of the lookahead policy (default ``games``); they are games ``0 ..
        lookahead_games - 1``, so the gain over greedy is paired on the first
        ``min(games, lookahead_games)`` deals.
    policies : sequence of str, default all solo policies
        Built-in names or ``module:function``; ``greedy`` is always played.
    cards : path or ConcertoCards, optional
        Card file (the shipped provisional set by default).
    threads : int, optional
        numba threads; never changes the numbers.
    progress : callable, optional
        ``progress(games_done, games_total)`` over all runs.

    Returns
    -------
    SoloStudy

    Examples
    --------
    >>> study = solo_study(games=300, seed=1, lookahead_games=30, policies=("greedy", "random"))
    >>> list(study.policies.policy)
    ['greedy', 'random']
    """
    card_set = cards if isinstance(cards, ConcertoCards) else _load(cards)
    runs = solo_runs(games, seed, lookahead_games, policies, card_set, threads, progress)
    return summarise_solo(runs, card_set, seed)


def summarise_solo(
    runs: dict[str, pd.DataFrame], cards: ConcertoCards | None = None, seed: int | None = None
) -> SoloStudy:
    """The tables of a :class:`SoloStudy` from runs of :func:`solo_runs`.

    Parameters
    ----------
    runs : dict of str to pandas.DataFrame
        Per policy, your row of every game (``greedy`` among them).
    cards : ConcertoCards, optional
        The card set played (for the report's labels).
    seed : int, optional
        The runs' seed (recorded in ``meta``).

    Returns
    -------
    SoloStudy
    """
    card_set = load_cards() if cards is None else cards
    if BASELINE_POLICY not in runs:
        raise FairysimError("--policy", "the solo study needs a greedy run as its baseline")
    base = runs[BASELINE_POLICY]
    policy_rows, setups, setup_cards, margins, margin_summary = [], [], [], [], []
    for name, run in runs.items():
        n = len(run)
        wins = float(run["win"].sum())
        low, high = wilson_interval(wins, n)
        row = {
            "policy": name,
            "games": n,
            "wins": wins,
            "win_share": wins / n,
            "low": float(low),
            "high": float(high),
            "mean_score": float(run["score"].mean()),
            "pahha_score": float(run["pahha_score"].mean()),
            "mean_margin": float(run["margin"].mean()),
        }
        if name == BASELINE_POLICY:
            row.update(gain=math.nan, gain_se=math.nan, gain_low=math.nan, gain_high=math.nan)
            row.update(gain_games=n, significant=math.nan)
        else:
            d = paired_difference(run["win"], base["win"])
            row.update(gain=d.mean, gain_se=d.se, gain_low=d.low, gain_high=d.high)
            row.update(gain_games=d.n, significant=d.significant)
        policy_rows.append(row)
        setups.append(_setup_rates(run, name, list(SETUP_COLUMNS)))
        for column in SETUP_COLUMNS:
            part = _setup_rates(run, name, [column])
            part.insert(1, "contest", column.removesuffix("_card"))
            setup_cards.append(part.rename(columns={column: "card"}))
        margins.append(_margin_distribution(run, name))
        margin_summary.append(_margin_summary(run, name))
    lookahead = _lookahead_gain(runs)
    engine_version = base.attrs.get("fairysim", {}).get("config", {}).get("engine_version")
    meta = {
        "games": len(base),
        "lookahead_games": len(runs[SLOW_POLICIES[0]]) if SLOW_POLICIES[0] in runs else None,
        "seed": seed,
        "policies": list(runs),
        "cards": card_set.source,
        "cards_label": card_set.label,
        "cards_provisional": card_set.provisional,
        "package_version": __version__,
        "engine_version": engine_version,
    }
    return SoloStudy(
        policies=pd.DataFrame(policy_rows),
        lookahead=lookahead,
        setups=pd.concat(setups, ignore_index=True),
        setup_cards=pd.concat(setup_cards, ignore_index=True),
        margins=pd.concat(margins, ignore_index=True),
        margin_summary=pd.DataFrame(margin_summary),
        cards=card_set,
        meta=meta,
    )


def _setup_rates(run: pd.DataFrame, name: str, by: list[str]) -> pd.DataFrame:
    rates = win_rates(run, by=by, value="win")
    margin = run.groupby(by, observed=True, sort=True)["margin"].mean().reset_index(drop=True)
    rates["mean_margin"] = margin.to_numpy()
    for column in by:
        rates[column] = rates[column].astype(str)
    rates.insert(0, "policy", name)
    return rates


def _margin_distribution(run: pd.DataFrame, name: str) -> pd.DataFrame:
    counts = run["margin"].value_counts().sort_index()
    return pd.DataFrame(
        {
            "policy": name,
            "margin": counts.index.to_numpy(np.int64),
            "games": counts.to_numpy(np.int64),
            "share": counts.to_numpy(np.float64) / len(run),
        }
    )


def _margin_summary(run: pd.DataFrame, name: str) -> dict[str, Any]:
    m = run["margin"].to_numpy(np.float64)
    q = np.quantile(m, [0.05, 0.25, 0.5, 0.75, 0.95])
    return {
        "policy": name,
        "games": len(m),
        "mean": float(m.mean()),
        "sd": float(m.std(ddof=1)) if len(m) > 1 else math.nan,
        "p05": q[0],
        "p25": q[1],
        "median": q[2],
        "p75": q[3],
        "p95": q[4],
        "tied": float((m == 0).mean()),
        "won": float((m > 0).mean()),
    }


def _lookahead_gain(runs: dict[str, pd.DataFrame]) -> pd.DataFrame:
    columns = [
        "policy",
        "games",
        "greedy_win_share",
        "policy_win_share",
        "gain",
        "gain_se",
        "gain_low",
        "gain_high",
        "significant",
        "greedy_margin",
        "policy_margin",
        "margin_gain",
        "margin_gain_se",
        "margin_gain_low",
        "margin_gain_high",
        "margin_significant",
    ]
    rows = []
    base = runs[BASELINE_POLICY]
    for name in SLOW_POLICIES:
        if name not in runs:
            continue
        run = runs[name]
        common = base.index.intersection(run.index)
        win = paired_difference(run["win"], base["win"])
        margin = paired_difference(run["margin"], base["margin"])
        rows.append(
            {
                "policy": name,
                "games": win.n,
                "greedy_win_share": float(base.loc[common, "win"].mean()),
                "policy_win_share": float(run.loc[common, "win"].mean()),
                "gain": win.mean,
                "gain_se": win.se,
                "gain_low": win.low,
                "gain_high": win.high,
                "significant": win.significant,
                "greedy_margin": float(base.loc[common, "margin"].mean()),
                "policy_margin": float(run.loc[common, "margin"].mean()),
                "margin_gain": margin.mean,
                "margin_gain_se": margin.se,
                "margin_gain_low": margin.low,
                "margin_gain_high": margin.high,
                "margin_significant": margin.significant,
            }
        )
    return pd.DataFrame(rows, columns=columns)


# --------------------------------------------------------------------------------------------
# Checks and progress


class _Tracker:
    """One progress bar over several runs: each run reports its own games done."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress = progress
        self.total = total
        self.finished = 0

    def run(self) -> Callable[[int, int], None] | None:
        if self.progress is None:
            return None
        progress = self.progress

        def report(done: int, _total: int) -> None:
            progress(self.finished + done, self.total)

        return report

    def done(self, games: int) -> None:
        self.finished += games


def _load(cards: str | Path | None) -> ConcertoCards:
    # A bad card file is the user's --cards option to fix; name it so the CLI says which.
    from fairysim.errors import CardFileError

    try:
        return load_cards(cards)
    except CardFileError as error:
        raise FairysimError("--cards", str(error)) from None


def _check_players(players: Sequence[int]) -> tuple[int, ...]:
    values = tuple(dict.fromkeys(int(p) for p in players))
    if not values or any(not 2 <= p <= 4 for p in values):
        raise FairysimError(
            "--players", f"the card-balance study covers 2 to 4 players, got {list(players)}"
        )
    return values


def _check_solo_policies(policies: Sequence[str]) -> tuple[str, ...]:
    names = [p.strip() for p in (policies.split(",") if isinstance(policies, str) else policies)]
    if not names or any(not p for p in names):
        raise FairysimError("--policy", "give at least one solo policy")
    for name in names:
        if name not in POLICIES and ":" not in name:
            raise FairysimError(
                "--policy",
                f"unknown policy {name!r}; built-ins are {', '.join(POLICIES)}, "
                "or give module:function",
            )
    ordered = [BASELINE_POLICY, *(p for p in names if p != BASELINE_POLICY)]
    return tuple(dict.fromkeys(ordered))


__all__ = [
    "BASELINE_POLICY",
    "PLAYER_COUNTS",
    "SETUP_COLUMNS",
    "SLOW_POLICIES",
    "SOLOIST_NAMES",
    "SOLOIST_RULES",
    "CardBalance",
    "SoloStudy",
    "card_balance",
    "card_table",
    "contest_cards",
    "contest_honors",
    "contest_rows",
    "describe_set",
    "honor_decides",
    "part_rows",
    "popularity_rows",
    "score_card_rows",
    "seat_arrays",
    "seat_win_counts",
    "solo_runs",
    "solo_study",
    "summarise_solo",
    "winner_mask",
]
