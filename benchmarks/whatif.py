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
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.workloads import Doc, node, pod

KSCHED = str(Path(sys.executable).parent / "ksched")


def _write(docs: Iterator[Doc], path: Path) -> None:
    with path.open("w") as out:
        yaml.dump_all(docs, out, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper))


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
    _write(capacity_cluster(nodes), cluster)
    _write(iter([pod("small", "500m", "1Gi")]), template)
    started = time.perf_counter()
    out = subprocess.run([KSCHED, "capacity", str(template), str(cluster), "-o", "json"],
                         check=True, capture_output=True, text=True).stdout
    seconds = time.perf_counter() - started
    count = json.loads(out)["count"]
    return {"benchmark": "capacity", "nodes": nodes, "copies": count,
            "command_s": round(seconds, 2), "copies_per_s": round(count / seconds, 1)}


def bench_drain(nodes: int, tmp: Path) -> dict[str, object]:
    cluster = tmp / "cluster.yaml"
    _write(drain_cluster(nodes), cluster)
    started = time.perf_counter()
    result = subprocess.run([KSCHED, "plan", str(cluster), "--drain", "node-00000"],
                            capture_output=True, text=True)
    seconds = time.perf_counter() - started
    assert result.returncode == 0, result.stderr
    moved = result.stdout.count(" Moved ")
    return {"benchmark": "drain", "nodes": nodes, "moved": moved,
            "command_s": round(seconds, 2)}


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
