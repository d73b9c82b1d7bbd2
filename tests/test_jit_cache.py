"""The numba cache folder keyed by the package source (numba misses edits to other modules)."""

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numba
import pytest

from fairysim.jit import cache as jit_cache
from fairysim.sim.concerto import engine as concerto_engine
from fairysim.sim.fantastique import engine as fantastique_engine


@pytest.fixture
def package_copy(tmp_path):
    """A copy of the package's Python files to edit."""
    copy = tmp_path / "pkg"
    shutil.copytree(jit_cache.PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _edit(path: Path) -> None:
    path.write_text(path.read_text() + "\n# edited\n")


def test_digest_is_stable_and_changes_with_any_kernel_source(package_copy):
    before = jit_cache.source_digest(package_copy)
    assert jit_cache.source_digest(package_copy) == before
    # an edit to a module the engines only call into (the case numba's own check misses)
    _edit(package_copy / "sim" / "fantastique" / "rules.py")
    edited = jit_cache.source_digest(package_copy)
    assert edited != before
    # a new module that defines a kernel counts too
    (package_copy / "sim" / "extra.py").write_text(
        "import numba\n\n\n@numba.njit\ndef f():\n    return 1\n"
    )
    with_kernel = jit_cache.source_digest(package_copy)
    assert with_kernel not in (before, edited)
    # and so does a compiler hook, which defines no kernel but changes what numba emits
    _edit(package_copy / "jit" / "inline_copy.py")
    assert jit_cache.source_digest(package_copy) not in (before, edited, with_kernel)


def test_digest_ignores_edits_outside_the_kernels_sources(package_copy):
    """A report default, a help sentence, a setup check, the analysis or the command line:
    editing them compiles nothing."""
    before = jit_cache.source_digest(package_copy)
    outside = [
        package_copy / "sim" / "game.py",
        package_copy / "sim" / "run.py",
        package_copy / "sim" / "batch.py",
        *(package_copy / "sim").glob("*/spec.py"),
        package_copy / "stats" / "estimates.py",
        package_copy / "cli" / "simulate.py",
        package_copy / "jit" / "notice.py",
    ]
    for path in outside:
        _edit(path)
    (package_copy / "sim" / "no_kernel.py").write_text("X = 1\n")
    assert jit_cache.source_digest(package_copy) == before


def test_a_module_a_kernel_module_imports_joins_the_digest(package_copy):
    """Numba freezes what a kernel reads from another module into its machine code, so a module
    becomes a kernel source as soon as a kernel module imports it."""
    run = package_copy / "sim" / "run.py"
    before = jit_cache.source_digest(package_copy)
    _edit(run)
    assert jit_cache.source_digest(package_copy) == before
    rules = package_copy / "sim" / "fantastique" / "rules.py"
    rules.write_text(rules.read_text() + "\nfrom fairysim.sim import run  # noqa: E402, F401\n")
    imported = jit_cache.source_digest(package_copy)
    assert run in jit_cache.kernel_sources(package_copy)
    _edit(run)
    assert jit_cache.source_digest(package_copy) != imported


def test_the_specs_and_the_registry_are_not_kernel_sources():
    sources = set(jit_cache.kernel_sources())
    sim = jit_cache.PACKAGE_DIR / jit_cache.KERNEL_SUBPACKAGE
    assert sim / "game.py" not in sources
    assert not sources & set(sim.glob("*/spec.py"))
    assert sim / "fantastique" / "engine.py" in sources
    assert jit_cache.PACKAGE_DIR / "jit" / "plain_call_types.py" in sources


def test_only_the_kernel_subpackage_defines_jitted_code():
    """The digest's premise: no module outside sim/ compiles anything with numba."""
    decorator = re.compile(r"^\s*@(\w+\.)?(n?jit|vectorize|guvectorize|cfunc)\b", re.MULTILINE)
    outside = [
        path
        for path in jit_cache.PACKAGE_DIR.rglob("*.py")
        if not path.is_relative_to(jit_cache.PACKAGE_DIR / jit_cache.KERNEL_SUBPACKAGE)
        and decorator.search(path.read_text())
    ]
    assert any(decorator.search(p.read_text()) for p in jit_cache.PACKAGE_DIR.rglob("engine.py"))
    assert outside == []


def test_kernels_cache_under_the_folder_of_this_source():
    folder = Path(numba.config.CACHE_DIR)
    assert folder.name == jit_cache.folder_name(jit_cache.source_digest())
    kernels = (
        fantastique_engine.play_games,
        concerto_engine.play_solo_games,
        concerto_engine.play_two_player_games,
        concerto_engine.play_draft_games,
    )
    for kernel in kernels:
        assert Path(kernel._cache._cache_path).is_relative_to(folder)


PLAY_EACH_KERNEL = """
from fairysim.sim import concerto, fairyland, fantastique
from fairysim.sim.concerto import engine as concerto_engine
from fairysim.sim.concerto import lanes as concerto_lanes
from fairysim.sim.fairyland import engine as fairyland_engine
from fairysim.sim.fantastique import engine as fantastique_engine
for players in (1, 2, 4):  # a kernel per form; 2 players play in no lanes
    for lanes in (True, False):
        setup = concerto.make_setup(players=players, policies="greedy", seed=1)
        list(concerto.play_chunks(setup, 10, lanes=lanes))
setup = fantastique.make_setup(players=4, fan="I", policies="random", seed=1)
list(fantastique.play_chunks(setup, 10))
list(fairyland.play_chunks(fairyland.make_setup(players=4, policies="random", seed=1), 10))
kernels = (
    concerto_engine.play_solo_games,
    concerto_engine.play_two_player_games,
    concerto_engine.play_draft_games,
    concerto_lanes.play_greedy_games,
    fantastique_engine.play_games,
    fairyland_engine.play_games,
)
print(sum(sum(kernel.stats.cache_misses.values()) for kernel in kernels))
print(min(sum(kernel.stats.cache_hits.values()) for kernel in kernels))
"""


def test_a_new_process_loads_the_kernels_from_the_cache():
    # Compiled (or loaded) here first; a second process must then find every kernel on disk.
    # A kernel taking a function-typed argument once missed the cache in every new process.
    exec(PLAY_EACH_KERNEL, {"print": lambda *args: None})
    result = subprocess.run(
        [sys.executable, "-c", PLAY_EACH_KERNEL], capture_output=True, text=True, check=True
    )
    misses, fewest_hits = (int(n) for n in result.stdout.split())
    assert misses == 0 and fewest_hits >= 1  # every kernel came from the cache


def test_cache_root_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("FAIRYSIM_CACHE_DIR", raising=False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert jit_cache.cache_root() == tmp_path / "xdg" / "fairysim" / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "nb"))
    assert jit_cache.cache_root() == tmp_path / "nb" / "fairysim"
    monkeypatch.setenv("FAIRYSIM_CACHE_DIR", str(tmp_path / "own"))
    assert jit_cache.cache_root() == tmp_path / "own"


