"""Plans and upgrade diffs per release, byte for byte against golden files.

Regenerate with ``KSCHED_UPDATE_GOLDEN=1 pytest tests/versions/test_golden_versions.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import cli

HERE = Path(__file__).parent
REPO = HERE.parent.parent
GOLDEN = HERE / "golden"
UPGRADE = "examples/upgrade/cluster.yaml"
SUBSET = "tests/versions/clusters/prefilter-subset.yaml"
BATCH = "tests/versions/clusters/batch.yaml"
BATCH_PROFILE = "tests/versions/clusters/batch-profile.yaml"
REQUEUE = "tests/versions/clusters/requeue"
STORAGE = "tests/versions/clusters/storage-requeue"
NOMINATION = "tests/versions/clusters/nomination-ends.yaml"
MATCH_LABEL_KEYS = "tests/versions/clusters/match-label-keys.yaml"
PREEMPTED_WAITING = "tests/versions/clusters/preempted-waiting"
BOUND_VOLUME = "tests/versions/clusters/bound-volume-hostname.yaml"
NOMINATED_DELETE = "tests/versions/clusters/nominated-delete"
RESIZE = "tests/versions/clusters/in-place-resize.yaml"
IMAGE_VOLUME = "tests/versions/clusters/image-volume.yaml"
FIXES = "tests/versions/clusters/release-fixes"

CASES: dict[str, tuple[list[str], int]] = {
    "versions.txt": (["versions", "--changes"], 0),
    **{
        f"upgrade.{v}.wide.txt": (["plan", UPGRADE, "-o", "wide", "--kubernetes-version", v], 2)
        for v in ("1.30", "1.32", "1.36")
    },
    **{
        f"upgrade.{v}.explain-pod.txt": (
            [
                "plan", UPGRADE, "--kubernetes-version", v,
                "--explain-pod", "default/api", "--explain-pod", "default/best-effort",
                "--explain-pod", "default/worker",
            ],
            2,
        )
        for v in ("1.30", "1.36")
    },
    **{
        f"upgrade-diff.{fmt}": (
            ["diff", "--base-version", "1.30", "--head-version", "1.36", UPGRADE, "-o", fmt],
            3,
        )
        for fmt in ("table", "json", "yaml", "markdown")
    },
    **{
        f"prefilter-subset.{v}.json": (
            ["plan", SUBSET, "-o", "json", "--explain", "--kubernetes-version", v], 2
        )
        for v in ("1.30", "1.32")
    },
    **{
        f"batch.{v}.json": (
            ["plan", BATCH, "-c", BATCH_PROFILE, "-o", "json", "--explain",
             "--kubernetes-version", v],
            0,
        )
        for v in ("1.30", "1.36")
    },
    # Node events: v1.30's pre-check against v1.32's queueing hints (docs/versions.md).
    # Under 1.36, DynamicResources fails at PostFilter first but is no rejector: the
    # same pods move as under 1.32.
    **{
        f"requeue.{v}.txt": (
            ["simulate", f"{REQUEUE}/scenario.yaml", f"{REQUEUE}/cluster.yaml",
             "--kubernetes-version", v],
            2,
        )
        for v in ("1.30", "1.32", "1.36")
    },
    # matchLabelKeys of pod anti-affinity: dropped by v1.30, folded into selectors from v1.31.
    **{
        f"match-label-keys.{v}.txt": (
            ["plan", MATCH_LABEL_KEYS, "-o", "wide", "--kubernetes-version", v],
            2 if v == "1.30" else 0,
        )
        for v in ("1.30", "1.32")
    },
    # A bound volume's hostname affinity: narrowed at PreFilter (v1.30.6) or filtered (v1.32+).
    **{
        f"bound-volume-hostname.{v}.txt": (
            ["plan", BOUND_VOLUME, "-o", "wide", "--kubernetes-version", v], 2
        )
        for v in ("1.30", "1.32", "1.36")
    },
    # A nomination ending without a bind, then a nominated pending pod deleted: v1.33+
    # sends an AssignedPodDelete to lower- and equal-priority pods, v1.32 nothing.
    **{
        f"nomination-ends.{v}.txt": (
            ["plan", NOMINATION, "-o", "wide", "--kubernetes-version", v], 2
        )
        for v in ("1.30", "1.32", "1.36")
    },
    **{
        f"nominated-delete.{v}.txt": (
            ["simulate", f"{NOMINATED_DELETE}/scenario.yaml", f"{NOMINATED_DELETE}/cluster.yaml",
             "--kubernetes-version", v],
            0 if v == "1.36" else 2,
        )
        for v in ("1.32", "1.36")
    },
    # A gang member waiting at Permit preempted: rejected (v1.32) or sent to backoffQ (v1.36).
    **{
        f"preempted-waiting.{v}.txt": (
            ["simulate", f"{PREEMPTED_WAITING}/scenario.yaml",
             f"{PREEMPTED_WAITING}/cluster.yaml", "--config", "gang",
             "--kubernetes-version", v],
            2,
        )
        for v in ("1.32", "1.36")
    },
    # A resize under way: the spec (v1.32) against max(spec, actuated, allocated) (v1.33+).
    **{
        f"in-place-resize.{v}.txt": (
            ["plan", RESIZE, "--explain-pod", "default/new", "--kubernetes-version", v], 0
        )
        for v in ("1.32", "1.36")
    },
    # ImageLocality ignores image volumes before v1.36 and sums them from v1.36.
    **{
        f"image-volume.{v}.txt": (
            ["plan", IMAGE_VOLUME, "--explain-pod", "default/infer", "--kubernetes-version", v],
            0,
        )
        for v in ("1.32", "1.36")
    },
    # Storage objects: v1.30's registrations against v1.36's storage hints.
    **{
        f"storage-requeue.{v}.txt": (
            ["simulate", f"{STORAGE}/scenario.yaml", f"{STORAGE}/cluster.yaml",
             "--kubernetes-version", v],
            2,
        )
        for v in ("1.30", "1.36")
    },
    # Ported from v1.36.2's code, not measured: InterPodAffinity's delete hint also queues
    # a pod matching the deleted pod's anti-affinity, and both InterPodAffinity's and
    # PodTopologySpread's pod hints judge a deleted pod that was only nominated (v1.36).
    **{
        f"{name}.{v}.txt": ([*args, "--kubernetes-version", v], 2 if v == "1.35" else 0)
        for name, args in (
            ("anti-affinity-delete",
             ["plan", f"{FIXES}/anti-affinity-delete.yaml", "-o", "wide"]),
            ("nominated-hints",
             ["simulate", f"{FIXES}/nominated-hints/scenario.yaml",
              f"{FIXES}/nominated-hints/cluster.yaml"]),
        )
        for v in ("1.35", "1.36")
    },
    # Ported from v1.35.7's and v1.36.2's code, not measured: the nomination a binding
    # cycle writes for a pod waiting at Permit, kept (1.35) or cleared (1.36) when the
    # wait is rejected (NominatedNodeNameForExpectation).
    **{
        f"gang-nominated.{v}.txt": (
            ["plan", f"{FIXES}/gang-nominated.yaml", "--config", "gang", "-o", "wide",
             "--kubernetes-version", v],
            code,
        )
        for v, code in (("1.34", 2), ("1.35", 2), ("1.36", 2))
    },
    # Measured against the real schedulers (docs/versions.md), each on both sides of its
    # release: Fit's unresolvable requests (1.34), Fit scoring without pod-level requests,
    # in-tree EBS counted without the migrated-plugins annotation (every release),
    # DynamicResources' PostFilter without its state (1.34), a nominated pod's binding
    # (1.33-1.34 only), a static binding's PV/PVC events (1.32+) and its
    # volumeAttributesClassName (1.34+).
    **{
        f"{name}.{v}.txt": ([*args, "--kubernetes-version", v], code)
        for name, args, code, versions in (
            ("fit-unresolvable", ["plan", f"{FIXES}/fit-unresolvable.yaml", "-o", "wide"], 2,
             ("1.33", "1.34")),
            ("fit-pod-level-score",
             ["plan", f"{FIXES}/fit-pod-level-score.yaml", "--explain-pod", "default/sized"], 0,
             ("1.36",)),
            ("in-tree-ebs", ["plan", f"{FIXES}/in-tree-ebs.yaml", "-o", "wide"], 2,
             ("1.30", "1.36")),
            ("missing-claim", ["plan", f"{FIXES}/missing-claim.yaml", "-o", "wide"], 2,
             ("1.33", "1.34")),
            ("nominated-bind",
             ["plan", f"{FIXES}/nominated-bind.yaml", "-o", "json", "--explain"], 2,
             ("1.34", "1.35")),
            ("static-binding", ["plan", f"{FIXES}/static-binding.yaml", "-o", "wide"], 2,
             ("1.30", "1.36")),
            ("attributes-class", ["plan", f"{FIXES}/attributes-class.yaml", "-o", "wide"], 2,
             ("1.33", "1.34")),
        )
        for v in versions
    },
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.chdir(REPO)
    args, exit_code = CASES[name]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == exit_code, result.output
    golden = GOLDEN / name
    if os.environ.get("KSCHED_UPDATE_GOLDEN") == "1":
        golden.write_text(result.stdout, encoding="utf-8")
    assert result.stdout == golden.read_text(encoding="utf-8")


def test_golden_set_is_complete() -> None:
    assert sorted(p.name for p in GOLDEN.iterdir()) == sorted(CASES)
