"""The v1.30 Validate*Args rules (and plugin start-up checks): exact messages and positions.

Bodies follow apiVersion/kind (lines 1-2); findings are ``LINE:COL severity FIELD: message``.
"""

# ruff: noqa: E501  (expected messages are kube-scheduler's, verbatim)

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest

from .helpers import check, findings

CASES = [
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: DefaultPreemption
            args:
              minCandidateNodesPercentage: 150
              minCandidateNodesAbsolute: -1
        """,
        [
            "7:7 error profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 150: not in valid range [0, 100]",
            "8:7 error profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)",
        ],
        id="preemption-range",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: DefaultPreemption
            args:
              minCandidateNodesPercentage: 0
              minCandidateNodesAbsolute: 0
        """,
        [
            "7:7 error profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute",
            "8:7 error profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage",
        ],
        id="preemption-zero",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: InterPodAffinity
            args:
              hardPodAffinityWeight: 101
        """,
        [
            "7:7 error profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]",
        ],
        id="interpod-weight",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: NodeResourcesFit
            args:
              ignoredResourceGroups: [example.com/x]
              scoringStrategy:
                type: Most
                resources:
                - name: cpuu
                  weight: 101
        """,
        [
            "7:31 error profiles[0].pluginConfig[0].args.ignoredResourceGroups[0]: Invalid value: \"example.com/x\": resource group name can't contain '/'",
            '9:9 error profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: "Most": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"',
            '11:11 warning profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].name: unknown resource "cpuu": not cpu, memory, ephemeral-storage, hugepages-* or an extended resource (domain/name); kube-scheduler v1.30 accepts it but ignores it when scoring',
            "12:11 error profiles[0].pluginConfig[0].args.scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of cpuu not in valid range (0, 100]",
        ],
        id="fit-strategy",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: NodeResourcesFit
            args:
              scoringStrategy:
                type: RequestedToCapacityRatio
                requestedToCapacityRatio:
                  shape:
                  - {utilization: 60, score: 11}
                  - {utilization: 50, score: 5}
        """,
        [
            "11:31 error profiles[0].pluginConfig[0].args.scoringStrategy.shape[0].score: Invalid value: 11: not in valid range [0, 10]",
            "12:14 error profiles[0].pluginConfig[0].args.scoringStrategy.shape[1].utilization: Invalid value: 50: utilization values must be sorted in increasing order",
        ],
        id="fit-shape",
    ),
    pytest.param(
        """\
        profiles:
        - plugins:
            multiPoint:
              disabled: [{name: NodeResourcesFit}]
          pluginConfig:
          - name: NodeResourcesFit
            args:
              scoringStrategy: {type: Most}
        """,
        [],
        id="fit-not-enabled-not-validated",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: NodeResourcesBalancedAllocation
            args:
              resources:
              - {name: cpu, weight: 2}
              - {name: cpu}
        """,
        [
            "8:21 error profiles[0].pluginConfig[0].args.resources[0].weight: Invalid value: 2: must be 1",
            '9:10 error profiles[0].pluginConfig[0].args.resources[1].name: Duplicate value: "cpu"',
        ],
        id="balanced",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: PodTopologySpread
            args:
              defaultingType: List
              defaultConstraints:
              - maxSkew: 0
                topologyKey: zone
                whenUnsatisfiable: Maybe
              - maxSkew: 1
                topologyKey: zone
                whenUnsatisfiable: Maybe
                labelSelector: {}
        """,
        [
            "9:9 error profiles[0].pluginConfig[0].args.defaultConstraints[0].maxSkew: Invalid value: 0: not in valid range (0, inf)",
            '11:9 error profiles[0].pluginConfig[0].args.defaultConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"',
            '12:9 error profiles[0].pluginConfig[0].args.defaultConstraints[1]: Duplicate value: "{zone, Maybe}"',
            '14:9 error profiles[0].pluginConfig[0].args.defaultConstraints[1].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"',
            "15:9 error profiles[0].pluginConfig[0].args.defaultConstraints[1].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod",
        ],
        id="spread",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: PodTopologySpread
            args:
              defaultConstraints:
              - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}
        """,
        [
            '6:5 error profiles[0].pluginConfig[0].args.defaultingType: Invalid value: "System": when .defaultConstraints are not empty',
        ],
        id="spread-system-with-constraints",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: PodTopologySpread
            args:
              defaultingType: Other
        """,
        [
            '7:7 error profiles[0].pluginConfig[0].args.defaultingType: Unsupported value: "Other": supported values: "System", "List"',
        ],
        id="spread-defaulting-type",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: VolumeBinding
            args:
              bindTimeoutSeconds: -1
              shape:
              - {utilization: 0, score: 0}
        """,
        [
            "7:7 error profiles[0].pluginConfig[0].args.bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not be a negative value",
            "8:7 error profiles[0].pluginConfig[0].args.shape: Invalid value: []config.UtilizationShapePoint{config.UtilizationShapePoint{Utilization:0, Score:0}}: unexpected field `shape`, remove it or turn on the feature gate VolumeCapacityPriority",
        ],
        id="volume-binding",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: NodeAffinity
            args:
              addedAffinity:
                requiredDuringSchedulingIgnoredDuringExecution:
                  nodeSelectorTerms:
                  - matchExpressions:
                    - {key: zone, operator: Foo}
                    - {key: zone, operator: In}
                    - {key: size, operator: Gt, values: ['1', '2']}
        """,
        [
            '11:27 error profiles[0].pluginConfig[0].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Unsupported value: "Foo": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"',
            "12:15 error profiles[0].pluginConfig[0].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
            "13:41 error profiles[0].pluginConfig[0].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].values: Invalid value: []string{\"1\", \"2\"}: for 'Gt', 'Lt' operators, exactly one value is required",
        ],
        id="node-affinity",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: NodeAffinity
            args:
              addedAffinity:
                preferredDuringSchedulingIgnoredDuringExecution:
                - weight: 1
                  preference:
                    matchFields:
                    - {key: metadata.name, operator: Exists}
        """,
        [
            '12:36 error profiles[0].pluginConfig[0].args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchFields[0].operator: Unsupported value: "Exists": supported values: "In", "NotIn"',
        ],
        id="node-affinity-preferred",
    ),
    pytest.param(
        """\
        profiles:
        - plugins:
            multiPoint:
              enabled: [{name: Coscheduling}]
            queueSort:
              enabled: [{name: Coscheduling}]
              disabled: [{name: '*'}]
          pluginConfig:
          - name: Coscheduling
            args: {podGroupBackoffSeconds: -1}
        """,
        [
            "12:12 error profiles[0].pluginConfig[0].args.podGroupBackoffSeconds: Invalid value: -1: PodGroupBackoffSeconds cannot be negative",
        ],
        id="coscheduling-backoff",
    ),
]


@pytest.mark.parametrize(("body", "expected"), CASES)
def test_args_problems(tmp_path: Path, body: str, expected: list[str]) -> None:
    assert findings(check(tmp_path, dedent(body))) == expected
