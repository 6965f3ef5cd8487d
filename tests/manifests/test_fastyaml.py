"""fastyaml gives exactly what PyYAML's safe loader gives, or steps aside."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from ksched_cli.errors import KschedError
from ksched_cli.goloader import FAST_LOADER
from ksched_cli.manifests import fastyaml
from ksched_cli.manifests.files import document_number, read_documents

SAME = {
    "scalars": """
ints: [0, 12, -3, +4, 0o17, 017, 0x1F, 1_000, "12", '12', 1:30]
floats: [1.5, -2.0e3, .5, 1e3, 6.8523015e+5, 190:20:30.15]
bools: [true, False, yes, No, on, OFF, y, n]
nulls: [~, null, Null, "", '~']
strings: [abc, 'it''s', "tab\\there", 100m, 1Gi, "0.5", v1, =x]
times: [2024-01-01, 2024-01-01T00:00:00Z, "2024-01-01T00:00:00Z", 2001-12-14 21:59:43.10 -5]
""",
    "block-scalars": "a: |\n  line 1\n  line 2\nb: >-\n  folded\n  text\nc: |+\n  keep\n\n",
    "nesting": "a:\n  b:\n  - c: {d: [1, {e: f}]}\n  - []\n  - {}\n",
    "documents": "---\na: 1\n---\n---\n# comment\n...\n---\n- x\n--- plain\n",
    "duplicate-keys": "a: 1\nb: 2\na: 3\n",
    "empty-key": "? ''\n: 2\n",
    "unicode": "name: café\nemoji: \"\\u00e9\"\n",
    "non-specific-tag": "a: ! 12\n",
    "empty": "",
}


@pytest.mark.parametrize("text", SAME.values(), ids=SAME.keys())
def test_same_values_as_safe_load(text: str) -> None:
    # ksched's standard loader: PyYAML's safe loader typing scalars as go-yaml v2 does
    # (ksched_cli/goresolve.py), keys made JSON strings (ksched_cli/gotyping.py).
    expected = list(yaml.load_all(text, Loader=FAST_LOADER))
    got = fastyaml.load_all(text)
    assert got == expected
    assert [type(d) for d in got] == [type(d) for d in expected]


@pytest.mark.parametrize(("text", "message"), [
    ("[.inf]\n", "json: unsupported value: +Inf"), ("a: -.Inf\n", "json: unsupported value: -Inf"),
    ("a: {b: .nan}\n", "json: unsupported value: NaN")])
def test_special_float_values_are_refused(text: str, message: str) -> None:
    # json.Marshal, which sigs.k8s.io/yaml calls after go-yaml, has no NaN or infinity.
    with pytest.raises(fastyaml.Unsupported):
        fastyaml.load_all(text)
    with pytest.raises(yaml.constructor.ConstructorError, match=re.escape(message)):
        list(yaml.load_all(text, Loader=FAST_LOADER))


def test_special_float_keys_are_go_strings() -> None:
    expected = [{".inf": 1, "-.inf": 2, ".nan": 3}]
    assert list(yaml.load_all(".inf: 1\n-.Inf: 2\n.NaN: 3\n", Loader=FAST_LOADER)) == expected


UNSUPPORTED = {
    "anchor": "a: &x 1\nb: *x\n",
    "collection-anchor": "a: &x {c: 1}\nb: *x\n",
    "merge": "base: {a: 1}\nd:\n  <<: {b: 2}\n",
    "explicit-tag": "a: !!int '3'\n",
    "collection-tag": "a: !!map {b: 1}\n",
    "complex-key": "? [a, b]\n: 1\n",
}


@pytest.mark.parametrize("text", UNSUPPORTED.values(), ids=UNSUPPORTED.keys())
def test_unusual_yaml_is_left_to_the_standard_loader(tmp_path: Path, text: str) -> None:
    with pytest.raises((fastyaml.Unsupported, yaml.YAMLError)):
        fastyaml.load_all(text)
    path = tmp_path / "x.yaml"
    path.write_text(text)
    try:
        expected = list(yaml.load_all(text, Loader=yaml.CSafeLoader))
    except yaml.YAMLError:
        return  # the standard loader's error is what the loader reports
    assert read_documents(path)[1] == expected


def test_a_null_key_is_refused_as_sigs_k8s_io_yaml_refuses_it(tmp_path: Path) -> None:
    with pytest.raises(fastyaml.Unsupported):
        fastyaml.load_all("~: 1\n")
    path = tmp_path / "x.yaml"
    path.write_text("~: 1\n")
    with pytest.raises(KschedError) as caught:
        read_documents(path)
    assert "Unsupported map key of type: %!s(<nil>)" in caught.value.render()


def test_syntax_errors_raise() -> None:
    with pytest.raises(yaml.YAMLError):
        fastyaml.load_all("a: [b\n")


@pytest.mark.parametrize(
    ("text", "line", "expected"),
    [
        ("a: 1\n", 1, 1),
        ("a: 1\n---\nb: 2\n", 3, 2),
        ("---\na: 1\n---\nb: 2\n", 2, 1),
        ("# c\n---\na: 1\n---\nb: 2\n---\nc: [\n", 7, 3),
        ("a: 1\n--- \nb: |\n  ---\n  x\n---\nc\n", 5, 2),
        ("a: 1\n---\nb: 2\n", 2, 1),
    ],
)
def test_document_number(text: str, line: int, expected: int) -> None:
    assert document_number(text, line) == expected
