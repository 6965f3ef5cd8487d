"""``record``: ``@dataclass`` with the same options, nearly free at start-up.

``@dataclass`` costs a command's start-up more than any other single thing: it reads
every field through ``dataclasses``' machinery and compiles ``__init__``, ``__repr__``
and ``__eq__`` from source when the class is created, and a one-node plan creates
some 110 such classes. ``record`` does only what a class needs before its first
instance: it reads the fields from the annotations (as ``dataclasses`` does: a
``field(...)`` or a plain default, ``ClassVar`` skipped, a base record's fields
first), rebuilds the class with ``__slots__`` when asked, and gives it ``__eq__``,
``__hash__`` and ``__repr__`` built once here with the standard rules (equality only
between instances of the same class over the fields that compare, a hash over those
fields for a frozen class and none for a mutable one, the same ``repr`` text, a
method the class defines itself left alone).

Two things wait until used. ``__init__`` is compiled on the first instance (one code
object per shape of fields, shared by classes of the same shape, and kept between runs
beside the bytecode by ``codecache``). The standard
``__dataclass_fields__`` is made by ``dataclasses`` itself, from a copy of the
fields, when first read: ``fields``, ``replace``, ``asdict`` and ``is_dataclass`` see
a real dataclass; ``field_specs`` reads a record's fields without making it.

Frozenness is checked statically (mypy reads ``frozen`` through
``dataclass_transform``), not by a ``__setattr__`` at run time. ``kw_only`` fields,
``InitVar``, ``__post_init__`` and dataclass bases that are not records are refused:
nothing here uses them, and a silent difference would be worse.
"""

from __future__ import annotations

import dataclasses
import inspect
import reprlib
from collections.abc import Callable, Iterator
from operator import attrgetter
from types import MappingProxyType
from typing import Any, TypeVar, dataclass_transform, overload

from .codecache import CodeCache, cache_path

_T = TypeVar("_T")
_MISSING: Any = dataclasses.MISSING
_SPECS = "__record_specs__"
_FIELDS = "__dataclass_fields__"
_NO_METADATA: MappingProxyType[Any, Any] = MappingProxyType({})


class FieldSpec:
    """One field as the class declares it (or a base record does)."""

    __slots__ = ("annotation", "compare", "default", "factory", "hash", "init", "metadata",
                 "name", "repr")

    def __init__(self, name: str, annotation: Any, declared: Any) -> None:
        self.name, self.annotation = name, annotation
        if isinstance(declared, dataclasses.Field):
            if declared.kw_only is True:
                raise TypeError(f"record field {name!r}: kw_only is not supported")
            self.default, self.factory = declared.default, declared.default_factory
            self.init, self.repr, self.compare = declared.init, declared.repr, declared.compare
            self.hash, self.metadata = declared.hash, declared.metadata
        else:
            self.default, self.factory = declared, _MISSING
            self.init = self.repr = self.compare = True
            self.hash, self.metadata = None, _NO_METADATA
            if declared is not _MISSING and declared.__class__.__hash__ is None:
                raise ValueError(f"mutable default {type(declared)} for field {name} "
                                 "is not allowed: use default_factory")

    def has_default(self) -> bool:
        return self.default is not _MISSING or self.factory is not _MISSING

    def as_field(self) -> Any:
        """A fresh ``dataclasses.field`` saying the same (``dataclasses`` fills it in)."""
        return dataclasses.field(default=self.default, default_factory=self.factory,
                                 init=self.init, repr=self.repr, hash=self.hash,
                                 compare=self.compare, metadata=self.metadata)


def _is_classvar(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _specs(cls: type) -> tuple[FieldSpec, ...]:
    """The fields, a base record's first, in ``dataclasses``' order; a Field object the
    class body holds is replaced by its default (or removed), as ``dataclasses`` does."""
    found: dict[str, FieldSpec] = {}
    for base in reversed(cls.__mro__[1:]):
        if _SPECS in base.__dict__:
            found.update((spec.name, spec) for spec in base.__dict__[_SPECS])
        elif _FIELDS in base.__dict__:
            raise TypeError(f"record {cls.__qualname__}: base {base.__qualname__} is a "
                            "dataclass, not a record")
    for name, annotation in inspect.get_annotations(cls).items():
        if _is_classvar(annotation):
            continue
        if str(annotation).startswith(("InitVar", "dataclasses.InitVar")):
            raise TypeError(f"record field {name!r}: InitVar is not supported")
        declared = cls.__dict__.get(name, _MISSING)
        found[name] = FieldSpec(name, annotation, declared)
        if isinstance(declared, dataclasses.Field):
            if declared.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, declared.default)
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"record {cls.__qualname__}: __post_init__ is not supported")
    specs = tuple(found.values())
    _check_order(specs)
    return specs


def field_specs(cls: type) -> tuple[FieldSpec, ...]:
    """A record's fields (name, default, metadata, ...), read without making
    ``__dataclass_fields__``, which costs ``dataclasses``' processing of the class."""
    specs: tuple[FieldSpec, ...] = cls.__dict__[_SPECS]
    return specs


def _check_order(specs: tuple[FieldSpec, ...]) -> None:
    seen_default = False
    for spec in specs:
        if not spec.init:
            continue
        if spec.has_default():
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {spec.name!r} follows default argument")


