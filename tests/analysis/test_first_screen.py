"""The first screen of every report, opened in a real browser at 1400 x 900: the answer card is
on it and no paragraph about methods is (the run block, the precision note and how to read the
intervals sit in a closed fold under the card).

Headless Chromium from Debian's packages driven through selenium, as
``test_pages_in_browser.py`` does; the pages are small studies of every report
(``report_pages.py``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .report_pages import write_reports

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

pytestmark = pytest.mark.skipif(
    not (Path(CHROMIUM).exists() and Path(DRIVER).exists()),
    reason="needs Debian's chromium and chromium-driver (.ci/run installs them)",
)

WIDTH, HEIGHT = 1400, 900
"""The browser window, in CSS pixels."""

METHOD_WORDS = ("Played to a precision", "How to read the numbers", "Reproduce with")
"""Words that open the methods' paragraphs."""

VISIBLE_TEXT = """
const height = window.innerHeight;
const out = [];
for (const el of document.querySelectorAll('p, li, h1, h2, h3, td, th, summary')) {
  const box = el.getBoundingClientRect();
  if (box.height > 0 && box.top < height && box.bottom > 0) out.push(el.innerText);
}
return out;
"""

CARD_BOX = """
const card = document.querySelector('section.answer');
if (!card) return null;
const box = card.getBoundingClientRect();
return [box.top, box.bottom, card.innerText];
"""


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--window-size={WIDTH},{HEIGHT}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_window_size(WIDTH, HEIGHT)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    return write_reports(tmp_path_factory.mktemp("first_screen"))


@pytest.mark.parametrize("name", ["fantastique", "concerto", "concerto-solo", "fairyland"])
def test_the_first_screen_is_the_answer_card(browser, written, name):
    report, path = written[name]
    browser.get(path.as_uri())
    top, _bottom, text = browser.execute_script(CARD_BOX)
    height = browser.execute_script("return window.innerHeight;")
    assert top < height / 3, (name, top)  # the card starts near the top of the first screen
    first = report.answers[0]
    assert first.topic in text and first.headline() in text
    visible = browser.execute_script(VISIBLE_TEXT)
    assert any(first.headline() in line for line in visible)
    methods = [line for line in visible if any(word in line for word in METHOD_WORDS)]
    assert methods == [], (name, methods)
    # the methods are on the page, folded: opening the fold shows them
    browser.execute_script("document.querySelector('details.methods').open = true;")
    folded = browser.execute_script("return document.querySelector('details.methods').innerText;")
    assert "How to read the numbers" in folded
