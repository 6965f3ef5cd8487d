"""The binder's assume caches (volumebinding/assume_cache.go): the informer's PVs and
PVCs, overlaid with the versions this scheduler has assumed but not yet written.

The informer view is the cluster's dict of objects. Objects there are replaced, never
changed in place, whenever the API state moves on (a completed binding), so an assumed
version is valid only while the cluster still holds the exact object it was assumed
over; once that object is replaced the newer API version wins, as the informer's
update does in kube-scheduler.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

from ...api.storage import PersistentVolume, PersistentVolumeClaim

T = TypeVar("T")


class AssumeCache(Generic[T]):
    def __init__(self, description: str, objects: Callable[[], Mapping[str, T]]) -> None:
        self.description = description
        self._objects = objects
        # key -> (the API object assumed over, the assumed object, uid of the assuming pod)
        self._assumed: dict[str, tuple[T, T, str]] = {}

    def get(self, key: str) -> T | None:
        """The latest object: the assumed version while it is current, else the API one."""
        api = self._objects().get(key)
        entry = self._assumed.get(key)
        if entry is None:
            return api
        if entry[0] is api:
            return entry[1]
        del self._assumed[key]  # the API object moved on
        return api

    def get_api(self, key: str) -> T | None:
        return self._objects().get(key)

    def keys(self) -> list[str]:
        return sorted(self._objects())

    def assume(self, key: str, obj: T, pod_uid: str) -> str | None:
        """Record an assumed version; returns an error text when the object is unknown."""
        api = self._objects().get(key)
        if api is None:
            return f'could not find {self.description} "{key}"'
        self._assumed[key] = (api, obj, pod_uid)
        return None

    def restore(self, key: str) -> None:
        self._assumed.pop(key, None)

    def assumed_by(self, pod_uid: str) -> list[str]:
        """Keys of the objects a pod has assumed and that are still current."""
        keys = [k for k, entry in self._assumed.items() if entry[2] == pod_uid]
        for key in keys:
            self.get(key)  # drops entries the API has moved past
        return [k for k in keys if k in self._assumed]


class PVAssumeCache(AssumeCache[PersistentVolume]):
    def list_pvs(self, storage_class: str) -> list[PersistentVolume]:
        """ListPVs: the latest PVs of a class, by name (the informer index has no order)."""
        pvs = (self.get(key) for key in self.keys())
        return [pv for pv in pvs if pv is not None and pv.storage_class_name == storage_class]


PVCAssumeCache = AssumeCache[PersistentVolumeClaim]
