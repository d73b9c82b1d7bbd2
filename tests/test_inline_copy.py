"""Numba's inliner copies each callee with one memo (:mod:`fairysim.jit.inline_copy`): the blocks of
a copied callee share one scope, and the inlined code computes what the plain functions do (its
switch: ``test_numba_switches.py``). That the engines play the same games compiled this way is the
reference-equivalence and saved-run tests' (they compile with it)."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba.core import inline_closurecall

import fairysim.sim  # noqa: F401  (installs the copy)
from fairysim.jit import inline_copy


def branchy(x):
    """A callee of several blocks and variables."""
    total = 0
    for k in range(x):
        if k % 3 == 0:
            total += k
        elif k % 3 == 1:
            total -= 1
        else:
            total *= 2
    return total


def outer(values):
    """Inlines ``branchy`` (and so its blocks) at two call sites."""
    out = 0
    for value in values:
        out += branchy(value) - branchy(value // 2)
    return out


@pytest.fixture
def spliced(monkeypatch):
    """Records what numba's ``inline_ir`` returns while a test compiles."""
    calls: list[tuple] = []
    wrapped = inline_closurecall.InlineWorker.inline_ir

    def record(self, *args, **kwargs):
        result = wrapped(self, *args, **kwargs)
        calls.append(result)
        return result

    monkeypatch.setattr(inline_closurecall.InlineWorker, "inline_ir", record)
    return calls


def compile_nested():
    """Fresh dispatchers (no cache) of ``outer`` inlining ``branchy`` at numba's IR level."""
    inner = numba.njit(inline="always")(branchy)
    globals_ = {"branchy": inner}
    code = outer.__code__
    function = type(outer)(code, globals_, "outer_fresh")
    return numba.njit(function)


def test_the_copy_is_installed_with_the_engines():
    assert inline_copy.installed()


def test_a_copied_callee_keeps_one_scope_for_all_its_blocks(spliced):
    kernel = compile_nested()
    kernel(np.arange(12, dtype=np.int64))
    copies = [result[0] for result in spliced]  # the callee's IR as copied, before the splice
    assert len(copies) == 2  # two call sites
    for callee in copies:
        assert len(callee.blocks) > 3
        assert len({id(block.scope) for block in callee.blocks.values()}) == 1


def test_numbas_own_copy_gives_a_scope_per_block(monkeypatch):
    # The control: without the one memo, the same compile copies the scope once per block
    # (numba/numba#8989), which is what the module exists to avoid.
    numba_inline_ir = inline_closurecall.InlineWorker.inline_ir.__wrapped__
    recorded = []

    def record(self, *args, **kwargs):
        result = numba_inline_ir(self, *args, **kwargs)
        recorded.append(result)
        return result

    monkeypatch.setattr(inline_closurecall.InlineWorker, "inline_ir", record)
    compile_nested()(np.arange(12, dtype=np.int64))
    assert recorded
    assert all(len({id(b.scope) for b in r[0].blocks.values()}) > 1 for r in recorded)


@pytest.mark.parametrize("size", [0, 1, 7, 40])
def test_inlined_code_computes_what_the_plain_functions_do(size):
    values = np.arange(size, dtype=np.int64) * 3 + 1
    assert compile_nested()(values) == outer(values.tolist())
