"""Test-session setup: the toy game under tests/highcard registers through the game contract,
so every registry-driven test (the contract test, the command line, sweeps) runs it too."""

import highcard.spec  # noqa: F401  (registers the game)
