"""A sweep's folder: the manifest, one file per finished cell, the summary; atomic writes and the
checks that let a stopped sweep resume and refuse another sweep's folder.

``sweep.json``
    The manifest: the sweep's configuration (everything that decides a number), the package
    version and the cell ids. A later run with another configuration is refused.
``cells/<cell>.json``
    One finished cell: its key, setup, the package version, and per-seat games, sums and sums of
    squares of every seat column (for a mixed lineup, played on every rotation of its seats,
    per entry: its deals and the sums of its per-deal means over the rotations; floats written
    exactly, so a resumed sweep gives the same numbers as an uninterrupted one), and by turn
    position too where the cell reports its turn positions (one policy at every seat of a game
    that draws its starter).
``summary.parquet``
    One row per cell and lineup seat (:func:`cell_frame`); the manifest is in its metadata.
``shares.parquet``
    The rows the sweep's table prints (:func:`shares_frame`): per cell and turn position (seat
    where the seat index is the turn order, lineup entry pooled over the rotations for a mixed
    lineup), each cell's rows one Holm-corrected family with its verdict against the fair share;
    for a sweep played to a precision also what its stopping rule reached.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from fairysim.runtime.errors import ParameterError
from fairysim.runtime.files import check_folder, write_text
from fairysim.sim.batch import SeatAggregate
from fairysim.sweep.cells import CellSpec

SWEEP_SCHEMA_VERSION = 3
"""Version of the layout of ``sweep.json`` and the cell files; bumped on any change."""

MANIFEST_NAME = "sweep.json"
CELLS_DIR = "cells"
SUMMARY_NAME = "summary.parquet"
SHARES_NAME = "shares.parquet"


def check_out_dir(out_dir: str | Path, option: str = "out_dir") -> Path:
    """Return ``out_dir`` as a Path if the sweep can write there; raise naming ``option``.

    Nothing is created: a folder that does not exist yet is made only once the sweep is sure
    to run (see :func:`make_out_dir`), so a refused command leaves no trace. The empty string
    is refused rather than read as the current folder.
    """
    return check_folder(out_dir, option)


def make_out_dir(path: Path) -> None:
    """Make the sweep's folder and its ``cells/``."""
    try:
        (path / CELLS_DIR).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ParameterError("out_dir", f"cannot make {path} ({exc.strerror or exc})") from None


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (:func:`fairysim.runtime.files.write_text`): a reader,
    or a resumed sweep, sees the old file or the whole new one; a failed write names
    ``--out-dir``."""
    write_text(path, text, "out_dir")


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
        raise ParameterError("out_dir", f"{path} cannot be read ({exc})") from None
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
        raise ParameterError(
            "out_dir",
            f"{out_dir} holds a sweep with another configuration ({what}); use another "
            "{out_dir}, or run the same command to resume it",
            mentions=("out_dir",),
        )
    if sorted(old.get("cells", [])) != sorted(manifest["cells"]):
        # The same options, other cells: policies whose defaults changed, or cells named
        # another way by another fairysim. Resuming would mix their files with this sweep's.
        raise ParameterError(
            "out_dir",
            f"{out_dir} holds this sweep's options but other cells (written by fairysim "
            f"{old.get('package_version', '?')}); use another {{out_dir}}",
            mentions=("out_dir",),
        )
    return True


def write_manifest(out_dir: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest (making the folder)."""
    make_out_dir(out_dir)
    write_atomic(out_dir / MANIFEST_NAME, json.dumps(manifest, indent=2) + "\n")


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def cell_key(cell: CellSpec, target: dict[str, Any]) -> dict[str, Any]:
    """What a cell file must match to be reused: the cell's key and what the sweep plays a cell
    to (``{"games": n}``, or the stopping rule of ``--precision``)."""
    return {**cell.key, **target}


def cell_path(out_dir: Path, cell: CellSpec) -> Path:
    """The file of a finished cell."""
    return out_dir / CELLS_DIR / f"{cell.cell_id}.json"


