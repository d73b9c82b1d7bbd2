"""Every figure of every report, built from a small study: no axis repeats a tick label, every
axis is labelled, and the rankings the issue named are drawn sorted."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from matplotlib.figure import Figure

from fairysim.analysis.report import page
from fairysim.analysis.report.plots import repeated_tick_labels

GAMES = 200
SEED = 7


def _fantastique():
    from fairysim.analysis.fantastique.report import build_report
    from fairysim.analysis.fantastique.study import fan_strength

    return fan_strength(GAMES, SEED), build_report


def _concerto():
    from fairysim.analysis.concerto.report import build_report
    from fairysim.analysis.concerto.study import card_balance

    return card_balance(games=GAMES, seed=SEED), build_report


def _concerto_solo():
    from fairysim.analysis.concerto.solo_report import build_report
    from fairysim.analysis.concerto.solo_study import solo_study

    return solo_study(games=GAMES, seed=SEED, lookahead_games=20, search_games=0), build_report


def _fairyland():
    from fairysim.analysis.fairyland.report import build_report
    from fairysim.analysis.fairyland.study import fairyland_study

    return fairyland_study(games=GAMES, seed=SEED, auction_games=2), build_report


REPORTS = {
    "fantastique": _fantastique,
    "concerto": _concerto,
    "concerto-solo": _concerto_solo,
    "fairyland": _fairyland,
}


@functools.cache
def built(game: str) -> tuple[object, dict[str, Figure]]:
    """``(study, {figure name: Figure})`` of one report built in memory, once per session."""
    study, build = REPORTS[game]()
    drawn: dict[str, Figure] = {}
    original = page.Report.figure

    def keep(self, name, fig, *args, **kwargs):
        drawn[name] = fig
        return original(self, name, fig, *args, **kwargs)

    mp = pytest.MonkeyPatch()
    mp.setattr(page.Report, "figure", keep)
    try:
        build(study)
    finally:
        mp.undo()
    assert drawn, game
    return study, drawn


@pytest.fixture(params=sorted(REPORTS))
def report_figures(request):
    """``(game, study, {figure name: Figure})`` of each report."""
    return (request.param, *built(request.param))


def test_no_figure_repeats_a_tick_label(report_figures):
    game, _, drawn = report_figures
    found = {name: repeated_tick_labels(fig) for name, fig in drawn.items()}
    assert {name: f for name, f in found.items() if f} == {}, game


def test_every_axis_is_labelled(report_figures):
    game, _, drawn = report_figures
    for name, fig in drawn.items():
        for ax in fig.axes:
            if not ax.get_visible() or ax.get_label() == "<colorbar>":
                continue
            assert ax.get_xlabel().strip(), (game, name, ax.get_title())


def _rows_top_down(ax) -> list[str]:
    ticks = [(t.get_position()[1], t.get_text()) for t in ax.get_yticklabels()]
    return [text for _, text in sorted(ticks, reverse=True)]


def _falls(values) -> bool:
    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    return bool((np.diff(v) <= 1e-12).all())


def test_concerto_rankings_are_sorted():
    balance, drawn = built("concerto")
    completion = balance.score_cards_pooled.set_index("card")["completion"]
    rows = _rows_top_down(drawn["score_cards"].axes[0])
    assert _falls([completion[r.split(":")[0]] for r in rows])
    lift = balance.score_cards_pooled.set_index("card")["lift"]
    rows = _rows_top_down(drawn["score_card_lift"].axes[0])
    assert _falls([lift[r.split(":")[0]] for r in rows])
    decides = balance.contests_pooled["decides"]
    assert len(_rows_top_down(drawn["contests"].axes[0])) == len(decides)
    p = balance.popularity.assign(excess=lambda t: t["leader_win_share"] - t["fair"])
    mean = p.groupby("popularity_kind")["excess"].mean()
    assert _falls([mean[k] for k in _rows_top_down(drawn["popularity"].axes[0])])
    legend = [t.get_text() for t in drawn["popularity"].axes[0].get_legend().get_texts()]
    assert "fair share (1/players)" in legend


def test_solo_setup_cards_are_sorted_and_margins_are_small_multiples():
    study, drawn = built("concerto-solo")
    sc = study.setup_cards[study.setup_cards["policy"] == "greedy"]
    share = {f"{r.contest} {r.card}": r.win_share for r in sc.itertuples(index=False)}
    assert _falls([share[r] for r in _rows_top_down(drawn["setup_cards"].axes[0])])
    panels = [ax for ax in drawn["margins"].axes if ax.get_visible()]
    assert len(panels) == study.margins["policy"].nunique()
    for ax in panels:
        assert "lost" in ax.get_title() and "[" in ax.get_title()


def test_fantastique_gain_shows_every_player_count():
    strength, drawn = built("fantastique")
    fig = drawn["gain"]
    lineups = strength.gains["lineup"].nunique()
    assert len(fig.axes) == lineups
    counts = strength.gains["players"].nunique()
    for ax in fig.axes:
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert sum(text.endswith("players") for text in legend) == counts
        assert "no gain" in legend


@pytest.mark.parametrize(
    ("game", "figure"),
    [
        ("fantastique", "decides"),
        ("concerto-solo", "setups"),
        ("concerto-solo", "setups_lookahead"),
    ],
)
def test_heatmaps_are_centred_and_mark_corrected_cells(game, figure):
    _, drawn = built(game)
    ax = drawn[figure].axes[0]
    norm = ax.images[0].norm
    assert norm.vmin == pytest.approx(-norm.vmax)
    assert "Holm" in ax.get_xlabel()
    cells = [t.get_text() for t in ax.texts if "%" in t.get_text()]
    assert cells and all("±" in text for text in cells)
