"""Templates as compared and hashed: without the values the API server defaults.

A snapshot's objects carry every default (``terminationMessagePath``, ``dnsPolicy``...),
a chart's do not. Dropping fields whose value is the default, and empty values, lets a
chart's Deployment recognise its ReplicaSet in a snapshot (EqualIgnoreHash), and gives
both the same pod-template-hash.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

POD_TEMPLATE_HASH = "pod-template-hash"

_POD_SPEC = {
    "dnsPolicy": "ClusterFirst",
    "restartPolicy": "Always",
    "terminationGracePeriodSeconds": 30,
    "schedulerName": "default-scheduler",
    "enableServiceLinks": True,
    "hostNetwork": False,
}
_CONTAINER = {
    "terminationMessagePath": "/dev/termination-log",
    "terminationMessagePolicy": "File",
}
_PROBE = {"timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3}
_PORT = {"protocol": "TCP"}
_HTTP_GET = {"scheme": "HTTP"}
_MODE = {"defaultMode": 420}


def normalized_template(raw: Mapping[str, Any], drop_label: str = "") -> dict[str, Any]:
    """The template without defaulted and empty values (and without ``drop_label``)."""
    meta = dict(raw.get("metadata") or {})
    meta.pop("creationTimestamp", None)
    if drop_label and isinstance(meta.get("labels"), Mapping):
        meta["labels"] = {k: v for k, v in meta["labels"].items() if k != drop_label}
    spec = _without(raw.get("spec") or {}, _POD_SPEC)
    for key in ("containers", "initContainers", "ephemeralContainers"):
        if isinstance(spec.get(key), list):
            spec[key] = [_container(c) for c in spec[key]]
    if isinstance(spec.get("volumes"), list):
        spec["volumes"] = [_volume(v) for v in spec["volumes"]]
    pruned: dict[str, Any] = _pruned({"metadata": meta, "spec": spec})
    return pruned


def _without(raw: Any, defaults: Mapping[str, Any]) -> Any:
    if not isinstance(raw, Mapping):
        return raw
    return {k: v for k, v in raw.items() if k not in defaults or defaults[k] != v}


def _container(raw: Any) -> Any:
    if not isinstance(raw, Mapping):
        return raw
    out = _without(raw, _CONTAINER)
    if out.get("imagePullPolicy") == _default_pull_policy(str(out.get("image", ""))):
        del out["imagePullPolicy"]
    if isinstance(out.get("ports"), list):
        out["ports"] = [_without(p, _PORT) for p in out["ports"]]
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        if isinstance(out.get(probe), Mapping):
            out[probe] = _without(out[probe], _PROBE)
            if isinstance(out[probe].get("httpGet"), Mapping):
                out[probe]["httpGet"] = _without(out[probe]["httpGet"], _HTTP_GET)
    return out


def _default_pull_policy(image: str) -> str:
    """SetDefaults_Container: Always for ``:latest`` or no tag, else IfNotPresent."""
    if "@" in image:
        return "IfNotPresent"
    tail = image.rsplit("/", 1)[-1]
    tag = tail.partition(":")[2]
    return "Always" if tag in ("", "latest") else "IfNotPresent"


def _volume(raw: Any) -> Any:
    if not isinstance(raw, Mapping):
        return raw
    out = dict(raw)
    for source in ("configMap", "secret", "projected", "downwardAPI"):
        if isinstance(out.get(source), Mapping):
            out[source] = _without(out[source], _MODE)
    return out


def _pruned(value: Any) -> Any:
    """Drop null, empty maps and empty lists, recursively (they equal absent fields)."""
    if isinstance(value, Mapping):
        out = {k: _pruned(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in (None, {}, [])}
    if isinstance(value, list):
        return [_pruned(v) for v in value]
    return value
