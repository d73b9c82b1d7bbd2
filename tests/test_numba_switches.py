"""fairysim's two changes to numba's compiler (:mod:`fairysim.jit.inline_copy`,
:mod:`fairysim.jit.plain_call_types`) are installed with the engines, and each one's switch leaves
numba as it is."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from fairysim.jit import inline_copy, plain_call_types


@pytest.mark.parametrize("module", [inline_copy, plain_call_types], ids=lambda m: m.__name__)
def test_the_switch_leaves_numba_unchanged(module):
    package, _, name = module.__name__.rpartition(".")
    check = f"import fairysim.sim; from {package} import {name}; print({name}.installed())"
    without_switch = {k: v for k, v in os.environ.items() if k != module.ENV_SWITCH}
    for env, expected in (({module.ENV_SWITCH: "0"}, "False"), ({}, "True")):
        result = subprocess.run(
            [sys.executable, "-c", check],
            capture_output=True,
            text=True,
            check=True,
            env={**without_switch, **env},
        )
        assert result.stdout.strip() == expected
