"""The cluster a command plans on: manifests read, then workloads expanded.

Reading manifests (``manifests.loader``) knows nothing of the controllers; the commands
that want workload objects turned into their pods call this one helper, which runs
``controllers.reconcile`` only when there is something for it to do (start-up time).
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import KUBE_SCHEDULER_VERSION
from ..manifests.loader import LoadResult, gc_paused, needs_controllers, read_cluster


def load_cluster(
    paths: Sequence[str],
    reconcile_workloads: bool = True,
    *,
    checks: bool = True,
    kubernetes_version: str = KUBE_SCHEDULER_VERSION,
    namespace: str | None = None,
) -> LoadResult:
    """``read_cluster`` (``namespace``: ``-n``, for objects without one), then workload
    objects become their pods (``controllers.reconcile``); the controllers' notes follow
    the reading's warnings."""
    with gc_paused():  # the controllers' pods are long-lived too
        loaded = read_cluster(
            paths, checks=checks, kubernetes_version=kubernetes_version, namespace=namespace
        )
        if reconcile_workloads and needs_controllers(loaded.cluster):
            from ..controllers import reconcile  # nothing to sync: never imported
            from ..controllers.context import PodLimitReached
            from ..controllers.reconcile import TemplateRefused

            try:
                loaded.warnings += reconcile(loaded.cluster).notes
            except PodLimitReached as exc:  # at the field of the input that asked for them
                if loaded.workload_error is None:
                    raise
                root = exc.root
                raise loaded.workload_error(
                    root.kind, root.namespace, root.name, exc.counting_field, exc.reason
                ) from None
            except TemplateRefused as exc:
                workload = exc.workload
                if loaded.template_error is None:
                    raise
                raise loaded.template_error(
                    workload.kind, workload.namespace, workload.name, exc
                ) from None
    return loaded
