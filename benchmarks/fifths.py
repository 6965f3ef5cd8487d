"""Per-fifth cost of a plan in instructions, which a busy machine cannot distort.

    python benchmarks/fifths.py basic-500
    python benchmarks/fifths.py --kubernetes-version 1.30 basic-500 preemption

`run.py`'s per-fifth rates are wall-clock: on a machine whose speed changes within
seconds they swing both ways from one round to the next. This counts instructions
with valgrind's callgrind instead, which gives the same count for the same run
whatever else the machine does. The workload is cut into five prefixes (its nodes and
running pods, and the first 1/5, 2/5, ... of its pending pods in file order); for each
prefix it counts a process that loads the file and builds the engine, and one that
also plans. The difference is the plan's instructions, and the difference between
consecutive prefixes is what the next fifth of the pods cost. The queue takes pending
pods in file order, so a prefix's attempts are the first attempts of the whole plan;
where pods are retried at the end (preemptors on their nominated node), each prefix
retries its own pods. Flat per-pod cost gives five equal fifths; a cost that grows
with the pods placed gives rising ones. Hash seeds are fixed, so that the processes
differ only in the pods they plan; a garbage collection that falls inside one prefix's
plan and not the next still moves a fifth by a few per cent.

Needs valgrind (`apt-get install valgrind`); about 50 times slower than a plan.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.workloads import WORKLOADS, write_manifests
from ksched_cli.versions.releases import DEFAULT_VERSION

FIFTHS = 5
_COLLECTED = re.compile(r"Collected : (\d+)")
# Run under callgrind: load the file, build the engine, and plan when asked.
_CHILD = """
import sys
sys.path.insert(0, {root!r})
import numpy  # both processes import it: the difference is the plan alone
from ksched_cli.config.load import default_config
from ksched_cli.engine.engine import Engine, EngineOptions
from ksched_cli.versions.releases import release
from ksched_cli.whatif.inputs import load_cluster
chosen = release({version!r})
loaded = load_cluster([{path!r}], kubernetes_version=chosen.version)
engine = Engine(default_config(chosen.features), loaded.cluster, EngineOptions(record="summary"))
if {plan!r}:
    engine.run()
"""


def _instructions(path: Path, version: str, plan: bool, env: dict[str, str]) -> int:
    code = _CHILD.format(root=str(Path(__file__).resolve().parents[1]), version=version,
                         path=str(path), plan=plan)
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
             sys.executable, "-c", code],
            capture_output=True, text=True, check=True, env=env,
        )
    found = _COLLECTED.search(out.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count: {out.stderr[-400:]}")
    return int(found.group(1))


def _prefixes(name: str, directory: Path) -> list[tuple[Path, int]]:
    """Files holding the first 1..5 fifths of the pending pods, and each one's count."""
    objects = list(WORKLOADS[name]())  # a generator: read twice below
    pending = [o for o in objects if o.get("kind") == "Pod" and not o["spec"].get("nodeName")]
    rest = [o for o in objects if not (o.get("kind") == "Pod" and not o["spec"].get("nodeName"))]
    files = []
    for k in range(1, FIFTHS + 1):
        count = len(pending) * k // FIFTHS
        path = directory / f"{name}-{k}.yaml"
        write_manifests(rest + pending[:count], path)
        files.append((path, count))
    return files


def fifths(name: str, version: str) -> list[float]:
    """Instructions per pod of each fifth of the pending pods' plan."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONHASHSEED"] = "0"  # the same set and dict orders in every process
    with tempfile.TemporaryDirectory() as tmp:
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        files = _prefixes(name, Path(tmp))
        _instructions(files[0][0], version, True, env)  # bytecode and records cached first
        plans = [(_instructions(p, version, True, env) - _instructions(p, version, False, env),
                  count) for p, count in files]
    per_pod, (done, placed) = [], (0, 0)
    for total, count in plans:
        per_pod.append((total - done) / max(count - placed, 1))
        done, placed = total, count
    return per_pod


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workloads", nargs="+", metavar="WORKLOAD", choices=sorted(WORKLOADS))
    parser.add_argument("--kubernetes-version", default=DEFAULT_VERSION, metavar="VERSION",
                        help="the release to replay (default: ksched's default release)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("fifths.py needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 1
    for name in args.workloads:
        per_pod = fifths(name, args.kubernetes_version)
        shown = " ".join(f"{value / 1e6:.3f}" for value in per_pod)
        spread = max(per_pod) / min(per_pod)
        print(f"{name} ({args.kubernetes_version}): million instructions per pod by fifth: "
              f"{shown}; max/min {spread:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
