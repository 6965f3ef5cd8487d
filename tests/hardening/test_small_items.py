"""Issue 25 item 11: deep JSON stubs with a position, unreadable inputs in one line, and two
API server rules (annotations' total size, an empty nodeSelectorTerms)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from ksched_cli import readers

from .helpers import NODE, POD, REPO, ksched, one_error, write

V130 = ("--kubernetes-version", "1.30")
EXAMPLE = str(REPO / "examples/extender")


def test_a_deep_stub_file_names_line_and_column(tmp_path: Path) -> None:
    stub = write(tmp_path, "deep.json", '{"a":\n ' + "[" * 2000 + "]" * 2000 + "}")
    line = one_error(ksched("plan", f"{EXAMPLE}/cluster.yaml", "-c", f"{EXAMPLE}/config.yaml",
                            "--extender-mode", f"stub={stub}"))
    assert line == f"{stub}:2:501: error: extender stub: JSON nested deeper than 500 levels"


def test_a_deep_manifest_names_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, "deep.json", "[" * 2000 + "]" * 2000)
    assert one_error(ksched("plan", path)) == (
        f"{path}:1:1001: error: document 1: nested more than 1000 levels deep"
    )


def _denied(monkeypatch: pytest.MonkeyPatch, victim: str) -> None:
    """As a non-root user meets a mode-000 file (tests run as root, who reads anything)."""
    real_open = os.open

    def deny(path: object, *args: object, **kwargs: object) -> int:
        if str(path) == victim:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(readers.os, "open", deny)
    monkeypatch.setattr(os, "access", lambda *args, **kwargs: False)  # click's check, if any


@pytest.mark.parametrize(
    "command",
    [
        ["plan", "{f}"],
        ["plan", "{node}", "-c", "{f}"],
        ["capacity", "{f}", "{node}"],
        ["simulate", "{f}", "{node}"],
        ["diff", "--base", "default", "--head", "default", "{f}"],
        ["validate", "{f}"],
    ],
)
def test_an_unreadable_input_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    victim = write(tmp_path, "in.yaml", POD)
    node = write(tmp_path, "node.yaml", NODE)
    _denied(monkeypatch, victim)
    result = ksched(*[part.format(f=victim, node=node) for part in command])
    assert result.exit_code == 1
    assert result.output.strip() == f"{victim}: error: cannot read: Permission denied"


def _pod(meta: str = "", spec: str = "") -> str:
    return POD.replace("metadata: {name: p}", "metadata:\n  name: p\n" + meta).replace(
        "spec:\n", "spec:\n" + spec)


REQUIRED = "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
NO_TERM = "Required value: must have at least one node selector term"
AFFINITY = (
    "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
    "        {terms}\n"
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(_pod(meta=f"  annotations: {{a: '{'x' * (256 * 1024)}'}}\n"),
                     [":5:3: error: Pod default/p (document 1): metadata.annotations: "
                      "Too long: must have at most 262144 bytes"], id="annotations-too-long"),
        # Bytes, not characters: 65,537 four-byte characters are more than 256 KiB.
        pytest.param(_pod(meta=f"  annotations: {{b: '{chr(0x1F600) * 65536}'}}\n"),
                     [":5:3: error: Pod default/p (document 1): metadata.annotations: "
                      "Too long: must have at most 262144 bytes"], id="annotations-utf8-bytes"),
        pytest.param(_pod(spec=AFFINITY.format(terms="nodeSelectorTerms: []")),
                     [f":10:9: error: Pod default/p (document 1): {REQUIRED}.nodeSelectorTerms: "
                      f"{NO_TERM}"], id="empty-terms"),
        pytest.param(_pod(spec=AFFINITY.format(terms="{}")),
                     [f":9:7: error: Pod default/p (document 1): {REQUIRED}.nodeSelectorTerms: "
                      f"{NO_TERM}"], id="no-terms"),
    ],
)
def test_api_server_rules(tmp_path: Path, text: str, expected: list[str]) -> None:
    path = write(tmp_path, "pod.yaml", text)
    result = ksched("plan", path, *V130)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [path + line for line in expected]


# field.TooLong's words per release: apimachinery v0.32 reworded it (errors.go TooLong).
TOO_LONG = {"1.30": "must have at most 262144 bytes", "1.31": "must have at most 262144 bytes",
            **dict.fromkeys(("1.32", "1.33", "1.34", "1.35", "1.36"),
                            "may not be more than 262144 bytes")}


@pytest.mark.parametrize("release", sorted(TOO_LONG))
def test_annotations_too_long_in_each_release_words(tmp_path: Path, release: str) -> None:
    text = _pod(meta=f"  annotations: {{a: '{'x' * (256 * 1024)}'}}\n")
    path = write(tmp_path, "pod.yaml", text + "---\n" + NODE)
    result = ksched("plan", path, "--kubernetes-version", release)
    assert result.exit_code == 1
    assert result.stderr == (f"{path}:5:3: error: Pod default/p (document 1): "
                             f"metadata.annotations: Too long: {TOO_LONG[release]}\n")


def test_annotations_too_long_in_a_template(tmp_path: Path) -> None:
    # The pod template's metadata is checked the same way, in the selected release's words.
    big = "x" * (256 * 1024)
    text = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 1\n"
            "  selector: {matchLabels: {a: b}}\n  template:\n"
            f"    metadata: {{labels: {{a: b}}, annotations: {{a: '{big}'}}}}\n"
            "    spec: {containers: [{name: c, image: x}]}\n")
    path = write(tmp_path, "d.yaml", text + "---\n" + NODE)
    result = ksched("plan", path, "--kubernetes-version", "1.33")
    assert result.exit_code == 1
    assert result.stderr.endswith(
        "spec.template.metadata.annotations: Too long: may not be more than 262144 bytes\n")


def test_annotations_at_the_limit_are_accepted(tmp_path: Path) -> None:
    # Keys and values count: "a" plus 262,143 characters is exactly 262,144 bytes.
    text = _pod(meta=f"  annotations: {{a: '{'x' * (256 * 1024 - 1)}'}}\n")
    path = write(tmp_path, "pod.yaml", text + "---\n" + NODE)
    assert ksched("plan", path, *V130).exit_code == 0
