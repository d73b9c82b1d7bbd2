"""Reading the TOML data files that hold every card fact."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from fairysim.errors import CardFileError


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse ``path`` as TOML, raising :class:`CardFileError` naming the file on any failure."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        raise CardFileError(str(path), "no such file") from None
    except IsADirectoryError:
        raise CardFileError(str(path), "is a directory, not a card file") from None
    except tomllib.TOMLDecodeError as exc:
        raise CardFileError(str(path), f"not valid TOML ({exc})") from None
    except OSError as exc:
        raise CardFileError(str(path), f"cannot be read ({exc.strerror})") from None


def require_table(data: dict[str, Any], key: str, path: str | Path) -> dict[str, Any]:
    """Return the TOML table ``key`` of ``data`` or raise naming the file and the table."""
    table = data.get(key)
    if not isinstance(table, dict):
        raise CardFileError(str(path), f"missing table [{key}]")
    return table


def require_int(
    value: Any, what: str, path: str | Path, minimum: int = 0, maximum: int | None = None
) -> int:
    """Return ``value`` if it is an integer in ``[minimum, maximum]``, else raise naming
    ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise CardFileError(str(path), f"{what} must be an integer, got {value!r}")
    if value < minimum:
        raise CardFileError(str(path), f"{what} must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise CardFileError(str(path), f"{what} must be at most {maximum}, got {value}")
    return value
