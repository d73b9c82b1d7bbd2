"""Every report page opened in a real browser: its figures load and nothing runs past the page.

Headless Chromium from Debian's packages (``chromium`` and ``chromium-driver``, which
``.ci/run`` installs) driven through selenium. The pages are small studies of every report.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .chromium import headless_chromium, needs_chromium

pytestmark = needs_chromium

WIDTH, HEIGHT = 1280, 900
"""The browser window, in CSS pixels: a laptop screen."""


def build_pages(folder: Path) -> list[Path]:
    """One small page of every report."""
    from fairysim.analysis.concerto import report as concerto
    from fairysim.analysis.concerto import solo_report
    from fairysim.analysis.concerto.solo_study import solo_study
    from fairysim.analysis.concerto.study import card_balance
    from fairysim.analysis.fairyland import report as fairyland
    from fairysim.analysis.fairyland.study import fairyland_study
    from fairysim.analysis.fantastique import report as fantastique
    from fairysim.analysis.fantastique.study import fan_strength
    from fairysim.analysis.studies.card_effects import card_effects
    from fairysim.analysis.studies.ladder import ladder_study

    return [
        fantastique.build_report(
            fan_strength(60, 2, players=(2, 3)),
            card_effects("fantastique", players=(2, 3, 4, 5), games=300, seed=2),
            ladder_study("fantastique", players=(2, 3, 4, 5), games=300, seed=2),
        ).write(folder / "f"),
        concerto.build_report(
            card_balance(games=200, seed=2, players=(2,)),
            card_effects("concerto", players=(2, 3, 4), games=200, seed=2),
            ladder_study("concerto", players=(2, 3, 4), games=300, seed=2),
        ).write(folder / "c"),
        solo_report.build_report(
            solo_study(games=300, seed=2, lookahead_games=20, search_games=0),
            card_effects("concerto", players=1, games=300, seed=2),
        ).write(folder / "s"),
        fairyland.build_report(
            fairyland_study(games=120, seed=2, players=(2,), auction_games=5),
            card_effects("fairyland", players=(2,), games=100, seed=2, court="random"),
            ladder_study("fairyland", players=(2, 3, 4), games=200, seed=2, court="random"),
        ).write(folder / "l"),
    ]


@pytest.fixture(scope="module")
def browser():
    yield from headless_chromium(WIDTH, HEIGHT)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    return build_pages(tmp_path_factory.mktemp("pages"))


def test_every_figure_loads_and_nothing_runs_past_the_page(browser, pages):
    for page in pages:
        browser.get(page.as_uri())
        images = browser.execute_script(
            "return [...document.images].map(i => [i.complete, i.naturalWidth, i.alt]);"
        )
        assert images, page.name
        broken = [alt for complete, width, alt in images if not (complete and width > 0)]
        assert broken == [], (page.name, broken)
        overflow = browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;"
        )
        assert overflow <= 0, (page.name, overflow)
        wide = browser.execute_script(
            "return [...document.querySelectorAll('img')]"
            ".filter(i => i.getBoundingClientRect().right > document.body.getBoundingClientRect()"
            ".right + 1).map(i => i.alt);"
        )
        assert wide == [], (page.name, wide)
