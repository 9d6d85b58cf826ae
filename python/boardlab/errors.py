"""Errors of the Python layer's own input (command line, player specs), reported like the core's."""


class CliError(ValueError):
    """Bad command-line input: reported as one line on stderr with exit code 2."""
