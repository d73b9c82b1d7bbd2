"""The rounds of a best-response search on its page: each round's field, weights and gain, and
the pool's Bradley-Terry ratings, sorted, with their intervals drawn
(:mod:`fairysim.analysis.strategy.rounds`).

Reads the result's attributes only, so it imports nothing of the search.
"""

from __future__ import annotations

import html
from typing import Any

from fairysim.analysis.report.best_response import html_table as _table
from fairysim.analysis.report.page import figure_svg
from fairysim.analysis.report.plots import new_figure, points_ci


def _interval(low: float, high: float) -> str:
    return f"[{100 * low:+.1f}, {100 * high:+.1f}] pp"


def ratings_figure(ratings: Any) -> str:
    """The pool's ratings, strongest on top, each with its 95% bootstrap interval (inline
    SVG)."""
    frame = ratings.sort_values("rating", ascending=False)
    fig, (ax,) = new_figure(6.5, 0.45 * len(frame) + 1.4)
    points_ci(
        ax,
        list(frame["entry"]),
        {"rating": (frame["rating"], frame["low"], frame["high"])},
        xlabel="Bradley-Terry log-strength (centred on 0; +0.69 = twice as likely to rank above)",
        title="The pool rated by its tournament, strongest first, 95% bootstrap intervals",
        reference=0.0,
        unit=None,
    )
    if ax.get_legend() is not None:
        ax.get_legend().remove()
    svg = figure_svg(fig).decode()
    return svg[svg.find("<svg") :]


def rounds_section(result: Any) -> list[str]:
    """HTML parts: the rounds' table, the pool's figure and table (empty without rounds)."""
    pool = result.pool
    if pool is None:
        return []
    names = list(result.weights)
    rows = []
    given = list(pool.responses[0].field)
    for k, response in enumerate(pool.responses, start=1):
        field = given + [f"{result.policy_name}@round_{j}" for j in range(1, k)]
        gain = response.shares.set_index("arm").loc["gain"]
        rows.append(
            [
                str(k),
                ", ".join(field),
                ", ".join(f"{n} {response.weights[n]:.4g}" for n in names),
                f"{100 * gain['estimate']:+.1f} pp",
                _interval(gain["low"], gain["high"]),
                "yes" if gain["significant"] and gain["estimate"] > 0 else "no",
            ]
        )
    ratings = pool.ratings
    rating_rows = [
        [
            row["entry"],
            f"{row['rating']:+.3f}",
            f"[{row['low']:+.3f}, {row['high']:+.3f}]",
            "given" if int(row["round"]) == 0 else f"round {int(row['round'])}",
        ]
        for _, row in ratings.iterrows()
    ]
    return [
        "<h2>Rounds</h2>",
        "<p>"
        + html.escape(
            f"Each round searches {result.policy_name}'s weights again from its start, against "
            "the field enlarged by the responses before it (each sitting at the table as often "
            "as every other field policy), on the same deals; the gain is over the starting "
            "weights on fresh deals, Holm-corrected within its round. A round whose response "
            "gains nothing is one the family of weights no longer exploits. Each round's files "
            "are in rounds/round_k/."
        )
        + "</p>",
        _table(["round", "field", "weights", "gain", "interval", "gain shown"], rows),
        "<h2>The pool, rated</h2>",
        "<p>"
        + html.escape(
            f"{result.policy_name} at its start, the field given and every round's response "
            f"(labelled {result.policy_name}@round_k) in one tournament: every mix of the pool "
            f"at {result.players} seats ({pool.mixes} mixes), every seat rotation, "
            f"{pool.pool_games:,} deals each, rated by Bradley-Terry log-strengths (choix) with "
            "95% percentile bootstrap intervals over deals (not corrected for the "
            f"{len(ratings)} entries). In pool_ratings.csv."
        )
        + "</p>",
        ratings_figure(ratings),
        _table(["entry", "rating", "95% interval", "from"], rating_rows),
    ]


__all__ = ["ratings_figure", "rounds_section"]
