"""Pods asking for ResourceClaims: planned as if they asked for none, and said so.

From v1.34 (DRA GA) the API server keeps ``spec.resourceClaims`` and DynamicResources
runs by default; ksched reads no ResourceClaim, DeviceClass or ResourceSlice, so each
pending pod or pod template with claims costs one count in a single warning. Releases
with the gate off store no claims, so they get no warning.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import cli
from ksched_cli.whatif.inputs import load_cluster
from tests.manifests.helpers import docs, node, pod

NODE = node("n1")
CLAIMS = "  resourceClaims: [{name: gpu, resourceClaimName: gpu-0}]\n"


def _pod(name: str, node_name: str = "") -> str:
    return pod(name, "default", node_name, spec=CLAIMS)


DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu}]
      containers: [{name: c, image: x}]
"""
PLAIN = pod("plain", "default")


def _warning(count: int, version: str) -> str:
    return (f"ignoring spec.resourceClaims of {count} pending Pod(s) or pod template(s): "
            "ksched does not model DynamicResources, so they are planned as if they claimed "
            f"no device (kube-scheduler v{version} places them only where their "
            "ResourceClaims can be allocated)")


@pytest.mark.parametrize(
    ("documents", "version", "expected"),
    [
        ([NODE, _pod("a"), _pod("b")], "1.36", [_warning(2, "1.36")]),
        # A bound pod's claims are allocated already: nothing to plan.
        ([NODE, _pod("a", "n1"), PLAIN], "1.36", []),
        ([NODE, DEPLOYMENT, PLAIN], "1.36", [_warning(1, "1.36")]),
        # 1.32: the DRA gate is off, the API server stores no claims.
        ([NODE, _pod("a"), DEPLOYMENT], "1.32", []),
    ],
)
def test_claims_warning(
    tmp_path: Path, documents: list[str], version: str, expected: list[str]
) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(docs(*documents))
    result = load_cluster([str(path)], kubernetes_version=version)
    assert result.warnings == expected


def test_plan_still_places_the_pod_and_warns(tmp_path: Path) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(docs(NODE, _pod("a")))
    result = CliRunner().invoke(cli, ["plan", str(path), "--kubernetes-version", "1.36"])
    assert result.exit_code == 0
    assert result.stderr == f"warning: {_warning(1, '1.36')}\n"
    assert "default/a  Scheduled  n1" in result.stdout