# Compiled ``__init__`` makers, by source text, kept between runs (see codecache).
_MAKERS = CodeCache(cache_path(__file__, ".inits"))
_FACTORY = object()  # the parameter default that stands for "call the default factory"


def _init_source(specs: tuple[FieldSpec, ...]) -> str:
    """The source of a function that makes ``__init__``; its arguments are the factory
    marker, then the default or factory of each field that has one, in field order."""
    self_name = "__record_self__" if any(s.name == "self" for s in specs) else "self"
    params, body, env = [self_name], [], ["__factory__"]
    for spec in specs:
        name, value = spec.name, f"_dflt_{spec.name}"
        if spec.has_default():
            env.append(value)
        if spec.factory is not _MISSING:
            made = f"{value}() if {name} is __factory__ else {name}" if spec.init else f"{value}()"
            params += [f"{name}=__factory__"] if spec.init else []
        elif spec.init:
            made = name
            params.append(f"{name}={value}" if spec.default is not _MISSING else name)
        elif spec.default is not _MISSING:
            made = value
        else:
            continue
        body.append(f"  {self_name}.{name} = {made}")
    lines = [f"def __make__({', '.join(env)}):", f" def __init__({', '.join(params)}):",
             *(body or ["  pass"]), " return __init__"]
    return "\n".join(lines)


def _build_init(cls: type, specs: tuple[FieldSpec, ...]) -> Callable[..., None]:
    maker = _MAKERS.function(_init_source(specs), "__make__")
    defaults = [s.factory if s.factory is not _MISSING else s.default
                for s in specs if s.has_default()]
    init: Callable[..., None] = maker(_FACTORY, *defaults)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    return init


def _lazy_init(cls: type, specs: tuple[FieldSpec, ...]) -> Callable[..., None]:
    """``__init__`` that compiles the real one on the first instance and hands over."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        real = _build_init(cls, specs)
        type.__setattr__(cls, "__init__", real)
        real(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


class _Fields:
    """Stands for ``__dataclass_fields__`` until it is read: ``dataclasses`` then makes
    the real one on a plain copy of the class, and it replaces this stand-in."""

    __slots__ = ("cls",)

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        cls = self.cls
        specs: tuple[FieldSpec, ...] = cls.__dict__[_SPECS]
        namespace: dict[str, Any] = {s.name: s.as_field() for s in specs}
        namespace.update(__annotations__={s.name: s.annotation for s in specs},
                         __module__=cls.__module__, __qualname__=cls.__qualname__,
                         __doc__=cls.__doc__)
        # Only the fields are taken: methods the copy would compile are not wanted.
        plain: type = type(cls.__name__, (), namespace)
        copy: type = dataclasses.dataclass(plain, init=False, repr=False, eq=False)
        fields = copy.__dict__[_FIELDS]
        type.__setattr__(cls, _FIELDS, fields)
        return fields


def _slots_of(cls: type) -> Iterator[str]:
    declared = cls.__dict__.get("__slots__")
    if isinstance(declared, str):
        yield declared
    elif declared is not None:
        yield from declared


def _with_slots(cls: type, specs: tuple[FieldSpec, ...]) -> type:
    """The class made again with a slot per field, as ``dataclasses`` does."""
    namespace = dict(cls.__dict__)
    inherited = {slot for base in cls.__mro__[1:-1] for slot in _slots_of(base)}
    names = [s.name for s in specs]
    namespace["__slots__"] = tuple(n for n in names if n not in inherited)
    for name in [*names, "__dict__", "__weakref__"]:
        namespace.pop(name, None)
    made: type = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


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
    own = cls.__dict__.get("__hash__", _MISSING)
    return not (own is _MISSING or (own is None and "__eq__" in cls.__dict__))


def _methods(cls: type, specs: tuple[FieldSpec, ...], frozen: bool, eq: bool) -> None:
    """``__repr__``, ``__eq__`` and ``__hash__`` by ``dataclasses``' rules."""
    explicit_hash = _explicit_hash(cls)
    methods: dict[str, Any] = {"__repr__": _repr(tuple(s.name for s in specs if s.repr))}
    if eq:
        methods["__eq__"] = _eq(_key(tuple(s.name for s in specs if s.compare)))
    for name, method in methods.items():
        if name not in cls.__dict__:  # a method the class writes itself stays
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    if eq and not explicit_hash:
        hashed = _key(tuple(s.name for s in specs if (s.compare if s.hash is None else s.hash)))
        cls.__hash__ = _hash(hashed) if frozen else None  # type: ignore[assignment,method-assign]


def _make(cls: type, frozen: bool, eq: bool, slots: bool) -> type:
    specs = _specs(cls)
    if slots:
        cls = _with_slots(cls, specs)
    setattr(cls, _SPECS, specs)
    setattr(cls, _FIELDS, _Fields(cls))
    cls.__match_args__ = tuple(s.name for s in specs if s.init)  # type: ignore[attr-defined,misc]
    if "__init__" not in cls.__dict__:
        cls.__init__ = _lazy_init(cls, specs)  # type: ignore[misc]
    _methods(cls, specs, frozen, eq)
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
            target.__doc__ = target.__name__  # as ``dataclasses`` would not render a signature
        return _make(target, frozen, eq, slots)

    return wrap if cls is None else wrap(cls)
