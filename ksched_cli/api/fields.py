"""Typed access to fields of a decoded manifest, raising ObjectError with the field path."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ObjectError

Raw = Mapping[str, Any]


def mapping(raw: Raw, key: str, path: str) -> Raw:
    value = raw.get(key)
    if value is None:
        return {}
    if type(value) is not dict and not isinstance(value, Mapping):  # dict: no ABC check
        raise ObjectError(f"{path}.{key}", f"expected an object, got {type_name(value)}")
    return value


def seq(raw: Raw, key: str, path: str) -> list[Any]:
    value = raw.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise ObjectError(f"{path}.{key}", f"expected a list, got {type_name(value)}")
    return value


def objects(raw: Raw, key: str, path: str) -> list[tuple[str, Raw]]:
    """The list under ``key`` as (item path, item mapping) pairs."""
    out = []
    for i, item in enumerate(seq(raw, key, path)):
        item_path = f"{path}.{key}[{i}]"
        if type(item) is not dict and not isinstance(item, Mapping):
            raise ObjectError(item_path, f"expected an object, got {type_name(item)}")
        out.append((item_path, item))
    return out


def string(raw: Raw, key: str, path: str, default: str = "") -> str:
    value = raw.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise ObjectError(f"{path}.{key}", f"expected a string, got {type_name(value)}")
    return value


def integer(raw: Raw, key: str, path: str, default: int | None = None) -> int | None:
    value = raw.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ObjectError(f"{path}.{key}", f"expected an integer, got {type_name(value)}")
    return value


def boolean(raw: Raw, key: str, path: str, default: bool = False) -> bool:
    value = raw.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ObjectError(f"{path}.{key}", f"expected a boolean, got {type_name(value)}")
    return value


def string_map(raw: Raw, key: str, path: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for k, v in mapping(raw, key, path).items():
        if v is None:
            v = ""
        if isinstance(v, bool) or not isinstance(v, (str, int, float)):
            raise ObjectError(f"{path}.{key}.{k}", f"expected a string, got {type_name(v)}")
        out[str(k)] = v if isinstance(v, str) else str(v)
    return out


def strings(raw: Raw, key: str, path: str) -> list[str]:
    out = []
    for i, v in enumerate(seq(raw, key, path)):
        if not isinstance(v, str):
            raise ObjectError(f"{path}.{key}[{i}]", f"expected a string, got {type_name(v)}")
        out.append(v)
    return out


def type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__
