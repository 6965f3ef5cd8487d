"""Drain invariants on random small clusters (Hypothesis, seeded and bounded)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, seed, settings
from hypothesis import strategies as st

from ksched_cli.engine.cluster import Cluster
from ksched_cli.whatif.apply import apply_operations
from ksched_cli.whatif.ops.registry import parse_operation

from .helpers import load, node, pdb, pod

OWNERS = [None, ("ReplicaSet", "rs"), ("StatefulSet", "sts"), ("DaemonSet", "ds")]
POD = st.tuples(st.integers(0, 2), st.sampled_from(OWNERS), st.sampled_from(["a", "b"]))


def _cluster(pods: list[tuple[int, Any, str]], budgets: list[int]) -> Cluster:
    docs: list[dict[str, Any]] = [node(f"n{i}") for i in range(3)]
    for i, (where, owner, app) in enumerate(pods):
        docs.append(pod(f"p{i}", f"n{where}", "100m", labels={"app": app}, owner=owner))
    for j, minimum in enumerate(budgets):
        docs.append(pdb(f"b{j}", {"app": "ab"[j]}, min_available=minimum))
    with tempfile.TemporaryDirectory() as tmp:
        return load(Path(tmp), docs)


@seed(1414)
@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(POD, max_size=12), st.lists(st.integers(0, 4), max_size=2))
def test_drain_accounts_for_every_pod(pods: list[tuple[int, Any, str]],
                                      budgets: list[int]) -> None:
    cluster = _cluster(pods, budgets)
    before = [p.key for p in cluster.pods if p.node_name == "n0"]
    report, _ = apply_operations(cluster, [parse_operation("--drain", "n0")])
    allowed = {b.meta.name: b.disruptions_allowed for b in cluster.pdbs}
    changes = report.operations[0].changes
    on_node = [c for c in changes if c.node == "n0"]
    # Every pod of the node gets exactly one verdict.
    assert sorted(c.pod for c in on_node) == sorted(before)
    staying = {c.pod for c in on_node if c.change in ("Stays", "BlockedDrain")}
    assert {p.key for p in cluster.pods if p.node_name == "n0"} == staying
    # Budgets never go below zero, and a blocked pod names its budget.
    assert all(v is not None and v >= 0 for v in allowed.values())
    assert all(c.pdb for c in on_node if c.change == "BlockedDrain")
    # Controller-owned evictions come back (not DaemonSet pods, which a drain leaves).
    evicted = {c.pod for c in on_node if c.change == "Evicted"}
    replaced = {c.replaces for c in changes if c.change == "Recreated"}
    assert replaced == evicted
    assert all(c.change in ("Stays",) for c in on_node if c.workload.startswith("daemonset/"))
