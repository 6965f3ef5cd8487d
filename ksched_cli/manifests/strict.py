"""Unknown fields, found as the API server's strict field validation finds them.

Each kind's published OpenAPI schema (``schemas``) is compiled once into a tree of
``Shape``s that keeps only what decides a field's existence: for an object its field
names and the shapes of the fields that hold objects or lists; for a list its item
shape; for a map its value shape. Scalars and free-form objects are not descended.

Value rules (``validation.RULES``) hang on the shapes of the API types they judge
(ObjectMeta, Container, ResourceRequirements, ...), so they run in the same walk and
apply wherever the type appears: in a Pod, and in a workload's pod template alike.

Checking an object is then one C-level ``issuperset`` per mapping, a dict lookup per
field holding a collection and the rules' set lookups. On a 150,000-pod snapshot that
costs less than computing a structural fingerprint of each object would (measured), so
every object is walked directly, and field paths are built only for an object with a
problem. Messages are the API server's: ``unknown field "spec.containers[0].resource"``.
``status`` (top level) and ``metadata.managedFields`` are not checked.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from .. import KUBE_SCHEDULER_VERSION
from ..api.fields import type_name
from ..api.validation import go_quote
from ..codecache import cache_path, kept
from . import schemas
from .validation import RULES, Rule

OBJECT, LIST, MAP = 0, 1, 2
INT_BOUNDS = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
_INT_TYPE = "integer"
# A map of strings (labels, annotations, nodeSelector): its values must be strings.
STRING_MAP = "map[string]string"
# A string field (a name, an image): go-yaml's booleans and numbers are refused there.
STRING = "string"
_STRING_TYPES = frozenset(("string", "null"))


def _types(schema: dict[str, Any]) -> tuple[str, ...]:
    kind = schema.get("type")
    return tuple(kind) if isinstance(kind, list) else (kind,) if isinstance(kind, str) else ()


def _fits(number: int, go_type: str) -> bool:
    low, high = INT_BOUNDS[go_type]
    return low <= number <= high
SKIPPED_TOP_LEVEL = "status"
SKIPPED_META = "managedFields"
_REF = "#/$defs/"


class Shape:
    """What strict decoding checks at one place of an object."""

    __slots__ = ("allowed", "checks", "definition", "form", "inner", "ints", "nested", "rule",
                 "type_name")

    def __init__(self, form: int, definition: str = "") -> None:
        self.form = form
        self.definition = definition  # OBJECT: the API type's definition, if it has one
        self.rule: Rule | None = RULES.get(definition) if definition else None  # its checks
        self.allowed: frozenset[str] = frozenset()  # OBJECT: every field name
        self.nested: dict[str, Shape] = {}  # OBJECT: fields holding objects or lists
        self.inner: Shape | None = None  # LIST: the items' shape; MAP: the values'
        # OBJECT: integer fields -> their Go type ("int32", "int64"); Go's decoding refuses
        # numbers out of range, which would otherwise overflow ksched's int64 arithmetic.
        self.ints: dict[str, str] = {}
        self.type_name = ""  # OBJECT: the Go struct's name, for decoding messages
        # OBJECT: ``nested`` and ``ints`` in one table (a field is one or the other), so
        # the fast path looks each present field up once.
        # A Shape for a collection field, the Go type's name for an integer one.
        self.checks: dict[str, Shape | str] = {}

    def seal(self) -> None:
        """Build ``checks`` once ``nested`` and ``ints`` are final."""
        self.checks = {**self.nested, **self.ints}


class _Compiler:
    def __init__(self, defs: Mapping[str, Any]) -> None:
        self.defs = defs
        self.named: dict[str, Shape | None] = {}

    def ref(self, name: str) -> Shape | None:
        if name in self.named:
            return self.named[name]
        schema = self.defs[name]
        if "properties" not in schema:
            self.named[name] = shape = self.schema(schema)
            return shape
        shape = Shape(OBJECT, name)
        shape.type_name = name.rsplit(".", 1)[-1]
        self.named[name] = shape  # before the fields: definitions may refer to themselves
        self._fill(shape, schema["properties"])
        return shape

    def schema(self, schema: dict[str, Any]) -> Shape | None:
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self.ref(ref.rsplit("/", 1)[-1])
        if "properties" in schema:
            shape = Shape(OBJECT)
            self._fill(shape, schema["properties"])
            return shape
        items = schema.get("items")
        if isinstance(items, dict):
            return self._wrap(LIST, self.schema(items))
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            return self._wrap(MAP, self.schema(extra))
        return None  # a scalar, a union of scalars, or a free-form object

    def _fill(self, shape: Shape, properties: dict[str, Any]) -> None:
        shape.allowed = frozenset(properties)
        for name, sub in properties.items():
            if _INT_TYPE in _types(sub) and sub.get("format") in INT_BOUNDS:
                shape.ints[name] = sub["format"]
            extra = sub.get("additionalProperties")
            if isinstance(extra, dict) and "string" in _types(extra) and "$ref" not in extra:
                shape.ints[name] = STRING_MAP
            types = _types(sub)
            if "string" in types and _STRING_TYPES.issuperset(types) and "$ref" not in sub \
                    and sub.get("format") != "byte":
                shape.ints[name] = STRING
            compiled = self.schema(sub)
            if compiled is not None:
                shape.nested[name] = compiled
        shape.seal()

    @staticmethod
    def _wrap(form: int, inner: Shape | None) -> Shape | None:
        if inner is None:
            return None
        shape = Shape(form)
        shape.inner = inner
        return shape


@cache
def _compiler(version: str) -> _Compiler:
    compiler = _Compiler(schemas.definitions(version))
    meta = compiler.ref("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
    if meta is not None:
        meta.nested.pop(SKIPPED_META, None)
        meta.seal()
    return compiler


@cache
def kind_shape(api_version: str, kind: str, version: str = KUBE_SCHEDULER_VERSION) -> Shape | None:
    """The root shape of a kind, or None when no published schema describes it (a CRD).
    Its shapes are kept between runs beside this module's bytecode, for as long as the
    schema file and this module are unchanged: compiling a Pod's and a Node's cost a
    one-node plan some 18 million instructions."""
    defs = schemas.definitions(version)
    name = defs.kinds().get((api_version, kind))
    if name is None:
        return None
    if not defs.source:
        return _compile_kind(version, name)
    key = repr((defs.source, os.stat(__file__).st_mtime_ns))
    path = cache_path(__file__, f".{defs.tag}.{name}.shape")
    return kept(path, key, lambda: _rows(_compile_kind(version, name)), _read_rows)


def _compile_kind(version: str, name: str) -> Shape | None:
    compiled = _compiler(version).ref(name)
    if compiled is None or SKIPPED_TOP_LEVEL not in compiled.nested:
        return compiled
    root = Shape(OBJECT, compiled.definition)
    root.allowed, root.ints, root.type_name = compiled.allowed, compiled.ints, compiled.type_name
    root.nested = {k: v for k, v in compiled.nested.items() if k != SKIPPED_TOP_LEVEL}
    root.seal()
    return root


# A kind's shapes as marshal keeps them: one row per shape, breadth-first from the root,
# each naming the shapes under it by row number (a definition may refer to itself).
# (form, definition, type name, field names, integer and string fields, nested field ->
# row, inner row or -1)
Row = tuple[int, str, str, tuple[str, ...], dict[str, str], dict[str, int], int]


def _rows(root: Shape | None) -> tuple[Row, ...]:
    """() for no shape."""
    if root is None:
        return ()
    shapes, number = [root], {id(root): 0}

    def row_of(shape: Shape) -> int:
        if id(shape) not in number:
            number[id(shape)] = len(shapes)
            shapes.append(shape)
        return number[id(shape)]

    rows = []
    for shape in shapes:  # grows while walked
        nested = {name: row_of(sub) for name, sub in shape.nested.items()}
        inner = row_of(shape.inner) if shape.inner is not None else -1
        rows.append((shape.form, shape.definition, shape.type_name, tuple(sorted(shape.allowed)),
                     dict(shape.ints), nested, inner))
    return tuple(rows)


def _read_rows(rows: Any) -> Shape | None:
    """The root shape of kept rows (None for no shape); a ValueError for rows of another
    form, which are then compiled and written afresh."""
    if rows == ():
        return None
    shape = _from_rows(rows)
    if shape is None:
        raise ValueError("not a kind's shapes")
    return shape


_KEPT_TYPES = {STRING: STRING, STRING_MAP: STRING_MAP, "int32": "int32", "int64": "int64"}


def _from_rows(rows: Any) -> Shape | None:
    """The root shape the rows describe; None for rows not of that form (the file can
    hold anything), so that the kind is compiled afresh. Integer and string fields are
    marked with this module's own constants: the checks compare them by identity."""
    if type(rows) is not tuple or not rows or not all(_is_row(row, len(rows)) for row in rows):
        return None
    shapes = [Shape(row[0], row[1]) for row in rows]
    for shape, (_, _, go_name, allowed, ints, nested, inner) in zip(shapes, rows, strict=True):
        shape.type_name, shape.allowed = go_name, frozenset(allowed)
        shape.ints = {field: _KEPT_TYPES[v] for field, v in ints.items()}
        shape.nested = {field: shapes[at] for field, at in nested.items()}
        shape.inner = shapes[inner] if inner >= 0 else None
        shape.seal()
    return shapes[0]


