"""``ksched diff -n NS`` (issue 26 item 4): kubectl apply -n's placement and refusal, as
``plan -n``, only NS's pods compared, and kubectl's sentence for an empty selection.

``tests/cli/newcomer`` holds a chart rendered without namespaces beside a snapshot whose
objects all name theirs. Regenerate the golden file with ``KSCHED_UPDATE_GOLDEN=1``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import Result

from ..manifests.helpers import docs, node, pod
from .helpers import ksched

NEWCOMER = "tests/cli/newcomer"
CLUSTER = f"{NEWCOMER}/cluster.yaml"
GOLDEN = Path(__file__).parent / "golden" / "newcomer"
PROFILES = ("--base", "default", "--head", "bin-packing", "--kubernetes-version", "1.30")


pytestmark = pytest.mark.usefixtures("at_repo")


def _pods(result: Result) -> list[str]:
    return [change["pod"] for change in json.loads(result.stdout)["pods"]]


def test_namespace_places_the_chart_and_limits_the_comparison() -> None:
    result = ksched("diff", *PROFILES, NEWCOMER, "-n", "shop")
    assert result.exit_code == 3
    assert result.stderr == ""
    path = GOLDEN / "diff.namespace.txt"
    if os.environ.get("KSCHED_UPDATE_GOLDEN") == "1":
        path.write_text(result.stdout, encoding="utf-8")
    assert result.stdout == path.read_text(encoding="utf-8")
    assert result.stdout.endswith("Summary: 2 of 7 pod(s) changed: 2 moved\n")


def test_without_namespace_the_chart_lands_in_default() -> None:
    result = ksched("diff", *PROFILES, NEWCOMER, "-o", "json")
    assert result.exit_code == 3
    assert [p.split("-", 1)[0] for p in _pods(result)] == ["default/cart", "default/shop"]


@pytest.mark.parametrize(
    ("namespace", "pods", "compared"),
    [
        ("shop", ["shop/frontend-7d49b8b9dd-bdbbs", "shop/frontend-7d49b8b9dd-lwntx"], 7),
        ("kube-system", ["kube-system/cart-canary", "kube-system/shop-cart-7bc59f5b96-vg4nb"],
         4),
    ],
)
def test_only_the_namespaces_pods_are_compared(
    namespace: str, pods: list[str], compared: int
) -> None:
    result = ksched("diff", *PROFILES, NEWCOMER, "-n", namespace, "-o", "json")
    assert result.exit_code == 3
    doc = json.loads(result.stdout)
    assert _pods(result) == pods
    assert doc["summary"]["pods"] == compared
    assert set(doc["base"]["outcomes"]) <= {"Scheduled", "Unschedulable"}
    assert sum(doc["base"]["outcomes"].values()) <= compared


def test_namespace_refuses_an_object_of_another_namespace(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(docs(node("n1"), pod("p", namespace="a"), pod("q")), encoding="utf-8")
    result = ksched("diff", *PROFILES, str(path), "-n", "b")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"{path}:13:3: error: Pod a/p (document 2): metadata.namespace: the namespace from "
        'the provided object "a" does not match the namespace "b". You must pass '
        "'--namespace=a' to perform this operation.\n"
    )


def test_a_snapshot_keeps_its_namespaces(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(docs(node("n1"), pod("p", namespace="a"), pod("q", namespace="b")),
                    encoding="utf-8")
    result = ksched("diff", "--config", "default", "--base-manifests", str(path),
                    "--head-manifests", str(path), "--drain", "n1", "-n", "b", "-o", "json")
    assert result.exit_code == 3
    assert _pods(result) == ["b/q"]


@pytest.mark.parametrize("output", ["table", "wide", "markdown"])
def test_an_empty_selection_says_no_resources_found(output: str) -> None:
    result = ksched("diff", *PROFILES, CLUSTER, "-n", "kube-system", "-o", output)
    assert (result.exit_code, result.stdout, result.stderr) == (
        0, "", "No resources found in kube-system namespace.\n"
    )


def test_an_empty_selection_keeps_the_operations_report() -> None:
    result = ksched("diff", *PROFILES, CLUSTER, "-n", "kube-system", "--drain", "worker-a1")
    assert result.exit_code == 0
    assert result.stdout.startswith("Operations:\n  --drain worker-a1 [worker-a1]: 1 Lost\n")
    assert result.stderr == "No resources found in kube-system namespace.\n"


def test_an_empty_selection_in_json_is_an_empty_comparison() -> None:
    result = ksched("diff", *PROFILES, CLUSTER, "-n", "kube-system", "-o", "json")
    assert (result.exit_code, result.stderr) == (0, "")
    doc = json.loads(result.stdout)
    assert (doc["pods"], doc["summary"]["pods"], doc["base"]["outcomes"]) == ([], 0, {})


def test_scale_without_a_namespace_acts_in_n(tmp_path: Path) -> None:
    result = ksched("diff", "--config", "default", NEWCOMER, "-n", "shop",
                    "--scale", "deployment/frontend=3", "--kubernetes-version", "1.30")
    assert result.exit_code == 3
    assert "  --scale deployment/frontend=3: 1 Created\n" in result.stdout


def test_help_names_the_namespace_option() -> None:
    text = " ".join(ksched("diff", "--help").stdout.split())
    assert ("-n, --namespace NS Compare only pods of namespace NS (every pod is still "
            "planned); manifests naming no namespace are placed in NS") in text
