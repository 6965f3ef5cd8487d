"""A kind's strict shapes kept between runs (manifests/strict.py): the rows rebuild
exactly the shapes the schemas compile to, and a cache file holding anything else is
compiled afresh."""

from __future__ import annotations

import marshal
import sys
from pathlib import Path
from typing import Any

import pytest

from ksched_cli import KUBE_SCHEDULER_VERSION, codecache
from ksched_cli.manifests import schemas, strict
from ksched_cli.manifests.strict import Shape

VERSION = KUBE_SCHEDULER_VERSION
KINDS = [
    ("v1", "Pod"),
    ("v1", "Node"),
    ("v1", "PersistentVolumeClaim"),
    ("apps/v1", "Deployment"),
    ("apps/v1", "StatefulSet"),
    ("batch/v1", "CronJob"),
    ("policy/v1", "PodDisruptionBudget"),
    # JSONSchemaProps refers to itself: rows name shapes by number, cycles included.
    ("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
]


def _compiled(api_version: str, kind: str) -> Shape:
    shape = strict._compile_kind(VERSION, schemas.kinds(VERSION)[(api_version, kind)])
    assert shape is not None
    return shape


def _assert_same(left: Shape, right: Shape, seen: set[int]) -> None:
    """The same tree, rule for rule; integer and string marks are the module's own
    objects (the checks compare them by identity)."""
    if id(left) in seen:
        return
    seen.add(id(left))
    assert (left.form, left.definition, left.type_name) == (
        right.form, right.definition, right.type_name)
    assert left.rule is right.rule and left.allowed == right.allowed
    assert left.ints == right.ints and list(left.ints) == list(right.ints)
    marks = {strict.STRING, strict.STRING_MAP, "int32", "int64"}
    assert all(any(v is mark for mark in marks) for v in right.ints.values())
    assert right.checks.keys() == left.checks.keys() and list(left.nested) == list(right.nested)
    for name, sub in left.nested.items():
        _assert_same(sub, right.nested[name], seen)
    assert (left.inner is None) == (right.inner is None)
    if left.inner is not None and right.inner is not None:
        _assert_same(left.inner, right.inner, seen)


@pytest.mark.parametrize(("api_version", "kind"), KINDS)
def test_rows_rebuild_the_compiled_shapes(api_version: str, kind: str) -> None:
    compiled = _compiled(api_version, kind)
    rows = strict._rows(compiled)
    rebuilt = strict._from_rows(marshal.loads(marshal.dumps(rows)))
    assert rebuilt is not None
    _assert_same(compiled, rebuilt, set())
    assert strict._rows(rebuilt) == rows


def test_a_rebuilt_shape_finds_the_same_problems() -> None:
    compiled = _compiled("v1", "Pod")
    rebuilt = strict._from_rows(strict._rows(compiled))
    assert rebuilt is not None
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "p", "labels": {"on": True}, "colour": "red"},
        "spec": {
            "containers": [{"name": 7, "image": "x", "resource": {}}],
            "priority": 2**40,
            "tolerations": "all",
        },
    }
    problems = strict.field_problems(pod, compiled)
    assert len(problems) == 6
    assert strict.field_problems(pod, rebuilt) == problems


_ROW: tuple[Any, ...] = (strict.OBJECT, "", "T", ("a",), {}, {}, -1)


@pytest.mark.parametrize(
    "rows",
    [
        None,
        [_ROW],  # a list, not a tuple
        (_ROW[:6],),  # a field short
        ((9, *_ROW[1:]),),  # no such form
        ((True, *_ROW[1:]),),  # a bool is not a form
        ((strict.OBJECT, "", "T", ("a",), {}, {"a": 1}, -1),),  # no row 1
        ((strict.OBJECT, "", "T", ("a",), {}, {}, 0),),  # an object has no inner shape
        ((strict.LIST, "", "", (), {}, {}, -1),),  # a list needs one
        ((strict.OBJECT, "", "T", ("a",), {"a": "int8"}, {}, -1),),  # not a kept type
        ((strict.OBJECT, "", "T", (1,), {}, {}, -1),),  # a field name that is no string
        ((strict.OBJECT, b"", "T", ("a",), {}, {}, -1),),
        (),  # no rows: "no shape" is told apart before rows are read
    ],
)
def test_rows_of_another_form_are_not_used(rows: Any) -> None:
    assert strict._from_rows(rows) is None


def test_a_kept_shape_stands_for_the_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Written on the first use, read on the next; a file with the right key but rows of
    another form, or with another key, is compiled afresh and rewritten."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(strict, "cache_path", lambda module, suffix: str(tmp_path / suffix))
    expected = strict._rows(_compiled("v1", "Pod"))

    def fresh() -> Shape | None:
        strict.kind_shape.cache_clear()
        return strict.kind_shape("v1", "Pod", VERSION)

    try:
        assert strict._rows(fresh()) == expected
        (path,) = tmp_path.iterdir()
        assert path.name.endswith(".io.k8s.api.core.v1.Pod.shape")
        magic = codecache._magic()
        key, stored = marshal.loads(path.read_bytes()[len(magic):])
        assert stored == expected
        assert strict._rows(fresh()) == expected
        for stale in ((key, ((9,),)), ("another file", expected)):
            path.write_bytes(magic + marshal.dumps(stale))
            assert strict._rows(fresh()) == expected
            assert marshal.loads(path.read_bytes()[len(magic):]) == (key, expected)
    finally:
        strict.kind_shape.cache_clear()
