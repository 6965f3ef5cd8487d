"""The grammar of printed pod and workload names (api/printed_names.py), form by form."""

from __future__ import annotations

import pytest

from ksched_cli.api.printed_names import Name, kind_of, parse_name
from ksched_cli.errors import KschedError


@pytest.mark.parametrize(
    ("text", "namespace", "expected"),
    [
        ("web-0", None, Name("default", "pod", "web-0", bare=True)),
        ("web-0", "shop", Name("shop", "pod", "web-0", bare=True)),
        ("shop/web-0", None, Name("shop", "pod", "web-0", bare=True)),
        ("shop/web-0", "other", Name("shop", "pod", "web-0", bare=True)),
        ("pod/web-0", "shop", Name("shop", "pod", "web-0")),
        ("pods/web-0", None, Name("default", "pod", "web-0")),
        ("deployment/web", "shop", Name("shop", "deployment", "web")),
        ("Deployment/web", None, Name("default", "deployment", "web")),
        ("deploy/web", None, Name("default", "deployment", "web")),
        ("deployment.apps/web", "shop", Name("shop", "deployment", "web")),
        ("deployments.v1.apps/web", None, Name("default", "deployment", "web")),
        ("cronjob.batch/report", None, Name("default", "cronjob", "report")),
        ("shop/deployment/web", None, Name("shop", "deployment", "web")),
        ("shop/sts/db", "other", Name("shop", "statefulset", "db")),
        ("statefulset/shop/db", None, Name("shop", "statefulset", "db")),
        ("rc/old", None, Name("default", "replicationcontroller", "old")),
    ],
)
def test_forms(text: str, namespace: str | None, expected: Name) -> None:
    assert parse_name(text, namespace) == expected


def test_a_pod_key_wins_over_a_kind() -> None:
    # A namespace named like a short kind: the pod it holds is meant.
    assert parse_name("rs/web", None, frozenset({"rs/web"})) == Name("rs", "pod", "web", True)
    assert parse_name("rs/web", None) == Name("default", "replicaset", "web")


@pytest.mark.parametrize(
    ("text", "kind"),
    [("deployment", "deployment"), ("deployment.apps", "deployment"),
     ("deployment.v1.apps", "deployment"), ("deployment.batch", None),
     ("job.batch", "job"), ("job.apps", None), ("pod.v1", None), ("service", None)],
)
def test_kind_of(text: str, kind: str | None) -> None:
    assert kind_of(text) == kind


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a/b/c/d", 'malformed name "a/b/c/d": expected NAME, NS/NAME, KIND/NAME or '
                    "NS/KIND/NAME (pod/NAME, deployment.apps/NAME...)"),
        ("shop//web", 'malformed name "shop//web": expected NAME, NS/NAME, KIND/NAME or '
                      "NS/KIND/NAME (pod/NAME, deployment.apps/NAME...)"),
        ("a/b/c", 'malformed name "a/b/c": expected NAME, NS/NAME, KIND/NAME or '
                  "NS/KIND/NAME (pod/NAME, deployment.apps/NAME...)"),
        ("deployment.batch/web", 'malformed name "deployment.batch/web": "deployment.batch" '
         "is no kind of Pod, Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, "
         "ReplicationController"),
    ],
)
def test_malformed(text: str, message: str) -> None:
    with pytest.raises(KschedError) as caught:
        parse_name(text, None, option="--explain-pod")
    assert (caught.value.field, caught.value.message) == ("--explain-pod", message)
