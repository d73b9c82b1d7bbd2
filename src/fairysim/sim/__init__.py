"""The engines: everything that plays games (no pandas in the jitted parts)."""

from fairysim.jit_cache import use_source_keyed_cache

# Before any kernel is defined (every kernel lives in this subpackage): numba's own cache
# check misses edits to other modules.
use_source_keyed_cache()
