"""``--record-extenders`` writes whole files or nothing, never over an input, and never
costs the plan's output; a malformed stub file is one line naming the file."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ksched_cli.cli.main import _register, cli
from ksched_cli.extender import stub as stub_module

EXAMPLE = "examples/extender/"
PLAN = ["plan", EXAMPLE + "cluster.yaml", "--config", EXAMPLE + "config.yaml"]
REPLAY = [*PLAN, "--extender-mode", f"stub={EXAMPLE}stub.json"]


def _run(*args: str) -> Result:
    _register()
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def _plan_output() -> str:
    result = _run(*REPLAY)
    assert result.exit_code in (0, 2) and result.stdout
    return result.stdout


def test_recording_rewrites_a_stub_atomically(tmp_path: Path) -> None:
    target = tmp_path / "rec.json"
    target.write_text("old contents")
    result = _run(*REPLAY, "--record-extenders", str(target))
    assert result.exit_code in (0, 2), result.stderr
    recorded = json.loads(target.read_text())
    assert recorded == json.loads(Path(EXAMPLE + "stub.json").read_text())
    assert [p.name for p in tmp_path.iterdir()] == ["rec.json"]  # no temporary file left


@pytest.mark.parametrize(
    ("where", "reason"),
    [
        ("missing/dir/rec.json", "no such directory {tmp}/missing/dir"),
    ],
)
def test_a_failed_recording_comes_after_the_plan_output(
    tmp_path: Path, where: str, reason: str
) -> None:
    target = str(tmp_path / where) if where != "." else str(tmp_path)
    result = _run(*REPLAY, "--record-extenders", target)
    assert result.exit_code == 1
    assert result.stdout == _plan_output()
    message = reason.format(tmp=tmp_path)
    assert result.stderr.splitlines()[-1] == (
        f"{target}: error: cannot write the extender recording: {message}"
    )


def test_a_full_disk_keeps_the_old_file_and_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(stub_module.os, "fsync", full)
    target = tmp_path / "rec.json"
    target.write_text("old contents")
    result = _run(*REPLAY, "--record-extenders", str(target))
    assert result.exit_code == 1
    assert result.stdout == _plan_output()
    assert result.stderr.splitlines()[-1] == (
        f"{target}: error: cannot write the extender recording: no space left on device"
    )
    assert target.read_text() == "old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["rec.json"]


@pytest.mark.parametrize(
    "victim", [EXAMPLE + "cluster.yaml", EXAMPLE + "config.yaml", EXAMPLE + "stub.json"]
)
def test_recording_never_overwrites_an_input(tmp_path: Path, victim: str) -> None:
    before = Path(victim).read_bytes()
    link = tmp_path / "link.json"
    link.symlink_to(Path(victim).resolve())  # another name for the same file
    for target in (victim, str(link)):
        result = _run(*REPLAY, "--record-extenders", target)
        assert (result.exit_code, result.stdout) == (1, "")
        assert result.stderr == (
            f"{target}: error: --record-extenders would overwrite an input file ({victim})\n"
        )
    assert Path(victim).read_bytes() == before


def test_recording_never_overwrites_a_file_of_an_input_directory(tmp_path: Path) -> None:
    cluster = tmp_path / "cluster"
    cluster.mkdir()
    manifest = cluster / "all.yaml"
    manifest.write_text(Path(EXAMPLE + "cluster.yaml").read_text())
    args = ["plan", str(cluster), "--config", EXAMPLE + "config.yaml"]
    result = _run(
        *args, "--extender-mode", f"stub={EXAMPLE}stub.json", "--record-extenders", str(manifest)
    )
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        f"{manifest}: error: --record-extenders would write inside an input directory "
        f"({cluster})\n"
    )
    new_file = cluster / "sub" / "rec.json"  # not there yet, but the next plan would read it
    result = _run(*args, "--extender-mode", "stub=" + EXAMPLE + "stub.json",
                  "--record-extenders", str(new_file))
    assert (result.exit_code, result.stdout) == (1, "")
    assert "would write inside an input directory" in result.stderr
    assert sorted(p.name for p in cluster.iterdir()) == ["all.yaml"]


SPECIAL = "not a regular file ({what}): only a regular file is replaced, or - writes to " \
    "standard output"


@pytest.mark.parametrize("kind", ["fifo", "directory", "link to fifo"])
def test_recording_never_replaces_a_special_file(tmp_path: Path, kind: str) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    target = {"fifo": fifo, "directory": tmp_path, "link to fifo": tmp_path / "link"}[kind]
    if kind == "link to fifo":
        target.symlink_to(fifo)
    result = _run(*REPLAY, "--record-extenders", str(target))
    assert (result.exit_code, result.stdout) == (1, "")
    what = "a directory" if kind == "directory" else "a named pipe"
    assert result.stderr == (
        f"{target}: error: --record-extenders: {SPECIAL.format(what=what)}\n"
    )
    assert fifo.is_fifo()


def test_a_fifo_appearing_before_the_write_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "pipe"
    os.mkfifo(target)
    with pytest.raises(stub_module.KschedError) as caught:
        stub_module.write_atomically(target, "{}", "cannot write the extender recording")
    assert caught.value.render() == (
        f"{target}: error: cannot write the extender recording: "
        + SPECIAL.format(what="a named pipe")
    )
    assert target.is_fifo()
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_dash_records_to_standard_output_after_the_plan(tmp_path: Path) -> None:
    result = _run(*REPLAY, "--record-extenders", "-")
    assert result.exit_code in (0, 2), result.stderr
    plan = _plan_output()
    assert result.stdout.startswith(plan)
    recorded = json.loads(result.stdout[len(plan):])
    assert recorded == json.loads(Path(EXAMPLE + "stub.json").read_text())
    assert not Path("-").exists()


def test_diff_prints_its_output_before_a_failed_recording(tmp_path: Path) -> None:
    args = [
        "diff",
        "--base",
        EXAMPLE + "config.yaml",
        "--head",
        "default",
        EXAMPLE + "cluster.yaml",
        "--extender-mode",
        f"stub={EXAMPLE}stub.json",
    ]
    target = str(tmp_path / "missing" / "rec.json")
    result = _run(*args, "--record-extenders", target)
    assert result.exit_code == 1
    assert result.stdout == _run(*args).stdout != ""
    assert result.stderr.splitlines()[-1].startswith(f"{target}: error: cannot write")


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            "[]\n",
            "1:1: error: extender stub: expected an object "
            '{"<urlPrefix>/<verb>": [{"request": ..., "response": ...}]}, got a list',
        ),
        (
            '{"http://e/filter": {"request": 1}}\n',
            "1:2: error: extender stub: http://e/filter: expected a list of recorded calls, "
            "got an object",
        ),
        (
            '{\n  "http://e/filter": [\n    {"request": {}},\n    7\n  ]\n}\n',
            '4:5: error: extender stub: http://e/filter[1]: expected an object with "request" '
            'and "response" or "error", got a number',
        ),
        (
            '{"http://e/bind": [{"response": {}}]}\n',
            '1:20: error: extender stub: http://e/bind[0]: missing "request"',
        ),
        (
            '{"http://e/bind": [\n  {"request": {}, "error": {"code": 500}}\n]}\n',
            "2:19: error: extender stub: http://e/bind[0].error: expected a string, got an object",
        ),
        ('{"http://e/bind": [}\n', "1:20: error: extender stub: invalid JSON: Expecting value"),
    ],
)
def test_malformed_stub_files_are_one_line(tmp_path: Path, text: str, line: str) -> None:
    path = tmp_path / "stub.json"
    path.write_text(text)
    result = _run(*PLAN, "--extender-mode", f"stub={path}")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", f"{path}:{line}\n")


def test_a_directory_as_stub(tmp_path: Path) -> None:
    result = _run(*PLAN, "--extender-mode", f"stub={tmp_path}")
    assert (result.exit_code, result.stderr) == (
        1,
        f"{tmp_path}: error: extender stub: is a directory, expected a file\n",
    )


def test_a_recorded_reply_is_decoded_like_a_live_one(tmp_path: Path) -> None:
    recorded = json.loads(Path(EXAMPLE + "stub.json").read_text())
    for entries in recorded.values():
        for entry in entries:
            entry["response"] = {"NodeNames": 5}
    path = tmp_path / "stub.json"
    path.write_text(json.dumps(recorded))
    result = _run(*PLAN, "--extender-mode", f"stub={path}", "-o", "json")
    assert result.exit_code == 2
    messages = {p["message"] for p in json.loads(result.stdout)["pods"]}
    assert messages == {
        "json: cannot unmarshal number into Go struct field ExtenderFilterResult.NodeNames "
        "of type []string"
    }


def test_a_stub_nested_too_deeply(tmp_path: Path) -> None:
    path = tmp_path / "stub.json"
    path.write_text('{"http://e/f": [{"request": ' + "[" * 600 + "]" * 600 + "}]}")
    result = _run(*PLAN, "--extender-mode", f"stub={path}")
    assert (result.exit_code, result.stderr) == (
        1,
        f"{path}:1:526: error: extender stub: JSON nested deeper than 500 levels\n",
    )


def test_recording_a_skipped_extender_is_a_usage_error(tmp_path: Path) -> None:
    target = tmp_path / "rec.json"
    result = _run(*PLAN, "--extender-mode", "skip", "--record-extenders", str(target))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "error: --record-extenders: nothing to record with --extender-mode skip: "
        "no extender is called\n"
    )
    assert not target.exists()
