"""First validation pass: the JSON Schemas in ``schemas/`` (draft 2020-12).

Schema errors come in two kinds. Structural ones (wrong type, unknown field,
malformed duration, out-of-range integer) are what Go's strict decoder rejects:
the value is dropped before defaulting so the semantic pass never sees it.
Value ones (ranges, enums) duplicate semantic rules; the loader keeps them only
where the semantic pass, which has kube-scheduler's exact wording, is silent.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from ..record import record
from .godur import parse_duration
from .problems import Problem, child, go_value, invalid, not_supported, plain, required

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"
MAIN_SCHEMA = "kubeschedulerconfiguration-v1.json"
STRUCTURAL = frozenset({"type", "additionalProperties", "format", "const", "required"})

_TYPE_WORDS = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
}
_EMPTY_OF_TYPE: dict[str, Any] = {"object": {}, "array": [], "string": ""}

Path_ = tuple[str | int, ...]


@record(frozen=True)
class SchemaIssue:
    path: Path_
    problem: Problem
    structural: bool
    expected_type: str | None = None


def _is_strict_integer(_checker: object, value: object) -> bool:
    # Go's decoder refuses 1.0 for an integer field; JSON Schema would accept it.
    return isinstance(value, int) and not isinstance(value, bool)


def _fits(bits: int) -> Any:
    def check(value: object) -> bool:
        if not isinstance(value, int) or isinstance(value, bool):
            return True
        return bool(-(2 ** (bits - 1)) <= value < 2 ** (bits - 1))

    return check


def _is_go_duration(value: object) -> bool:
    if not isinstance(value, str):
        return True
    try:
        parse_duration(value)
    except ValueError:
        return False
    return True


def _format_checker() -> FormatChecker:
    checker = FormatChecker(formats=())
    checker.checks("int32")(_fits(32))
    checker.checks("int64")(_fits(64))
    checker.checks("go-duration")(_is_go_duration)
    return checker


def schema_files() -> list[Path]:
    return sorted(SCHEMA_DIR.glob("*.json"))


@functools.cache
def validator(schema_name: str = MAIN_SCHEMA, definition: str = "") -> Draft202012Validator:
    """A validator for ``schema_name`` (or its ``$defs`` entry ``definition``) that resolves
    the sibling files by their names."""
    registry: Registry[Any] = Registry()
    for path in schema_files():
        contents = json.loads(path.read_text(encoding="utf-8"))
        resource = Resource.from_contents(contents, default_specification=DRAFT202012)
        registry = registry.with_resource(path.name, resource)
    if definition:
        schema: Any = {"$ref": f"{schema_name}#/$defs/{definition}"}
    else:
        schema = json.loads((SCHEMA_DIR / schema_name).read_text(encoding="utf-8"))
    types = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_strict_integer)
    strict = validators.extend(Draft202012Validator, type_checker=types)  # type: ignore[no-untyped-call]
    result: Draft202012Validator = strict(
        schema, registry=registry, format_checker=_format_checker()
    )
    return result


def check(document: Any, schema_name: str = MAIN_SCHEMA) -> list[SchemaIssue]:
    """Every schema problem in ``document`` (plain Python data)."""
    issues: list[SchemaIssue] = []
    for error in validator(schema_name).iter_errors(document):
        issues.extend(_translate(error))
    return issues


def check_definition(value: Any, definition: str, at: Path_) -> list[SchemaIssue]:
    """Schema problems of ``value``, found at ``at`` in the document, against the main
    schema's ``$defs`` entry ``definition``."""
    issues: list[SchemaIssue] = []
    for error in validator(MAIN_SCHEMA, definition).iter_errors(value):
        issues.extend(_translate(error, at))
    return issues


def field_of(path: Path_) -> str:
    return child("", *path)


def _translate(error: ValidationError, at: Path_ = ()) -> Iterator[SchemaIssue]:
    path: Path_ = (*at, *error.absolute_path)
    keyword = str(error.validator)
    structural = keyword in STRUCTURAL
    if keyword == "additionalProperties":
        for key in _extra_keys(error):
            where = (*path, key)
            yield SchemaIssue(where, plain(field_of(where), f'unknown field "{key}"'), True)
        return
    expected = None
    if keyword == "type":
        expected = _first_type(error.validator_value)
    yield SchemaIssue(path, _message(error, field_of(path), expected), structural, expected)


def _extra_keys(error: ValidationError) -> list[str]:
    instance = error.instance if isinstance(error.instance, dict) else {}
    schema = error.schema if isinstance(error.schema, dict) else {}
    allowed = set(schema.get("properties", {}))
    return [str(k) for k in instance if k not in allowed]


def _first_type(types: object) -> str | None:
    names = [types] if isinstance(types, str) else list(types) if isinstance(types, list) else []
    return next((str(n) for n in names if n != "null"), None)


def _short(value: object) -> object:
    text = go_value(value)
    return value if len(text) <= 60 else f"{text[:57]}..."


def _message(error: ValidationError, field: str, expected: str | None) -> Problem:
    keyword, value = error.validator, error.instance
    rule: Any = error.validator_value
    if keyword == "type":
        return invalid(
            field, _short(value), f"expected {_TYPE_WORDS.get(expected or '', expected)}"
        )
    if keyword == "format" and rule == "go-duration":
        try:
            parse_duration(str(value))
        except ValueError as exc:
            return invalid(field, value, str(exc))
    if keyword == "format":
        return invalid(field, value, f"out of range for a {str(rule)[3:]}-bit integer")
    if keyword == "const":
        return invalid(field, _short(value), f"must be {go_value(rule)}")
    if keyword == "enum":
        return not_supported(field, value, [str(v) for v in rule if v])
    if keyword == "minimum":
        return invalid(field, value, f"must be greater than or equal to {rule}")
    if keyword == "maximum":
        return invalid(field, value, f"must be less than or equal to {rule}")
    if keyword == "required":
        missing = [k for k in rule if isinstance(value, dict) and k not in value]
        return required(child(field, missing[0]) if missing else field)
    return plain(field, error.message)


def sanitize(document: Any, issues: list[SchemaIssue]) -> None:
    """Drop every structurally wrong value so later passes only see well-typed data."""
    for issue in sorted(issues, key=lambda i: len(i.path), reverse=True):
        if issue.structural and issue.path:
            _drop(document, issue.path, issue.expected_type)


def _drop(document: Any, path: Path_, expected: str | None) -> None:
    parent = document
    for part in path[:-1]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return
    last = path[-1]
    if isinstance(parent, dict):
        parent.pop(last, None)
    elif isinstance(parent, list) and isinstance(last, int) and last < len(parent):
        # Keep list indexes stable so later problems still point at the right items.
        parent[last] = _EMPTY_OF_TYPE.get(expected or "")
