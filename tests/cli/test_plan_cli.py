"""``ksched plan`` through click's CliRunner: exit codes, one-line errors, tie breaks, help."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ksched_cli.cli.main import _register, cli
from ksched_cli.cli.plan_cmd import plan

from ..manifests.helpers import docs, node, pod, write
from .helpers import run

PROFILE_HEADER = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
UNKNOWN_PLUGIN = PROFILE_HEADER + """profiles:
- schedulerName: default-scheduler
  plugins:
    filter:
      enabled:
      - name: NoSuchPlugin
"""
QUANTITY = (
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
)


def plan_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str],
            *args: str) -> Result:
    """Write ``files`` under tmp_path and plan there, so error lines name relative paths."""
    write(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(plan, list(args))


# --- exit codes --------------------------------------------------------------------------

def test_exit_0_when_every_pending_pod_is_scheduled(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, "examples/basic")
    assert result.exit_code == 0
    assert "(Scheduled: 4)" in result.stdout


@pytest.mark.parametrize(
    ("spec", "outcome"),
    [
        ("  nodeSelector: {disk: none}\n", "Unschedulable"),
        ("  schedulingGates:\n  - name: example.com/hold\n", "Gated"),
    ],
    ids=["unschedulable", "gated"],
)
def test_exit_2_when_some_pending_pod_is_not_scheduled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spec: str, outcome: str
) -> None:
    cluster = docs(node("n1"), pod("ok"), pod("stuck", spec=spec))
    result = plan_in(tmp_path, monkeypatch, {"c.yaml": cluster}, "c.yaml")
    assert result.exit_code == 2, result.output
    assert f"default/stuck  {outcome}" in result.stdout
    assert "default/ok     Scheduled" in result.stdout


def test_pods_for_other_schedulers_are_skipped_with_exit_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A snapshot holds pods of every scheduler: those no profile serves are not failures.
    stuck = pod("other", spec="  schedulerName: other-scheduler\n")
    result = plan_in(tmp_path, monkeypatch, {"c.yaml": docs(node("n1"), pod("ok"), stuck)},
                     "c.yaml")
    assert result.exit_code == 0, result.output
    assert 'default/other  Skipped    <none>  no profile has schedulerName "other-scheduler"' in (
        result.stdout)


def test_nothing_pending_is_exit_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = plan_in(tmp_path, monkeypatch, {"c.yaml": node("n1")}, "c.yaml")
    assert result.exit_code == 0
    assert "0 decision(s) on 1 node(s)" in result.stdout


# --- input and configuration errors: one line on stderr, nothing on stdout, exit 1 -------

ERRORS: list[tuple[str, dict[str, str], list[str], str]] = [
    (
        "malformed-yaml",
        {"c.yaml": docs(node("n1"), "kind: Pod\nspec: [a\n")},
        ["c.yaml"],
        "c.yaml:11:1: error: document 2: invalid YAML: did not find expected ',' or ']'",
    ),
    (
        "pod-without-containers",
        {"c.yaml": "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers: []\n"},
        ["c.yaml"],
        "c.yaml:6:3: error: Pod default/p (document 1): spec.containers: Required value: "
        "a pod needs at least one container",
    ),
    (
        "unparsable-quantity",
        {"c.yaml": docs(node("n1"), pod("web").replace("cpu: 100m", "cpu: lots"))},
        ["c.yaml"],
        "c.yaml:17:18: error: Pod default/web (document 2): "
        f"spec.containers[0].resources.requests.cpu: {QUANTITY}: 'lots'",
    ),
    (
        "unknown-priority-class",
        {"c.yaml": docs(node("n1"), pod("web", spec="  priorityClassName: gold\n"))},
        ["c.yaml"],
        'c.yaml:18:3: error: Pod default/web (document 2): spec.priorityClassName: pods "web" '
        "is forbidden: no PriorityClass with name gold was found",
    ),
    (
        "duplicate-names",
        {"a.yaml": docs(node("n1"), pod("web")), "b.yaml": pod("web")},
        ["a.yaml", "b.yaml"],
        'b.yaml:4:3: error: Pod default/web (document 1): metadata.name: Duplicate value: '
        '"default/web": already defined at a.yaml:12:3',
    ),
    (
        "missing-path",
        {"c.yaml": node("n1")},
        ["c.yaml", "nope.yaml"],
        "nope.yaml: error: no such file or directory",
    ),
    (
        "directory-without-manifests",
        {"empty/README.md": "# nothing here\n"},
        ["empty"],
        "empty: error: no *.yaml, *.yml or *.json files to read",
    ),
    (
        "nothing-to-plan",
        {"profile.yaml": PROFILE_HEADER},
        ["profile.yaml"],
        "profile.yaml: error: nothing to plan: no Node or Pod objects",
    ),
    (
        "unknown-builtin-profile",
        {"c.yaml": node("n1")},
        ["c.yaml", "--config", "fastest"],
        "fastest: error: no such file or built-in profile "
        "(built-in: bin-packing, default, gang, spread)",
    ),
    (
        "invalid-profile",
        {"c.yaml": node("n1"), "p.yaml": UNKNOWN_PLUGIN},
        ["c.yaml", "--config", "p.yaml"],
        'p.yaml:8:9: error: profiles[0].plugins.filter.enabled[0]: FilterPlugin "NoSuchPlugin" '
        "does not exist",
    ),
    (
        "explain-pod-unknown",
        {"c.yaml": docs(node("n1"), pod("web-0"))},
        ["c.yaml", "--explain-pod", "default/web-9"],
        "error: --explain-pod: no pod default/web-9 in the input (did you mean default/web-0?)",
    ),
    (
        "explain-pod-in-another-namespace",
        {"c.yaml": docs(node("n1"), pod("web-0", namespace="ops"))},
        ["c.yaml", "--explain-pod", "web-0"],
        "error: --explain-pod: no pod default/web-0 in the input (did you mean ops/web-0?)",
    ),
]


@pytest.mark.parametrize(
    ("files", "args", "expected"), [c[1:] for c in ERRORS], ids=[c[0] for c in ERRORS]
)
def test_error_is_one_line_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str], args: list[str],
    expected: str,
) -> None:
    result = plan_in(tmp_path, monkeypatch, files, *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == expected + "\n"
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    "args",
    [["examples/basic", "-o", "tabel"], [], ["examples/basic", "--seed", "x"]],
    ids=["bad-choice", "no-path", "bad-int"],
)
def test_usage_errors_exit_1_not_2(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    # 2 means "some pod was not scheduled"; a usage error must not look like a plan result.
    result = run(monkeypatch, *args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "Error:" in result.stderr


def test_explain_pod_of_a_running_pod(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run(monkeypatch, "examples/basic", "--explain-pod", "default/db-0")
    assert result.exit_code == 0
    # Only the pod's story: no placement table first.
    assert result.stdout == "Pod default/db-0: Running on node-a; this plan did not move it\n"


def test_warnings_go_to_stderr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {"c.yaml": docs(node("n1"), "apiVersion: v1\nkind: ConfigMap\n"),
             "empty/notes.txt": "x\n"}
    result = plan_in(tmp_path, monkeypatch, files, "c.yaml", "empty")
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        "warning: empty: no *.yaml, *.yml or *.json files in this directory",
        "warning: ignoring 1 object(s) of kinds ksched does not read: ConfigMap (1)",
    ]


# --- tie breaks --------------------------------------------------------------------------

def _random(monkeypatch: pytest.MonkeyPatch, seed: int) -> str:
    result = run(monkeypatch, "examples/zone-spread", "-o", "json", "--explain",
                 "--tie-break", "random", "--seed", str(seed))
    assert result.exit_code == 0
    return result.stdout


def test_random_tie_break_is_reproducible_for_equal_seeds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _random(monkeypatch, 7) == _random(monkeypatch, 7)


def test_random_tie_break_depends_on_the_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    # zone-spread ties on every attempt, so seeds 1..3 cannot all place pods alike under
    # v1.30's random selectHost. From v1.35 only extender-scored nodes draw a Randomizer,
    # so without extenders every seed places the pods alike.
    monkeypatch.setenv("KSCHED_KUBERNETES_VERSION", "1.30")
    assert len({_random(monkeypatch, seed) for seed in (1, 2, 3)}) > 1
    monkeypatch.setenv("KSCHED_KUBERNETES_VERSION", "1.36")
    assert len({_random(monkeypatch, seed) for seed in (1, 2, 3)}) == 1


def test_lowest_name_is_the_default_tie_break(monkeypatch: pytest.MonkeyPatch) -> None:
    default = run(monkeypatch, "examples/zone-spread", "-o", "json").stdout
    explicit = run(monkeypatch, "examples/zone-spread", "-o", "json", "--tie-break",
                   "lowest-name").stdout
    assert default == explicit


# --- help --------------------------------------------------------------------------------

def test_top_level_help_mentions_the_examples() -> None:
    _register()
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    assert "ksched plan examples/basic" in result.stdout
    for command in ("plan", "validate", "diff", "profiles", "plugins", "examples"):
        assert f"  {command} " in result.stdout


def test_plan_help_mentions_the_examples() -> None:
    _register()
    result = CliRunner().invoke(cli, ["plan", "--help"])
    assert result.exit_code == 0
    assert "examples/" in result.stdout
    assert "ksched plan examples/gang --config gang" in result.stdout
    assert "Exit codes: 0" in result.stdout


def test_the_entry_point_accepts_short_help() -> None:
    # A real process: click caches a command's help option per command object, so -h
    # (set on the group) cannot be checked after other tests invoked ``plan`` directly.
    entry = "from ksched_cli.cli.main import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", entry, "plan", "-h"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: ")


def test_skipped_extenders_are_said_loudly(tmp_path: Path) -> None:
    profile = tmp_path / "profile.yaml"
    profile.write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
        "kind: KubeSchedulerConfiguration\n"
        "extenders:\n"
        "- urlPrefix: http://127.0.0.1:8888\n"
        "  filterVerb: filter\n"
    )
    args = ["plan", "examples/basic", "--config", str(profile), "--extender-mode", "skip"]
    result = CliRunner().invoke(cli, args)
    notice = "extenders skipped (--extender-mode skip): the 1 configured extender(s)"
    assert f"warning: {notice}" in result.stderr
    assert result.stdout.startswith(f"WARNING: {notice}")


def test_bad_extender_mode_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["plan", "examples/basic", "--extender-mode", "stub"])
    assert result.exit_code == 1
    assert "expected call, skip or stub=FILE" in result.stderr
