"""ImageLocality: favour nodes already holding the pod's images.

Port of imagelocality/image_locality.go. From v1.36 (kubernetes#130231) the images of
``image`` volumes are summed too, while the threshold still counts only containers
(v1.37 counts the volumes as well, #138951).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..api.pod import Pod
from ..framework.columns import IntArray, NodeColumns
from ..framework.cycle_state import CycleState
from ..framework.interface import Handle
from ..framework.nodeinfo import ImageStateSummary, NodeInfo
from ..framework.status import Status
from ..framework.types import MAX_NODE_SCORE
from ..lazy_numpy import np
from ..versions.features import features_of
from .helpers.prepare import live_columns

NAME = "ImageLocality"

MB = 1024 * 1024
# Below this total the images are too small to matter; above the per-container maximum
# the score saturates.
MIN_THRESHOLD = 23 * MB
MAX_CONTAINER_THRESHOLD = 1000 * MB


def normalized_image_name(name: str) -> str:
    """Add the implicit ":latest" tag when the name carries none."""
    if name.rfind(":") <= name.rfind("/"):
        return name + ":latest"
    return name


def scaled_image_score(state: ImageStateSummary, total_num_nodes: int) -> int:
    """Image size damped by how few nodes have it, so spread images count more."""
    spread = float(state.num_nodes) / float(total_num_nodes)
    return int(float(state.size) * spread)


def calculate_priority(sum_scores: int, num_containers: int) -> int:
    max_threshold = MAX_CONTAINER_THRESHOLD * num_containers
    if sum_scores < MIN_THRESHOLD:
        sum_scores = MIN_THRESHOLD
    elif sum_scores > max_threshold:
        sum_scores = max_threshold
    return MAX_NODE_SCORE * (sum_scores - MIN_THRESHOLD) // (max_threshold - MIN_THRESHOLD)


def pod_image_names(pod: Pod, volumes: bool = False) -> tuple[str, ...]:
    """Normalized image names of the init containers, the containers and, with
    ``volumes``, the image volumes' references; duplicates kept."""
    names = [normalized_image_name(c.image) for c in (*pod.init_containers, *pod.containers)]
    if volumes:
        for volume in pod.volumes:
            image = volume.source.get("image")
            if isinstance(image, dict):
                names.append(normalized_image_name(str(image.get("reference") or "")))
    return tuple(names)


class Plugin:
    name = NAME

    def __init__(self, args: Any, handle: Handle) -> None:
        self.handle = handle
        self.image_volumes = features_of(handle).image_volume_locality
        # Score runs once per node for the same pod: keep its image names.
        self._pod: Pod | None = None
        self._names: tuple[str, ...] = ()

    def _images_of(self, pod: Pod) -> tuple[str, ...]:
        if self._pod is not pod:
            self._pod, self._names = pod, pod_image_names(pod, self.image_volumes)
        return self._names

    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> tuple[int, Status | None]:
        names = self._images_of(pod)
        states = node_info.image_states
        if not states:
            return 0, None  # nothing to sum: the minimum threshold maps to 0
        total = len(self.handle.snapshot.list())
        total_score = 0
        for name in names:
            image = states.get(name)
            if image is not None:
                total_score += scaled_image_score(image, total)
        # The threshold counts containers only, image volumes or not (v1.36).
        containers = len(pod.init_containers) + len(pod.containers)
        return calculate_priority(total_score, containers), None

    def prepare(self, pods: Sequence[Pod], points: frozenset[str]) -> None:
        """The image columns Score reads, made before the first attempt."""
        columns = live_columns(self.handle)
        if columns is not None and "score" in points:
            for name in {n for pod in pods for n in self._images_of(pod)}:
                self._image_column(columns, name)

    def score_array(
        self, state: CycleState, pod: Pod, columns: NodeColumns, index: IntArray
    ) -> IntArray:
        """Score on arrays: the pod's images' columns summed, then thresholded as
        calculate_priority does (every sum is non-negative, so // is Go's division)."""
        total = np.zeros(len(index), dtype=np.int64)
        for name in self._images_of(pod):
            total += self._image_column(columns, name)[index]
        max_threshold = MAX_CONTAINER_THRESHOLD * (len(pod.init_containers) + len(pod.containers))
        # The ufuncs, not np.clip: its wrapper looks up the integer type's limits per call.
        clamped = np.minimum(np.maximum(total, MIN_THRESHOLD), max_threshold)
        return MAX_NODE_SCORE * (clamped - MIN_THRESHOLD) // (max_threshold - MIN_THRESHOLD)

    def _image_column(self, columns: NodeColumns, name: str) -> IntArray:
        """Per node the scaled score of image ``name`` (0 where absent), made once per
        image: node images do not change in a plan."""
        total = len(self.handle.snapshot.list())
        key = (NAME, "image", name, total)
        column: IntArray | None = columns.static_cache.get(key)
        if column is None:
            column = np.fromiter(
                (
                    scaled_image_score(image, total) if image is not None else 0
                    for image in (ni.image_states.get(name) for ni in columns.infos)
                ),
                dtype=np.int64,
                count=columns.size,
            )
            columns.static_cache[key] = column
        return column

    def score_extensions(self) -> None:
        return None

