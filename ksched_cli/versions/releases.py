"""The kube-scheduler releases ksched replays: ``--kubernetes-version`` and ``ksched versions``."""

from __future__ import annotations

import re

from ..record import field_specs, record
from .features import Features

DEFAULT_VERSION = "1.36"
ENV_VAR = "KSCHED_KUBERNETES_VERSION"


@record(frozen=True)
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
        for f in field_specs(Features)
        if "release" in f.metadata and _minor(str(f.metadata["release"])) <= target
    }
    return Features(version=version, **changed)


_KNI = "vendored in openshift-kni/scheduler-plugins"
_MICROSHIFT = (
    "k8s.io/kubernetes v1.36.2 carried in full by openshift/microshift (HEAD of 2026-08-21, "
    "deps/github.com/openshift/kubernetes; no OpenShift patch in pkg/scheduler)"
)
_CORPUS = "conformance cases decided by the real kube-scheduler {patch} framework"


def _tables(first: str) -> str:
    return (
        f"{_CORPUS}; a table for every switch (upstream's unit-test rows where they exist, "
        f"else rows following the code read from {first} on), and golden plans"
    )


RELEASES: dict[str, Release] = {
    r.version: r
    for r in (
        Release(
            "1.30",
            "v1.30.6",
            "178 conformance cases decided by the real kube-scheduler v1.30.6 and ~300 rows "
            "of upstream v1.30 unit-test tables",
            "k8s.io/kubernetes v1.30.6 vendored in kubernetes-sigs/scheduler-plugins@d250c4b9 "
            "and openshift-kni/scheduler-plugins@da60eee33 (Coscheduling v0.30 from the same "
            "tree)",
            features_for("1.30"),
        ),
        Release(
            "1.31",
            "v1.31.8",
            "ported only: every 1.31 hunk of the release audit (docs/versions.md) has a "
            "switch tested with rows following the code; no conformance corpus of 1.31",
            f"k8s.io/kubernetes v1.31.8 {_KNI}@d732734a7; Coscheduling as the same tree's "
            "pkg/coscheduling (the v0.30 argument checks)",
            features_for("1.31"),
        ),
        Release(
            "1.32",
            "v1.32.5",
            _tables("v1.32.5").format(patch="v1.32.10"),
            f"k8s.io/kubernetes v1.32.5 {_KNI}@626961baa; Coscheduling as "
            "kubernetes-sigs/scheduler-plugins v0.32.7",
            features_for("1.32"),
        ),
        Release(
            "1.33",
            "v1.33.3",
            _tables("v1.33.3").format(patch="v1.33.3"),
            f"k8s.io/kubernetes v1.33.3 {_KNI}@cab0abbf4 (no v1.33.5 tree is readable); "
            "Coscheduling as kubernetes-sigs/scheduler-plugins v0.32.7 (no release is built on "
            "1.33)",
            features_for("1.33"),
        ),
        Release(
            "1.34",
            "v1.34.7",
            _tables("v1.34.7").format(patch="v1.34.7"),
            f"k8s.io/kubernetes v1.34.7 {_KNI}@3d6d3a01b; Coscheduling as "
            "kubernetes-sigs/scheduler-plugins v0.32.7 (v0.34's changes are not ported: "
            "docs/versions.md)",
            features_for("1.34"),
        ),
        Release(
            "1.35",
            "v1.35.7",
            _tables("v1.35.7").format(patch="v1.35.7"),
            f"k8s.io/kubernetes v1.35.7 {_KNI}@2117d3e30; Coscheduling as "
            "kubernetes-sigs/scheduler-plugins v0.32.7 (v0.34's changes are not ported: "
            "docs/versions.md)",
            features_for("1.35"),
        ),
        Release(
            "1.36",
            "v1.36.2",
            _tables("v1.36.2").format(patch="v1.36.2"),
            f"{_MICROSHIFT}; Coscheduling as kubernetes-sigs/scheduler-plugins v0.32.7 (no "
            "release is built on 1.36; v0.34's changes are not ported: docs/versions.md)",
            features_for("1.36"),
        ),
    )
}


class UnsupportedVersion(ValueError):
    pass


def supported() -> list[str]:
    return list(RELEASES)


_VERSION = re.compile(r"^v?(\d+)\.(\d+)(?:\.(\d+))?$")


def release(version: str) -> Release:
    """The release for ``1.35``, ``v1.35`` or a patch form such as ``1.35.7`` (which names
    its minor: each minor replays one patch, listed by ``ksched versions``); anything
    else raises UnsupportedVersion."""
    given = version.strip()
    match = _VERSION.match(given)
    found = RELEASES.get(f"{int(match[1])}.{int(match[2])}") if match else None
    if found is None:
        names = ", ".join(supported())
        raise UnsupportedVersion(
            f'unsupported Kubernetes version "{given}": supported versions are {names}'
        )
    return found
