"""The effective (loaded and defaulted) scheduler configuration the engine consumes."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..record import record
from ..versions.features import V130, Features

# Extension points in the order kube-scheduler's framework runs them.
EXTENSION_POINTS = (
    "preEnqueue",
    "queueSort",
    "preFilter",
    "filter",
    "postFilter",
    "preScore",
    "score",
    "reserve",
    "permit",
    "preBind",
    "bind",
    "postBind",
)


@record(frozen=True)
class PluginRef:
    """An enabled plugin at one extension point; ``weight`` matters only for ``score``."""

    name: str
    weight: int = 0


@record
class Profile:
    """One profile after loading: plugins per extension point, typed args."""

    scheduler_name: str
    # Extension point -> enabled plugins, in run order, after multiPoint expansion
    # and enabled/disabled merging, exactly as the v1.30 framework builds them.
    plugins: dict[str, list[PluginRef]]
    # Plugin name -> typed, defaulted args object (see config/args.py).
    plugin_args: dict[str, Any]
    percentage_of_nodes_to_score: int | None = None

    def enabled(self, point: str) -> list[PluginRef]:
        return self.plugins.get(point, [])

    def args(self, plugin: str) -> Any:
        return self.plugin_args.get(plugin)


@record(frozen=True)
class ExtenderTLSConfig:
    """An extender's tlsConfig."""

    insecure: bool = False
    server_name: str = ""
    cert_file: str = ""
    key_file: str = ""
    ca_file: str = ""
    cert_data: str = ""  # base64, as in the configuration file
    key_data: str = ""
    ca_data: str = ""


@record(frozen=True)
class Extender:
    """One ``extenders:`` entry after v1.30 defaulting (an empty verb means not supported)."""

    url_prefix: str
    filter_verb: str = ""
    preempt_verb: str = ""
    prioritize_verb: str = ""
    bind_verb: str = ""
    weight: int = 0
    enable_https: bool = False
    tls_config: ExtenderTLSConfig | None = None
    # NewHTTPExtender turns a zero timeout into DefaultExtenderTimeout (5s).
    http_timeout_seconds: float = 5.0
    node_cache_capable: bool = False
    managed_resources: tuple[str, ...] = ()
    ignorable: bool = False


@record
class SchedulerConfig:
    """The effective configuration the engine runs."""

    profiles: list[Profile]
    percentage_of_nodes_to_score: int = 0
    pod_initial_backoff_seconds: int = 1
    pod_max_backoff_seconds: int = 10
    # The raw entries (for the effective config) and their typed, defaulted form.
    extenders: list[dict[str, Any]] = field(default_factory=list)
    extender_configs: list[Extender] = field(default_factory=list)
    source: str = "<default>"
    # The kube-scheduler release replayed (behaviour switches for the engine and plugins).
    features: Features = V130

    def profile_for(self, scheduler_name: str) -> Profile | None:
        return next((p for p in self.profiles if p.scheduler_name == scheduler_name), None)
