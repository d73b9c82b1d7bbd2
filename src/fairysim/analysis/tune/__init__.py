"""``fairysim tune``: the fewest card-file changes that bring a game within a designer's targets.

The package reads a targets file (:mod:`.targets`), measures a card file as the reports do
(:mod:`.measures`), evaluates candidates on common seeds and replays finalists on fresh ones
(:mod:`.evaluate`), searches with Optuna (:mod:`.search`) and writes the results (:mod:`.run`).
"""

from fairysim.analysis.tune.run import TuneResult, tune

__all__ = ["TuneResult", "tune"]
