"""Writing a user's files: every output is staged in a temporary file beside its destination,
synced, then renamed into place, so a reader sees the old file or the whole new one, never half.

A write that fails (a full disk, a folder made read-only during the run, a file size limit) removes
its temporary file and raises :class:`~fairysim.runtime.errors.FairysimError` naming the option and
the file; an existing destination is never truncated in place. The checks run before any work: an
output path must be a regular file (not a folder, a symbolic link, a device or a FIFO) in a folder
that a probe write shows to be writable.

This module lives outside ``fairysim.sim`` so that an edit to it keeps numba's cache
(:mod:`fairysim.jit.cache`).
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from fairysim.runtime.errors import FairysimError, ParameterError

PARQUET_METADATA_KEY = b"fairysim"
"""Key of the run's metadata (JSON) in a Parquet file's schema metadata."""

PARQUET_ROW_GROUP_ROWS = 65_536
"""Rows a Parquet writer gathers before it writes a row group: chunks of a few games each would
otherwise make one row group (with its own statistics and footer entry) per chunk, a cost per
chunk far above that of the rows it holds."""


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def probe_folder(folder: Path, option: str) -> None:
    """Raise naming ``option`` unless a file can be made in ``folder`` (an existing folder).

    A probe write rather than :func:`os.access`, which says yes to root even on a read-only
    file system or in ``/proc``.
    """
    try:
        fd, probe = tempfile.mkstemp(prefix=".fairysim-probe.", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as error:
        raise ParameterError(option, f"cannot write to {folder} ({_reason(error)})") from None


def folder_option(text: str | Path, option: str = "out_dir") -> Path:
    """``text`` as a folder path, refusing the empty string (which would mean the current
    folder and scatter a command's files there)."""
    if not str(text).strip():
        raise ParameterError(option, "is empty; name a folder (use '.' for the current folder)")
    return Path(text)


def check_folder(text: str | Path, option: str = "out_dir") -> Path:
    """``text`` as a folder a command can write into or make, checked before any game so that
    none is played for a folder it cannot write; nothing is created (:func:`made_folder` makes
    it)."""
    folder = folder_option(text, option)
    if folder.exists():
        if not folder.is_dir():
            raise ParameterError(option, f"{folder} exists and is not a folder")
        probe_folder(folder, option)
        return folder
    parent = folder.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise ParameterError(option, f"cannot create {folder} ({parent} is not a folder)")
    probe_folder(parent, option)
    return folder


def made_folder(text: str | Path, option: str = "out_dir") -> Path:
    """``text`` as an existing folder a command can write into, created (with its parents)
    where missing, as every command's ``--out-dir`` is; else an error naming ``option``."""
    folder = folder_option(text, option)
    if folder.exists() and not folder.is_dir():
        raise ParameterError(option, f"{folder} exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ParameterError(option, f"cannot create {folder} ({_reason(error)})") from None
    probe_folder(folder, option)
    return folder


def check_out_file(out: str | Path, option: str = "out", suffix: str = ".parquet") -> Path:
    """Return ``out`` as a Path if a ``suffix`` file can be written there, else raise naming
    ``option``. Nothing is created.

    Refused: another suffix, a folder, a symbolic link or anything but a regular file at the
    path (which the final rename would replace by a regular file), a missing or unwritable
    folder, an existing file that is not writable.
    """
    path = Path(out)
    if not str(out).strip():
        raise ParameterError(option, "is empty; name a file")
    if path.suffix.lower() != suffix:
        raise ParameterError(option, f"{path} must end in {suffix}")
    if path.is_symlink():
        raise ParameterError(option, f"{path} is a symbolic link; name the file itself")
    if path.exists() and path.is_dir():
        raise ParameterError(option, f"{path} is a directory")
    if path.exists() and not path.is_file():
        raise ParameterError(option, f"{path} is not a regular file")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.exists():
        raise ParameterError(option, f"folder {parent} does not exist")
    if not parent.is_dir():
        raise ParameterError(option, f"{parent} is a file, not a folder")
    if not os.access(parent, os.W_OK):
        raise ParameterError(option, f"folder {parent} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise ParameterError(option, f"{path} is not writable")
    probe_folder(parent, option)
    return path


def check_in_file(path: str | Path, option: str) -> Path:
    """Return ``path`` if it names a regular file to read, else raise naming ``option``: a FIFO
    or a device would block :func:`open` or never end."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
    except OSError:
        return path  # the reader says it is missing or unreadable
    if stat.S_ISDIR(mode):
        raise ParameterError(option, f"{path} is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise ParameterError(option, f"{path} is not a regular file")
    return path


def _failed(path: Path, option: str, error: OSError, existed: bool) -> FairysimError:
    kept = f"{path} untouched" if existed else "nothing written"
    return ParameterError(option, f"cannot write {path} ({_reason(error)}); {kept}")


def stage_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to a new temporary file beside ``path`` (same file system, so the rename
    is atomic), synced to disk, and return it; remove it if writing fails (and re-raise)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp creates the file private (0600); give it the mode a plain open() would.
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def write_files(files: Iterable[tuple[str | Path, bytes]], option: str) -> list[Path]:
    """Write several files all or none: each is staged, and only when every one is complete
    are they renamed into place, in order (put the file that points to the others last).

    Raises
    ------
    FairysimError
        Naming ``option`` and the file that could not be written; every staged file is removed
        and no destination changed.
    """
    staged: list[tuple[Path, Path]] = []
    current = Path()
    try:
        for path, data in files:
            current = Path(path)
            staged.append((stage_bytes(current, data), current))
        for tmp, path in staged:
            current = path
            os.replace(tmp, path)
    except OSError as error:
        existed = current.exists()
        raise _failed(current, option, error, existed) from None
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
    return [path for _, path in staged]


def write_bytes(path: str | Path, data: bytes, option: str = "out") -> Path:
    """Write ``data`` to ``path`` atomically (:func:`write_files` of one file)."""
    return write_files([(path, data)], option)[0]


def write_text(path: str | Path, text: str, option: str = "out") -> Path:
    """:func:`write_bytes` of UTF-8 ``text``."""
    return write_bytes(path, text.encode("utf-8"), option)


class AtomicParquetWriter:
    """Write a Parquet file chunk by chunk into a temporary file, renamed into place on success.

    Chunks are gathered into row groups of about :data:`PARQUET_ROW_GROUP_ROWS` rows, so the
    file's size and the time spent writing do not depend on the chunk size. If the run fails
    or is interrupted, the temporary file is removed and any file already at the destination
    is left untouched; a failed write raises :class:`FairysimError` naming ``option``.
    """

    def __init__(self, path: str | Path, metadata: Mapping[str, Any], option: str = "out"):
        self.path = Path(path)
        self.option = option
        self.existed = self.path.exists()
        self.metadata = {PARQUET_METADATA_KEY: json.dumps(metadata, default=str).encode()}
        self.writer: Any = None
        self.pending: list[Any] = []
        self.pending_rows = 0
        try:
            fd, tmp = tempfile.mkstemp(
                prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent or "."
            )
        except OSError as error:
            raise _failed(self.path, option, error, self.existed) from None
        os.close(fd)
        self.tmp = Path(tmp)

    def write(self, frame: Any) -> None:
        """Append one chunk's rows (a pandas DataFrame)."""
        import pyarrow as pa

        table = pa.Table.from_pandas(frame, preserve_index=False)
        try:
            if self.writer is None:
                import pyarrow.parquet as pq

                schema = table.schema.with_metadata(
                    {**(table.schema.metadata or {}), **self.metadata}
                )
                self.writer = pq.ParquetWriter(self.tmp, schema, compression="zstd")
            self.pending.append(table.cast(self.writer.schema))
            self.pending_rows += table.num_rows
            if self.pending_rows >= PARQUET_ROW_GROUP_ROWS:
                self._flush()
        except OSError as error:
            raise _failed(self.path, self.option, error, self.existed) from None

    def _flush(self) -> None:
        import pyarrow as pa

        if self.pending:
            self.writer.write_table(pa.concat_tables(self.pending))
        self.pending = []
        self.pending_rows = 0

    def commit(self) -> None:
        """Write what is gathered, close, sync and move the file into place."""
        try:
            if self.writer is not None:
                self._flush()
                self.writer.close()
            with open(self.tmp, "rb+") as handle:
                os.fsync(handle.fileno())
            # mkstemp makes the file private (0600); give it the mode a plain open() would.
            os.chmod(self.tmp, 0o666 & ~_umask())
            os.replace(self.tmp, self.path)
        except OSError as error:
            self.abort()
            raise _failed(self.path, self.option, error, self.existed) from None

    def abort(self) -> None:
        """Drop the temporary file (also when closing it fails, as on a full disk)."""
        try:
            if self.writer is not None:
                self.writer.close()
        except OSError:
            pass  # the file is dropped whatever its state
        finally:
            self.writer = None
            self.pending = []
            self.tmp.unlink(missing_ok=True)

    def __enter__(self) -> AtomicParquetWriter:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.commit()
        else:
            self.abort()


__all__ = [
    "PARQUET_METADATA_KEY",
    "PARQUET_ROW_GROUP_ROWS",
    "AtomicParquetWriter",
    "check_folder",
    "check_in_file",
    "check_out_file",
    "folder_option",
    "made_folder",
    "probe_folder",
    "stage_bytes",
    "write_bytes",
    "write_files",
    "write_text",
]
