"""Who wins the auctions with two players, under several policies at both seats.

Each seat bids once, from the explorer's left, the explorer last (L5), so with two players the
other seat bids once and the explorer answers, one above whatever it bid if it can pay and
wants to. Greedy bids the lowest legal bid or passes (:func:`fairysim.sim.fairyland.policies.
greedy_policy`): the other seat offers 1 at most, and a greedy explorer, which chose the
clearing as the one worth most to it, outbids it at 2. The explorer then wins every auction
somebody wins; that is greedy's bidding, not the rules, since value-bidder's first bid goes
above what the explorer can pay when the clearing is worth it. :func:`two_player_contest`
measures the explorer's share of the won auctions and the unbid share under each policy, on the
same games (the report's first logged games).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from fairysim.analysis.fairyland.study import auction_summary
from fairysim.sim.fairyland import FairyLandCards, make_setup, play_auctions

CONTEST_PLAYERS = 2
"""The player count whose auctions are compared across policies."""

CONTEST_POLICIES = ("greedy", "value-bidder", "random")
"""The policies played at both seats, the report's own first when it is not among them."""


def two_player_contest(
    games: int,
    seed: int,
    policy: str = "greedy",
    policies: Sequence[str] = CONTEST_POLICIES,
    cards: str | Path | FairyLandCards | None = None,
    threads: int | None = None,
) -> pd.DataFrame:
    """The auctions of ``games`` two-player games under each policy at both seats.

    Parameters
    ----------
    games : int
        Games per policy, every auction logged.
    seed : int
        Seed of every run: the same forests and starting seats under each policy.
    policy : str, default ``"greedy"``
        The report's policy, played first (added where ``policies`` lacks it).
    policies : sequence of str
        The other policies.
    cards : path or FairyLandCards, optional
        Card file.
    threads : int, optional
        numba threads; never changes the numbers.

    Returns
    -------
    pandas.DataFrame
        One row per policy: ``policy`` and the columns of
        :func:`~fairysim.analysis.fairyland.study.auction_summary` (``explorer_share`` of the
        won auctions and ``unbid_share`` with their Wilson intervals, ``auctions``, ``won``,
        ``games``).
    """
    names = list(dict.fromkeys([policy, *policies]))
    rows = []
    for name in names:
        setup = make_setup(players=CONTEST_PLAYERS, policies=name, seed=seed, cards=cards)
        summary = auction_summary(play_auctions(setup, games, threads=threads))
        rows.append(summary.assign(policy=name))
    out = pd.concat(rows, ignore_index=True)
    return out[["policy", *[c for c in out.columns if c != "policy"]]]


__all__ = ["CONTEST_PLAYERS", "CONTEST_POLICIES", "two_player_contest"]
