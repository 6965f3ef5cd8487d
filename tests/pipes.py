"""Running ksched in a subprocess whose reader stops early, as `| head -1` does."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence

_SCRIPT = "from ksched_cli.cli.main import main; main()"


def closed_after_one_line(
    argv: Sequence[str], env: Mapping[str, str] | None = None
) -> tuple[int, bytes]:
    """Exit code and stderr of ``ksched ARGV`` once its reader closed the pipe."""
    environment = {**os.environ, "PYTHONWARNINGS": "ignore", **(env or {})}
    with subprocess.Popen(
        [sys.executable, "-c", _SCRIPT, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=environment,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()
        stderr = proc.stderr.read()
        return proc.wait(timeout=120), stderr
