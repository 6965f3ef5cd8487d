"""A container's resources as ValidateResourceRequirements (v1.30.6) judges them: names
(validateContainerResourceName), whole integer and extended amounts, whole hugepages."""

from __future__ import annotations

from typing import Any

import pytest

from ksched_cli.api.resource_names import is_extended
from ksched_cli.manifests.checks import check_object
from ksched_cli.manifests.container_resources import container_resource_problems

STD = "must be a standard resource type or fully qualified"
CONTAINER = "must be a standard resource for containers"


@pytest.mark.parametrize(
    ("requests", "limits", "problems"),
    [
        ({"cpu": "1", "memory": "1Gi", "ephemeral-storage": "1Gi", "example.com/gpu": "2",
          "hugepages-2Mi": "4Mi", "kubernetes.io/x": "1"}, None, []),
        # Not a resource at all: both of validateContainerResourceName's complaints.
        ({"foo": "1"}, None, [("requests.foo", f"Invalid value: foo: {STD}"),
                              ("requests.foo", f"Invalid value: foo: {CONTAINER}")]),
        # A standard resource, but not one a container requests.
        ({"pods": "1"}, None, [("requests.pods", f"Invalid value: pods: {CONTAINER}")]),
        # requests.-prefixed names are quota names, never extended resources.
        ({"example.com/requests.x": "1"}, None, []),
        ({"example.com/bad_": "1"}, None,
         [("requests.example.com/bad_", "Invalid value: example.com/bad_: name part must "
           "consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
           "an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex "
           "used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
          ("requests.example.com/bad_",
           "Invalid value: example.com/bad_: doesn't follow extended resource name "
           "standard")]),
        # Extended resources are counted in whole units; limits are judged first.
        ({"example.com/gpu": "1.5"}, {"example.com/gpu": "2500m"},
         [("limits.example.com/gpu", 'Invalid value: "2500m": must be an integer'),
          ("requests.example.com/gpu", 'Invalid value: "1500m": must be an integer')]),
        # Hugepages in whole pages of the size the name gives.
        ({"cpu": "1", "hugepages-2Mi": "3Mi"}, {"hugepages-2Mi": "3Mi"},
         [("limits.hugepages-2Mi",
           'Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi'),
          ("requests.hugepages-2Mi",
           'Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi')]),
        # Not enforced (conformance inputs write extended resources as requests alone).
        ({"example.com/gpu": "1"}, None, []),
        # Unparsable or negative amounts are the type-level rule's.
        ({"cpu": "x", "memory": "-1"}, None, []),
    ],
)
def test_container_resource_problems(
    requests: dict[str, Any], limits: dict[str, Any] | None, problems: list[tuple[str, str]]
) -> None:
    assert container_resource_problems(requests, limits) == problems


@pytest.mark.parametrize(
    ("name", "extended"),
    [("example.com/gpu", True), ("cpu", False), ("kubernetes.io/foo", False),
     ("requests.example.com/gpu", False), ("a/b/c", False)],
)
def test_is_extended(name: str, extended: bool) -> None:
    assert is_extended(name) is extended


def test_paths_in_a_pod() -> None:
    pod = {
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "i", "resources": {
            "requests": {"example.com/gpu": "0.5"}}}]},
    }
    found = [(e.field, e.message) for e in check_object("Pod", "v1", pod, True)]
    assert found == [("spec.containers[0].resources.requests.example.com/gpu",
                      'Invalid value: "500m": must be an integer')]


def test_limits_alone_are_judged() -> None:
    """A container with limits and no requests (requests default from limits later)."""
    pod = {
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "i", "resources": {
            "limits": {"hugepages-1Gi": "1536Mi", "memory": "2Gi"}}}]},
    }
    found = [(e.field, e.message) for e in check_object("Pod", "v1", pod, True)]
    assert found == [("spec.containers[0].resources.limits.hugepages-1Gi",
                      'Invalid value: "1536Mi": 1536Mi is not positive integer multiple of '
                      "hugepages-1Gi")]
