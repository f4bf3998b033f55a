"""The errors and exit codes of the command line (layer 1).

:class:`CommandError` is how a handler reports bad input (the dispatcher in
:mod:`durak_spec.cli` prints it as one line on stderr with exit code 2). The parsers,
their option types and ``--jobs`` live in :mod:`durak_spec.cli.args` (every argparse
parser lives in ``cli/``).
"""

from __future__ import annotations

from durak_spec.core.errors import InputError

__all__ = ["EXIT_IO", "EXIT_USAGE", "CommandError", "StreamError"]

EXIT_USAGE = 2
EXIT_IO = 74
"""A standard stream or an output file could not be used (closed, a full device, a disk
that filled up): the exit code of :class:`StreamError`, ``EX_IOERR`` of sysexits.h."""


class CommandError(InputError):
    """Bad input to a subcommand: printed as ``PROG: error: message``, exit code ``status``."""

    code = "command"

    def __init__(self, message: str, *, prog: str | None = None,
                 status: int = EXIT_USAGE, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.prog = prog
        self.status = status


class StreamError(CommandError):
    """Standard input or output, or a file an option names, cannot be read or written
    (closed, a full device, ...): one line, exit code :data:`EXIT_IO`."""

    code = "stream"

    def __init__(self, message: str) -> None:
        super().__init__(message, status=EXIT_IO)
