"""Opportunistic batching (OpportunisticBatching, beta and on from v1.35).

Port of framework/runtime/batch.go and the plugins' ``SignPod`` (v1.35.7). A pod whose
every PreFilter, Filter, PreScore and Score plugin can sign it gets a signature. When the
next scheduling cycle schedules a pod of the same signature, the cycle before succeeded,
the cached node list is at most 500 ms old and the node chosen last is now full for this
pod, the scheduler tries the next node of the cached, scored list first (as it would a
nominated node) and takes it without scoring if it passes the filters.

Wall time becomes simulated time here: attempts take none, so consecutive cycles at one
instant are always within the 500 ms window; a cycle after the clock moved 0.5 s or more
is not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.pod import Pod
from ..framework.cycle_state import CycleState
from ..framework.nodeinfo import NodeInfo
from ..plugins.imagelocality import normalized_image_name
from ..record import record
from .tie_break import NodeScoreHeap

MAX_BATCH_AGE = 0.5
UNSIGNABLE = object()

Fragments = list[tuple[str, Any]]
Signer = Callable[[Any, Pod], "Fragments | object"]


def _volumes(_pl: Any, pod: Pod) -> Fragments:
    # VolumesSigner: every volume source but configMap and secret, sorted.
    kept = sorted(
        repr((v.claim_name, sorted(v.source.items())))
        for v in pod.volumes
        if not ({"configMap", "secret"} & set(v.source))
    )
    return [("Volumes", tuple(kept))]


def _tolerations(_pl: Any, pod: Pod) -> Fragments:
    return [("Tolerations", tuple(repr(t) for t in pod.tolerations))]


def _resources(_pl: Any, pod: Pod) -> Fragments:
    return [("Resources", tuple(sorted(pod.requests.items())))]


def _node_affinity(_pl: Any, pod: Pod) -> Fragments:
    return [
        ("NodeAffinity", repr(pod.node_affinity)),
        ("NodeSelector", tuple(sorted(pod.node_selector.items()))),
    ]


def _images(_pl: Any, pod: Pod) -> Fragments:
    names = {normalized_image_name(c.image) for c in (*pod.containers, *pod.init_containers)}
    return [("ImageNames", tuple(sorted(names)))]


def _inter_pod_affinity(pl: Any, pod: Pod) -> Fragments | object:
    if pod.pod_affinity is not None or pod.pod_anti_affinity is not None:
        return UNSIGNABLE
    if pl.args.ignore_preferred_terms_of_existing_pods:
        return []
    return [("Labels", tuple(sorted(pod.labels.items())))]


def _pod_topology_spread(pl: Any, pod: Pod) -> Fragments | object:
    # Pods with their own or with default constraints (system defaults too) are unsignable.
    if pod.topology_spread_constraints or pl.default_constraints:
        return UNSIGNABLE
    return []


def _host_ports(_pl: Any, pod: Pod) -> Fragments:
    ports = [(p.host_ip, p.protocol, p.host_port) for c in pod.containers for p in c.ports]
    return [("HostPorts", tuple(sorted(p for p in ports if p[2] > 0)))]


def _none(_pl: Any, _pod: Pod) -> Fragments:
    return []


SIGNERS: dict[str, Signer] = {
    "NodeResourcesFit": _resources,
    "NodeResourcesBalancedAllocation": _resources,
    "NodeAffinity": _node_affinity,
    "ImageLocality": _images,
    "InterPodAffinity": _inter_pod_affinity,
    "PodTopologySpread": _pod_topology_spread,
    "VolumeBinding": _volumes,
    "VolumeRestrictions": _volumes,
    "NodeVolumeLimits": _volumes,
    "VolumeZone": _volumes,
    "TaintToleration": _tolerations,
    "NodeUnschedulable": _tolerations,
    "NodePorts": _host_ports,
    "NodeName": lambda _pl, pod: [("NodeName", pod.node_name)],
    "DynamicResources": _none,  # ksched reads no resource claims
    "NodeDeclaredFeatures": lambda _pl, _pod: [("Features", ())],
}


MAY_REFUSE = (_inter_pod_affinity, _pod_topology_spread)


def signable_plugins(fwk: Any, extenders: bool) -> list[tuple[str, Any]] | None:
    """computeBatchablePlugins: the signing plugins, or None when signatures are off."""
    if extenders:
        return None
    seen: dict[str, Any] = {}
    for point in (fwk.pre_filter_plugins, fwk.filter_plugins, fwk.pre_score_plugins,
                  fwk.score_plugins):
        for pl in point:
            if pl.name not in SIGNERS:
                return None
            seen.setdefault(pl.name, pl)
    return list(seen.items())


@record
class _State:
    signature: tuple[Any, ...]
    nodes: NodeScoreHeap
    created: float


@record
class _Cycle:
    count: int = -1
    chosen: str = ""
    succeeded: bool = False


class OpportunisticBatch:
    """One profile's batch: the last cycle and the scored nodes it left."""

    def __init__(self, plugins: list[tuple[str, Any]] | None) -> None:
        self._plugins = plugins
        self._state: _State | None = None
        self._last = _Cycle()
        self.batched = 0
        # Plugins that share a signer (Fit and BalancedAllocation, the volume plugins...)
        # give the same fragments: each signer runs once per pod.
        self._signers: list[tuple[Signer, Any]] = []
        for name, pl in plugins or ():
            if all(SIGNERS[name] is not signer for signer, _ in self._signers):
                self._signers.append((SIGNERS[name], pl))
        # Signers that can refuse a pod first: under the default profile's system spread
        # constraints every pod is unsignable, and the others need not run (the signature
        # is a sorted set of fragments, so their order changes nothing else).
        self._signers.sort(key=lambda entry: entry[0] not in MAY_REFUSE)

    def sign(self, pod: Pod) -> tuple[Any, ...] | None:
        """SignPod: None when the profile or the pod cannot be signed."""
        if self._plugins is None:
            return None
        sig: dict[str, Any] = {"SchedulerName": pod.scheduler_name}
        for signer, pl in self._signers:
            fragments = signer(pl, pod)
            if fragments is UNSIGNABLE:
                return None
            assert isinstance(fragments, list)
            sig.update(fragments)
        return tuple(sorted(sig.items()))

    def node_hint(
        self,
        pod: Pod,
        cycle: int,
        now: float,
        last_node_rejects: Callable[[str], bool | None],
    ) -> tuple[str, tuple[Any, ...] | None]:
        """GetNodeHint: the next cached node, or "" when the cache cannot be used."""
        signature = self.sign(pod)
        state = self._state
        if state is None or not len(state.nodes):
            return "", signature
        compatible = (
            cycle == self._last.count + 1
            and self._last.succeeded
            and signature is not None
            and signature == state.signature
            and now <= state.created + MAX_BATCH_AGE
            # The node chosen last must now be full for this pod (else flush: NodeNotFull).
            and last_node_rejects(self._last.chosen) is True
        )
        if not compatible:
            return "", signature
        return state.nodes.pop(), signature

    def store(
        self,
        signature: tuple[Any, ...] | None,
        hinted: str,
        chosen: str,
        others: NodeScoreHeap | None,
        cycle: int,
        now: float,
    ) -> None:
        """StoreScheduleResults."""
        self._last = _Cycle(cycle, chosen, True)
        if hinted and hinted == chosen:
            self.batched += 1
            return
        if signature is not None and others is not None and len(others):
            self._state = _State(signature, others, now)
        else:
            self._state = None


def last_node_rejects(
    run_filter: Callable[[CycleState, Pod, NodeInfo], Any],
    get: Callable[[str], NodeInfo | None],
    state: CycleState,
    pod: Pod,
) -> Callable[[str], bool | None]:
    """Whether the Filter plugins reject ``pod`` on a node now (None: the node is gone)."""

    def check(name: str) -> bool | None:
        node = get(name)
        if node is None:
            return None
        status = run_filter(state, pod, node)
        return status is not None and status.is_rejected()

    return check
