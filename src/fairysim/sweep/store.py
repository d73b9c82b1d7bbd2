"""A sweep's folder: the manifest, one file per finished cell, the summary; atomic writes and the
checks that let a stopped sweep resume and refuse another sweep's folder.

``sweep.json``
    The manifest: the sweep's configuration (everything that decides a number), the package
    version and the cell ids. A later run with another configuration is refused.
``cells/<cell>.json``
    One finished cell: its key, setup, the package version, and per-seat games, sums and sums of
    squares of every seat column (floats written exactly, so a resumed sweep gives the same
    numbers as an uninterrupted one).
``summary.parquet``
    One row per cell and seat (:func:`cell_frame`); the manifest is in its metadata.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fairysim.errors import FairysimError
from fairysim.files import folder_option, probe_folder, write_text
from fairysim.sim.batch import SeatAggregate
from fairysim.sweep.cells import CellSpec

SWEEP_SCHEMA_VERSION = 1
"""Version of the layout of ``sweep.json`` and the cell files; bumped on any change."""

MANIFEST_NAME = "sweep.json"
CELLS_DIR = "cells"
SUMMARY_NAME = "summary.parquet"


def check_out_dir(out_dir: str | Path, option: str = "--out-dir") -> Path:
    """Return ``out_dir`` as a Path if the sweep can write there; raise naming ``option``.

    Nothing is created: a folder that does not exist yet is made only once the sweep is sure
    to run (see :func:`make_out_dir`), so a refused command leaves no trace. The empty string
    is refused rather than read as the current folder.
    """
    path = folder_option(out_dir, option)
    if path.exists() and not path.is_dir():
        raise FairysimError(option, f"{path} exists and is not a folder")
    existing = path.absolute()
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise FairysimError(option, f"{existing} is not a folder, so {path} cannot be made")
    probe_folder(existing, option)
    return path


def make_out_dir(path: Path) -> None:
    """Make the sweep's folder and its ``cells/``."""
    try:
        (path / CELLS_DIR).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FairysimError("--out-dir", f"cannot make {path} ({exc.strerror or exc})") from None


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (:func:`fairysim.files.write_text`): a reader, or a
    resumed sweep, sees the old file or the whole new one; a failed write names ``--out-dir``."""
    write_text(path, text, "--out-dir")


def new_manifest(config: dict[str, Any], cells: list[CellSpec]) -> dict[str, Any]:
    """The manifest of a sweep of ``config`` (what decides the numbers) and ``cells``."""
    from fairysim import __version__

    return {
        "schema_version": SWEEP_SCHEMA_VERSION,
        "package_version": __version__,
        "config": config,
        "cells": [cell.cell_id for cell in cells],
    }


def check_manifest(out_dir: Path, manifest: dict[str, Any]) -> bool:
    """True if ``out_dir`` holds this sweep's manifest, False if none; refuse another sweep's."""
    path = out_dir / MANIFEST_NAME
    if not path.exists():
        return False
    try:
        old = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise FairysimError("--out-dir", f"{path} cannot be read ({exc})") from None
    old = old if isinstance(old, dict) else {}
    old_config = old.get("config", {})
    new_config = manifest["config"]
    if old_config != new_config:
        changed = sorted(
            k
            for k in old_config.keys() | new_config.keys()
            if old_config.get(k) != new_config.get(k)
        )
        what = "; ".join(
            f"{k} {_short(old_config.get(k))} there, {_short(new_config.get(k))} now"
            for k in changed
        )
        raise FairysimError(
            "--out-dir",
            f"{out_dir} holds a sweep with another configuration ({what}); use another "
            f"--out-dir, or run the same command to resume it",
        )
    if sorted(old.get("cells", [])) != sorted(manifest["cells"]):
        # The same options, other cells: policies whose defaults changed, or cells named
        # another way by another fairysim. Resuming would mix their files with this sweep's.
        raise FairysimError(
            "--out-dir",
            f"{out_dir} holds this sweep's options but other cells (written by fairysim "
            f"{old.get('package_version', '?')}); use another --out-dir",
        )
    return True


def write_manifest(out_dir: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest (making the folder)."""
    make_out_dir(out_dir)
    write_atomic(out_dir / MANIFEST_NAME, json.dumps(manifest, indent=2) + "\n")


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def cell_key(cell: CellSpec, games: int) -> dict[str, Any]:
    """What a cell file must match to be reused: the cell's key and the sweep's games."""
    return {**cell.key, "games": games}


