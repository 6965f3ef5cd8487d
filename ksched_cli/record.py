"""``record``: a dataclass that is cheap to create at start-up.

The standard ``@dataclass`` compiles every method it adds from source text when the
class is created: ``__init__``, ``__repr__`` and ``__eq__``, then ``__setattr__``,
``__delattr__`` and ``__hash__`` for a frozen class, and it renders a signature for
``__doc__``. A command creates some 110 classes before it plans one pod, and those
compilations were a quarter of a one-node plan.

``record`` lets ``dataclasses`` compile only ``__init__`` (the hot one) and gives the
class ``__eq__``, ``__hash__`` and ``__repr__`` built once here, with the standard
rules: equality only between instances of the same class over the fields that
compare, a hash over those fields for a frozen class and none for a mutable one, the
same ``repr`` text, and a method the class defines itself left alone. The result is a
real dataclass (``fields``, ``replace`` and ``asdict`` work).

A class without slots is made a dataclass only when first needed: on its first
instance, or when its fields are first asked for (``fields``, ``is_dataclass``, a
subclass). About half the record classes a plan imports are never instantiated in it,
and each one's processing costs about as much as compiling its ``__init__``. A class
with slots is rebuilt by ``dataclasses`` and one that writes its own ``__init__`` keeps
it, so both are made at once. Until then the class reads as the plain class it was
written as (no ``__eq__`` or ``__hash__`` of its own yet); no instance sees that.

Frozenness is checked statically (mypy reads ``frozen`` through
``dataclass_transform``), not by a ``__setattr__`` at run time.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The fields as a tuple, read in C (a tuple compares item by identity first)."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    if not names:
        return lambda obj: ()
    return attrgetter(*names)  # several names: a tuple


def _repr(shown: tuple[str, ...]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        body = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({body})"

    return __repr__


def _eq(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


def _explicit_hash(cls: type) -> bool:
    own = cls.__dict__.get("__hash__", dataclasses.MISSING)
    return not (own is dataclasses.MISSING or (own is None and "__eq__" in cls.__dict__))


def _finish(cls: type, frozen: bool, eq: bool, slots: bool) -> type:
    explicit_hash = _explicit_hash(cls)
    made: type = dataclasses.dataclass(cls, repr=False, eq=False, slots=slots)
    fields = dataclasses.fields(made)
    methods: dict[str, Callable[..., Any]] = {
        "__repr__": _repr(tuple(f.name for f in fields if f.repr))
    }
    if eq:
        methods["__eq__"] = _eq(_key(tuple(f.name for f in fields if f.compare)))
    for name, method in methods.items():
        if name not in made.__dict__:  # a method the class writes itself stays
            method.__qualname__ = f"{made.__qualname__}.{name}"
            setattr(made, name, method)
    if eq and not explicit_hash:
        hashed = _key(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))
        made.__hash__ = _hash(hashed) if frozen else None  # type: ignore[assignment,method-assign]
    return made


class _Fields:
    """Stands for a deferred class's ``__dataclass_fields__``: reading it makes the class."""

    __slots__ = ("cls", "eq", "frozen")

    def __init__(self, cls: type, frozen: bool, eq: bool) -> None:
        self.cls, self.frozen, self.eq = cls, frozen, eq

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        return _made(self).__dict__[_FIELDS]


_FIELDS = "__dataclass_fields__"


def _made(deferred: _Fields) -> type:
    """The deferred class, made a dataclass (once: its stand-ins are gone after)."""
    cls = deferred.cls
    if cls.__dict__.get(_FIELDS) is deferred:
        delattr(cls, _FIELDS)
        delattr(cls, "__init__")
        _finish(cls, deferred.frozen, deferred.eq, False)
    return cls


def _defer(cls: type, frozen: bool, eq: bool) -> type:
    deferred = _Fields(cls, frozen, eq)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        _made(deferred).__init__(self, *args, **kwargs)  # type: ignore[misc]

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, _FIELDS, deferred)
    cls.__init__ = __init__  # type: ignore[misc]
    return cls


@overload
def record(cls: type[_T], /) -> type[_T]: ...


@overload
def record(
    *, frozen: bool = False, eq: bool = True, slots: bool = False
) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(field_specifiers=(dataclasses.field, dataclasses.Field))
def record(
    cls: type[_T] | None = None, /, *, frozen: bool = False, eq: bool = True, slots: bool = False
) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """``@dataclass`` with the same options, cheaper to create (see the module)."""

    def wrap(target: type[_T]) -> type[_T]:
        if target.__doc__ is None:
            target.__doc__ = target.__name__  # else dataclasses renders a signature for it
        if slots or "__init__" in target.__dict__:
            return _finish(target, frozen, eq, slots)
        return _defer(target, frozen, eq)

    return wrap if cls is None else wrap(cls)
