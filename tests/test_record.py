"""``record`` behaves as ``@dataclass`` with the same options, apart from frozenness,
which mypy checks: each option is built both ways and compared on the same values; what
it defers (``__init__``, ``__dataclass_fields__``) is made on first use."""

from __future__ import annotations

import dataclasses
import math
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ksched_cli.record import field_specs, record
from tests.properties import bounded

OPTIONS = [
    {},
    {"frozen": True},
    {"frozen": True, "slots": True},
    {"slots": True},
    {"eq": False},
    {"eq": False, "slots": True},
]


def _pair(options: dict[str, Any]) -> tuple[type, type]:
    def body() -> dict[str, Any]:
        return {
            "__annotations__": {
                "a": "int", "b": "str", "c": "tuple[int, ...]", "d": "float", "e": "list[int]",
                "f": "int", "g": "ClassVar[int]",
            },
            "c": dataclasses.field(default_factory=tuple),
            "d": dataclasses.field(default=0.0, compare=False, repr=False),
            "e": dataclasses.field(default_factory=list, init=False, hash=False),
            "f": dataclasses.field(default=3, init=False, hash=False),
            "g": 5,
        }

    standard = dataclasses.dataclass(**options)(type("Thing", (), body()))
    ours = record(**options)(type("Thing", (), body()))
    return standard, ours


values = st.tuples(
    st.sampled_from([-1, 0, 2, math.nan]),  # nan: a tuple compares items by identity first
    st.sampled_from(["", "x", "y'"]),
    st.lists(st.integers(0, 2), max_size=2).map(tuple),
    st.sampled_from([0.0, 1.5, math.nan]),
)


@pytest.mark.parametrize("options", OPTIONS, ids=str)
@bounded(150)
@given(left=values, right=values)
def test_same_as_a_dataclass(
    options: dict[str, Any], left: tuple[Any, ...], right: tuple[Any, ...]
) -> None:
    standard, ours = _pair(options)
    s1, s2, o1, o2 = standard(*left), standard(*right), ours(*left), ours(*right)
    assert repr(o1) == repr(s1)
    assert (o1 == o2) == (s1 == s2)
    assert (o1 != o2) == (s1 != s2)
    assert (o1 == s1) is False  # another class: never equal
    assert (ours.__hash__ is None) == (standard.__hash__ is None)
    if options.get("frozen"):  # a hash over the fields
        assert hash(o1) == hash(s1)
    elif options.get("eq") is False:  # identity
        assert hash(o1) != hash(ours(*left))
    assert dataclasses.is_dataclass(o1)
    assert [f.name for f in dataclasses.fields(o1)] == ["a", "b", "c", "d", "e", "f"]
    assert [(f.default, f.init) for f in dataclasses.fields(ours)] == [
        (f.default, f.init) for f in dataclasses.fields(standard)
    ]
    assert ours.__match_args__ == standard.__match_args__ and ours.g == 5
    assert dataclasses.replace(o1, a=9).a == 9
    assert dataclasses.asdict(o1) == dataclasses.asdict(s1)
    assert hasattr(o1, "__dict__") == hasattr(s1, "__dict__")


def test_methods_a_class_defines_are_kept() -> None:
    @record(frozen=True)
    class Own:
        a: int

        def __repr__(self) -> str:
            return "own"

        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 7

    assert repr(Own(1)) == "own"
    assert Own(1) == Own(2)
    assert hash(Own(1)) == 7


def test_eq_without_hash_is_unhashable_as_in_dataclasses() -> None:
    @record(frozen=True)
    class Only:
        a: int

        def __eq__(self, other: object) -> bool:
            return False

    @dataclasses.dataclass(frozen=True)
    class Standard:
        a: int

        def __eq__(self, other: object) -> bool:
            return False

    assert (Only.__hash__ is None) == (Standard.__hash__ is None)


def test_recursive_repr_is_cut_as_in_dataclasses() -> None:
    @record
    class Node:
        child: Any = None

    @dataclasses.dataclass
    class Standard:
        child: Any = None

    ours, standard = Node(), Standard()
    ours.child, standard.child = ours, standard
    assert repr(ours).replace("Node", "X") == repr(standard).replace("Standard", "X")


def test_a_docstring_is_kept_and_a_missing_one_is_the_name() -> None:
    @record
    class Documented:
        """Says what it is."""

        a: int

    @record
    class Bare:
        a: int

    assert Documented.__doc__ == "Says what it is."
    assert Bare.__doc__ == "Bare"


def _fields_deferred(cls: type) -> bool:
    return not isinstance(cls.__dict__["__dataclass_fields__"], dict)


def _init_deferred(cls: type) -> bool:
    return cls.__dict__["__init__"].__code__.co_varnames[:3] == ("self", "args", "kwargs")


