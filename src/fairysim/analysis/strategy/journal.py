"""The search's journal: every evaluated candidate, in the order the optimiser asked for it, in a
SQLite file under the output folder, committed candidate by candidate.

``--resume`` replays the optimiser from its seed and answers each candidate it asks for from the
journal, where the journal holds that candidate (the same index and the same weights), and plays
it otherwise; the optimiser is deterministic given its seed and the values it is told, so a resumed
search asks for the same candidates, and ends with the same weights, as one never stopped. (An
Optuna study's samplers draw from a random state held in memory, not in the study, so a study
resumed from its storage asks for other candidates than an uninterrupted one.)
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from fairysim.runtime.errors import FairysimError

JOURNAL_NAME = "search.sqlite"
"""The journal's file name under the output folder."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS config (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS candidates (
    candidate INTEGER PRIMARY KEY,
    generation INTEGER NOT NULL,
    weights TEXT NOT NULL,
    win_share REAL NOT NULL,
    se REAL NOT NULL
);
"""


class Journal:
    """The open journal of one search (:func:`open_journal`)."""

    def __init__(self, connection: sqlite3.Connection):
        self.connection = connection

    def recorded(self, candidate: int, weights: Mapping[str, float]) -> tuple[float, float] | None:
        """``(win_share, se)`` of ``candidate`` where the journal holds it with these weights."""
        row = self.connection.execute(
            "SELECT weights, win_share, se FROM candidates WHERE candidate = ?", (candidate,)
        ).fetchone()
        if row is None or json.loads(row[0]) != dict(weights):
            return None
        return float(row[1]), float(row[2])

    def record(
        self,
        candidate: int,
        generation: int,
        weights: Mapping[str, float],
        win_share: float,
        se: float,
    ) -> None:
        """Keep one evaluated candidate (committed at once: a stop loses no finished one)."""
        with self.connection:
            self.connection.execute(
                "INSERT OR REPLACE INTO candidates VALUES (?, ?, ?, ?, ?)",
                (candidate, generation, json.dumps(dict(weights)), win_share, se),
            )

    def count(self) -> int:
        """Candidates held."""
        return int(self.connection.execute("SELECT COUNT(*) FROM candidates").fetchone()[0])


@contextmanager
def open_journal(folder: Path, config: Mapping[str, Any], resume: bool) -> Iterator[Journal]:
    """The journal of the search ``config`` under ``folder``: a new one (any old one replaced),
    or with ``resume`` the one there, which must be of the same search.

    Raises
    ------
    FairysimError
        Naming ``--resume`` where there is no journal to resume, or it is of another search.
    """
    path = folder / JOURNAL_NAME
    wanted = json.dumps(dict(config), sort_keys=True)
    if resume and not path.exists():
        raise FairysimError("--resume", f"no search to resume: {path} does not exist")
    if not resume:
        path.unlink(missing_ok=True)
    try:
        connection = sqlite3.connect(path)
    except sqlite3.Error as error:
        raise FairysimError("--out-dir", f"cannot open {path} ({error})") from None
    with closing(connection):
        try:
            connection.executescript(_SCHEMA)
        except sqlite3.DatabaseError as error:
            raise FairysimError("--resume", f"{path} is not a search journal ({error})") from None
        row = connection.execute("SELECT value FROM config WHERE key = 'search'").fetchone()
        if row is None:
            with connection:
                connection.execute("INSERT INTO config VALUES ('search', ?)", (wanted,))
        elif row[0] != wanted:
            differ = _differences(json.loads(row[0]), json.loads(wanted))
            raise FairysimError(
                "--resume", f"{path} is another search ({differ}); run without --resume"
            )
        yield Journal(connection)


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """What differs between two searches' configurations, briefly."""
    keys = sorted(set(old) | set(new))
    return ", ".join(
        f"{k} {old.get(k)!r} there, {new.get(k)!r} now" for k in keys if old.get(k) != new.get(k)
    )


__all__ = ["JOURNAL_NAME", "Journal", "open_journal"]
