"""Analysis pipelines: statistics on tidy results, balance tables, figures and reports.

Nothing here plays a game except through the public ``simulate`` functions of :mod:`fairysim.sim`.
"""

from fairysim.analysis.stats import (
    PairedDifference,
    decisiveness,
    lead_changes,
    paired_difference,
    seat_advantage,
    seat_test,
    wilson_interval,
    win_rates,
    winning_margins,
)

__all__ = [
    "PairedDifference",
    "decisiveness",
    "lead_changes",
    "paired_difference",
    "seat_advantage",
    "seat_test",
    "wilson_interval",
    "win_rates",
    "winning_margins",
]
