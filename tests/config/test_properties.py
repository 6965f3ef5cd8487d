"""Property-based: generated and mutated profiles never crash, validate and plan agree.

Invariants for any configuration file: ``validate`` exits 0 or 1 and prints only
``FILE: valid`` or ``FILE[:LINE:COL]: error|warning: ...`` lines; ``plan --config``
exits 0, 1 or 2, with one error line naming the file on 1; ``plan`` refuses a
configuration exactly when ``validate`` does; everything in bounded time.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given
from hypothesis import strategies as st

from ksched_cli.config.catalog import CATALOG

from ..manifests.helpers import docs, node, pod, write
from ..properties import JSON_VALUES, assert_clean_exit, bounded, mutate, run_cli, within

NAMES = st.sampled_from([*sorted(CATALOG), "NotAPlugin", "*"])
POINTS = ["multiPoint", "preFilter", "filter", "postFilter", "score", "bind"]
_PLUGIN = st.fixed_dictionaries({"name": NAMES}, optional={"weight": st.integers(-2, 120)})
_SET = st.fixed_dictionaries(
    {},
    optional={"enabled": st.lists(_PLUGIN, max_size=3), "disabled": st.lists(_PLUGIN, max_size=2)},
)
_RESOURCES = st.lists(
    st.fixed_dictionaries(
        {"name": st.sampled_from(["cpu", "memory", "nvidia.com/gpu", "Bad Name"])},
        optional={"weight": st.integers(-1, 120)},
    ),
    max_size=3,
)
_SHAPE = st.lists(
    st.fixed_dictionaries({"utilization": st.integers(-5, 110), "score": st.integers(-1, 12)}),
    max_size=3,
)
_STRATEGY = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(
            ["LeastAllocated", "MostAllocated", "RequestedToCapacityRatio", "Other"]
        ),
        "resources": _RESOURCES,
        "requestedToCapacityRatio": st.fixed_dictionaries({}, optional={"shape": _SHAPE}),
    },
)
_ARGS = st.one_of(
    st.fixed_dictionaries(
        {"name": st.just("NodeResourcesFit")},
        optional={"args": st.fixed_dictionaries({}, optional={"scoringStrategy": _STRATEGY})},
    ),
    st.fixed_dictionaries(
        {"name": st.just("DefaultPreemption")},
        optional={
            "args": st.fixed_dictionaries(
                {},
                optional={
                    "minCandidateNodesPercentage": st.integers(-5, 120),
                    "minCandidateNodesAbsolute": st.integers(-5, 200),
                },
            )
        },
    ),
    st.fixed_dictionaries({"name": NAMES}, optional={"args": JSON_VALUES}),
)
_PROFILE = st.fixed_dictionaries(
    {},
    optional={
        "schedulerName": st.sampled_from(["default-scheduler", "other", ""]),
        "plugins": st.fixed_dictionaries({}, optional={p: _SET for p in POINTS}),
        "pluginConfig": st.lists(_ARGS, max_size=3),
        "percentageOfNodesToScore": st.integers(-5, 120),
    },
)
_EXTENDER = st.fixed_dictionaries(
    {"urlPrefix": st.sampled_from(["http://127.0.0.1:9", "https://e.example", ""])},
    optional={
        "filterVerb": st.sampled_from(["filter", ""]),
        "prioritizeVerb": st.just("prioritize"),
        "weight": st.integers(-1, 5),
        "bindVerb": st.just("bind"),
        "httpTimeout": st.sampled_from(["1s", "-1s", "x", "100ms"]),
        "managedResources": st.lists(
            st.fixed_dictionaries({"name": st.sampled_from(["example.com/foo", "cpu", ""])}),
            max_size=2,
        ),
        "tlsConfig": st.fixed_dictionaries({}, optional={"caData": st.sampled_from(["QQ=x", ""])}),
    },
)
CONFIGS = st.fixed_dictionaries(
    {
        "apiVersion": st.just("kubescheduler.config.k8s.io/v1"),
        "kind": st.just("KubeSchedulerConfiguration"),
    },
    optional={
        "profiles": st.lists(_PROFILE, max_size=2),
        "percentageOfNodesToScore": st.integers(-5, 120),
        "podInitialBackoffSeconds": st.integers(-1, 20),
        "parallelism": st.integers(-1, 32),
        "extenders": st.lists(_EXTENDER, max_size=2),
    },
)
_LINE = re.compile(r"^(?P<file>.+?)(:\d+:\d+)?: (error|warning): .+$")


def _replace_somewhere(doc: Any, data: st.DataObject) -> Any:
    """``doc`` with one value (at any depth) replaced by an arbitrary JSON value."""
    if not isinstance(doc, (dict, list)) or not doc or data.draw(st.booleans()):
        return data.draw(JSON_VALUES)
    keys = list(doc) if isinstance(doc, dict) else list(range(len(doc)))
    key = data.draw(st.sampled_from(keys))
    copy: Any = dict(doc) if isinstance(doc, dict) else list(doc)
    copy[key] = _replace_somewhere(copy[key], data)
    return copy


def _check(tmp_path: Path, text: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(text, encoding="utf-8")
    with within(5):
        checked = run_cli("validate", str(config))
    assert_clean_exit(checked, (0, 1), str(config), one_error=False)  # it lists every problem
    for line in checked.stdout.splitlines():
        match = _LINE.match(line)
        assert line == f"{config}: valid" or (match and match.group("file") == str(config)), line
    cluster = tmp_path / "cluster"
    if not cluster.exists():
        write(tmp_path, {"cluster/all.yaml": docs(node("a"), pod("web", "default"))})
    with within(5):
        planned = run_cli("plan", str(cluster), "--config", str(config), "--extender-mode", "skip")
    assert_clean_exit(planned, (0, 1, 2), str(config))
    # A configuration validate accepts plans; one it refuses does not.
    assert (planned.exit_code == 1) == (checked.exit_code == 1), (checked.output, planned.output)


@bounded(40)
@given(doc=CONFIGS)
def test_generated_profiles(tmp_path_factory: Any, doc: dict[str, Any]) -> None:
    _check(tmp_path_factory.mktemp("gen"), yaml.safe_dump(doc, sort_keys=False))


@bounded(30)
@given(doc=CONFIGS, data=st.data())
def test_profiles_with_a_value_replaced(
    tmp_path_factory: Any, doc: dict[str, Any], data: st.DataObject
) -> None:
    mutated = _replace_somewhere(doc, data)
    _check(tmp_path_factory.mktemp("value"), yaml.safe_dump(mutated, sort_keys=False))


@bounded(30)
@given(profile=st.sampled_from(["default", "bin-packing", "gang", "spread"]), data=st.data())
def test_built_in_profiles_with_mutated_text(
    tmp_path_factory: Any, profile: str, data: st.DataObject
) -> None:
    text = (Path("ksched_cli/profiles") / f"{profile}.yaml").read_text()
    _check(tmp_path_factory.mktemp("text"), mutate(text, data))
