"""Reproducers of issues 12 (item 5) and 13 (items 5, 6, 8): one clear line each, exit 1.

Each case writes files under tmp_path, runs ``ksched plan`` there through CliRunner
and compares stderr line for line, so the file, line, column, object, field path and
the API server's wording are all pinned.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from ksched_cli import readers
from ksched_cli.cli.plan_cmd import plan

from .helpers import docs, node, write

REGEX = "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
QUANTITY = f"quantities must match the regular expression {REGEX}"
SUBDOMAIN = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
    "or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
    r"used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)
LABEL_VALUE = (
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'MyValue', or 'my_value', "
    "or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
).replace("'MyValue', or 'my_value', or", "'MyValue',  or 'my_value',  or")


def plan_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str],
            *args: str) -> Result:
    write(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(plan, list(args) or ["."])


def errors(result: Result) -> list[str]:
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stdout == ""
    return result.stderr.splitlines()


def pod_yaml(name: str = "p", spec: str = "", resources: str = "", meta: str = "") -> str:
    return (
        f"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n{meta}spec:\n{spec}"
        f"  containers:\n  - name: c\n{resources}"
    )


REQUESTS = "    resources:\n      requests:\n"


# --- issue 13 item 5: tracebacks on input ----------------------------------------------------

def test_pods_beyond_int64_in_node_allocatable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = node("n1").replace('pods: "110"', 'pods: "99999999999999999999"')
    result = plan_in(tmp_path, monkeypatch, {"n.yaml": text})
    assert errors(result) == [
        'n.yaml:7:40: error: Node n1 (document 1): status.allocatable.pods: Invalid value: '
        '"99999999999999999999": must be no more than 9223372036854775807 (int64, as '
        "kube-scheduler counts pods)"
    ]


def test_cpu_beyond_int64_millicores_in_a_running_pod(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    huge = REQUESTS + '        cpu: "99999999999999999"\n'
    pod = pod_yaml(spec="  nodeName: n1\n", resources=huge)
    result = plan_in(tmp_path, monkeypatch, {"c.yaml": docs(node("n1"), pod)})
    assert errors(result) == [
        "c.yaml:19:9: error: Pod default/p (document 2): spec.containers[0].resources.requests.cpu:"
        ' Invalid value: "99999999999999999": must be no more than 9223372036854775807m (int64 '
        "millicores, as kube-scheduler counts cpu)"
    ]


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        # YAML: go-yaml v2 reads a float, which sigs.k8s.io/yaml's json.Marshal refuses.
        ("nan.yaml", pod_yaml(resources=REQUESTS + "        cpu: .nan\n"),
         "10:14: error: document 1: invalid YAML: json: unsupported value: NaN"),
        ("inf.yaml", pod_yaml(resources=REQUESTS + "        memory: -.inf\n"),
         "10:17: error: document 1: invalid YAML: json: unsupported value: -Inf"),
        (
            "nan.json",
            '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": '
            '{"containers": [{"name": "c", "resources": {"requests": {"cpu": NaN}}}]}}',
            "1:129: error: Pod default/p (document 1): spec.containers[0].resources.requests.cpu: "
            f"{QUANTITY}: nan",
        ),
    ],
    ids=["yaml-nan", "yaml-inf", "json-nan"],
)
def test_not_a_number_quantities(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, expected: str
) -> None:
    result = plan_in(tmp_path, monkeypatch, {name: text})
    assert errors(result) == [f"{name}:{expected}"]


def test_scalars_where_affinity_objects_belong(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = '  affinity:\n    podAffinity: ""\n    nodeAffinity: x\n'
    result = plan_in(tmp_path, monkeypatch, {"a.yaml": pod_yaml(spec=spec)})
    assert errors(result) == [
        "a.yaml:7:5: error: Pod default/p (document 1): spec.affinity.podAffinity: "
        "expected an object, got string",
        "a.yaml:8:5: error: Pod default/p (document 1): spec.affinity.nodeAffinity: "
        "expected an object, got string",
    ]


def test_json_nested_a_thousand_levels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = plan_in(tmp_path, monkeypatch, {"deep.json": '{"a":' * 1000 + "1" + "}" * 1000})
    assert errors(result) == ["deep.json: error: nested too deeply for Python's JSON decoder"]


def test_yaml_nested_beyond_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = plan_in(tmp_path, monkeypatch, {"deep.yaml": "[" * 1500 + "]" * 1500})
    assert errors(result) == [
        "deep.yaml:1:1001: error: document 1: nested more than 1000 levels deep"
    ]


@pytest.mark.parametrize(
    ("reader", "text", "where"),
    [
        ("fast", "[" * 1500 + "]" * 1500, "1:1001"),
        # An anchor sends the document past the fast reader to the event scan.
        ("scan", "&a " + "[" * 1500 + "]" * 1500, "1:1004"),
    ],
    ids=["fast", "scan"],
)
def test_libyaml_own_nesting_limit_reads_as_ksched_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reader: str, text: str, where: str
) -> None:
    """libyaml 0.2.6 (PyYAML 6.0.4's wheels) stops at 1,000 levels itself: the same
    message, whichever limit is met first and whichever reader meets it."""
    from yaml.error import Mark
    from yaml.scanner import ScannerError

    from ksched_cli.manifests import fastyaml, yamlscan

    owner, name = (fastyaml, "_Parser") if reader == "fast" else (yamlscan, "FAST_LOADER")
    real = getattr(owner, name)
    column = int(where.split(":")[1]) - 1

    class Limited(real):  # type: ignore[misc, valid-type]
        def get_event(self) -> object:
            event = super().get_event()
            if getattr(event, "start_mark", None) and event.start_mark.column >= column:
                mark = Mark("<unicode string>", column, 0, column, None, None)
                raise ScannerError("while increasing flow level", mark,
                                   fastyaml.LIBYAML_TOO_DEEP, mark)
            return event

    monkeypatch.setattr(owner, name, Limited)
    result = plan_in(tmp_path, monkeypatch, {"deep.yaml": text})
    assert errors(result) == [f"deep.yaml:{where}: error: document 1: nested more than 1000 "
                              "levels deep"]


def test_a_symlink_loop_in_a_directory_is_skipped_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "loop").mkdir()
    os.symlink("b.yaml", tmp_path / "loop" / "a.yaml")
    os.symlink("a.yaml", tmp_path / "loop" / "b.yaml")
    result = plan_in(tmp_path, monkeypatch, {"loop/n.yaml": docs(node("n1"), pod_yaml())})
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[:2] == [
        "warning: loop/a.yaml: skipped: symbolic link loop",
        "warning: loop/b.yaml: skipped: symbolic link loop",
    ]


def test_a_named_symlink_loop_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    os.symlink("b.yaml", tmp_path / "a.yaml")
    os.symlink("a.yaml", tmp_path / "b.yaml")
    result = plan_in(tmp_path, monkeypatch, {}, "a.yaml")
    assert errors(result) == ["a.yaml: error: cannot read: symbolic link loop"]


# --- issue 13 item 6: wrong plans from invalid objects ---------------------------------------

def test_negative_requests_are_rejected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    running = pod_yaml("r", spec="  nodeName: n1\n", resources=REQUESTS + '        cpu: "-4"\n')
    result = plan_in(tmp_path, monkeypatch, {"c.yaml": docs(node("n1"), running)})
    assert errors(result) == [
        "c.yaml:19:9: error: Pod default/r (document 2): spec.containers[0].resources.requests.cpu:"
        ' Invalid value: "-4": must be greater than or equal to 0'
    ]


def test_requests_above_limits_are_rejected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    resources = REQUESTS + '        cpu: "2"\n      limits:\n        cpu: "1"\n'
    result = plan_in(tmp_path, monkeypatch, {"p.yaml": pod_yaml(resources=resources)})
    assert errors(result) == [
        "p.yaml:10:9: error: Pod default/p (document 1): spec.containers[0].resources.requests.cpu:"
        ' Invalid value: "2": must be less than or equal to cpu limit of 1'
    ]


def test_duplicate_keys_in_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = pod_yaml(resources="    image: a\n    image: b\n").replace(
        "  name: p\n", "  name: p\n  name: q\n"
    )
    result = plan_in(tmp_path, monkeypatch, {"d.yaml": text})
    assert errors(result) == [
        'd.yaml:5:3: error: Pod default/q (document 1): metadata.name: duplicate field '
        '"metadata.name"',
        'd.yaml:10:5: error: Pod default/q (document 1): spec.containers[0].image: '
        'duplicate field "spec.containers[0].image"',
    ]


def test_duplicate_keys_in_a_json_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    item = '{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "name": "q"}, ' \
        '"spec": {"containers": [{"name": "c"}]}}'
    text = '{"apiVersion": "v1", "kind": "List", "items": [' + item + "]}"
    result = plan_in(tmp_path, monkeypatch, {"d.json": text})
    assert errors(result) == [
        'd.json:1:110: error: Pod default/q (document 1): items[0].metadata.name: '
        'duplicate field "metadata.name"'
    ]


def test_duplicate_keys_with_anchors_take_the_standard_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = pod_yaml(meta="  labels: &l {app: x}\n  annotations: {a: b}\n  labels: *l\n")
    result = plan_in(tmp_path, monkeypatch, {"a.yaml": text})
    assert errors(result) == [
        'a.yaml:7:3: error: Pod default/p (document 1): metadata.labels: '
        'duplicate field "metadata.labels"'
    ]


def test_names_and_labels_follow_the_api_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    long_value = "v" * 64
    text = pod_yaml("Web_1", meta=f"  labels: {{app: {long_value}}}\n")
    result = plan_in(tmp_path, monkeypatch, {"n.yaml": text})
    assert errors(result) == [
        f'n.yaml:4:3: error: Pod default/Web_1 (document 1): metadata.name: Invalid value: '
        f'"Web_1": {SUBDOMAIN}',
        f'n.yaml:5:3: error: Pod default/Web_1 (document 1): metadata.labels: Invalid value: '
        f'"{long_value}": must be no more than 63 characters',
    ]


def test_a_list_among_label_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = plan_in(tmp_path, monkeypatch, {"l.yaml": pod_yaml(meta="  labels: {zone: []}\n")})
    assert errors(result) == [
        "l.yaml:5:12: error: Pod default/p (document 1): metadata.labels.zone: "
        "expected a string, got list"
    ]


def test_label_value_characters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = pod_yaml(spec='  nodeSelector: {disk: "fast ssd"}\n')
    result = plan_in(tmp_path, monkeypatch, {"s.yaml": text})
    assert errors(result) == [
        f's.yaml:6:3: error: Pod default/p (document 1): spec.nodeSelector: Invalid value: '
        f'"fast ssd": {LABEL_VALUE}'
    ]


# --- issue 12 item 5: typos are errors ------------------------------------------------------

def test_unknown_fields_are_all_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    typo = pod_yaml(spec="  nodeselector: {disk: ssd}\n", resources="    resource: {}\n")
    other = node("n1").replace("metadata:\n", "metadata:\n  lables: {a: b}\n")
    result = plan_in(tmp_path, monkeypatch, {"a.yaml": typo, "b.yaml": other})
    assert errors(result) == [
        'a.yaml:6:3: error: Pod default/p (document 1): spec.nodeselector: '
        'unknown field "spec.nodeselector"',
        'a.yaml:9:5: error: Pod default/p (document 1): spec.containers[0].resource: '
        'unknown field "spec.containers[0].resource"',
        'b.yaml:4:3: error: Node n1 (document 1): metadata.lables: '
        'unknown field "metadata.lables"',
    ]


def test_status_and_managed_fields_are_not_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    meta = "  managedFields:\n  - manager: kubectl\n    anything: 1\n"
    text = pod_yaml(meta=meta) + "status:\n  phase: Pending\n  future: {x: 1}\n"
    result = plan_in(tmp_path, monkeypatch, {"p.yaml": docs(node("n1"), text)})
    assert result.exit_code == 0, result.output


def test_the_problem_list_is_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pods = [pod_yaml(f"p{i}", resources="    resource: {}\n") for i in range(103)]
    result = plan_in(tmp_path, monkeypatch, {"many.yaml": docs(*pods)})
    lines = errors(result)
    assert len(lines) == 101
    assert lines[-1] == "error: 3 more problem(s) not shown"


# --- issue 13 item 8: unbounded reads -------------------------------------------------------

@pytest.mark.parametrize("via_link", [False, True], ids=["device", "link-to-device"])
def test_dev_zero_is_refused_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, via_link: bool
) -> None:
    target = "/dev/zero"
    if via_link:
        os.symlink("/dev/zero", tmp_path / "zero.yaml")
        target = "zero.yaml"
    result = plan_in(tmp_path, monkeypatch, {}, target)
    assert errors(result) == [
        f"{target}: error: not a regular file (a character device): ksched reads regular "
        "files, or - for standard input"
    ]


def test_a_named_pipe_is_refused_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    result = plan_in(tmp_path, monkeypatch, {}, "pipe.yaml")
    assert errors(result) == [
        "pipe.yaml: error: not a regular file (a named pipe): ksched reads regular files, "
        "or - for standard input"
    ]


def test_a_device_inside_a_directory_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "d").mkdir()
    os.symlink("/dev/zero", tmp_path / "d" / "zero.yaml")
    result = plan_in(tmp_path, monkeypatch, {"d/n.yaml": docs(node("n1"), pod_yaml())})
    assert result.exit_code == 0, result.output
    assert "warning: d/zero.yaml: skipped: not a regular file (a character device)" in (
        result.stderr.splitlines()
    )


def test_files_over_the_size_cap_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The cap is lowered for the test (the built-in profile, read the same way, is 2.4 KiB).
    monkeypatch.setattr(readers, "MAX_INPUT_BYTES", 4096)
    result = plan_in(tmp_path, monkeypatch, {"big.yaml": "# " + "x" * 5118 + "\n"})
    assert errors(result) == [
        "big.yaml: error: larger than the 1 GiB limit for an input file (5.0 KiB)"
    ]


def test_standard_input_is_read_within_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    assert readers.read_stream(io.BytesIO(b"abc")) == b"abc"
    monkeypatch.setattr(readers, "MAX_INPUT_BYTES", 4)
    with pytest.raises(readers.KschedError) as info:
        readers.read_stream(io.BytesIO(b"x" * 10))
    assert info.value.render() == "-: error: larger than the 1 GiB limit for an input file"


def test_a_kubectl_json_dump_round_trips(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    items = [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
         "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
         "spec": {"containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]},
         "status": {"phase": "Pending"}},
    ]
    text = json.dumps({"apiVersion": "v1", "kind": "List", "items": items}, indent=2)
    result = plan_in(tmp_path, monkeypatch, {"dump.json": text})
    assert result.exit_code == 0, result.output


def test_pod_templates_of_workloads_are_checked_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deployment = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n"
        "  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n"
        "      labels: {app: web}\n    spec:\n      containers:\n      - name: c\n"
        "        resource: {}\n        resources:\n          requests: {cpu: \"-1\"}\n"
    )
    result = plan_in(tmp_path, monkeypatch, {"d.yaml": docs(deployment, node("n1"))})
    assert errors(result) == [
        "d.yaml:14:9: error: Deployment default/web (document 1): "
        'spec.template.spec.containers[0].resource: unknown field '
        '"spec.template.spec.containers[0].resource"',
        "d.yaml:16:22: error: Deployment default/web (document 1): "
        "spec.template.spec.containers[0].resources.requests.cpu: "
        'Invalid value: "-1": must be greater than or equal to 0',
    ]


def test_standard_input_is_checked_like_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ksched_cli.manifests import sources

    monkeypatch.setattr(sources, "_stdin_text", None)
    monkeypatch.chdir(tmp_path)
    text = pod_yaml(spec="  nodeselector: {disk: ssd}\n")
    result = CliRunner().invoke(plan, ["-"], input=text)
    assert errors(result) == [
        '<stdin>:6:3: error: Pod default/p (document 1): spec.nodeselector: '
        'unknown field "spec.nodeselector"'
    ]


@pytest.mark.parametrize(
    ("literal", "number"),
    [
        ("2147483648", "2147483648"),
        ("18446744073709551615", "18446744073709551615"),  # go-yaml v2: a uint64
        # Past uint64 go-yaml v2 reads a float64, which json.Marshal writes in full.
        ("99999999999999999999", "100000000000000000000"),
        ("0x80000000", "2147483648"),
        ("4e9", "4000000000"),
    ],
)
def test_integers_beyond_their_go_type(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, literal: str, number: str
) -> None:
    text = pod_yaml(spec=f"  priority: {literal}\n")
    result = plan_in(tmp_path, monkeypatch, {"i.yaml": text})
    assert errors(result) == [
        "i.yaml:6:3: error: Pod default/p (document 1): spec.priority: json: cannot unmarshal "
        f"number {number} into Go struct field PodSpec.spec.priority of type int32"
    ]
