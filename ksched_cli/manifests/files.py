"""Which files a manifest path names, and their documents decoded on the fast path."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from ..errors import KschedError, Location
from ..yamlio import load_documents, read_text
from . import fastyaml

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


def manifest_files(paths: Sequence[str]) -> tuple[list[Path], list[str]]:
    """The files to read, in load order, and a warning for each directory holding none.

    A file named on the command line is read whatever its suffix. A directory is
    walked as ``kubectl apply -R`` walks it (names sorted at each level, so
    ``a/x.yaml`` precedes ``a.yaml``), keeping ``*.yaml``, ``*.yml``, ``*.json``;
    hidden entries (``.git``, ``.github``) and symlinked directories are skipped.
    A file reached twice is read once.
    """
    files: list[Path] = []
    warnings: list[str] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            found = _walk(path)
            if not found:
                warnings.append(f"{path}: no *.yaml, *.yml or *.json files in this directory")
            files.extend(found)
        elif path.exists():
            files.append(path)
        else:
            raise KschedError("no such file or directory", Location(text))
    return _unique(files), warnings


def _walk(directory: Path) -> list[Path]:
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
            out.extend(_walk(Path(entry.path)))
        elif entry.name.endswith(MANIFEST_SUFFIXES) and entry.is_file():
            out.append(Path(entry.path))
    return out


def _unique(files: list[Path]) -> list[Path]:
    seen: set[Path] = set()
    out = []
    for path in files:
        real = path.resolve()
        if real not in seen:
            seen.add(real)
            out.append(path)
    return out


def read_documents(path: Path, text: str | None = None) -> tuple[str, list[Any]]:
    """The file's text (or ``text``, for standard input) and its documents (``None`` for
    empty ones).

    JSON (what ``kubectl get -o json`` writes) goes through the json module, several
    times faster than a YAML parser; YAML through ``fastyaml``. Whatever those reject
    is read by the standard loader, which reports errors with their position.
    """
    if text is None:
        text = read_text(path)
    if text.lstrip()[:1] == "{":
        try:
            return text, [json.loads(text)]
        except ValueError:
            pass
    try:
        return text, fastyaml.load_all(text)
    except (fastyaml.Unsupported, yaml.YAMLError, ValueError, TypeError):
        pass
    try:
        return text, load_documents(path, text)
    except KschedError as exc:
        raise _with_document(exc, text) from None


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
