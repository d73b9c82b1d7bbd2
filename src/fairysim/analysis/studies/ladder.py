"""The skill ladder: what a game's balance looks like under weak and under strong play.

A balance verdict rests on the players behind it. The ladder is the game's declared rungs
(:attr:`~fairysim.sim.game.GameSpec.ladder`: random, one-step greedy, the best heuristic),
played over the game contract only, so it names no game:

- **Mirror tables.** Every seat plays one rung, ``games`` games of ``seed`` (the same deals for
  every rung: the engines draw a deal from ``(seed, game)`` alone). Per game the win share at
  each turn position (the spec's :class:`~fairysim.sim.game.TurnOrder`) gives the starter's
  advantage (its win share minus the fair share ``1 / players``) and the turn-order spread (the
  first to act minus the last, a per-game contrast), each a mean over games with the standard
  error of the per-game values. The advantages of every (player count, rung) are one family
  corrected with Holm's method, the spreads another, and each rung's positions against the
  fair share a third (the seat-advantage verdict the reports give).
- **Skill gap.** A tournament of the rungs
  (:func:`fairysim.analysis.tournament.play.play_tournament`:
  every mix, seats rotated on identical deals) gives the head-to-head share of the top rung
  against the bottom one at the same table and Bradley-Terry ratings (choix), with their
  intervals.
- **Verdicts under greedy and under the best heuristic.** Where the seat-advantage verdicts of
  the two rungs differ (a position off the fair share under one and not under the other, or off
  it the other way), :func:`ladder_study` says so; so does a rating order that is not the
  declared one.

- **The search rung.** Where the game has a search player (:attr:`GameSpec.search`,
  ``rollout``), it is the ladder's top rung on fewer games (``search_games``; it plays
  thousands of games a second, not millions): a mirror table like the other rungs', and one
  searching seat among the best heuristic, rotated over every seat on the same deals, whose win
  share (the deal's mean over the rotations, a cluster) is tested against the fair share, the
  player counts one Holm family. The tournament stays with the heuristics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from fairysim.analysis.tournament.play import head_to_head, play_tournament, ratings
from fairysim.jit import ahead as compile_ahead
from fairysim.runtime.errors import FairysimError, ParameterError
from fairysim.runtime.stages import tell
from fairysim.sim.batch import DEFAULT_CHUNK_GAMES, check_games, join_chunks
from fairysim.sim.game import GameSpec, get_game
from fairysim.stats.corrections import with_correction
from fairysim.stats.turn_order import ordinal, positions_of_arrays

TOURNAMENT_SHARE = 10
"""The tournament plays ``games // TOURNAMENT_SHARE`` games per (mix, rotation): it has many
more tables than there are rungs, and a head-to-head share is far from 0.5."""

ADVANTAGE = "advantage_"
SPREAD = "spread_"
POSITION = "position_"


@dataclass
class LadderStudy:
    """The ladder's tables.

    ``rungs``: a row per (player count, rung): ``players``, ``table``, ``rung``, ``policy``,
    ``games``, ``starter`` (win share of the first to act), ``advantage`` (minus the fair
    share) and ``spread`` (first minus last) with their standard errors and corrected
    ``advantage_*``/``spread_*`` columns, and ``off_fair`` (the positions whose win share
    differs from the fair share after correction). ``positions``: a row per (player count,
    rung, position) with its win share and corrected ``position_*`` columns. ``gaps``: a row
    per player count, the top rung's head-to-head share against the bottom rung (95%
    interval clustered by deal) and the games behind it. ``ratings``: the tournament's
    Bradley-Terry ratings per player count. ``search``: a row per player count, one searching
    seat's win share among the best heuristic (seats rotated), its corrected interval against
    the fair share, the deals and games behind it (empty without a search rung).
    ``warnings``: sentences where the verdicts under greedy and under the best heuristic
    disagree, the ratings do not follow the ladder, or the search does not beat the best
    heuristic. ``changes``: the first of those, one per player count where greedy's and the
    best heuristic's positions off the fair share part (``players``, ``table``, ``greedy``,
    ``rungs``: greedy and the best heuristic, each rung's name also a key to its ``off_fair``),
    so a page can mark each against its rows of ``positions``; they lead ``warnings`` in the
    same order.
    """

    rungs: pd.DataFrame
    positions: pd.DataFrame
    gaps: pd.DataFrame
    ratings: pd.DataFrame
    warnings: list[str]
    meta: dict[str, Any]
    search: pd.DataFrame = field(default_factory=pd.DataFrame)
    changes: list[dict[str, Any]] = field(default_factory=list)


def _spec_with_ladder(game: str | GameSpec) -> GameSpec:
    spec = game if isinstance(game, GameSpec) else get_game(game, "GAME")
    if len(spec.ladder) < 2:
        raise FairysimError("GAME", f"{spec.name} declares no skill ladder")
    return spec


def _win_by_position(spec: GameSpec, setup: Any, games: int, threads) -> np.ndarray:
    """``(games, players)``: each game's win share at each turn position (0 acts first)."""
    arrays = join_chunks(
        spec.play_chunks(setup, games, chunk_games=DEFAULT_CHUNK_GAMES, threads=threads)
    )
    share = np.asarray(arrays["win_share"][:, : setup.players], np.float64)
    positions = positions_of_arrays(arrays, spec.turn_order, setup.players)
    out = np.empty_like(share)
    np.put_along_axis(out, positions, share, axis=1)
    return out


