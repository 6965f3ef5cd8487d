"""HTTPExtender (extender.go): the four verbs over a transport, v1.30 semantics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..api.pod import Pod
from ..config.types import Extender
from ..framework.extender_types import FailedNodes, FilterResult, Victims
from ..framework.nodeinfo import NodeInfo
from .gojson import GoJSONError
from .gotypes import GoType, unmarshal
from .replies import BINDING_RESULT, FILTER_RESULT, HOST_PRIORITY_LIST, PREEMPTION_RESULT, errorf
from .transport import ExtenderError, HTTPTransport, Transport
from .wire import JSON, node_json, pod_json

if TYPE_CHECKING:
    from ..framework import extender as framework

__all__ = ["FailedNodes", "FilterResult", "HTTPExtender", "Victims"]


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

    def _send(self, verb: str, body: Any, reply: GoType) -> Any:
        """The reply decoded into its Go type; a reply that does not fit is Go's error."""
        url = self.config.url_prefix.rstrip("/") + "/" + verb
        value = self.transport.post(self.config, verb, url, body)
        try:
            return unmarshal(value, reply)
        except GoJSONError as err:
            raise ExtenderError(str(err)) from None

    def _args(self, pod: Pod, nodes: Sequence[NodeInfo]) -> JSON:
        if self.config.node_cache_capable:
            return {"Pod": pod_json(pod), "Nodes": None, "NodeNames": [n.name for n in nodes]}
        items = [node_json(n.node) for n in nodes]
        return {"Pod": pod_json(pod), "Nodes": {"items": items}, "NodeNames": None}

    def filter(self, pod: Pod, nodes: Sequence[NodeInfo]) -> FilterResult:
        if not self.config.filter_verb:
            return FilterResult(list(nodes), {}, {})
        result = self._send(self.config.filter_verb, self._args(pod, nodes), FILTER_RESULT)
        if result["Error"]:
            raise ExtenderError(errorf(result["Error"]))
        return FilterResult(
            self._filtered(result, nodes),
            result["FailedNodes"] or {},
            result["FailedAndUnresolvableNodes"] or {},
        )

    def _filtered(self, result: Mapping[str, Any], nodes: Sequence[NodeInfo]) -> list[NodeInfo]:
        by_name = {n.name: n for n in nodes}
        if self.config.node_cache_capable and result["NodeNames"] is not None:
            wanted = [name or "" for name in result["NodeNames"]]
        elif result["Nodes"] is not None:
            # kube-scheduler builds bare NodeInfos from returned Nodes; ksched keeps the
            # snapshot's NodeInfo of the same name, which holds its pods.
            items = result["Nodes"]["items"] or []
            wanted = [((item or {}).get("metadata") or {}).get("name") or "" for item in items]
        else:
            wanted = []  # neither: no node passes, as in Go
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
        args = self._args(pod, nodes)
        result = self._send(self.config.prioritize_verb, args, HOST_PRIORITY_LIST) or []
        pairs = [(h["Host"] or "", h["Score"] or 0) for h in result]
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
        result = self._send(self.config.preempt_verb, body, PREEMPTION_RESULT)
        meta = result["NodeNameToMetaVictims"] or {}
        return {node: self._victims(node, mv or {}, nodes) for node, mv in meta.items()}

    def _victims(
        self, node: str, meta: Mapping[str, Any], nodes: Mapping[str, NodeInfo]
    ) -> Victims:
        info = nodes.get(node)
        if info is None:
            raise ExtenderError(f'nodeinfo not found for node name "{node}"')
        by_uid = {pi.pod.uid: pi.pod for pi in info.pods}
        pods = []
        for meta_pod in meta.get("Pods") or []:
            uid = (meta_pod or {}).get("UID") or ""
            if uid not in by_uid:
                raise ExtenderError(
                    f"extender: {self.name} claims to preempt pod (UID: &{{{uid}}}) on node: "
                    f"{node}, but the pod is not found on that node"
                )
            pods.append(by_uid[uid])
        return Victims(pods, meta.get("NumPDBViolations") or 0)

    def bind(self, pod: Pod, node: str) -> None:
        if not self.is_binder():
            raise ExtenderError("unexpected empty bindVerb in extender")
        body = {"PodName": pod.name, "PodNamespace": pod.namespace, "PodUID": pod.uid, "Node": node}
        result = self._send(self.config.bind_verb, body, BINDING_RESULT)
        if result["Error"]:
            raise ExtenderError(errorf(result["Error"]))


if TYPE_CHECKING:  # the framework's Extender (mypy checks it)
    _EXTENDER: type[framework.Extender] = HTTPExtender
