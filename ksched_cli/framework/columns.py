"""Per-node numbers as NumPy columns, kept in step with the live NodeInfos.

Plugins that can evaluate a pod against every node at once read these arrays
(indexed by node-tree position) instead of calling Filter or Score once per node.
Only the live snapshot's NodeInfos write here; clones (preemption dry runs,
nominated-pod passes) never do, so the vector paths are only used on live nodes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from ..lazy_numpy import np
from .nominations import amount

if TYPE_CHECKING:
    from ..api.pod import Pod
    from .nodeinfo import NodeInfo

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    BoolArray = npt.NDArray[np.bool_]
    FloatArray = npt.NDArray[np.float64]
else:  # annotations only need a name (NumPy itself loads with its first use)
    IntArray = BoolArray = FloatArray = Any


T = TypeVar("T")
A = TypeVar("A", IntArray, BoolArray)  # a derived column: numbers or a mask

# Derived columns kept at once: one per pod shape and plugin, about 8 bytes per node each.
DERIVED_LIMIT = 64
# Up to this many changed nodes, a derived column is brought up to date node by node.
FEW_NODES = 8


def pick(items: Sequence[T], positions: list[int]) -> list[T]:
    """``items`` at ``positions``, in order (itemgetter: no Python frame per item)."""
    if len(positions) > 1:
        return list(itemgetter(*positions)(items))
    return [items[i] for i in positions]


class LiveNodes(list["NodeInfo"]):
    """Live node infos that also carry their column positions, so that code taking the
    list (scoring) need not rebuild the positions from the infos."""

    __slots__ = ("positions",)

    def __init__(self, infos: list[NodeInfo], positions: IntArray) -> None:
        super().__init__(infos)
        self.positions = positions


class PodWatcher(Protocol):
    def pod_changed(self, ni: NodeInfo, pod: Pod, sign: int) -> None: ...


W = TypeVar("W", bound=PodWatcher)


class NodeColumns:
    """The live nodes' data as arrays, kept current by ``update`` on every bind and removal.

    The base arrays (name ranks, allocatable and requested resources, pod counts) are
    made with the first read of one of them, so a plan that takes only per-node paths
    never imports NumPy (``lazy_numpy``).
    """

    name_rank: IntArray
    alloc_cpu: IntArray
    alloc_mem: IntArray
    alloc_eph: IntArray
    alloc_pods: IntArray
    req_cpu: IntArray
    req_mem: IntArray
    req_eph: IntArray
    nz_cpu: IntArray
    nz_mem: IntArray
    pod_count: IntArray
    affinity_pods: IntArray
    anti_affinity_pods: IntArray
    positions: IntArray

    def __init__(self, infos: Sequence[NodeInfo]) -> None:
        self.size = len(infos)
        self.infos = list(infos)
        self.names = [ni.name for ni in infos]
        self.by_name = {ni.name: ni for ni in infos}
        self._scalar_req: dict[str, IntArray] = {}
        # Live per-node counts of pods matching a predicate (e.g. a spread selector).
        self._match_counts: dict[Any, tuple[IntArray, Callable[[Pod], int]]] = {}
        # Live per-node sums of a request over pods below a priority, by (priority, name).
        self._below: dict[tuple[int, str], IntArray] = {}
        self._scalar_alloc: dict[str, IntArray] = {}
        # Plugin indexes told of every pod bound to or removed from a live node.
        self._watchers: dict[Any, PodWatcher] = {}
        # Positions of the nodes whose pods changed, in order; derived columns catch up
        # from their place in it when next read.
        self._touched: list[int] = []
        self._derived: dict[Any, list[Any]] = {}
        # Per-plugin caches of results that depend only on static node data
        # (labels, taints): keyed by the plugin and the pod's relevant spec.
        self.static_cache: dict[Any, Any] = {}
        # Until its arrays are made the object is an _Unmade, whose __getattr__ makes them;
        # NodeColumns itself has none, since one would slow every attribute read.
        self.__class__ = _Unmade

    # Whether the base arrays exist (a plan on per-node paths never makes them).
    arrays_made = True

    def _build(self) -> None:
        infos, n = self.infos, self.size
        self.__class__ = NodeColumns
        # Each node's place in name order: ties among nodes go by name without strings.
        self.name_rank = np.empty(n, dtype=np.int64)
        self.name_rank[sorted(range(n), key=self.names.__getitem__)] = np.arange(n)
        self.alloc_cpu = np.array([ni.allocatable.milli_cpu for ni in infos], dtype=np.int64)
        self.alloc_mem = np.array([ni.allocatable.memory for ni in infos], dtype=np.int64)
        self.alloc_eph = np.array(
            [ni.allocatable.ephemeral_storage for ni in infos], dtype=np.int64
        )
        self.alloc_pods = np.array(
            [ni.allocatable.allowed_pod_number for ni in infos], dtype=np.int64
        )
        self.req_cpu = np.zeros(n, dtype=np.int64)
        self.req_mem = np.zeros(n, dtype=np.int64)
        self.req_eph = np.zeros(n, dtype=np.int64)
        self.nz_cpu = np.zeros(n, dtype=np.int64)
        self.nz_mem = np.zeros(n, dtype=np.int64)
        self.pod_count = np.zeros(n, dtype=np.int64)
        self.affinity_pods = np.zeros(n, dtype=np.int64)
        self.anti_affinity_pods = np.zeros(n, dtype=np.int64)
        self.positions = np.arange(n, dtype=np.int64)
        for i, ni in enumerate(infos):
            self._update_base(i, ni)

    def update(self, i: int, ni: NodeInfo, pod: Pod | None = None, sign: int = 0) -> None:
        """Node ``i`` changed (``pod`` added with sign 1 or removed with -1, if given)."""
        if pod is not None:
            self._touched.append(i)
            for watcher in self._watchers.values():
                watcher.pod_changed(ni, pod, sign)
            for (priority, name), column in self._below.items():
                if pod.priority < priority:
                    column[i] += sign * amount(pod, name)
        self._update_base(i, ni)
        for name, column in self._scalar_req.items():
            column[i] = ni.requested.scalar_resources.get(name, 0)
        for column, per_pod in self._match_counts.values():
            if pod is None:
                column[i] = sum(per_pod(pi.pod) for pi in ni.pods)
            else:  # one pod came or went: add or take away what it counts
                column[i] += sign * per_pod(pod)

    def _update_base(self, i: int, ni: NodeInfo) -> None:
        req = ni.requested
        self.req_cpu[i] = req.milli_cpu
        self.req_mem[i] = req.memory
        self.req_eph[i] = req.ephemeral_storage
        self.nz_cpu[i] = ni.non_zero_requested.milli_cpu
        self.nz_mem[i] = ni.non_zero_requested.memory
        self.pod_count[i] = len(ni.pods)
        self.affinity_pods[i] = len(ni.pods_with_affinity)
        self.anti_affinity_pods[i] = len(ni.pods_with_required_anti_affinity)

    @property
    def changes(self) -> int:
        """Pods bound or removed so far."""
        return len(self._touched)

    def scalar_requested(self, name: str) -> IntArray:
        """Kept current by update() once created."""
        return self._scalar(self._scalar_req, name, lambda ni: ni.requested)

    def scalar_allocatable(self, name: str) -> IntArray:
        return self._scalar(self._scalar_alloc, name, lambda ni: ni.allocatable)

    def _scalar(self, cache: dict[str, IntArray], name: str, resource: Any) -> IntArray:
        column = cache.get(name)
        if column is None:
            column = np.array(
                [resource(ni).scalar_resources.get(name, 0) for ni in self.infos], dtype=np.int64
            )
            cache[name] = column
        return column

    def requested_below(self, priority: int, name: str) -> IntArray:
        """Per node, what its pods of priority below ``priority`` request of ``name``
        (``nominations.PODS_COUNT``: how many there are); kept current once created."""
        column = self._below.get((priority, name))
        if column is None:
            column = np.fromiter(
                (
                    sum(amount(pi.pod, name) for pi in ni.pods if pi.pod.priority < priority)
                    for ni in self.infos
                ),
                dtype=np.int64,
                count=self.size,
            )
            self._below[(priority, name)] = column
        return column

    def match_counts(self, key: Any, per_pod: Callable[[Pod], int]) -> IntArray:
        """Per node the sum of ``per_pod`` over its pods, kept current as pods come and go
        (keyed by ``key``); ``per_pod`` must read only what a pod keeps for the whole plan
        (labels, namespace, deletion)."""
        entry = self._match_counts.get(key)
        if entry is None:
            column = np.fromiter(
                (sum(per_pod(pi.pod) for pi in ni.pods) for ni in self.infos),
                dtype=np.int64,
                count=self.size,
            )
            entry = (column, per_pod)
            self._match_counts[key] = entry
        return entry[0]

    def derived(
        self,
        key: Any,
        compute: Callable[[IntArray], A],
        compute_one: Callable[[NodeInfo], Any],
    ) -> A:
        """Per live node ``compute(positions)`` (elementwise over the nodes' own data),
        computed once per ``key`` and then again only where pods changed: by the per-node
        reference ``compute_one`` for a few nodes, where NumPy's call cost would dominate.

        Bounded: the least recently read of more than DERIVED_LIMIT keys is dropped.
        """
        entry = self._derived.pop(key, None)
        touched = self._touched
        if entry is None or len(touched) - entry[1] >= self.size:
            entry = [compute(self.positions), len(touched)]
            if len(self._derived) >= DERIVED_LIMIT:
                del self._derived[next(iter(self._derived))]
        elif entry[1] < len(touched):
            stale = set(touched[entry[1] :])
            column = entry[0]
            if len(stale) <= FEW_NODES:
                infos = self.infos
                for i in stale:
                    column[i] = compute_one(infos[i])
            else:
                at = np.array(sorted(stale), dtype=np.int64)
                column[at] = compute(at)
            entry[1] = len(touched)
        self._derived[key] = entry  # last read: dropped last
        result: A = entry[0]
        return result

    def watcher(self, key: Any, build: Callable[[Sequence[NodeInfo]], W]) -> W:
        """The index under ``key``, built from the live nodes on first use, then kept
        current by ``pod_changed`` on every bind and removal."""
        found = self._watchers.get(key)
        if found is None:
            found = build(self.infos)
            self._watchers[key] = found
        return cast(W, found)

    def static_ids(self, key: Any, value: Any) -> tuple[IntArray, list[Any]]:
        """Per node an int id of ``value(node_info)`` (-1 for None), and the id -> value list."""
        found: tuple[IntArray, list[Any]] | None = self.static_cache.get(key)
        if found is None:
            ids: dict[Any, int] = {}
            column = np.full(self.size, -1, dtype=np.int64)
            for i, ni in enumerate(self.infos):
                v = value(ni)
                if v is not None:
                    column[i] = ids.setdefault(v, len(ids))
            found = (column, list(ids))
            self.static_cache[key] = found
        return found

    def static_mask(self, key: Any, compute: Any) -> BoolArray:
        """A per-node boolean that depends only on static node data, computed once per key."""
        mask: BoolArray | None = self.static_cache.get(key)
        if mask is None:
            mask = np.fromiter(
                (bool(compute(ni)) for ni in self.infos), dtype=np.bool_, count=self.size
            )
            self.static_cache[key] = mask
        return mask


class _Unmade(NodeColumns):
    """NodeColumns before the first read of a base array: binds leave the arrays to be
    made from the nodes as they are then."""

    arrays_made = False

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        self._build()  # now a NodeColumns: a name it lacks raises as usual
        return getattr(self, name)

    def _update_base(self, i: int, ni: NodeInfo) -> None:
        pass
