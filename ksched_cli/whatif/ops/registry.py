"""The what-if operations by option name: the one list plan, diff and scenarios share.

The operation modules are imported only when an operation is parsed: listing the
options (every ``plan`` and ``diff`` run) must not import the what-if machinery.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ...errors import KschedError

if TYPE_CHECKING:
    from .base import NodeChoice, Operation

ADD_NODES = "--add-nodes"


def _choice(option: str, value: str) -> NodeChoice:
    from .base import NodeChoice

    if not value.strip():
        raise KschedError("expected NODE or -l SELECTOR", field=option)
    return NodeChoice(option, value.strip())


def _drain(value: str) -> Operation:
    from .drain import Drain

    return Drain(_choice("--drain", value), f"--drain {value}")


def _remove(value: str) -> Operation:
    from .remove_node import RemoveNode

    return RemoveNode(_choice("--remove-node", value), f"--remove-node {value}")


def _cordon(value: str) -> Operation:
    from .cordon import Cordon

    return Cordon(_choice("--cordon", value), f"--cordon {value}")


def _uncordon(value: str) -> Operation:
    from .cordon import Cordon

    return Cordon(_choice("--uncordon", value), f"--uncordon {value}", unschedulable=False)


def _add_nodes(value: str) -> Operation:
    from .add_nodes import AddNodes, parse_count

    file, count = parse_count(value, ADD_NODES)
    return AddNodes(file, count, f"{ADD_NODES} {value}")


def _scale(value: str) -> Operation:
    from .scale import parse_scale

    return parse_scale(value)


# option -> (metavar, help, parser)
OPERATIONS: Mapping[str, tuple[str, str, Callable[[str], Operation]]] = {
    "--drain": ("NODE|-l SEL", "Cordon the node(s), then evict their pods as "
                "`kubectl drain --ignore-daemonsets --delete-emptydir-data --force` would "
                "(PodDisruptionBudgets can refuse).", _drain),
    "--remove-node": ("NODE|-l SEL", "The node(s) are gone: their pods are deleted without "
                      "budget checks and their controllers recreate them.", _remove),
    "--cordon": ("NODE|-l SEL", "Mark the node(s) unschedulable.", _cordon),
    "--uncordon": ("NODE|-l SEL", "Mark the node(s) schedulable.", _uncordon),
    "--add-nodes": ("FILE=N", "Add N copies of the Node in FILE (names <name>-1...; "
                    "DaemonSets get pods on them).", _add_nodes),
    "--scale": ("KIND/NAME=N", "Scale a deployment, replicaset or statefulset to N "
                "replicas; named as ksched prints it (deployment/web in -n NS, "
                "NS/deployment/web, deployment.apps/web, or the workload's NS/NAME).", _scale),
}


def parse_operation(option: str, value: str) -> Operation:
    return OPERATIONS[option][2](value)
