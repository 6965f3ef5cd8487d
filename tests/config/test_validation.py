"""ValidateKubeSchedulerConfiguration and framework errors: exact messages and positions.

Each case is a config body (it follows apiVersion/kind, which are lines 1-2) and every
finding it must produce, as ``LINE:COL severity FIELD: message``.
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
        parallelism: 0
        """,
        [
            "3:1 error parallelism: Invalid value: 0: should be an integer value greater than zero",
        ],
        id="parallelism",
    ),
    pytest.param(
        """\
        percentageOfNodesToScore: 150
        """,
        [
            "3:1 error percentageOfNodesToScore: Invalid value: 150: not in valid range [0-100]",
        ],
        id="percentage-global",
    ),
    pytest.param(
        """\
        profiles:
        - schedulerName: a
          percentageOfNodesToScore: -1
        """,
        [
            "5:3 error profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]",
        ],
        id="percentage-profile",
    ),
    pytest.param(
        """\
        podInitialBackoffSeconds: 0
        """,
        [
            "3:1 error podInitialBackoffSeconds: Invalid value: 0: must be greater than 0",
        ],
        id="backoff-initial",
    ),
    pytest.param(
        """\
        podInitialBackoffSeconds: 5
        podMaxBackoffSeconds: 2
        """,
        [
            "4:1 error podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds",
        ],
        id="backoff-max",
    ),
    pytest.param(
        """\
        clientConnection:
          burst: -1
        """,
        [
            "4:3 error clientConnection.burst: Invalid value: -1: must be non-negative",
        ],
        id="client-burst",
    ),
    pytest.param(
        """\
        leaderElection:
          leaseDuration: 5s
          renewDeadline: 10s
        """,
        [
            "4:3 error leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline",
        ],
        id="leader-durations",
    ),
    pytest.param(
        """\
        leaderElection:
          resourceLock: endpoints
        """,
        [
            '4:3 error leaderElection.resourceLock: Invalid value: "endpoints": resourceLock value must be "leases"',
        ],
        id="leader-lock",
    ),
    pytest.param(
        """\
        leaderElection:
          leaderElect: false
          resourceLock: endpoints
        """,
        [],
        id="leader-off",
    ),
    pytest.param(
        """\
        profiles:
        - schedulerName: a
        - percentageOfNodesToScore: 5
        """,
        [
            "5:3 error profiles[1].schedulerName: Required value",
        ],
        id="required-scheduler-name",
    ),
    pytest.param(
        """\
        profiles:
        - schedulerName: a
        - schedulerName: a
        """,
        [
            '5:3 error profiles[1].schedulerName: Duplicate value: "a"',
        ],
        id="duplicate-scheduler-name",
    ),
    pytest.param(
        """\
        profiles:
        - schedulerName: a
        - schedulerName: b
          plugins:
            queueSort:
              enabled: [{name: Coscheduling}]
              disabled: [{name: '*'}]
        """,
        [
            '7:5 error profiles[1].plugins.queueSort: Invalid value: config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:"Coscheduling", Weight:0}}, Disabled:[]config.Plugin{config.Plugin{Name:"*", Weight:0}}}: queueSort must be the same for all profiles',
        ],
        id="queue-sort-differs",
    ),
    pytest.param(
        """\
        profiles:
        - schedulerName: a
        - schedulerName: b
          plugins:
            multiPoint:
              enabled: [{name: Coscheduling}]
              disabled: [{name: PrioritySort}]
        """,
        [
            '6:3 error profiles[1].plugins: different queue sort plugins for profile "b": "Coscheduling", first: "PrioritySort"',
        ],
        id="queue-sort-differs-via-multipoint",
    ),
    pytest.param(
        """\
        profiles:
        - schedulerName: a
          plugins:
            multiPoint:
              enabled: [{name: Coscheduling}]
            queueSort:
              enabled: [{name: Coscheduling}]
              disabled: [{name: "*"}]
        - schedulerName: b
          plugins:
            multiPoint:
              enabled: [{name: Coscheduling}]
            queueSort:
              enabled: [{name: Coscheduling}]
              disabled: [{name: "*"}]
          pluginConfig:
          - name: Coscheduling
            args: {permitWaitingTimeSeconds: 10}
        """,
        [
            "20:5 error profiles[1].pluginConfig.args: Invalid value: config.CoschedulingArgs{PermitWaitingTimeSeconds:10, PodGroupBackoffSeconds:0}: queueSort must be the same for all profiles",
        ],
        id="queue-sort-args-differ",
    ),
    pytest.param(
        """\
        profiles:
        - schedulerName: a
          plugins:
            multiPoint:
              enabled: [{name: Coscheduling}]
              disabled: [{name: PrioritySort}]
        - schedulerName: b
          plugins:
            multiPoint:
              enabled: [{name: Coscheduling}]
              disabled: [{name: PrioritySort}]
          pluginConfig:
          - name: Coscheduling
            args: {permitWaitingTimeSeconds: 10}
        """,
        [
            '10:3 error profiles[1].plugins: different queue sort plugin args for profile "b"',
        ],
        id="queue-sort-args-differ-via-multipoint",
    ),
    pytest.param(
        """\
        profiles:
        - plugins:
            queueSort:
              enabled: [{name: PrioritySort}, {name: Coscheduling}]
        """,
        [
            "5:5 error profiles[0].plugins.queueSort.Enabled: Invalid value: 2: only one queue sort plugin can be enabled",
        ],
        id="queue-sort-two",
    ),
    pytest.param(
        """\
        profiles:
        - plugins:
            filter:
              enabled:
              - name: Foo
        """,
        [
            '7:9 error profiles[0].plugins.filter.enabled[0]: FilterPlugin "Foo" does not exist',
        ],
        id="unknown-plugin-point",
    ),
    pytest.param(
        """\
        profiles:
        - plugins:
            multiPoint:
              enabled:
              - name: Foo
        """,
        [
            '7:9 error profiles[0].plugins.multiPoint.enabled[0]: PreFilterPlugin "Foo" does not exist',
        ],
        id="unknown-plugin-multipoint",
    ),
    pytest.param(
        """\
        profiles:
        - plugins:
            score:
              enabled:
              - name: NodePorts
        """,
        [
            '7:9 error profiles[0].plugins.score.enabled[0]: plugin "NodePorts" does not extend ScorePlugin plugin',
        ],
        id="does-not-extend",
    ),
    pytest.param(
        """\
        profiles:
        - plugins:
            filter:
              enabled:
              - name: CinderLimits
              - name: CinderLimits
        """,
        [
            '8:9 error profiles[0].plugins.filter.enabled[1]: plugin "CinderLimits" already registered as "FilterPlugin"',
        ],
        id="already-registered",
    ),
    pytest.param(
        """\
        profiles:
        - plugins:
            multiPoint:
              enabled:
              - name: CinderLimits
              - name: CinderLimits
        """,
        [
            '8:9 error profiles[0].plugins.multiPoint.enabled[1]: plugin "CinderLimits" already registered as "PreFilterPlugin"',
        ],
        id="multipoint-twice",
    ),
    pytest.param(
        """\
        profiles:
        - plugins:
            bind:
              disabled: [{name: '*'}]
        """,
        [
            '5:5 error profiles[0].plugins.bind: at least one bind plugin is needed for profile with scheduler name "default-scheduler"',
        ],
        id="no-bind",
    ),
    pytest.param(
        """\
        profiles:
        - plugins:
            multiPoint:
              enabled: [{name: Coscheduling}]
        """,
        [
            '4:3 error profiles[0].plugins.queueSort: only one queue sort plugin required for profile with scheduler name "default-scheduler", but got 2',
        ],
        id="coscheduling-with-priority-sort",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: VolumeBinding
          - name: VolumeBinding
        """,
        [
            '6:5 error profiles[0].pluginConfig[1]: Duplicate value: "VolumeBinding"',
        ],
        id="plugin-config-duplicate",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: Foo
            args: {a: 1}
        """,
        [
            '5:5 warning profiles[0].pluginConfig[0].name: plugin "Foo" does not exist; kube-scheduler v1.30 ignores args of unknown plugins',
        ],
        id="plugin-config-unknown",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: NodePorts
            args: {a: 1}
        """,
        [
            '6:5 warning profiles[0].pluginConfig[0].args: plugin "NodePorts" takes no args; they are ignored',
        ],
        id="plugin-config-for-plugin-without-args",
    ),
    pytest.param(
        """\
        profiles:
        - plugins:
            filter:
              disabled: [{name: Foo}]
        """,
        [
            '6:18 warning profiles[0].plugins.filter.disabled[0]: plugin "Foo" does not exist; disabling it has no effect',
        ],
        id="disabled-unknown",
    ),
    pytest.param(
        """\
        extenders:
        - urlPrefix: http://a
          prioritizeVerb: prioritize
          bindVerb: bind
          managedResources:
          - name: example.com/gpu
          - name: example.com/gpu
          - name: cpu
        - urlPrefix: http://b
          bindVerb: bind
        """,
        [
            '3:1 error extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind',
            "4:3 error extenders[0].weight: Invalid value: 0: must have a positive weight applied to it",
            '9:5 error extenders[0].managedResources[1].name: Invalid value: "example.com/gpu": duplicate extender managed resource name',
            '10:5 error extenders[0].managedResources[2].name: Invalid value: "cpu": is an invalid extended resource name',
        ],
        id="extenders",
    ),
    pytest.param(
        """\
        bogus: 1
        profiles:
        - schedulerName: a
          plugin: {}
          pluginConfig:
          - name: DefaultPreemption
            args: {minCandidateNodes: 1}
        """,
        [
            '3:1 error bogus: unknown field "bogus"',
            '6:3 error profiles[0].plugin: unknown field "plugin"',
            '9:12 error profiles[0].pluginConfig[0].args.minCandidateNodes: unknown field "minCandidateNodes"',
        ],
        id="unknown-fields",
    ),
    pytest.param(
        """\
        parallelism: '16'
        percentageOfNodesToScore: 1.5
        profiles:
        - schedulerName: 7
          plugins:
            score:
              enabled:
              - name: ImageLocality
                weight: 4294967296
        """,
        [
            '3:1 error parallelism: Invalid value: "16": expected an integer',
            "4:1 error percentageOfNodesToScore: Invalid value: 1.5: expected an integer",
            "6:3 error profiles[0].schedulerName: Invalid value: 7: expected a string",
            "11:9 error profiles[0].plugins.score.enabled[0].weight: Invalid value: 4294967296: out of range for a 32-bit integer",
        ],
        id="wrong-types",
    ),
    pytest.param(
        """\
        leaderElection:
          leaseDuration: 15
          renewDeadline: 10x
        """,
        [
            "4:3 error leaderElection.leaseDuration: Invalid value: 15: expected a string",
            '5:3 error leaderElection.renewDeadline: Invalid value: "10x": time: unknown unit "x" in duration "10x"',
        ],
        id="bad-duration",
    ),
    pytest.param(
        """\
        profiles:
        - pluginConfig:
          - name: DefaultPreemption
            args:
              kind: InterPodAffinityArgs
        """,
        [
            '7:7 error profiles[0].pluginConfig[0].args.kind: Invalid value: "InterPodAffinityArgs": must be "DefaultPreemptionArgs"',
        ],
        id="args-kind-mismatch",
    ),
]


@pytest.mark.parametrize(("body", "expected"), CASES)
def test_config_problems(tmp_path: Path, body: str, expected: list[str]) -> None:
    checked = check(tmp_path, dedent(body))
    assert findings(checked) == expected
    assert checked.ok == all(" warning " in line for line in expected)