def test_an_instance_compiles_init_and_leaves_the_fields_deferred() -> None:
    @record(frozen=True)
    class Base:
        a: int

    @record(frozen=True, slots=True)
    class Derived(Base):
        b: str = "x"

    assert _init_deferred(Base) and _init_deferred(Derived)
    assert Derived(1) == Derived(1, "x") and Derived(a=2).a == 2
    assert not _init_deferred(Derived) and _init_deferred(Base)
    assert _fields_deferred(Derived) and _fields_deferred(Base)
    assert hash(Derived(1)) == hash(Derived(1))
    assert Derived.__init__.__qualname__ == f"{Derived.__qualname__}.__init__"


def test_field_specs_say_what_dataclasses_fields_say_without_making_them() -> None:
    @record(frozen=True)
    class Base:
        a: int

    @record(frozen=True)
    class Switches(Base):
        on: bool = dataclasses.field(default=False, metadata={"release": "1.31"})
        count: int = 3
        hidden: ClassVar[int] = 0

    specs = field_specs(Switches)
    assert _fields_deferred(Switches)
    seen = [(s.name, s.default, dict(s.metadata)) for s in specs]
    assert seen == [("a", dataclasses.MISSING, {}), ("on", False, {"release": "1.31"}),
                    ("count", 3, {})]
    assert seen == [(f.name, f.default, dict(f.metadata)) for f in dataclasses.fields(Switches)]


def _slotted_subclass(cls: type) -> Any:
    return record(slots=True)(type("Sub", (cls,), {"__annotations__": {"c": "int"}, "c": 0}))


@pytest.mark.parametrize(
    "first_use",
    [
        lambda cls: [f.name for f in dataclasses.fields(cls)] == ["a", "b"],
        lambda cls: dataclasses.is_dataclass(cls),
        lambda cls: dataclasses.replace(cls(1), b=3).b == 3,
        lambda cls: dataclasses.asdict(cls(1)) == {"a": 1, "b": 2},
        lambda cls: [f.name for f in dataclasses.fields(type("Plain", (cls,), {}))] == ["a", "b"],
    ],
    ids=["fields", "is_dataclass", "replace", "asdict", "a plain subclass"],
)
def test_every_use_of_the_fields_makes_them(first_use: Any) -> None:
    @record
    class Thing:
        a: int
        b: int = 2

    assert _fields_deferred(Thing)
    assert first_use(Thing)
    assert not _fields_deferred(Thing)
    assert Thing(1) == Thing(1) and repr(Thing(1)).endswith(".Thing(a=1, b=2)")


def test_a_subclass_with_slots_keeps_the_base_fields_first() -> None:
    @record
    class Thing:
        a: int
        b: int = 2

    sub = _slotted_subclass(Thing)
    assert (sub(1, 2, 3).c, sub(1).b) == (3, 2)
    assert [f.name for f in dataclasses.fields(sub)] == ["a", "b", "c"]
    assert sub.__slots__ == ("a", "b", "c")


def test_a_class_with_its_own_init_keeps_it() -> None:
    @record
    class Own:
        a: int

        def __init__(self, value: int) -> None:
            self.a = value * 2

    assert Own(2).a == 4 and Own(2) == Own(2)


def test_a_field_named_self() -> None:
    @record
    class Odd:
        self: int
        other: int = 1

    assert (Odd(5).self, Odd(5, other=2).other) == (5, 2)


def _errors(body: dict[str, Any], options: dict[str, Any]) -> tuple[str, str]:
    messages = []
    for make in (dataclasses.dataclass(**options), record(**options)):
        with pytest.raises((TypeError, ValueError)) as raised:
            make(type("Bad", (), dict(body)))
        messages.append(f"{raised.type.__name__}: {raised.value}")
    return messages[0], messages[1]


@pytest.mark.parametrize(
    "body",
    [
        {"__annotations__": {"a": "int", "b": "int"}, "a": 1},
        {"__annotations__": {"a": "list[int]"}, "a": []},
        {"__annotations__": {"a": "dict[str, int]"}, "a": {}},
    ],
    ids=["a default before a field without", "a list default", "a dict default"],
)
@pytest.mark.parametrize("options", [{}, {"slots": True}], ids=str)
def test_refused_as_dataclasses_refuses(body: dict[str, Any], options: dict[str, Any]) -> None:
    standard, ours = _errors(body, options)
    # Python 3.12 appends the default argument's name to the first message.
    assert ours.split(" follows")[0] == standard.split(" follows")[0]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"__annotations__": {"a": "int"}, "a": dataclasses.field(kw_only=True)},
         "record field 'a': kw_only is not supported"),
        ({"__annotations__": {"a": "InitVar[int]"}}, "record field 'a': InitVar is not supported"),
        ({"__annotations__": {"a": "int"}, "__post_init__": lambda self: None},
         "record Bad: __post_init__ is not supported"),
    ],
    ids=["kw_only", "InitVar", "__post_init__"],
)
def test_what_record_does_not_support_is_refused(body: dict[str, Any], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        record(type("Bad", (), body))


def test_a_dataclass_base_is_refused() -> None:
    standard = dataclasses.dataclass(type("Base", (), {"__annotations__": {"a": "int"}}))
    with pytest.raises(TypeError, match="base Base is a dataclass, not a record"):
        record(type("Bad", (standard,), {"__annotations__": {"b": "int"}}))
