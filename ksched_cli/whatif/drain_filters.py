"""kubectl drain's pod filters (staging/src/k8s.io/kubectl/pkg/drain/filters.go).

ksched drains as ``kubectl drain --ignore-daemonsets --delete-emptydir-data --force``
would: no filter is fatal, and each one that lets a pod through with a warning says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..api.pod import Pod
from ..record import record

MIRROR_POD_ANNOTATION = "kubernetes.io/config.mirror"
DAEMON_SET_WARNING = "ignoring DaemonSet-managed Pods"
LOCAL_STORAGE_WARNING = "deleting Pods with local storage"
UNMANAGED_WARNING = "deleting Pods that declare no controller"


@record(frozen=True)
class DeleteStatus:
    delete: bool
    reason: str = "Okay"  # Okay, Skip or Warning (the flags make no filter an Error)
    message: str = ""


OKAY = DeleteStatus(True)
SKIP = DeleteStatus(False, "Skip")


def _controller_kind(pod: Pod) -> str:
    ref = pod.meta.controller_ref()
    return ref.kind if ref is not None else ""


def daemon_set_filter(pod: Pod) -> DeleteStatus:
    # A DaemonSet absent from the input is taken as present: snapshots of pods rarely
    # carry their DaemonSets, and kubectl deletes only orphans of deleted ones.
    if _controller_kind(pod) != "DaemonSet":
        return OKAY
    return DeleteStatus(False, "Warning", DAEMON_SET_WARNING)


def mirror_pod_filter(pod: Pod) -> DeleteStatus:
    return SKIP if MIRROR_POD_ANNOTATION in pod.meta.annotations else OKAY


def local_storage_filter(pod: Pod) -> DeleteStatus:
    if not any("emptyDir" in v.source for v in pod.volumes):
        return OKAY
    return DeleteStatus(True, "Warning", LOCAL_STORAGE_WARNING)


def unreplicated_filter(pod: Pod) -> DeleteStatus:
    if pod.meta.controller_ref() is not None:
        return OKAY
    return DeleteStatus(True, "Warning", UNMANAGED_WARNING)


# makeFilters' order (skipDeletedFilter is a no-op at --skip-wait-for-delete-timeout=0).
FILTERS: tuple[Callable[[Pod], DeleteStatus], ...] = (
    daemon_set_filter,
    mirror_pod_filter,
    local_storage_filter,
    unreplicated_filter,
)


def delete_status(pod: Pod) -> DeleteStatus:
    """The filters in order; the first that keeps the pod decides, else the last one."""
    status = OKAY
    for check in FILTERS:
        status = check(pod)
        if not status.delete:
            break
    return status


def warnings(statuses: Sequence[tuple[Pod, DeleteStatus]]) -> list[str]:
    """PodDeleteList.Warnings, one line per message (sorted: Go's map order is random)."""
    by_message: dict[str, list[str]] = {}
    for pod, status in statuses:
        if status.reason == "Warning":
            by_message.setdefault(status.message, []).append(pod.key)
    return [f"{message}: {', '.join(pods)}" for message, pods in sorted(by_message.items())]
