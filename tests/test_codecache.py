"""The generated-code cache: compiled once, read back in the next run, never trusted
blindly and never a reason for a command to fail."""

from __future__ import annotations

import marshal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ksched_cli import codecache
from ksched_cli.codecache import CodeCache

SOURCE = "def make(a):\n    return a * 2\n"
OTHER = "def make(a):\n    return a * 3\n"


@pytest.fixture(autouse=True)
def _bytecode_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a plain run (the test run itself may be told not to write bytecode)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def _fresh(path: Path) -> CodeCache:
    return CodeCache(str(path))


def test_compiled_once_then_read_back(tmp_path: Path) -> None:
    path = tmp_path / "pycache" / "thing.cpython-311.inits"
    first = _fresh(path)
    assert first.function(SOURCE, "make")(4) == 8 and first.new
    first.save()
    assert path.is_file()

    second = _fresh(path)
    assert second.function(SOURCE, "make")(5) == 10
    assert not second.new  # found in the file: nothing compiled, nothing to write
    assert second.function(OTHER, "make")(5) == 15 and second.new
    second.save()
    assert set(marshal.loads(path.read_bytes()[len(codecache._magic()):])) == {SOURCE, OTHER}


def test_each_call_makes_a_new_function(tmp_path: Path) -> None:
    cache = _fresh(tmp_path / "c")
    one, two = cache.function(SOURCE, "make"), cache.function(SOURCE, "make")
    assert one is not two and one.__code__ is two.__code__


@pytest.mark.parametrize(
    "content",
    [b"", b"garbage", codecache._magic() + b"\x00\x01", codecache._magic() + marshal.dumps([1]),
     b"\x00\x00\r\n" + marshal.dumps({SOURCE: compile("x = 1", "f", "exec")}),
     codecache._magic() + marshal.dumps({SOURCE: "not code", 3: 4})],
    ids=["empty", "garbage", "truncated", "not a dict", "another interpreter", "bad entries"],
)
def test_a_bad_file_means_compiling_afresh(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "c"
    path.write_bytes(content)
    cache = _fresh(path)
    assert cache.function(SOURCE, "make")(1) == 2 and cache.new
    cache.save()
    assert _fresh(path).function(SOURCE, "make")(2) == 4  # rewritten, readable


def test_nothing_is_written_without_bytecode_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    cache = _fresh(tmp_path / "c")
    assert cache.function(SOURCE, "make")(1) == 2
    cache.save()
    assert not (tmp_path / "c").exists()


def test_an_unwritable_place_is_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a regular file where a directory should be")
    cache = _fresh(blocker / "c")
    assert cache.function(SOURCE, "make")(1) == 2
    cache.save()  # no exception, no stray temporary file
    assert list(tmp_path.iterdir()) == [blocker]


def test_no_path_no_file(tmp_path: Path) -> None:
    cache = CodeCache(None)
    assert cache.function(SOURCE, "make")(3) == 6
    cache.save()


def test_a_file_grown_too_large_keeps_only_the_last_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(codecache, "_MAX_ENTRIES", 1)
    path = tmp_path / "c"
    first = _fresh(path)
    first.function(SOURCE, "make")
    first.save()
    second = _fresh(path)
    second.function(OTHER, "make")
    second.save()
    assert set(marshal.loads(path.read_bytes()[len(codecache._magic()):])) == {OTHER}


def test_the_path_follows_the_bytecode(tmp_path: Path) -> None:
    module = tmp_path / "pkg" / "record.py"
    found = codecache.cache_path(str(module), ".inits")
    assert found is not None and found.endswith(f"record.{sys.implementation.cache_tag}.inits")


def test_a_command_writes_the_cache_beside_its_bytecode(tmp_path: Path) -> None:
    """The records' cache is written at exit of a real run, under PYTHONPYCACHEPREFIX."""
    prefix = tmp_path / "prefix"
    env = {"PYTHONPYCACHEPREFIX": str(prefix), "PATH": "/usr/bin:/bin"}
    code = "from ksched_cli.record import record"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=Path.cwd())
    assert not list(prefix.rglob("*.inits"))  # nothing compiled
    code = "from ksched_cli.versions.features import V130"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=Path.cwd())
    assert [p.name for p in prefix.rglob("*.inits")] == [
        f"record.{sys.implementation.cache_tag}.inits"
    ]


def test_kept_values_are_made_once_per_key(tmp_path: Path) -> None:
    path, made = str(tmp_path / "v"), []

    def make(value: object) -> object:
        made.append(value)
        return value

    assert codecache.kept(path, "k1", lambda: make((1, "a")), _same) == (1, "a")
    assert codecache.kept(path, "k1", lambda: make((2, "b")), _same) == (1, "a")  # kept
    assert codecache.kept(path, "k2", lambda: make((3, "c")), _same) == (3, "c")  # key changed
    assert made == [(1, "a"), (3, "c")]


def _same(value: Any) -> Any:
    return value


def _pair(value: Any) -> tuple[int, str]:
    if not (isinstance(value, tuple) and len(value) == 2):
        raise ValueError("not a pair")
    return value[0], value[1]


def test_a_kept_value_of_another_form_is_made_and_written_afresh(tmp_path: Path) -> None:
    path = tmp_path / "v"
    assert codecache.kept(str(path), "k", lambda: [1, 2, 3], _same) == [1, 2, 3]
    assert codecache.kept(str(path), "k", lambda: (4, "d"), _pair) == (4, "d")  # made
    assert codecache.kept(str(path), "k", lambda: (5, "e"), _pair) == (4, "d")  # rewritten
    with pytest.raises(ValueError, match="not a pair"):  # make() itself must be right
        codecache.kept(str(tmp_path / "w"), "k", lambda: [0], _pair)


@pytest.mark.parametrize("content", [b"", b"garbage", codecache._magic() + marshal.dumps([1])])
def test_a_bad_kept_file_means_making_afresh(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "v"
    path.write_bytes(content)
    assert codecache.kept(str(path), "k", lambda: {"x": 1}, _same) == {"x": 1}
    assert codecache.kept(str(path), "k", lambda: {"x": 2}, _same) == {"x": 1}  # rewritten


def test_a_value_marshal_cannot_write_is_not_kept(tmp_path: Path) -> None:
    path = tmp_path / "v"
    value = object()
    assert codecache.kept(str(path), "k", lambda: value, _same) is value
    assert not list(tmp_path.iterdir())  # nor a temporary file left behind
