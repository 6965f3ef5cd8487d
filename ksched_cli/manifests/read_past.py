"""What the loader reads past, said once per load as one warning line each.

Objects of kinds ksched does not use, finished pods (kube-scheduler's informer never
sees them), and, from the release where DynamicResources runs by default (v1.34+),
pods asking for ResourceClaims: ksched reads no ResourceClaim, DeviceClass or
ResourceSlice, so it plans such a pod as if it asked for none, where kube-scheduler
would place it only on a node its claims can be allocated on. Releases with the DRA
gate off store no ``resourceClaims`` at all, so nothing is lost there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..api.pod_level import pod_spec_of
from ..versions.features import Features


class ReadPast:
    def __init__(self, features: Features) -> None:
        self.ignored: Counter[tuple[str, str | None]] = Counter()
        self.finished_pods = 0
        self.claims = 0  # pending pods and pod templates naming resourceClaims
        self._dra = features.dra_in_default_profile
        self._version = features.version

    def see(self, kind: str, raw: Mapping[str, Any]) -> None:
        """Counts ``raw`` when it is a pending pod, or a pod template, with claims."""
        if not self._dra:
            return
        spec = pod_spec_of(kind, raw)
        if spec is not None and spec.get("resourceClaims") and not (
            kind == "Pod" and spec.get("nodeName")
        ):
            self.claims += 1

    def warnings(self) -> list[str]:
        found = []
        if self.ignored:
            parts = [
                f"{kind} ({count})" if api is None else f"{kind} {api} ({count})"
                for (kind, api), count in sorted(
                    self.ignored.items(), key=lambda i: (i[0][0], i[0][1] or "")
                )
            ]
            # One short line: the kinds read are listed in --help and the README.
            found.append(
                f"ignoring {sum(self.ignored.values())} object(s) of kinds ksched does not "
                f"read: {', '.join(parts)}"
            )
        if self.finished_pods:
            found.append(
                f"ignoring {self.finished_pods} Pod(s) in phase Succeeded or Failed "
                "(kube-scheduler does not see finished pods)"
            )
        if self.claims:
            found.append(
                f"ignoring spec.resourceClaims of {self.claims} pending Pod(s) or pod "
                f"template(s): ksched does not model DynamicResources, so they are planned "
                f"as if they claimed no device (kube-scheduler v{self._version} places them "
                f"only where their ResourceClaims can be allocated)"
            )
        return found

