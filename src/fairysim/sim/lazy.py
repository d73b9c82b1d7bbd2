"""Lazy attributes of a game package: ``from fairysim.sim.<game> import simulate`` loads the
engine, while ``import fairysim.sim.<game>.spec`` (what the command line reads) does not."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_attributes(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: attribute ``name`` is imported from the
    submodule ``where[name]`` on first use (PEP 562)."""

    def load(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{where[name]}"), name)

    return load


__all__ = ["lazy_attributes"]
