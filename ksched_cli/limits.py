"""How many pods and nodes one command may create: the bound that keeps a tiny input
(``replicas: 2147483647``, ``--add-nodes pool.yaml=1000000``) from growing without end.

The limits are set per command by ``--max-pods`` and ``--max-nodes`` (or the
``KSCHED_MAX_PODS`` and ``KSCHED_MAX_NODES`` environment variables), and counted over
everything a run creates: controllers' pods, ``--scale``, ``--add-nodes``, scenario steps
and ``capacity``'s copies. Loaded objects do not count: a snapshot is as large as it is.
"""

from __future__ import annotations

from .errors import KschedError
from .record import record

# Kubernetes is tested up to 150,000 pods and 5,000 nodes: room above both.
DEFAULT_MAX_PODS = 200_000
DEFAULT_MAX_NODES = 10_000
# capacity schedules each copy in a cycle of its own: its own, lower default.
CAPACITY_MAX_PODS = 20_000
POD_OPTION, POD_ENV = "--max-pods", "KSCHED_MAX_PODS"
NODE_OPTION, NODE_ENV = "--max-nodes", "KSCHED_MAX_NODES"


@record
class Limits:
    """The bounds of the running command (set by its options)."""

    pods: int = DEFAULT_MAX_PODS
    nodes: int = DEFAULT_MAX_NODES


_current = Limits()


def configure(pods: int | None = None, nodes: int | None = None) -> None:
    """Set by the command's options; None leaves a limit as it is."""
    if pods is not None:
        _current.pods = pods
    if nodes is not None:
        _current.nodes = nodes


def current() -> Limits:
    return _current


def pods_over(total: int) -> str:
    """Why ``total`` pods created in one run are too many; "" within the limit."""
    if total <= _current.pods:
        return ""
    return _reason(_current.pods, "pods", POD_OPTION, POD_ENV)


def check_pods(total: int, what: str) -> None:
    """KschedError when a run would have created ``total`` pods, past the limit."""
    reason = pods_over(total)
    if reason:
        raise KschedError(f"{what}: {reason}")


def check_nodes(total: int, what: str) -> None:
    """KschedError when a run would have created ``total`` nodes, past the limit."""
    if total > _current.nodes:
        raise KschedError(f"{what}: {_reason(_current.nodes, 'nodes', NODE_OPTION, NODE_ENV)}")


def _reason(limit: int, objects: str, option: str, env: str) -> str:
    return (
        f"would create more than {limit:,} {objects}, ksched's limit for one run "
        f"(raise it with {option} N or {env})"
    )
