"""Start-up: listing commands imports none of them, and lists what they would say."""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from ksched_cli.cli.main import COMMANDS, SHORT_HELP, VERBATIM_SHORT_HELP, LazyGroup, cli


def _real(name: str) -> click.Command:
    command = getattr(importlib.import_module(f"ksched_cli.cli.{COMMANDS[name]}"), name)
    assert isinstance(command, click.Command)
    return command


def test_every_command_has_a_static_short_help() -> None:
    assert set(SHORT_HELP) == set(COMMANDS)
    assert set(COMMANDS) >= VERBATIM_SHORT_HELP


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize("limit", [20, 36, 45, 64, 86, 200])
def test_static_short_help_lists_what_the_command_would(name: str, limit: int) -> None:
    real = _real(name)
    assert (name in VERBATIM_SHORT_HELP) == bool(real.short_help)
    group = LazyGroup(name="probe")
    ctx = click.Context(group)
    assert group._short_help(ctx, name, limit) == real.get_short_help_str(limit)


@pytest.mark.parametrize("columns", ["50", "80", "200"])
def test_help_listing_equals_the_eagerly_loaded_one(columns: str) -> None:
    lazy = CliRunner().invoke(cli, ["--help"], env={"COLUMNS": columns})
    eager_group = LazyGroup(name="ksched", help=cli.help, params=cli.params)
    for name in COMMANDS:
        eager_group.add_command(_real(name))
    eager = CliRunner().invoke(eager_group, ["--help"], env={"COLUMNS": columns})
    assert lazy.exit_code == eager.exit_code == 0
    lazy_list = lazy.stdout.split("Commands:")[1]
    assert lazy_list == eager.stdout.split("Commands:")[1]


# Modules `ksched --help` must not import: every sub-command and the heavy libraries.
HEAVY = ["numpy", "jsonschema", "jinja2", "yaml", "ksched_cli.engine", "ksched_cli.config"] + [
    f"ksched_cli.cli.{module}" for module in COMMANDS.values()
]


