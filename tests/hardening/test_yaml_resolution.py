"""Plain scalars typed as go-yaml v2's resolve.go types them (kubectl, kube-scheduler), not
as PyYAML's YAML 1.1 resolver does: numbers, booleans and strings, then the value as
sigs.k8s.io/yaml's JSON carries it to the API server (issue 25 item 7)."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, given
from hypothesis import strategies as st

from ksched_cli.goloader import FAST_LOADER
from ksched_cli.manifests import fastyaml
from ksched_cli.manifests.files import read_documents
from ksched_cli.whatif.inputs import load_cluster

from ..properties import bounded
from .helpers import NODE, POD, ksched, one_error, write

# plain scalar -> the value in the JSON kubectl sends (PyYAML's own reading in the comment).
VALUES = {
    "1:30": "1:30",  # PyYAML: 90 (sexagesimal)
    "190:20:30.15": "190:20:30.15",  # PyYAML: 685230.15
    "1e3": 1000,  # PyYAML: "1e3" (its floats need a dot)
    "1.5e3": 1500,  # PyYAML: "1.5e3" (its exponents need a sign)
    "2.5E-1": 0.25,
    "08": 8,  # PyYAML: "08"; Go: not octal, so the float 8
    "0o17": 15,  # PyYAML: "0o17"
    "0O17": 15,
    "0X1F": 31,  # PyYAML: "0X1F"
    "0B101": 5,  # PyYAML: "0B101"
    "0b-101": -5,  # go-yaml's 0b fallback reads a sign after the prefix
    "0b_": "0b_",  # PyYAML: a ValueError in its int constructor
    "+12": 12,
    ".5": 0.5,
    "-.5": -0.5,  # PyYAML: "-.5" (its dot-first floats take no sign)
    ".1_2": 0.12,  # Go's ParseFloat takes "_" between digits
    "._1": "._1",
    "1_000": 1000,
    "1__0": 10,
    "017": 15,
    "-0": 0,
    "=": "=",  # PyYAML: the value tag, which its safe loader cannot construct
    "<<": "<<",  # not a key: a string to go-yaml
    "2001-12-14": "2001-12-14",  # PyYAML: a date
    "2001-12-14T21:59:43.10-05:00": "2001-12-14T21:59:43.10-05:00",  # PyYAML: a datetime
    "2001-12-14 21:59:43.10 -5": "2001-12-14 21:59:43.10 -5",
    "2002-02-29": "2002-02-29",
    "y": True,
    "n": False,
    "On": True,
    "~": None,
    "9223372036854775807": 2**63 - 1,
    "18446744073709551615": 2**64 - 1,  # a uint64
    "18446744073709551616": 18446744073709551616,  # a float64, written whole by json.Marshal
    "1e21": 1e21,  # json.Marshal writes 1e+21: stays a float
    "1e400": "1e400",  # ParseFloat's range error: the text
    "1" * 400: "1" * 400,
    "0x": "0x",
    "1.": 1,
    "true1": "true1",
}


@pytest.mark.parametrize("text", list(VALUES), ids=[t[:30] for t in VALUES])
def test_plain_values(text: str) -> None:
    document = f"v: {text}\n"
    expected = {"v": VALUES[text]}
    slow = yaml.load(document, Loader=FAST_LOADER)
    assert slow == expected and type(slow["v"]) is type(expected["v"])
    if text != "<<":  # fastyaml leaves merge keys to the standard loader
        fast = fastyaml.load_all(document)[0]
        assert fast == expected and type(fast["v"]) is type(expected["v"])


# Keys keep go-yaml's Go value, written by sigs.k8s.io/yaml (floats: float32 %g).
KEYS = {"1e3": "1000", "1e7": "1e+07", "08": "8", "0o17": "15", "1:30": "1:30",
        "2001-12-14": "2001-12-14", "=": "=", ".5": "0.5", "y": "true"}


@pytest.mark.parametrize("text", list(KEYS))
def test_plain_keys(text: str) -> None:
    document = f"{text}: v\n"
    assert yaml.load(document, Loader=FAST_LOADER) == {KEYS[text]: "v"}
    assert fastyaml.load_all(document) == [{KEYS[text]: "v"}]


def test_a_uint64_key_is_refused() -> None:
    with pytest.raises(yaml.YAMLError, match="unsupported map key of type: uint64, key: "
                       "0x8000000000000000"):
        yaml.load("9223372036854775808: v\n", Loader=FAST_LOADER)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("!!int '12'", 12), ("!!float 1", 1.0), ("!!timestamp 2001-12-14", "2001-12-14"),
     ("!!str 12", "12"), ("!foo 12", "12"), ("!!binary aGk=", "hi"), ("!!set {a}", {"a": None}),
     ("!!omap [{a: 1}]", [{"a": 1}]), ("!!bool 'yes'", True)],
)
def test_explicit_tags(text: str, expected: Any) -> None:
    assert yaml.load(f"v: {text}\n", Loader=FAST_LOADER) == {"v": expected}


@pytest.mark.parametrize(
    ("text", "message"),
    [("!!int x", "cannot decode !!str `x` as a !!int"),
     ("!!int 1.5", "cannot decode !!float `1.5` as a !!int"),
     ("!!timestamp 2001-13-01", "cannot decode !!str `2001-13-01` as a !!timestamp"),
     ("!!null 0", "cannot decode !!int `0` as a !!null")],
)
def test_explicit_tags_their_text_cannot_have(text: str, message: str) -> None:
    with pytest.raises(yaml.YAMLError, match=re.escape(message)):
        yaml.load(f"v: {text}\n", Loader=FAST_LOADER)


def _pod(entries: str, spec: str = "") -> str:
    return POD.replace("metadata: {name: p}", f"metadata: {{name: p, annotations: {{{entries}}}}}"
                       ).replace("spec:\n", f"spec:\n{spec}")


@pytest.mark.parametrize(
    "value", ["1:30", "2001-12-14", "2001-12-14T21:59:43.10-05:00", "=", "1e400", "0x", "<<"])
def test_strings_to_kubectl_are_accepted(tmp_path: Path, value: str) -> None:
    path = write(tmp_path, "pod.yaml", _pod(f"a: {value}") + "---\n" + NODE)
    result = ksched("plan", path)
    assert result.exit_code == 0, result.output
    document = read_documents(Path(path)).documents[0]
    assert document["metadata"]["annotations"] == {"a": value}


@pytest.mark.parametrize("value", ["1e3", "0o17", "08", "0B1", "+12", ".5", "0b-1"])
def test_numbers_to_kubectl_are_refused(tmp_path: Path, value: str) -> None:
    path = write(tmp_path, "pod.yaml", _pod(f"a: {value}") + "---\n" + NODE)
    assert one_error(ksched("plan", path)) == (
        f"{path}:3:35: error: Pod default/p (document 1): metadata.annotations.a: json: cannot "
        "unmarshal number into Go struct field ObjectMeta.metadata.annotations of type string")


@pytest.mark.parametrize(("value", "priority"), [("1e3", 1000), ("0o17", 15), ("08", 8),
                                                 ("0x1_0", 16), ("4.0", 4)])
def test_whole_numbers_fill_integer_fields(tmp_path: Path, value: str, priority: int) -> None:
    path = write(tmp_path, "pod.yaml", _pod("", f"  priority: {value}\n") + "---\n" + NODE)
    assert ksched("plan", path).exit_code == 0
    assert load_cluster([path]).cluster.pods[0].priority == priority


@pytest.mark.parametrize(("value", "found"), [("1:30", "string"), ("2001-12-14", "string"),
                                              ("1.5", "number")])
def test_what_is_not_an_integer_is_refused(tmp_path: Path, value: str, found: str) -> None:
    path = write(tmp_path, "pod.yaml", _pod("", f"  priority: {value}\n") + "---\n" + NODE)
    assert one_error(ksched("plan", path)) == (
        f"{path}:5:3: error: Pod default/p (document 1): spec.priority: expected an integer, "
        f"got {found}")


@pytest.mark.parametrize(("value", "shown"), [(".inf", "+Inf"), ("-.INF", "-Inf"), (".NaN", "NaN")])
def test_nan_and_infinities_are_refused(tmp_path: Path, value: str, shown: str) -> None:
    path = write(tmp_path, "pod.yaml", _pod("", f"  priority: {value}\n") + "---\n" + NODE)
    assert one_error(ksched("plan", path)) == (
        f"{path}:5:13: error: document 1: invalid YAML: json: unsupported value: {shown}")


# A reference written from go-yaml v2's resolve.go and Go's strconv rules, apart from
# ksched's port: regular expressions instead of a digit-by-digit reading.
_TRUE = ("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")
_FALSE = ("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")
_WORDS = {**dict.fromkeys(_TRUE, True), **dict.fromkeys(_FALSE, False),
          **dict.fromkeys(("", "~", "null", "Null", "NULL"))}
_INT = re.compile(
    r"([-+]?)(?:0[bB]([01]+)|0[oO]([0-7]+)|0[xX]([0-9a-fA-F]+)|(0[0-7]*)|([1-9][0-9]*))")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_DOT_FLOAT = re.compile(r"\.[0-9]+(_[0-9]+)*([eE][-+]?[0-9]+(_[0-9]+)*)?")
_SPECIAL = re.compile(r"\.(nan|NaN|NAN)|[-+]?\.(inf|Inf|INF)")
_ZERO_B = re.compile(r"0b([-+]?)([01]+)")


def _in_range(sign: str, magnitude: int) -> int | None:
    if sign == "-":
        return -magnitude if magnitude <= 2**63 else None
    limit = 2**63 - 1 if sign == "+" else 2**64 - 1
    return magnitude if magnitude <= limit else None


def _reference(text: str) -> Any:
    """go-yaml v2's value for a plain scalar, then json.Marshal's (None: refused)."""
    if text in _WORDS:
        return _WORDS[text]
    if _SPECIAL.fullmatch(text):
        return None
    if not text or text[0] not in "+-0123456789.":
        return text
    if text[0] == ".":
        return _whole(float(text.replace("_", ""))) if _DOT_FLOAT.fullmatch(text) else text
    plain = text.replace("_", "")
    found = _INT.fullmatch(plain)
    if found:
        sign, *digits = found.groups()
        for base, part in zip((2, 8, 16, 8, 10), digits, strict=True):
            if part is not None:
                value = _in_range(sign, int(part, base))
                if value is not None:
                    return value
    if _FLOAT.fullmatch(plain) and not math.isinf(float(plain)):
        return _whole(float(plain))
    found = _ZERO_B.fullmatch(plain)  # ParseInt(plain[2:], 2), then ParseUint
    if found:
        value = _in_range(found[1] or "+", int(found[2], 2))
        if value is None and not found[1]:
            value = _in_range("", int(found[2], 2))
        if value is not None:
            return value
    return text


def _whole(number: float) -> Any:
    return int(number) if number.is_integer() and abs(number) < 1e21 else number


def _plain_event(text: str) -> bool:
    """Whether ``v: text`` holds ``text`` as one plain scalar."""
    try:
        events = list(yaml.parse(f"v: {text}\n", Loader=yaml.CSafeLoader))
    except yaml.YAMLError:
        return False
    scalars = [e for e in events if isinstance(e, yaml.ScalarEvent)]
    return len(scalars) == 2 and scalars[1].value == text and scalars[1].implicit[0]


@bounded(400)
@given(st.text(alphabet="0123456789_.+-eExXoObB:yYnN~aT =", min_size=0, max_size=12))
def test_plain_scalars_typed_as_go_yaml_types_them(text: str) -> None:
    assume(_plain_event(text))
    expected = _reference(text)
    document = f"v: {text}\n"
    if expected is None and text not in _WORDS:  # NaN or an infinity: json.Marshal refuses
        with pytest.raises(yaml.YAMLError, match="json: unsupported value"):
            yaml.load(document, Loader=FAST_LOADER)
        return
    slow = yaml.load(document, Loader=FAST_LOADER)
    assert slow == {"v": expected} and type(slow["v"]) is type(expected), text
    if "<<" not in text:
        assert fastyaml.load_all(document) == [slow]


def test_keys_that_become_one_json_key_are_repeated_on_the_slow_path_too(tmp_path: Path) -> None:
    # An anchor sends the file to the standard loader; the event scan compares JSON keys.
    text = POD.replace("metadata: {name: p}", "metadata:\n  name: &n p\n  labels: {on: a, y: b}")
    path = write(tmp_path, "pod.yaml", text + "---\n" + NODE)
    assert one_error(ksched("plan", path)) == (
        f'{path}:5:19: error: Pod default/p (document 1): metadata.labels.true: duplicate field '
        '"metadata.labels.true"')


@pytest.mark.parametrize("value", ['"' + "9" * 5000 + '"', "9" * 5000])
def test_long_digit_strings_in_flow_yaml_are_strings(tmp_path: Path, value: str) -> None:
    # Flow YAML (it starts with "{" but is not JSON): go-yaml v2 reads both as strings,
    # the plain one as no int64, uint64 or float64 holds it.
    text = ("{apiVersion: v1, kind: Pod, metadata: {name: p, annotations: {a: " + value
            + "}}, spec: {containers: [{name: c, image: x}]}}\n")
    path = write(tmp_path, "pod.yaml", text)
    document = read_documents(Path(path)).documents[0]
    assert document["metadata"]["annotations"] == {"a": "9" * 5000}


CONFIG = ("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
          "percentageOfNodesToScore: {value}\n")


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1e2", None), ("08", None), ("0o17", None),
     (".inf", ":3:27: error: invalid YAML: json: unsupported value: +Inf"),
     ("1:30", ':3:1: error: percentageOfNodesToScore: Invalid value: "1:30": expected an integer'),
     ("y", ":3:1: error: percentageOfNodesToScore: Invalid value: true: expected an integer")],
)
def test_configurations_are_typed_as_kube_scheduler_reads_them(
    tmp_path: Path, value: str, expected: str | None
) -> None:
    # kube-scheduler decodes its configuration through sigs.k8s.io/yaml too.
    path = write(tmp_path, "config.yaml", CONFIG.format(value=value))
    result = ksched("validate", path)
    if expected is None:
        assert (result.exit_code, result.output) == (0, f"{path}: valid\n")
    else:
        assert (result.exit_code, result.output) == (1, f"{path}{expected}\n")


DEPLOYMENT = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 1\n"
              "  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n"
              "    spec: {containers: [{name: c, image: [x]}]}\n")


def test_string_fields_refuse_what_go_yaml_types_otherwise(tmp_path: Path) -> None:
    # Go's UnmarshalTypeError: the innermost struct, then the struct fields from the root
    # (no list index, no map key); ksched's own path (before it) keeps both.
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: 08}\nspec:\n"
            "  containers: [{name: c, image: 1e3, ports: [{containerPort: 99999999999, "
            "name: on}]}]\n  volumes: [{name: v, csi: {driver: d, volumeAttributes: {a: 1}}}]\n")
    path = write(tmp_path, "pod.yaml", text + "---\n" + DEPLOYMENT)
    result = ksched("plan", path)
    assert result.exit_code == 1
    go = "json: cannot unmarshal {} into Go struct field {} of type {}"
    assert [line.split(": error: ", 1)[1] for line in result.stderr.splitlines()] == [
        "Pod default/p (document 1): metadata.namespace: "
        + go.format("number", "ObjectMeta.metadata.namespace", "string"),
        "Pod default/p (document 1): spec.containers[0].image: "
        + go.format("number", "Container.spec.containers.image", "string"),
        "Pod default/p (document 1): spec.containers[0].ports[0].containerPort: " + go.format(
            "number 99999999999", "ContainerPort.spec.containers.ports.containerPort", "int32"),
        "Pod default/p (document 1): spec.containers[0].ports[0].name: "
        + go.format("bool", "ContainerPort.spec.containers.ports.name", "string"),
        "Pod default/p (document 1): spec.volumes[0].csi.volumeAttributes.a: " + go.format(
            "number", "CSIVolumeSource.spec.volumes.csi.volumeAttributes", "string"),
        "Deployment default/d (document 2): spec.template.spec.containers[0].image: "
        + go.format("array", "Container.spec.template.spec.containers.image", "string"),
    ]
