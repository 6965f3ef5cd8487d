"""The HTML report of a large plan: its size, the time to build it, and to open it in Chromium.

    python benchmarks/html_report.py                # basic: 5,000 nodes, 10,000 pending pods
    python benchmarks/html_report.py --keep out.html

Plans the ``basic`` workload as ``ksched plan -o html`` does (``record="weighted"``),
renders the report, then opens it in headless Chromium (tests/browser.py) and times
navigation until the page's scripts have drawn it (``body[data-ready]``). Targets
(issue 17): under 20 MB, open in under 3 s.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.workloads import WORKLOADS, write_manifests
from tests.browser import Browser, find_chromium

TARGET_MB = 20.0
TARGET_OPEN_S = 3.0


def measure(workload: str, keep: Path | None) -> dict[str, float | int | str]:
    from ksched_cli.config.load import default_config
    from ksched_cli.engine.engine import Engine, EngineOptions
    from ksched_cli.render.html.model import capture
    from ksched_cli.render.html.report import owners_of, plan_report
    from ksched_cli.whatif.inputs import load_cluster

    with tempfile.TemporaryDirectory() as tmp:
        manifests = Path(tmp) / f"{workload}.yaml"
        write_manifests(WORKLOADS[workload](), manifests)
        cluster = load_cluster([str(manifests)]).cluster
        before, owners = capture(cluster.nodes, cluster.pods), owners_of(cluster.pods)
        started = time.perf_counter()
        plan = Engine(default_config(), cluster, EngineOptions(record="weighted")).run()
        plan_s = time.perf_counter() - started
        started = time.perf_counter()
        html = plan_report(plan, before, capture(cluster.nodes, cluster.pods), owners, [workload])
        render_s = time.perf_counter() - started
        report = keep or Path(tmp) / "report.html"
        report.write_text(html, encoding="utf-8")
        size_mb = report.stat().st_size / 1e6
        open_s = _open_seconds(report)
    return {
        "workload": workload,
        "nodes": len(before.nodes),
        "pods": len(plan.decisions),
        "plan_s": round(plan_s, 2),
        "render_s": round(render_s, 2),
        "size_mb": round(size_mb, 1),
        "open_s": round(open_s, 2),
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "met": "yes" if size_mb < TARGET_MB and open_s < TARGET_OPEN_S else "no",
    }


def _open_seconds(report: Path) -> float:
    executable = find_chromium()
    if executable is None:
        raise SystemExit("no chromium on PATH (apt-get install chromium, or set $KSCHED_CHROMIUM)")
    browser = Browser(executable)
    try:
        page = browser.page()
        page.open("about:blank", ready="true")  # a warm browser, as a user's would be
        seconds = page.open(report.as_uri(), timeout=60)
        errors = page.errors()
        if errors:
            raise SystemExit(f"the report logged errors: {errors[:3]}")
        return seconds
    finally:
        browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("workload", nargs="?", default="basic", choices=sorted(WORKLOADS))
    parser.add_argument("--keep", type=Path, help="write the report here too")
    args = parser.parse_args()
    if find_chromium() is None:
        parser.error("no chromium on PATH")
    print(json.dumps(measure(args.workload, args.keep)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
