"""The what-if operations by option name: the one list plan, diff and scenarios share."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ...errors import KschedError
from .add_nodes import OPTION as ADD_NODES
from .add_nodes import AddNodes, parse_count
from .base import NodeChoice, Operation
from .cordon import Cordon
from .drain import Drain
from .remove_node import RemoveNode
from .scale import parse_scale


def _choice(option: str, value: str) -> NodeChoice:
    if not value.strip():
        raise KschedError("expected NODE or -l SELECTOR", field=option)
    return NodeChoice(option, value.strip())


def _drain(value: str) -> Operation:
    return Drain(_choice("--drain", value), f"--drain {value}")


def _remove(value: str) -> Operation:
    return RemoveNode(_choice("--remove-node", value), f"--remove-node {value}")


def _cordon(value: str) -> Operation:
    return Cordon(_choice("--cordon", value), f"--cordon {value}")


def _uncordon(value: str) -> Operation:
    return Cordon(_choice("--uncordon", value), f"--uncordon {value}", unschedulable=False)


def _add_nodes(value: str) -> Operation:
    file, count = parse_count(value, ADD_NODES)
    return AddNodes(file, count, f"{ADD_NODES} {value}")


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
    "--scale": ("KIND/NAME=N", "Scale a deployment, replicaset or statefulset "
                "(NAME or NAMESPACE/NAME) to N replicas.", parse_scale),
}


def parse_operation(option: str, value: str) -> Operation:
    return OPERATIONS[option][2](value)
