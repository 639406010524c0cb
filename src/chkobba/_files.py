"""Writing a file atomically: what :meth:`Record.save <chkobba.Record.save>` and
:meth:`Rules.save <chkobba.Rules.save>` share."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat

from chkobba.errors import shown_path

__all__ = ["write_atomically"]

# How much of a file's name the temporary file keeps: 40 characters are at most 160
# bytes of UTF-8, so the temporary name stays within the 255 bytes a file name may have
# wherever the target's own name fits.
_STEM = 40


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so that a failure leaves the old file as it was.

    The data goes to a new file beside ``path``, which then replaces ``path`` in one step
    (:func:`os.replace`); an existing file keeps its permissions. A device or a pipe
    (``/dev/null``, ``/dev/stdout``, a FIFO) is written to instead, as a shell's ``>``
    does: a file renamed over it would replace the device itself. Errors of the file
    system are :class:`OSError` naming ``path``, never the temporary file.
    """
    if not os.fspath(path):  # realpath would make it the current folder
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), "")
    if _is_device(path):
        try:
            with open(path, "wb") as device:
                device.write(data)
        except OSError as error:  # /dev/full: the write's error names no file
            raise _about(error, path) from None
        return
    target = os.path.realpath(path)  # through a symbolic link, not over it
    if os.path.isdir(target):  # os.replace's error would name the temporary file
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    folder, name = os.path.split(target)
    # Beside the target (os.replace cannot cross file systems), named after it for a
    # person who finds one left by a crash, but cut so that a long name still fits.
    temporary = os.path.join(folder, f".{name[:_STEM]}.{secrets.token_hex(6)}.tmp")
    try:
        kept: int | None = os.stat(target).st_mode & 0o7777  # an existing file's mode
    except FileNotFoundError:
        kept = None
    except OSError as error:
        raise _about(error, path) from None
    try:
        # O_BINARY (Windows only): a descriptor opened without it is in text mode there
        # and writes every "\n" as "\r\n"; open() and tempfile add it too.
        binary = getattr(os, "O_BINARY", 0)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | binary
        # Created no more open than the file it replaces (the umask narrows it further):
        # a private file (a record holds every hidden card) is never readable by others,
        # not even through a descriptor opened while its new copy is written.
        descriptor = os.open(temporary, flags, 0o666 if kept is None else kept & 0o777)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EPERM):  # the file itself may be writable
            why = f"{error.strerror} (a save first writes a new file in {shown_path(folder)})"
            raise type(error)(error.errno, why, os.fspath(path)) from None
        raise _about(error, path) from None
    try:
        if kept is not None:  # its exact mode: the bits the umask cleared, setgid, ...
            os.chmod(temporary, kept)
        with open(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        if isinstance(error, OSError):
            raise _about(error, path) from None
        raise


def _is_device(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` names something that exists but is no file or folder (a device,
    a pipe, a socket), following symbolic links as :func:`os.stat` does (``/dev/stdout``
    on a pipe is a link to a name that ``realpath`` cannot follow)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _about(error: OSError, path: str | os.PathLike[str]) -> OSError:
    """``error`` naming ``path``, the file the caller gave, rather than the temporary file
    beside it that the save was writing (a name the caller never saw)."""
    if error.errno is None:
        return error
    return type(error)(error.errno, error.strerror, os.fspath(path))
