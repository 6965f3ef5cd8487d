"""The dataclass method cache (cli/dataclass_cache.py) changes nothing but start-up time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.cli.test_startup import ONE_NODE

# Every method dataclasses generated in the modules a plan imports, as marshalled code:
# equal bytes mean equal code objects (instructions, constants, names, file "<string>").
_DUMP = """
import json, marshal, sys, io, contextlib
sys.argv = ["ksched", "plan", sys.argv[1]]
{prelude}
from ksched_cli.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main()
    except SystemExit:
        pass
out = {{}}
for name, module in sorted(sys.modules.items()):
    if not name.startswith("ksched_cli"):
        continue
    for cls in vars(module).values():
        if isinstance(cls, type) and cls.__module__ == name and "__dataclass_fields__" in vars(cls):
            for attr, fn in sorted(vars(cls).items()):
                code = getattr(fn, "__code__", None)
                if code is not None and code.co_filename == "<string>":
                    out[f"{{name}}.{{cls.__qualname__}}.{{attr}}"] = marshal.dumps(code).hex()
print(json.dumps(out))
"""
# Without the cache: dataclasses' own exec, restored before any ksched dataclass exists.
_UNCACHED = "import ksched_cli.cli, dataclasses; del dataclasses.exec"


def _env(prefix: Path, write: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(prefix)
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _methods(manifest: Path, env: dict[str, str], prelude: str = "") -> dict[str, str]:
    probe = _DUMP.format(prelude=prelude)
    out = subprocess.run(
        [sys.executable, "-c", probe, str(manifest)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    methods: dict[str, str] = json.loads(out.strip().splitlines()[-1])
    return methods


def _cache_files(prefix: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in prefix.rglob("*.dataclasses")}


def test_cached_methods_are_the_compiled_ones(tmp_path: Path) -> None:
    manifest = tmp_path / "one.yaml"
    manifest.write_text(ONE_NODE)
    prefix = tmp_path / "pycache"
    cold = _methods(manifest, _env(prefix, write=True))
    written = _cache_files(prefix)
    assert written  # the first run wrote the modules' caches
    warm = _methods(manifest, _env(prefix, write=True))
    assert _cache_files(prefix) == written  # every method came from them: nothing rewritten
    uncached = _methods(manifest, _env(prefix, write=True), _UNCACHED)
    assert len(uncached) > 100
    assert cold == warm == uncached


def test_nothing_is_written_without_bytecode_writing(tmp_path: Path) -> None:
    manifest = tmp_path / "one.yaml"
    manifest.write_text(ONE_NODE)
    prefix = tmp_path / "pycache"
    _methods(manifest, _env(prefix, write=False))
    assert _cache_files(prefix) == {}


def test_an_unreadable_cache_is_compiled_again(tmp_path: Path) -> None:
    manifest = tmp_path / "one.yaml"
    manifest.write_text(ONE_NODE)
    prefix = tmp_path / "pycache"
    expected = _methods(manifest, _env(prefix, write=True))
    for path in _cache_files(prefix):
        path.write_bytes(b"not marshal data")
    assert _methods(manifest, _env(prefix, write=True)) == expected
    assert all(p.read_bytes() != b"not marshal data" for p in _cache_files(prefix))
