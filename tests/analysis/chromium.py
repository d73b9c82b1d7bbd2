"""Headless Chromium for the tests that open report pages in a real browser: Debian's
``chromium`` and ``chromium-driver`` (which ``.ci/run`` installs), driven through selenium,
started with the flags this machine's closed network needs."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

needs_chromium = pytest.mark.skipif(
    not (Path(CHROMIUM).exists() and Path(DRIVER).exists()),
    reason="needs Debian's chromium and chromium-driver (.ci/run installs them)",
)
"""Skips a test where the browser is missing (a machine without ``.ci/run``'s install)."""


def headless_chromium(width: int, height: int, viewport: bool = False) -> Iterator:
    """A selenium driver of a window ``width`` x ``height`` CSS pixels, quit when the generator
    closes (a fixture's ``yield from``); with ``viewport`` the page's own viewport is exactly
    that size, whatever the window's frame takes."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--window-size={width},{height}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    if viewport:
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
    try:
        yield driver
    finally:
        driver.quit()
