"""``-n NS`` as ``kubectl apply -n NS -f`` reads it: objects naming no namespace go to NS.

In a file where it placed an object (a chart rendered without namespaces), an object that
names another namespace is refused in kubectl's words; a file whose objects all name
theirs (a snapshot) is read as it is, and ``-n`` then only chooses what is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, TypeVar

from ..api.fields import Raw

Where = TypeVar("Where")


def mismatch(found: str, wanted: str) -> str:
    """kubectl's refusal (apply's namespace check) for an object of another namespace."""
    return (f'the namespace from the provided object "{found}" does not match the namespace '
            f"\"{wanted}\". You must pass '--namespace={found}' to perform this operation.")


class ApplyNamespace(Generic[Where]):
    """The namespace of one load's ``-n`` (None: none given), file by file."""

    def __init__(self, namespace: str | None) -> None:
        self.namespace = namespace
        self._placed = False
        self._foreign: list[tuple[Where, str]] = []

    def place(self, raw: Raw, where: Where) -> Raw:
        """``raw`` in -n's namespace when it names none; another one is noted."""
        meta = raw.get("metadata")
        if self.namespace is None or not isinstance(meta, Mapping):
            return raw
        found = meta.get("namespace")
        if not found:
            self._placed = True
            return {**raw, "metadata": {**meta, "namespace": self.namespace}}
        if found != self.namespace:
            self._foreign.append((where, str(found)))
        return raw

    def file_done(self) -> list[tuple[Where, str]]:
        """The refusals of the file just read (none unless -n placed one of its objects)."""
        assert self.namespace is not None or not self._foreign
        refused = [(w, mismatch(found, self.namespace or "")) for w, found in self._foreign
                   ] if self._placed else []
        self._placed, self._foreign = False, []
        return refused