def _mean_se(values: np.ndarray) -> tuple[float, float]:
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(len(values)))


def ladder_study(
    game: str | GameSpec,
    *,
    players: int | Sequence[int],
    games: int,
    seed: int = 1,
    cards: Any = None,
    threads: int | None = None,
    method: str = "holm",
    search_games: int = 0,
    **axes: Any,
) -> LadderStudy:
    """Play the game's ladder at each player count (2 players or more).

    Parameters
    ----------
    game : str or GameSpec
        A game that declares :attr:`~fairysim.sim.game.GameSpec.ladder`.
    players : int or sequence of int
        Player counts, each at least 2 (a solo form has no turn order to compare).
    games : int
        Games per mirror table; the tournament plays ``games // 10`` (at least 100) per
        (mix, rotation).
    seed, cards, axes
        As ``make_setup`` takes them; every table plays the same seed.
    method : {"holm", "fdr_bh"}
        The correction of each family.
    search_games : int
        Games of the search rung's mirror table and deals of its rotation against the best
        heuristic, at each player count; 0 (or a game without a search player) leaves the rung
        out.

    Raises
    ------
    FairysimError
        Naming ``GAME`` (no ladder), ``--players`` (a count below 2) or ``--games``.
    """
    spec = _spec_with_ladder(game)
    games = check_games(games, "games")
    counts = [players] if isinstance(players, int | str) else list(players)
    rungs, positions, gaps, rating_tables, searched = [], [], [], [], []
    ladder = list(spec.ladder)
    if spec.search and search_games > 0:
        search_games = check_games(search_games, "search_games")
        ladder.append(spec.search)
    for n in counts:
        base = spec.make_setup(players=n, policies=spec.ladder[0], seed=seed, cards=cards, **axes)
        if base.players < 2:
            raise ParameterError("players", "the ladder compares turn positions: 2 players or more")
        for rank, policy in enumerate(ladder):
            tell(f"skill ladder, {n} players", rank, len(ladder) + 1, "runs")
            searching = rank == len(spec.ladder)
            if searching:  # its kernel may be compiling in the background (compile_ahead)
                compile_ahead.wait(spec.name, spec.title)
            seated = spec.search_policy(n) if searching else policy
            setup = spec.make_setup(players=n, policies=seated, seed=seed, cards=cards, **axes)
            table_games = search_games if searching else games
            win = _win_by_position(spec, setup, table_games, threads)
            starter, starter_se = _mean_se(win[:, 0])
            spread, spread_se = _mean_se(win[:, 0] - win[:, -1])
            rungs.append(
                {
                    "players": setup.players,
                    "table": setup.table(),
                    "rung": rank,
                    "policy": policy,
                    "weights": spec.search_weights_text(n) if searching else "",
                    "games": table_games,
                    "starter": starter,
                    "advantage": starter - 1 / setup.players,
                    "advantage_se": starter_se,
                    "spread": spread,
                    "spread_se": spread_se,
                }
            )
            for p in range(setup.players):
                share, se = _mean_se(win[:, p])
                positions.append(
                    {
                        "players": setup.players,
                        "policy": policy,
                        "position": p,
                        "win_share": share,
                        "se": se,
                        "fair": 1 / setup.players,
                    }
                )
        tell(f"skill ladder, {n} players", len(ladder), len(ladder) + 1, "runs")
        tournament = play_tournament(
            spec,
            policies=list(spec.ladder),
            players=n,
            games=max(games // TOURNAMENT_SHARE, 100),
            seed=seed,
            cards=cards,
            threads=threads,
            **axes,
        )
        matrix = head_to_head(tournament).set_index(["row", "col"])
        top, bottom = tournament.entries[-1], tournament.entries[0]
        cell = matrix.loc[(top, bottom)]
        gaps.append(
            {
                "players": base.players,
                "table": base.table(),
                "top": top,
                "bottom": bottom,
                "share": float(cell["share"]),
                "low": float(cell["low"]),
                "high": float(cell["high"]),
                "meetings": int(cell["meetings"]),
                "deals": int(cell["games"]),
                "games_per_pairing": tournament.games,
            }
        )
        rating_tables.append(ratings(tournament).assign(players=base.players))
        if len(ladder) > len(spec.ladder):
            searched.append(_search_row(spec, base, search_games, seed, cards, threads, axes))
    rung_table = with_correction(
        pd.DataFrame(rungs), "advantage", "advantage_se", method=method, prefix=ADVANTAGE
    )
    rung_table = with_correction(rung_table, "spread", "spread_se", method=method, prefix=SPREAD)
    position_table = with_correction(
        pd.DataFrame(positions), "win_share", "se", null="fair", method=method, prefix=POSITION
    )
    rung_table["off_fair"] = [
        _off_fair(position_table, r.players, r.policy) for r in rung_table.itertuples()
    ]
    rating_table = pd.concat(rating_tables, ignore_index=True)
    search_table = (
        with_correction(pd.DataFrame(searched), "share", "se", null="fair", method=method)
        if searched
        else pd.DataFrame()
    )
    meta = {
        "game": spec.name,
        "ladder": ladder,
        "search_games": search_games if len(ladder) > len(spec.ladder) else 0,
        "players": [int(n) for n in rung_table["players"].unique()],
        "games": games,
        "tournament_games": max(games // TOURNAMENT_SHARE, 100),
        "seed": seed,
        "method": method,
    }
    changes = _changes(spec, rung_table)
    warnings = _warnings(spec, rung_table, rating_table) + _search_warnings(search_table)
    return LadderStudy(
        rung_table,
        position_table,
        pd.DataFrame(gaps),
        rating_table,
        warnings,
        meta,
        search_table,
        changes,
    )


def _search_row(
    spec: GameSpec, base: Any, deals: int, seed: int, cards: Any, threads, axes: dict
) -> dict[str, Any]:
    """One searching seat among the best heuristic, rotated over every seat on ``deals`` deals:
    the searching seat's win share, each deal's mean over the rotations a cluster."""
    n = base.players
    best = spec.ladder[-1]
    per_deal = np.zeros(deals)
    for seat in range(n):
        lineup = [best] * n
        lineup[seat] = spec.search_policy(n)
        setup = spec.make_setup(players=n, policies=lineup, seed=seed, cards=cards, **axes)
        arrays = join_chunks(
            spec.play_chunks(setup, deals, chunk_games=DEFAULT_CHUNK_GAMES, threads=threads)
        )
        per_deal += np.asarray(arrays["win_share"][:, seat], np.float64) / n
    share, se = _mean_se(per_deal)
    return {
        "players": n,
        "table": base.table(),
        "search": spec.search_label(n),
        "against": best,
        "deals": deals,
        "games": deals * n,
        "share": share,
        "se": se,
        "fair": 1 / n,
    }


def _search_warnings(search: pd.DataFrame) -> list[str]:
    """A sentence for each player count where the search does not beat the best heuristic."""
    return [
        f"{r.table}: {r.search} does not beat {r.against} after correction "
        f"({100 * r.share:.1f}% of the wins against a fair share of {100 * r.fair:.1f}%); the "
        "top rung is not shown to beat the best heuristic here."
        for r in search.itertuples()
        if not (r.significant and r.share > r.fair)
    ]


def _off_fair(positions: pd.DataFrame, players: int, policy: str) -> str:
    """The positions of one mirror table off the fair share after correction, as
    ``"1st +2.1 pp, 3rd -1.0 pp"``; ``""`` for none."""
    rows = positions[
        (positions["players"] == players)
        & (positions["policy"] == policy)
        & positions[f"{POSITION}significant"]
    ]
    return ", ".join(
        f"{ordinal(int(r.position))} {100 * (r.win_share - r.fair):+.1f} pp"
        for r in rows.itertuples()
    )


def _changes(spec: GameSpec, rungs: pd.DataFrame) -> list[dict[str, Any]]:
    """The player counts where greedy's and the best heuristic's positions off the fair share
    part."""
    out = []
    greedy, best = "greedy", spec.ladder[-1]
    for _, group in rungs.groupby("players", sort=True):
        by = group.set_index("policy")
        if greedy in by.index and best in by.index and greedy != best:
            a, b = by.loc[greedy, "off_fair"], by.loc[best, "off_fair"]
            if _verdict_keys(a) != _verdict_keys(b):
                table = group["table"].iloc[0]
                players = int(group["players"].iloc[0])
                out.append(
                    {
                        "players": players,
                        "table": table,
                        greedy: a,
                        best: b,
                        "rungs": (greedy, best),
                    }
                )
    return out


def _warnings(spec: GameSpec, rungs: pd.DataFrame, rating_table: pd.DataFrame) -> list[str]:
    """Where greedy's and the best heuristic's seat-advantage verdicts part (first), and where
    the ratings do not follow the declared ladder."""
    return [_change_words(c) for c in _changes(spec, rungs)] + _order_warnings(
        spec, rungs, rating_table
    )


def _change_words(change: dict[str, Any]) -> str:
    """The sentence for one of :func:`_changes`."""
    greedy, best = change["rungs"]
    return (
        f"{change['table']}: the turn positions off the fair share part between {greedy} "
        f"(off the fair share: {change[greedy] or 'none'}) and {best} "
        f"({change[best] or 'none'}); a verdict read under greedy alone does not hold under "
        "the best heuristic."
    )


def _order_warnings(spec: GameSpec, rungs: pd.DataFrame, rating_table: pd.DataFrame) -> list[str]:
    """Where the ratings do not follow the declared ladder."""
    out = []
    for n, group in rungs.groupby("players", sort=True):
        ordered = rating_table[rating_table["players"] == n]["policy"].tolist()
        if ordered != list(reversed(spec.ladder)):
            out.append(
                f"{group['table'].iloc[0]}: the ratings order the rungs {', '.join(ordered)} "
                f"(largest rating first), not as the ladder declares "
                f"({', '.join(spec.ladder[::-1])})."
            )
    return out


def _verdict_keys(off_fair: str) -> set[tuple[str, str]]:
    """``{(position, sign)}`` of an :func:`_off_fair` text."""
    return {(part.split()[0], part.split()[1][0]) for part in off_fair.split(", ") if part}


__all__ = ["LadderStudy", "ladder_study"]
