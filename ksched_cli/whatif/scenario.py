"""Reading a ``ksched simulate`` scenario: schemas/scenario-v1.json, then the rules a
schema cannot say (one action per step, times that never go backwards); every problem
is one positioned line."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

from ..config.godur import parse_duration
from ..config.schema import SCHEMA_DIR
from ..errors import KschedError, Location
from ..goloader import load_documents
from ..manifests.positions import field_position
from ..manifests.yamlscan import scan_events
from ..record import record
from ..yamlcore import Duplicate, TooDeep
from ..yamlio import read_text

SCHEMA = "scenario-v1.json"
# step key -> the what-if option it stands for ("create"/"delete" are scenario-only)
ACTIONS: Mapping[str, str] = {
    "drain": "--drain",
    "removeNode": "--remove-node",
    "cordon": "--cordon",
    "uncordon": "--uncordon",
    "addNodes": "--add-nodes",
    "scale": "--scale",
    "create": "create",
    "delete": "delete",
}

SHAPES = {"addNodes": "FILE=N", "scale": "KIND/NAME=N"}


@record(frozen=True)
class Step:
    index: int
    time: float  # simulated seconds
    action: str  # a key of ACTIONS
    value: Any
    name: str = ""

    @property
    def field(self) -> str:
        return f"steps[{self.index}].{self.action}"

    def describe(self) -> str:
        if self.action == "delete":
            v = self.value
            ns = f"{v['namespace']}/" if v.get("namespace") else ""
            text = f"delete {v['kind']} {ns}{v['name']}"
        else:
            text = f"{self.action} {self.value}"
        return f"{self.name}: {text}" if self.name else text


@record(frozen=True)
class Scenario:
    path: Path
    text: str
    steps: tuple[Step, ...]

    def error(self, field: str, message: str) -> KschedError:
        """One line at ``field`` of the scenario file."""
        pos = field_position(self.text, 0, field, 1)
        loc = Location(str(self.path), pos[0], pos[1]) if pos else Location(str(self.path))
        return KschedError(message, loc, f"Scenario: {field}" if field else "Scenario")

    def resolve(self, file: str) -> str:
        """A path in the scenario, relative to the scenario's directory."""
        path = Path(file)
        return str(path if path.is_absolute() else self.path.parent / path)


@functools.cache
def _validator() -> Draft202012Validator:
    schema = json.loads((SCHEMA_DIR / SCHEMA).read_text(encoding="utf-8"))
    checker = FormatChecker(formats=())
    checker.checks("go-duration", raises=ValueError)(lambda v: not isinstance(v, str)
                                                     or parse_duration(v) >= 0)
    return Draft202012Validator(schema, format_checker=checker)


def _path(error: ValidationError) -> str:
    out = ""
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _message(error: ValidationError) -> tuple[str, str]:
    """(field, message) for the first schema error, worded for the scenario."""
    field = _path(error)
    if error.validator == "additionalProperties":
        schema = error.schema if isinstance(error.schema, Mapping) else {}
        given = error.instance if isinstance(error.instance, Mapping) else {}
        extra = sorted(set(given) - set(schema.get("properties", {})))
        key = extra[0] if extra else "?"
        where = f"{field}.{key}" if field else key
        if field.startswith("steps[") and field.count(".") == 0:
            known = ", ".join(ACTIONS)
            return where, f'unknown action "{key}" (expected one of {known})'
        return where, f'unknown field "{key}"'
    key = field.rpartition(".")[2]
    if error.validator == "pattern" and key in SHAPES:
        return field, f'malformed value "{error.instance}": expected {SHAPES[key]}'
    if error.validator == "oneOf" and field.endswith(".at"):
        return field, f"invalid time {_spelling(error.instance)}: {TIME_EXPECTED}"
    return field, error.message


def load_scenario(file: str) -> Scenario:
    path = Path(file)
    text = read_text(path)
    documents = [d for d in load_documents(path, text) if d is not None]
    if len(documents) != 1:
        raise KschedError(f"expected one YAML document, found {len(documents)}", Location(file))
    raw = documents[0]
    scenario = Scenario(path, text, ())
    repeated = _repeated_keys(text)
    if repeated is not None:  # YAML keeps the last silently; kubectl's strict decoding refuses
        loc = Location(file, repeated.line, repeated.column)
        raise KschedError(f'duplicate field "{repeated.field}"', loc, "Scenario")
    errors = sorted(_validator().iter_errors(raw), key=lambda e: list(e.absolute_path))
    if errors:
        field, message = _message(errors[0])
        raise scenario.error(field, message)
    return Scenario(path, text, _steps(scenario, raw["steps"]))


TIME_EXPECTED = "expected seconds (a number >= 0) or a duration such as 90s or 1m30s"


_SHOWN = 40


def _spelling(value: Any) -> str:
    """A time as YAML writes it (``.nan``, ``-.inf``), or Python's repr."""
    if isinstance(value, float) and not math.isfinite(value):
        return ".nan" if math.isnan(value) else ("-.inf" if value < 0 else ".inf")
    if isinstance(value, str) and len(value) > _SHOWN:  # e.g. 5,000 digits, a string to go-yaml
        return f"{value[:_SHOWN]!r}... ({len(value)} characters)"
    return repr(value)


def _repeated_keys(text: str) -> Duplicate | None:
    """The first key given twice in one mapping, if any (syntax errors are reported later)."""
    try:
        found = scan_events(text)
    except (yaml.YAMLError, TooDeep):
        return None
    return found[0] if found else None


def _seconds(value: Any) -> float:
    if isinstance(value, str):
        return parse_duration(value) / 1e9
    return float(value)


def _steps(scenario: Scenario, raw_steps: list[dict[str, Any]]) -> tuple[Step, ...]:
    steps = []
    last = 0.0
    for i, raw in enumerate(raw_steps):
        actions = [k for k in raw if k in ACTIONS]
        if len(actions) != 1:
            found = ", ".join(actions) if actions else "none"
            raise scenario.error(f"steps[{i}]", f"a step takes exactly one action, found {found}")
        at = _seconds(raw["at"])
        if not math.isfinite(at):
            raise scenario.error(
                f"steps[{i}].at", f"invalid time {_spelling(raw['at'])}: {TIME_EXPECTED}"
            )
        if at < last:
            raise scenario.error(
                f"steps[{i}].at", f"time goes backwards: {raw['at']} is before the previous "
                f"step's {last:g}s"
            )
        last = at
        steps.append(Step(i, at, actions[0], raw[actions[0]], str(raw.get("name", ""))))
    return tuple(steps)
