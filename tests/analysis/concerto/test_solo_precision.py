"""The solo report plays to ``--precision`` like the other reports: its fast policies' win
rates against Pahha are watched, the looks split the error rate, the slow policies' fixed runs
are played once, and the command line takes the option."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fairysim.analysis.concerto import solo_study as solo
from fairysim.analysis.concerto.declaration import SOLO_REPORT
from fairysim.analysis.concerto.solo_report import SOLO
from fairysim.analysis.report.pipeline import play_study
from fairysim.cli.report import precision_options
from fairysim.runtime.errors import FairysimError

PRECISION = 0.025


def test_a_precision_run_stops_at_the_first_look_whose_intervals_meet_it():
    kept: dict = {}
    played = []

    def run(games: int, alpha: float) -> solo.SoloStudy:
        played.append((games, alpha))
        return solo.solo_study(
            games, 3, 40, ("greedy", "random", "lookahead"), search_games=0, alpha=alpha,
            kept=kept,
        )  # fmt: skip

    study = play_study(
        run, None, 1_000, PRECISION, 16_000, half_width=solo.fast_policy_half_width,
        watched=SOLO.precision_watched,
    )  # fmt: skip
    looks = study.meta["precision_looks"]
    assert looks == [n for n, _ in played] and looks[0] == 1_000 and len(looks) >= 2
    assert looks[-1] < 16_000  # stopped before the cap
    assert study.meta["games"] == looks[-1]
    # the last look meets the precision, the look before it did not
    assert solo.fast_policy_half_width(study) <= PRECISION
    alpha = played[-1][1]
    assert alpha < 0.05 and study.meta["alpha"] == alpha  # the error rate split over the looks
    before = solo.solo_study(
        looks[-2], 3, 40, ("greedy", "random", "lookahead"), search_games=0, alpha=alpha, kept=kept
    )
    assert solo.fast_policy_half_width(before) > PRECISION
    p = study.policies.set_index("policy")
    assert (p.loc[["greedy", "random"], "games"] == looks[-1]).all()
    assert p.loc["lookahead", "games"] == 40  # the slow policy keeps its own count ...
    assert list(kept).count(("lookahead", 40)) == 1  # ... played once over every look
    assert (
        "precision reached: every fast policy's win rate against Pahha"
        in (study.meta["precision_reached"])
    )


def test_the_command_line_takes_precision_for_the_solo_report():
    options = {"precision": 0.01, "max_games": 50_000, "games": None}
    assert precision_options(SOLO_REPORT, options) == {"precision": 0.01, "max_games": 50_000}
    assert SOLO.resolve(None, None, None, None, {"precision": 0.01}).options["precision"] == 0.01
    fixed = replace(SOLO_REPORT, precision_watches="")
    with pytest.raises(FairysimError, match="plays a fixed count: give --games"):
        precision_options(fixed, options)
