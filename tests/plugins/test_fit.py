"""NodeResourcesFit, ported from kube-scheduler v1.30's fit_test.go tables."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ksched_cli.api.pod import Pod
from ksched_cli.config.args import (
    LEAST_ALLOCATED,
    MOST_ALLOCATED,
    REQUESTED_TO_CAPACITY_RATIO,
    NodeResourcesFitArgs,
    ResourceSpec,
    ScoringStrategy,
    UtilizationShapePoint,
)
from ksched_cli.framework.cycle_state import CycleState
from ksched_cli.framework.status import Code, Status
from ksched_cli.plugins.noderesources import fit as fit_mod
from ksched_cli.plugins.noderesources.fit import (
    PRE_FILTER_STATE_KEY,
    Fit,
    InsufficientResource,
    compute_pod_resource_request,
    fits,
    fits_request,
    is_extended_resource_name,
)
from ksched_cli.versions.releases import features_for
from tests.fakes import FakeHandle
from tests.plugins.noderesources_helpers import node, node_info, pod, res

A = "example.com/aaa"
B = "example.com/bbb"
KA = "kubernetes.io/something"
KB = "subdomain.kubernetes.io/something"
H = "hugepages-2Mi"
DEFAULT_RESOURCES = [ResourceSpec("cpu", 1), ResourceSpec("memory", 1)]


def allocatable(
    cpu: int, mem: int, pods: int, ext_a: int, storage: int, huge: int
) -> dict[str, str]:
    """makeAllocatableResources: cpu in millicores, the rest in units."""
    return {
        "cpu": f"{cpu}m", "memory": str(mem), "pods": str(pods), A: str(ext_a),
        "ephemeral-storage": str(storage), H: str(huge),
    }


def run_filter(
    plugin: Fit, p: Pod, info_pods: Sequence[Pod], alloc: dict[str, str]
) -> Status | None:
    state = CycleState()
    assert plugin.pre_filter(state, p) == (None, None)
    return plugin.filter(state, p, node_info(node("n", alloc), *info_pods))


def unsched(*reasons: str) -> Status:
    return Status(Code.UNSCHEDULABLE, *reasons)


def ins(name: str, requested: int, used: int, capacity: int) -> InsufficientResource:
    reason = "Too many pods" if name == "pods" else f"Insufficient {name}"
    return InsufficientResource(name, reason, requested, used, capacity)


ENOUGH_REQUESTS = [
    ("no resources requested always fits", pod(), res(10, 20), {}, []),
    ("too many resources fails", pod(res(1, 1)), res(10, 20), {},
     [ins("cpu", 1, 10, 10), ins("memory", 1, 20, 20)]),
    ("too many resources fails due to init container cpu",
     pod(res(1, 1), init=[res(3, 1)]), res(8, 19), {}, [ins("cpu", 3, 8, 10)]),
    ("too many resources fails due to highest init container cpu",
     pod(res(1, 1), init=[res(3, 1), res(2, 1)]), res(8, 19), {}, [ins("cpu", 3, 8, 10)]),
    ("too many resources fails due to init container memory",
     pod(res(1, 1), init=[res(1, 3)]), res(9, 19), {}, [ins("memory", 3, 19, 20)]),
    ("too many resources fails due to highest init container memory",
     pod(res(1, 1), init=[res(1, 3), res(1, 2)]), res(9, 19), {}, [ins("memory", 3, 19, 20)]),
    ("init container fits because it's the max, not sum, of containers and init containers",
     pod(res(1, 1), init=[res(1, 1)]), res(9, 19), {}, []),
    ("multiple init containers fit because it's the max, not sum, of containers and init "
     "containers",
     pod(res(1, 1), init=[res(1, 1), res(1, 1)]), res(9, 19), {}, []),
    ("both resources fit", pod(res(1, 1)), res(5, 5), {}, []),
    ("one resource memory fits", pod(res(2, 1)), res(9, 5), {}, [ins("cpu", 2, 9, 10)]),
    ("one resource cpu fits", pod(res(1, 2)), res(5, 19), {}, [ins("memory", 2, 19, 20)]),
    ("equal edge case", pod(res(5, 1)), res(5, 19), {}, []),
    ("equal edge case for init container", pod(res(4, 1), init=[res(5, 1)]), res(5, 19), {}, []),
    ("extended resource fits", pod(res(scalars={A: 1})), res(), {}, []),
    ("extended resource fits for init container",
     pod(res(), init=[res(scalars={A: 1})]), res(), {}, []),
    ("extended resource capacity enforced",
     pod(res(1, 1, scalars={A: 10})), res(scalars={A: 0}), {}, [ins(A, 10, 0, 5)]),
    ("extended resource capacity enforced for init container",
     pod(res(), init=[res(1, 1, scalars={A: 10})]), res(scalars={A: 0}), {}, [ins(A, 10, 0, 5)]),
    ("extended resource allocatable enforced",
     pod(res(1, 1, scalars={A: 1})), res(scalars={A: 5}), {}, [ins(A, 1, 5, 5)]),
    ("extended resource allocatable enforced for init container",
     pod(res(), init=[res(1, 1, scalars={A: 1})]), res(scalars={A: 5}), {}, [ins(A, 1, 5, 5)]),
    ("extended resource allocatable enforced for multiple containers",
     pod(res(1, 1, scalars={A: 3}), res(1, 1, scalars={A: 3})), res(scalars={A: 2}), {},
     [ins(A, 6, 2, 5)]),
    ("extended resource allocatable admits multiple init containers",
     pod(res(), init=[res(1, 1, scalars={A: 3}), res(1, 1, scalars={A: 3})]),
     res(scalars={A: 2}), {}, []),
    ("extended resource allocatable enforced for multiple init containers",
     pod(res(), init=[res(1, 1, scalars={A: 6}), res(1, 1, scalars={A: 3})]),
     res(scalars={A: 2}), {}, [ins(A, 6, 2, 5)]),
    ("extended resource allocatable enforced for unknown resource",
     pod(res(1, 1, scalars={B: 1})), res(), {}, [ins(B, 1, 0, 0)]),
    ("extended resource allocatable enforced for unknown resource for init container",
     pod(res(), init=[res(1, 1, scalars={B: 1})]), res(), {}, [ins(B, 1, 0, 0)]),
    ("kubernetes.io resource capacity enforced",
     pod(res(1, 1, scalars={KA: 10})), res(), {}, [ins(KA, 10, 0, 0)]),
    ("kubernetes.io resource capacity enforced for init container",
     pod(res(), init=[res(1, 1, scalars={KB: 10})]), res(), {}, [ins(KB, 10, 0, 0)]),
    ("hugepages resource capacity enforced",
     pod(res(1, 1, scalars={H: 10})), res(scalars={H: 0}), {}, [ins(H, 10, 0, 5)]),
    ("hugepages resource capacity enforced for init container",
     pod(res(), init=[res(1, 1, scalars={H: 10})]), res(scalars={H: 0}), {}, [ins(H, 10, 0, 5)]),
    ("hugepages resource allocatable enforced for multiple containers",
     pod(res(1, 1, scalars={H: 3}), res(1, 1, scalars={H: 3})), res(scalars={H: 2}), {},
     [ins(H, 6, 2, 5)]),
    ("skip checking ignored extended resource",
     pod(res(1, 1, scalars={B: 1})), res(), {"ignored_resources": [B]}, []),
    ("resources + pod overhead fits",
     pod(res(1, 1), overhead={"cpu": "3m", "memory": "13"}), res(5, 5), {}, []),
    ("requests + overhead does not fit for memory",
     pod(res(1, 1), overhead={"cpu": "1m", "memory": "15"}), res(5, 5), {},
     [ins("memory", 16, 5, 20)]),
    ("skip checking ignored extended resource via resource groups",
     pod(res(1, 1, scalars={B: 1, KA: 1})), res(), {"ignored_resource_groups": ["example.com"]},
     [ins(KA, 1, 0, 0)]),
    ("skip checking extended resource request with quantity zero via resource groups",
     pod(res(1, 1, scalars={A: 0})), res(scalars={A: 6}), {}, []),
    ("skip checking resource request with quantity zero",
     pod(res(scalars={A: 1})), res(20, 30, scalars={A: 1}), {}, []),
    # Beyond the Go table: the ignore lists only cover extended resources.
    ("prefixed native resources cannot be ignored by group",
     pod(res(scalars={KA: 1})), res(), {"ignored_resource_groups": ["kubernetes.io"]},
     [ins(KA, 1, 0, 0)]),
    ("hugepages cannot be ignored by name",
     pod(res(scalars={H: 6})), res(), {"ignored_resources": [H]}, [ins(H, 6, 0, 5)]),
    ("a request beyond the whole allocatable is still only Unschedulable",
     pod(res(11, 1)), res(), {}, [ins("cpu", 11, 0, 10)]),
]


@pytest.mark.parametrize(
    ("pod_", "existing", "args", "want"),
    [case[1:] for case in ENOUGH_REQUESTS],
    ids=[case[0] for case in ENOUGH_REQUESTS],
)
def test_enough_requests(
    pod_: Pod, existing: dict[str, str], args: dict[str, list[str]],
    want: list[InsufficientResource],
) -> None:
    plugin = Fit(NodeResourcesFitArgs(**args), None)  # type: ignore[arg-type]
    alloc = allocatable(10, 20, 32, 5, 20, 5)
    status = run_filter(plugin, pod_, [pod(existing)], alloc)
    assert status == (unsched(*(r.reason for r in want)) if want else None)
    request = compute_pod_resource_request(
        pod_, plugin.ignored_resources, plugin.ignored_resource_groups
    )
    assert fits_request(request, node_info(node("n", alloc), pod(existing))) == want


NOT_ENOUGH_PODS = [
    ("even without specified resources, predicate fails when there's no space for additional pod",
     pod(), res(10, 20), ["Too many pods"]),
    ("even if both resources fit, predicate fails when there's no space for additional pod",
     pod(res(1, 1)), res(5, 5), ["Too many pods"]),
    ("even for equal edge case, predicate fails when there's no space for additional pod",
     pod(res(5, 1)), res(5, 19), ["Too many pods"]),
    ("even for equal edge case, predicate fails when there's no space for additional pod due "
     "to init container", pod(res(5, 1), init=[res(5, 1)]), res(5, 19), ["Too many pods"]),
    ("too many pods comes before the resources", pod(res(6, 2)), res(5, 19),
     ["Too many pods", "Insufficient cpu", "Insufficient memory"]),
]


@pytest.mark.parametrize(
    ("pod_", "existing", "want"),
    [case[1:] for case in NOT_ENOUGH_PODS],
    ids=[case[0] for case in NOT_ENOUGH_PODS],
)
def test_not_enough_requests(pod_: Pod, existing: dict[str, str], want: list[str]) -> None:
    status = run_filter(Fit(None, None), pod_, [pod(existing)], allocatable(10, 20, 1, 0, 0, 0))
    assert status == unsched(*want)


STORAGE = [
    ("empty storage requested, and pod fits", pod(res(1, 1)), res(2, 10), None),
    ("storage ephemeral local storage request exceeds allocatable",
     pod(res(ephemeral=25)), res(2, 2), unsched("Insufficient ephemeral-storage")),
    ("ephemeral local storage is sufficient", pod(res(ephemeral=5)), res(2, 2, ephemeral=10), None),
    ("pod fits", pod(res(ephemeral=10)), res(2, 2), None),
]


@pytest.mark.parametrize(
    ("pod_", "existing", "want"), [c[1:] for c in STORAGE], ids=[c[0] for c in STORAGE]
)
def test_storage_requests(pod_: Pod, existing: dict[str, str], want: Status | None) -> None:
    status = run_filter(Fit(None, None), pod_, [pod(existing)], allocatable(10, 20, 32, 5, 20, 5))
    assert status == want


def test_every_reason_in_order() -> None:
    p = pod(res(11, 21, 21, scalars={A: 6, H: 6}))
    status = run_filter(Fit(None, None), p, [pod(res())], allocatable(10, 20, 1, 5, 20, 5))
    assert status == unsched(
        "Too many pods", "Insufficient cpu", "Insufficient memory",
        "Insufficient ephemeral-storage", f"Insufficient {A}", f"Insufficient {H}",
    )


# SidecarContainers is on in v1.30: restartable init containers pass PreFilter and
# their requests are summed with the regular containers.
RESTARTABLE = [
    ("allow pod without restartable init containers", pod(None), None),
    ("allow pod with restartable init containers", pod(None, sidecars=[None]), None),
    ("allow pod if the total requested resources do not exceed the node's allocatable resources",
     pod({"cpu": "1m"}, sidecars=[{"cpu": "1m"}]), None),
    ("not allow pod if the total requested resources do exceed the node's allocatable resources",
     pod({"cpu": "1m"}, sidecars=[{"cpu": "2m"}]), unsched("Insufficient cpu")),
]


@pytest.mark.parametrize(
    ("pod_", "want"), [c[1:] for c in RESTARTABLE], ids=[c[0] for c in RESTARTABLE]
)
def test_restartable_init_containers(pod_: Pod, want: Status | None) -> None:
    assert run_filter(Fit(None, None), pod_, [], allocatable(2, 0, 1, 0, 0, 0)) == want


def test_sidecars_disabled_rejects_in_prefilter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fit_mod, "ENABLE_SIDECAR_CONTAINERS", False)
    result = Fit(None, None).pre_filter(CycleState(), pod(None, sidecars=[None]))
    assert result == (None, Status(
        Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
        "Pod has a restartable init container and the SidecarContainers feature is disabled",
    ))


def test_filter_without_prefilter_is_an_error() -> None:
    status = Fit(None, None).filter(CycleState(), pod(), node_info(node("n", {})))
    assert status is not None
    assert status.code == Code.ERROR
    assert status.message() == (
        'error reading "PreFilterNodeResourcesFit" from cycleState: not found'
    )


def test_prefilter_state_survives_clone() -> None:
    state = CycleState()
    p = pod(res(5, 5))
    Fit(None, None).pre_filter(state, p)
    copy = state.clone()
    assert copy.read(PRE_FILTER_STATE_KEY) is state.read(PRE_FILTER_STATE_KEY)
    plugin = Fit(None, None)
    assert plugin.pre_filter_extensions() is None
    assert plugin.score_extensions() is None


def test_fits_ignores_nothing() -> None:
    p = pod(res(scalars={B: 1}))
    assert fits(p, node_info(node("n", allocatable(10, 20, 32, 5, 20, 5)))) == [ins(B, 1, 0, 0)]


@pytest.mark.parametrize(
    ("name", "extended"),
    [(A, True), ("example.com/a_b.c-d", True), (KA, False), (KB, False), (H, False),
     ("cpu", False), ("requests.example.com/x", False), ("example.com/-bad", False)],
)
def test_is_extended_resource_name(name: str, extended: bool) -> None:
    assert is_extended_resource_name(name) is extended


def rtcr(*points: tuple[int, int]) -> ScoringStrategy:
    shape = [UtilizationShapePoint(u, s) for u, s in points]
    return ScoringStrategy(REQUESTED_TO_CAPACITY_RATIO, DEFAULT_RESOURCES, shape)


# Each strategy is scored once without PreScore and once after it.
FIT_SCORE = [
    ("RequestedToCapacityRatio case1", rtcr((0, 10), (100, 0)), [10, 32]),
    ("RequestedToCapacityRatio case2", rtcr((0, 0), (100, 10)), [95, 68]),
    ("MostAllocated", ScoringStrategy(MOST_ALLOCATED, DEFAULT_RESOURCES), [67, 36]),
    ("LeastAllocated", ScoringStrategy(LEAST_ALLOCATED, DEFAULT_RESOURCES), [32, 63]),
]


@pytest.mark.parametrize(
    ("strategy", "want"), [c[1:] for c in FIT_SCORE], ids=[c[0] for c in FIT_SCORE]
)
def test_fit_score(strategy: ScoringStrategy, want: list[int]) -> None:
    if strategy.type == REQUESTED_TO_CAPACITY_RATIO:
        requested = pod({"cpu": "3000", "memory": "5000"})
    else:
        requested = pod({"cpu": "1000", "memory": "2000"})
    nodes = [
        node("node1", {"cpu": "4000", "memory": "10000"}),
        node("node2", {"cpu": "6000", "memory": "10000"}),
    ]
    existing = [
        pod({"cpu": "2000", "memory": "4000"}, node_name="node1"),
        pod({"cpu": "1000", "memory": "2000"}, node_name="node2"),
    ]
    handle = FakeHandle(nodes, existing)
    for run_pre_score in (False, True):
        plugin = Fit(NodeResourcesFitArgs(scoring_strategy=strategy), handle)
        state = CycleState()
        if run_pre_score:
            assert plugin.pre_score(state, requested, handle.snapshot.list()) is None
        got = [plugin.score(state, requested, handle.node(n.name)) for n in nodes]
        assert got == [(w, None) for w in want]


@pytest.mark.parametrize(
    ("strategy", "want"),
    [(MOST_ALLOCATED, [45, 45]), (LEAST_ALLOCATED, [55, 55])],
)
def test_fit_score_with_sidecar_on_node(strategy: str, want: list[int]) -> None:
    # v1.30's NodeInfo keeps a sidecar out of the non-zero sum (it only takes part in
    # the init-container max), so both nodes look alike; later releases differ.
    nodes = [node(f"node{i}", {"cpu": "4000", "memory": "10000"}) for i in (1, 2)]
    existing = [
        pod({"cpu": "1000", "memory": "2000"}, sidecars=[{"cpu": "1000", "memory": "2000"}],
            node_name="node1"),
        pod({"cpu": "1000", "memory": "2000"}, node_name="node2"),
    ]
    handle = FakeHandle(nodes, existing)
    plugin = Fit(NodeResourcesFitArgs(scoring_strategy=ScoringStrategy(strategy)), handle)
    state = CycleState()
    requested = pod({"cpu": "1000", "memory": "2000"})
    plugin.pre_score(state, requested, handle.snapshot.list())
    assert [plugin.score(state, requested, handle.node(n.name))[0] for n in nodes] == want


def test_unknown_strategy_is_rejected() -> None:
    with pytest.raises(ValueError, match="scoring strategy Nope is not supported"):
        Fit(NodeResourcesFitArgs(scoring_strategy=ScoringStrategy("Nope")), None)


# v1.34+: fitsRequest marks a request over the node's whole allocatable Unresolvable and
# Filter returns UnschedulableAndUnresolvable. The rows of v1.36.2's TestEnoughRequests
# with `Unresolvable: true` (the table above shares their inputs).
UNRESOLVABLE_FROM_1_34 = {
    "extended resource capacity enforced",
    "extended resource capacity enforced for init container",
    "extended resource allocatable enforced for multiple containers",
    "extended resource allocatable enforced for multiple init containers",
    "extended resource allocatable enforced for unknown resource",
    "extended resource allocatable enforced for unknown resource for init container",
    "kubernetes.io resource capacity enforced",
    "kubernetes.io resource capacity enforced for init container",
    "hugepages resource capacity enforced",
    "hugepages resource capacity enforced for init container",
    "hugepages resource allocatable enforced for multiple containers",
    "skip checking ignored extended resource via resource groups",
    # ksched's own rows: the same rule.
    "prefixed native resources cannot be ignored by group",
    "hugepages cannot be ignored by name",
    "a request beyond the whole allocatable is still only Unschedulable",
}


@pytest.mark.parametrize(
    ("name", "pod_", "existing", "args", "want"),
    ENOUGH_REQUESTS,
    ids=[c[0] for c in ENOUGH_REQUESTS],
)
def test_enough_requests_unresolvable_from_1_34(
    name: str, pod_: Pod, existing: dict[str, str], args: dict[str, list[str]],
    want: list[InsufficientResource],
) -> None:
    alloc = allocatable(10, 20, 32, 5, 20, 5)
    new = Fit(NodeResourcesFitArgs(**args), FakeHandle([], features=features_for("1.34")))  # type: ignore[arg-type]
    unresolvable = name in UNRESOLVABLE_FROM_1_34
    code = Code.UNSCHEDULABLE_AND_UNRESOLVABLE if unresolvable else Code.UNSCHEDULABLE
    assert run_filter(new, pod_, [pod(existing)], alloc) == (
        Status(code, *(r.reason for r in want)) if want else None
    )
    request = compute_pod_resource_request(
        pod_, new.ignored_resources, new.ignored_resource_groups, unresolvable_check=True
    )
    found = fits_request(request, node_info(node("n", alloc), pod(existing)))
    assert any(r.unresolvable for r in found) == unresolvable
    # v1.33 keeps every shortfall Unschedulable.
    old = Fit(NodeResourcesFitArgs(**args), FakeHandle([], features=features_for("1.33")))  # type: ignore[arg-type]
    assert run_filter(old, pod_, [pod(existing)], alloc) == (
        unsched(*(r.reason for r in want)) if want else None
    )
