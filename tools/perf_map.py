"""Name numba's compiled functions for Linux ``perf``, then play a game's engine to be sampled.

numba's kernels are machine code in anonymous memory, so ``perf report`` shows their samples as
bare addresses. This script compiles a game's engine into an empty numba cache (a kernel loaded
from the cache keeps no symbol table), writes ``/tmp/perf-PID.map`` (each compiled function's
address, size and mangled name: perf reads it by itself), optionally copies the machine code of
chosen functions to files for ``objdump``, prints ``READY PID`` and plays games until
``--seconds`` have passed. docs/performance-log.md ("Fairy Land (2026-12-01, evening)") shows a
profile made with it::

    python tools/perf_map.py fairyland --players 4 --policy value-bidder --seconds 60 &
    perf record -F 4000 -p PID -- sleep 25        # PID from the READY line
    perf report --no-children --sort symbol --stdio
    perf script -F ip,sym                         # sampled addresses, for --dump's files:
    objdump -D -b binary -mi386:x86-64 --adjust-vma=0xADDRESS FILE

Sizes run to the next function's address, so padding counts to the function before it. Games
play on one thread, the engine's own block loop (the game's ``play_chunks``).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
import tempfile
import time
from pathlib import Path

MAX_FUNCTION_BYTES = 1 << 20
"""Upper bound on a function's size in the map: the last function of a code region runs to the
next region's start, which can be far away."""


def compiled_functions() -> dict[int, str]:
    """Address -> mangled name of every function numba has compiled in this process (the
    functions of each dispatcher's code library and of the libraries it links)."""
    from numba.core.registry import CPUDispatcher

    libraries: dict[int, object] = {}
    stack = [
        overload.library
        for dispatcher in gc.get_objects()
        if isinstance(dispatcher, CPUDispatcher)
        for overload in dispatcher.overloads.values()
    ]
    while stack:
        library = stack.pop()
        if id(library) not in libraries:
            libraries[id(library)] = library
            stack.extend(getattr(library, "_linking_libraries", ()))
    symbols = {}
    for library in libraries.values():
        module = getattr(library, "_final_module", None)
        if module is None:  # loaded from the cache: no symbol table
            continue
        for function in module.functions:
            if function.is_declaration:
                continue
            address = library.get_pointer_to_function(function.name)
            if address:
                symbols[address] = function.name
    return symbols


def extents(symbols: dict[int, str]) -> list[tuple[int, int, str]]:
    """``(address, size, name)`` of every function, by address; a function runs to the next
    one's address (at most :data:`MAX_FUNCTION_BYTES`)."""
    addresses = sorted(symbols)
    ends = [*addresses[1:], addresses[-1] + MAX_FUNCTION_BYTES] if addresses else []
    return [
        (address, min(end - address, MAX_FUNCTION_BYTES), symbols[address])
        for address, end in zip(addresses, ends, strict=True)
    ]


def write_perf_map(symbols: dict[int, str], path: Path) -> int:
    """Write ``symbols`` as a perf map (``START SIZE NAME`` in hex, one function a line);
    returns how many functions it names."""
    lines = [f"{address:x} {size:x} {name}\n" for address, size, name in extents(symbols)]
    path.write_text("".join(lines))
    return len(lines)


def dump_code(symbols: dict[int, str], pattern: str, folder: Path) -> list[Path]:
    """Copy the machine code of every function whose name contains ``pattern`` into
    ``folder/PATTERN-ADDRESS.bin`` (read through ``/proc/self/mem``, which stops at unmapped
    memory instead of faulting); returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    memory = os.open("/proc/self/mem", os.O_RDONLY)
    try:
        for address, size, name in extents(symbols):
            if pattern not in name:
                continue
            code = bytearray()
            for offset in range(0, size, 4096):
                try:
                    code += os.pread(memory, min(4096, size - offset), address + offset)
                except OSError:
                    break
            path = folder / f"{pattern}-{address:x}.bin"
            path.write_bytes(bytes(code))
            written.append(path)
    finally:
        os.close(memory)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a registered game (`fairysim simulate --help` lists them)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--policy", default="greedy", help="every seat's policy")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play after READY")
    parser.add_argument("--chunk", type=int, default=20_000, help="games per engine call")
    parser.add_argument(
        "--map", type=Path, help="where to write the map (default /tmp/perf-PID.map)"
    )
    parser.add_argument(
        "--dump",
        action="append",
        default=[],
        help="copy the code of functions whose name contains this (repeatable)",
    )
    parser.add_argument("--dump-dir", type=Path, default=Path("perf-code"))
    parser.add_argument(
        "--register",
        action="append",
        default=[],
        help="import this module first (a game's spec module outside fairysim)",
    )
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as cache:
        os.environ["FAIRYSIM_CACHE_DIR"] = cache  # before fairysim is imported: compile afresh
        for module in args.register:
            importlib.import_module(module)
        from fairysim.sim.game import get_game

        spec = get_game(args.game)
        setup = spec.make_setup(players=args.players, policies=args.policy, seed=1)
        for _ in spec.play_chunks(setup, 200, threads=1):  # compiles
            pass
        symbols = compiled_functions()
        path = args.map or Path(f"/tmp/perf-{os.getpid()}.map")
        named = write_perf_map(symbols, path)
        for pattern in args.dump:
            dump_code(symbols, pattern, args.dump_dir)
        print(f"READY {os.getpid()} ({named} functions in {path})", flush=True)
        games = 0
        start = time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            for _ in spec.play_chunks(setup, args.chunk, threads=1, first_game=games):
                pass
            games += args.chunk
        elapsed = time.perf_counter() - start
        if games:
            print(f"{games:,} games in {elapsed:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
