"""Names printed are names accepted (issue 26 item 3), table-driven: every pod and workload
name ``plan`` (text, json, yaml and the HTML report's data), ``diff``, ``simulate`` and
``capacity`` print for ``tests/cli/roundtrip`` (a
Deployment, a StatefulSet and a bare pod in namespace shop) is collected from their real
output and fed back to every option that takes a pod or a workload.

A name that names its namespace is fed as it is; one printed without (``pod/NAME``,
``kind/name``) is fed with ``-n shop``, as kubectl reads it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml

from .helpers import REPO, ksched

ROOT = "tests/cli/roundtrip"
MANIFESTS = f"{ROOT}/manifests"
CHART = f"{MANIFESTS}/shop.yaml"
SCENARIO = f"{ROOT}/scenario.yaml"
WEB = ("shop/web-b4f787dcb-b6kjj", "shop/web-b4f787dcb-zk7wc")
DB = ("shop/db-0", "shop/db-1", "shop/db-2")
CACHE = ("shop/cache",)


def _pod(key: str) -> tuple[tuple[str, ...], str, str]:
    return (key,), key, ""


WEB_WORKLOAD = (WEB, "shop/web", "deployment/web")
DB_WORKLOAD = (DB, "shop/db", "statefulset/db")

# Every name the commands print: the pods it stands for, the name capacity gives its copies,
# and the workload (kind/name) it is, "" for a pod.
PRINTED: dict[str, tuple[tuple[str, ...], str, str]] = {
    **{key: _pod(key) for key in (*WEB, *DB, *CACHE)},
    **{"pod/" + key.split("/")[1]: _pod(key) for key in (*WEB, *DB, *CACHE)},
    "shop/deployment/web": WEB_WORKLOAD,
    "deployment/web": WEB_WORKLOAD,
    "shop/statefulset/db": DB_WORKLOAD,
    "statefulset/db": DB_WORKLOAD,
    "shop/web": WEB_WORKLOAD,  # capacity's copies of the Deployment
    "shop/db": DB_WORKLOAD,
}
# kubectl's forms of the same objects (kubectl get -o name, short names, plurals).
KUBECTL: dict[str, tuple[tuple[str, ...], str, str]] = {
    "deployment.apps/web": WEB_WORKLOAD,
    "deployments.v1.apps/web": WEB_WORKLOAD,
    "deploy/web": WEB_WORKLOAD,
    "Deployment/web": WEB_WORKLOAD,
    "shop/deploy/web": WEB_WORKLOAD,
    "statefulset.apps/db": DB_WORKLOAD,
    "sts/db": DB_WORKLOAD,
    "pods/cache": _pod("shop/cache"),
    "cache": _pod("shop/cache"),
    "web": WEB_WORKLOAD,
    "db-2": _pod("shop/db-2"),
}
NAMES = {**PRINTED, **KUBECTL}


pytestmark = pytest.mark.usefixtures("at_repo")


def _namespace(name: str) -> list[str]:
    """-n shop for a name printed without its namespace."""
    return [] if name.startswith("shop/") else ["-n", "shop"]


# --- collecting what the commands print ---------------------------------------------------

def _columns(text: str, title: str) -> Iterator[str]:
    """The cells of every column headed ``title`` in the aligned tables of ``text``."""
    start = end = None
    for line in text.splitlines():
        header = re.search(rf"(?:^|  )({title})(?:  |$)", line)
        if header and re.fullmatch(r"[A-Z][A-Z -]*", line.strip()):
            start = header.start(1)
            after = [m.start() for m in re.finditer(r"(?<=  )\S", line) if m.start() > start]
            end = after[0] if after else None
            continue
        if not line.strip() or line.startswith(" ") or " decision(s) on " in line:
            start = None  # the table ends (at a blank line, or the plan's summary line)
        elif start is not None:
            yield line[start:end].strip()


def _json_names(doc: object) -> Iterator[str]:
    if isinstance(doc, dict):
        for key, value in doc.items():
            if key in ("pod", "owner", "workload") and isinstance(value, str):
                yield value
            else:
                yield from _json_names(value)
    elif isinstance(doc, list):
        for item in doc:
            yield from _json_names(item)


def _plan() -> set[str]:
    found: set[str] = set()
    for output in ("table", "wide"):
        found |= set(_columns(ksched("plan", MANIFESTS, "-o", output).stdout, "POD"))
    found |= set(ksched("plan", MANIFESTS, "-n", "shop", "-o", "name").stdout.split())
    found |= set(_json_names(json.loads(ksched("plan", MANIFESTS, "-o", "json").stdout)))
    found |= set(_json_names(yaml.safe_load(ksched("plan", MANIFESTS, "-o", "yaml").stdout)))
    return found


DIFF = ("diff", "--base", "default", "--head", "bin-packing", MANIFESTS,
        "--scale", "shop/statefulset/db=2")


def _diff() -> set[str]:
    found: set[str] = set()
    for output in ("table", "wide"):
        text = ksched(*DIFF, "-o", output).stdout
        found |= set(_columns(text, "POD")) | set(_columns(text, "WORKLOAD"))
    found |= set(_json_names(json.loads(ksched(*DIFF, "-o", "json").stdout)))
    return found


def _simulate() -> set[str]:
    text = ksched("simulate", SCENARIO, MANIFESTS).stdout
    found = set(re.findall(r"^    t=\d+s (\S+) ", text, re.MULTILINE)) | set(_columns(text, "POD"))
    doc = json.loads(ksched("simulate", SCENARIO, MANIFESTS, "-o", "json").stdout)
    return found | set(_json_names(doc))


def _capacity() -> set[str]:
    found: set[str] = set()
    for name in ("shop/deployment/web", "shop/statefulset/db", "shop/cache"):
        found.add(ksched("capacity", name, MANIFESTS).stdout.split(":")[0])
        found |= set(_json_names(json.loads(
            ksched("capacity", name, MANIFESTS, "-o", "json").stdout)))
    return found


def _html() -> set[str]:
    """The names in the data the HTML report shows (its page renders them as they are)."""
    page = ksched("plan", MANIFESTS, "-o", "html").stdout
    data = re.search(r'>(\{"kind":"plan".*?\})</script>', page, re.DOTALL)
    assert data is not None
    return set(_json_names(json.loads(data.group(1))))


COLLECTORS: dict[str, Callable[[], set[str]]] = {
    "plan": _plan, "diff": _diff, "simulate": _simulate, "capacity": _capacity, "html": _html,
}


@pytest.mark.parametrize("command", sorted(COLLECTORS))
def test_every_printed_name_is_in_the_table(command: str) -> None:
    printed = COLLECTORS[command]()
    assert printed, command
    assert printed <= set(PRINTED), sorted(printed - set(PRINTED))


def test_the_table_holds_only_printed_names() -> None:
    printed = set().union(*(collect() for collect in COLLECTORS.values()))
    assert printed == set(PRINTED)


# --- feeding them back ----------------------------------------------------------------------

def _stories(text: str) -> set[str]:
    return set(re.findall(r"^Pod (\S+): ", text, re.MULTILINE))


@pytest.mark.parametrize("name", sorted(NAMES))
def test_plan_explain_pod(name: str) -> None:
    result = ksched("plan", MANIFESTS, "--explain-pod", name, *_namespace(name))
    assert (result.exit_code, result.stderr) == (2, "")
    assert _stories(result.stdout) == set(NAMES[name][0])


@pytest.mark.parametrize("name", sorted(NAMES))
def test_simulate_explain_pod(name: str) -> None:
    result = ksched("simulate", SCENARIO, MANIFESTS, "--explain-pod", name, *_namespace(name))
    assert (result.exit_code, result.stderr) == (2, "")
    assert _stories(result.stdout) == set(NAMES[name][0])


@pytest.mark.parametrize("name", sorted(NAMES))
def test_capacity_of_a_pod_or_workload_of_the_input(name: str) -> None:
    result = ksched("capacity", name, MANIFESTS, *_namespace(name))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.split(": ")[0] == NAMES[name][1]


IN_THE_CHART = sorted(n for n, (pods, _, workload) in NAMES.items()
                      if workload or pods == CACHE)


@pytest.mark.parametrize("name", IN_THE_CHART)
def test_capacity_workload_picks_the_object_of_the_chart(name: str) -> None:
    result = ksched("capacity", CHART, f"{MANIFESTS}/cluster.yaml", "--workload", name,
                    *_namespace(name))
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.split(": ")[0] == NAMES[name][1]


WORKLOADS = sorted(n for n, (_, _, workload) in NAMES.items() if workload)


@pytest.mark.parametrize("name", WORKLOADS)
def test_scale(name: str) -> None:
    pods, _, workload = NAMES[name]
    result = ksched("plan", MANIFESTS, "--scale", f"{name}=1", *_namespace(name))
    assert result.stderr == ""
    assert f"  --scale {name}=1: {len(pods) - 1} Deleted\n" in result.stdout
    changes = list(_columns(result.stdout.split("Nodes (")[0], "WORKLOAD"))
    assert changes == [workload] * (len(pods) - 1)


@pytest.mark.parametrize("name", [n for n in sorted(NAMES) if not NAMES[n][2]])
def test_scale_refuses_a_pod_naming_its_workload(name: str) -> None:
    (key,), _, _ = NAMES[name]
    result = ksched("plan", MANIFESTS, "--scale", f"{name}=1", *_namespace(name))
    owner = next((w for pods, _, w in NAMES.values() if key in pods and w), "")
    expected = (
        f'error: --scale: malformed value "{name}=1": expected KIND/NAME=N or NS/KIND/NAME=N '
        "with KIND one of deployment, replicaset, statefulset\n"
        if name.startswith("pod") else
        f"error: --scale: no deployment, replicaset or statefulset {key.split('/')[1]} in "
        "namespace shop of the input"
        + (f" ({key} is a pod of {owner})" if owner else "") + "\n"
    )
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", expected)


def test_a_pod_an_operation_created_is_named_as_printed() -> None:
    scale = ("--scale", "shop/deployment/web=3")
    text = ksched("plan", MANIFESTS, *scale).stdout
    created = set(_columns(text.split("Nodes (")[0], "POD"))
    assert len(created) == 1
    (pod,) = created
    assert pod.startswith("shop/web-b4f787dcb-") and pod not in WEB
    alone = ksched("plan", MANIFESTS, *scale, "--explain-pod", pod)
    assert (alone.exit_code, alone.stderr, _stories(alone.stdout)) == (2, "", {pod})
    workload = ksched("plan", MANIFESTS, *scale, "--explain-pod", "deployment/web", "-n", "shop")
    assert (workload.exit_code, _stories(workload.stdout)) == (2, {*WEB, pod})


def test_a_pod_an_operation_deleted_is_still_named() -> None:
    result = ksched("plan", MANIFESTS, "--scale", "shop/statefulset/db=1", "--explain-pod",
                    "shop/db-2")
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout.endswith("Pod shop/db-2: not part of this plan\n")


# --- names that are not found, or stand for several objects ------------------------------

def test_a_workload_outside_the_namespace_is_pointed_at() -> None:
    for args, line in [
        (["plan", MANIFESTS, "--explain-pod", "deployment/web"],
         "error: --explain-pod: no deployment/web with pods in namespace default of the input "
         "(did you mean shop/deployment/web?)\n"),
        (["capacity", "deployment/web", MANIFESTS],
         "error: WORKLOAD_OR_POD_FILE: not a file, and no deployment/web with pods in "
         "namespace default of the input (did you mean shop/deployment/web?)\n"),
    ]:
        result = ksched(*args)
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", line)


@pytest.fixture()
def twins(tmp_path: Path) -> Path:
    """The chart with its StatefulSet renamed web: two workloads share a name."""
    chart = (REPO / CHART).read_text(encoding="utf-8")
    chart = chart.replace("name: db\n  namespace: shop", "name: web\n  namespace: shop")
    (tmp_path / "shop.yaml").write_text(chart.replace("{app: db}", "{app: twin}"),
                                        encoding="utf-8")
    (tmp_path / "cluster.yaml").write_text(
        (REPO / MANIFESTS / "cluster.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def test_a_name_of_two_workloads_asks_for_the_kind(twins: Path) -> None:
    for args, line in [
        (["plan", str(twins), "--explain-pod", "shop/web"],
         "error: --explain-pod: no pod shop/web in the input, and several workloads have "
         "that name: shop/deployment/web or shop/statefulset/web\n"),
        (["plan", str(twins), "--scale", "shop/web=1"],
         "error: --scale: deployment/web and statefulset/web in namespace shop of the input: "
         "name the kind (KIND/NAME=N)\n"),
        (["capacity", str(twins / "shop.yaml"), str(twins / "cluster.yaml"), "--workload",
          "web"],
         f"{twins / 'shop.yaml'}: error: web names 2 objects (deployment/web -n shop, "
         "statefulset/web -n shop): choose one with --workload KIND/NAME\n"),
    ]:
        result = ksched(*args)
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", line)
    named = ksched("plan", str(twins), "--explain-pod", "shop/sts/web")
    assert _stories(named.stdout) == {"shop/web-0", "shop/web-1", "shop/web-2"}


def test_simulate_namespace_places_a_chart_without_one(tmp_path: Path) -> None:
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text("apiVersion: ksched.io/v1alpha1\nkind: Scenario\nsteps:\n"
                        "- at: 10s\n  cordon: worker-a1\n", encoding="utf-8")
    args = ("simulate", str(scenario), "tests/cli/newcomer", "--kubernetes-version", "1.30",
            "--explain-pod", "deployment/frontend")
    placed = ksched(*args, "-n", "shop")
    assert (placed.exit_code, placed.stderr) == (2, "")
    assert _stories(placed.stdout) == {"shop/frontend-7d49b8b9dd-bdbbs",
                                       "shop/frontend-7d49b8b9dd-lwntx"}
    # Without -n the chart lands in default.
    unplaced = ksched(*args[:-1], "shop/deployment/frontend")
    assert (unplaced.exit_code, unplaced.stdout) == (1, "")
    assert unplaced.stderr == (
        "error: --explain-pod: no deployment/frontend with pods in namespace shop of the "
        "input (did you mean default/deployment/frontend?)\n")
