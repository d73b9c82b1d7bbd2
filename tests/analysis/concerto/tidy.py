"""Tidy Concerto frames built by hand, for the per-run functions; a report page as text."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from fairysim.sim.concerto.rules import CONTESTS


def frame(scores, parts=None, players=None, **columns) -> pd.DataFrame:
    """A tidy frame by hand: ``scores[g][s]``; ``parts[name][g][s]`` for the contest parts."""
    scores = np.asarray(scores)
    n, seats = scores.shape
    data = {
        "game": np.repeat(np.arange(n), seats),
        "seat": np.tile(np.arange(seats), n),
        "players": players if players is not None else seats,
        "score": scores.ravel(),
    }
    for name in CONTESTS:
        data[name] = np.asarray((parts or {}).get(name, np.zeros_like(scores))).ravel()
    for name, values in columns.items():
        data[name] = np.asarray(values).ravel()
    return pd.DataFrame(data)


def text_of(page: str) -> str:
    """The page's visible text (figures and markup dropped, entities kept simple)."""
    page = re.sub(r'src="data:[^"]*"', "", page)
    page = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    page = re.sub(r"</?span[^>]*>", "", page)  # inline marks (a verdict, a definition) add no space
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace("&#x27;", "'")
