"""Whole commands timed from outside: `ksched plan`, its start-up, the real loop."""

from __future__ import annotations

import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from benchmarks.workloads import node, pod


def cached_env(tmp: str) -> dict[str, str]:
    """Bytecode cached (even where PYTHONDONTWRITEBYTECODE is set), outside the tree."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
    return env


def ksched() -> list[str]:
    script = Path(sys.executable).parent / "ksched"
    return [str(script)] if script.exists() else [sys.executable, "-m", "ksched_cli"]


WHOLE_RUNS = 3  # the best of three, as the reference loop's rates are


def whole(path: Path, version: str) -> list[float]:
    """Wall seconds of each of WHOLE_RUNS runs of `ksched plan FILE` (start-up, loading,
    planning, the table written to a file), bytecode cached first by a 3-node plan, which
    imports what the array paths need (NumPy among them; a 1-node plan imports neither)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = cached_env(tmp)
        warm, out = Path(tmp) / "warm.yaml", Path(tmp) / "out"
        warm.write_text(yaml.safe_dump_all([node(0), node(1), node(2), pod("p")]))
        release_args = ["--kubernetes-version", version] if version else []
        cmd = ksched()
        subprocess.run([*cmd, "plan", str(warm)], capture_output=True, check=True, env=env)
        plan = [*cmd, "plan", str(path), *release_args]
        with out.open("w") as sink:
            return [_wall(plan, env, stdout=sink, check=False) for _ in range(WHOLE_RUNS)]


def _wall(args: list[str], env: dict[str, str], **run: Any) -> float:
    """Wall seconds of one run of ``args``."""
    started = time.perf_counter()
    subprocess.run(args, env=env, **run)
    return time.perf_counter() - started


BEST = re.compile(r"^best ([0-9.]+) pods/s$")


def real_loop(command: str, path: Path) -> float | None:
    """Pods/s of the real scheduler's loop on the same file, from an outside command that
    prints `best N pods/s` as its last line; None (and why, on stderr) when it does not."""
    out = subprocess.run(
        [*shlex.split(command), str(path)], text=True, capture_output=True, check=False
    )
    lines = out.stdout.strip().splitlines()
    found = BEST.match(lines[-1].strip()) if lines else None
    if out.returncode != 0 or found is None:
        print(f"real loop: exit {out.returncode}, no `best N pods/s` line: "
              f"{out.stderr.strip()[-400:]}", file=sys.stderr)
        return None
    return float(found.group(1))


def startup() -> dict[str, float]:
    """Median of 10 wall-clock runs of `ksched --help` and of a 1-node plan, in ms."""
    cmd = ksched()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "one.yaml"
        path.write_text(yaml.safe_dump_all([node(0), pod("p")]))
        env = cached_env(tmp)
        out = {}
        for label, args in (("help_ms", ["--help"]), ("plan_1_node_ms", ["plan", str(path)])):
            runs = [_wall([*cmd, *args], env, capture_output=True, check=True) for _ in range(11)]
            out[label] = round(statistics.median(runs[1:]) * 1000, 1)  # the first warms up
    return out
