"""``python -m fairysim``: the ``fairysim`` command line, for an environment whose scripts folder
is not on ``PATH``."""

from fairysim.command import main

try:
    main()
finally:
    # Under ``python -m``, CPython ends the process by SIGINT (-2 to a parent that waits on it,
    # not the command's exit code) once a KeyboardInterrupt has left code run by ``exec()`` of a
    # string, even one the command caught and reported: a Ctrl-C landing in the code that numba
    # or dataclasses generate sets a flag that only the next such ``exec()`` clears. This one
    # clears it, so a stop exits 130 and a refusal 2 (an escaping KeyboardInterrupt still sets it).
    exec("pass")
