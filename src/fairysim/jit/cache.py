"""Where numba caches fairysim's compiled kernels: a folder named after the package's source.

Numba decides whether a cached kernel is still valid from the time stamp and size of the one
file that defines it. A kernel that calls or inlines functions from other modules (every
fairysim engine does: engine -> rules, policies, greedy, rng) keeps its cached machine code when
only those modules change, and then silently plays by the old rules. Numba documents this
("cache invalidation fails to recognize changes in functions defined in a different file") and
leaves it open (numba/numba#9483, #9304). It bites whoever edits the package or pulls a change
that leaves an engine file untouched.

So the cache lives in a folder keyed by a digest of the code the kernels are compiled from and
nothing else: every module that defines a jitted function (a numba decorator in its source), every
fairysim module those import (a kernel reads their functions and constants, which numba freezes
into the machine code), followed transitively, and the compiler hooks that change what numba emits
(:data:`COMPILER_HOOKS`). An edit to any of them starts a fresh folder; an edit anywhere else (a
game's spec, its setup checks, a help sentence, the analysis, the reports, the command line)
keeps the compiled engines, and an unchanged tree (a second ``fairysim`` call, a CI machine that
keeps its home folder) finds its kernels again. The modules are found by reading their source
(:func:`kernel_sources`), not by importing them.

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

import ast
import hashlib
import os
import re
import shutil
import time
from pathlib import Path

import numba

PACKAGE_DIR = Path(__file__).resolve().parents[1]
"""The ``fairysim`` package folder."""

KERNEL_SUBPACKAGE = "sim"
"""The subpackage that holds every jitted function (a test checks that no other module does)."""

COMPILER_HOOKS = ("jit/inline_copy.py", "jit/plain_call_types.py")
"""The numba hooks that change what numba emits for every kernel (``sim/__init__.py`` installs
both), relative to :data:`PACKAGE_DIR`: part of the digest although they define no kernel."""

JIT_DECORATOR = re.compile(
    r"^\s*@[\w.]*\b(njit|jit|intrinsic|overload|overload_method|cfunc|generated_jit)\b"
    r"|\b(njit|jit|cfunc)\(",
    re.M,
)
"""A numba decorator, or a call of one, by name: a module whose source has one defines jitted
code."""

KEEP_OTHER_DIGESTS = 3
"""Cache folders of other source digests always kept (newest first)."""

STALE_AFTER_SECONDS = 7 * 24 * 3600
"""A folder of another digest past the newest :data:`KEEP_OTHER_DIGESTS` is removed only when no
process has started on it for this long (a week, in seconds)."""


def _module_file(package_dir: Path, dotted: str) -> Path | None:
    """The source file of the fairysim module ``dotted`` under ``package_dir``, or None."""
    parts = dotted.split(".")
    if parts[0] != "fairysim":
        return None
    base = package_dir.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported_files(package_dir: Path, path: Path) -> set[Path]:
    """The fairysim source files that ``path`` imports, anywhere in it (a function-level import
    too): for ``from A import b`` the submodule ``A.b`` when it is one, else ``A`` itself."""
    module = ".".join(("fairysim", *path.relative_to(package_dir).with_suffix("").parts))
    if module.endswith(".__init__"):
        module = module.removesuffix(".__init__") + ".__"  # a package's level-1 import is itself
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.rsplit(".", node.level)[0]
                base = f"{parent}.{base}" if base else parent
            names = [f"{base}.{alias.name}" for alias in node.names]
            names = [n if _module_file(package_dir, n) else base for n in names]
        else:
            continue
        for name in names:
            file = _module_file(package_dir, name)
            if file is not None:
                found.add(file)
    return found


def kernel_sources(package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """The source files the kernels are compiled from, sorted: every module under
    ``package_dir/sim`` whose source names a numba decorator, the fairysim modules they import
    (transitively), and :data:`COMPILER_HOOKS`."""
    pending = [
        path
        for path in (package_dir / KERNEL_SUBPACKAGE).rglob("*.py")
        if JIT_DECORATOR.search(path.read_text())
    ]
    pending += [package_dir / hook for hook in COMPILER_HOOKS if (package_dir / hook).is_file()]
    seen: set[Path] = set()
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        pending.extend(_imported_files(package_dir, path) - seen)
    return sorted(seen)


def source_digest(package_dir: Path = PACKAGE_DIR) -> str:
    """A short hex digest of :func:`kernel_sources` under ``package_dir``: paths and contents."""
    digest = hashlib.sha256()
    for path in kernel_sources(package_dir):
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
    "kernel_sources",
    "prune_other_digests",
    "source_digest",
    "use_source_keyed_cache",
]
