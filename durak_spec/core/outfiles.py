"""Files that options name for output (layer 1): checked and opened before the work.

A report file (``--json``, ``--junit-xml``, ``--svg``, the files of ``perft
--generate``) is opened when the command starts, not when its work is done: a path that
cannot be a report (a folder, a FIFO, a socket, a device, a missing folder, a file that
cannot be written) is refused at once with one line and exit code 2, and a FIFO is never
waited on. The text is written at the end; if that fails (the disk filled up), the error
is a :class:`~durak_spec.core.cliargs.StreamError` (exit code 74), raised after the
command printed its text report, so the report still reaches the terminal::

    with OutputFile(args.json, "--json") as report:   # refused here, before the run
        result = long_run()
        print(result.text)
        report.write(result.json)                     # StreamError if the disk is full
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path
from types import TracebackType

from durak_spec.core.cliargs import CommandError, StreamError

__all__ = ["OutputFile", "check_output_folder", "file_kind"]

_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def file_kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words (``"a FIFO (named pipe)"``)."""
    for test, words in _KINDS:
        if test(mode):
            return words
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def _why(error: OSError, path: Path) -> str:
    if isinstance(error, FileNotFoundError):
        return f"the folder {path.parent} does not exist"
    if isinstance(error, NotADirectoryError):
        return f"{path.parent} is not a folder"
    return error.strerror or str(error)


class OutputFile:
    """A report file that an option names, opened at once and written at the end.

    Raises :class:`~durak_spec.core.cliargs.CommandError` (exit code 2) when ``path`` is
    not a regular file that can be written, or cannot be made one. A file this object
    made and never wrote is removed by :meth:`close` (the work did not finish)."""

    def __init__(self, path: str | os.PathLike[str], option: str) -> None:
        self.path = Path(path)
        self.option = option
        self._created = False
        self._fd: int | None = None
        try:
            before: os.stat_result | None = os.stat(self.path)
        except FileNotFoundError:
            before = None
        except OSError as error:
            raise self._refused(_why(error, self.path)) from None
        if before is not None and not stat.S_ISREG(before.st_mode):
            raise self._refused(f"it is {file_kind(before.st_mode)}, not a file")
        # O_NONBLOCK: a FIFO put here since the check is refused, never waited on
        flags = os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
        try:
            if before is None:
                try:
                    fd = os.open(self.path, flags | os.O_CREAT | os.O_EXCL, 0o666)
                    self._created = True
                except FileExistsError:
                    fd = os.open(self.path, flags)
            else:
                fd = os.open(self.path, flags)
        except OSError as error:
            raise self._refused(_why(error, self.path)) from None
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            raise self._refused(f"it is {file_kind(mode)}, not a file")
        os.set_blocking(fd, True)
        self._fd = fd

    def _refused(self, why: str) -> CommandError:
        return CommandError(f"cannot write {self.path}: {why} ({self.option} names a file to "
                            "write a report to)")

    def write(self, text: str) -> None:
        """Replace the file's content with ``text`` (UTF-8) and close it; raises
        :class:`~durak_spec.core.cliargs.StreamError` if that fails."""
        fd = self._fd
        if fd is None:
            raise StreamError(f"cannot write {self.path} ({self.option}): it was written or "
                              "closed already")
        data = memoryview(text.encode("utf-8", errors="backslashreplace"))
        try:
            os.ftruncate(fd, 0)
            while data:
                data = data[os.write(fd, data):]
        except OSError as error:
            self.close()
            raise StreamError(f"cannot write {self.path} ({self.option}): "
                              f"{error.strerror or error}") from None
        self._created = False  # written: it is the report now
        self.close()

    def close(self) -> None:
        """Close the file; one this object made and did not write is removed."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)
            if self._created:
                self._created = False
                with contextlib.suppress(OSError):
                    os.unlink(self.path)

    def __enter__(self) -> OutputFile:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def check_output_folder(path: str | os.PathLike[str], option: str) -> Path:
    """A folder that files will be written into: made if missing; raises
    :class:`~durak_spec.core.cliargs.CommandError` if ``path`` is something else (a file,
    a device) or cannot be made or written."""
    folder = Path(path)
    try:
        info = os.stat(folder)
    except FileNotFoundError:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except NotADirectoryError:
            raise CommandError(f"{option}: cannot make the folder {folder}: a folder above "
                               "it is a file") from None
        except OSError as error:
            raise CommandError(f"{option}: cannot make the folder {folder}: "
                               f"{error.strerror or error}") from None
        return folder
    except OSError as error:
        raise CommandError(f"{option}: cannot use {folder}: {_why(error, folder)}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise CommandError(f"{option}: {folder} is {file_kind(info.st_mode)}, not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CommandError(f"{option}: the folder {folder} cannot be written")
    return folder
