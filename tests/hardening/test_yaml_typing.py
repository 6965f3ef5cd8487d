"""Label, annotation and nodeSelector entries are typed as ``kubectl apply`` types them
(go-yaml v2 through sigs.k8s.io/yaml, then the API server's typed decoding): keys become
JSON strings, non-string values are refused (issue 25 item 7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ksched_cli.gotyping import go_float32_g, go_key
from ksched_cli.whatif.inputs import load_cluster

from ..properties import bounded
from .helpers import ksched, write

# YAML spelling -> what go-yaml v2 reads (kubectl): the JSON key it becomes, and the
# value's JSON type ("string" values are accepted, others refused).
SPELLINGS = {
    "on": ("true", "bool"), "Off": ("false", "bool"), "yes": ("true", "bool"),
    "y": ("true", "bool"), "N": ("false", "bool"), "true": ("true", "bool"),
    "010": ("8", "number"), "0x1F": ("31", "number"), "1_000": ("1000", "number"),
    "-3": ("-3", "number"), "1.0e+3": ("1000", "number"), "0.5": ("0.5", "number"),
    "'y'": ("y", "string"), '"010"': ("010", "string"), "app": ("app", "string"),
    "zone-1": ("zone-1", "string"),
}


def _pod(labels: str, selector: str = "{}") -> str:
    return ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
            f"  labels: {labels}\nspec:\n  nodeSelector: {selector}\n"
            "  containers: [{name: c, image: x}]\n")


@pytest.mark.parametrize(
    ("labels", "expected"),
    [
        ("{on: a, 010: b, 1.5: c, y: d2}", None),  # y and on are both the key "true"
        ("{on: a, 010: b, 1.5: c, k: ~}", {"true": "a", "8": "b", "1.5": "c", "k": ""}),
        ("{'on': a, '010': b}", {"on": "a", "010": "b"}),
    ],
)
def test_keys_become_json_strings(tmp_path: Path, labels: str, expected: dict[str, str] | None,
                                  ) -> None:
    path = write(tmp_path, "pod.yaml", _pod(labels))
    if expected is None:
        result = ksched("plan", path)
        assert result.exit_code == 1
        assert result.stderr.endswith(
            'metadata.labels.true: duplicate field "metadata.labels.true"\n')
        return
    pod = load_cluster([path]).cluster.pods[0]
    assert pod.labels == expected


@pytest.mark.parametrize(
    ("entry", "found", "where"),
    [
        ("labels: {a: on}", "bool", "ObjectMeta.metadata.labels"),
        ("labels: {a: n}", "bool", "ObjectMeta.metadata.labels"),
        ("labels: {a: 1.0e+3}", "number", "ObjectMeta.metadata.labels"),
        ("labels: {a: 010}", "number", "ObjectMeta.metadata.labels"),
        ("annotations: {a: 5}", "number", "ObjectMeta.metadata.annotations"),
    ],
)
def test_values_that_are_not_strings_are_refused(
    tmp_path: Path, entry: str, found: str, where: str
) -> None:
    text = _pod("{}").replace("  labels: {}", "  " + entry)
    path = write(tmp_path, "pod.yaml", text)
    result = ksched("plan", path)
    assert result.exit_code == 1
    field = where.split(".", 1)[1]
    column = 2 + entry.index("{a") + 2  # the key "a", after the two-space indent
    assert result.stderr == (
        f"{path}:5:{column}: error: Pod default/p (document 1): {field}.a: json: cannot "
        f"unmarshal {found} into Go struct field {where} of type string\n"
    )


def test_every_bad_value_is_listed_with_its_position(tmp_path: Path) -> None:
    path = write(tmp_path, "pod.yaml", _pod("{a: true, b: 2}", "{c: y}"))
    result = ksched("plan", path)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert [line.split("(document 1): ", 1)[1] for line in lines] == [
        "metadata.labels.a: json: cannot unmarshal bool into Go struct field "
        "ObjectMeta.metadata.labels of type string",
        "metadata.labels.b: json: cannot unmarshal number into Go struct field "
        "ObjectMeta.metadata.labels of type string",
        "spec.nodeSelector.c: json: cannot unmarshal bool into Go struct field "
        "PodSpec.spec.nodeSelector of type string",
    ]


def test_a_null_key_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "pod.yaml", _pod("{~: a}"))
    result = ksched("plan", path)
    assert result.exit_code == 1
    assert "Unsupported map key of type: %!s(<nil>)" in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("value", "text"),
    [(1000.0, "1000"), (1e6, "1e+06"), (0.1, "0.1"), (1e-05, "1e-05"), (123456.0, "123456"),
     (3.14159265, "3.1415927"), (16777217.0, "1.6777216e+07"), (float("inf"), ".inf"),
     (-2.5, "-2.5"), (0.0, "0")],
)
def test_float_keys_as_go_formats_them(value: float, text: str) -> None:
    # strconv.FormatFloat(f, 'g', -1, 32), as sigs.k8s.io/yaml formats a float key.
    assert go_float32_g(value) == text
    assert go_key(value) == text


@bounded(60)
@given(entries=st.dictionaries(st.sampled_from(sorted(SPELLINGS)),
                               st.sampled_from(sorted(SPELLINGS)), min_size=1, max_size=4))
def test_labels_typed_as_kubectl_types_them(tmp_path_factory: pytest.TempPathFactory,
                                            entries: dict[str, str]) -> None:
    keys = [SPELLINGS[k][0] for k in entries]
    text = "{" + ", ".join(f"{k}: {v}" for k, v in entries.items()) + "}"
    path = write(tmp_path_factory.mktemp("typing"), "pod.yaml", _pod(text))
    result = ksched("plan", path, "--kubernetes-version", "1.30")
    refused = [k for k, v in entries.items() if SPELLINGS[v][1] != "string"]
    if len(set(keys)) < len(keys):
        assert result.exit_code == 1 and "duplicate field" in result.stderr
    elif refused:
        assert result.exit_code == 1
        assert result.stderr.count("cannot unmarshal") == len(refused)
    elif result.exit_code == 1:  # a key or value the API server's label rules refuse
        assert "Invalid value" in result.stderr
    else:
        pod = load_cluster([path]).cluster.pods[0]
        assert pod.labels == {SPELLINGS[k][0]: SPELLINGS[v][0] for k, v in entries.items()}
