"""SIGTERM or SIGHUP during ``plan -o json --explain`` leaves no spool behind, and the
process still ends by that signal (issue 25 item 9)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import NODE

PODS = 400  # the JSON document is far larger than a pipe's buffer: the plan blocks writing


def _cluster(tmp_path: Path) -> Path:
    pod = (
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\n"
        "spec: {{containers: [{{name: c, image: x, resources: {{requests: {{cpu: 10m}}}}}}]}}\n"
    )
    path = tmp_path / "cluster.yaml"
    path.write_text(NODE + "".join("---\n" + pod.format(i=i) for i in range(PODS)))
    return path


@pytest.mark.parametrize("signo", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_removes_the_spool(tmp_path: Path, signo: int) -> None:
    spool_root = tmp_path / "tmp"
    spool_root.mkdir()
    cluster = _cluster(tmp_path)
    env = {**os.environ, "TMPDIR": str(spool_root)}
    code = "from ksched_cli.cli.main import main; main()"
    args = [sys.executable, "-c", code, "plan", str(cluster), "-o", "json", "--explain",
            "--kubernetes-version", "1.30"]
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) as proc:
        assert proc.stdout is not None
        first = proc.stdout.read(1)  # the document has begun: the spool exists, the plan is
        assert first == b"{"  # blocked on the full pipe until this end reads more
        assert [p.name.startswith("ksched-plan-") for p in spool_root.iterdir()] == [True]
        proc.send_signal(signo)
        proc.stdout.read()
        proc.wait(timeout=120)
        assert proc.stderr is not None
        assert b"Traceback" not in proc.stderr.read()
    assert proc.returncode == -signo  # ended by the signal itself, as without a handler
    assert list(spool_root.iterdir()) == []
