"""The shared figure helpers: tick labels that never repeat, the check that finds repeats, the
heatmap centred on its reference, and the corrected intervals a figure draws."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from matplotlib.ticker import PercentFormatter

from fairysim.analysis.report.plots import (
    corrected_intervals,
    facing_ses,
    mean_reference,
    new_figure,
    percent_formatter,
    points_ci,
    points_formatter,
    reference_heatmap,
    repeated_tick_labels,
)
from fairysim.stats.corrections import correct_family


def _narrow_axis(formatter):
    fig, (ax,) = new_figure(4, 3)
    ax.plot([0, 1], [0.238, 0.262])
    ax.set_ylim(0.238, 0.262)
    ax.set_title("narrow")
    ax.yaxis.set_major_formatter(formatter)
    return fig


def test_the_check_finds_repeated_labels_a_fixed_decimal_formatter_makes():
    found = repeated_tick_labels(_narrow_axis(PercentFormatter(xmax=1.0, decimals=0)))
    assert len(found) == 1
    assert "'narrow'" in found[0] and "y axis" in found[0] and "24%, 24%" in found[0]


@pytest.mark.parametrize("minimum", [None, 0, 1])
def test_percent_labels_take_the_decimals_they_need(minimum):
    fig = _narrow_axis(percent_formatter(minimum))
    assert repeated_tick_labels(fig) == []
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels() if t.get_text()]
    assert len(labels) >= 3
    assert all(label.endswith("%") for label in labels)
    decimals = {len(label[:-1].partition(".")[2]) for label in labels}
    assert len(decimals) == 1 and decimals.pop() >= max(minimum or 0, 1)


def test_percent_and_points_text():
    f = percent_formatter()
    f.set_locs([0.0, 0.25, 0.5])
    assert [f(v) for v in (0.0, 0.25, 0.5)] == ["0%", "25%", "50%"]
    f.set_locs([0.24, 0.245, 0.25])
    assert [f(v) for v in (0.24, 0.245, 0.25)] == ["24.0%", "24.5%", "25.0%"]
    g = points_formatter()
    g.set_locs([-0.01, 0.0, 0.01, 0.02])
    assert [g(v) for v in (-0.01, 0.0, 0.01, 0.02)] == ["-1 pp", "0", "+1 pp", "+2 pp"]
    g.set_locs([0.0, 0.005, 0.01])
    assert [g(v) for v in (0.0, 0.005, 0.01)] == ["0", "+0.5 pp", "+1.0 pp"]


def test_mean_reference_matches_the_variance_by_hand():
    values, ses, weights = [0.5, 0.6, 0.7], [0.01, 0.02, 0.03], [1.0, 1.0, 2.0]
    reference, dse = mean_reference(values, ses, weights)
    w = np.array(weights) / 4
    assert reference == pytest.approx(float(np.dot(w, values)))
    # cell 0 minus the mean = (1 - w0) x0 - w1 x1 - w2 x2
    expected0 = np.sqrt((1 - w[0]) ** 2 * 0.01**2 + (w[1] * 0.02) ** 2 + (w[2] * 0.03) ** 2)
    assert dse[0] == pytest.approx(expected0)
    _, equal = mean_reference([0.1, np.nan, 0.3], [0.01, 0.01, 0.01])
    assert np.isnan(equal[1]) and equal[0] == pytest.approx(np.sqrt(0.5**2 + 0.5**2) * 0.01)


def test_reference_heatmap_outlines_exactly_the_corrected_cells():
    estimates = pd.DataFrame([[0.50, 0.51], [0.60, 0.49]], index=["a", "b"], columns=["x", "y"])
    ses = pd.DataFrame(0.01, index=estimates.index, columns=estimates.columns)
    fig, (ax,) = new_figure(5, 3)
    family = reference_heatmap(
        ax, estimates, ses, 0.5, reference_label="a half", title="t", xlabel="x", ylabel="y"
    )
    expected = correct_family((estimates.to_numpy() - 0.5).ravel(), [0.01] * 4)
    assert family["significant"].tolist() == expected["significant"].tolist() == [
        False, False, True, False
    ]  # fmt: skip
    outlined = [p for p in ax.patches if not p.get_fill()]
    assert len(outlined) == 1
    x, y = outlined[0].get_xy()
    assert (round(x + 0.48), round(y + 0.48)) == (0, 1)  # column x, row b
    norm = ax.images[0].norm
    assert norm.vmin == pytest.approx(-norm.vmax)  # centred on the reference
    assert norm.vmax == pytest.approx(max(abs(expected["low"]).max(), expected["high"].max()))
    texts = [t.get_text() for t in ax.texts]
    assert texts[2].startswith("60.0%") and "±" in texts[2]
    assert "Holm" in ax.get_xlabel() and "4 cells" in ax.get_xlabel()
    assert repeated_tick_labels(fig) == []


def test_corrected_intervals_correct_an_uncorrected_table_and_keep_a_corrected_one():
    raw = pd.DataFrame({"gain": [0.03, 0.021], "se": [0.01, 0.01], "low": [0.0, 0.0],
                        "high": [0.0, 0.0], "significant": [True, True]})  # fmt: skip
    c = corrected_intervals(raw, "gain", "low", "high")
    expected = correct_family([0.03, 0.021], [0.01, 0.01])
    assert c["corrected_here"].all()
    assert c["significant"].tolist() == expected["significant"].tolist()
    assert c["low"].to_numpy() == pytest.approx(expected["low"].to_numpy())
    done = raw.assign(p_adjusted=[0.01, 0.2], significant=[True, False])
    kept = corrected_intervals(done, "gain", "low", "high")
    assert not kept["corrected_here"].any()
    assert kept["significant"].tolist() == [True, False]
    assert kept["low"].tolist() == [0.0, 0.0]


def test_facing_ses_take_the_half_of_the_interval_towards_the_reference():
    est = pd.DataFrame({"x": [1.0, 0.2]})
    low = pd.DataFrame({"x": [0.74, 0.1]})
    high = pd.DataFrame({"x": [1.0, 0.4]})
    ses = facing_ses(est, low, high, 0.5, z=2.0)
    assert ses["x"].tolist() == pytest.approx([0.13, 0.1])  # 11/11 keeps its long lower half
    per_column = facing_ses(est, low, high, pd.Series({"x": 0.1}), z=2.0)
    assert per_column["x"].tolist() == pytest.approx([0.13, 0.05])


def test_a_tick_between_whole_points_gets_its_decimal():
    g = points_formatter()
    g.set_locs([-0.1, -0.075, -0.05, -0.025, 0.0, 0.025])
    assert [g(v) for v in (-0.075, 0.0, 0.025)] == ["-7.5 pp", "0", "+2.5 pp"]
    f = percent_formatter()
    f.set_locs([0.2, 0.225, 0.25])
    assert f(0.225) == "22.5%"


def test_a_crowded_panels_legend_covers_no_point():
    """Every corner of a panel of many rows holds a point (Fantastique's fan gains hid one under
    a legend drawn inside): the legend goes beside the axes."""
    fig, (ax,) = new_figure(5, 4)
    rows = [f"row {i}" for i in range(6)]
    series = {
        f"{n} players": (np.linspace(-1, 9, 6)[::-1], np.linspace(-3, 7, 6)[::-1],
                         np.linspace(1, 11, 6)[::-1], np.arange(6) % 2 == 0)
        for n in (2, 3, 4, 5)
    }  # fmt: skip
    points_ci(ax, rows, series, xlabel="gain (percentage points)", reference_label="no gain")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    assert legend.x0 >= ax.get_window_extent(renderer).x1
    assert [t.get_text() for t in ax.get_legend().get_texts()][-1] == "hollow: not significant"
