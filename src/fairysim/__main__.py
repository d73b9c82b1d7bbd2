"""``python -m fairysim``: the ``fairysim`` command line, for an environment whose scripts folder
is not on ``PATH``."""

from fairysim.command import main

main()
