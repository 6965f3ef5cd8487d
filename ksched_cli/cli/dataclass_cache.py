"""Dataclass methods compiled once and cached beside ksched's bytecode (start-up time).

Python writes each dataclass's ``__init__``, ``__repr__``, ``__eq__`` (and a frozen
class's ``__setattr__``, ``__delattr__`` and ``__hash__``) as source text and compiles
it whenever the class is created, that is in every process: for a short plan this is
about a third of ksched's own import time. ``install`` makes ``dataclasses`` run code
objects compiled from the very same text instead, read from a cache keyed by that text,
so every class is exactly what it would be without the cache.

One cache file per module, next to the module's ``.pyc`` (``PYTHONPYCACHEPREFIX`` is
honoured), holds the methods its classes used; it is written at exit when some were
compiled anew, unless Python writes no bytecode (``PYTHONDONTWRITEBYTECODE``, ``-B``).
A file that cannot be read or written is ignored: the methods are then compiled as usual.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import dataclasses
import importlib.util
import marshal
import os
import sys
from types import CodeType
from typing import Any

_SUFFIX = ".dataclasses"


class _ModuleCache:
    """One module's compiled methods: those read from its file, those used this run."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.stored = _read(path)
        self.used: dict[str, CodeType] = {}
        self.compiled = False

    def code(self, source: str) -> CodeType:
        code = self.stored.get(source)
        if code is None:
            # As exec compiles source text: file "<string>", no inherited __future__ flags.
            code = compile(source, "<string>", "exec", dont_inherit=True)
            self.compiled = True
        self.used[source] = code
        return code

    def write(self) -> None:
        temporary = f"{self.path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            with open(temporary, "wb") as out:
                marshal.dump((importlib.util.MAGIC_NUMBER, self.used), out)
            os.replace(temporary, self.path)
        except OSError:  # read-only or full: compiled again next time
            with contextlib.suppress(OSError):
                os.remove(temporary)


def _read(path: str) -> dict[str, CodeType]:
    try:
        with open(path, "rb") as handle:
            magic, stored = marshal.loads(handle.read())  # load() reads piece by piece
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    # Bytecode of another interpreter version is compiled again (then rewritten).
    return stored if magic == importlib.util.MAGIC_NUMBER and isinstance(stored, dict) else {}


_caches: dict[str, _ModuleCache | None] = {}


def _module_cache(namespace: dict[str, Any] | None) -> _ModuleCache | None:
    """The cache of the module whose namespace ``dataclasses`` executes the text in."""
    name = namespace.get("__name__") if namespace is not None else None
    if not isinstance(name, str):
        return None
    if name not in _caches:
        module = sys.modules.get(name)
        source = getattr(module, "__file__", None)
        cache = None
        if isinstance(source, str) and source.endswith(".py"):
            compiled = importlib.util.cache_from_source(source)
            cache = _ModuleCache(compiled.removesuffix(".pyc") + _SUFFIX)
        _caches[name] = cache
    return _caches[name]


def _exec(source: Any, namespace: Any = None, local: Any = None) -> None:
    cache = _module_cache(namespace) if isinstance(source, str) else None
    code = cache.code(source) if cache is not None else source
    builtins.exec(code, namespace, local)


def _write_all() -> None:
    if sys.dont_write_bytecode:
        return
    for cache in _caches.values():
        if cache is not None and cache.compiled:
            cache.write()


def install() -> None:
    """From now on, classes made dataclasses use the cache (idempotent)."""
    if getattr(dataclasses, "exec", None) is _exec:
        return
    # dataclasses calls exec by its global name: a module attribute of that name wins
    # over the builtin.
    setattr(dataclasses, "exec", _exec)  # noqa: B010
    atexit.register(_write_all)