def test_use_source_keyed_cache_points_numba_there(monkeypatch, tmp_path):
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # restored after
    monkeypatch.setenv("FAIRYSIM_CACHE_DIR", str(tmp_path / "cache"))
    folder = jit_cache.use_source_keyed_cache()
    assert folder == tmp_path / "cache" / jit_cache.folder_name(jit_cache.source_digest())
    assert folder.is_dir()
    assert str(folder) == numba.config.CACHE_DIR


@pytest.mark.parametrize(("level", "suffix"), [(3, ""), (1, "-O1"), (0, "-O0")])
def test_each_optimization_level_caches_in_its_own_folder(monkeypatch, tmp_path, level, suffix):
    # numba's index keys a kernel by its types and the CPU, not NUMBA_OPT: the test suite's
    # -O1 kernels must never be what a user's run (numba's default -O3) loads, nor the reverse.
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # restored after
    monkeypatch.setattr(numba.config, "OPT", level)
    monkeypatch.setenv("FAIRYSIM_CACHE_DIR", str(tmp_path / "cache"))
    folder = jit_cache.use_source_keyed_cache()
    assert folder == tmp_path / "cache" / (jit_cache.source_digest() + suffix)
    assert str(folder) == numba.config.CACHE_DIR


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_unwritable_root_leaves_numba_default(monkeypatch, tmp_path):
    monkeypatch.setattr(numba.config, "CACHE_DIR", "unchanged")
    root = tmp_path / "ro"
    root.mkdir()
    root.chmod(0o500)
    monkeypatch.setenv("FAIRYSIM_CACHE_DIR", str(root / "cache"))
    assert jit_cache.use_source_keyed_cache() is None
    assert numba.config.CACHE_DIR == "unchanged"


def make_digest_folders(root, ages):
    """A cache folder per age (seconds since last use), named digest0, digest1, ..."""
    now = time.time()
    for i, age in enumerate(ages):
        folder = root / f"digest{i}"
        folder.mkdir()
        (folder / "kernel.nbi").write_text("x")
        os.utime(folder, (now - age, now - age))
    return now


def test_prune_keeps_the_current_and_the_newest_others(tmp_path):
    week = jit_cache.STALE_AFTER_SECONDS
    # digest0 is the current one (oldest of all); digest5 the newest other
    now = make_digest_folders(tmp_path, [10 * week, 9 * week, 8 * week, 3 * week, 2 * week, week])
    jit_cache.prune_other_digests(tmp_path, current="digest0", keep=2, now=now)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["digest0", "digest4", "digest5"]


def test_prune_keeps_folders_another_checkout_used_this_week(tmp_path):
    """Six checkouts used in turn within a week keep their engines: none is pruned, however
    many there are past the newest few."""
    day = 24 * 3600
    now = make_digest_folders(tmp_path, [6 * day, 5 * day, 4 * day, 3 * day, 2 * day, 60, 1])
    jit_cache.prune_other_digests(tmp_path, current="digest6", keep=2, now=now)
    assert len(list(tmp_path.iterdir())) == 7
    # four days on, every folder past the newest two has gone a week unused
    jit_cache.prune_other_digests(tmp_path, current="digest6", keep=2, now=now + 4 * day)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["digest4", "digest5", "digest6"]