def test_help_imports_no_command_and_no_heavy_module() -> None:
    probe = (
        "import sys, json\n"
        "sys.argv = ['ksched', '--help']\n"
        "from ksched_cli.cli.main import main\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        f"heavy = {HEAVY!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules if any(\n"
        "    m == h or m.startswith(h + '.') for h in heavy))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out.strip().splitlines()[-1]) == []


# Modules a plan of bare pods with the built-in profile must not import: the built-in
# profiles are schema-checked by tests (tests/config/test_builtin_profiles.py), and the
# controllers only run when a workload object or an owned pod is in the input, and the
# what-if operations are imported only when one is given. The API modules of kinds the
# input lacks load with their first object (manifests/kinds.py), the extender client only
# with extenders, the volume binder with the first pod that has claims, and queueing
# hints and batching only for the releases that have them (v1.32+, v1.35+).
NOT_FOR_A_SMALL_PLAN = [
    "jsonschema",
    "referencing",
    "ruamel",
    "ksched_cli.config.schema",
    "ksched_cli.config.yaml_bounds",
    "ksched_cli.controllers",
    "ksched_cli.whatif.apply",
    "ksched_cli.whatif.ops.base",
    "ksched_cli.render.whatif_text",
    "difflib",
    "ksched_cli.api.namespaces",
    "ksched_cli.api.podgroup",
    "ksched_cli.api.storage",
    "ksched_cli.api.templates",
    "ksched_cli.api.workloads",
    "ksched_cli.extender.client",
    "ksched_cli.extender.stub",
    "ksched_cli.engine.queueing_hints",
    "ksched_cli.engine.node_hints",
    "ksched_cli.engine.batching",
    "ksched_cli.engine.tie_break",
    "ksched_cli.plugins.volumebinding.binder",
    "ksched_cli.plugins.volumebinding.scorer",
]

ONE_NODE = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - name: c
    image: pause
    resources: {requests: {cpu: 100m}}
"""


BLOCK_STYLE = """\
apiVersion: v1
kind: Node
metadata:
  name: n1
status:
  allocatable:
    cpu: "4"
    pods: "110"
---
apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: c
    image: pause
"""


def _imported_by(args: list[str], watched: list[str]) -> tuple[int, list[str]]:
    probe = (
        "import sys, json\n"
        f"sys.argv = ['ksched', *{args!r}]\n"
        "from ksched_cli.cli.main import main\n"
        "code = 0\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        f"watched = {watched!r}\n"
        "print(json.dumps([code, sorted(m for m in sys.modules if any(\n"
        "    m == h or m.startswith(h + '.') for h in watched))]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    code, modules = json.loads(out.strip().splitlines()[-1])
    return code, modules


def test_small_plan_imports_no_schema_yaml_round_trip_or_controllers(tmp_path: Path) -> None:
    path = tmp_path / "one.yaml"
    path.write_text(ONE_NODE)
    # v1.30's path; later releases need their queueing hints, batching and tie heap.
    assert _imported_by(
        ["plan", str(path), "--kubernetes-version", "1.30"], NOT_FOR_A_SMALL_PLAN
    ) == (0, [])


# Under the default release (v1.36) the queueing hints, batching and the tie heap load, but
# node and storage events only come from what-if operations and storage objects, and
# OpenSSL (hashlib) only from an extender call.
NOT_FOR_A_SMALL_PLAN_OF_THE_DEFAULT_RELEASE = [
    *(m for m in NOT_FOR_A_SMALL_PLAN if not m.startswith("ksched_cli.engine.")),
    "ksched_cli.engine.node_hints",
    "ksched_cli.engine.storage_hints",
    "hashlib",
    "jinja2",
]


def test_small_plan_of_the_default_release_imports_no_storage_or_node_hints(
    tmp_path: Path,
) -> None:
    path = tmp_path / "one.yaml"
    path.write_text(ONE_NODE)
    assert _imported_by(["plan", str(path)], NOT_FOR_A_SMALL_PLAN_OF_THE_DEFAULT_RELEASE) == (
        0,
        [],
    )
    # ... while the modules it does need are the ones the list leaves out.
    needed = ["ksched_cli.engine.batching", "ksched_cli.engine.queueing_hints"]
    assert _imported_by(["plan", str(path)], needed) == (0, needed)


@pytest.mark.parametrize("release", ["1.30", "1.36"])
def test_numpy_loads_with_the_first_plan_that_needs_arrays(tmp_path: Path, release: str) -> None:
    # One node: the per-node paths and nothing to score. Two nodes: the per-node paths,
    # but the score table is NumPy's. Three: the array paths.
    path = tmp_path / "plan.yaml"
    args = ["plan", str(path), "--kubernetes-version", release]
    node = ONE_NODE.split("---")[0]
    path.write_text(ONE_NODE)
    assert _imported_by(args, ["numpy"]) == (0, [])
    for name in ("n2", "n3"):
        path.write_text(node.replace("n1", name) + "---\n" + path.read_text())
        code, modules = _imported_by(args, ["numpy"])
        assert (code, modules[:1]) == (0, ["numpy"])


@pytest.mark.parametrize("release", ["1.30", "1.36"])
def test_plain_manifests_and_built_in_profiles_are_read_without_pyyaml(
    tmp_path: Path, release: str
) -> None:
    path = tmp_path / "plan.yaml"
    args = ["plan", str(path), "--kubernetes-version", release]
    path.write_text(BLOCK_STYLE)
    assert _imported_by(args, ["yaml"]) == (0, [])
    # A flow mapping or a block scalar is left to fastyaml (PyYAML's parser), a mistake
    # to the loader that reports it at its position.
    for added, code in (("data: {a: b}", 0), ("data:\n  a: |\n    x", 0), ("kind: [", 1)):
        path.write_text(f"{BLOCK_STYLE}---\napiVersion: v1\nkind: ConfigMap\n{added}\n")
        found, modules = _imported_by(args, ["yaml"])
        assert (found, modules[:1]) == (code, ["yaml"])
    # JSON (kubectl get -o json) is the json module's, until a key is found repeated.
    listed = {"apiVersion": "v1", "kind": "List", "items": list(yaml.safe_load_all(BLOCK_STYLE))}
    path.write_text(json.dumps(listed))
    assert _imported_by(args, ["yaml"]) == (0, [])
    path.write_text(json.dumps(listed)[:-1] + ', "kind": "List"}')
    found, modules = _imported_by(args, ["yaml"])
    assert (found, modules[:1]) == (1, ["yaml"])


def test_user_config_and_workloads_still_import_them(tmp_path: Path) -> None:
    path = tmp_path / "one.yaml"
    path.write_text(
        ONE_NODE + "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n"
        "  replicas: 1\n  selector: {matchLabels: {app: web}}\n"
        "  template:\n    metadata: {labels: {app: web}}\n"
        "    spec: {containers: [{name: c, image: pause}]}\n"
    )
    config = tmp_path / "config.yaml"
    config.write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
    )
    code, modules = _imported_by(
        ["plan", str(path), "--config", str(config)], ["jsonschema", "ksched_cli.controllers"]
    )
    assert code == 0
    assert {m.split(".")[0] for m in modules} >= {"jsonschema"}
    assert "ksched_cli.controllers" in modules


def test_claims_and_later_releases_import_what_they_need(tmp_path: Path) -> None:
    path = tmp_path / "one.yaml"
    path.write_text(
        ONE_NODE
        + "  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n"
        + "---\napiVersion: v1\nkind: PersistentVolumeClaim\n"
        "metadata: {name: data, namespace: default}\n"
        "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}},"
        " storageClassName: local}\n"
        "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: local}\n"
        "provisioner: kubernetes.io/no-provisioner\nvolumeBindingMode: WaitForFirstConsumer\n"
    )
    watched = ["ksched_cli.api.storage", "ksched_cli.plugins.volumebinding.binder"]
    code, modules = _imported_by(["plan", str(path)], watched)
    assert code == 2  # no PersistentVolume for the claim: the pod stays pending
    assert modules == watched
    later = ["ksched_cli.engine.batching", "ksched_cli.engine.queueing_hints"]
    code, modules = _imported_by(["plan", str(path), "--kubernetes-version", "1.36"], later)
    assert modules == later


def test_a_small_plan_compiles_nothing_once_records_and_shapes_are_kept(tmp_path: Path) -> None:
    # dataclasses compiles each method it adds from source text: ksched_cli.record makes
    # only __init__ that way, keeps the compiled code beside the bytecode, and renders no
    # signature for a class without a docstring.
    path = tmp_path / "one.yaml"
    path.write_text(ONE_NODE)
    probe = (
        "import sys, json, io, contextlib, inspect\n"
        f"sys.argv = ['ksched', 'plan', {str(path)!r}, '--kubernetes-version', '1.36']\n"
        "from ksched_cli.cli.main import main\n"
        "from ksched_cli.record import _MAKERS\n"
        "from ksched_cli.manifests import strict\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit:\n"
        "        pass\n"
        "found, records = [], 0\n"
        "for name, module in list(sys.modules.items()):\n"
        "    for cls in vars(module).values() if name.startswith('ksched_cli') else ():\n"
        "        if not (isinstance(cls, type) and cls.__module__ == name\n"
        "                and '__record_specs__' in vars(cls)):\n"
        "            continue\n"
        "        records += 1\n"
        "        if (cls.__doc__ or '').startswith(cls.__name__ + '('):\n"
        "            found.append(f'{name}.{cls.__qualname__}.__doc__')\n"
        "        for attr, value in vars(cls).items():\n"
        "            code = getattr(inspect.unwrap(value), '__code__', None)\n"
        "            generated = code is not None and code.co_filename.startswith('<')\n"
        "            if generated and attr != '__init__':\n"
        "                found.append(f'{name}.{cls.__qualname__}.{attr}')\n"
        "compiled = _MAKERS.new, strict._compiler.cache_info().currsize\n"
        "print(json.dumps([records, sorted(found), compiled]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pycache")
    runs = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env
        ).stdout
        runs.append(json.loads(out.strip().splitlines()[-1]))
    (records, found, compiled), (_, _, compiled_again) = runs
    assert records > 100
    assert found == []
    # The first run compiles record __init__s and the Pod's and Node's strict shapes;
    # the second reads both from the files beside the bytecode.
    assert compiled == [True, 1] and compiled_again == [False, 0]


def test_the_package_makes_its_dataclasses_with_record() -> None:
    package = Path(__file__).resolve().parents[2] / "ksched_cli"
    found = [
        f"{path.relative_to(package)}:{number}"
        for path in sorted(package.rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.match(r"\s*@(dataclasses\.)?dataclass\b", line)
    ]
    assert found == []


def test_kinds_name_the_pod_group_version_as_its_module_does() -> None:
    from ksched_cli.api.podgroup import POD_GROUP_API_VERSION
    from ksched_cli.manifests import kinds

    assert kinds.POD_GROUP_API_VERSION == POD_GROUP_API_VERSION
    assert kinds.KINDS["PodGroup"].api_version == POD_GROUP_API_VERSION


def test_the_registry_names_add_nodes_as_its_module_does() -> None:
    from ksched_cli.whatif.ops import add_nodes, registry

    assert registry.ADD_NODES == add_nodes.OPTION


@pytest.mark.parametrize(("given", "expected"), [(None, "1"), ("4", "4")])
def test_openblas_starts_no_thread_pool_unless_asked(given: str | None, expected: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    probe = "import os, ksched_cli.cli.main; print(os.environ['OPENBLAS_NUM_THREADS'])"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env
    ).stdout
    assert out.strip() == expected
