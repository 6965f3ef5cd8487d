"""What-if benchmarks: ``ksched capacity`` and ``ksched plan --drain`` on 5,000 nodes.

    python benchmarks/whatif.py                  # both
    python benchmarks/whatif.py capacity         # or: drain
    python benchmarks/whatif.py capacity --nodes 500

capacity: a 500m/1Gi pod on 5,000 empty 4-cpu nodes: 40,000 copies fit; reports copies/s
of one engine run (copies are added one at a time as the queue empties).
drain: node-00000 runs 110 pods of a ReplicaSet (its pod limit), each other node one
pod; the whole ``ksched plan FILE --drain node-00000`` command is timed (start-up,
load, drain, planning the 110 replacements, output).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.workloads import Doc, node, pod, write_manifests

KSCHED = str(Path(sys.executable).parent / "ksched")


def _timed(args: list[str]) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """The command's result, wall seconds, and CPU seconds (user + system) it used: on a
    shared machine the CPU time is what the command costs when it has a core to itself."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(args, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result, wall, cpu


def capacity_cluster(nodes: int) -> Iterator[Doc]:
    for i in range(nodes):
        yield node(i, cpu="4", memory="16Gi")


def drain_cluster(nodes: int) -> Iterator[Doc]:
    owner = [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d9f6", "uid": "u",
              "controller": True}]
    for i in range(nodes):
        yield node(i, cpu="64", memory="256Gi")
    for j in range(110):
        doc = pod(f"web-7d9f6-{j:05d}", "100m", "128Mi", "node-00000", {"app": "web"})
        doc["metadata"]["ownerReferences"] = owner
        yield doc
    for i in range(1, nodes):
        yield pod(f"other-{i:05d}", "100m", "128Mi", f"node-{i:05d}")


def bench_capacity(nodes: int, tmp: Path) -> dict[str, object]:
    cluster, template = tmp / "cluster.yaml", tmp / "pod.yaml"
    write_manifests(capacity_cluster(nodes), cluster)
    write_manifests([pod("small", "500m", "1Gi")], template)
    result, wall, cpu = _timed([KSCHED, "capacity", str(template), str(cluster), "-o", "json"])
    assert result.returncode == 0, result.stderr
    count = json.loads(result.stdout)["count"]
    return {"benchmark": "capacity", "nodes": nodes, "copies": count,
            "command_s": round(wall, 2), "cpu_s": round(cpu, 2),
            "copies_per_cpu_s": round(count / cpu, 1)}


def bench_drain(nodes: int, tmp: Path) -> dict[str, object]:
    cluster = tmp / "cluster.yaml"
    write_manifests(drain_cluster(nodes), cluster)
    _, plain_wall, plain_cpu = _timed([KSCHED, "plan", str(cluster)])
    result, wall, cpu = _timed([KSCHED, "plan", str(cluster), "--drain", "node-00000"])
    assert result.returncode == 0, result.stderr
    moved = result.stdout.count(" Moved ")
    return {"benchmark": "drain", "nodes": nodes, "moved": moved,
            "command_s": round(wall, 2), "cpu_s": round(cpu, 2),
            "plain_plan_command_s": round(plain_wall, 2), "plain_plan_cpu_s": round(plain_cpu, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("which", nargs="*", choices=["capacity", "drain"], default=[])
    parser.add_argument("--nodes", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.which or ["capacity", "drain"]:
            bench = bench_capacity if name == "capacity" else bench_drain
            print(json.dumps(bench(args.nodes, Path(tmp))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
