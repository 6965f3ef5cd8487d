"""What the API server's checks (unknown fields, value rules, repeated keys) add to loading.

    python benchmarks/strict_overhead.py            # the full-cluster snapshot, YAML and JSON
    python benchmarks/strict_overhead.py --rounds 3

The full-cluster workload (5,000 nodes, 150,000 pods) is written once as multi-document
YAML and once as a JSON List (``kubectl get -o json``'s form), then each file is loaded
with the checks and without them, alternately, ``--rounds`` times each. The best CPU
time of each is kept (the shared VM's wall clock varies by ±20 %).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.workloads import full_cluster, write_manifests


def _best(path: Path, checks: bool, rounds: int) -> float:
    from ksched_cli.whatif.inputs import load_cluster

    best = float("inf")
    for _ in range(rounds):
        started = time.process_time()
        loaded = load_cluster([str(path)], checks=checks)
        best = min(best, time.process_time() - started)
        del loaded
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    documents = list(full_cluster())
    print(f"{'format':<8}{'checks off s':>14}{'checks on s':>13}{'added':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        yaml_path, json_path = Path(tmp) / "full.yaml", Path(tmp) / "full.json"
        write_manifests(documents, yaml_path)
        json_path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": documents}))
        del documents
        for label, path in (("yaml", yaml_path), ("json", json_path)):
            off = on = float("inf")
            for _ in range(args.rounds):  # alternated, so drift in machine load hits both
                off = min(off, _best(path, False, 1))
                on = min(on, _best(path, True, 1))
            print(f"{label:<8}{off:>14.2f}{on:>13.2f}{(on - off) / off:>8.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