def cell_path(out_dir: Path, cell: CellSpec) -> Path:
    """The file of a finished cell."""
    return out_dir / CELLS_DIR / f"{cell.cell_id}.json"


def read_cell(out_dir: Path, cell: CellSpec, games: int) -> dict[str, Any] | None:
    """The finished cell's record, or None if missing, unreadable or of another config."""
    try:
        record = json.loads(cell_path(out_dir, cell).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != cell_key(cell, games):
        return None
    return record if _well_formed(record, cell) else None


def _well_formed(record: dict[str, Any], cell: CellSpec) -> bool:
    """Whether a cell file holds what :func:`cell_frame` reads, in the right shapes: a file
    edited by hand or written by a broken tool is played again, as a truncated one is."""
    columns = record.get("columns")
    policies = record.get("policies")
    if not isinstance(columns, list) or not columns or not isinstance(policies, list):
        return False
    if len(policies) != cell.seats or not isinstance(record.get("seat_games"), int):
        return False
    shape = (len(columns), len(policies))
    for name in ("sums", "squares"):
        try:
            values = np.asarray(record.get(name), dtype=np.float64)
        except (TypeError, ValueError):
            return False
        if values.shape != shape or not np.isfinite(values).all():
            return False
    return True


def write_cell(
    out_dir: Path, cell: CellSpec, games: int, aggregate: SeatAggregate
) -> dict[str, Any]:
    """Write a finished cell's file atomically; return its record."""
    from fairysim import __version__

    record = {
        "schema_version": SWEEP_SCHEMA_VERSION,
        "package_version": __version__,
        "cell": cell.cell_id,
        "key": cell_key(cell, games),
        "setup": cell.setup,
        "games": games,
        "columns": list(aggregate.columns),
        "policies": cell.policies,
        # json writes floats with repr(), which reads back to the same float64: a resumed
        # sweep's numbers are bit for bit those of an uninterrupted one.
        "seat_games": aggregate.games,
        "sums": aggregate.sums.tolist(),
        "squares": aggregate.squares.tolist(),
    }
    write_atomic(cell_path(out_dir, cell), json.dumps(record) + "\n")
    return record


def cell_frame(game: str, cell: CellSpec, record: dict[str, Any]) -> pd.DataFrame:
    """One row per seat of a finished cell, from its file's sums: ``game``, ``cell``, the axis
    values, ``lineup``, ``seat``, ``policy``, ``games``, ``wins``, ``win_share`` with its 95%
    Wilson interval ``win_low``/``win_high``, then the mean and standard deviation of every seat
    column."""
    from fairysim.analysis.stats import wilson_interval

    aggregate = SeatAggregate(tuple(record["columns"]), len(record["policies"]))
    aggregate.games = int(record["seat_games"])
    aggregate.sums = np.asarray(record["sums"], dtype=np.float64)
    aggregate.squares = np.asarray(record["squares"], dtype=np.float64)
    seats = aggregate.frame(record["policies"])
    front = {"game": game, "cell": cell.cell_id, **cell.values, "lineup": cell.lineup}
    for i, (name, value) in enumerate(front.items()):
        seats.insert(i, name, value)
    seats["win_share"] = seats["wins"] / seats["games"]
    seats["win_low"], seats["win_high"] = wilson_interval(seats["wins"], seats["games"])
    # What a reader looks for first: who, how many games, how often they won; then the rest.
    first = [*front, "seat", "policy", "games", "wins", "win_share", "win_low", "win_high"]
    return seats[first + [c for c in seats.columns if c not in first]]


def iter_cells(out_dir: str | Path):
    """The records of the finished cells in ``out_dir`` (for inspection and tests)."""
    for path in sorted((Path(out_dir) / CELLS_DIR).glob("*.json")):
        yield json.loads(path.read_text())


def read_sweep(out_dir: str | Path) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Load a finished sweep's ``summary.parquet`` and its manifest.

    Parameters
    ----------
    out_dir : path
        The sweep's folder.

    Returns
    -------
    summary, manifest : pandas.DataFrame, dict
    """
    from fairysim.sim.batch import read_results

    return read_results(Path(out_dir) / SUMMARY_NAME)


__all__ = [
    "CELLS_DIR",
    "MANIFEST_NAME",
    "SUMMARY_NAME",
    "SWEEP_SCHEMA_VERSION",
    "cell_frame",
    "check_manifest",
    "check_out_dir",
    "iter_cells",
    "make_out_dir",
    "new_manifest",
    "read_cell",
    "read_sweep",
    "write_atomic",
    "write_cell",
    "write_manifest",
]
