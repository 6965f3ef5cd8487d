"""``extenders:``: v1.30 validation (validateExtenders) and the typed, defaulted entries.

v1's SetDefaults leaves extenders alone; the only default is NewHTTPExtender's
5s timeout when ``httpTimeout`` is zero or absent.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from ..readers import refusal
from .godur import parse_duration
from .names import is_extended_resource_name, qualified_name_errors
from .problems import Problem, child, invalid, plain
from .types import Extender, ExtenderTLSConfig

DEFAULT_EXTENDER_TIMEOUT_SECONDS = 5.0
# A CA bundle of every public root is about 220 KB; a key or certificate is a few KB.
TLS_FILE_LIMIT = (4 << 20, "4 MiB", "a TLS file")


def _managed_resource(path: str, name: str) -> list[Problem]:
    errors = [invalid(path, name, msg) for msg in qualified_name_errors(name)]
    if not errors and not is_extended_resource_name(name):
        errors.append(invalid(path, name, "is an invalid extended resource name"))
    return errors


def validate_extenders(extenders: list[dict[str, Any]]) -> list[Problem]:
    problems: list[Problem] = []
    binders = 0
    managed: set[str] = set()
    for i, extender in enumerate(extenders):
        path = child("extenders", i)
        weight = extender.get("weight") or 0
        if extender.get("prioritizeVerb") and weight <= 0:
            problems.append(
                invalid(child(path, "weight"), weight, "must have a positive weight applied to it")
            )
        if extender.get("bindVerb"):
            binders += 1
        for j, resource in enumerate(extender.get("managedResources") or []):
            name = (resource or {}).get("name") or ""
            where = child(path, "managedResources", j, "name")
            problems += _managed_resource(where, name)
            if name in managed:
                problems.append(invalid(where, name, "duplicate extender managed resource name"))
            managed.add(name)
        problems += _tls_data(path, extender.get("tlsConfig"))
        problems += _tls_files(path, extender.get("tlsConfig"))
    if binders > 1:
        detail = "only one extender can implement bind"
        problems.append(
            invalid("extenders", f"found {binders} extenders implementing bind", detail)
        )
    return problems


def _tls_data(path: str, tls: Any) -> list[Problem]:
    """certData, keyData and caData are []byte: base64 in JSON and YAML, checked on decoding.

    The value is never repeated in the message: it may be a private key.
    """
    if not isinstance(tls, Mapping):
        return []
    problems = []
    for key in ("certData", "keyData", "caData"):
        value = tls.get(key)
        offset = base64_error_offset(value) if isinstance(value, str) else None
        if offset is not None:
            where = child(path, "tlsConfig", key)
            problems.append(plain(where, f"illegal base64 data at input byte {offset}"))
    return problems


def _tls_files(path: str, tls: Any) -> list[Problem]:
    """caFile, certFile and keyFile that exist but would never be read: a device, a FIFO, a
    directory, or a file over the limit. A missing file is not a problem here: the
    configuration may be checked away from the machine holding the files."""
    if not isinstance(tls, Mapping):
        return []
    problems = []
    for name in ("ca", "cert", "key"):
        file = tls.get(f"{name}File")
        if not isinstance(file, str) or not file or tls.get(f"{name}Data"):
            continue  # inline data wins (dataFromSliceOrFile)
        try:
            info = os.stat(file)
        except (OSError, ValueError):
            continue
        problem = refusal(info.st_mode, info.st_size, *TLS_FILE_LIMIT)
        if problem:
            where = child(path, "tlsConfig", f"{name}File")
            problems.append(plain(where, f"{file}: {problem} (ksched reads regular files only)"))
    return problems


_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def base64_error_offset(text: str) -> int | None:
    """Where Go's base64.StdEncoding.Decode stops on ``text`` (CorruptInputError), or None.

    Padding is required; CR and LF are skipped anywhere, as Go skips them.
    """
    data, i, n = text, 0, len(text)
    while True:
        quantum = 0
        while quantum < 4:
            if i == n:
                return None if quantum == 0 else i - quantum
            c = data[i]
            i += 1
            if c in "\r\n":
                continue
            if c in _ALPHABET:
                quantum += 1
                continue
            if c != "=" or quantum < 2:
                return i - 1
            if quantum == 2:  # a second "=" must follow
                while i < n and data[i] in "\r\n":
                    i += 1
                if i == n:
                    return n
                if data[i] != "=":
                    return i - 1
                i += 1
            while i < n and data[i] in "\r\n":
                i += 1
            return i if i < n else None  # anything after the padding is an error


def _text(raw: Mapping[str, Any], key: str) -> str:
    return str(raw.get(key) or "")


def _tls(raw: Any) -> ExtenderTLSConfig | None:
    if not isinstance(raw, Mapping):
        return None
    return ExtenderTLSConfig(
        insecure=bool(raw.get("insecure")),
        server_name=_text(raw, "serverName"),
        cert_file=_text(raw, "certFile"),
        key_file=_text(raw, "keyFile"),
        ca_file=_text(raw, "caFile"),
        cert_data=_text(raw, "certData"),
        key_data=_text(raw, "keyData"),
        ca_data=_text(raw, "caData"),
    )


def _timeout(raw: Mapping[str, Any]) -> float:
    text = raw.get("httpTimeout")
    nanos = parse_duration(text) if isinstance(text, str) and text else 0
    return nanos / 1e9 if nanos > 0 else DEFAULT_EXTENDER_TIMEOUT_SECONDS


def typed_extender(raw: Mapping[str, Any]) -> Extender:
    """One validated entry as the engine uses it."""
    resources = tuple(
        str((r or {}).get("name") or "") for r in raw.get("managedResources") or []
    )
    return Extender(
        url_prefix=_text(raw, "urlPrefix"),
        filter_verb=_text(raw, "filterVerb"),
        preempt_verb=_text(raw, "preemptVerb"),
        prioritize_verb=_text(raw, "prioritizeVerb"),
        bind_verb=_text(raw, "bindVerb"),
        weight=int(raw.get("weight") or 0),
        enable_https=bool(raw.get("enableHTTPS")),
        tls_config=_tls(raw.get("tlsConfig")),
        http_timeout_seconds=_timeout(raw),
        node_cache_capable=bool(raw.get("nodeCacheCapable")),
        managed_resources=resources,
        ignorable=bool(raw.get("ignorable")),
    )
