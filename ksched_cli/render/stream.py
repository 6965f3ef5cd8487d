"""The plan document written piece by piece, byte for byte as one ``json.dumps`` (indent 2)
or ``yaml.safe_dump`` of ``plan_document`` would write it.

With ``--explain`` on a large cluster the document holds every attempt's scores and
filter reasons for thousands of nodes: gigabytes as Python objects. Writing one
attempt at a time keeps memory flat, and the two big per-node maps are formatted
directly instead of through json's pure-Python indenting encoder. ``json_attempt`` and
``yaml_attempt`` give one attempt's final text, so attempts can be written while the
plan runs (``structured_plan.py``) and handed back as ``attempts``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TextIO

import yaml

from ..engine.records import Attempt, Plan
from .document import attempt_doc, plan_document

_quote: Callable[[str], str] = json.encoder.encode_basestring_ascii
_PAD = "  "
_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def write_json(
    plan: Plan,
    explain: bool,
    out: TextIO,
    extra: Mapping[str, Any] | None = None,
    attempts: Iterable[str] | None = None,
) -> None:
    """``json.dumps(plan_document(plan, explain), indent=2) + "\\n"``, streamed; ``extra``
    keys (the what-if report) come after the plan's own. ``attempts``, when given, are
    the attempts already written by ``json_attempt`` (spooled while the plan ran), in
    place of ``plan.attempts``."""
    out.write("{")
    first = True
    for key, value in _top_level(plan, explain, extra):
        out.write(("\n" if first else ",\n") + f"{_PAD}{_quote(key)}: ")
        first = False
        if key == "attempts":
            _write_attempts(map(json_attempt, value) if attempts is None else attempts, out)
        else:
            out.write(_dumps(value, 1))
    out.write("\n}\n" if not first else "}\n")


def write_yaml(
    plan: Plan,
    explain: bool,
    out: TextIO,
    extra: Mapping[str, Any] | None = None,
    attempts: Iterable[str] | None = None,
) -> None:
    """``yaml.safe_dump(plan_document(plan, explain), sort_keys=False)``, streamed;
    ``attempts`` as for ``write_json``, written by ``yaml_attempt``."""
    for key, value in _top_level(plan, explain, extra):
        if key == "attempts":
            texts = map(yaml_attempt, value) if attempts is None else attempts
            empty = True
            for text in texts:
                out.write("attempts:\n" if empty else "")
                out.write(text)
                empty = False
            if empty:
                out.write(yaml.dump({key: []}, Dumper=_DUMPER, sort_keys=False))
        else:
            out.write(yaml.dump({key: value}, Dumper=_DUMPER, sort_keys=False))


def json_attempt(attempt: Attempt) -> str:
    """One entry of the JSON document's ``attempts`` list, as it appears there after its
    indentation."""
    return _attempt(attempt_doc(attempt), 2)


def yaml_attempt(attempt: Attempt) -> str:
    """One entry of the YAML document's ``attempts`` list, lines and all."""
    return yaml.dump([attempt_doc(attempt)], Dumper=_DUMPER, sort_keys=False)


def _top_level(
    plan: Plan, explain: bool, extra: Mapping[str, Any] | None = None
) -> Iterator[tuple[str, Any]]:
    """The document's keys in order; ``attempts`` comes as the plan's Attempt records."""
    doc = plan_document(plan, explain=False)
    warnings = doc.pop("warnings", None)
    yield from doc.items()
    if extra:
        yield from extra.items()
    if explain:
        yield "attempts", plan.attempts
        if plan.notes:
            yield "notes", list(plan.notes)
    if warnings is not None:
        yield "warnings", warnings


def _dumps(value: Any, depth: int) -> str:
    """``value`` as json.dumps(indent=2) writes it ``depth`` levels down."""
    return json.dumps(value, indent=2).replace("\n", "\n" + _PAD * depth)


def _write_attempts(texts: Iterable[str], out: TextIO) -> None:
    empty = True
    for text in texts:
        out.write(("[\n" if empty else ",\n") + _PAD * 2 + text)
        empty = False
    out.write("[]" if empty else "\n" + _PAD + "]")


def _attempt(doc: Mapping[str, Any], depth: int) -> str:
    inner = _PAD * (depth + 1)
    parts = []
    for key, value in doc.items():
        if key == "scores":
            text = _nested_map(value, depth + 1, _int_map)
        elif key == "filtered":
            text = _nested_map(value, depth + 1, _filtered)
        else:
            text = _dumps(value, depth + 1)
        parts.append(f"{inner}{_quote(key)}: {text}")
    return "{\n" + ",\n".join(parts) + "\n" + _PAD * depth + "}"


def _nested_map(value: Mapping[str, Any], depth: int, entry: Callable[[Any, int], str]) -> str:
    """A map of names to values written by ``entry``, ``depth`` levels down."""
    if not value:
        return "{}"
    inner = _PAD * (depth + 1)
    body = ",\n".join(f"{inner}{_quote(k)}: {entry(v, depth + 1)}" for k, v in value.items())
    return "{\n" + body + "\n" + _PAD * depth + "}"


def _int_map(value: Mapping[str, int], depth: int) -> str:
    return _nested_map(value, depth, lambda v, _: _number(v))


def _number(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, int):
        return json.dumps(v)
    return int.__repr__(v)


def _filtered(value: Mapping[str, Any], depth: int) -> str:
    plugin, reasons = value.get("plugin"), value.get("reasons")
    if list(value) != ["plugin", "reasons"] or not isinstance(plugin, str):
        return _dumps(value, depth)
    inner = _PAD * (depth + 1)
    if reasons:
        items = ",\n".join(inner + _PAD + _quote(r) for r in reasons)
        listed = "[\n" + items + "\n" + inner + "]"
    else:
        listed = "[]"
    return (
        "{\n"
        + f'{inner}"plugin": {_quote(plugin)},\n'
        + f'{inner}"reasons": {listed}\n'
        + _PAD * depth
        + "}"
    )
