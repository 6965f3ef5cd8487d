"""Plan scheduler_perf-shaped workloads and report pods/s, wall seconds and peak RSS.

    python benchmarks/run.py                 # every workload
    python benchmarks/run.py basic preemption
    python benchmarks/run.py --profile basic # cProfile the plan, top functions

Each workload runs in its own process so that peak RSS is its own. Manifests are
written to a temporary YAML file and read back through the normal loader.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.workloads import WORKLOADS


def _run_one(name: str, profile: bool) -> dict[str, float | int | str]:
    from ksched_cli.config.load import default_config
    from ksched_cli.engine.engine import Engine, EngineOptions
    from ksched_cli.manifests.loader import load_cluster

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}.yaml"
        with path.open("w") as out:
            yaml.dump_all(
                WORKLOADS[name](), out, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper)
            )
        started = time.perf_counter()
        loaded = load_cluster([str(path)])
    load_seconds = time.perf_counter() - started
    pending = sum(1 for p in loaded.cluster.pods if not p.node_name)
    engine = Engine(default_config(), loaded.cluster, EngineOptions(record="summary"))
    started = time.perf_counter()
    if profile:
        profiler = cProfile.Profile()
        plan = profiler.runcall(engine.run)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(35)
    else:
        plan = engine.run()
    plan_seconds = time.perf_counter() - started
    summary = plan.summary()
    return {
        "workload": name,
        "nodes": len(loaded.cluster.nodes),
        "pending": pending,
        "attempts": len(plan.attempts),
        "scheduled": summary.get("Scheduled", 0),
        "load_s": round(load_seconds, 2),
        "plan_s": round(plan_seconds, 2),
        "pods_per_s": round(pending / plan_seconds, 1) if plan_seconds else 0.0,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("workloads", nargs="*", metavar="WORKLOAD", help=", ".join(WORKLOADS))
    parser.add_argument("--profile", action="store_true", help="cProfile the plan (one workload)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_run_one(args.child, args.profile)))
        return 0
    names = args.workloads or list(WORKLOADS)
    unknown = [n for n in names if n not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload(s): {', '.join(unknown)}")
    print(
        f"{'workload':<20}{'nodes':>7}{'pending':>9}{'sched':>8}"
        f"{'load s':>8}{'plan s':>8}{'pods/s':>9}{'RSS MiB':>9}"
    )
    for name in names:
        cmd = [sys.executable, __file__, "--child", name] + (["--profile"] if args.profile else [])
        # stdout carries the result line; stderr shows the profile when asked for.
        stderr = None if args.profile else subprocess.PIPE
        out = subprocess.run(cmd, text=True, stdout=subprocess.PIPE, stderr=stderr)
        if out.returncode != 0:
            print(f"{name:<20} failed: {(out.stderr or '').strip()[-400:]}")
            continue
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(
            f"{r['workload']:<20}{r['nodes']:>7}{r['pending']:>9}{r['scheduled']:>8}"
            f"{r['load_s']:>8}{r['plan_s']:>8}{r['pods_per_s']:>9}{r['peak_rss_mib']:>9}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
