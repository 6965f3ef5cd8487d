"""The JSON Schemas in schemas/: well-formed, match the catalog, accept the shipped profiles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from ksched_cli.config import schema
from ksched_cli.config.builtin import builtin_profiles
from ksched_cli.config.catalog import plugins_with_args

REPO = Path(__file__).resolve().parents[2]
SCHEMA_FILES = sorted((REPO / "schemas").glob("*.json"))
SHIPPED_PROFILES = [p.path for p in builtin_profiles()] + sorted(
    REPO.glob("examples/**/profile*.yaml")
)


def _load(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: p.name)
def test_schema_files_are_valid_draft_2020_12(path: Path) -> None:
    document = _load(path)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(document)


def test_every_plugin_with_args_has_a_schema_and_a_conditional() -> None:
    main = _load(REPO / "schemas" / schema.MAIN_SCHEMA)
    conditionals = main["$defs"]["pluginConfig"]["allOf"]  # type: ignore[index]
    wired = {
        c["if"]["properties"]["name"]["const"]: c["then"]["properties"]["args"]["$ref"]
        for c in conditionals
    }
    expected = {name: f"{kind.lower()}-v1.json" for name, kind in plugins_with_args().items()}
    assert wired == expected
    for file_name in expected.values():
        assert (REPO / "schemas" / file_name).is_file()
        assert _load(REPO / "schemas" / file_name)["title"] in plugins_with_args().values()


def test_runtime_reads_the_same_schemas() -> None:
    assert sorted(p.name for p in schema.schema_files()) == [p.name for p in SCHEMA_FILES]


@pytest.mark.parametrize(
    "path",
    SHIPPED_PROFILES,
    ids=lambda p: str(p.relative_to(REPO)) if p.is_relative_to(REPO) else p.name,
)
def test_shipped_profiles_validate_against_the_schema(path: Path) -> None:
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert schema.check(document) == []
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    assert first_line.startswith("# yaml-language-server: $schema=")
    target = (path.parent / first_line.split("$schema=", 1)[1]).resolve()
    assert target == (REPO / "schemas" / schema.MAIN_SCHEMA).resolve()


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        pytest.param(
            {"profiles": [{"nope": 1}]},
            [("profiles[0].nope", 'unknown field "nope"', True)],
            id="unknown-field",
        ),
        pytest.param(
            {"parallelism": 1.0},
            [("parallelism", "Invalid value: 1.0: expected an integer", True)],
            id="float-is-not-integer",
        ),
        pytest.param(
            {
                "profiles": [
                    {
                        "pluginConfig": [
                            {
                                "name": "DefaultPreemption",
                                "args": {"minCandidateNodesPercentage": 101},
                            }
                        ]
                    }
                ]
            },
            [
                (
                    "profiles[0].pluginConfig[0].args.minCandidateNodesPercentage",
                    "Invalid value: 101: must be less than or equal to 100",
                    False,
                )
            ],
            id="args-range-via-conditional",
        ),
        pytest.param(
            {"profiles": [{"pluginConfig": [{"name": "Foo", "args": {"anything": 1}}]}]},
            [],
            id="unknown-plugin-args-free-form",
        ),
        pytest.param(
            {"leaderElection": {"retryPeriod": "2"}},
            [
                (
                    "leaderElection.retryPeriod",
                    'Invalid value: "2": time: missing unit in duration "2"',
                    True,
                )
            ],
            id="duration",
        ),
    ],
)
def test_schema_problems(
    document: dict[str, object], expected: list[tuple[str, str, bool]]
) -> None:
    full = {
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "kind": "KubeSchedulerConfiguration",
        **document,
    }
    assert [
        (i.problem.field, i.problem.message, i.structural) for i in schema.check(full)
    ] == expected


def test_sanitize_drops_structural_errors_and_keeps_list_indexes() -> None:
    document = {
        "profiles": [
            {"plugins": {"score": {"enabled": ["bad", {"name": "ImageLocality", "bogus": 1}]}}}
        ],
        "parallelism": "x",
    }
    full = {
        "apiVersion": "kubescheduler.config.k8s.io/v1",
        "kind": "KubeSchedulerConfiguration",
        **document,
    }
    schema.sanitize(full, schema.check(full))
    assert "parallelism" not in full
    assert full["profiles"] == [
        {"plugins": {"score": {"enabled": [{}, {"name": "ImageLocality"}]}}}
    ]
