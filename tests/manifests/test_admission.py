"""Admission as the API server applies it: priorities, preemption policies, defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from ksched_cli.api.meta import DEFAULT_TIME, parse_time
from ksched_cli.api.policy import PriorityClass
from ksched_cli.errors import KschedError
from ksched_cli.manifests.admission import default_priority_class
from ksched_cli.whatif.inputs import load_cluster

from .helpers import docs, node, pod, priority_class, write

GOLD = priority_class("gold", 1000)
NEVER = priority_class("never", 50, "preemptionPolicy: Never\n")
DEFAULT = priority_class("default", 7, "globalDefault: true\n")
DEFAULT_LOW = priority_class("default-low", 3, "globalDefault: true\n")


def load_pod(tmp_path: Path, classes: list[str], spec: str) -> tuple[str, int, str]:
    """(priorityClassName, priority, preemptionPolicy) of one pod after admission."""
    # Classes after the pod: admission sees every class, wherever it is in the input.
    write(tmp_path, {"in.yaml": docs(pod("p", spec=spec), *classes)})
    p = load_cluster([str(tmp_path / "in.yaml")]).cluster.pods[0]
    return p.priority_class_name, p.priority, p.preemption_policy


@pytest.mark.parametrize(
    ("classes", "spec", "expected"),
    [
        ([], "", ("", 0, "PreemptLowerPriority")),
        ([GOLD], "", ("", 0, "PreemptLowerPriority")),
        ([GOLD], "  priorityClassName: gold\n", ("gold", 1000, "PreemptLowerPriority")),
        ([GOLD], "  priorityClassName: gold\n  priority: 1000\n", ("gold", 1000,
                                                                   "PreemptLowerPriority")),
        ([NEVER], "  priorityClassName: never\n", ("never", 50, "Never")),
        ([NEVER], "  priorityClassName: never\n  preemptionPolicy: Never\n", ("never", 50,
                                                                             "Never")),
        ([GOLD, DEFAULT], "", ("default", 7, "PreemptLowerPriority")),
        ([DEFAULT, GOLD], "  priorityClassName: gold\n", ("gold", 1000, "PreemptLowerPriority")),
        ([DEFAULT, DEFAULT_LOW], "", ("default-low", 3, "PreemptLowerPriority")),
        # An explicit priority without a class is kept, even with a globalDefault class.
        ([DEFAULT], "  priority: 42\n", ("", 42, "PreemptLowerPriority")),
        ([DEFAULT], "  priority: 0\n", ("", 0, "PreemptLowerPriority")),
        ([], "  priority: -5\n  preemptionPolicy: Never\n", ("", -5, "Never")),
        ([], "  preemptionPolicy: Never\n", ("", 0, "Never")),
        # The API server's own classes exist in every cluster.
        ([], "  priorityClassName: system-node-critical\n", ("system-node-critical",
                                                            2000001000, "PreemptLowerPriority")),
        ([priority_class("system-cluster-critical", 5)],
         "  priorityClassName: system-cluster-critical\n",
         ("system-cluster-critical", 5, "PreemptLowerPriority")),
    ],
    ids=["none", "class-unused", "class", "class-agrees", "class-never", "class-never-agrees",
         "global-default", "named-beats-default", "smallest-default", "explicit-kept",
         "explicit-zero-kept", "explicit-negative", "policy-kept", "system-class",
         "system-class-overridden"],
)
def test_pod_priority(
    tmp_path: Path, classes: list[str], spec: str, expected: tuple[str, int, str]
) -> None:
    assert load_pod(tmp_path, classes, spec) == expected


def test_system_classes_are_not_added_to_the_cluster(tmp_path: Path) -> None:
    write(tmp_path, {"in.yaml": GOLD})
    assert list(load_cluster([str(tmp_path)]).cluster.priority_classes) == ["gold"]


def test_policy_contradicting_the_class_is_forbidden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = "  priorityClassName: never\n  preemptionPolicy: PreemptLowerPriority\n"
    write(tmp_path, {"in.yaml": docs(NEVER, pod("p", spec=spec))})
    monkeypatch.chdir(tmp_path)
    with pytest.raises(KschedError) as info:
        load_cluster(["in.yaml"])
    assert info.value.render() == (
        'in.yaml:18:3: error: Pod default/p (document 2): spec.preemptionPolicy: pods "p" is '
        "forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be "
        "provided in pod spec; priority admission controller computed Never from the given "
        "PriorityClass name")


def test_default_priority_class_ties_go_to_the_lowest_name() -> None:
    classes = {n: PriorityClass(n, 1, True, "PreemptLowerPriority") for n in ("b", "a", "c")}
    chosen = default_priority_class(classes)
    assert chosen is not None and chosen.name == "a"


def test_pod_defaults_uid_and_start_time(tmp_path: Path) -> None:
    write(tmp_path, {"in.yaml": docs(
        node("n1"),
        pod("run", node="n1"),
        pod("started", "ns1", node="n1", spec="status: {startTime: '2023-05-01T10:00:00Z'}\n"),
        pod("pending").replace("name: pending", "name: pending\n  uid: 1234-abcd"),
    )})
    pods = load_cluster([str(tmp_path)]).cluster.pods
    assert [(p.namespace, p.uid, p.scheduler_name) for p in pods] == [
        ("default", "default/run", "default-scheduler"),
        ("ns1", "ns1/started", "default-scheduler"),
        ("default", "1234-abcd", "default-scheduler"),
    ]
    assert [p.start_time for p in pods] == [
        DEFAULT_TIME, parse_time("2023-05-01T10:00:00Z", ""), None]


def _claim(name: str, extra: str = "") -> str:
    return (f"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: {name}}}\n"
            f"spec:\n  resources: {{requests: {{storage: 1Gi}}}}\n{extra}")


def _class(name: str, default: bool, created: str) -> str:
    ann = "annotations: {storageclass.kubernetes.io/is-default-class: 'true'}, " if default else ""
    return (f"apiVersion: storage.k8s.io/v1\nkind: StorageClass\n"
            f"metadata: {{name: {name}, {ann}creationTimestamp: '{created}'}}\nprovisioner: x\n")


def test_default_storage_class_admission(tmp_path: Path) -> None:
    write(tmp_path, {"in.yaml": docs(
        _claim("nil"),
        _claim("empty", "  storageClassName: ''\n"),
        _claim("named", "  storageClassName: other\n"),
        _claim("bound", "  volumeName: pv1\n"),
        _class("old-default", True, "2024-01-01T00:00:00Z"),
        _class("new-default", True, "2024-02-01T00:00:00Z"),
        _class("other", False, "2024-03-01T00:00:00Z"),
    )})
    claims = load_cluster([str(tmp_path)]).cluster.persistent_volume_claims
    assert {k: c.storage_class_name for k, c in claims.items()} == {
        "default/nil": "new-default",
        "default/empty": "",
        "default/named": "other",
        "default/bound": None,
    }


def test_no_default_storage_class_leaves_claims_alone(tmp_path: Path) -> None:
    plain = _class("plain", False, "2024-01-01T00:00:00Z")
    write(tmp_path, {"in.yaml": docs(_claim("nil"), plain)})
    claims = load_cluster([str(tmp_path)]).cluster.persistent_volume_claims
    assert claims["default/nil"].storage_class_name is None
    assert claims["default/nil"].class_name == ""
