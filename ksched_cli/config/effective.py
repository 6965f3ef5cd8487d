"""The effective configuration as a v1 object, like ``kube-scheduler --write-config-to``.

Unlike kube-scheduler, plugins are written per extension point after multiPoint
expansion, which is what actually runs. ``multiPoint`` disables ``"*"`` so that
loading the output again yields the same plugin lists.
"""

from __future__ import annotations

from typing import Any

from . import placement
from .catalog import lookup
from .expand import BuiltProfile
from .model import API_VERSION, KIND, ConfigV1, ProfileV1
from .types import EXTENSION_POINTS

HEADER = (
    "# Effective configuration: kube-scheduler v{version} defaults applied and multiPoint\n"
    "# expanded per extension point (multiPoint disables '*', so this file loads back\n"
    "# to the same plugin lists).\n"
)
_LEADER_ELECTION_KEYS = (
    "leaderElect",
    "leaseDuration",
    "renewDeadline",
    "retryPeriod",
    "resourceLock",
    "resourceName",
    "resourceNamespace",
)
_CLIENT_CONNECTION_KEYS = ("kubeconfig", "acceptContentTypes", "contentType", "qps", "burst")


def _ordered(values: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    out = {k: values[k] for k in keys if k in values}
    out.update({k: v for k, v in values.items() if k not in out})
    return out


def _args(args: dict[str, Any]) -> dict[str, Any]:
    return _ordered(args, ("apiVersion", "kind"))


def _plugins(built: BuiltProfile) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for point in EXTENSION_POINTS:
        refs = built.plugins.get(point, [])
        if point == "score":
            out[point] = (
                {"enabled": [{"name": r.name, "weight": r.weight} for r in refs]} if refs else {}
            )
        else:
            out[point] = {"enabled": [{"name": r.name} for r in refs]} if refs else {}
    out["multiPoint"] = {"disabled": [{"name": "*"}]}
    return out


def _plugin_config(profile: ProfileV1, built: BuiltProfile) -> list[dict[str, Any]]:
    # Like the framework's captured profile: args of instantiated plugins, by name.
    entries = [
        {"name": c.name, "args": _args(c.args)}
        for c in profile.plugin_config
        if c.name in built.needed
        and lookup(c.name, profile.features) is not None
        and c.args is not None
    ]
    return sorted(entries, key=lambda e: str(e["name"]))


def _profile(profile: ProfileV1, built: BuiltProfile) -> dict[str, Any]:
    out: dict[str, Any] = {"schedulerName": profile.scheduler_name}
    if profile.percentage_of_nodes_to_score is not None:
        out["percentageOfNodesToScore"] = profile.percentage_of_nodes_to_score
    out["plugins"] = {**_plugins(built), **placement.effective(profile)}
    config = _plugin_config(profile, built)
    if config:
        out["pluginConfig"] = config
    return out


def effective_object(config: ConfigV1, built: list[BuiltProfile]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "parallelism": config.parallelism,
        "leaderElection": _ordered(config.leader_election, _LEADER_ELECTION_KEYS),
        "clientConnection": _ordered(config.client_connection, _CLIENT_CONNECTION_KEYS),
        "enableProfiling": config.enable_profiling,
        "enableContentionProfiling": config.enable_contention_profiling,
        "percentageOfNodesToScore": config.percentage_of_nodes_to_score,
        "podInitialBackoffSeconds": config.pod_initial_backoff_seconds,
        "podMaxBackoffSeconds": config.pod_max_backoff_seconds,
    }
    if out["enableContentionProfiling"] is None:  # omitempty, as in Go
        del out["enableContentionProfiling"]
    if config.delay_cache_until_active:
        out["delayCacheUntilActive"] = True
    out["profiles"] = [_profile(p, b) for p, b in zip(config.profiles, built, strict=True)]
    if config.extenders:
        out["extenders"] = [_redacted(e) for e in config.extenders]
    return out


REDACTED = "--- REDACTED ---"  # client-go's mark for secret TLS data


def _redacted(extender: dict[str, Any]) -> dict[str, Any]:
    """An extender whose private key never reaches an output (--print-effective, diff)."""
    tls = extender.get("tlsConfig")
    if not isinstance(tls, dict) or not tls.get("keyData"):
        return extender
    return {**extender, "tlsConfig": {**tls, "keyData": REDACTED}}


def to_yaml(obj: dict[str, Any], version: str = "1.30") -> str:
    import yaml  # PyYAML, for this output only

    body: str = yaml.safe_dump(obj, sort_keys=False, default_flow_style=False, allow_unicode=True)
    return HEADER.format(version=version) + body