def _is_row(row: Any, count: int) -> bool:
    """One row of the form ``_rows`` writes, naming rows among ``count``; an object's
    row has no inner shape, a list's or a map's has one."""
    if not (type(row) is tuple and len(row) == 7):
        return False
    form, definition, go_name, allowed, ints, nested, inner = row
    return (type(form) is int and form in (OBJECT, LIST, MAP) and type(definition) is str
            and type(go_name) is str and type(allowed) is tuple
            and all(type(n) is str for n in allowed) and type(ints) is dict
            and all(type(k) is str and type(v) is str and v in _KEPT_TYPES
                    for k, v in ints.items())
            and type(nested) is dict
            and all(type(k) is str and type(v) is int and 0 <= v < count
                    for k, v in nested.items())
            and type(inner) is int and -1 <= inner < count
            and (inner < 0) == (form == OBJECT))


def field_problems(raw: Any, shape: Shape) -> list[tuple[str, str]]:
    """(field path, message) for each unknown field, each scalar where a collection belongs
    and each value a rule refuses; [] almost always, at the cost of one fast pass."""
    if _known(raw, shape):
        return []
    return list(_problems(raw, shape, ""))


def _known(value: Any, shape: Shape) -> bool:
    """True when nothing under ``value`` is wrong: the fast path, no paths kept."""
    form = shape.form
    if form == OBJECT:
        if type(value) is not dict:
            return value is None
        if not shape.allowed.issuperset(value):
            return False
        rule = shape.rule
        if rule is not None and rule(value):
            return False
        checks = shape.checks
        for key, item in value.items():
            sub = checks.get(key)
            if sub is None:
                continue
            if isinstance(sub, str):  # an integer field: Go refuses a number its type cannot hold
                if sub is STRING:
                    if type(item) is not str and item is not None:
                        return False
                elif sub is STRING_MAP:
                    if type(item) is dict and not _all_strings(item):
                        return False
                elif type(item) is int and not _fits(item, sub):
                    return False
                continue
            if sub.form == LIST and type(item) is list:  # inlined: saves a call per list
                inner = sub.inner
                for element in item:
                    if not _known(element, inner):  # type: ignore[arg-type]
                        return False
            elif not _known(item, sub):
                return False
        return True
    inner = shape.inner
    assert inner is not None
    if type(value) is not (list if form == LIST else dict):
        return value is None
    collection: Any = value
    for item in collection if form == LIST else collection.values():
        if not _known(item, inner):
            return False
    return True


