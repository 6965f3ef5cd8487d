"""HTTPExtender (extender.go): the four verbs over a transport, v1.30 semantics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..api.pod import Pod
from ..config.types import Extender
from ..framework.nodeinfo import NodeInfo
from .transport import ExtenderError, HTTPTransport, Transport
from .wire import JSON, field, node_json, pod_json

FailedNodes = dict[str, str]


@dataclass
class FilterResult:
    nodes: list[NodeInfo]
    failed: FailedNodes
    failed_and_unresolvable: FailedNodes


@dataclass
class Victims:
    pods: list[Pod]
    num_pdb_violations: int


class HTTPExtender:
    def __init__(self, config: Extender, transport: Transport | None = None) -> None:
        self.config = config
        self.transport: Transport = transport or HTTPTransport()
        self.managed = set(config.managed_resources)

    @property
    def name(self) -> str:
        return self.config.url_prefix

    @property
    def ignorable(self) -> bool:
        return self.config.ignorable

    def is_binder(self) -> bool:
        return bool(self.config.bind_verb)

    def supports_preemption(self) -> bool:
        return bool(self.config.preempt_verb)

    def is_interested(self, pod: Pod) -> bool:
        """No managed resources: every pod; else pods requesting or limiting one of them."""
        if not self.managed:
            return True
        containers = (*pod.containers, *pod.init_containers)
        return any(name in self.managed for c in containers for name in c.requests)

    def _send(self, verb: str, body: Any) -> Any:
        url = self.config.url_prefix.rstrip("/") + "/" + verb
        return self.transport.post(self.config, verb, url, body)

    def _args(self, pod: Pod, nodes: Sequence[NodeInfo]) -> JSON:
        if self.config.node_cache_capable:
            return {"Pod": pod_json(pod), "Nodes": None, "NodeNames": [n.name for n in nodes]}
        items = [node_json(n.node) for n in nodes]
        return {"Pod": pod_json(pod), "Nodes": {"items": items}, "NodeNames": None}

    def filter(self, pod: Pod, nodes: Sequence[NodeInfo]) -> FilterResult:
        if not self.config.filter_verb:
            return FilterResult(list(nodes), {}, {})
        result = _object(self._send(self.config.filter_verb, self._args(pod, nodes)))
        error = field(result, "Error")
        if error:
            raise ExtenderError(str(error))
        return FilterResult(
            self._filtered(result, nodes),
            _failed(field(result, "FailedNodes")),
            _failed(field(result, "FailedAndUnresolvableNodes")),
        )

    def _filtered(self, result: Mapping[str, Any], nodes: Sequence[NodeInfo]) -> list[NodeInfo]:
        by_name = {n.name: n for n in nodes}
        names = field(result, "NodeNames")
        if self.config.node_cache_capable and names is not None:
            wanted = [str(n) for n in names]
        else:
            # kube-scheduler builds bare NodeInfos from returned Nodes; ksched keeps the
            # snapshot's NodeInfo of the same name, which holds its pods.
            listed = field(result, "Nodes") or {}
            items = field(listed, "items") or [] if isinstance(listed, Mapping) else []
            wanted = [str(field(field(i, "metadata") or {}, "name") or "") for i in items]
        for name in wanted:
            if name not in by_name:
                raise ExtenderError(
                    f'extender "{self.name}" claims a filtered node "{name}" which is not '
                    "found in the input node list"
                )
        return [by_name[name] for name in wanted]

    def prioritize(self, pod: Pod, nodes: Sequence[NodeInfo]) -> tuple[list[tuple[str, int]], int]:
        """(host, score) pairs and the weight; without a verb every node scores 0."""
        if not self.config.prioritize_verb:
            return [(n.name, 0) for n in nodes], 0
        result = self._send(self.config.prioritize_verb, self._args(pod, nodes))
        if not isinstance(result, list):
            result = []
        pairs = [(str(field(h, "Host") or ""), int(field(h, "Score") or 0)) for h in result]
        return pairs, self.config.weight

    def process_preemption(
        self, pod: Pod, victims: Mapping[str, Victims], nodes: Mapping[str, NodeInfo]
    ) -> dict[str, Victims]:
        if not self.supports_preemption():
            raise ExtenderError(
                f"preempt verb is not defined for extender {self.name} but run into "
                "ProcessPreemption"
            )
        body = {"Pod": pod_json(pod), "NodeNameToVictims": None, "NodeNameToMetaVictims": None}
        if self.config.node_cache_capable:
            body["NodeNameToMetaVictims"] = {
                node: {
                    "Pods": [{"UID": p.uid} for p in v.pods],
                    "NumPDBViolations": v.num_pdb_violations,
                }
                for node, v in victims.items()
            }
        else:
            body["NodeNameToVictims"] = {
                node: {
                    "Pods": [pod_json(p) for p in v.pods],
                    "NumPDBViolations": v.num_pdb_violations,
                }
                for node, v in victims.items()
            }
        result = _object(self._send(self.config.preempt_verb, body))
        meta = field(result, "NodeNameToMetaVictims") or {}
        return {node: self._victims(node, mv or {}, nodes) for node, mv in meta.items()}

    def _victims(
        self, node: str, meta: Mapping[str, Any], nodes: Mapping[str, NodeInfo]
    ) -> Victims:
        info = nodes.get(node)
        if info is None:
            raise ExtenderError(f'nodeinfo not found for node name "{node}"')
        by_uid = {pi.pod.uid: pi.pod for pi in info.pods}
        pods = []
        for meta_pod in field(meta, "Pods") or []:
            uid = str(field(meta_pod or {}, "UID") or "")
            if uid not in by_uid:
                raise ExtenderError(
                    f"extender: {self.name} claims to preempt pod (UID: &{{{uid}}}) on node: "
                    f"{node}, but the pod is not found on that node"
                )
            pods.append(by_uid[uid])
        return Victims(pods, int(field(meta, "NumPDBViolations") or 0))

    def bind(self, pod: Pod, node: str) -> None:
        if not self.is_binder():
            raise ExtenderError("unexpected empty bindVerb in extender")
        body = {"PodName": pod.name, "PodNamespace": pod.namespace, "PodUID": pod.uid, "Node": node}
        result = _object(self._send(self.config.bind_verb, body))
        error = field(result, "Error")
        if error:
            raise ExtenderError(str(error))


def _object(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _failed(value: Any) -> FailedNodes:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, Mapping) else {}
