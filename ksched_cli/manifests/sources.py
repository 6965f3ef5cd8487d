"""Where manifests come from: files and directories, and ``-`` for standard input."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..readers import read_stdin_text
from .files import manifest_files

STDIN = "-"
# How standard input is named in messages.
STDIN_PATH = Path("<stdin>")
_stdin_text: str | None = None


def stdin_text() -> str:
    """Standard input, read once (``plan - cluster/``; diff may name it for both sides),
    within the input size limit (``readers``)."""
    global _stdin_text
    if _stdin_text is None:
        _stdin_text = read_stdin_text()
    return _stdin_text


def manifest_sources(paths: Sequence[str]) -> tuple[list[Path], list[str]]:
    """``manifest_files`` of ``paths``, ``-`` standing for standard input in its place."""
    if STDIN not in paths:
        return manifest_files(paths)
    files: list[Path] = []
    warnings: list[str] = []
    seen: set[Path] = set()
    for path in paths:
        found, warned = ([STDIN_PATH], []) if path == STDIN else manifest_files([path])
        for file in found:
            real = file if file == STDIN_PATH else _real(file)
            if real not in seen:  # a file reached twice is read once
                seen.add(real)
                files.append(file)
        warnings += warned
    return files, warnings


def _real(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a link loop: reading it reports the problem
        return path.absolute()
