"""Every shared conformance cluster loads without error (skipped where shared/ is absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ksched_cli.whatif.inputs import load_cluster

CASES = Path(__file__).resolve().parents[2] / ".." / "shared" / "conformance" / "cases"
CLUSTERS = sorted(CASES.glob("*/cluster.yaml")) if CASES.is_dir() else []


@pytest.mark.skipif(not CLUSTERS, reason="shared conformance cases not present")
def test_every_conformance_cluster_loads() -> None:
    for path in CLUSTERS:
        result = load_cluster([str(path)])
        assert result.warnings == [], path
        cluster = result.cluster
        assert cluster.nodes, path
        assert [p.load_index for p in cluster.pods] == list(range(len(cluster.pods))), path
        assert all(p.preemption_policy for p in cluster.pods), path
