"""Errors that reach the user as one line, never as a traceback."""

from __future__ import annotations

from typing import TextIO

from .record import record


@record(frozen=True)
class Location:
    """Where a value came from: file, 1-based line and column, document index."""

    file: str
    line: int | None = None
    column: int | None = None
    document: int | None = None

    def __str__(self) -> str:
        text = self.file
        if self.line is not None:
            text += f":{self.line}"
            if self.column is not None:
                text += f":{self.column}"
        return text


_ESCAPES = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
}


def printable(text: str) -> str:
    """``text`` with every non-printable character (line breaks included) escaped as Go's
    strconv.Quote escapes it: whatever an input holds, an error stays one line."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def printable_text(text: str) -> str:
    """Text output: line breaks kept, every other non-printable character escaped as
    ``printable`` escapes it (ESC, CR, BEL and the rest never reach a terminal)."""
    if text.isprintable():
        return text
    return "\n".join(printable(line) for line in text.split("\n"))


class PrintableWriter:
    """A text stream's ``write`` through ``printable_text``: what a text renderer writes
    reaches the terminal with its line breaks only."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def write(self, text: str) -> int:
        return self.out.write(printable_text(text))

    def flush(self) -> None:
        self.out.flush()


def _escape(ch: str) -> str:
    code = ord(ch)
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if code < 0x80:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class KschedError(Exception):
    """An input or configuration problem, reported as one line with exit code 1."""

    def __init__(
        self, message: str, location: Location | None = None, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.field = field

    def render(self) -> str:
        parts = []
        if self.location is not None:
            parts.append(str(self.location))
            if self.location.document is not None and self.location.line is None:
                parts[-1] += f" (document {self.location.document})"
        parts.append("error")
        text = ": ".join(parts) + ": "
        if self.field:
            text += f"{self.field}: "
        return printable(text + self.message)


class KschedErrors(KschedError):
    """Several input problems, reported one line each (exit code 1), in input order.

    ``hidden`` counts further problems found but not listed (the list is capped).
    """

    def __init__(self, errors: list[KschedError], hidden: int = 0) -> None:
        super().__init__(errors[0].message, errors[0].location, errors[0].field)
        self.errors = errors
        self.hidden = hidden

    def render(self) -> str:
        lines = [error.render() for error in self.errors]
        if self.hidden:
            lines.append(f"error: {self.hidden} more problem(s) not shown")
        return "\n".join(lines)


class ObjectError(ValueError):
    """A malformed field inside a Kubernetes object; the loader adds the file position."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def all(self) -> list[ObjectError]:
        """Every problem this error stands for, in order."""
        return [self]

    def prefixed(self, prefix: str) -> ObjectError:
        """The same problem(s) with ``prefix.`` before each field path."""
        return ObjectError(f"{prefix}.{self.field}", self.message)


class ObjectErrors(ObjectError):
    """Several problems of one object found by one check (the API server lists them all);
    it reads as its first problem where only one is shown."""

    def __init__(self, errors: list[ObjectError]) -> None:
        super().__init__(errors[0].field, errors[0].message)
        self.errors = errors

    def all(self) -> list[ObjectError]:
        return list(self.errors)

    def prefixed(self, prefix: str) -> ObjectError:
        return ObjectErrors([e.prefixed(prefix) for e in self.errors])
