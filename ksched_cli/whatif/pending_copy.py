"""A new pending pod made from an existing pod's spec, as a controller would create it."""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any

from ..api.pod import Pod


def copy_pending(pod: Pod, name: str, load_index: int, uid_seed: str, **changes: Any) -> Pod:
    """A new pending pod with ``pod``'s spec: no node, no nomination, not started.

    ``changes`` replace further Pod fields (a DaemonSet pod's pinned affinity).
    """
    meta = dataclasses.replace(
        pod.meta,
        name=name,
        uid=f"ksched-{hashlib.sha256(uid_seed.encode()).hexdigest()[:16]}",
        labels=dict(pod.meta.labels),
        annotations=dict(pod.meta.annotations),
        creation_timestamp=None,
        deletion_timestamp=None,
    )
    fields: dict[str, Any] = {
        "node_name": "",
        "nominated_node_name": "",
        "start_time": None,
        "terminating_by_preemption": False,
        "info_cache": None,
        "key": "",
        "uid": "",
        **changes,
    }
    copy = dataclasses.replace(pod, meta=meta, load_index=load_index, **fields)
    copy.finalize()
    return copy
