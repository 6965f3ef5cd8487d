"""``ksched validate --only-scheduler-configs``: find the KubeSchedulerConfigurations in
files that may hold anything (the pre-commit hook's case).

pre-commit matches file names, and names mislead: kubeadm's static pod is called
``kube-scheduler.yaml``, and clusters often keep the configuration in a ConfigMap. So
every document is looked at: a KubeSchedulerConfiguration is checked, one inside a
ConfigMap's ``data`` is checked with positions in the outer file, anything else is
skipped with a note.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import Any, cast

from ..config.load import CheckedConfig, Finding, check_document
from ..errors import KschedError, Location
from ..record import record
from ..versions.features import V130, Features
from ..yamlio import load_positioned, read_text

KIND = "KubeSchedulerConfiguration"


@record
class Scan:
    checked: list[CheckedConfig] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def scan_file(path: str, features: Features = V130) -> Scan:
    scan = Scan()
    try:
        text = read_text(Path(path))  # a regular file within the input size limit
        docs = load_positioned(Path(path), text)
    except (KschedError, OSError, UnicodeDecodeError) as exc:
        error = exc if isinstance(exc, KschedError) else KschedError(str(exc), Location(path))
        scan.checked.append(CheckedConfig(path, [Finding(error)]))
        return scan
    lines = text.splitlines()
    for number, doc in enumerate(docs, 1):
        kind = doc.get("kind") if isinstance(doc, Mapping) else None
        if kind == KIND:
            scan.checked.append(check_document(path, doc, features))
        elif kind == "ConfigMap":
            _config_map(path, number, doc, lines, scan, features)
        elif doc is not None:
            what = f"kind {kind}" if kind else "no kind"
            scan.notes.append(f"{path}: document {number} skipped ({what}, not a {KIND})")
    if not docs or all(d is None for d in docs):
        scan.notes.append(f"{path}: skipped (no documents)")
    return scan


def _config_map(
    path: str, number: int, doc: Any, lines: list[str], scan: Scan, features: Features
) -> None:
    data: Any = doc.get("data")
    found = False
    if isinstance(data, Mapping):
        for key, value in data.items():
            if not isinstance(value, str) or KIND not in value:
                continue
            found = True
            line, _ = cast(Any, data).lc.value(key)  # ruamel keeps where each value is
            scan.checked.extend(_embedded(path, value, line, lines, features))
    if not found:
        name = doc.get("metadata", {}).get("name", "")
        scan.notes.append(
            f"{path}: document {number} skipped (ConfigMap {name} holds no {KIND})"
        )


def _embedded(
    path: str, value: str, line: int, lines: list[str], features: Features
) -> list[CheckedConfig]:
    """The configuration in a ConfigMap value; a block scalar (``|``) starts on the next
    line, indented: positions are shifted to point into the outer file."""
    first = line + 1  # 0-based index of the block's first line
    indent = 0
    if first < len(lines):
        indent = len(lines[first]) - len(lines[first].lstrip())
    checked = []
    try:
        inner = [d for d in load_positioned(Path(path), value) if d is not None]
    except KschedError as exc:
        return [CheckedConfig(path, [Finding(_shift(exc, first, indent))])]
    for doc in inner:
        if isinstance(doc, Mapping) and doc.get("kind") == KIND:
            result = check_document(path, doc, features)
            result.findings = [
                Finding(_shift(f.error, first, indent), f.severity) for f in result.findings
            ]
            checked.append(result)
    return checked


def _shift(error: KschedError, first: int, indent: int) -> KschedError:
    loc = error.location
    if loc is None or loc.line is None:
        return error
    column = loc.column + indent if loc.column is not None else None
    moved = Location(loc.file, loc.line + first, column, loc.document)
    return KschedError(error.message, moved, error.field)
