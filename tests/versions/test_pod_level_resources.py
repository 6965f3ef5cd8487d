"""Pod-level resources (``spec.resources``), on from 1.34: requests, defaults, checks, plans.

``test_fit_enough_requests`` ports the pod-level rows of NodeResourcesFit's
``TestEnoughRequests`` (the stored kubernetes/kubernetes fit_test.go, 1.34+).

``test_pod_requests`` ports component-helpers v0.36.3 ``TestPodLevelResourceRequests``
(rows with pod-level amounts the API server would refuse are kept: PodRequests itself
does not check them). The defaulting and checking rows follow v1.35.7's
``apis/core/v1/defaults.go`` (defaultPodRequests, defaultHugePagePodLimits) and
``apis/core/validation`` (validatePodResources) branch by branch.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from unittest.mock import patch

import pytest
from click.testing import CliRunner

from ksched_cli.api import pod_level as pod_level_checks
from ksched_cli.api.go_quantity import Quantity, format_of
from ksched_cli.api.pod import Pod, parse_pod
from ksched_cli.api.pod_level import drop_disabled
from ksched_cli.api.quantity import parse_quantity
from ksched_cli.api.resources import pod_requests
from ksched_cli.cli.main import cli
from ksched_cli.config.args import NodeResourcesFitArgs
from ksched_cli.errors import ObjectError
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins.noderesources.fit import (
    Fit,
    InsufficientResource,
    compute_pod_resource_request,
    fits_request,
)
from tests.plugins.noderesources_helpers import node, node_info, res
from tests.plugins.noderesources_helpers import pod as fit_pod

Mi = 2**20


def q(text: str) -> Fraction:
    return parse_quantity(text)


def rl(**amounts: str) -> dict[str, Fraction]:
    return {k.replace("_", "-"): q(v) for k, v in amounts.items()}


HP2 = "hugepages-2Mi"
HP1G = "hugepages-1Gi"

# (name, pod-level requests, containers, (init, restartable), skip pod level, expected)
ROWS = [
    ("nil", {}, [], [], False, {}),
    ("pod memory, skipped", rl(memory="2Mi"), [], [], True, {}),
    ("pod memory", rl(memory="2Mi"), [], [], False, rl(memory="2Mi")),
    ("pod memory and container cpu", rl(memory="2Mi"), [rl(cpu="2m")], [], False,
     rl(memory="2Mi", cpu="2m")),
    ("unsupported at both levels", {"storage": q("2Mi")}, [{"storage": q("3Mi")}], [], False,
     {"storage": q("3Mi")}),
    ("unsupported at pod level", {"storage": q("2Mi")}, [rl(memory="3Mi")], [], False,
     rl(memory="3Mi")),
    ("only containers", {}, [rl(memory="3Mi", cpu="2m")], [], False, rl(memory="3Mi", cpu="2m")),
    ("both levels", rl(memory="6Mi", cpu="8m"), [rl(memory="3Mi", cpu="2m")], [], False,
     rl(memory="6Mi", cpu="8m")),
    ("init container", {}, [rl(memory="3Mi", cpu="2m")], [(rl(memory="5Mi", cpu="4m"), False)],
     False, rl(memory="5Mi", cpu="4m")),
    ("init container, skipped", {}, [rl(memory="3Mi", cpu="2m")],
     [(rl(memory="5Mi", cpu="4m"), False)], True, rl(memory="5Mi", cpu="4m")),
    ("sidecar", {}, [rl(memory="3Mi", cpu="2m")], [(rl(memory="5Mi", cpu="4m"), True)], False,
     rl(memory="8Mi", cpu="6m")),
    ("init and sidecar", {}, [rl(memory="3Mi", cpu="2m")],
     [(rl(memory="5Mi", cpu="4m"), True), (rl(memory="6Mi", cpu="8m"), False)], False,
     rl(memory="11Mi", cpu="12m")),
    ("pod level over init and sidecar", rl(memory="15Mi", cpu="18m"),
     [rl(memory="3Mi", cpu="2m")],
     [(rl(memory="5Mi", cpu="4m"), True), (rl(memory="6Mi", cpu="8m"), False)], False,
     rl(memory="15Mi", cpu="18m")),
    ("hugepages, one size", {"memory": q("10Mi"), HP2: q("2Mi")}, [], [], False,
     {"memory": q("10Mi"), HP2: q("2Mi")}),
    ("hugepages, two sizes", {"cpu": q("1"), HP2: q("2Mi"), HP1G: q("1Gi")}, [], [], False,
     {"cpu": q("1"), HP2: q("2Mi"), HP1G: q("1Gi")}),
    ("hugepages over containers", {"cpu": q("1"), HP2: q("10Mi")}, [{HP2: q("6Mi")}], [], False,
     {"cpu": q("1"), HP2: q("10Mi")}),
    ("hugepages, sizes at both levels", {"cpu": q("1"), HP2: q("10Mi")},
     [{"memory": q("4Mi"), HP1G: q("1Gi")}], [], False,
     {"cpu": q("1"), "memory": q("4Mi"), HP2: q("10Mi"), HP1G: q("1Gi")}),
]


@pytest.mark.parametrize(("pod_level", "containers", "inits", "skip", "want"),
                         [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_pod_requests(
    pod_level: dict[str, Fraction],
    containers: list[dict[str, Fraction]],
    inits: list[tuple[dict[str, Fraction], bool]],
    skip: bool,
    want: dict[str, Fraction],
) -> None:
    supported = {k: v for k, v in pod_level.items() if k in ("cpu", "memory") or
                 k.startswith("hugepages-")}
    level = None if skip else supported
    assert pod_requests(containers, inits, None, pod_level=level) == want


def pod(resources: dict[str, object] | None, *containers: dict[str, object],
        inits: tuple[dict[str, object], ...] = ()) -> dict[str, object]:
    spec: dict[str, object] = {
        "containers": [{"name": f"c{i}", "image": "x", "resources": c}
                       for i, c in enumerate(containers or ({},))],
        "initContainers": list(inits),
    }
    if resources is not None:
        spec["resources"] = resources
    return {"metadata": {"name": "p", "namespace": "default"}, "spec": spec}


@pytest.mark.parametrize(
    ("resources", "containers", "requests", "non_zero", "node_non_zero"),
    [
        # No pod-level amounts: the containers' sums, defaults for what none requests.
        (None, [{"requests": {"cpu": "1"}}], {"cpu": 1000}, {"cpu": 1000, "memory": 200 * Mi},
         (1000, 200 * Mi)),
        # Pod-level cpu replaces the containers' cpu; memory stays the containers' (none).
        ({"requests": {"cpu": "2"}}, [{"requests": {"cpu": "1"}}], {"cpu": 2000},
         {"cpu": 2000, "memory": 200 * Mi}, (2000, 200 * Mi)),
        # Pod-level memory; a container without cpu: scoring defaults each container,
        # NodeInfo only what neither level requests (cpu here: some container has it).
        ({"requests": {"memory": "1Gi"}}, [{"requests": {"cpu": "1"}}, {}],
         {"cpu": 1000, "memory": 1024 * Mi}, {"cpu": 1100, "memory": 1024 * Mi},
         (1000, 1024 * Mi)),
        # Limits only: requests default to the containers' sum (cpu) or the limit (memory).
        ({"limits": {"cpu": "4", "memory": "1Gi"}}, [{"requests": {"cpu": "500m"}}],
         {"cpu": 500, "memory": 1024 * Mi}, {"cpu": 500, "memory": 1024 * Mi},
         (500, 1024 * Mi)),
        # Limits without any container request: requests equal the limits.
        ({"limits": {"cpu": "3"}}, [{}], {"cpu": 3000}, {"cpu": 3000, "memory": 200 * Mi},
         (3000, 200 * Mi)),
        # Requests only (no limits): no defaulting from the containers.
        ({"requests": {"memory": "64Mi"}}, [{"requests": {"cpu": "1"}}],
         {"cpu": 1000, "memory": 64 * Mi}, {"cpu": 1000, "memory": 64 * Mi}, (1000, 64 * Mi)),
        # Hugepage limit defaulted from a container's limit, then the request from it.
        ({"requests": {"cpu": "1"}},
         [{"limits": {HP2: "4Mi"}, "requests": {"memory": "8Mi"}}],
         {"cpu": 1000, "memory": 8 * Mi, HP2: 4 * Mi},
         {"cpu": 1000, "memory": 8 * Mi, HP2: 4 * Mi}, (1000, 8 * Mi)),
    ],
)
def test_parsed_requests(
    resources: dict[str, object] | None,
    containers: list[dict[str, object]],
    requests: dict[str, int],
    non_zero: dict[str, int],
    node_non_zero: tuple[int, int],
) -> None:
    p = parse_pod(pod(resources, *containers))
    assert p.requests == requests
    assert p.non_zero_requests == non_zero
    assert p.node_non_zero == node_non_zero


@pytest.mark.parametrize(
    ("resources", "containers", "field", "message"),
    [
        ({"requests": {"nvidia.com/gpu": "1"}}, [{}], "spec.resources.requests.nvidia.com/gpu",
         'Unsupported value: "nvidia.com/gpu": supported values: "cpu", "hugepages-", "memory"'),
        ({"limits": {"ephemeral-storage": "1Gi"}}, [{}],
         "spec.resources.limits.ephemeral-storage",
         'Unsupported value: "ephemeral-storage": supported values: "cpu", "hugepages-", '
         '"memory"'),
        ({"requests": {"cpu": "500m"}},
         [{"requests": {"cpu": "300m"}}, {"requests": {"cpu": "0.3"}}],
         "spec.resources.requests.cpu",
         'Invalid value: "500m": must be greater than or equal to aggregate container requests '
         "of 600m"),
        ({"requests": {"memory": "1Gi"}}, [{"requests": {"memory": "1536Mi"}}],
         "spec.resources.requests.memory",
         'Invalid value: "1Gi": must be greater than or equal to aggregate container requests of '
         "1536Mi"),
        # Defaulted from the containers' sum, the request exceeds the pod limit.
        ({"limits": {"cpu": "1"}}, [{"requests": {"cpu": "2"}}], "spec.resources.requests",
         'Invalid value: "2": must be less than or equal to cpu limit of 1'),
        ({"limits": {"memory": "1Gi"}},
         [{"limits": {"memory": "2Gi"}, "requests": {"memory": "1Mi"}}],
         "spec.containers[0].resources.limits.memory",
         'Invalid value: "2Gi": must be less than or equal to pod limits of 1Gi'),
        ({"limits": {HP2: "2Mi"}, "requests": {"cpu": "1"}},
         [{"limits": {HP2: "4Mi"}, "requests": {"cpu": "1"}}],
         "spec.resources.requests.hugepages-2Mi",
         'Invalid value: "2Mi": must be greater than or equal to aggregate container requests '
         "of 4Mi"),
    ],
)
def test_checks(
    resources: dict[str, object], containers: list[dict[str, object]], field: str, message: str
) -> None:
    with pytest.raises(ObjectError) as caught:
        parse_pod(pod(resources, *containers))
    assert (caught.value.field, caught.value.message) == (field, message)


U = 'Unsupported value: "nvidia.com/gpu": supported values: "cpu", "hugepages-", "memory"'
LIMIT_MUST_BE_SET = "Required value: Limit must be set for non overcommitable resources"


@pytest.mark.parametrize(
    ("resources", "containers", "spec", "problems"),
    [
        # An extended resource is neither supported nor overcommitable: two problems.
        ({"requests": {"nvidia.com/gpu": "1"}}, [{}], {},
         [("spec.resources.requests.nvidia.com/gpu", U),
          ("spec.resources.limits", LIMIT_MUST_BE_SET)]),
        # Hugepages cannot be overcommitted: a request must equal its limit...
        ({"requests": {"cpu": "1", HP2: "2Mi"}, "limits": {HP2: "4Mi"}}, [{}], {},
         [("spec.resources.requests",
           'Invalid value: "2Mi": must be equal to hugepages-2Mi limit of 4Mi')]),
        # ... and needs one.
        ({"requests": {"memory": "1Gi", HP2: "2Mi"}}, [{}], {},
         [("spec.resources.limits", LIMIT_MUST_BE_SET)]),
        # A size that is no whole number of pages, at both levels.
        ({"requests": {"cpu": "1", HP2: "3Mi"}, "limits": {HP2: "3Mi"}}, [{}], {},
         [("spec.resources.limits.hugepages-2Mi",
           'Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi'),
          ("spec.resources.requests.hugepages-2Mi",
           'Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi')]),
        # Hugepages alone (the request is defaulted from the limit).
        ({"limits": {HP2: "2Mi"}}, [{}], {},
         [("spec.resources", "Forbidden: HugePages require cpu or memory")]),
        # Every consistency problem, requests first, then each container's limits.
        ({"requests": {"cpu": "500m"}, "limits": {"cpu": "1", "memory": "1Gi"}},
         [{"requests": {"cpu": "300m"}, "limits": {"memory": "2Gi"}},
          {"requests": {"cpu": "300m"}, "limits": {"cpu": "2"}}], {},
         # The pod's memory request is defaulted from the containers' (2Gi, from a limit).
         [("spec.resources.requests",
           'Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi'),
          ("spec.resources.requests.cpu", 'Invalid value: "500m": must be greater than or '
           "equal to aggregate container requests of 600m"),
          ("spec.containers[0].resources.limits.memory",
           'Invalid value: "2Gi": must be less than or equal to pod limits of 1Gi'),
          ("spec.containers[1].resources.limits.cpu",
           'Invalid value: "2": must be less than or equal to pod limits of 1')]),
        ({"requests": {"cpu": "1"}, "claims": [{"name": "gpu"}]}, [{}], {},
         [("spec.resources.claims",
           "Forbidden: claims may not be set for Resources at pod-level")]),
        # A Windows pod gets this one problem only, whatever else is wrong.
        ({"requests": {"nvidia.com/gpu": "1"}}, [{}], {"os": {"name": "windows"}},
         [("spec.resources", "Forbidden: may not be set for a windows pod")]),
    ],
)
def test_every_problem(
    resources: dict[str, object], containers: list[dict[str, object]],
    spec: dict[str, object], problems: list[tuple[str, str]],
) -> None:
    """validatePodResources lists every problem (v1.35.7 ``apis/core/validation``)."""
    raw = pod(resources, *containers)
    raw["spec"].update(spec)  # type: ignore[attr-defined]
    with pytest.raises(ObjectError) as caught:
        parse_pod(raw)
    assert [(e.field, e.message) for e in caught.value.all()] == problems


def test_cli_lists_every_problem(tmp_path: Path) -> None:
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
        "status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n---\n"
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n"
        "  resources:\n    requests: {cpu: '1', memory: 1Gi}\n    limits: {cpu: '1'}\n"
        "  containers:\n  - {name: a, image: x, resources: {requests: {cpu: '2'}}}\n"
        "  - {name: b, image: x, resources: {limits: {cpu: '3'}}}\n"
    )
    result = CliRunner().invoke(cli, ["plan", str(manifest), "--kubernetes-version", "1.36"])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"{manifest}:11:16: error: Pod default/p (document 2): spec.resources.requests.cpu: "
        'Invalid value: "1": must be greater than or equal to aggregate container requests '
        "of 5",
        f"{manifest}:15:46: error: Pod default/p (document 2): "
        'spec.containers[1].resources.limits.cpu: Invalid value: "3": must be less than or '
        "equal to pod limits of 1",
    ]


@pytest.mark.parametrize(
    ("text", "shown"),
    [("1", "1"), ("1000m", "1"), ("1500m", "1500m"), ("0.3", "300m"), ("2000", "2k"),
     ("1Gi", "1Gi"), ("1536Mi", "1536Mi"), ("1000Ki", "1000Ki"), ("512", "512"),
     ("1e3", "1e3"), ("1.5Gi", "1536Mi"), ("0.5Ki", "512"), ("0", "0")],
)
def test_quantity_string(text: str, shown: str) -> None:
    assert str(Quantity(parse_quantity(text), format_of(text))) == shown


def test_sum_keeps_first_format() -> None:
    a = Quantity(parse_quantity("1Gi"), format_of("1Gi"))
    b = Quantity(parse_quantity("1000"), format_of("1000"))
    assert str(a.plus(b)) == str(Quantity(a.value + b.value, "BinarySI"))
    assert Quantity(Fraction(0), "DecimalSI").plus(a).format == "BinarySI"


def test_drop_disabled_leaves_input_alone() -> None:
    raw = {"kind": "Deployment", "spec": {"template": {"spec": {"resources": {}, "x": 1}}}}
    dropped = drop_disabled("Deployment", raw)
    assert dropped["spec"]["template"]["spec"] == {"x": 1}
    assert "resources" in raw["spec"]["template"]["spec"]
    assert drop_disabled("Node", raw) is raw


CLUSTER = """\
apiVersion: v1
kind: Node
metadata: {name: small}
status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      resources: {requests: {cpu: "3"}}
      containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]
