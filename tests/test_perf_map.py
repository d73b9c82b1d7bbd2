"""tools/perf_map.py names numba's compiled functions in a perf map (docs/performance-log.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "perf_map.py"


def test_the_map_names_the_compiled_functions_and_the_dump_holds_their_code(tmp_path):
    """The toy game's ``coin`` policy draws through the jitted ``rng.randint``."""
    perf_map = tmp_path / "perf.map"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "tests"), str(ROOT / "src")]))
    done = subprocess.run(
        [
            sys.executable,
            str(TOOL),
            "highcard",
            "--players",
            "2",
            "--policy",
            "coin",
            "--register",
            "highcard.spec",
            "--seconds",
            "0",
            "--map",
            str(perf_map),
            "--dump",
            "randint",
            "--dump-dir",
            str(tmp_path / "code"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("READY ")
    rows = [line.split(" ", 2) for line in perf_map.read_text().splitlines()]
    assert rows
    starts = [int(start, 16) for start, _, _ in rows]
    assert starts == sorted(starts)
    assert all(int(size, 16) > 0 for _, size, _ in rows)
    assert any("rng" in name and "randint" in name for _, _, name in rows)
    dumped = list((tmp_path / "code").glob("randint-*.bin"))
    assert dumped and all(path.stat().st_size > 0 for path in dumped)
