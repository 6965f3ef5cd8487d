"""``extenders:`` after loading: v1.30 defaults and validation messages."""

from __future__ import annotations

from pathlib import Path

import pytest

from ksched_cli.config.types import Extender, ExtenderTLSConfig

from ..config.helpers import check, findings


@pytest.mark.parametrize(
    ("body", "want"),
    [
        pytest.param(
            "- urlPrefix: http://e\n",
            Extender("http://e"),
            id="defaults: 5s timeout, weight 0, nothing supported",
        ),
        pytest.param(
            "- urlPrefix: https://e/sched\n  filterVerb: f\n  prioritizeVerb: p\n"
            "  preemptVerb: pr\n  bindVerb: b\n  weight: 3\n  httpTimeout: 1m30s\n"
            "  nodeCacheCapable: true\n  ignorable: true\n  enableHTTPS: true\n"
            "  managedResources:\n  - name: example.com/gpu\n    ignoredByScheduler: true\n"
            "  tlsConfig: {insecure: true, serverName: ext}\n",
            Extender(
                "https://e/sched",
                "f",
                "pr",
                "p",
                "b",
                3,
                True,
                ExtenderTLSConfig(insecure=True, server_name="ext"),
                90.0,
                True,
                ("example.com/gpu",),
                True,
            ),
            id="every field",
        ),
        pytest.param(
            "- urlPrefix: http://e\n  httpTimeout: 0s\n",
            Extender("http://e"),
            id="zero timeout means the default",
        ),
    ],
)
def test_typed_extenders(tmp_path: Path, body: str, want: Extender) -> None:
    checked = check(tmp_path, "extenders:\n" + body)
    assert checked.config is not None, findings(checked)
    assert checked.config.extender_configs == [want]


@pytest.mark.parametrize(
    ("body", "want"),
    [
        pytest.param(
            "- urlPrefix: http://e\n  prioritizeVerb: p\n",
            [
                "4:3 error extenders[0].weight: Invalid value: 0: must have a positive weight "
                "applied to it"
            ],
            id="prioritize needs a weight",
        ),
        pytest.param(
            "- urlPrefix: http://e\n  prioritizeVerb: p\n  weight: -1\n",
            [
                "6:3 error extenders[0].weight: Invalid value: -1: must have a positive weight "
                "applied to it"
            ],
            id="negative weight",
        ),
        pytest.param(
            "- urlPrefix: http://a\n  bindVerb: b\n- urlPrefix: http://b\n  bindVerb: b\n",
            [
                '3:1 error extenders: Invalid value: "found 2 extenders implementing bind": '
                "only one extender can implement bind"
            ],
            id="one binder",
        ),
        pytest.param(
            "- urlPrefix: http://e\n  managedResources:\n  - name: kubernetes.io/gpu\n",
            [
                "6:5 error extenders[0].managedResources[0].name: Invalid value: "
                '"kubernetes.io/gpu": is an invalid extended resource name'
            ],
            id="kubernetes.io names are not extended resources",
        ),
        pytest.param(
            "- urlPrefix: http://e\n  filterVerb: f\n",
            [],
            id="a filter alone needs no weight",
        ),
    ],
)
def test_extender_validation(tmp_path: Path, body: str, want: list[str]) -> None:
    assert findings(check(tmp_path, "extenders:\n" + body)) == want
