"""Process concerns: Ctrl-C and SIGTERM, environment checks, atomic files, one-line errors."""
