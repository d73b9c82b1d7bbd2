"""A level compiled apart (fairysim.sim.apart): called through a pointer, never linked into its
caller, and cached like any kernel."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numba as nb
import numpy as np
from numba import types

from fairysim.sim.apart import apart

MARK = 987_654_321
"""A constant only the level's code holds: where it appears in a caller's LLVM, the level's code
was linked into it."""


@nb.njit(_nrt=False)
def level(values, scale):
    total = 0
    for v in values:
        total += v * scale + MARK
    return total


@nb.njit
def linking_caller(values):
    return level(values, 2)


@nb.njit
def pointer_caller(values, levels):
    return levels[0](values, 2)


ARGS = (types.Array(types.int64, 1, "C"), types.int64)


def caller_llvm(dispatcher) -> str:
    return "\n".join(dispatcher.inspect_llvm().values())


def test_a_level_called_apart_gives_the_linked_answer_without_its_code_in_the_caller():
    values = np.arange(5, dtype=np.int64)
    levels = apart(level, ARGS)
    assert pointer_caller(values, levels) == linking_caller(values) == level(values, 2)
    assert str(MARK) in caller_llvm(linking_caller)
    assert str(MARK) not in caller_llvm(pointer_caller)


def test_the_same_level_and_types_give_the_same_compiled_function():
    assert apart(level, ARGS) is apart(level, ARGS)
    assert apart(level, ARGS)[0] is not level  # the level's own dispatcher stays free to link
    assert apart(level, ARGS)[0].targetoptions == level.targetoptions


KERNEL = textwrap.dedent(
    f"""
    import numba as nb
    import numpy as np
    from numba import types
    from fairysim.sim.apart import apart

    @nb.njit(cache=True)
    def level(values, scale):
        return values.sum() * scale + {MARK}

    @nb.njit(cache=True)
    def kernel(values, levels):
        return levels[0](values, 3)

    levels = apart(level, (types.Array(types.int64, 1, "C"), types.int64))
    print(kernel(np.arange(4, dtype=np.int64), levels))
    misses = (kernel, level, levels[0])
    print(*(sum(dispatcher.stats.cache_misses.values()) for dispatcher in misses))
    """
)


def test_a_kernel_that_calls_a_level_apart_loads_from_the_cache_in_a_new_process(tmp_path):
    (tmp_path / "apart_kernel.py").write_text(KERNEL)

    def run() -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", "import apart_kernel"],
            cwd=tmp_path,
            env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")},
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.split("\n")

    first, second = run(), run()
    assert first[0] == second[0] == str(6 * 3 + MARK)
    # the kernel and its level compiled; the level's own dispatcher was never used
    assert first[1] == "1 0 1"
    assert second[1] == "0 0 0"  # both came from the cache, the pointer argument and all
