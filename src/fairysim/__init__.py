"""fairysim: Monte Carlo balance analysis for Fantastique, Fairy Concerto and Fairy Land.

Importing the package is cheap (no numba): the command line installs its Ctrl-C and SIGTERM
handling before the engines load (:mod:`fairysim.command`), and ``fairysim.sim`` points numba's
cache at this source tree before any kernel is defined.
"""

from importlib.metadata import PackageNotFoundError, version

from fairysim.runtime.environment import check_environment

check_environment()  # before numba is imported: it reads NUMBA_NUM_THREADS once, at import

try:
    __version__ = version("fairysim")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
