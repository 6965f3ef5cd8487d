"""Offline extenders: replaying a stub file, and recording one from live calls.

A stub file is ``{"<urlPrefix>/<verb>": [{"request": ..., "response": ...}, ...]}``
(``"error": "..."`` instead of ``response`` replays a failed call). A reply matches on
the exact request body and is decoded into the reply's Go type like a live reply.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..config.types import Extender
from ..errors import KschedError, Location
from ..readers import file_type
from ..yamlio import load_positioned, read_text
from .gojson import MAX_DEPTH, deeper_than
from .transport import ExtenderError, Transport

Entries = dict[str, list[dict[str, Any]]]
_FORMAT = '{"<urlPrefix>/<verb>": [{"request": ..., "response": ...}]}'


def stub_key(ext: Extender, verb: str) -> str:
    return f"{ext.url_prefix.rstrip('/')}/{verb}"


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool) or value is None:
        return "a boolean" if value is not None else "null"
    return "a number"


def load_stub(path: str) -> Entries:
    """The entries of a stub file; any problem is one KschedError naming the file."""
    try:
        text = read_text(Path(path))
    except KschedError as exc:
        raise KschedError(f"extender stub: {exc.message}", exc.location) from None
    try:
        data = json.loads(text)
        too_deep = deeper_than(data, MAX_DEPTH)  # replies are re-encoded when recorded
    except json.JSONDecodeError as exc:
        where = Location(path, exc.lineno, exc.colno)
        raise KschedError(f"extender stub: invalid JSON: {exc.msg}", where) from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise KschedError(f"extender stub: invalid JSON: {exc}", Location(path)) from None
    except RecursionError:
        too_deep = True
    if too_deep:
        message = f"extender stub: JSON nested deeper than {MAX_DEPTH} levels"
        raise KschedError(message, Location(path, *_too_deep_at(text, MAX_DEPTH)))
    problem = _shape_problem(data)
    if problem is not None:
        keys, message = problem
        raise KschedError(f"extender stub: {message}", _locate(path, text, keys))
    return data  # type: ignore[no-any-return]


def _too_deep_at(text: str, limit: int) -> tuple[int, int]:
    """1-based line and column of the bracket that opens level ``limit + 1`` of JSON text."""
    depth, in_string, escaped, line, start = 0, False, False, 1, 0
    for offset, ch in enumerate(text):
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch == "\n":
            line, start = line + 1, offset + 1
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return line, offset - start + 1
        elif ch in "]}":
            depth -= 1
    return 1, 1


def _shape_problem(data: Any) -> tuple[list[str | int], str] | None:
    """(where, what) for the first value of the wrong type, or None."""
    if not isinstance(data, dict):
        return [], f"expected an object {_FORMAT}, got {_kind(data)}"
    for key, entries in data.items():
        if not isinstance(entries, list):
            return [key], f"{key}: expected a list of recorded calls, got {_kind(entries)}"
        for i, entry in enumerate(entries):
            where: list[str | int] = [key, i]
            if not isinstance(entry, dict):
                expected = 'an object with "request" and "response" or "error"'
                return where, f"{key}[{i}]: expected {expected}, got {_kind(entry)}"
            if "request" not in entry:
                return where, f'{key}[{i}]: missing "request"'
            error = entry.get("error")
            if error is not None and not isinstance(error, str):
                return [*where, "error"], f"{key}[{i}].error: expected a string, got {_kind(error)}"
    return None


def _locate(path: str, text: str, keys: list[str | int]) -> Location:
    """Line and column of ``keys`` in the file (of the nearest parent found)."""
    try:
        docs = load_positioned(Path(path), text)
    except KschedError:
        return Location(path)
    node: Any = docs[0] if docs else None
    line, column = 1, 1
    for key in keys:
        lc = getattr(node, "lc", None)
        if lc is None:
            break
        try:
            row, col = lc.key(key) if isinstance(key, str) else lc.item(key)
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
        line, column = row + 1, col + 1
    return Location(path, line, column)


class StubTransport:
    """Replays recorded replies; a request with no recording fails like an extender."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.entries = load_stub(path)

    def prepare(self, ext: Extender) -> None:
        pass  # nothing is sent: no TLS set-up

    def post(self, ext: Extender, verb: str, url: str, body: Any) -> Any:
        for entry in self.entries.get(stub_key(ext, verb), []):
            if entry["request"] == body:
                if entry.get("error"):
                    raise ExtenderError(str(entry["error"]))
                return entry.get("response")
        raise ExtenderError(f"{self.path}: no recorded reply for {verb} at {url}")


