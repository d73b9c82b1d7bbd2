"""Where numba caches fairysim's compiled kernels: a folder named after the package's source.

Numba decides whether a cached kernel is still valid from the time stamp and size of the one
file that defines it. A kernel that calls or inlines functions from other modules (every
fairysim engine does: engine -> rules, policies, greedy, rng) keeps its cached machine code when
only those modules change, and then silently plays by the old rules. Numba documents this
("cache invalidation fails to recognize changes in functions defined in a different file") and
leaves it open (numba/numba#9483, #9304). It bites whoever edits the package or pulls a change
that leaves an engine file untouched.

So the cache lives in a folder keyed by a digest of every source file under ``sim/``, the one
subpackage that defines jitted code (every kernel, rule and policy a kernel calls lives there):
any edit to it starts a fresh folder, while an edit to the analysis, the reports or the command
line (which define no kernel) keeps the compiled engines, and an unchanged tree (a second
``fairysim`` call, a CI machine that keeps its home folder) finds its kernels again.

Numba's cache does not tell optimization levels apart either (its index keys a kernel by its
types and the CPU), so a kernel compiled under another ``NUMBA_OPT`` than numba's default 3 (the
test suite's 1, ``tests/conftest.py``) goes to a folder of its own, ``<digest>-O<level>``: the
engines a user runs are never the test suite's less optimized ones, nor the other way round.

Folders of other digests are pruned, but only those that are both past the newest few and unused
for a week. One cache root is shared by every checkout of a user (several branches or worktrees,
a CI clone beside a developer's tree), each with its own digest, and a process touches its own
folder when it starts: a count alone would delete a folder that another checkout's running
process is still reading and writing, and make checkouts used in turn recompile each other's
engines.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

import numba

PACKAGE_DIR = Path(__file__).resolve().parent

KERNEL_SUBPACKAGE = "sim"
"""The subpackage that holds every jitted function; only its source keys the cache."""

KEEP_OTHER_DIGESTS = 3
"""Cache folders of other source digests always kept (newest first)."""

STALE_AFTER_SECONDS = 7 * 24 * 3600
"""A folder of another digest past the newest :data:`KEEP_OTHER_DIGESTS` is removed only when no
process has started on it for this long (a week, in seconds)."""


def source_digest(package_dir: Path = PACKAGE_DIR) -> str:
    """A short hex digest of every ``.py`` file under ``package_dir/sim``: paths and contents."""
    digest = hashlib.sha256()
    for path in sorted((package_dir / KERNEL_SUBPACKAGE).rglob("*.py")):
        digest.update(path.relative_to(package_dir).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


DEFAULT_OPT_LEVEL = 3
"""Numba's default optimization level (``NUMBA_OPT``): its folder is named by the digest alone."""


def folder_name(digest: str, opt_level: int | None = None) -> str:
    """The cache folder of ``digest`` for kernels compiled at ``opt_level`` (default: numba's
    ``NUMBA_OPT`` in this process): the digest, with ``-O<level>`` unless the level is 3.

    Examples
    --------
    >>> folder_name("0123abcd", 3), folder_name("0123abcd", 1)
    ('0123abcd', '0123abcd-O1')
    """
    level = int(numba.config.OPT if opt_level is None else opt_level)
    return digest if level == DEFAULT_OPT_LEVEL else f"{digest}-O{level}"


def cache_root() -> Path:
    """The folder holding one cache folder per source digest.

    ``FAIRYSIM_CACHE_DIR`` when set, else ``NUMBA_CACHE_DIR/fairysim`` when that is set, else
    ``$XDG_CACHE_HOME/fairysim/numba`` (``~/.cache/fairysim/numba``).
    """
    if os.environ.get("FAIRYSIM_CACHE_DIR"):
        return Path(os.environ["FAIRYSIM_CACHE_DIR"])
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / "fairysim"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "fairysim" / "numba"


def prune_other_digests(
    root: Path,
    current: str,
    keep: int = KEEP_OTHER_DIGESTS,
    stale_after: float = STALE_AFTER_SECONDS,
    now: float | None = None,
) -> None:
    """Remove the cache folders of other digests under ``root`` that are past the ``keep``
    newest and whose last use (the folder's time stamp) is at least ``stale_after`` seconds
    before ``now`` (default: the current time)."""
    now = time.time() if now is None else now
    try:
        others = [
            (p, p.stat().st_mtime) for p in root.iterdir() if p.is_dir() and p.name != current
        ]
    except OSError:
        return  # a folder removed by another process while listed: prune next time
    others.sort(key=lambda item: item[1], reverse=True)
    for stale, used in others[keep:]:
        if now - used >= stale_after:
            shutil.rmtree(stale, ignore_errors=True)


def use_source_keyed_cache() -> Path | None:
    """Point numba's cache at this source tree's folder; return it (None if it is not writable,
    in which case numba keeps its default, next to the source files).

    Must run before any fairysim kernel is defined: numba picks a kernel's cache folder when
    a ``cache=True`` kernel decorator runs. ``fairysim/sim/__init__.py`` calls it first thing.
    """
    digest = source_digest()
    root = cache_root()
    name = folder_name(digest)
    folder = root / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    os.utime(folder)  # newest first when pruning
    prune_other_digests(root, name)
    numba.config.CACHE_DIR = str(folder)
    return folder


__all__ = [
    "cache_root",
    "folder_name",
    "prune_other_digests",
    "source_digest",
    "use_source_keyed_cache",
]
