"""The Fairy Land figures: one ranking sorted with its intervals drawn, labelled axes, the
PROVISIONAL court named."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure

from fairysim.analysis.fairyland import figures
from fairysim.analysis.fairyland.runs import GAME_MEASURES
from fairysim.analysis.report.plots import repeated_tick_labels

DRAWERS = (
    figures.card_balance_figure,
    figures.card_collect_figure,
    figures.auction_figure,
    figures.court_figure,
    figures.length_figure,
)


@pytest.fixture(scope="module")
def drawn(study):
    return {f.__name__: f(study) for f in DRAWERS}


def test_card_balance_is_one_figure_sorted_with_intervals(study, drawn):
    fig = drawn["card_balance_figure"]
    (lift_ax,) = fig.axes
    pooled = study.cards_pooled
    labels = [t.get_text() for t in lift_ax.get_yticklabels()]
    rows = lift_ax.get_yticks()
    top_down = [label for _, label in sorted(zip(rows, labels, strict=True), reverse=True)]
    assert top_down == list(pooled["label"])  # highest lift on top
    points = [line for line in lift_ax.get_lines() if line.get_marker() == "o"]
    assert len(points) == len(pooled)
    y = np.array([line.get_ydata()[0] for line in points])
    x = np.array([line.get_xdata()[0] for line in points])
    order = np.argsort(-y)
    finite = np.isfinite(x[order])
    assert (np.diff(x[order][finite]) <= 1e-12).all()  # lifts fall from top to bottom
    whiskers = [c for c in lift_ax.collections if isinstance(c, LineCollection)]
    assert len(whiskers) == len(pooled)  # one interval per card type
    for line, significant in zip(points, pooled["significant"], strict=True):
        hollow = line.get_markerfacecolor() in ("white", (1.0, 1.0, 1.0, 1.0))
        assert hollow == (not significant)
    assert "PROVISIONAL" in lift_ax.get_title()


def test_collection_shares_are_sorted_with_intervals(study, drawn):
    (ax,) = drawn["card_collect_figure"].axes
    pooled = study.cards_pooled.set_index("label")
    rows = ax.get_yticks()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    top_down = [label for _, label in sorted(zip(rows, labels, strict=True), reverse=True)]
    shares = pooled.loc[top_down, "collect_share"].to_numpy(float)
    assert sorted(top_down) == sorted(pooled.index)
    assert (np.diff(shares) <= 1e-12).all()
    whiskers = [c for c in ax.collections if isinstance(c, LineCollection)]
    assert len(whiskers) == 1 and len(whiskers[0].get_segments()) == len(pooled)


@pytest.mark.parametrize("measure", figures.COURT_FIGURE_MEASURES)
def test_one_court_figure_per_measure(study, measure):
    fig = figures.court_figure(study, measure)
    (ax,) = fig.axes
    (m,) = [g for g in GAME_MEASURES if g.column == measure]
    assert ax.get_xlabel().startswith(m.label) and "difference (" in ax.get_xlabel()
    effects = study.court_effects
    shown = effects[(effects["measure"] == measure) & (effects["baseline"] == "none")]
    points = [line for line in ax.get_lines() if line.get_marker() in ("o", "s", "D")]
    assert len(points) == len(shown)


@pytest.mark.parametrize("name", [f.__name__ for f in DRAWERS])
def test_every_axis_is_labelled(drawn, name):
    fig = drawn[name]
    assert isinstance(fig, Figure)
    for ax in fig.axes:
        if not ax.get_visible() or ax.get_label() == "<colorbar>":
            continue
        assert ax.get_xlabel(), (name, ax.get_title())
    title = fig.get_suptitle() or fig.axes[0].get_title()
    assert "PROVISIONAL" in title
    assert repeated_tick_labels(fig) == [], name
