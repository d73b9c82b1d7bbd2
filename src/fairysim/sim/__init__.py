"""The engines: everything that plays games (no pandas in the jitted parts)."""

from fairysim.jit.cache import use_source_keyed_cache

# Before any kernel is defined (every kernel lives in this subpackage): numba's own cache
# check misses edits to other modules.
use_source_keyed_cache()

from fairysim.jit import inline_copy, plain_call_types  # noqa: E402  (after the cache is set)
from fairysim.jit import notice as compile_notice  # noqa: E402
from fairysim.sim.game import GAMES  # noqa: E402

# Nested inlining copies each callee's scope once per block: most of a cold compile.
inline_copy.install()

# A call passing a constant compiled its callee once more for the literal: typed plainly.
plain_call_types.install()

# A cold cache compiles for minutes: say so on stderr, terminal or not.
compile_notice.install(GAMES.values)
