"""Sweeps: a grid of setups x lineups of any registered game, played on Dask distributed, one
file per finished cell.

A *cell* is one point of the grid (a player count, a value of each of the game's setup axes, each
fixed or drawn per game, and a lineup of seat policies) played for ``games`` games with the
sweep's seed. Each cell's games are split into tasks of ``task_games`` consecutive games; a task
runs on a Dask worker and sends back only per-seat sums and sums of squares, so a task of
millions of games returns a few hundred bytes. When the last task of a cell is in, the cell is
written atomically to ``OUT_DIR/cells/<cell>.json``; a stopped sweep run again with the same
arguments skips those cells and plays only the rest.

Game ``i`` of a cell depends only on ``(seed, i)``, and the sums are folded chunk by chunk in
game order exactly as ``simulate_summary`` folds them, so a cell's numbers are those of
``simulate_summary(spec.make_setup(...), games)`` whatever ``task_games``, the number of workers
or the machines. A cell whose lineup mixes policies is played as ``simulate`` plays it, on every
rotation of its seats on the same deals (:mod:`fairysim.sim.rotation`): its ``games`` count
deals, a task is one chunk of deals on every rotation, and its numbers are those of
``rotated_summary(setup, games)``.

Everything game-specific comes from the game's :class:`~fairysim.sim.game.GameSpec`: the axes,
the seat columns, ``make_setup`` and ``play_chunks``. One module per job:

:mod:`.cells`
    The grid: axes, lineups, validated cells and what a worker rebuilds a setup from.
:mod:`.tasks`
    What a worker runs: a game range of a cell, per-seat sums back.
:mod:`.store`
    The folder: manifest, cell files, summary, atomic writes, resume checks.
:mod:`.cluster`
    The local cluster, or the running scheduler of ``--scheduler``.
:mod:`.run`
    :func:`run_sweep`, tying them together.
:mod:`.pairings`
    A tournament's (mix, rotation) games as tasks on the same clusters
    (:func:`fairysim.analysis.tournament.play.play_tournament` with ``scheduler`` or ``workers``).
"""

from fairysim.sweep.cells import RANDOM, CellSetup, CellSpec, Plan, plan_cells
from fairysim.sweep.run import run_sweep
from fairysim.sweep.store import (
    SWEEP_SCHEMA_VERSION,
    check_out_dir,
    iter_cells,
    read_sweep,
    write_atomic,
)
from fairysim.sweep.tasks import DEFAULT_TASK_GAMES, TaskResult, run_task, task_pieces

__all__ = [
    "DEFAULT_TASK_GAMES",
    "RANDOM",
    "SWEEP_SCHEMA_VERSION",
    "CellSetup",
    "CellSpec",
    "Plan",
    "TaskResult",
    "check_out_dir",
    "iter_cells",
    "plan_cells",
    "read_sweep",
    "run_sweep",
    "run_task",
    "task_pieces",
    "write_atomic",
]
