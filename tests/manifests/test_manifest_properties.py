"""Hypothesis: valid manifests and mutations of them never crash ``ksched plan``.

Invariants, whatever the input: exit code 0, 1 or 2; no traceback; on exit 1 nothing
on stdout and every stderr line a warning or one error naming the file (with line and
column for problems inside it); each run within a wall-time bound. Seeded and
derandomized so CI sees the same examples every time.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, example, given, seed, settings
from hypothesis import strategies as st

from ksched_cli.cli.plan_cmd import plan

SETTINGS = settings(
    max_examples=70,
    derandomize=True,
    deadline=None,
    database=None,
    # No shrinking: a failure is reported as found, so a CI run stays bounded.
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
WALL_SECONDS = 10.0
NAME = st.from_regex(r"[a-z][a-z0-9-]{0,8}[a-z0-9]", fullmatch=True)
QUANTITY = st.sampled_from(["100m", "1", "2Gi", "500Mi", "0", "1.5", "3k", "110"])
LABELS = st.dictionaries(st.sampled_from(["app", "zone", "a/b", "x" * 70]), st.one_of(
    NAME, st.sampled_from(["", "bad value", "-x"]), st.lists(NAME, max_size=1)), max_size=2)
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True),
    st.text(max_size=12), st.sampled_from(["-4", "99999999999999999999", ".nan", "1e400"]),
    # Strings PyYAML writes plain that go-yaml v2 reads as numbers (1e3, 0o17, 08, 0b-1,
    # .1_2, uint64), and its strings PyYAML would type (1:30, timestamps, =, <<).
    st.sampled_from(["1e3", "0o17", "08", "0X1F", "0b-1", ".1_2", "9223372036854775808", "1:30",
                     "2001-12-14", "=", "<<", "y"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=6,
)
KEY_TYPOS = ["resource", "nodeselector", "lables", "spec", "containers", "status", "image"]


@st.composite
def nodes(draw: st.DrawFn) -> dict[str, Any]:
    alloc = {"cpu": draw(QUANTITY), "memory": draw(QUANTITY), "pods": "110"}
    node: dict[str, Any] = {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": draw(NAME), "labels": {"zone": draw(NAME)}},
        "status": {"allocatable": alloc},
    }
    if draw(st.booleans()):
        node["spec"] = {"taints": [{"key": "k", "value": draw(NAME), "effect": "NoSchedule"}]}
    return node


RESOURCE_NAMES = st.sampled_from(
    ["cpu", "memory", "hugepages-2Mi", "example.com/gpu", "pods", "foo", "ephemeral-storage"]
)
RESOURCE_LIST = st.dictionaries(RESOURCE_NAMES, QUANTITY, max_size=3)


@st.composite
def pods(draw: st.DrawFn, later: bool = False) -> dict[str, Any]:
    """A pod; with ``later``, also the fields later releases read (pod-level resources,
    affinity label keys) and odd resource names."""
    container: dict[str, Any] = {"name": "c", "image": "x"}
    if draw(st.booleans()):
        container["resources"] = {"requests": {"cpu": draw(QUANTITY), "memory": draw(QUANTITY)}}
    if later and draw(st.booleans()):
        container["resources"] = {"requests": draw(RESOURCE_LIST), "limits": draw(RESOURCE_LIST)}
    spec: dict[str, Any] = {"containers": [container]}
    if later and draw(st.booleans()):
        spec["resources"] = {"requests": draw(RESOURCE_LIST), "limits": draw(RESOURCE_LIST)}
    if draw(st.booleans()):
        spec["nodeSelector"] = {"zone": draw(NAME)}
    if draw(st.booleans()):
        term: dict[str, Any] = {
            "labelSelector": {"matchLabels": {"app": "a"}}, "topologyKey": "zone"
        }
        if later and draw(st.booleans()):
            term["matchLabelKeys"] = draw(st.lists(st.sampled_from(["app", "zone", "x"]),
                                                   max_size=2))
        spec["affinity"] = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
            term]}}
    if draw(st.booleans()):
        spec["tolerations"] = [{"key": "k", "operator": "Exists"}]
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": draw(NAME), "labels": draw(LABELS)},
        "spec": spec,
    }


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out.extend(_paths(item, (*prefix, index)))
    return out


@st.composite
def mutated(draw: st.DrawFn, document: dict[str, Any]) -> dict[str, Any]:
    """One structural change: a value replaced, a key added or a key removed."""
    paths = [p for p in _paths(document) if p]
    where = draw(st.sampled_from(paths))
    parent: Any = document
    for part in where[:-1]:
        parent = parent[part]
    action = draw(st.sampled_from(["replace", "add", "remove"]))
    if action == "replace":
        parent[where[-1]] = draw(VALUES)
    elif action == "add" and isinstance(parent, dict):
        parent[draw(st.sampled_from(KEY_TYPOS))] = draw(VALUES)
    elif isinstance(parent, dict):
        del parent[where[-1]]
    return document


@st.composite
def manifests(draw: st.DrawFn, later: bool = False) -> tuple[str, str]:
    """A file name and its text: YAML or JSON, valid or mutated, text edits included."""
    documents = [draw(nodes()), *draw(st.lists(pods(later), min_size=1, max_size=3))]
    for index in draw(st.lists(st.integers(0, len(documents) - 1), max_size=2)):
        documents[index] = draw(mutated(documents[index]))
    as_json = draw(st.booleans())
    if as_json:
        text = json.dumps({"apiVersion": "v1", "kind": "List", "items": documents}, indent=1)
    else:
        text = yaml.safe_dump_all(documents, sort_keys=False)
    if draw(st.integers(0, 3)) == 0:  # a text edit: a line repeated (duplicate key) or a cut
        lines = text.splitlines(keepends=True)
        at = draw(st.integers(0, len(lines) - 1))
        if draw(st.booleans()):
            lines.insert(at, lines[at])
        else:
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
        text = "".join(lines)
    return ("cluster.json" if as_json else "cluster.yaml"), text


LINE = re.compile(
    r"^(?P<file>[^:]+)(?::(?P<line>\d+):(?P<col>\d+))?(?: \(document \d+\))?: error: "
)


# Found by this test once: a list among label values broke the known-good lookup.
LIST_LABEL = (
    "cluster.yaml",
    "apiVersion: v1\nkind: Node\nmetadata:\n  name: a0\n  labels:\n    zone: []\n",
)


@SETTINGS
@seed(20261124)
@given(manifests())
@example(LIST_LABEL)
def test_plan_never_crashes_on_generated_manifests(
    tmp_path_factory: Any, case: tuple[str, str]
) -> None:
    _check_plan(tmp_path_factory, case, [])


@settings(SETTINGS, max_examples=40)
@seed(20261126)
@given(manifests(later=True))
def test_plan_1_36_never_crashes_on_generated_manifests(
    tmp_path_factory: Any, case: tuple[str, str]
) -> None:
    """The same under 1.36: pod-level resources, affinity label keys, resource names."""
    _check_plan(tmp_path_factory, case, ["--kubernetes-version", "1.36"])


def _check_plan(tmp_path_factory: Any, case: tuple[str, str], extra: list[str]) -> None:
    name, text = case
    directory: Path = tmp_path_factory.mktemp("m")
    (directory / name).write_text(text, encoding="utf-8")
    started = time.perf_counter()
    result = CliRunner().invoke(plan, [str(directory / name), *extra])
    assert time.perf_counter() - started < WALL_SECONDS
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    if result.exit_code != 1:
        return
    assert result.stdout == ""
    for line in result.stderr.splitlines():
        if line.startswith("warning: ") or re.match(r"^error: \d+ more problem", line):
            continue
        match = LINE.match(line)
        assert match, line
        assert match["file"] == str(directory / name), line
        # Every problem in a YAML file has a place in it (JSON keys may defeat the lookup).
        assert match["line"] or name.endswith(".json"), line
