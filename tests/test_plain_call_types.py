"""Calls between fairysim's kernels are typed by their arguments' plain types
(:mod:`fairysim.jit.plain_call_types`): a constant argument compiles no callee of its own, functions
outside fairysim keep numba's literal typing, and what the kernels compute is unchanged (the
switch: ``test_numba_switches.py``). That the engines play the same games compiled this way is the
reference-equivalence and saved-run tests' (they compile with it)."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba import types

import fairysim.sim.fairyland  # noqa: F401  (installs the plain typing; asks for it)
from fairysim.jit import plain_call_types


def offset(values, k):
    """A callee that reads its second argument as a number."""
    total = 0
    for value in values:
        total += value + k
    return total


def caller(values):
    """Calls ``offset`` with a constant, and with a variable first assigned a constant (typed
    as that literal until numba's inference widens it)."""
    step = 0
    total = offset(values, -1)
    for value in values:
        total += offset(values, step)
        step = value
    return total


def compile_pair(module):
    """Fresh dispatchers (no cache) of ``caller`` and of ``offset`` defined in ``module``."""
    plain = type(offset)(offset.__code__, {}, "offset")
    plain.__module__ = module
    callee = numba.njit(plain)
    function = type(caller)(caller.__code__, {"offset": callee}, "caller")
    function.__module__ = module
    return numba.njit(function), callee


@pytest.fixture(autouse=True)
def probe_package(monkeypatch):
    """``fairysim.probe`` typed plainly for the length of a test (as a game package asks)."""
    monkeypatch.setattr(plain_call_types, "PACKAGES", set(plain_call_types.PACKAGES))
    plain_call_types.type_plainly("fairysim.probe")


def test_the_plain_typing_is_installed_with_the_engines():
    assert plain_call_types.installed()
    assert "fairysim.sim.fairyland" in plain_call_types.PACKAGES


def test_a_callee_of_a_plainly_typed_package_compiles_once():
    kernel, callee = compile_pair("fairysim.probe")
    values = np.arange(5, dtype=np.int64)
    kernel(values)
    assert callee.signatures == [(types.Array(types.int64, 1, "C"), types.int64)]


def test_numba_compiles_a_callee_of_another_package_per_literal():
    # The control: numba's own typing compiles the literal -1 and the literal 0 apart from the
    # plain int64, which is what the module exists to avoid where a package asks.
    kernel, callee = compile_pair("someone_else.probe")
    kernel(np.arange(5, dtype=np.int64))
    seconds = {sig[1] for sig in callee.signatures}
    assert types.int64 in seconds
    assert any(isinstance(t, types.IntegerLiteral) for t in seconds)
    assert len(callee.signatures) >= 2


@pytest.mark.parametrize("size", [0, 1, 6])
def test_plainly_typed_calls_compute_what_python_does(size):
    values = np.arange(size, dtype=np.int64) * 3 - 2
    kernel, _ = compile_pair("fairysim.probe")
    assert kernel(values) == caller(values.tolist())  # here ``offset`` is the Python function
