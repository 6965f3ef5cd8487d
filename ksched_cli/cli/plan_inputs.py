"""``ksched plan``'s inputs: the profile and the cluster, checked before anything is planned."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

import click

from ..config.load import load_config
from ..config.types import SchedulerConfig
from ..engine.cluster import Cluster
from ..errors import KschedError, Location
from ..manifests.loader import LoadResult
from ..manifests.sources import manifest_sources
from ..versions.features import Features
from ..whatif.inputs import load_cluster
from .progress import loading_line

EXIT_ERROR = 1


def load_or_exit(
    config: str,
    paths: Sequence[str],
    features: Features,
    namespace: str | None = None,
) -> tuple[SchedulerConfig, LoadResult]:
    """The profile and the cluster, or one error line on stderr and exit 1: nothing is planned."""
    try:
        cfg = load_config(config, features)
        _require_manifest_files(paths)
        with loading_line("manifests"):
            loaded = load_cluster(
                list(paths), kubernetes_version=features.version, namespace=namespace
            )
        _require_objects(loaded.cluster, paths)
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(EXIT_ERROR)
    return cfg, loaded


def explained_or_exit(
    cluster: Cluster, wanted: Sequence[str], namespace: str | None,
    before: Mapping[str, str] | None = None,
) -> tuple[str, ...]:
    """The pods every ``--explain-pod`` name stands for, or one error line and exit 1;
    named once the what-if operations have run (the pods they created count), with
    ``before``'s pods (key -> owner: the input's, those they deleted)."""
    try:
        return _require_pods(cluster, wanted, namespace, before)
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(EXIT_ERROR)


def _require_manifest_files(paths: Sequence[str]) -> None:
    # The loader only warns about an empty directory (it may sit beside others);
    # when no path holds a manifest at all, planning nothing would hide the mistake.
    files, _ = manifest_sources(paths)
    if not files:
        raise KschedError("no *.yaml, *.yml or *.json files to read", _where(paths))


def _require_objects(cluster: Cluster, paths: Sequence[str]) -> None:
    if not cluster.nodes and not cluster.pods:
        raise KschedError("nothing to plan: no Node or Pod objects", _where(paths))


def _where(paths: Sequence[str]) -> Location | None:
    return Location(paths[0]) if len(paths) == 1 else None


def _require_pods(
    cluster: Cluster, wanted: Sequence[str], namespace: str | None,
    before: Mapping[str, str] | None,
) -> tuple[str, ...]:
    """The pods every ``--explain-pod`` name stands for (a workload: its pods), checked
    before the plan runs; a StatefulSet pod an OrderedReady set creates during the plan
    counts."""
    if not wanted:
        return ()
    from ..controllers import member_keys  # only here: start-up of plans without workloads
    from .names import resolve_pods

    return resolve_pods(
        cluster, wanted, namespace, member_keys(cluster), "--explain-pod", before
    )