def _all_strings(values: dict[Any, Any]) -> bool:
    """Every value a string (null decodes to "" in Go)."""
    return all(type(v) is str or v is None for v in values.values())


def _json_kind(value: Any) -> str:
    """What Go's JSON decoder calls a value in a type error."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return "array" if isinstance(value, list) else "object" if isinstance(value, dict) \
        else type_name(value)


def _type_error(found: str, shape: Shape, go_path: str, go_type: str) -> str:
    """encoding/json's UnmarshalTypeError: the innermost struct and the path of struct
    fields from the root (no list indexes, no map keys)."""
    return f"json: cannot unmarshal {found} into Go struct field {shape.type_name}.{go_path} " \
        f"of type {go_type}"


def _string_map_problems(
    value: Any, shape: Shape, here: str, go_here: str
) -> Iterator[tuple[str, str]]:
    """Go's typed decoding of a map[string]string: a boolean or a number is refused."""
    if type(value) is not dict:
        return
    for key, item in value.items():
        if type(item) is not str and item is not None and not isinstance(item, (list, dict)):
            yield f"{here}.{key}", _type_error(_json_kind(item), shape, go_here, "string")


def _problems(value: Any, shape: Shape, path: str, go_path: str = "") -> Iterator[tuple[str, str]]:
    inner = shape.inner
    if value is None:
        return
    if shape.form == OBJECT and isinstance(value, dict):
        yield from _object_problems(value, shape, path, go_path)
    elif shape.form == LIST and isinstance(value, list) and inner is not None:
        for index, item in enumerate(value):
            yield from _problems(item, inner, f"{path}[{index}]", go_path)
    elif shape.form == MAP and isinstance(value, dict) and inner is not None:
        for key, item in value.items():
            yield from _problems(item, inner, f"{path}.{key}" if path else str(key), go_path)
    else:
        expected = "a list" if shape.form == LIST else "an object"
        yield path, f"expected {expected}, got {type_name(value)}"


def _object_problems(
    value: dict[Any, Any], shape: Shape, path: str, go_path: str
) -> Iterator[tuple[str, str]]:
    if shape.rule is not None:
        for suffix, message in shape.rule(value):
            yield (f"{path}.{suffix}" if path else suffix), message
    for key, go_type in shape.ints.items():
        if key not in value:
            continue
        item = value[key]
        here = f"{path}.{key}" if path else key
        go_here = f"{go_path}.{key}" if go_path else key
        if go_type is STRING_MAP:
            yield from _string_map_problems(item, shape, here, go_here)
        elif go_type is STRING:
            if type(item) is not str and item is not None:
                yield here, _type_error(_json_kind(item), shape, go_here, "string")
        elif type(item) is int and not _fits(item, go_type):
            yield here, _type_error(f"number {item}", shape, go_here, go_type)
    for key, item in value.items():
        here = f"{path}.{key}" if path else str(key)
        if key not in shape.allowed:
            yield here, unknown_field_message(here)
        elif key in shape.nested:
            go_here = f"{go_path}.{key}" if go_path else str(key)
            yield from _problems(item, shape.nested[key], here, go_here)


def unknown_field_message(path: str) -> str:
    """sigs.k8s.io/json's strict error text (Go's strconv.Quote of the path)."""
    return f"unknown field {go_quote(path)}"


def duplicate_field_message(path: str) -> str:
    return f"duplicate field {go_quote(path)}"
