"""Pod templates of workload objects, checked as the API server checks them.

A template is parsed once into a prototype ``Pod`` (``parse_pod`` on the template's
metadata and spec), so a template that is not a valid pod is reported with the field
path under ``spec.template``; controllers then stamp copies of the prototype.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import ObjectError
from ..record import record
from .fields import Raw, integer, mapping, string, string_map
from .pod import Pod, parse_pod
from .selectors import LabelSelector


@record(frozen=True, slots=True)
class PodTemplate:
    """``spec.template`` of a workload: the raw form (hashes, equality) and the prototype pod."""

    raw: Raw
    labels: dict[str, str]
    annotations: dict[str, str]
    pod: Pod
    restart_policy: str
    hostname: str
    subdomain: str


def parse_template(owner: Raw, raw: Any, path: str, namespace: str) -> PodTemplate:
    """The template at ``path`` (e.g. ``spec.template``) of the object ``owner``."""
    if not isinstance(raw, Mapping):
        what = "Required value" if raw is None else "expected an object"
        raise ObjectError(path, what)
    meta = mapping(raw, "metadata", path)
    spec = mapping(raw, "spec", path)
    # The prototype takes the owner's name: pods get their own names when stamped.
    owner_name = owner["metadata"]["name"]
    pod_raw = {
        "metadata": {**meta, "name": owner_name, "namespace": namespace},
        "spec": spec,
    }
    try:
        pod = parse_pod(pod_raw)
    except ObjectError as exc:
        raise exc.prefixed(path) from None
    return PodTemplate(
        raw=raw,
        labels=dict(pod.labels),
        annotations=dict(pod.meta.annotations),
        pod=pod,
        restart_policy=string(spec, "restartPolicy", f"{path}.spec") or "Always",
        hostname=string(spec, "hostname", f"{path}.spec"),
        subdomain=string(spec, "subdomain", f"{path}.spec"),
    )


def go_map(values: Mapping[str, str]) -> str:
    """Go's ``%#v`` of a map[string]string, as field.Invalid prints template labels."""
    inner = ", ".join(f'"{k}":"{v}"' for k, v in sorted(values.items()))
    return f"map[string]string{{{inner}}}"


def check_selector_matches(selector: LabelSelector, template: PodTemplate, path: str) -> None:
    """ValidatePodTemplateSpecForReplicaSet and friends: the selector must select the template."""
    if not selector.is_empty and not selector.matches(template.labels):
        raise ObjectError(
            f"{path}.metadata.labels",
            f"Invalid value: {go_map(template.labels)}: `selector` does not match template "
            "`labels`",
        )


def non_negative(spec: Raw, key: str, path: str, default: int | None) -> int | None:
    """An int32 count that must not be negative (ValidateNonnegativeField)."""
    value = integer(spec, key, path, default)
    if value is not None and value < 0:
        raise ObjectError(f"{path}.{key}", f"Invalid value: {value}: must be greater than or "
                          "equal to 0")
    return value


def check_restart_policy(template: PodTemplate, path: str, allowed: tuple[str, ...]) -> None:
    if template.restart_policy not in allowed:
        supported = ", ".join(f'"{a}"' for a in allowed)
        raise ObjectError(
            f"{path}.spec.restartPolicy",
            f'Unsupported value: "{template.restart_policy}": supported values: {supported}',
        )


def labels_of(raw: Raw, path: str) -> dict[str, str]:
    return string_map(mapping(raw, "metadata", path), "labels", f"{path}.metadata")
