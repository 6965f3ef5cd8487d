"""Which files a manifest path names, and their documents decoded on the fast path."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from .. import blockyaml
from ..errors import KschedError, Location
from ..readers import file_type
from ..yamlcore import Duplicate, TooDeep, Unsupported
from ..yamlio import read_text

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


def manifest_files(paths: Sequence[str]) -> tuple[list[Path], list[str]]:
    """The files to read, in load order, and a warning for each directory holding none.

    A file named on the command line is read whatever its suffix (and refused when it
    is not a regular file, see ``readers``). A directory is walked as ``kubectl apply -R``
    walks it (names sorted at each level, so ``a/x.yaml`` precedes ``a.yaml``), keeping
    ``*.yaml``, ``*.yml``, ``*.json``; hidden entries (``.git``, ``.github``) and
    symlinked directories are skipped, and so, with a warning, are manifest-named
    entries that are not regular files (a broken link, a link loop, a device).
    A file reached twice is read once.
    """
    files: list[Path] = []
    warnings: list[str] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            found = _walk(path, warnings)
            if not found:
                warnings.append(f"{path}: no *.yaml, *.yml or *.json files in this directory")
            files.extend(found)
        elif path.exists() or path.is_symlink():
            files.append(path)  # a link loop or a device is refused, with its reason, on reading
        else:
            raise KschedError("no such file or directory", Location(text))
    return _unique(files), warnings


def _walk(directory: Path, warnings: list[str]) -> list[Path]:
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError as exc:
        message = f"cannot read directory: {exc.strerror}"
        raise KschedError(message, Location(str(directory))) from None
    out: list[Path] = []
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if entry.is_dir(follow_symlinks=False):
            out.extend(_walk(Path(entry.path), warnings))
        elif entry.name.endswith(MANIFEST_SUFFIXES):
            problem = _not_regular(entry)
            if problem is None:
                out.append(Path(entry.path))
            elif problem:
                warnings.append(f"{entry.path}: skipped: {problem}")
    return out


def _not_regular(entry: os.DirEntry[str]) -> str | None:
    """None for a regular file (or a link to one), else why it is skipped ("" for a directory)."""
    try:
        info = entry.stat()
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop"
        if exc.errno == errno.ENOENT:
            return "broken symbolic link"
        return f"cannot read: {exc.strerror}"
    if stat.S_ISREG(info.st_mode):
        return None
    # A link to a directory named like a manifest: skipped as symlinked directories are.
    return "" if stat.S_ISDIR(info.st_mode) else f"not a regular file ({file_type(info.st_mode)})"


def _unique(files: list[Path]) -> list[Path]:
    seen: set[Path] = set()
    out = []
    for path in files:
        try:
            real = path.resolve()
        except (OSError, RuntimeError):  # a link loop: reading it reports the problem
            real = path.absolute()
        if real not in seen:
            seen.add(real)
            out.append(path)
    return out


class Decoded(NamedTuple):
    """A file's text, its documents (``None`` for empty ones) and its repeated keys."""

    text: str
    documents: list[Any]
    duplicates: list[Duplicate]


def read_documents(path: Path, text: str | None = None) -> Decoded:
    """The file's text (or ``text``, for standard input), documents and repeated keys.

    JSON (what ``kubectl get -o json`` writes) goes through the json module, several
    times faster than a YAML parser; YAML through ``blockyaml`` (block style, line by
    line), which hands the documents it does not read to ``fastyaml`` (libyaml's events).
    Whatever those reject is read by the standard loader, which reports errors with
    their position.
    Nesting deeper than ``yamlcore.MAX_DEPTH`` is refused on every path.
    """
    return decode_text(read_text(path) if text is None else text, str(path))


def decode_text(text: str, name: str) -> Decoded:
    """``read_documents`` for text at hand, named ``name`` in messages."""
    duplicates: list[Duplicate] = []
    try:
        if text.lstrip()[:1] == "{":
            from .jsondoc import json_document

            try:
                return Decoded(text, [json_document(text, duplicates)], duplicates)
            except ValueError:
                duplicates.clear()
        try:
            documents = blockyaml.load_all(text, duplicates, fastyaml_document)
            return Decoded(text, documents, duplicates)
        except Unsupported:
            return _decoded_by_pyyaml(text, name, duplicates)
    except TooDeep as exc:
        if not exc.line:
            raise KschedError(str(exc), Location(name)) from None
        number = document_number(text, exc.line)
        location = Location(name, exc.line, exc.column, number)
        raise KschedError(str(exc), location, f"document {number}") from None
    except KschedError as exc:
        raise _with_document(exc, text) from None


# PyYAML is imported by these two only: a plan whose manifests blockyaml reads does
# without it.
def fastyaml_document(text: str, duplicates: list[Duplicate]) -> list[Any]:
    """One document blockyaml leaves, read by fastyaml; Unsupported if it refuses it."""
    import yaml

    from . import fastyaml

    try:
        return fastyaml.load_all(text, duplicates)
    except (TooDeep, yaml.YAMLError, TypeError):
        raise Unsupported("document") from None


def _decoded_by_pyyaml(text: str, name: str, duplicates: list[Duplicate]) -> Decoded:
    """The whole text by fastyaml, or else by the standard loader, which reports errors."""
    import yaml

    from ..goloader import load_documents
    from . import fastyaml
    from .yamlscan import scan_events

    duplicates.clear()
    try:
        return Decoded(text, fastyaml.load_all(text, duplicates), duplicates)
    except (Unsupported, yaml.YAMLError, TypeError):
        duplicates.clear()
    # The standard loader builds nodes recursively: scan depth and keys on events first.
    with contextlib.suppress(yaml.YAMLError):  # the loader reports it at its position
        duplicates.extend(scan_events(text))
    return Decoded(text, load_documents(Path(name), text), duplicates)


def _with_document(exc: KschedError, text: str) -> KschedError:
    """Name the document a YAML syntax error is in (the parser reports only the line)."""
    loc = exc.location
    if loc is None or loc.line is None:
        return exc
    number = document_number(text, loc.line)
    return KschedError(
        exc.message, Location(loc.file, loc.line, loc.column, number), f"document {number}"
    )


def document_number(text: str, line: int) -> int:
    """The 1-based index of the YAML document that contains 1-based ``line``.

    Each ``---`` line starts a document; content before the first one is a document
    of its own. (A ``---`` inside a block scalar is indented, so is not counted.)
    """
    markers = 0
    implicit = False
    for number, row in enumerate(text.splitlines(), start=1):
        if number > line:
            break
        if row.startswith("---") and (len(row) == 3 or row[3] in " \t"):
            if number == line:
                break
            markers += 1
        elif markers == 0 and row.strip() and not row.lstrip().startswith(("#", "%")):
            implicit = True
    return max(1, markers + (1 if implicit else 0))