"""


@pytest.mark.parametrize(
    ("version", "code", "expected"),
    [
        # The API server of 1.36 keeps the pod-level request of 3 cpu: nothing fits.
        ("1.36", 2, "0/1 nodes are available: 1 Insufficient cpu."),
        # 1.32's gate is off: the field is dropped and the 100m container request counts.
        ("1.32", 0, "Scheduled"),
        # 1.30 has no such field at all.
        ("1.30", 1, 'unknown field "spec.template.spec.resources"'),
    ],
)
def test_plan_by_release(tmp_path: Path, version: str, code: int, expected: str) -> None:
    path = tmp_path / "cluster.yaml"
    path.write_text(CLUSTER)
    result = CliRunner().invoke(cli, ["plan", str(path), "--kubernetes-version", version])
    assert result.exit_code == code, result.output
    assert expected in result.output


def _fit_pod(
    pod_level: dict[str, str], *containers: dict[str, str], init: dict[str, str] | None = None
) -> Pod:
    """newPodLevelResourcesPod(newResourcePod(...), ...), optionally newResourceInitPod."""
    spec: dict[str, object] = {
        "containers": [
            {"name": f"c{i}", "image": "img", "resources": {"requests": c}}
            for i, c in enumerate(containers or ({},))
        ],
        "resources": {"requests": pod_level},
    }
    if init is not None:
        spec["initContainers"] = [{"name": "i", "image": "img", "resources": {"requests": init}}]
    # Go's test builds these pods directly, past the API server: hugepages of 5 bytes with
    # no pod-level limit would not pass its checks, so they are left out here too.
    with patch.object(pod_level_checks, "_validate", lambda *_: []):
        return parse_pod({"metadata": {"name": "p", "namespace": "default"}, "spec": spec})


H = "hugepages-2Mi"
ENOUGH = [
    # The pod-level rows of fit_test.go TestEnoughRequests (1.34+): node allocatable
    # cpu 10m, memory 20, pods 32, example.com/aaa 5, ephemeral-storage 20, hugepages-2Mi 5.
    ("both pod-level and container-level resources fit",
     _fit_pod({"cpu": "1m", "memory": "2"}, res(1, 1)), res(5, 5), []),
    ("pod-level cpu resource not fit",
     _fit_pod({"cpu": "7m", "memory": "2"}, res(1, 1)), res(5, 5),
     [InsufficientResource("cpu", "Insufficient cpu", 7, 5, 10)]),
    ("pod-level memory resource not fit",
     _fit_pod({"cpu": "3m", "memory": "2"}, res(1, 1)), res(5, 19),
     [InsufficientResource("memory", "Insufficient memory", 2, 19, 20)]),
    ("pod-level hugepages resource fit",
     _fit_pod({"cpu": "3m", "memory": "2", H: "5"}), None, []),
    ("both pod-level and container-level hugepages resource fit",
     _fit_pod({"cpu": "3m", "memory": "2", H: "5"}, res(1, 1, scalars={H: 3})), None, []),
    ("pod-level hugepages resource not fit",
     _fit_pod({"cpu": "3m", "memory": "2", H: "10"}), None,
     [InsufficientResource(H, f"Insufficient {H}", 10, 0, 5)]),
    ("one pod-level cpu resource fits and all init and non-init containers resources fit",
     _fit_pod({"cpu": "3m", "memory": "2"}, res(1, 1), init=res(1, 1)), res(5, 19),
     [InsufficientResource("memory", "Insufficient memory", 2, 19, 20)]),
]


@pytest.mark.parametrize(("pod_", "existing", "want"), [r[1:] for r in ENOUGH],
                         ids=[r[0] for r in ENOUGH])
def test_fit_enough_requests(
    pod_: Pod, existing: dict[str, str] | None, want: list[InsufficientResource]
) -> None:
    alloc = {"cpu": "10m", "memory": "20", "pods": "32", "example.com/aaa": "5",
             "ephemeral-storage": "20", H: "5"}
    plugin = Fit(NodeResourcesFitArgs(), None)  # type: ignore[arg-type]
    state = CycleState()
    assert plugin.pre_filter(state, pod_) == (None, None)
    placed = [fit_pod(existing)] if existing is not None else []
    info = node_info(node("n", alloc), *placed)
    status = plugin.filter(state, pod_, info)
    assert status == (Status(Code.UNSCHEDULABLE, *(r.reason for r in want)) if want else None)
    assert fits_request(compute_pod_resource_request(pod_), info) == want
