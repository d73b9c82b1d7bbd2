"""fairysim: Monte Carlo balance analysis for Fantastique, Fairy Concerto and Fairy Land."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("fairysim")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+unknown"
