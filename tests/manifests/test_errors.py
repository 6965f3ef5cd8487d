"""Every input error is one line naming file:line:column, document and field; nothing loads."""

from __future__ import annotations

from pathlib import Path

import pytest

from ksched_cli.errors import KschedError
from ksched_cli.whatif.inputs import load_cluster

from .helpers import docs, node, pod, priority_class, write

QUANTITY = (
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)

LIST_WITH_BAD_ITEM = """\
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1}
- apiVersion: v1
  kind: Pod
  metadata: {name: a}
  spec:
    containers:
    - name: c
      resources:
        requests: {memory: 1Zi}
"""

CASES: list[tuple[str, dict[str, str], str]] = [
    (
        "unparsable-quantity",
        {"s.yaml": docs(node("n1"), pod("web-1").replace("cpu: 100m", "cpu: lots"))},
        "s.yaml:17:18: error: Pod default/web-1 (document 2): "
        f"spec.containers[0].resources.requests.cpu: {QUANTITY}: 'lots'",
    ),
    (
        "quantity-in-list-item",
        {"l.yaml": LIST_WITH_BAD_ITEM},
        "l.yaml:14:20: error: Pod default/a (document 1): "
        f"items[1].spec.containers[0].resources.requests.memory: {QUANTITY}: '1Zi'",
    ),
    (
        "json-list-item",
        {"l.json": '{"apiVersion": "v1", "kind": "List", "items": [\n'
                   '  {"kind": "Node", "metadata": {"name": "n"}},\n'
                   '  {"kind": "Node", "metadata": {"name": "m"}, "spec": {"taints": [\n'
                   '    {"key": "k", "effect": "Sometimes"}]}}]}\n'},
        'l.json:4:18: error: Node m (document 1): items[1].spec.taints[0].effect: Unsupported '
        'value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ),
    (
        "invalid-yaml",
        {"s.yaml": docs(node("n1"), "a: b\nc: [d\n", pod("x"))},
        "s.yaml:11:1: error: document 2: invalid YAML: did not find expected ',' or ']'",
    ),
    (
        "invalid-yaml-first-document",
        {"s.yaml": "kind: Pod\n  metadata: x\n"},
        "s.yaml:2:11: error: document 1: invalid YAML: mapping values are not allowed in this "
        "context",
    ),
    (
        "invalid-json",
        {"s.json": '{"kind": "Pod",\n "metadata": {"name": "x"]}\n'},
        "s.json:2:26: error: document 1: invalid YAML: did not find expected ',' or '}'",
    ),
    (
        "pod-without-containers",
        {"s.yaml": "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec: {}\n"},
        "s.yaml:5:1: error: Pod default/p (document 1): spec.containers: Required value: "
        "a pod needs at least one container",
    ),
    (
        "wrong-type",
        {"s.yaml": "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: [a]\n"},
        "s.yaml:5:3: error: Node n1 (document 1): metadata.labels: expected an object, got list",
    ),
    (
        "missing-kind",
        {"s.yaml": docs(node("n1"), "apiVersion: v1\nmetadata:\n  name: x\n")},
        "s.yaml:9:1: error: object x (document 2): kind: Required value",
    ),
    (
        "kind-not-a-string",
        {"s.yaml": "apiVersion: v1\nkind: [Pod]\n"},
        "s.yaml:2:1: error: object (document 1): kind: expected a string, got list",
    ),
    (
        "document-not-an-object",
        {"s.yaml": docs(node("n1"), "- a\n- b\n")},
        "s.yaml:9:1: error: object (document 2): expected an object, got list",
    ),
    (
        "list-items-not-a-list",
        {"s.yaml": "apiVersion: v1\nkind: List\nitems: {a: 1}\n"},
        "s.yaml:3:1: error: List (document 1): items: expected a list, got object",
    ),
    (
        "duplicate-pod-across-files",
        {"a.yaml": pod("web"), "b.yaml": docs(node("n1"), pod("web", "default"))},
        'b.yaml:12:3: error: Pod default/web (document 2): metadata.name: Duplicate value: '
        '"default/web": already defined at a.yaml:4:3',
    ),
    (
        "duplicate-node",
        {"a.yaml": docs(node("n1"), node("n1"))},
        'a.yaml:12:3: error: Node n1 (document 2): metadata.name: Duplicate value: "n1": '
        "already defined at a.yaml:4:3",
    ),
    (
        "duplicate-priority-class",
        {"a.yaml": docs(priority_class("p", 1), priority_class("p", 2))},
        'a.yaml:10:3: error: PriorityClass p (document 2): metadata.name: Duplicate value: '
        '"p": already defined at a.yaml:4:3',
    ),
    (
        "duplicate-pod-uid",
        {"a.yaml": docs(pod("a").replace("name: a", "name: a\n  uid: u1"),
                        pod("b").replace("name: b", "name: b\n  uid: u1"))},
        'a.yaml:16:3: error: Pod default/b (document 2): metadata.uid: Duplicate value: "u1": '
        "also the uid of Pod default/a",
    ),
    (
        "unknown-priority-class",
        {"a.yaml": pod("web", spec="  priorityClassName: gold\n")},
        'a.yaml:10:3: error: Pod default/web (document 1): spec.priorityClassName: pods "web" '
        "is forbidden: no PriorityClass with name gold was found",
    ),
    (
        "bad-storage-class-mode",
        {"a.yaml": "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\n"
                   "provisioner: x\nvolumeBindingMode: Later\n"},
        'a.yaml:5:1: error: StorageClass s (document 1): volumeBindingMode: Unsupported value: '
        '"Later": supported values: "Immediate", "WaitForFirstConsumer"',
    ),
    (
        "pvc-without-request",
        {"a.yaml": "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\n"
                   "spec:\n  accessModes: [ReadWriteOnce]\n"},
        "a.yaml:4:1: error: PersistentVolumeClaim default/c (document 1): "
        "spec.resources.requests.storage: Required value",
    ),
    (
        "pod-group-bad-min-resources",
        {"a.yaml": "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\n"
                   "metadata: {name: g, namespace: t}\nspec:\n  minResources:\n    cpu: x\n"},
        f"a.yaml:6:5: error: PodGroup t/g (document 1): spec.minResources.cpu: {QUANTITY}: 'x'",
    ),
]


@pytest.mark.parametrize(("files", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_error_is_one_positioned_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], expected: str
) -> None:
    write(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KschedError) as info:
        load_cluster(sorted(files))
    assert info.value.render() == expected
    assert "\n" not in info.value.render()


def test_a_missing_path_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, {"a.yaml": pod("a")})
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KschedError) as info:
        load_cluster(["a.yaml", "nope.yaml"])
    assert info.value.render() == "nope.yaml: error: no such file or directory"


def test_the_error_location_is_structured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, {"s.yaml": docs(node("n1"), node("n1"))})
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KschedError) as info:
        load_cluster(["s.yaml"])
    loc = info.value.location
    assert loc is not None
    assert (loc.file, loc.line, loc.column, loc.document) == ("s.yaml", 12, 3, 2)
    assert info.value.field == "Node n1 (document 2): metadata.name"


def test_an_error_deep_in_a_big_file_points_at_its_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    many = [pod(f"p{i}") for i in range(300)]
    many[250] = many[250].replace("cpu: 100m", "cpu: -")
    write(tmp_path, {"big.yaml": docs(*many)})
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KschedError) as info:
        load_cluster(["big.yaml"])
    line = 250 * 10 + 9  # each pod is 9 lines plus its "---"
    assert info.value.render().startswith(
        f"big.yaml:{line}:18: error: Pod default/p250 (document 251): "
        "spec.containers[0].resources.requests.cpu: ")
