"""The page of a best-response search (:mod:`fairysim.analysis.strategy.best_response`): the
gain with its corrected interval, the weights against the start's, and what the response does
differently, measured on the fresh deals.

A self-contained HTML string (its one figure, the pool's ratings after ``--rounds``, inline SVG):
the search writes it with its other outputs, all or none. After rounds, the page opens with each
round's field, weights and gain and the pool's Bradley-Terry ratings, sorted, with their intervals
drawn (:mod:`fairysim.analysis.strategy.rounds`). It reads the result's attributes only, so it
imports nothing of the search.
"""

from __future__ import annotations

import html
import math
from typing import Any

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 56rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; line-height: 1.45; }
table { border-collapse: collapse; font-size: .9rem; margin: .5rem 0 1.2rem; }
th, td { border-bottom: 1px solid #ddd; padding: .25rem .6rem; text-align: right; }
th { background: #f4f4f4; }
td:first-child, th:first-child { text-align: left; }
.meta { background: #f7f7f7; border-left: 4px solid #888; padding: .6rem 1rem; }
"""


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _pts(value: float) -> str:
    return f"{100 * value:+.1f} points"


def _interval(low: float, high: float, percent: bool = True, signed: bool = True) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return "-"
    sign = "+" if signed else ""
    if percent:
        return f"[{100 * low:{sign}.1f}, {100 * high:{sign}.1f}]"
    return f"[{low:{sign}.3g}, {high:{sign}.3g}]"


def _level(row: Any) -> str:
    """The confidence of a corrected interval (``95%``, ``98.33%``); ``-`` for a comparison
    left out of its family (no spread to test)."""
    level = float(row["level"])
    return f"{100 * (1 - level):.4g}%" if math.isfinite(level) else "-"


def html_table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def headline(result: Any) -> str:
    """One sentence: the gain on fresh deals with its interval, and the verdict it supports."""
    gain = result.shares.set_index("arm").loc["gain"]
    if result.weights == result.start:
        return (
            f"No candidate of the {len(result.candidates)} searched beat "
            f"{result.policy_name}'s starting weights on the search deals: they are kept, and "
            "no gain is shown."
        )
    verdict = (
        "the response beats the starting weights"
        if gain["significant"] and gain["estimate"] > 0
        else "the starting weights beat the response"
        if gain["significant"]
        else "no gain is shown over the starting weights"
    )
    return (
        f"Gain of the best response over {result.policy_name}'s starting weights: "
        f"{_pts(gain['estimate'])} of win share, {_level(gain)} interval (Holm-corrected) "
        f"{_interval(gain['low'], gain['high'])}, on {int(gain['games']):,} fresh deals "
        f"x {result.players} seat rotations: {verdict}."
    )


def best_response_page(result: Any) -> str:
    """The HTML page of ``result`` (a :class:`~fairysim.analysis.strategy.best_response.
    BestResponse`)."""
    shares = result.shares.set_index("arm")
    fair = 1.0 / result.players
    best, start = shares.loc["best"], shares.loc["start"]
    title = f"{result.title}: best response of {result.policy_name}"
    parts = [
        f"<h1>{html.escape(title)}</h1>",
        f"<p><strong>{html.escape(headline(result))}</strong></p>",
        "<p>"
        + html.escape(
            f"Against the field {', '.join(result.field)} at {result.players} players, the best "
            f"weights found win {_pct(best['estimate'])} "
            f"{_interval(best['low'], best['high'], signed=False)} and the starting weights "
            f"{_pct(start['estimate'])} {_interval(start['low'], start['high'], signed=False)} "
            "(fair share "
            f"{_pct(fair)}). This is a lower bound of how far {result.policy_name}'s family of "
            "strategies exploits this field: the search moves only its weights, within the "
            "ranges below, for a finite budget, and a better response may exist outside them."
        )
        + "</p>",
        "<h2>Win share on fresh deals</h2>",
        html_table(
            ["", "win share", "interval", "level", "against", "significant", "deals"],
            [
                [
                    arm,
                    _pct(row["estimate"]) if arm != "gain" else _pts(row["estimate"]),
                    _interval(row["low"], row["high"], signed=arm == "gain"),
                    _level(row),
                    "fair share" if arm != "gain" else "0",
                    "yes" if row["significant"] else "no",
                    f"{int(row['games']):,}",
                ]
                for arm, row in shares.iterrows()
            ],
        ),
        "<p>"
        + html.escape(
            "One Holm-corrected family of three comparisons at the 5% error rate, each normal "
            "and clustered by deal (a deal's seat rotations are one observation); the best and "
            "the starting weights play the same fresh deals, never used by the search, and the "
            "gain is their difference deal by deal. On the search's own deals the best "
            f"candidate won {_pct(result.candidates['win_share'].max())} and the start "
            f"{_pct(result.start_search_share)}: a figure biased upwards by the selection, "
            "which the fresh deals are not."
        )
        + "</p>",
        "<h2>Weights</h2>",
        html_table(
            ["weight", "best", "start", "searched range"],
            [
                [
                    name,
                    f"{result.weights[name]:.4g}",
                    f"{result.start[name]:.4g}",
                    f"{result.ranges[name][0]:g} to {result.ranges[name][1]:g}",
                ]
                for name in result.weights
            ],
        ),
        "<h2>What it does differently</h2>",
        "<p>"
        + html.escape(
            f"Each of the game's seat columns for {result.policy_name}'s seat on the fresh deals, "
            "best minus start, one Holm-corrected family at the 5% error rate."
        )
        + "</p>",
        html_table(
            ["column", "best", "start", "difference", "interval", "significant", "meaning"],
            [
                [
                    row["column"],
                    f"{row['best']:.3f}",
                    f"{row['start']:.3f}",
                    f"{row['estimate']:+.3f}",
                    _interval(row["low"], row["high"], percent=False),
                    "yes" if row["significant"] else "no",
                    row.get("meaning", ""),
                ]
                for _, row in result.behaviour.iterrows()
            ],
        ),
        "<h2>Search</h2>",
        "<p class='meta'>"
        + html.escape(
            f"CMA-ES (cma) over {len(result.candidates)} candidates of {result.games:,} deals "
            f"each x {result.players} seat rotations, every candidate on the same deals (seed "
            f"{result.seed}, games 0 to {result.games - 1}); validation on games {result.games} "
            f"to {result.games + result.validation_games - 1}. "
            + (f"The optimiser stopped early ({result.stopped}). " if result.stopped else "")
            + "Every candidate is in search.parquet; the weights in weights.toml load with "
            "--weights-file."
        )
        + "</p>",
    ]
    parts[2:2] = rounds_section(result)
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>"
        + "\n".join(parts)
        + "</body></html>\n"
    )


def _pp_interval(low: float, high: float) -> str:
    return f"[{100 * low:+.1f}, {100 * high:+.1f}] pp"


def ratings_figure(ratings: Any) -> str:
    """The pool's ratings, strongest on top, each with its 95% bootstrap interval (inline
    SVG; matplotlib without pyplot, so the page owes nothing to the reports' plotting)."""
    import io

    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    frame = ratings.sort_values("rating", ascending=False)
    fig = Figure(figsize=(7.0, 0.45 * len(frame) + 1.4), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    y = np.arange(len(frame))[::-1]
    values = frame["rating"].to_numpy(float)
    err = np.vstack([values - frame["low"].to_numpy(float), frame["high"].to_numpy(float) - values])
    ax.errorbar(values, y, xerr=np.nan_to_num(err), fmt="o", color="C0", capsize=3, lw=1)
    ax.axvline(0.0, color="#666", ls="--", lw=1)
    ax.set_yticks(y, list(frame["entry"]))
    ax.set_xlabel("Bradley-Terry log-strength (centred on 0; +0.69 = twice the odds)")
    ax.set_title("The pool by rating, strongest first (95% intervals)", fontsize="medium")
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None})
    svg = buffer.getvalue()
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
                _pp_interval(gain["low"], gain["high"]),
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
            "weights on fresh deals, Holm-corrected within its round. Whether a later response "
            "beats the earlier ones is read from the pool's ratings below, not from these gains. "
            "Each round's files are in rounds/round_k/."
        )
        + "</p>",
        html_table(["round", "field", "weights", "gain", "interval", "gain shown"], rows),
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
        html_table(["entry", "rating", "95% interval", "from"], rating_rows),
    ]


__all__ = ["best_response_page", "headline", "ratings_figure", "rounds_section"]
