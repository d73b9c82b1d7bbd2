"""Reading the TOML data files that hold every card fact.

Every game's card file goes through these helpers, so every game refuses a bad file the same way:
one :class:`fairysim.runtime.errors.CardFileError` naming the file and what is wrong, never a
traceback. A file is checked before any value of it is stored: unknown tables and keys (a misspelt
key is refused, not ignored), the type of every value (a boolean is ``true`` or ``false``, not
``"no"``) and every limit the engines size their arrays by.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection
from pathlib import Path
from typing import Any

from fairysim.runtime.errors import CardFileError

MAX_CARD_FILE_BYTES = 1 << 20
"""Largest card file read (1 MiB); the shipped ones are a few kilobytes."""

MAX_SHOWN_CHARS = 40
"""Longest rendering of a value from the file quoted back in an error message."""


def shown(value: Any) -> str:
    """``repr(value)`` cut to :data:`MAX_SHOWN_CHARS`, so an error quoting it stays one line."""
    text = repr(value)
    return text if len(text) <= MAX_SHOWN_CHARS else text[: MAX_SHOWN_CHARS - 3] + "..."


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse ``path`` as TOML, raising :class:`CardFileError` naming the file on any failure.

    A file past :data:`MAX_CARD_FILE_BYTES`, a file that is not UTF-8 text (binary garbage), a
    TOML syntax error and nesting too deep for the parser are all refused in one line.
    """
    path = Path(path)
    try:
        # A FIFO or a device would block open() or never end: only a regular file is read.
        special = path.exists() and not path.is_dir() and not path.is_file()
    except ValueError:  # a path the system cannot name (an embedded NUL byte)
        special = False  # open() below says so
    if special:
        raise CardFileError(str(path), "is not a regular file (a FIFO or a device?)")
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_CARD_FILE_BYTES + 1)
    except FileNotFoundError:
        raise CardFileError(str(path), "no such file") from None
    except IsADirectoryError:
        raise CardFileError(str(path), "is a directory, not a card file") from None
    except OSError as exc:
        raise CardFileError(str(path), f"cannot be read ({exc.strerror})") from None
    except ValueError:  # a path the system cannot name (an embedded NUL byte)
        raise CardFileError(repr(str(path)), "is not a valid file path") from None
    if len(raw) > MAX_CARD_FILE_BYTES:
        raise CardFileError(
            str(path), f"is larger than {MAX_CARD_FILE_BYTES} bytes; a card file is a few KB"
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CardFileError(
            str(path), f"is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        reason = " ".join(str(exc).split())
        raise CardFileError(str(path), f"not valid TOML ({reason})") from None
    except RecursionError:
        raise CardFileError(
            str(path), "not valid TOML (arrays or tables nested too deeply)"
        ) from None


def check_keys(
    table: dict[str, Any],
    known: Collection[str],
    where: str,
    path: str | Path,
    what: str = "key",
) -> None:
    """Refuse any key of ``table`` outside ``known``, naming the table ``where`` and the key.

    ``where`` is how the message names the table (``"[medals]"``, ``"score card S01"``, or
    ``"the file"`` for the top level) and ``what`` what its keys are (``"table or key"`` at the
    top level).
    """
    for key in table:
        if key not in known:
            raise CardFileError(
                str(path),
                f"{where} has unknown {what} {shown(key)}; they are {', '.join(known)}",
            )


def require_table(data: dict[str, Any], key: str, path: str | Path) -> dict[str, Any]:
    """Return the TOML table ``key`` of ``data`` or raise naming the file and the table."""
    table = data.get(key)
    if table is None:
        raise CardFileError(str(path), f"missing table [{key}]")
    if not isinstance(table, dict):
        raise CardFileError(str(path), f"[{key}] must be a table, got {shown(table)}")
    return table


def require_int(
    value: Any, what: str, path: str | Path, minimum: int = 0, maximum: int | None = None
) -> int:
    """Return ``value`` if it is an integer in ``[minimum, maximum]``, else raise naming
    ``what``."""
    if value is None:
        raise CardFileError(str(path), f"{what} is missing")
    if isinstance(value, bool) or not isinstance(value, int):
        raise CardFileError(str(path), f"{what} must be an integer, got {shown(value)}")
    if value < minimum:
        raise CardFileError(str(path), f"{what} must be at least {minimum}, got {shown(value)}")
    if maximum is not None and value > maximum:
        raise CardFileError(str(path), f"{what} must be at most {maximum}, got {shown(value)}")
    return value


def require_bool(value: Any, what: str, path: str | Path) -> bool:
    """Return ``value`` if it is a TOML boolean (``true`` or ``false``), else raise naming
    ``what``."""
    if not isinstance(value, bool):
        raise CardFileError(str(path), f"{what} must be true or false, got {shown(value)}")
    return value


def require_text(value: Any, what: str, path: str | Path, max_chars: int) -> str:
    """Return ``value`` stripped if it is a non-empty one-line string of at most ``max_chars``
    printable characters, else raise naming ``what``. Ids and names are quoted in reports and
    error messages, so a newline or a control character in one is refused."""
    if not isinstance(value, str):
        raise CardFileError(str(path), f"{what} must be a string, got {shown(value)}")
    text = value.strip()
    if not text:
        raise CardFileError(str(path), f"{what} must not be empty")
    if len(text) > max_chars:
        raise CardFileError(str(path), f"{what} must be at most {max_chars} characters long")
    if not text.isprintable():
        raise CardFileError(str(path), f"{what} must be printable text, got {shown(text)}")
    return text


def require_list(value: Any, what: str, path: str | Path, max_items: int) -> list[Any]:
    """Return ``value`` if it is a non-empty TOML array of at most ``max_items`` items, else
    raise naming ``what``."""
    if not isinstance(value, list):
        raise CardFileError(str(path), f"{what} must be a list [...], got {shown(value)}")
    if not value:
        raise CardFileError(str(path), f"{what} must not be empty")
    if len(value) > max_items:
        raise CardFileError(str(path), f"{what} has {len(value)} items; at most {max_items}")
    return value
