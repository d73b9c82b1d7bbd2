"""fairysim: Monte Carlo balance analysis for Fantastique, Fairy Concerto and Fairy Land."""

from importlib.metadata import PackageNotFoundError, version

from fairysim import compile_notice
from fairysim.jit_cache import use_source_keyed_cache

try:
    __version__ = version("fairysim")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"

# Before any kernel is defined: numba's own cache check misses edits to other modules.
use_source_keyed_cache()
# A cold cache compiles for minutes: say so on stderr, terminal or not.
compile_notice.install()
