"""``record`` behaves as ``@dataclass`` with the same options, apart from frozenness,
which mypy checks: each option is built both ways and compared on the same values."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ksched_cli.record import record
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
            "__annotations__": {"a": "int", "b": "str", "c": "tuple[int, ...]", "d": "float"},
            "c": dataclasses.field(default_factory=tuple),
            "d": dataclasses.field(default=0.0, compare=False, repr=False),
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
    assert [f.name for f in dataclasses.fields(o1)] == ["a", "b", "c", "d"]
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

    Only(1), Standard(1)  # a deferred class is made on its first instance
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


def _deferred(cls: type) -> bool:
    return not isinstance(cls.__dict__["__dataclass_fields__"], dict)


def test_a_class_without_slots_is_made_when_first_needed() -> None:
    @record(frozen=True)
    class Base:
        a: int

    @record(frozen=True)
    class Derived(Base):
        b: str = "x"

    class Plain(Base):
        pass

    assert _deferred(Base) and _deferred(Derived)
    assert Derived(1) == Derived(1, "x")  # making Derived makes Base, its fields first
    assert not _deferred(Derived) and not _deferred(Base)
    assert hash(Derived(1)) == hash(Derived(1))
    assert Plain(2).a == 2 and [f.name for f in dataclasses.fields(Plain)] == ["a"]


def _slotted_subclass(cls: type) -> Any:
    return record(slots=True)(type("Sub", (cls,), {"__annotations__": {"c": "int"}, "c": 0}))


@pytest.mark.parametrize(
    "first_use",
    [
        lambda cls: [f.name for f in dataclasses.fields(cls)] == ["a", "b"],
        lambda cls: dataclasses.is_dataclass(cls),
        lambda cls: cls(1).b == 2,
        lambda cls: _slotted_subclass(cls)(1, 2, 3).c == 3,
    ],
    ids=["fields", "is_dataclass", "instance", "a subclass with slots"],
)
def test_every_first_use_makes_the_class(first_use: Any) -> None:
    @record
    class Thing:
        a: int
        b: int = 2

    assert _deferred(Thing)
    assert first_use(Thing)
    assert not _deferred(Thing)
    assert Thing(1) == Thing(1) and repr(Thing(1)).endswith(".Thing(a=1, b=2)")


def test_a_class_with_slots_or_its_own_init_is_made_at_once() -> None:
    @record(slots=True)
    class Slotted:
        a: int

    @record
    class Own:
        a: int

        def __init__(self, value: int) -> None:
            self.a = value * 2

    assert not _deferred(Slotted) and not _deferred(Own)
    assert Own(2).a == 4 and Own(2) == Own(2)
