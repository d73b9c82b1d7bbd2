"""The what-if figure draws every who-wins row the tables hold, sorted by the largest change,
with labelled axes in percentage points and an interval per point."""

from __future__ import annotations

import pandas as pd

from fairysim.analysis.report.what_if import difference_figure


def _row(variant, group, index, metric, where, difference, separated=False):
    return {
        "variant": variant,
        "group": group,
        "index": index,
        "metric": metric,
        "where": where,
        "question": "who wins" if metric in ("win_share", "turn_order_spread") else "supporting",
        "difference": difference,
        "low": difference - 0.02,
        "high": difference + 0.02,
        "separated": separated,
        "level": 0.99,
    }


def test_every_who_wins_row_is_drawn_sorted_by_the_largest_change():
    rows = [
        _row("a", "turn position", 0, "win_share", "1st to act", 0.01),
        _row("a", "turn position", 1, "win_share", "2nd to act", -0.01),
        _row("a", "seat", 0, "win_share", "seat 0 (hoarder)", 0.086, separated=True),
        _row("a", "seat", 1, "win_share", "seat 1 (greedy)", -0.03, separated=True),
        _row("a", "pooled", -1, "turn_order_spread", "2nd to act", 0.005),
        _row("a", "pooled", -1, "score", "pooled", 3.3, separated=True),
        _row("b", "turn position", 0, "win_share", "1st to act", 0.05, separated=True),
        _row("b", "turn position", 1, "win_share", "2nd to act", -0.05, separated=True),
        _row("b", "seat", 0, "win_share", "seat 0 (hoarder)", 0.0),
        _row("b", "seat", 1, "win_share", "seat 1 (greedy)", 0.0),
        _row("b", "pooled", -1, "turn_order_spread", "4th to act -> 1st to act", 0.02),
    ]
    fig = difference_figure(pd.DataFrame(rows), "test")
    (ax,) = fig.axes
    labels = [tick.get_text() for tick in ax.get_yticklabels()]
    # Five who-wins rows (score is not drawn), the hoarder's seat (8.6 pp) on top.
    assert labels == [
        "seat 0 (hoarder)",
        "1st to act",
        "2nd to act",
        "seat 1 (greedy)",
        "turn-order spread\n(farthest from fair)",
    ]
    assert "pp" in ax.get_xlabel() and "variant minus baseline" in ax.get_xlabel()
    # One point with its whisker per (row, variant): 5 rows x 2 variants.
    assert len(ax.containers) == 10
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert legend == ["a", "b", "hollow: not separated (Holm)"]
