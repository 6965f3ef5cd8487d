"""``ksched validate``, ``ksched profiles`` and ``ksched plugins`` through click's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner, Result

from ksched_cli.cli.plugins_cmd import plugins
from ksched_cli.cli.profiles_cmd import profiles
from ksched_cli.cli.validate_cmd import validate
from ksched_cli.config.builtin import builtin_names
from ksched_cli.config.catalog import CATALOG

from .helpers import HEADER, write

INVALID_BODY = "parallelism: 0\n"


def run(*args: str) -> Result:
    return CliRunner().invoke(validate, list(args))


def test_valid_file_exits_0(tmp_path: Path) -> None:
    path = write(tmp_path, "percentageOfNodesToScore: 50\n")
    result = run(str(path))
    assert result.exit_code == 0
    assert result.stdout == f"{path}: valid\n"


def test_invalid_file_exits_1_with_located_problem(tmp_path: Path) -> None:
    path = write(tmp_path, INVALID_BODY)
    result = run(str(path))
    assert result.exit_code == 1
    message = "Invalid value: 0: should be an integer value greater than zero"
    expected = f"{path}:3:1: error: parallelism: {message}\n"
    assert result.stdout == expected


def test_many_files_and_builtin_names(tmp_path: Path) -> None:
    bad = write(tmp_path, INVALID_BODY, "bad.yaml")
    result = run("default", str(bad), "gang")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "default: valid"
    assert lines[1].startswith(f"{bad}:3:1: error: parallelism:")
    assert lines[2] == "gang: valid"


def test_warnings_do_not_fail(tmp_path: Path) -> None:
    path = write(tmp_path, "profiles:\n- pluginConfig:\n  - name: Foo\n")
    result = run(str(path))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f'{path}:5:5: warning: profiles[0].pluginConfig[0].name: plugin "Foo" does not exist; '
        "kube-scheduler v1.36 ignores args of unknown plugins",
        f"{path}: valid",
    ]


def test_json_output(tmp_path: Path) -> None:
    bad = write(tmp_path, INVALID_BODY)
    result = run("-o", "json", "default", str(bad))
    assert result.exit_code == 1
    assert json.loads(result.stdout) == [
        {"file": "default", "valid": True, "problems": []},
        {
            "file": str(bad),
            "valid": False,
            "problems": [
                {
                    "file": str(bad),
                    "line": 3,
                    "column": 1,
                    "field": "parallelism",
                    "severity": "error",
                    "message": "Invalid value: 0: should be an integer value greater than zero",
                }
            ],
        },
    ]


def test_print_effective_is_pure_yaml_on_stdout() -> None:
    result = run("--print-effective", "default", "bin-packing")
    assert result.exit_code == 0
    documents = list(yaml.safe_load_all(result.stdout))
    assert len(documents) == 2
    assert documents[1]["profiles"][0]["plugins"]["multiPoint"] == {"disabled": [{"name": "*"}]}


def test_print_effective_with_errors_goes_to_stderr(tmp_path: Path) -> None:
    path = write(tmp_path, INVALID_BODY)
    result = run("--print-effective", str(path))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "error: parallelism" in result.stderr


def test_json_with_effective() -> None:
    result = run("-o", "json", "--print-effective", "gang")
    payload = json.loads(result.stdout)
    assert payload[0]["effective"]["profiles"][0]["plugins"]["permit"] == {
        "enabled": [{"name": "Coscheduling"}]
    }


def _bad_input(tmp_path: Path, kind: str) -> tuple[str, str]:
    """(argument, expected single output line) for each kind of unusable input."""
    if kind == "missing":
        return str(tmp_path / "nope.yaml"), f"{tmp_path / 'nope.yaml'}: error: no such file"
    if kind == "directory":
        return str(tmp_path), f"{tmp_path}: error: is a directory, expected a file"
    if kind == "unknown-name":
        names = ", ".join(builtin_names())
        return (
            "nosuchprofile",
            f"nosuchprofile: error: no such file or built-in profile (built-in: {names})",
        )
    texts = {
        "syntax": (
            HEADER + "profiles: [\n",
            "4:1: error: invalid YAML: expected the node content, but found '<stream end>'",
        ),
        "empty": ("", ": error: empty file: expected a KubeSchedulerConfiguration"),
        "comments-only": (
            "# nothing here\n",
            ": error: empty file: expected a KubeSchedulerConfiguration",
        ),
        "list": (
            "- a\n- b\n",
            ":1:1: error: expected a KubeSchedulerConfiguration mapping, got a list",
        ),
        "scalar": (
            "hello\n",
            ":1:1: error: expected a KubeSchedulerConfiguration mapping, got a str",
        ),
        "two-documents": (
            HEADER + "---\n" + HEADER,
            ":4:1: error: expected one KubeSchedulerConfiguration document, found 2",
        ),
        "v1beta3": (
            "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n",
            ':1:1: error: apiVersion: Unsupported value: "kubescheduler.config.k8s.io/v1beta3": '
            'kube-scheduler v1.30 reads "kubescheduler.config.k8s.io/v1" only; '
            "convert older versions (v1beta2, v1beta3) to v1",
        ),
        "wrong-kind": (
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: Pod\n",
            ':2:1: error: kind: Unsupported value: "Pod": '
            'supported values: "KubeSchedulerConfiguration"',
        ),
    }
    text, suffix = texts[kind]
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    if kind == "syntax":
        suffix = ":" + suffix
    return str(path), f"{path}{suffix}"


@pytest.mark.parametrize(
    "kind",
    [
        "missing",
        "directory",
        "unknown-name",
        "syntax",
        "empty",
        "comments-only",
        "list",
        "scalar",
        "two-documents",
        "v1beta3",
        "wrong-kind",
    ],
)
def test_unusable_input_is_one_line_and_exit_1(tmp_path: Path, kind: str) -> None:
    argument, expected = _bad_input(tmp_path, kind)
    result = run(argument)
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout.splitlines() == [expected]
    assert "Traceback" not in result.output


def test_json_input_keeps_positions(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(
        '{\n\t"apiVersion": "kubescheduler.config.k8s.io/v1",\n'
        '\t"kind": "KubeSchedulerConfiguration",\n'
        '\t"profiles": [{"schedulerName": "a", "percentageOfNodesToScore": 101}]\n}\n',
        encoding="utf-8",
    )
    result = run(str(path))
    assert result.stdout == (
        f"{path}:4:38: error: profiles[0].percentageOfNodesToScore: "
        "Invalid value: 101: not in valid range [0-100]\n"
    )


def test_validate_help_teaches() -> None:
    result = CliRunner().invoke(validate, ["--help"])
    assert result.exit_code == 0
    assert "Examples:" in result.stdout and "--print-effective" in result.stdout
    assert "FILE:LINE:COL: error: FIELD.PATH: message" in result.stdout


def test_profiles_lists_builtins() -> None:
    result = CliRunner().invoke(profiles, [])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == builtin_names()
    assert all(len(line.split(None, 1)) == 2 for line in lines)  # every profile has a description
    rows = json.loads(CliRunner().invoke(profiles, ["-o", "json"]).stdout)
    assert [r["name"] for r in rows] == builtin_names()


def test_plugins_lists_the_catalog() -> None:
    result = CliRunner().invoke(plugins, ["--kubernetes-version", "1.30"])
    assert result.exit_code == 0
    names = [line.split()[0].lstrip("*") for line in result.stdout.splitlines()[1:]]
    # v1.30's registry: plugins of later releases are not listed.
    later = {"NodeDeclaredFeatures", "GangScheduling"}
    assert names == [n for n in CATALOG if n not in later]
    listed = CliRunner().invoke(plugins, ["-o", "json", "--kubernetes-version", "1.30"]).stdout
    rows = {r["name"]: r for r in json.loads(listed)}
    assert rows["TaintToleration"]["extensionPoints"] == ["filter", "preScore", "score"]
    assert rows["TaintToleration"]["defaultWeight"] == 3
    assert rows["Coscheduling"]["extensionPoints"] == [
        "queueSort",
        "preFilter",
        "postFilter",
        "reserve",
        "permit",
    ]
    assert rows["Coscheduling"]["argsKind"] == "CoschedulingArgs"


@pytest.mark.parametrize(
    ("version", "present", "absent", "defaults"),
    [
        ("1.30", {"EBSLimits", "CinderLimits", "DynamicResources"},
         {"NodeDeclaredFeatures", "GangScheduling"}, {"EBSLimits"}),
        ("1.32", {"DynamicResources"},
         {"EBSLimits", "CinderLimits", "NodeDeclaredFeatures", "GangScheduling"}, set()),
        ("1.36", {"NodeDeclaredFeatures", "GangScheduling", "DynamicResources"},
         {"EBSLimits", "CinderLimits"}, {"NodeDeclaredFeatures", "DynamicResources"}),
    ],
)
def test_plugins_per_release(
    version: str, present: set[str], absent: set[str], defaults: set[str]
) -> None:
    """The release's registry, `*` on its default profile (DynamicResources weight 2 from
    v1.34); GangScheduling is registered from v1.35 but never a default."""
    result = CliRunner().invoke(plugins, ["-o", "json", "--kubernetes-version", version])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads(result.stdout)}
    assert present <= set(rows) and not absent & set(rows)
    assert defaults <= {n for n, r in rows.items() if r["inDefaultProfile"]}
    assert not rows["Coscheduling"]["inDefaultProfile"]
    if version == "1.36":
        assert rows["DynamicResources"]["defaultWeight"] == 2
        assert rows["GangScheduling"]["extensionPoints"] == ["preEnqueue", "reserve", "permit"]
        assert not rows["GangScheduling"]["inDefaultProfile"]
