"""Shared by the games' trace tests: a traced run plays the games of an untraced one, and its
last round's standing is the final score."""

from __future__ import annotations

import numpy as np


def assert_a_trace_changes_no_game(plain: dict, with_trace: dict, trace: str) -> None:
    """``with_trace`` holds ``plain``'s arrays, equal, and one more, ``trace`` (games, seats,
    rounds), whose last round is the score."""
    assert set(with_trace) - set(plain) == {trace}
    for key, values in plain.items():
        np.testing.assert_array_equal(with_trace[key], values, err_msg=key)
    np.testing.assert_array_equal(with_trace[trace][:, :, -1], plain["score"])
