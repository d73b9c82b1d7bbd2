"""The Fairy Land figures: one ranking sorted with its intervals drawn, labelled axes, the
PROVISIONAL court named."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure

from fairysim.analysis.fairyland import figures

DRAWERS = (
    figures.card_balance_figure,
    figures.auction_figure,
    figures.court_figure,
    figures.length_figure,
)


@pytest.fixture(scope="module")
def drawn(study):
    return {f.__name__: f(study) for f in DRAWERS}


def test_card_balance_is_one_figure_sorted_with_intervals(study, drawn):
    fig = drawn["card_balance_figure"]
    share_ax, lift_ax = fig.axes[:2]
    pooled = study.cards_pooled
    labels = [t.get_text() for t in share_ax.get_yticklabels()]
    rows = share_ax.get_yticks()
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
    assert "PROVISIONAL" in fig.get_suptitle()


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
