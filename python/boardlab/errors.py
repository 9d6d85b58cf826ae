"""Errors of the Python layer's own input (command line, player specs), reported like the core's."""


class CliError(ValueError):
    """Bad command-line input: reported as one line on stderr with exit code 2."""


class Terminated(KeyboardInterrupt):
    """SIGTERM (`timeout`, `docker stop`, a cluster scheduler) while the command line runs: handled as Ctrl-C is."""
