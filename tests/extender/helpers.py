"""Plan a small cluster with a configuration that names extenders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ksched_cli.config.load import load_config
from ksched_cli.engine.engine import Engine, EngineOptions
from ksched_cli.engine.records import Plan
from ksched_cli.whatif.inputs import load_cluster

from ..manifests.helpers import docs, node, pod, write

HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def config_text(*extenders: str) -> str:
    return HEADER + "extenders:\n" + "".join(extenders)


def extender(url: str, **fields: Any) -> str:
    lines = [f"- urlPrefix: {url}\n"]
    for key, value in fields.items():
        text = str(value).lower() if isinstance(value, bool) else value
        lines.append(f"  {key}: {text}\n")
    return "".join(lines)


def three_nodes(tmp_path: Path, pods: str = "") -> Path:
    manifests = docs(
        node("a"), node("b"), node("c"), pod("web", "default"), *([pods] if pods else [])
    )
    write(tmp_path, {"cluster/all.yaml": manifests})
    return tmp_path / "cluster"


def plan(tmp_path: Path, config: str, cluster: Path, **options: Any) -> Plan:
    path = tmp_path / "config.yaml"
    path.write_text(config)
    cfg = load_config(str(path))
    loaded = load_cluster([str(cluster)])
    return Engine(cfg, loaded.cluster, EngineOptions(**options)).run()


def outcome(result: Plan, pod_key: str = "default/web") -> tuple[str, str, str]:
    d = result.decision_for(pod_key)
    assert d is not None
    return d.outcome, d.node, d.message
