"""A newcomer's first hour, round 3 (issue 26): unserved apiVersions, the decisive reason
first, names that round-trip, kubectl habits (-o=json, -n, No resources found), one unit
per column, and a short ignored-kinds line.

``tests/cli/newcomer`` is a seven-node, three-zone cluster (a tainted control plane, a
cordoned node) and a chart rendered without namespaces, whose spread constraint rejects 4
of the 7 nodes while kube-scheduler's message lists ``1 Insufficient cpu`` first.
Regenerate the golden files with ``KSCHED_UPDATE_GOLDEN=1``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from ksched_cli.render.reasons import decisive_first

from ..manifests.helpers import docs, node, pod
from .helpers import REPO, ksched

NEWCOMER = "tests/cli/newcomer"
GOLDEN = Path(__file__).parent / "golden" / "newcomer"
V130 = ("--kubernetes-version", "1.30")
CART_MESSAGE = (
    "0/7 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint "
    "{node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable, 4 node(s) "
    "didn't match pod topology spread constraints. preemption: 0/7 nodes are available: "
    "2 Preemption is not helpful for scheduling, 5 No preemption victims found for incoming pod."
)


pytestmark = pytest.mark.usefixtures("at_repo")


def _write(tmp_path: Path, text: str, name: str = "c.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("KSCHED_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


# --- 1. an apiVersion no API server serves, for a kind ksched reads ------------------------

DEPLOYMENT = "kind: Deployment\nmetadata: {name: web, namespace: shop}\nspec: {}\n"


@pytest.mark.parametrize(
    ("head", "what"),
    [
        ("apiVersion: apps/v1beta2\n" + DEPLOYMENT, 'Deployment shop/web'),
        ("apiVersion: extensions/v1beta1\n" + DEPLOYMENT, 'Deployment shop/web'),
        ("apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: r}\n", "CronJob default/r"),
        ("apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: b}\n",
         "PodDisruptionBudget default/b"),
        ("apiVersion: apps/v1\nkind: Pod\nmetadata: {name: p}\n", "Pod default/p"),
        ("apiVersion: storage.k8s.io/v1beta1\nkind: StorageClass\nmetadata: {name: s}\n",
         "StorageClass s"),
    ],
)
def test_an_unserved_api_version_is_an_error(tmp_path: Path, head: str, what: str) -> None:
    path = _write(tmp_path, head + "---\n" + node("n1"))
    result = ksched("plan", path)
    api = head.split("\n", 1)[0].removeprefix("apiVersion: ")
    kind = re.search(r"kind: (\w+)", head)[1]  # type: ignore[index]
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        f"{path}:1:1: error: {what} (document 1): apiVersion: no matches for kind "
        f'"{kind}" in version "{api}"\n'
    )


def test_every_unserved_object_is_reported(tmp_path: Path) -> None:
    path = _write(tmp_path, docs("apiVersion: apps/v1beta2\n" + DEPLOYMENT,
                                 "apiVersion: apps/v1beta1\nkind: StatefulSet\n"
                                 "metadata: {name: db}\n"))
    result = ksched("plan", path)
    assert result.exit_code == 1
    assert [line.split(": error: ")[1] for line in result.stderr.splitlines()] == [
        'Deployment shop/web (document 1): apiVersion: no matches for kind "Deployment" '
        'in version "apps/v1beta2"',
        'StatefulSet default/db (document 2): apiVersion: no matches for kind "StatefulSet" '
        'in version "apps/v1beta1"',
    ]


# --- 6. kinds ksched does not read: one short warning line -------------------------------

def test_ignored_kinds_are_one_short_line(tmp_path: Path) -> None:
    path = _write(tmp_path, docs(
        node("n1"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
        "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n",
        "apiVersion: scheduling.volcano.sh/v1beta1\nkind: PodGroup\nmetadata: {name: g}\n",
    ))
    result = ksched("plan", path)
    assert result.exit_code == 0
    assert result.stderr == (
        "warning: ignoring 3 object(s) of kinds ksched does not read: ConfigMap (1), "
        "PodGroup scheduling.volcano.sh/v1beta1 (1), Secret (1)\n"
    )


def test_the_kinds_read_are_in_help() -> None:
    text = " ".join(ksched("plan", "--help").stdout.split())
    assert "Kinds read: Node, Pod, PriorityClass, PodDisruptionBudget," in text
    assert "Job, CronJob and Service. Other kinds are ignored (one warning line)" in text


# --- 2. the decisive reason first, whole reasons only -------------------------------------

def test_plan_table_leads_with_the_decisive_reason() -> None:
    result = ksched("plan", NEWCOMER, "-n", "shop", *V130)
    assert result.exit_code == 2
    assert (
        "shop/cart-canary           Unschedulable  <none>     0/7 nodes are available: 4 "
        "node(s) didn't match pod topology spread constraints, 1 Insufficient cpu (+2 more).\n"
    ) in result.stdout
    _golden("plan.table.txt", result.stdout)


def test_json_keeps_kube_schedulers_message() -> None:
    doc = json.loads(ksched("plan", NEWCOMER, "-n", "shop", "-o", "json", *V130).stdout)
    messages = {p["pod"]: p.get("message") for p in doc["pods"]}
    assert messages["shop/cart-canary"] == CART_MESSAGE


def test_diff_why_leads_with_the_decisive_reason(tmp_path: Path) -> None:
    chart = (REPO / NEWCOMER / "chart.yaml").read_text(encoding="utf-8")
    namespaced = re.sub(r"(\nmetadata:\n  name: [\w-]+)", r"\1\n  namespace: shop", chart)
    shop = _write(tmp_path, namespaced, "chart.yaml")
    cluster = f"{NEWCOMER}/cluster.yaml"
    result = ksched("diff", "--base-manifests", cluster, "--head-manifests", cluster,
                    "--head-manifests", shop, *V130)
    assert result.exit_code == 3
    _golden("diff.table.txt", result.stdout.replace(shop, "chart.yaml"))


A, B, C, D = ("a" * 20, "b" * 20, "c" * 20, "d" * 20)
HEAD = "0/9 nodes are available:"


@pytest.mark.parametrize(
    ("width", "expected"),
    [
        (None, f"{HEAD} 4 {B}, 2 {A}, 2 {C}, 1 {D}. preemption: x"),
        (134, f"{HEAD} 4 {B}, 2 {A}, 2 {C}, 1 {D}. preemption: x"),
        (133, f"{HEAD} 4 {B}, 2 {A}, 2 {C}, 1 {D}."),
        (119, f"{HEAD} 4 {B}, 2 {A}, 2 {C} (+1 more)."),
        (105, f"{HEAD} 4 {B}, 2 {A} (+2 more)."),
        (81, f"{HEAD} 4 {B} (+3 more)."),
        (10, f"{HEAD} 4 {B} (+3 more)."),  # the decisive reason whole, even over the width
    ],
)
def test_decisive_first_orders_by_count_and_keeps_reasons_whole(
    width: int | None, expected: str
) -> None:
    # kube-scheduler's order: the strings "N reason" sorted; equal counts keep it (a, c).
    message = f"{HEAD} 1 {D}, 2 {A}, 2 {C}, 4 {B}. preemption: x"
    assert decisive_first(message, width) == expected
    assert width is None or width < 81 or len(decisive_first(message, width)) <= width


def test_messages_that_are_not_fit_errors_are_cut_as_before() -> None:
    assert decisive_first("waiting for scheduling gates: [a b c]", 20) == "waiting for sched..."
    assert decisive_first("0/3 nodes are available: pod has unbound PVCs.", 200) == (
        "0/3 nodes are available: pod has unbound PVCs.")


# --- 3. names that round-trip ------------------------------------------------------------

@pytest.mark.parametrize(
    "name", ["shop/deployment/shop-cart", "deployment/shop-cart", "deploy/shop-cart"],
)
def test_explain_pod_takes_a_workload_as_printed(name: str) -> None:
    result = ksched("plan", NEWCOMER, "-n", "shop", "--explain-pod", name, *V130)
    assert result.exit_code == 2
    assert result.stdout.startswith("Pod shop/shop-cart-")
    assert ": Unschedulable\n" in result.stdout.splitlines(keepends=True)[0]


@pytest.mark.parametrize("name", ["shop/cart-canary", "pod/cart-canary", "cart-canary"])
def test_explain_pod_takes_a_pod_as_printed(name: str) -> None:
    result = ksched("plan", NEWCOMER, "-n", "shop", "--explain-pod", name, *V130)
    assert result.exit_code == 2
    assert result.stdout.splitlines()[0] == "Pod shop/cart-canary: Unschedulable"


def test_a_workloads_pods_are_each_explained() -> None:
    result = ksched("plan", NEWCOMER, "-n", "shop", "--explain-pod", "deployment/frontend", *V130)
    stories = [line for line in result.stdout.splitlines() if line.startswith("Pod ")]
    assert len(stories) == 2
    assert all(re.match(r"Pod shop/frontend-\w+-\w+: Scheduled on worker-", s) for s in stories)


@pytest.mark.parametrize("name", ["shop/frontend", "frontend"])
def test_a_workloads_name_without_its_kind_is_its_pods(name: str) -> None:
    # As capacity names its copies (shop/frontend), when no pod has the name.
    result = ksched("plan", NEWCOMER, "-n", "shop", "--explain-pod", name, *V130)
    stories = [line for line in result.stdout.splitlines() if line.startswith("Pod ")]
    assert result.exit_code == 2
    assert [s.split(":")[0] for s in stories] == [
        "Pod shop/frontend-7d49b8b9dd-lwntx", "Pod shop/frontend-7d49b8b9dd-bdbbs"]


def test_a_missing_pod_names_the_pods_of_the_workload_of_that_name() -> None:
    result = ksched("plan", NEWCOMER, "-n", "shop", "--explain-pod", "pod/frontend", *V130)
    assert result.exit_code == 1
    assert re.fullmatch(
        r"error: --explain-pod: no pod shop/frontend in the input; did you mean "
        r"shop/deployment/frontend \(pods shop/frontend-\w+-\w+, shop/frontend-\w+-\w+\)\?\n",
        result.stderr,
    )


def test_a_missing_pod_names_the_closest_pods() -> None:
    result = ksched("plan", NEWCOMER, "-n", "shop", "--explain-pod", "shop/cart", *V130)
    assert result.exit_code == 1
    assert result.stderr == (
        "error: --explain-pod: no pod shop/cart in the input (did you mean shop/cart-a or "
        "shop/cart-b or shop/cart-canary?)\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--scale", "shop/deployment/frontend=3"],
        ["-n", "shop", "--scale", "deployment/frontend=3"],
        ["--scale", "deployment/shop/frontend=3"],
    ],
)
def test_scale_takes_printed_names_and_namespace(tmp_path: Path, args: list[str]) -> None:
    chart = (REPO / NEWCOMER / "chart.yaml").read_text(encoding="utf-8")
    namespaced = re.sub(r"(\nmetadata:\n  name: [\w-]+)", r"\1\n  namespace: shop", chart)
    shop = _write(tmp_path, namespaced, "chart.yaml")
    result = ksched("plan", f"{NEWCOMER}/cluster.yaml", shop, *args, *V130)
    assert result.exit_code == 2
    value = args[-1]
    assert f"  --scale {value}: 1 Created\n" in result.stdout


def test_scale_outside_the_namespace_names_it() -> None:
    result = ksched("plan", f"{NEWCOMER}/cluster.yaml", "--scale", "deployment/frontend=3", *V130)
    assert result.exit_code == 1
    assert result.stderr == (
        "error: --scale: no deployment/frontend in namespace default of the input\n"
    )


@pytest.mark.parametrize(
    "args", [["shop/deployment/frontend"], ["-n", "shop", "deployment/frontend"],
             ["-n", "shop", "deploy/frontend"]],
)
def test_capacity_takes_a_workload_of_the_input(args: list[str]) -> None:
    result = ksched("capacity", *args, NEWCOMER, "-n", "shop", *V130)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == (
        "shop/frontend: 54 more copies fit (profile default-scheduler; the next copy is "
        "Unschedulable)"
    )


def test_capacity_names_the_workload_when_the_pod_is_missing() -> None:
    result = ksched("capacity", "pod/frontend", NEWCOMER, "-n", "shop", *V130)
    assert result.exit_code == 1
    assert result.stderr.startswith(
        "error: WORKLOAD_OR_POD_FILE: not a file, and no pod shop/frontend in the input; "
        "did you mean shop/deployment/frontend (pods shop/frontend-"
    )


# --- 4. kubectl habits -------------------------------------------------------------------

@pytest.mark.parametrize(
    "args",
    [["plan", "examples/basic", "-o=json"], ["plan", "examples/basic", "-o=name", "-n=default"],
     ["profiles", "-o=json"], ["versions", "-o=json"], ["plugins", "-o=json"]],
)
def test_short_options_take_an_equals_sign(args: list[str]) -> None:
    equal = ksched(*args)
    spaced = ksched(*[part for arg in args for part in arg.split("=", 1)])
    assert equal.exit_code == spaced.exit_code
    assert equal.stdout == spaced.stdout
    assert equal.stdout


def test_namespace_places_objects_without_one() -> None:
    default = ksched("plan", NEWCOMER, "-o", "json", *V130)
    shop = ksched("plan", NEWCOMER, "-n", "shop", "-o", "json", *V130)
    assert {p["pod"].split("/")[0] for p in json.loads(default.stdout)["pods"]} == {"default"}
    assert {p["pod"].split("/")[0] for p in json.loads(shop.stdout)["pods"]} == {"shop"}
    # In shop, the chart's pods meet the running ones: the spread constraint now bites.
    assert (default.exit_code, shop.exit_code) == (0, 2)


def test_namespace_refuses_an_object_of_another_namespace(tmp_path: Path) -> None:
    path = _write(tmp_path, docs(node("n1"), pod("p", namespace="a"), pod("q")))
    result = ksched("plan", path, "-n", "b")
    assert result.exit_code == 1
    assert result.stderr == (
        f"{path}:13:3: error: Pod a/p (document 2): metadata.namespace: the namespace from "
        'the provided object "a" does not match the namespace "b". You must pass '
        "'--namespace=a' to perform this operation.\n"
    )


def test_a_snapshot_keeps_its_namespaces_with_n(tmp_path: Path) -> None:
    path = _write(tmp_path, docs(node("n1"), pod("p", namespace="a"), pod("q", namespace="b")))
    result = ksched("plan", path, "-n", "b", "-o", "name")
    assert (result.exit_code, result.stdout) == (0, "pod/q\n")


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["-n", "kube-system"], "No resources found in kube-system namespace.\n"),
        (["-l", "app=nothing"], "No resources found\n"),
        (["-l", "app=nothing", "-A"], "No resources found\n"),
        (["-n", "kube-system", "-o", "name"], "No resources found in kube-system namespace.\n"),
        (["-n", "kube-system", "-o", "wide"], "No resources found in kube-system namespace.\n"),
    ],
)
def test_an_empty_selection_says_no_resources_found(args: list[str], line: str) -> None:
    # The cluster alone: every object names its namespace, so -n only chooses.
    result = ksched("plan", f"{NEWCOMER}/cluster.yaml", *args, *V130)
    assert result.exit_code == 0
    assert (result.stdout, result.stderr) == ("", line)


# --- 5. one unit per column --------------------------------------------------------------

def test_node_tables_use_one_unit_per_column() -> None:
    result = ksched("plan", NEWCOMER, "-n", "shop", "--drain", "worker-a1", *V130)
    row = next(line for line in result.stdout.splitlines() if line.startswith("worker-a1 "))
    assert row.split() == [
        "worker-a1", "cordoned", "500m/4000m", "(12%)", "->", "0m/4000m", "(0%)",
        "582Mi/15268Mi", "(3%)", "->", "0Mi/15268Mi", "(0%)", "1/110", "->", "0/110",
    ]
