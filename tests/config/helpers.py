"""Shared helpers for the config tests: write a config, load it, flatten the results."""

from __future__ import annotations

from pathlib import Path

from ksched_cli.config.load import CheckedConfig, check_config

HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"


def write(tmp_path: Path, body: str, name: str = "config.yaml", header: bool = True) -> Path:
    path = tmp_path / name
    path.write_text((HEADER if header else "") + body, encoding="utf-8")
    return path


def check(tmp_path: Path, body: str) -> CheckedConfig:
    return check_config(str(write(tmp_path, body)))


def findings(checked: CheckedConfig) -> list[str]:
    """``LINE:COL severity FIELD: message`` per finding (file name left out)."""
    out = []
    for f in checked.findings:
        loc = f.error.location
        where = f"{loc.line}:{loc.column}" if loc and loc.line else "-"
        out.append(f"{where} {f.severity} {f.error.field}: {f.error.message}")
    return out


def plugin_names(checked: CheckedConfig, point: str, profile: int = 0) -> list[str]:
    assert checked.config is not None, findings(checked)
    return [p.name for p in checked.config.profiles[profile].plugins[point]]


def score_weights(checked: CheckedConfig, profile: int = 0) -> list[tuple[str, int]]:
    assert checked.config is not None, findings(checked)
    return [(p.name, p.weight) for p in checked.config.profiles[profile].plugins["score"]]
