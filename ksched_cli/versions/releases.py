"""The kube-scheduler releases ksched replays: ``--kubernetes-version`` and ``ksched versions``."""

from __future__ import annotations

from dataclasses import dataclass, fields

from .features import Features

DEFAULT_VERSION = "1.30"
ENV_VAR = "KSCHED_KUBERNETES_VERSION"


@dataclass(frozen=True)
class Release:
    """A kube-scheduler release ksched replays, and how it is checked."""

    version: str  # the minor, as given to --kubernetes-version
    patch: str  # the exact release whose behaviour is replayed
    verified: str  # how ksched's replay of it is checked
    sources: str  # where its behaviour was read
    features: Features


def _minor(version: str) -> tuple[int, int]:
    major, minor = version.split(".")
    return int(major), int(minor)


def minor_version(version: str) -> str:
    """``1.32`` for ``1.32``, ``v1.32`` or ``v1.32.5``."""
    return ".".join(version.lstrip("v").split(".")[:2])


def features_for(version: str) -> Features:
    """Every switch introduced up to ``version`` takes its new value; the rest stay v1.30.6."""
    target = _minor(version)
    changed = {
        f.name: not f.default
        for f in fields(Features)
        if "release" in f.metadata and _minor(str(f.metadata["release"])) <= target
    }
    return Features(version=version, **changed)


RELEASES: dict[str, Release] = {
    r.version: r
    for r in (
        Release(
            "1.30",
            "v1.30.6",
            "178 conformance cases and ~300 rows of upstream v1.30 unit-test tables",
            "k8s.io/kubernetes v1.30.6 vendored in kubernetes-sigs/scheduler-plugins@d250c4b9 "
            "(Coscheduling v0.30 from the same tree)",
            features_for("1.30"),
        ),
        Release(
            "1.32",
            "v1.32.5",
            "a table for every switch (upstream's v1.32 unit-test rows where they exist, "
            "else rows following the code read), and golden plans",
            "k8s.io/kubernetes v1.32.5 vendored in openshift-kni/scheduler-plugins@0aead6551; "
            "Coscheduling as kubernetes-sigs/scheduler-plugins v0.32.7",
            features_for("1.32"),
        ),
        Release(
            "1.36",
            "v1.36.3",
            "a table for every switch (upstream's v1.32-v1.36 unit-test rows where they exist, "
            "else rows following the code read), and golden plans; scheduler code read at "
            "v1.35.7 plus the v1.36 changes; "
            "BalancedAllocation's change-in-balance score read in post-merge master and "
            "checked against upstream's post-merge test table (docs/versions.md)",
            "v1.33.3, v1.34.1 and v1.35.7 vendored in openshift-kni/scheduler-plugins@0c967825a, "
            "@30d55f730 and @2117d3e30, k8s.io/kube-scheduler v0.36.3, kubernetes/kubernetes "
            "master after PR #135573 (resource_allocation.go at 1175e166), component-helpers "
            "v0.36.3; Coscheduling as scheduler-plugins v0.32.7 (no release is built on 1.36)",
            features_for("1.36"),
        ),
    )
}


class UnsupportedVersion(ValueError):
    pass


def supported() -> list[str]:
    return list(RELEASES)


def release(version: str) -> Release:
    """The release for ``1.32`` or ``v1.32``; anything else raises UnsupportedVersion.

    A patch number is refused rather than rounded: each minor replays one patch release.
    """
    given = version.strip()
    found = RELEASES.get(given.removeprefix("v"))
    if found is None:
        names = ", ".join(supported())
        raise UnsupportedVersion(
            f'unsupported Kubernetes version "{given}": supported versions are {names}'
        )
    return found
