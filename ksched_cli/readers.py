"""Reading input files within stated limits: regular files (or standard input) only, capped.

A path naming a device, a FIFO or a socket (``/dev/zero``, a link to it, a terminal)
is refused before a byte is read: such a file may never end. A regular file larger
than ``MAX_INPUT_BYTES`` is refused from its size; standard input is read up to the
cap and refused past it. Every refusal is one ``KschedError`` line naming the file.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

from .errors import KschedError, Location

# Generous: a 150,000-pod `kubectl get -o yaml` snapshot is about 50 MB, 150 MB as JSON.
MAX_INPUT_BYTES = 1 << 30
MAX_INPUT_TEXT = "1 GiB"
STDIN_NAME = "-"
_CHUNK = 1 << 20

_FILE_TYPES = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def file_type(mode: int) -> str:
    """What a non-regular file is, in words (``a character device``)."""
    return next((name for test, name in _FILE_TYPES if test(mode)), "not a regular file")


def too_large(name: str, size: int | None = None) -> KschedError:
    found = f" ({_size_text(size)})" if size is not None else ""
    return KschedError(
        f"larger than the {MAX_INPUT_TEXT} limit for an input file{found}", Location(name)
    )


def read_bytes(path: Path) -> bytes:
    """The bytes of a regular file of at most ``MAX_INPUT_BYTES``; anything else is refused."""
    name = str(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer before it can be refused.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise _os_error(name, exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            what = "is a directory, expected a file" if stat.S_ISDIR(info.st_mode) else (
                f"not a regular file ({file_type(info.st_mode)}): ksched reads regular files, "
                f"or {STDIN_NAME} for standard input"
            )
            raise KschedError(what, Location(name))
        if info.st_size > MAX_INPUT_BYTES:
            raise too_large(name, info.st_size)
    except BaseException:
        os.close(fd)
        raise
    try:
        with os.fdopen(fd, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise _os_error(name, exc) from None
    if len(data) > MAX_INPUT_BYTES:  # grew while being read
        raise too_large(name)
    return data


class Unreadable(Exception):
    """A file that is not read: not a regular file, or over its limit; ``str`` says why."""


def refusal(mode: int, size: int, limit: int, limit_text: str, what: str) -> str | None:
    """Why a file of ``mode`` and ``size`` is not read, or None."""
    if not stat.S_ISREG(mode):
        return f"not a regular file ({file_type(mode)})"
    if size > limit:
        return f"larger than the {limit_text} limit for {what} ({_size_text(size)})"
    return None


def read_bounded(path: str, limit: int, limit_text: str, what: str) -> bytes:
    """A regular file's bytes, at most ``limit``; OSError as ``open`` raises it, Unreadable
    for anything else (checked on the open descriptor, so a FIFO never blocks)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        problem = refusal(info.st_mode, info.st_size, limit, limit_text, what)
        if problem:
            raise Unreadable(problem)
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:  # grew while being read
        raise Unreadable(f"larger than the {limit_text} limit for {what}")
    return data


def read_stream(stream: BinaryIO, name: str = STDIN_NAME) -> bytes:
    """At most ``MAX_INPUT_BYTES`` of a stream such as standard input, read in chunks."""
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > MAX_INPUT_BYTES:
            raise too_large(name)
        chunks.append(chunk)


def decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KschedError(f"cannot read: {exc}", Location(name)) from None


def read_text(path: Path) -> str:
    """A regular file's text (UTF-8), within the size limit."""
    return decode(read_bytes(path), str(path))


def read_stdin_text() -> str:
    """Standard input's text (UTF-8), within the size limit; for the ``-`` argument."""
    return decode(read_stream(sys.stdin.buffer), STDIN_NAME)


def _os_error(name: str, exc: OSError) -> KschedError:
    if exc.errno == errno.ENOENT:
        return KschedError("no such file", Location(name))
    if exc.errno == errno.ELOOP:
        return KschedError("cannot read: symbolic link loop", Location(name))
    reason = exc.strerror or str(exc)
    return KschedError(f"cannot read: {reason}", Location(name))


def _size_text(size: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"
