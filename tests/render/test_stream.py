"""Streamed JSON and YAML are byte for byte the dumps of the whole plan document."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from ksched_cli.config.load import load_config
from ksched_cli.engine.engine import Engine, EngineOptions
from ksched_cli.engine.records import Plan
from ksched_cli.render.document import plan_document
from ksched_cli.render.stream import write_json, write_yaml
from ksched_cli.whatif.inputs import load_cluster
from tests.engine.test_equivalence import _cluster, _crowded_cluster

CASES = Path(__file__).parents[1] / "conformance" / "cases"


def _case_plan(case: Path) -> Plan:
    config = load_config(str(case / "profile.yaml"))
    cluster = load_cluster([str(case / "cluster.yaml")]).cluster
    return Engine(config, cluster, EngineOptions(record="weighted")).run()


def _check(plan: Plan, explain: bool) -> None:
    out = io.StringIO()
    write_json(plan, explain, out)
    assert out.getvalue() == json.dumps(plan_document(plan, explain), indent=2) + "\n"


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir()))
def test_conformance_plans_stream_as_one_json_dump(case: str) -> None:
    plan = _case_plan(CASES / case)
    _check(plan, explain=True)
    _check(plan, explain=False)


@pytest.mark.parametrize("make", [_cluster, _crowded_cluster])
def test_random_plans_stream_as_one_dump(make: Any) -> None:
    plan = Engine(
        load_config(str(CASES / "rand-0040" / "profile.yaml")), make(3), EngineOptions()
    ).run()
    plan.warnings.append("a warning, to place the last key")
    _check(plan, explain=True)
    for explain in (True, False):
        out = io.StringIO()
        write_yaml(plan, explain, out)
        assert out.getvalue() == yaml.safe_dump(plan_document(plan, explain), sort_keys=False)


def test_an_empty_plan_streams_as_one_dump() -> None:
    _check(Plan(profiles=["default-scheduler"], node_count=0), explain=True)
