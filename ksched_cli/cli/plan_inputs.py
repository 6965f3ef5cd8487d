"""``ksched plan``'s inputs: the profile and the cluster, checked before anything is planned."""

from __future__ import annotations

import sys
from collections.abc import Collection, Sequence

import click

from ..config.load import load_config
from ..config.types import SchedulerConfig
from ..engine.cluster import Cluster
from ..errors import KschedError, Location
from ..manifests.loader import LoadResult, load_cluster
from ..manifests.sources import manifest_sources
from ..versions.features import Features
from .progress import loading_line

EXIT_ERROR = 1


def load_or_exit(
    config: str,
    paths: Sequence[str],
    explain_pod: Sequence[str],
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
        _require_pods(loaded.cluster, explain_pod)
    except KschedError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(EXIT_ERROR)
    return cfg, loaded


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


def _require_pods(cluster: Cluster, wanted: Sequence[str]) -> None:
    """Every ``--explain-pod`` names a pod of the input (checked before the plan runs),
    or a StatefulSet pod an OrderedReady set creates during the plan."""
    if not wanted:
        return
    from ..controllers import member_keys  # only here: start-up of plans without workloads

    keys = {p.key for p in cluster.pods} | member_keys(cluster)
    for name in wanted:
        if name not in keys:
            raise KschedError(
                f"no pod {name} in the input{_suggestion(name, keys)}", field="--explain-pod"
            )


def _suggestion(wanted: str, keys: Collection[str]) -> str:
    """`` (did you mean NS/NAME?)`` for a bare NAME, a wrong namespace or a typo, else ""."""
    from difflib import SequenceMatcher  # only on this error path (start-up)

    namespace, _, name = wanted.rpartition("/")
    pods = sorted(tuple(key.split("/", 1)) for key in keys)
    same_name = [f"{ns}/{n}" for ns, n in pods if n == name]
    if same_name:
        return f" (did you mean {same_name[0]}?)"
    # A bare NAME means the default namespace, as kubectl reads it.
    namespace = namespace or "default"
    # max() keeps the first of equally close names: the lowest, as pods are sorted.
    ratio, closest = max(
        ((SequenceMatcher(None, name, n).ratio(), n) for ns, n in pods if ns == namespace),
        key=lambda scored: scored[0],
        default=(0.0, ""),
    )
    return f" (did you mean {namespace}/{closest}?)" if ratio >= 0.6 else ""
