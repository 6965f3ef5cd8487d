"""Decoding JSON values into Go types as encoding/json does, with its type errors.

A ``GoType`` describes the Go type a reply is decoded into (k8s.io/kube-scheduler's
extender/v1 types, see replies.py). ``unmarshal`` returns plain Python values (structs
as dicts keyed by Go field name) or raises ``GoJSONError`` with Go's message for the
first value, in document order, that does not fit:
``json: cannot unmarshal string into Go struct field HostPriority.Score of type int64``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from ..record import record
from .gojson import GoFloat, GoJSONError, JSONObject

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


@record(frozen=True)
class GoType:
    """``name`` is Go's reflect Type.String(); ``kind`` one of string, int64, slice, map,
    struct or any (a value ksched does not read, taken as it is)."""

    name: str
    kind: str
    elem: GoType | None = None  # slice and map elements
    fields: tuple[tuple[str, GoType], ...] = ()
    pointer: bool = False  # null makes it nil (None) instead of leaving it unchanged

    @property
    def struct_name(self) -> str:
        return self.name.rsplit(".", 1)[-1]


STRING = GoType("string", "string")
INT64 = GoType("int64", "int64")
ANY = GoType("interface {}", "any")


def struct(name: str, *fields: tuple[str, GoType], pointer: bool = False) -> GoType:
    return GoType(name, "struct", fields=fields, pointer=pointer)


def slice_of(elem: GoType, name: str = "", pointer: bool = False) -> GoType:
    return GoType(name or f"[]{'*' if elem.pointer else ''}{elem.name}", "slice", elem, (), pointer)


def map_of(elem: GoType, name: str = "") -> GoType:
    return GoType(name or f"map[string]{'*' if elem.pointer else ''}{elem.name}", "map", elem)


@record
class _Context:
    """encoding/json's errorContext: the innermost struct and the field names down to it."""

    struct: str = ""
    stack: list[str] = field(default_factory=list)


def unmarshal(value: Any, typ: GoType) -> Any:
    """``value`` (from gojson.decode or a stub file) decoded into ``typ``.

    A struct (not a pointer) decoded from null is its zero value, as in Go.
    """
    return _Unmarshal().value(value, typ, zero(typ) if typ.kind == "struct" else None, _Context())


def zero(typ: GoType) -> Any:
    """Go's zero value: "", 0, a struct of zero fields; nil (None) for the rest."""
    if typ.pointer:
        return None
    if typ.kind == "struct":
        return {name: zero(t) for name, t in typ.fields}
    return {"string": "", "int64": 0}.get(typ.kind)


def _describe(value: Any, typ: GoType) -> str:
    """UnmarshalTypeError.Value: the JSON kind, with the literal for numbers meant as ints."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        if typ.kind != "int64":
            return "number"
        return f"number {value.literal if isinstance(value, GoFloat) else value}"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    return "array"


class _Unmarshal:
    def value(self, value: Any, typ: GoType, current: Any, ctx: _Context) -> Any:
        if value is None:
            # null leaves a string or a number as it was and clears pointers, slices, maps.
            return None if typ.pointer or typ.kind in ("slice", "map", "any") else current
        kind = typ.kind
        if kind == "any":
            return value
        if kind == "string" and isinstance(value, str):
            return value
        if kind == "int64" and _is_int64(value):
            return int(value)
        if kind == "slice" and isinstance(value, list):
            assert typ.elem is not None
            return [self.value(item, typ.elem, zero(typ.elem), ctx) for item in value]
        if kind == "map" and isinstance(value, Mapping):
            return self._map(value, typ, current, ctx)
        if kind == "struct" and isinstance(value, Mapping):
            return self._struct(value, typ, current, ctx)
        raise GoJSONError(_type_error(_describe(value, typ), typ, ctx))

    def _map(self, value: Mapping[str, Any], typ: GoType, current: Any, ctx: _Context) -> Any:
        assert typ.elem is not None
        # A repeated map field adds to the map decoded before, as Go reuses it.
        result: dict[str, Any] = dict(current) if isinstance(current, dict) else {}
        for key, item in _pairs(value):
            # Each element is decoded into a fresh zero value, then stored.
            result[key] = self.value(item, typ.elem, zero(typ.elem), ctx)
        return result

    def _struct(
        self, value: Mapping[str, Any], typ: GoType, current: Any, ctx: _Context
    ) -> dict[str, Any]:
        result: dict[str, Any] = dict(current) if isinstance(current, dict) else {}
        result.update((name, zero(t)) for name, t in typ.fields if name not in result)
        fields = dict(typ.fields)
        folded = {name.lower(): name for name, _ in typ.fields}
        for key, item in _pairs(value):
            # An exact name first, then any case, as Go matches keys to fields.
            name = key if key in fields else folded.get(key.lower())
            if name is None:
                continue  # unknown fields are ignored
            inner = _Context(typ.struct_name, [*ctx.stack, name])
            result[name] = self.value(item, fields[name], result[name], inner)
        return result


def _pairs(value: Mapping[str, Any]) -> list[tuple[str, Any]]:
    return value.pairs if isinstance(value, JSONObject) else list(value.items())


def _is_int64(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, int):
        return False  # a number with a fraction or an exponent fails strconv.ParseInt
    return INT64_MIN <= value <= INT64_MAX


def _type_error(described: str, typ: GoType, ctx: _Context) -> str:
    target = typ.name
    if ctx.struct or ctx.stack:
        where = f"Go struct field {ctx.struct}.{'.'.join(ctx.stack)}"
    else:
        where = "Go value"
    return f"json: cannot unmarshal {described} into {where} of type {target}"