def read_cell(out_dir: Path, cell: CellSpec, target: dict[str, Any]) -> dict[str, Any] | None:
    """The finished cell's record, or None if missing, unreadable or of another config."""
    try:
        record = json.loads(cell_path(out_dir, cell).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("key") != cell_key(cell, target):
        return None
    if record.get("schema_version") != SWEEP_SCHEMA_VERSION:
        return None  # another layout (an unrotated mixed lineup of schema 2): played again
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
    names = ("sums", "squares")
    if record.get("rows") not in ROW_KINDS or not isinstance(record.get("alpha"), float):
        return False
    if record["rows"] == "turn":
        names += ("turn_sums", "turn_squares")
    if "precision" in record or "precision" in record["key"]:
        reached = record.get("precision")
        wanted = ("asked", "reached", "half_width", "level", "looks")
        if not isinstance(reached, dict) or any(name not in reached for name in wanted):
            return False
    for name in names:
        try:
            values = np.asarray(record.get(name), dtype=np.float64)
        except (TypeError, ValueError):
            return False
        if values.shape != shape or not np.isfinite(values).all():
            return False
    return True


ROW_KINDS = ("turn", "seat", "entry")
"""What a cell's reported rows are: turn positions, seats (a game whose seat index is its turn
order), or the entries of a mixed lineup played on every rotation of its seats (its sums those
of each entry's per-deal means, :mod:`fairysim.sim.rotation`)."""


def reported_rows(
    aggregate: SeatAggregate, turns: SeatAggregate, rows: str, policies: list[str]
) -> pd.DataFrame:
    """A cell's reported rows before correction, for its table and its stopping rule: the turn
    positions' (``turns``), the seats', or the entries' with their standard error clustered by
    deal (:func:`fairysim.sim.rotation.entry_frame`)."""
    from fairysim.sim.rotation import entry_frame

    if rows == "entry":
        return entry_frame(aggregate, policies)
    if rows == "turn":
        return turns.frame([policies[0]] * len(policies))
    return aggregate.frame(policies)


def write_cell(
    out_dir: Path,
    cell: CellSpec,
    target: dict[str, Any],
    aggregate: SeatAggregate,
    turns: SeatAggregate,
    rows: str,
    alpha: float,
    precision: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Write a finished cell's file atomically; return its record. ``rows`` says what the cell
    reports (:data:`ROW_KINDS`): by ``"turn"`` it also keeps its sums by turn position
    (``turns``); ``alpha`` is the error rate of its rows' family (0.05, or a look's share of it
    for a cell played to a precision). A cell played to a precision also keeps what the
    stopping rule reached (``precision``: the half-width asked and reached, the level, the
    looks)."""
    from fairysim import __version__

    record = {
        "schema_version": SWEEP_SCHEMA_VERSION,
        "package_version": __version__,
        "cell": cell.cell_id,
        "key": cell_key(cell, target),
        "setup": cell.setup,
        "games": aggregate.games,
        "columns": list(aggregate.columns),
        "policies": cell.policies,
        # json writes floats with repr(), which reads back to the same float64: a resumed
        # sweep's numbers are bit for bit those of an uninterrupted one.
        "seat_games": aggregate.games,
        "sums": aggregate.sums.tolist(),
        "squares": aggregate.squares.tolist(),
        "rows": rows,
        # A mixed lineup's deals are played once per rotation of its seats.
        "rotations": cell.rotations,
        "alpha": float(alpha),
    }
    if rows == "turn":
        record |= {"turn_sums": turns.sums.tolist(), "turn_squares": turns.squares.tolist()}
    if precision is not None:
        record["precision"] = precision
    write_atomic(cell_path(out_dir, cell), json.dumps(record) + "\n")
    return record


def cell_frame(game: str, cell: CellSpec, record: dict[str, Any]) -> pd.DataFrame:
    """One row per lineup seat of a finished cell, from its file's sums: ``game``, ``cell``,
    the axis values, ``lineup``, ``seat``, ``policy``, ``games``, ``wins``, ``win_share`` with
    its interval ``low``/``high`` Holm-corrected over the cell's seats at the cell's error rate
    and the verdict ``significant`` against ``fair`` (:func:`fairysim.stats.precision.
    corrected_shares`), then the mean and standard deviation of every seat column. Where the
    cell reports turn positions (:func:`shares_frame`) the seats of one policy are
    exchangeable, and their verdicts test a null that holds by construction."""
    from fairysim.stats.precision import corrected_shares

    aggregate = record_aggregate(record)
    if record["rows"] == "entry":
        # The lineup's entries, pooled over the rotations; ``seat`` is the entry's seat in the
        # lineup as given, ``games`` its deals, ``seat_games`` its games.
        seats = reported_rows(aggregate, aggregate, "entry", record["policies"])
        seats = seats.rename(columns={"entry": "seat"})
    else:
        seats = aggregate.frame(record["policies"])
    seats = corrected_shares(seats, record["alpha"])
    front = {"game": game, "cell": cell.cell_id, **cell.values, "lineup": cell.lineup}
    for i, (name, value) in enumerate(front.items()):
        seats.insert(i, name, value)
    # What a reader looks for first: who, how many games, how often they won; then the rest.
    first = [*front, "seat", "policy", "games", "wins", "win_share", "low", "high"]
    return seats[first + [c for c in seats.columns if c not in first]]


def record_aggregate(record: dict[str, Any], prefix: str = "") -> SeatAggregate:
    """A cell file's sums as a :class:`SeatAggregate` (``prefix="turn_"``: by turn position)."""
    aggregate = SeatAggregate(tuple(record["columns"]), len(record["policies"]))
    aggregate.games = int(record["seat_games"])
    aggregate.sums = np.asarray(record[f"{prefix}sums"], dtype=np.float64)
    aggregate.squares = np.asarray(record[f"{prefix}squares"], dtype=np.float64)
    return aggregate


def shares_frame(game: str, cell: CellSpec, record: dict[str, Any]) -> pd.DataFrame:
    """The rows a cell reports, as the sweep's table prints them: one per turn position
    (``row`` is ``turn``) where one policy plays every seat of a game that draws its starter,
    one per lineup entry pooled over the rotations of its seats (``row`` is ``entry``, ``games``
    its deals, the interval clustered by deal) where the lineup mixes policies, else one per
    seat (``row`` is ``seat``); ``index`` the position, seat or entry, ``label`` the policy
    (``greedy#2`` for an entry whose policy repeats), ``games``,
    ``win_share`` with its interval Holm-corrected over the cell's rows at the cell's error rate
    (:func:`fairysim.stats.precision.corrected_shares`), ``significant`` against ``fair``,
    ``half_width``, ``turn_position`` (1 = the first to act; missing where the rows are no turn
    positions); for a cell played to a precision also its ``precision`` (asked),
    ``reached``, ``widest`` (the widest half-width), ``look_level`` (the confidence level of
    the family) and ``looks`` (how many were made); then the mean and standard deviation of
    every seat column."""
    from fairysim.stats.precision import corrected_shares

    kind = record["rows"]
    aggregate = record_aggregate(record)
    turns = record_aggregate(record, "turn_") if kind == "turn" else aggregate
    rows = reported_rows(aggregate, turns, kind, record["policies"])
    if "label" not in rows.columns:
        rows.insert(2, "label", rows["policy"])
    rows = corrected_shares(rows, record["alpha"])
    rows = rows.rename(columns={"seat": "index", "entry": "index"})
    # A turn position as every results file counts it, from 1 (the index counts from 0).
    turn = rows["index"] + 1 if kind == "turn" else pd.Series(pd.NA, index=rows.index)
    rows.insert(rows.columns.get_loc("index") + 1, "turn_position", turn.astype("Int8"))
    front = {
        "game": game,
        "cell": cell.cell_id,
        **cell.values,
        "lineup": cell.lineup,
        "row": record["rows"],
    }
    for i, (name, value) in enumerate(front.items()):
        rows.insert(i, name, value)
    reached = record.get("precision")
    if reached is not None:
        rows["precision"] = reached["asked"]
        rows["reached"] = reached["reached"]
        rows["widest"] = reached["half_width"]
        rows["look_level"] = reached["level"]
        rows["looks"] = len(reached["looks"])
    first = [*front, "index", "turn_position", "policy", "games", "wins", "win_share", "low"]
    first.append("high")
    return rows[first + [c for c in rows.columns if c not in first]]


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
    "ROW_KINDS",
    "SHARES_NAME",
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
    "record_aggregate",
    "reported_rows",
    "shares_frame",
    "write_atomic",
    "write_cell",
    "write_manifest",
]