class RecordingTransport:
    """Calls through ``inner`` and keeps every exchange in the stub file's format."""

    def __init__(self, inner: Transport) -> None:
        self.inner = inner
        self.entries: Entries = {}

    def prepare(self, ext: Extender) -> None:
        self.inner.prepare(ext)

    def post(self, ext: Extender, verb: str, url: str, body: Any) -> Any:
        # Round-trip through JSON so the recorded request equals what a stub replay compares.
        entry: dict[str, Any] = {"request": json.loads(json.dumps(body))}
        entries = self.entries.setdefault(stub_key(ext, verb), [])
        if all(kept["request"] != entry["request"] for kept in entries):
            entries.append(entry)  # a replay answers a request with its first reply only
        try:
            entry["response"] = self.inner.post(ext, verb, url, body)
        except ExtenderError as err:
            entry["error"] = str(err)
            raise
        return entry["response"]

    def save(self, path: str) -> None:
        """Written whole or not at all; raises KschedError naming ``path``.

        ``-`` is standard output (kubectl's convention), after the command's output.
        """
        text = json.dumps(self.entries, indent=2, sort_keys=True) + "\n"
        if path == STDOUT_NAME:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        write_atomically(Path(path), text, "cannot write the extender recording")


STDOUT_NAME = "-"


def refuse_inputs(
    target: str, inputs: Sequence[Path], directories: Sequence[Path] = ()
) -> None:
    """KschedError when ``target`` is one of the files the run reads, lies inside an
    input directory, or exists and is not a regular file."""
    if target == STDOUT_NAME:
        return
    resolved = Path(target).resolve()
    for directory in directories:
        if resolved.is_relative_to(directory.resolve()):
            raise KschedError(
                f"--record-extenders would write inside an input directory ({directory})",
                Location(target),
            )
    try:
        seen = os.stat(target)
    except OSError:
        return  # nothing there yet: nothing to overwrite
    _refuse_special(target, seen.st_mode)
    for path in inputs:
        try:
            other = os.stat(path)
        except OSError:
            continue
        if (seen.st_dev, seen.st_ino) == (other.st_dev, other.st_ino):
            raise KschedError(
                f"--record-extenders would overwrite an input file ({path})", Location(target)
            )


def write_atomically(path: Path, text: str, what: str) -> None:
    """A temporary file beside ``path``, renamed over it once complete.

    Only a regular file (or nothing) is ever replaced: a device, FIFO or directory
    at ``path``, or a link to one, is refused.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = stat.S_IFREG
    if stat.S_ISDIR(mode):
        raise KschedError(f"{what}: is a directory", Location(str(path)))
    _refuse_special(str(path), mode, what)
    directory = path.parent
    if not directory.is_dir():
        raise KschedError(f"{what}: no such directory {directory}", Location(str(path)))
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # as a plain open() would create it
        os.replace(tmp, path)
    except OSError as exc:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
        reason = (exc.strerror or str(exc)).lower()
        raise KschedError(f"{what}: {reason}", Location(str(path))) from None


def _refuse_special(name: str, mode: int, what: str = "--record-extenders") -> None:
    if not stat.S_ISREG(mode):
        raise KschedError(
            f"{what}: not a regular file ({file_type(mode)}): only a regular file is "
            f"replaced, or {STDOUT_NAME} writes to standard output",
            Location(name),
        )


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
