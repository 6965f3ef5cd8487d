"""Reconcile invariants on random small inputs (Hypothesis, seeded and bounded): every
controller ends with the pods it wants, and a second reconcile changes nothing."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, seed, settings
from hypothesis import strategies as st

from ksched_cli.controllers import reconcile
from ksched_cli.controllers.daemonset import target_node

from .helpers import load, node, template, workload

# A running pod: which node, which controller owns it (or none), whether it is labelled
# for the ReplicaSet's selector (an orphan the ReplicaSet adopts).
RUNNING = st.tuples(st.integers(0, 2), st.sampled_from(["", "ReplicaSet", "DaemonSet",
                                                        "StatefulSet"]), st.booleans())


def _running(i: int, where: int, owner: str, labelled: bool) -> str:
    name = f"db-{i}" if owner == "StatefulSet" else f"p{i}"
    ref = f"\n  ownerReferences: [{{kind: {owner}, name: x, controller: true}}]" if owner else ""
    labels = "{app: x}" if labelled or owner else "{}"
    return f"""apiVersion: v1
kind: Pod
metadata:
  name: {name}
  labels: {labels}{ref}
spec:
  nodeName: n{where}
  containers: [{{name: c}}]
"""


@seed(1212)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(RUNNING, max_size=8, unique_by=lambda r: r), st.integers(0, 4),
       st.integers(0, 4))
def test_reconcile_reaches_the_desired_counts_and_is_idempotent(
    running: list[tuple[int, str, bool]], replicas: int, ordinals: int
) -> None:
    spec = "  selector: {matchLabels: {app: x}}\n" + template("app: x")
    docs = [node(f"n{i}") for i in range(3)]
    docs += [_running(i, *r) for i, r in enumerate(running)]
    docs += [
        workload("ReplicaSet", "x", f"  replicas: {replicas}\n" + spec),
        workload("DaemonSet", "x", spec),
        workload("StatefulSet", "x", f"  replicas: {ordinals}\n  podManagementPolicy: "
                 "Parallel\n" + spec),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        cluster = load(Path(tmp), *docs).cluster
    by_owner: dict[str, list[str]] = {}
    for pod in cluster.pods:
        by_owner.setdefault(pod.workload, []).append(pod.name)
    assert len(by_owner.get("replicaset/x", [])) == replicas
    daemon = [p for p in cluster.pods if p.workload == "daemonset/x"]
    assert sorted(target_node(p) for p in daemon) == ["n0", "n1", "n2"]
    # Pods named db-N are not members of "x" (isMemberOf): left alone, not counted.
    members = [n for n in by_owner.get("statefulset/x", []) if not n.startswith("db-")]
    assert sorted(members) == [f"x-{o}" for o in range(ordinals)]
    assert len({p.key for p in cluster.pods}) == len(cluster.pods)
    again = reconcile(cluster)
    assert (again.created, again.deleted) == ([], [])
