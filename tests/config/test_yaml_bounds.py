"""Hostile configuration YAML ends at once with one positioned line, in every command."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ksched_cli.cli.main import _register, cli
from ksched_cli.config.yaml_bounds import allowed_alias_ratio

from ..manifests.helpers import docs, node, pod, write
from .helpers import HEADER, check, findings


def laughs(levels: int, fanout: int = 10) -> str:
    """A billion-laughs body: each level lists ``fanout`` aliases of the one below."""
    text = "a0: &a0 [lol]\n"
    for i in range(1, levels + 1):
        text += f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * fanout) + "]\n"
    return text


def _cli(*args: str) -> tuple[int, str, str]:
    _register()
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


def test_go_yaml_alias_ratio_table() -> None:
    assert allowed_alias_ratio(1000) == 0.99
    assert allowed_alias_ratio(400_000) == 0.99
    assert allowed_alias_ratio(4_000_000) == 0.10
    assert allowed_alias_ratio(2_200_000) == pytest.approx(0.545)


@pytest.mark.parametrize(
    ("levels", "expected"),
    [
        # go-yaml v3 decodes three levels of ten (1,111 scalars) and refuses four.
        (3, ['3:1 error a0: unknown field "a0"']),
        (4, ["7:10 error None: invalid YAML: document contains excessive aliasing"]),
        (9, ["7:10 error None: invalid YAML: document contains excessive aliasing"]),
    ],
)
def test_alias_expansion_is_bounded_like_go_yaml(
    tmp_path: Path, levels: int, expected: list[str]
) -> None:
    started = time.monotonic()
    assert findings(check(tmp_path, laughs(levels)))[: len(expected)] == expected
    assert time.monotonic() - started < 2


def test_merge_keys_count_like_aliases(tmp_path: Path) -> None:
    body = "base: &b {x: 1}\nuse:\n  <<: *b\n"
    assert findings(check(tmp_path, body))[0] == '3:1 error base: unknown field "base"'


def test_an_anchor_holding_itself(tmp_path: Path) -> None:
    assert findings(check(tmp_path, "profiles: &p [*p]\n")) == [
        "3:15 error None: invalid YAML: anchor 'p' value contains itself"
    ]


def test_nesting_is_capped(tmp_path: Path) -> None:
    body = "profiles: " + "[" * 150 + "]" * 150 + "\n"
    assert findings(check(tmp_path, body)) == [
        "3:110 error None: invalid YAML: nesting deeper than 100 levels"
    ]


def test_billion_laughs_in_validate_plan_and_diff(tmp_path: Path) -> None:
    config = tmp_path / "lol.yaml"
    config.write_text(HEADER + laughs(9, 9))
    write(tmp_path, {"cluster/all.yaml": docs(node("a"), pod("web", "default"))})
    line = f"{config}:7:10: error: invalid YAML: document contains excessive aliasing\n"
    cluster = str(tmp_path / "cluster")
    runs = [
        ("validate", str(config)),
        ("plan", cluster, "--config", str(config)),
        ("diff", "--base", str(config), "--head", "default", cluster),
        ("diff", "--config", str(config), cluster),
    ]
    for args in runs:
        started = time.monotonic()
        code, out, err = _cli(*args)
        # validate reports problems on stdout (its output); plan and diff on stderr.
        assert (code, out + err) == (1, line), args
        assert time.monotonic() - started < 2


RTCR_MISSING = {
    # v1.30-1.35 do not validate it (kube-scheduler crashes at start-up); ksched refuses it.
    "1.35": "type RequestedToCapacityRatio needs requestedToCapacityRatio.shape (v1.30 has no "
    "default: kube-scheduler crashes at start-up without it)",
    # v1.36.2 ValidateNodeResourcesFitArgs.
    "1.36": "must be specified when type is RequestedToCapacityRatio",
}


@pytest.mark.parametrize("version", ["1.35", "1.36"])
def test_rtcr_without_shape_is_refused_by_validate_and_plan(tmp_path: Path, version: str) -> None:
    config = tmp_path / "rtcr.yaml"
    config.write_text(
        HEADER + "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
        "      scoringStrategy:\n        type: RequestedToCapacityRatio\n"
    )
    write(tmp_path, {"cluster/all.yaml": docs(node("a"), pod("web", "default"))})
    line = (
        f"{config}:7:7: error: profiles[0].pluginConfig[0].args.scoringStrategy."
        f"requestedToCapacityRatio: Required value: {RTCR_MISSING[version]}\n"
    )
    release = ("--kubernetes-version", version)
    code, out, _ = _cli("validate", str(config), *release)
    assert (code, out) == (1, line)
    plan = _cli("plan", str(tmp_path / "cluster"), "--config", str(config), *release)
    assert plan == (1, "", line)


def test_rtcr_with_an_empty_shape_keeps_v130_wording(tmp_path: Path) -> None:
    body = (
        "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
        "      scoringStrategy:\n        type: RequestedToCapacityRatio\n"
        "        requestedToCapacityRatio: {}\n"
    )
    assert findings(check(tmp_path, body)) == [
        "9:9 error profiles[0].pluginConfig[0].args.scoringStrategy.shape: "
        "Required value: at least one point must be specified"
    ]


def test_non_printable_characters_stay_on_one_line(tmp_path: Path) -> None:
    # U+0085 (NEL) breaks lines for many readers; Go's %q escapes it, and so does ksched.
    config = tmp_path / "config.yaml"
    config.write_text(HEADER + '"\\x85": 1\n')
    code, out, _ = _cli("validate", str(config))
    assert code == 1
    assert out.splitlines() == out.split("\n")[:-1]  # no line break but the final one
    assert '"\\u0085"' in out
